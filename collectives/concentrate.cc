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

// Throws PlanError unless every chiplet's program is point-to-point: no bypass, port muxes,
// engine registers or engine ops, and every message with a chiplet below `n` on local port 0.
void CheckPointToPoint(const Program& p, unsigned n) {
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
}

// The channels the sends of `p` use, in key order (so the flows come out the same every time),
// each on flow -1 (none yet).
std::map<Chan, int> ListChannels(const Program& p, unsigned n) {
  std::map<Chan, int> flow_of;
  for (unsigned c = 0; c < n; ++c) {
    for (const Op& o : p.nodes[c].ops) {
      if (o.act == Act::kSend) flow_of[{c, o.peer, o.flow, o.vc, o.lane}] = -1;
    }
  }
  return flow_of;
}

// Paths over the router mesh: dimension order (Wiring::DorPath on the routers' links), from
// the sender's local port to the receiver's.
class RouterPaths {
 public:
  RouterPaths(const Geometry& routers, unsigned k)
      : k_(k),
        net_(RouterPorts(Topology::kMesh, routers.k)),
        idle_(size_t{routers.k} * routers.k),  // default muxes: the mesh links
        wiring_(routers, RouterHardware(), idle_) {}

  // Router ports: the mesh's, then the extra local ports.
  unsigned ports() const { return net_ + kConcentration - 1; }

  // The routers from chiplet `a` to chiplet `b`, with the ports each is crossed by.
  std::vector<Step> Path(unsigned a, unsigned b) const {
    const CmeshPlace pa = CmeshPlaceOf(a, k_), pb = CmeshPlaceOf(b, k_);
    std::string why;
    const std::vector<Hop> hops = wiring_.DorPath(pa.router, pb.router, 0, &why);
    if (hops.empty() && pa.router != pb.router) {
      throw std::logic_error(fmt::format("router {} -> {}: {}", pa.router, pb.router, why));
    }
    std::vector<Step> s;
    unsigned in = hw::LocalPort(pa.local_port, net_);
    for (const Hop& h : hops) {
      s.push_back({h.node, in, h.port});
      in = hw::OppositePort(h.port);
    }
    s.push_back({pb.router, in, hw::LocalPort(pb.local_port, net_)});
    return s;
  }

 private:
  // The routers' hardware: kConcentration local ports, no collective engine.
  static Hardware RouterHardware() {
    Hardware rhw;
    rhw.local_ports = kConcentration;
    rhw.engine = false;
    return rhw;
  }

  unsigned k_, net_;
  std::vector<NodeProgram> idle_;  // before wiring_, which keeps a reference to it
  Wiring wiring_;
};

// The routers' routing tables being filled: 1 + the output of (router, flow, input port), 0
// unused.
class FlowTables {
 public:
  FlowTables(unsigned routers, unsigned flows, unsigned ports)
      : flows_(flows), ports_(ports), table_(size_t{routers} * flows * ports, 0) {}

  // The entry of (router, flow, input port), to fill.
  uint8_t& At(unsigned router, unsigned flow, unsigned in) {
    return table_[(size_t{router} * flows_ + flow) * ports_ + in];
  }
  // The entry of (router, flow, input port).
  uint8_t At(unsigned router, unsigned flow, unsigned in) const {
    return table_[(size_t{router} * flows_ + flow) * ports_ + in];
  }
  // Flows per router, and input ports per flow.
  unsigned flows() const { return flows_; }
  unsigned ports() const { return ports_; }

 private:
  unsigned flows_, ports_;
  std::vector<uint8_t> table_;
};

