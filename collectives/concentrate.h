// Adapt-NoC's concentrated mesh (Zheng, Wang and Louri, HPCA 2021: one of the sub-network
// topologies its adaptable routers and links form, beside mesh, torus and tree). The 2x2
// chiplets of a group share one router of a (K/2) x (K/2) mesh, each on its own local port
// (the node RTL's LocalPorts = 4). The router sits at the centre of its group (on an active
// interposer: the chiplets keep their own routers unused), so a chiplet reaches it over one pitch
// of wire (half a pitch in x and half in y; CmeshLocalLatency each way, one pitch of link
// energy per flit), and a link between two routers spans two chiplet pitches.
//
// A program planned for the K x K chiplet grid (the family's baseline algorithm on the mesh:
// Adapt-NoC reconfigures links, not the algorithm) keeps its schedule there: every send and
// receive becomes table-routed, each channel on a flow of its own along the dimension-order
// path of the router mesh, from the sender's local port to the receiver's (two chiplets of one
// group meet inside their router). The header's source and destination fields, which table
// routing does not read, keep naming chiplets, so a receiver tells the four chiplets of a
// router apart.
#ifndef ARIES_COLLECTIVES_CONCENTRATE_H_
#define ARIES_COLLECTIVES_CONCENTRATE_H_

#include <vector>

#include "geometry.h"
#include "program.h"

namespace aries::coll {

// Chiplets per router: a 2x2 group.
inline constexpr unsigned kConcentration = 4;

// Where chiplet `c` of a K x K package sits: the router of its 2x2 group (row-major on the
// K/2 x K/2 router mesh) and its local port (0 .. 3: (x mod 2) + 2 (y mod 2)).
struct CmeshPlace {
  unsigned router = 0, local_port = 0;
};
CmeshPlace CmeshPlaceOf(unsigned chiplet, unsigned k);

// The router mesh of a K x K chiplet geometry: a mesh of K/2 x K/2 routers with 4 local ports,
// its links the latency of a two-pitch wire (LinkLatency(chiplets, 2)). Throws PlanError
// naming K unless the chiplet geometry is a fault-free cmesh (or the mesh its programs are
// planned for) of even K >= 4 with one local port per chiplet.
Geometry CmeshRouters(const Geometry& chiplets);

// Wire cycles between a chiplet and its group's router, each way: a one-pitch link's.
unsigned CmeshLocalLatency(const Geometry& chiplets);

struct CmeshProgram {
  // The schedule per chiplet (nodes = K^2 chiplets), every send and receive table-routed
  // (Op::flow) and on local port 0 of the chiplet's own endpoint.
  Program chiplets;
  // Per router: its routing-table entries, ports numbered as the planner numbers them for
  // CmeshRouters (coll::RouterPorts, the extra local ports after).
  std::vector<std::vector<RouteEntry>> routes;
  unsigned flows = 0;     // flows taken (the most any router's table uses)
  unsigned channels = 0;  // distinct (sender, receiver, route, VC, lane) channels
  unsigned max_hops = 0;  // routers a message crosses, at most
};

// `p` (planned for the chiplet mesh) on the concentrated mesh of routers with `num_flows`
// routing-table flows. Throws PlanError naming the offending item: a geometry CmeshRouters
// refuses, engine ops or registers, bypass or port-mux settings, a send on a local port other
// than 0, or a channel no flow can route without a conflict in some router's table.
CmeshProgram Concentrate(const Program& p, unsigned num_flows);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_CONCENTRATE_H_
