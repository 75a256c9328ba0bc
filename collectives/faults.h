// Faults of the package: what is broken, where, and from which cycle. One description serves the
// interposer model (sysc/package: a dead wire loses its flits and its credits) and the collective
// controller (collectives/: wiring, embedder, planners and validator plan around what is dead).
//
// A fault is written as text (the key package.faults, a comma-separated list, or a file of one
// fault a line with '#' comments):
//   link:NAME[@CYCLE]            a fixed link, both directions, by its geometry name (x(1,2),
//                                y(0,3), xwrap2, row1:0-3, col2:1-3) or by its two nodes (5-6)
//   segment:TRACK:A-B[@CYCLE]    the bypass track wire between positions A < B of TRACK, written
//                                as the package names its segments: xtrack<t>.<row> or
//                                ytrack<t>.<column>; every segment over a dead piece is dead
//   switch:TRACK:P[@CYCLE]       the bypass switch at position P of TRACK: it neither cuts nor
//                                passes, so every segment ending at it or passing it is dead
//   port:NODE.PORT[@CYCLE]       a router port of a node (XP, XM, YP, YM; P<n> on the flattened
//                                butterfly): it neither sends nor receives, whatever its mux picks
// CYCLE (decimal, default 0) is the first cycle the part is dead; it stays dead.
#ifndef ARIES_COLLECTIVES_FAULTS_H_
#define ARIES_COLLECTIVES_FAULTS_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aries::coll {

struct Geometry;

// A fault description that cannot serve the package; the message names the item and what is
// allowed.
struct FaultError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

enum class FaultKind { kLink, kSegment, kSwitch, kPort };

struct Fault {
  FaultKind kind = FaultKind::kLink;
  unsigned a = 0, b = 0;        // link: its two nodes (a < b); segment: positions a < b; switch: a
  unsigned node = 0, port = 0;  // port faults
  unsigned dim = 0, line = 0, track = 0;  // segment and switch faults: dimension 0 x, 1 y
  uint64_t from = 0;                      // first dead cycle
  // The canonical text ("link:x(1,2)@500"); ParseFaults reads it back to the same fault.
  std::string Name(const Geometry& g) const;
  bool operator==(const Fault& o) const;
};

struct FaultSet {
  std::vector<Fault> faults;
  bool empty() const { return faults.empty(); }
  // "none", or the faults' names joined by ", ".
  std::string Names(const Geometry& g) const;
  // The faults present from reset (from = 0): what the controller knows before a run (a link
  // that does not train); a later one it learns only when it strikes.
  FaultSet FromReset() const;
  bool operator==(const FaultSet& o) const { return faults == o.faults; }
};

// Parses a comma-separated list (or "none" / empty) against the geometry: names, nodes, ports,
// tracks and positions must exist. Throws FaultError naming the item.
FaultSet ParseFaults(std::string_view text, const Geometry& g);
// The same, one fault a line, '#' comments; `where` names the file in errors.
FaultSet ParseFaultLines(std::string_view text, const Geometry& g, const std::string& where);

// What the faults kill at a given cycle, in the terms of the package's links and ports.
class FaultView {
 public:
  // Faults with from <= cycle are dead (cycle ~0: every fault).
  FaultView(const Geometry& g, uint64_t cycle);
  // It points into g's faults: g must outlive it, and a copy would share g.
  FaultView(const FaultView&) = delete;
  FaultView& operator=(const FaultView&) = delete;
  // The fault killing the fixed link between nodes a and b (either direction), or nullptr.
  const Fault* Link(unsigned a, unsigned b) const;
  // The fault killing a segment of track (dim, line, track) between positions lo < hi, or
  // nullptr: a dead piece inside [lo, hi] or a dead switch at lo, hi or between.
  const Fault* Segment(unsigned dim, unsigned line, unsigned track, unsigned lo, unsigned hi) const;
  // The fault killing router port `port` of `node`, or nullptr.
  const Fault* Port(unsigned node, unsigned port) const;
  bool any() const { return !live_.empty(); }
  std::string Name(const Fault& f) const;

 private:
  const Geometry& g_;
  std::vector<const Fault*> live_;
};

// The parts the faults (every one, whatever its cycle) cut the package into, over every fixed
// link and every bypass segment a program could configure (`tracks` tracks per row and column
// on ARIES; a segment needs a live upper port, XP or YP, at its lower end and a live lower
// port, XM or YM, at its upper end, and no dead piece or switch on its span). Nodes of two
// parts cannot reach each other under any port-mux and bypass setting: no plan joins them.
struct Partition {
  std::vector<unsigned> part;  // node -> its part, numbered in the order of their lowest node
  unsigned parts = 1;
  // The faults killing a link or a segment between two parts (empty with one part).
  std::vector<const Fault*> cut;
  // "node 0 (0,0)" or "nodes 0, 1, 4" or "the other 13 nodes": the part's nodes.
  std::string Nodes(unsigned p, const Geometry& g, bool other) const;
};
// It points into g's faults: g must outlive it.
Partition PartitionOf(const Geometry& g, unsigned tracks);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_FAULTS_H_
