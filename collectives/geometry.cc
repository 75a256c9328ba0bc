#include "geometry.h"

#include <fmt/format.h>

#include <algorithm>

namespace aries::coll {

const char* TopologyName(Topology t) {
  switch (t) {
    case Topology::kMesh:
      return "mesh";
    case Topology::kTorus:
      return "torus";
    case Topology::kFbfly:
      return "fbfly";
    case Topology::kAries:
      return "aries";
    case Topology::kCmesh:
      return "cmesh";
  }
  return "?";
}

const char* TopologyNames() { return "mesh, torus, fbfly, aries, cmesh"; }

std::optional<Topology> ParseTopology(std::string_view name) {
  for (Topology t :
       {Topology::kMesh, Topology::kTorus, Topology::kFbfly, Topology::kAries, Topology::kCmesh}) {
    if (name == TopologyName(t)) return t;
  }
  return std::nullopt;
}

unsigned RouterPorts(Topology t, unsigned k) { return t == Topology::kFbfly ? 1 + 2 * (k - 1) : 5; }

unsigned LinkLatency(const Geometry& c, unsigned pitches) {
  return c.link_latency + (pitches > 1 ? (pitches - 1) * c.extra_per_pitch : 0);
}

unsigned LongestLinkLatency(const Geometry& c) { return LinkLatency(c, c.k - 1); }

uint64_t DefaultWatchdog(const Geometry& c) {
  return std::max<uint64_t>(5000, 4 * uint64_t{LongestLinkLatency(c)});
}

std::string PortName(unsigned port, unsigned num_ports) {
  static const char* kMesh[] = {"L", "XP", "XM", "YP", "YM"};
  if (num_ports == 5 && port < 5) return kMesh[port];
  return port == 0 ? "L" : fmt::format("P{}", port);
}

unsigned TapLink(unsigned model_tracks, unsigned d, unsigned t, unsigned s) {
  return 4 + d * 2 * model_tracks + 2 * t + s;
}

std::vector<LinkSpec> FixedLinks(const Geometry& c) {
  const unsigned k = c.k;
  auto id = [k](unsigned x, unsigned y) { return y * k + x; };
  std::vector<LinkSpec> links;
  if (c.topology == Topology::kFbfly) {
    // Row all-to-all, then column all-to-all.
    for (unsigned y = 0; y < k; ++y) {
      for (unsigned x1 = 0; x1 < k; ++x1) {
        for (unsigned x2 = x1 + 1; x2 < k; ++x2) {
          links.push_back(
              {id(x1, y), x2 - 1, id(x2, y), x1, x2 - x1, fmt::format("row{}:{}-{}", y, x1, x2)});
        }
      }
    }
    for (unsigned x = 0; x < k; ++x) {
      for (unsigned y1 = 0; y1 < k; ++y1) {
        for (unsigned y2 = y1 + 1; y2 < k; ++y2) {
          links.push_back({id(x, y1), k - 1 + y2 - 1, id(x, y2), k - 1 + y1, y2 - y1,
                           fmt::format("col{}:{}-{}", x, y1, y2)});
        }
      }
    }
    return links;
  }
  for (unsigned y = 0; y < k; ++y) {
    for (unsigned x = 0; x < k; ++x) {
      if (x + 1 < k) {
        links.push_back({id(x, y), 0, id(x + 1, y), 1, 1, fmt::format("x({},{})", x, y)});
      }
      if (y + 1 < k) {
        links.push_back({id(x, y), 2, id(x, y + 1), 3, 1, fmt::format("y({},{})", x, y)});
      }
    }
  }
  if (c.topology == Topology::kTorus) {
    for (unsigned i = 0; i < k; ++i) {
      links.push_back({id(k - 1, i), 0, id(0, i), 1, k - 1, fmt::format("xwrap{}", i)});
      links.push_back({id(i, k - 1), 2, id(i, 0), 3, k - 1, fmt::format("ywrap{}", i)});
    }
  }
  return links;
}

std::vector<std::pair<unsigned, unsigned>> ResolveSegments(const std::vector<bool>& cut) {
  std::vector<std::pair<unsigned, unsigned>> seg;
  int last = -1;
  for (unsigned i = 0; i < cut.size(); ++i) {
    if (!cut[i]) continue;
    if (last >= 0) seg.emplace_back(static_cast<unsigned>(last), i);
    last = static_cast<int>(i);
  }
  return seg;
}

}  // namespace aries::coll
