#include "concentrate.h"

#include <fmt/format.h>

#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "aries_pkg.h"
#include "wiring.h"

namespace aries::coll {

CmeshPlace CmeshPlaceOf(unsigned chiplet, unsigned k) {
  const unsigned x = chiplet % k, y = chiplet / k;
  return {(y / 2) * (k / 2) + x / 2, (x % 2) + 2 * (y % 2)};
}

Geometry CmeshRouters(const Geometry& chiplets) {
  const bool grid = chiplets.topology == Topology::kCmesh || chiplets.topology == Topology::kMesh;
  if (!grid || chiplets.k < 4 || chiplets.k % 2 != 0) {
    throw PlanError(fmt::format(
        "the concentrated mesh groups the 2x2 chiplets of a K x K grid: allowed "
        "package.topology = cmesh (a mesh's program) with K even and at least 4 (got {} with "
        "K = {})",
        TopologyName(chiplets.topology), chiplets.k));
  }
  if (chiplets.local_ports != 1) {
    throw PlanError(fmt::format(
        "the concentrated mesh gives each chiplet one local port of its group's router: allowed "
        "node.local_ports = 1 (got {})",
        chiplets.local_ports));
  }
  if (!chiplets.faults.empty()) {
    throw PlanError("the concentrated mesh is not planned around faults: allowed none");
  }
  Geometry g = chiplets;
  g.topology = Topology::kMesh;
  g.k = chiplets.k / 2;
  g.link_latency = LinkLatency(chiplets, 2);
  g.local_ports = kConcentration;
  return g;
}

unsigned CmeshLocalLatency(const Geometry& chiplets) { return LinkLatency(chiplets, 1); }

namespace {

// (sender, receiver, flow, VC, lane): the messages of a channel arrive in the order sent.
using Chan = std::tuple<unsigned, unsigned, int, unsigned, uint8_t>;

// One router on a message's path: the port it arrives on and the one it leaves by.
struct Step {
  unsigned router, in, out;
};

}  // namespace

CmeshProgram Concentrate(const Program& p, unsigned num_flows) {
  const Geometry routers = CmeshRouters(p.req.geom);
  const unsigned k = p.req.geom.k, kr = routers.k;
  const unsigned n = k * k;
  if (p.num_nodes() != n) {
    throw PlanError(fmt::format("a program of {} nodes for {} chiplets", p.num_nodes(), n));
  }
  num_flows = std::min(num_flows, 64u);
  const unsigned net = RouterPorts(Topology::kMesh, kr);
  const unsigned ports = net + kConcentration - 1;
  auto local = [&](unsigned q) { return hw::LocalPort(q, net); };
  for (unsigned c = 0; c < n; ++c) {
    const NodeProgram& np = p.nodes[c];
    bool muxed = false;
    for (const PortSel& s : np.portsel) muxed = muxed || s.in || s.out;
    if (np.bypass || muxed || !np.ids.empty() || !np.req.steps.empty() || !np.rsp.steps.empty()) {
      throw PlanError(fmt::format(
          "chiplet {}: the concentrated mesh has no bypass, port muxes or collective engine: "
          "allowed point-to-point programs only",
          c));
    }
    for (const Op& o : np.ops) {
      if (o.act == Act::kEngSend || o.act == Act::kEngRecv) {
        throw PlanError(fmt::format(
            "chiplet {}: engine op of id {} on the concentrated mesh: allowed sends and receives",
            c, o.id));
      }
      if (o.port != 0 || o.peer >= n) {
        throw PlanError(fmt::format(
            "chiplet {}: a message with chiplet {} on local port {}: allowed peers below {} on "
            "port 0",
            c, o.peer, o.port, n));
      }
    }
  }
  // The channels, in key order (so the flows come out the same every time).
  std::map<Chan, int> flow_of;
  for (unsigned c = 0; c < n; ++c) {
    for (const Op& o : p.nodes[c].ops) {
      if (o.act == Act::kSend) flow_of[{c, o.peer, o.flow, o.vc, o.lane}] = -1;
    }
  }
  // Path over the router mesh: dimension order (Wiring::DorPath on the routers' links), from
  // the sender's local port to the receiver's.
  Hardware rhw;
  rhw.local_ports = kConcentration;
  rhw.engine = false;
  const std::vector<NodeProgram> idle(size_t{kr} * kr);  // default muxes: the mesh links
  const Wiring wiring(routers, rhw, idle);
  auto path = [&](unsigned a, unsigned b) {
    const CmeshPlace pa = CmeshPlaceOf(a, k), pb = CmeshPlaceOf(b, k);
    std::string why;
    const std::vector<Hop> hops = wiring.DorPath(pa.router, pb.router, 0, &why);
    if (hops.empty() && pa.router != pb.router) {
      throw std::logic_error(fmt::format("router {} -> {}: {}", pa.router, pb.router, why));
    }
    std::vector<Step> s;
    unsigned in = local(pa.local_port);
    for (const Hop& h : hops) {
      s.push_back({h.node, in, h.port});
      in = hw::OppositePort(h.port);
    }
    s.push_back({pb.router, in, local(pb.local_port)});
    return s;
  };
  // table[(router * flows + flow) * ports + in]: 1 + the output, 0 unused.
  std::vector<uint8_t> table(size_t{kr} * kr * num_flows * ports, 0);
  // Flows taken by the channels between one sender and one receiver on one VC: the receiver
  // tells channels apart by (sender, flow, VC), so theirs differ.
  std::map<std::tuple<unsigned, unsigned, unsigned>, uint64_t> pair_flows;
  CmeshProgram out;
  for (auto& [chan, flow] : flow_of) {
    const auto [a, b, old_flow, vc, lane] = chan;
    const std::vector<Step> s = path(a, b);
    out.max_hops = std::max(out.max_hops, static_cast<unsigned>(s.size()));
    uint64_t& taken = pair_flows[{a, b, vc}];
    for (unsigned f = 0; f < num_flows && flow < 0; ++f) {
      if ((taken >> f) & 1u) continue;
      bool free = true;
      for (const Step& st : s) {
        const uint8_t e = table[(size_t{st.router} * num_flows + f) * ports + st.in];
        free = free && (e == 0 || e == st.out + 1);
      }
      if (!free) continue;
      for (const Step& st : s)
        table[(size_t{st.router} * num_flows + f) * ports + st.in] =
            static_cast<uint8_t>(st.out + 1);
      flow = static_cast<int>(f);
      taken |= uint64_t{1} << f;
      out.flows = std::max(out.flows, f + 1);
    }
    if (flow < 0) {
      throw PlanError(fmt::format(
          "the concentrated mesh cannot route chiplet {} -> {} (VC {}): each of the {} flows "
          "conflicts with another channel in some router's table; allowed programs whose "
          "channels fit {} flows",
          a, b, vc, num_flows, num_flows));
    }
  }
  out.channels = static_cast<unsigned>(flow_of.size());
  out.chiplets = p;
  for (unsigned c = 0; c < n; ++c) {
    NodeProgram& np = out.chiplets.nodes[c];
    np.routes.clear();
    for (Op& o : np.ops) {
      if (o.act != Act::kSend && !o.IsRecv()) continue;
      const Chan key = o.act == Act::kSend ? Chan{c, o.peer, o.flow, o.vc, o.lane}
                                           : Chan{o.peer, c, o.flow, o.vc, o.lane};
      const auto it = flow_of.find(key);
      if (it == flow_of.end()) {
        throw PlanError(
            fmt::format("chiplet {} receives from chiplet {} (VC {}) what no send of it carries", c,
                        o.peer, o.vc));
      }
      o.flow = it->second;
    }
  }
  out.routes.assign(size_t{kr} * kr, {});
  for (unsigned r = 0; r < kr * kr; ++r) {
    for (unsigned f = 0; f < out.flows; ++f) {
      for (unsigned in = 0; in < ports; ++in) {
        const uint8_t e = table[(size_t{r} * num_flows + f) * ports + in];
        if (e != 0) out.routes[r].push_back({f, in, 1u << (e - 1)});
      }
    }
  }
  out.chiplets.summary = fmt::format(
      "{}; on the concentrated mesh ({}x{} routers of 2x2 chiplets, table-routed: {} channels "
      "on {} flows, at most {} routers a message)",
      p.summary, kr, kr, out.channels, out.flows, out.max_hops);
  return out;
}

}  // namespace aries::coll
