#include "fault_routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "aries_pkg.h"
#include "wiring.h"

namespace aries::coll {

namespace {

constexpr unsigned kFar = Wiring::kUnreachable;

// A live link leaving a node: by `port` to node `v`, arriving at its port `in_port`; `up` when
// v is nearer node 0.
struct Out {
  unsigned port, v, in_port;
  bool up;
};

// A channel: (node, output port).
using Channel = std::pair<unsigned, unsigned>;

// The channels the routes use and which channel each one's packets go on to.
struct ChannelGraph {
  std::set<Channel> used;
  std::map<Channel, std::set<Channel>> dep;
};

// Per phase (0: up allowed, 1: down only), per node: a value of type T.
template <typename T>
using PerPhase = std::vector<std::vector<T>>;

// Throws PlanError unless the routers have a flow per destination node.
void CheckFlowsPerDestination(const Geometry& g, const Hardware& hw, unsigned n) {
  if (n > hw.num_flows) {
    throw PlanError(fmt::format(
        "routing around faults takes one flow per destination: {} nodes, the routers have {} "
        "flows (package.k <= {})",
        n, hw.num_flows, g.k > 1 ? static_cast<unsigned>(std::sqrt(hw.num_flows)) : 1));
  }
}

// Throws PlanError naming a node the faults cut off (from `dist0`, the hops from node 0).
void CheckConnected(const Wiring& w, const std::vector<unsigned>& dist0, unsigned n) {
  for (unsigned v = 0; v < n; ++v) {
    if (dist0[v] != kFar) continue;
    // Name the node outside the larger part (node 0 itself may be the one cut off).
    const std::vector<unsigned> dv = w.Hops(v, true);
    const auto reach = [&](const std::vector<unsigned>& d) {
      return std::count_if(d.begin(), d.end(), [](unsigned x) { return x != kFar; });
    };
    const unsigned off = reach(dv) > reach(dist0) ? 0 : v, rest = off == 0 ? v : 0;
    throw PlanError(fmt::format("the faults cut {} off from {}: no route around them",
                                w.NodeName(off), w.NodeName(rest)));
  }
}

// The live links of each node, both ways, each marked up or down by `dist0` (the hops from
// node 0).
std::vector<std::vector<Out>> LiveLinks(const Wiring& w, const std::vector<unsigned>& dist0,
                                        unsigned n) {
  auto rank_less = [&](unsigned a, unsigned b) {  // a is nearer node 0 than b
    return dist0[a] != dist0[b] ? dist0[a] < dist0[b] : a < b;
  };
  const unsigned ports = w.num_ports();
  std::vector<std::vector<Out>> out(n);
  for (unsigned u = 0; u < n; ++u) {
    for (unsigned p = 1; p < ports; ++p) {
      const auto to = w.Across(u, p, nullptr);
      if (!to) continue;
      // Routes take a link only where it is live both ways (every fault kills both
      // directions; this keeps up and down well defined on a symmetric graph).
      if (!w.Across(to->node, to->port, nullptr)) continue;
      out[u].push_back({p, to->node, to->port, rank_less(to->node, u)});
    }
  }
  return out;
}

// The phase a packet is in at u after arriving on input port q (0: local, may still go up;
// -1: no live link arrives there), [u][q].
std::vector<std::vector<int>> ArrivalPhases(const std::vector<std::vector<Out>>& out,
                                            unsigned ports) {
  const size_t n = out.size();
  std::vector<std::vector<int>> phase_in(n, std::vector<int>(ports, -1));
  for (unsigned u = 0; u < n; ++u) {
    phase_in[u][0] = 0;
    for (const Out& o : out[u]) phase_in[o.v][o.in_port] = o.up ? 0 : 1;
  }
  return phase_in;
}

// D[s][u]: fewest hops from u in phase s (0 up allowed, 1 down only) to dst.
PerPhase<unsigned> HopsTo(const std::vector<std::vector<Out>>& out, unsigned dst) {
  const unsigned n = static_cast<unsigned>(out.size());
  PerPhase<unsigned> D(2, std::vector<unsigned>(n, kFar));
  D[0][dst] = D[1][dst] = 0;
  for (bool grew = true; grew;) {  // Bellman-Ford on a graph of 2n states: n rounds at most
    grew = false;
    for (unsigned u = 0; u < n; ++u) {
      for (unsigned s = 0; s < 2; ++s) {
        for (const Out& o : out[u]) {
          if (s == 1 && o.up) continue;
          const unsigned ns = o.up ? 0 : 1;
          if (D[ns][o.v] != kFar && D[ns][o.v] + 1 < D[s][u]) {
            D[s][u] = D[ns][o.v] + 1;
            grew = true;
          }
        }
      }
    }
  }
  return D;
}

// The next hop of every (node, phase) towards dst: the first port on a fewest-hop legal route
// (-1: none, or dst itself).
PerPhase<int> NextHops(const std::vector<std::vector<Out>>& out, const PerPhase<unsigned>& D,
                       unsigned dst) {
  const unsigned n = static_cast<unsigned>(out.size());
  PerPhase<int> next(2, std::vector<int>(n, -1));
  for (unsigned u = 0; u < n; ++u) {
    if (u == dst) continue;
    for (unsigned s = 0; s < 2; ++s) {
      if (D[s][u] == kFar) continue;
      for (const Out& o : out[u]) {
        if (s == 1 && o.up) continue;
        if (D[o.up ? 0 : 1][o.v] + 1 == D[s][u]) {
          next[s][u] = static_cast<int>(o.port);
          break;
        }
      }
    }
  }
  return next;
}

// Appends the table entries of flow dst to every node's table: per input port a live link
// arrives at, the next hop of the phase that port means (delivery at dst).
void WriteTableEntries(const std::vector<std::vector<int>>& phase_in, const PerPhase<int>& next,
                       unsigned dst, const Hardware& hw, unsigned ports,
                       std::vector<std::vector<RouteEntry>>* tables) {
  const unsigned n = static_cast<unsigned>(phase_in.size());
  for (unsigned u = 0; u < n; ++u) {
    for (unsigned q = 0; q < ports; ++q) {
      const int s = phase_in[u][q];
      if (s < 0) continue;  // no live link arrives here
      if (u != dst && next[s][u] < 0) continue;
      const uint32_t mask = u == dst ? 1u : 1u << next[s][u];
      (*tables)[u].push_back({dst, q, mask});
      // A packet from an extra local port goes as one from local port 0 (the planner numbers
      // those ports after the topology's: hw::LocalPort).
      if (q == 0) {
        for (unsigned i = 1; i < hw.local_ports; ++i)
          (*tables)[u].push_back({dst, aries::hw::LocalPort(i, ports), mask});
      }
    }
  }
}

// Traces every source's route to dst through `next`, recording its channels and their
// dependencies in *graph and its length in *r (against `free_hops`, the fault-free hops).
// Throws PlanError for a source with no route or a route that loops.
void TraceRoutes(const Wiring& w, const std::vector<std::vector<Out>>& out,
                 const PerPhase<unsigned>& D, const PerPhase<int>& next, unsigned dst,
                 const std::vector<std::vector<unsigned>>& free_hops, ChannelGraph* graph,
                 FaultRoutes* r) {
  const unsigned n = static_cast<unsigned>(out.size());
  for (unsigned src = 0; src < n; ++src) {
    if (src == dst) continue;
    if (D[0][src] == kFar) {
      throw PlanError(fmt::format("the faults leave no up*/down* route from {} to {}",
                                  w.NodeName(src), w.NodeName(dst)));
    }
    unsigned u = src, s = 0, hops = 0;
    Channel prev{~0u, 0};
    while (u != dst) {
      const unsigned p = static_cast<unsigned>(next[s][u]);
      const auto o =
          std::find_if(out[u].begin(), out[u].end(), [&](const Out& x) { return x.port == p; });
      const Channel ch{u, p};
      graph->used.insert(ch);
      if (prev.first != ~0u) graph->dep[prev].insert(ch);
      prev = ch;
      s = o->up ? s : 1;
      u = o->v;
      if (++hops > 4 * n) {
        throw PlanError(fmt::format("route from {} to {} loops", w.NodeName(src), w.NodeName(dst)));
      }
    }
    r->max_hops = std::max(r->max_hops, hops);
    const unsigned shortest = free_hops[src][dst];
    if (hops > shortest) {
      ++r->longer;
      r->extra_hops += hops - shortest;
    }
  }
}

// Throws PlanError naming a channel on a cycle of the dependency graph (the argument in the
// header says why it has none).
void CheckAcyclic(const Wiring& w, ChannelGraph* graph) {
  std::map<Channel, int> state;
  std::function<bool(const Channel&)> acyclic = [&](const auto& c) {
    state[c] = 1;
    for (const auto& d : graph->dep[c]) {
      if (state[d] == 1 || (state[d] == 0 && !acyclic(d))) return false;
    }
    state[c] = 2;
    return true;
  };
  for (const auto& c : graph->used) {
    if (state[c] == 0 && !acyclic(c)) {
      throw PlanError(
          fmt::format("routes around the faults: cyclic channel dependency at {} port {}",
                      w.NodeName(c.first), w.PortName(c.second)));
    }
  }
}

}  // namespace

std::string FaultRoutes::Summary() const {
  return fmt::format(
      "up*/down* routing tables around the faults: {} pairs, {} of them {} hops longer in all "
      "than without faults, longest route {} hops, {} channels, no cyclic channel dependency",
      tables.size() * (tables.size() - 1), longer, extra_hops, max_hops, channels);
}

FaultRoutes RouteAroundFaults(const Geometry& g, const Hardware& hw) {
  const unsigned n = g.k * g.k;
  CheckFlowsPerDestination(g, hw, n);
  const std::vector<NodeProgram> plain(n);  // default muxes, no bypass segments
  const Wiring w(g, hw, plain);
  Geometry healthy = g;
  healthy.faults = {};
  const Wiring hw_free(healthy, hw, plain);
  const unsigned ports = w.num_ports();
  const std::vector<unsigned> dist0 = w.Hops(0, true);
  CheckConnected(w, dist0, n);
  const std::vector<std::vector<Out>> out = LiveLinks(w, dist0, n);
  const std::vector<std::vector<int>> phase_in = ArrivalPhases(out, ports);
  std::vector<std::vector<unsigned>> free_hops(n);
  for (unsigned v = 0; v < n; ++v) free_hops[v] = hw_free.Hops(v, true);
  FaultRoutes r;
  r.tables.resize(n);
  ChannelGraph graph;
  for (unsigned dst = 0; dst < n; ++dst) {
    const PerPhase<unsigned> D = HopsTo(out, dst);
    const PerPhase<int> next = NextHops(out, D, dst);
    WriteTableEntries(phase_in, next, dst, hw, ports, &r.tables);
    TraceRoutes(w, out, D, next, dst, free_hops, &graph, &r);
  }
  r.channels = graph.used.size();
  CheckAcyclic(w, &graph);
  return r;
}

}  // namespace aries::coll
