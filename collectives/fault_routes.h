// Point-to-point routes around dead links: routing tables that take every packet around the
// package's faults (Geometry::faults) without a cyclic channel dependency.
//
// Each destination is a flow (flow id = destination node, so at most the routers' NumFlows
// nodes). The routes are up*/down* (Schroeder et al., Autonet, 1991) over the live links, with
// a breadth-first order from node 0: a link is "up" towards the node nearer node 0 (fewer live
// hops; ties: the lower id). A packet may take up links and then down links, never an up link
// after a down one, and takes the fewest hops that rule allows; its router knows which phase it
// is in from the input port it arrived on (the link's direction), so a destination-based table
// entry per (flow, input port) holds the route.
//
// Deadlock freedom: order the channels as all up channels by decreasing (distance, id) of their
// source, then all down channels by increasing order of their source. Every route uses
// channels in increasing order of that list (up hops descend, down hops ascend, and no up hop
// follows a down one), so the channel dependency graph has no cycle (Dally and Seitz, 1987).
// RouteAroundFaults also checks it: every route is traced through the tables it wrote and the
// dependency graph searched for a cycle.
//
// On a fault-free mesh the order is x + y, every minimal path can put its steps towards node 0
// first, and these routes are minimal (the negative-first turn model); around a fault some
// routes are longer (FaultRoutes reports how many hops they add).
#ifndef ARIES_COLLECTIVES_FAULT_ROUTES_H_
#define ARIES_COLLECTIVES_FAULT_ROUTES_H_

#include <string>
#include <vector>

#include "program.h"

namespace aries::coll {

struct FaultRoutes {
  std::vector<std::vector<RouteEntry>> tables;  // per node: (flow = destination, input) -> port
  // (Every source-destination pair is routed, or RouteAroundFaults throws.)
  uint64_t longer = 0;      // pairs whose route is longer than the fault-free shortest path
  uint64_t extra_hops = 0;  // hops those routes add, in all
  unsigned max_hops = 0;    // longest route
  uint64_t channels = 0;    // (node, port) channels the routes use
  std::string Summary() const;
};

// Routes every ordered pair of distinct nodes of the mesh, torus or flattened butterfly with
// the default port muxes (no bypass segments) around every fault of `g` (whatever its cycle).
// Throws PlanError naming the pair when the faults cut a node off, when the package has more
// nodes than the routers have flows, and if the tables' dependency graph had a cycle.
FaultRoutes RouteAroundFaults(const Geometry& g, const Hardware& hw);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_FAULT_ROUTES_H_
