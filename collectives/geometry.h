// The package's geometry, shared by the SystemC package (sysc/) and the collective controller
// (collectives/): the interposer's topology description: which node link meets which, over how many
// chiplet pitches, for mesh, torus, flattened butterfly and ARIES (mesh + segmentable bypass
// tracks).
//
// Nodes are numbered n = y * K + x. Link indices follow aries_node: on a 5-port node links 0..3
// are the mesh links of XP, XM, YP, YM and link 4 + d*2T + 2t + s is the tap of track t of
// dimension d (0 x, 1 y) on side s (0 lower, 1 upper), T being the node model's track count;
// on a flattened-butterfly node link l is router port l + 1 (row neighbours by column, then
// column neighbours by row, each skipping the node's own).
//
// Latency model (cycles of wire, on top of the one-cycle register-to-register hop): a link
// spanning d pitches takes link_latency + (d - 1) * extra_per_pitch. Torus wrap links span K - 1
// pitches (the unfolded layout of ARIES Fig. 5), flattened-butterfly links |dx| or |dy|, bypass
// segments the distance between the two cutting nodes.
#ifndef ARIES_COLLECTIVES_GEOMETRY_H_
#define ARIES_COLLECTIVES_GEOMETRY_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "faults.h"

namespace aries::coll {

// kCmesh: Adapt-NoC's concentrated mesh, K x K chiplets in 2x2 groups, a group's four on the
// local ports of one router of a K/2 x K/2 mesh (collectives/concentrate.h). Programs are planned
// for the chiplet mesh and re-routed onto the routers; its package is the router mesh.
enum class Topology { kMesh, kTorus, kFbfly, kAries, kCmesh };

const char* TopologyName(Topology t);
std::optional<Topology> ParseTopology(std::string_view name);
// "mesh, torus, fbfly, aries, cmesh"
const char* TopologyNames();

struct Geometry {
  Topology topology = Topology::kAries;
  unsigned k = 4;                // K x K chiplets
  unsigned tracks = 2;           // ARIES bypass tracks per row and per column
  unsigned link_latency = 10;    // wire cycles of a one-pitch link
  unsigned extra_per_pitch = 1;  // wire cycles added per further pitch a link spans
  // Local (endpoint) ports per chiplet (node.local_ports: 1, 2, 4): flits a chiplet injects and
  // ejects per cycle; the package takes the node model built with as many (Hardware).
  unsigned local_ports = 1;
  FaultSet faults;  // dead links, segments, switches and ports (faults.h)
};
// The local port counts a node is built with (the node RTL's LocalPorts: 1, 2, 4).
inline bool LocalPortsSupported(unsigned p) { return p == 1 || p == 2 || p == 4; }

// A bidirectional link between node a's link la and node b's link lb.
struct LinkSpec {
  unsigned a, la, b, lb;
  unsigned pitches;
  std::string name;
};

// Port names "L", "XP", "XM", "YP", "YM" (or "P<n>" on a flattened butterfly).
std::string PortName(unsigned port, unsigned num_ports);
// Router radix a node needs.
unsigned RouterPorts(Topology t, unsigned k);
// Wire cycles of a link over `pitches` chiplet pitches.
unsigned LinkLatency(const Geometry& c, unsigned pitches);
// The longest link's wire cycles: a wrap, a butterfly link or a bypass segment spans up to K - 1
// pitches.
unsigned LongestLinkLatency(const Geometry& c);
// Cycles without any flit moving after which a run is declared stalled (sim.watchdog = auto):
// well beyond a round trip over the longest link.
uint64_t DefaultWatchdog(const Geometry& c);
// Mesh, wrap and flattened-butterfly links (everything but bypass segments).
std::vector<LinkSpec> FixedLinks(const Geometry& c);
// Link index of the tap of track t, dimension d (0 x, 1 y), side s (0 lower, 1 upper) on a
// 5-port node with `model_tracks` tracks.
unsigned TapLink(unsigned model_tracks, unsigned d, unsigned t, unsigned s);
// Segments of one track from the cut bits of the K switches along it: (a, b) with a < b
// consecutive cutting positions. Checked against rtl/bypass_switch/aries_bypass_track.
std::vector<std::pair<unsigned, unsigned>> ResolveSegments(const std::vector<bool>& cut);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_GEOMETRY_H_
