#include "node_model.h"

#include "aries_pkg.h"

namespace aries::sysc {

NodeShape ShapeOf(const hw::NodeParams& p) {
  NodeShape s;
  s.num_ports = p.NumPorts;
  s.local_ports = p.LocalPorts;
  s.num_vcs = p.NumVCs;
  s.coll_engine = p.CollEngine != 0;
  s.coll_depth = p.CollDepth;
  s.coll_ids = p.CollIds;
  s.coll_prog = p.CollProg;
  s.buffer_depth = p.BufferDepth;
  s.lanes = p.Lanes;
  s.carried_lanes = p.Lanes;
  s.num_flows = p.NumFlows;
  s.num_tracks = p.NumTracks;
  // aries_node: a muxed node (5 ports with tracks) has a link per track, dimension and side.
  const bool muxed = p.NumPorts == hw::kNumMeshPorts && p.NumTracks > 0;
  s.num_links = p.NumPorts - 1 + (muxed ? 4 * p.NumTracks : 0);
  return s;
}

}  // namespace aries::sysc