// Gives each channel of `flow_of` the first flow whose table entries along its path are free
// or agree and that no other channel between the same sender and receiver on the same VC
// takes (the receiver tells channels apart by (sender, flow, VC)); fills `tables` and the
// flows and max_hops of `out`. Throws PlanError naming a channel no flow fits.
void AssignFlows(const RouterPaths& paths, std::map<Chan, int>* flow_of, FlowTables* tables,
                 CmeshProgram* out) {
  const unsigned num_flows = tables->flows();
  std::map<std::tuple<unsigned, unsigned, unsigned>, uint64_t> pair_flows;
  for (auto& [chan, flow] : *flow_of) {
    const auto [a, b, old_flow, vc, lane] = chan;
    const std::vector<Step> s = paths.Path(a, b);
    out->max_hops = std::max(out->max_hops, static_cast<unsigned>(s.size()));
    uint64_t& taken = pair_flows[{a, b, vc}];
    for (unsigned f = 0; f < num_flows && flow < 0; ++f) {
      if ((taken >> f) & 1u) continue;
      bool free = true;
      for (const Step& st : s) {
        const uint8_t e = tables->At(st.router, f, st.in);
        free = free && (e == 0 || e == st.out + 1);
      }
      if (!free) continue;
      for (const Step& st : s) tables->At(st.router, f, st.in) = static_cast<uint8_t>(st.out + 1);
      flow = static_cast<int>(f);
      taken |= uint64_t{1} << f;
      out->flows = std::max(out->flows, f + 1);
    }
    if (flow < 0) {
      throw PlanError(fmt::format(
          "the concentrated mesh cannot route chiplet {} -> {} (VC {}): each of the {} flows "
          "conflicts with another channel in some router's table; allowed programs whose "
          "channels fit {} flows",
          a, b, vc, num_flows, num_flows));
    }
  }
}

// Rewrites every send and receive of the `n` chiplets' programs onto its channel's flow and
// drops their routes. Throws PlanError for a receive no send matches.
void RetagChannels(const std::map<Chan, int>& flow_of, unsigned n, Program* chiplets) {
  for (unsigned c = 0; c < n; ++c) {
    NodeProgram& np = chiplets->nodes[c];
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
}

// Each of the `num_routers` routers' routing-table entries over the first `flows` flows.
std::vector<std::vector<RouteEntry>> TableEntries(const FlowTables& tables, unsigned num_routers,
                                                  unsigned flows) {
  std::vector<std::vector<RouteEntry>> routes(num_routers);
  for (unsigned r = 0; r < num_routers; ++r) {
    for (unsigned f = 0; f < flows; ++f) {
      for (unsigned in = 0; in < tables.ports(); ++in) {
        const uint8_t e = tables.At(r, f, in);
        if (e != 0) routes[r].push_back({f, in, 1u << (e - 1)});
      }
    }
  }
  return routes;
}

}  // namespace

CmeshProgram Concentrate(const Program& p, unsigned num_flows) {
  const Geometry routers = CmeshRouters(p.req.geom);
  const unsigned k = p.req.geom.k, kr = routers.k;
  const unsigned n = k * k;
  if (p.num_nodes() != n) {
    throw PlanError(fmt::format("a program of {} nodes for {} chiplets", p.num_nodes(), n));
  }
  num_flows = std::min(num_flows, 64u);
  CheckPointToPoint(p, n);
  std::map<Chan, int> flow_of = ListChannels(p, n);
  const RouterPaths paths(routers, k);
  FlowTables tables(kr * kr, num_flows, paths.ports());
  CmeshProgram out;
  AssignFlows(paths, &flow_of, &tables, &out);
  out.channels = static_cast<unsigned>(flow_of.size());
  out.chiplets = p;
  RetagChannels(flow_of, n, &out.chiplets);
  out.routes = TableEntries(tables, kr * kr, out.flows);
  out.chiplets.summary = fmt::format(
      "{}; on the concentrated mesh ({}x{} routers of 2x2 chiplets, table-routed: {} channels "
      "on {} flows, at most {} routers a message)",
      p.summary, kr, kr, out.channels, out.flows, out.max_hops);
  return out;
}

}  // namespace aries::coll
