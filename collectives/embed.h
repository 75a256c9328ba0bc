// Embedding a program's logical links on the package: which physical path each (sender,
// receiver, lane) of the endpoint schedule takes, and the port-mux, bypass and routing-table
// settings that make it.
//
// Rules, in this order (ARIES IV-A and IV-B1):
// 1. a link between mesh neighbours takes the mesh link (one dimension-order hop);
// 2. on ARIES, a lane-1 link (a second link beside the mesh one, ARIES_BW) and then every link
//    between nodes of one row or column that are not neighbours, longest first, get a bypass
//    segment of their own: a track whose interval is free (two links in opposite directions
//    share one segment), a port on each end whose side is idle (the mesh port if the mesh does
//    not need it, else the idle port of the other dimension, ARIES Fig. 6(b));
// 3. a link left without a segment takes its dimension-order path when the mesh ports on it are
//    still mesh, else the shortest x-then-y path over the links configured so far (segments
//    and mesh; the greedy segmentation of IV-B1 when tracks run out), table-routed by a flow.
// On mesh, torus and the flattened butterfly every link is dimension-order routed.
// With several local ports (Hardware::local_ports) a link that would take its dimension-order
// path or mesh hop is table-routed along it instead, from and to its own local port (dimension
// order ejects by the input port), except: on the torus a path of several hops over a
// wrap-around link stays in dimension order (a table route keeps its VC, so routes going on
// past a wrap would close the ring the dateline VC opens; the rule keeps every such path, the
// simpler and safe side), and a link whose path has every flow id taken stays in dimension
// order, at most one per pair of nodes (the receiver tells messages apart by source, flow and
// VC, whatever port they come by).
// Around faults (Geometry::faults): a dead mesh link is no hop, a track whose span holds a dead
// wire or switch gives no segment, a dead port takes no segment; a link whose dimension-order
// path (reserved) and every monotone configured path cross something dead takes a detour: the
// fewest-hop up*/down* path over the live links (collectives/fault_routes.h), table-routed on
// a VC of its own (2), so detours depend neither on each other in a cycle nor on the monotone
// paths. Where the muxes leave links one-way and no up*/down* path exists, the detour is the
// fewest hops in any order, and only the validator's channel-dependency check guards it.
// Flow ids are shared between links whose table entries do not collide.
#ifndef ARIES_COLLECTIVES_EMBED_H_
#define ARIES_COLLECTIVES_EMBED_H_

#include <string>

#include "program.h"

namespace aries::coll {

struct EmbedReport {
  unsigned links = 0;     // distinct logical links
  unsigned mesh = 0;      // one mesh hop
  unsigned segments = 0;  // a bypass segment of their own
  unsigned dor = 0;       // multi-hop dimension-order paths
  unsigned routed = 0;    // table-routed over shared links
  unsigned flows = 0;     // flow ids used
  unsigned detours = 0;   // of the routed: paths that turn back around a dead link
  // With several local ports: links whose table route to their own local port found no free
  // flow and stayed in dimension order (ejected by the input port's local port).
  unsigned dor_for_flows = 0;
  std::string Summary() const;
};

// Embeds the sends and receives of `p` (ops whose flow is -1); throws PlanError when a lane-1
// link gets no segment or a link has no path.
EmbedReport Embed(Program& p, const Hardware& hw);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_EMBED_H_
