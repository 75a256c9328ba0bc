// Where a program's packets go: the wiring of the package under a program's port-mux and
// bypass settings (which input a node's output port reaches), dimension-order paths and
// table-routed flow paths. Dead links, segments and ports (Geometry::faults, whatever their
// cycle) reach nowhere, and Across names the fault. Used by the validator and the symbolic
// execution; the SystemC package builds the same wiring from the same geometry
// (collectives/geometry.h).
#ifndef ARIES_COLLECTIVES_WIRING_H_
#define ARIES_COLLECTIVES_WIRING_H_

#include <optional>
#include <string>
#include <vector>

#include "program.h"

namespace aries::coll {

// The input side of a port: a packet leaving (node, port) arrives at (node, port).
struct PortRef {
  unsigned node = 0, port = 0;
  bool operator==(const PortRef& o) const { return node == o.node && port == o.port; }
};

// One hop of a path: leaves `node` by `port` on VC `vc`.
struct Hop {
  unsigned node, port, vc;
};

class Wiring {
 public:
  Wiring(const Geometry& g, const Hardware& hw, const std::vector<NodeProgram>& nodes);
  // faults_ points into g_: a copy would point into the original.
  Wiring(const Wiring&) = delete;
  Wiring& operator=(const Wiring&) = delete;

  // The topology's router ports (local port 0 and the interposer ports); the extra local ports
  // (Hardware::local_ports > 1) follow them (hw::LocalPort).
  unsigned num_ports() const { return ports_; }
  unsigned local_ports() const { return hw_.local_ports; }
  unsigned num_nodes() const { return n_; }
  // Where a packet leaving (node, port) arrives, or nullopt with the reason in *why (an edge
  // port, a track not cut here, a segment whose far end no port listens to).
  std::optional<PortRef> Across(unsigned node, unsigned port, std::string* why) const;

  // Dimension-order path from src to dst (router semantics of CTRL.TOPO, torus datelines on
  // VC bit 0), checked against the wiring: empty and *why set if a hop does not arrive where
  // dimension order expects (for example a mesh port whose mux selects a track).
  std::vector<Hop> DorPath(unsigned src, unsigned dst, unsigned vc, std::string* why) const;
  // Path of `flow` from src's local port `local` (an index, hw::LocalPort) through the routing
  // tables until it is delivered at dst by local port `local` (unicast). Empty and *why set on
  // a missing entry, a multicast entry, a delivery elsewhere or by another local port, or a
  // loop.
  std::vector<Hop> FlowPath(unsigned src, unsigned dst, unsigned flow, unsigned vc,
                            std::string* why, unsigned local = 0) const;

  // Hops from `from` to every node over the links the settings make (kUnreachable where none
  // leads); with `both_ways`, only over links whose arrival port also leads somewhere (every
  // fault kills both directions, so on default muxes that is the link back).
  static constexpr unsigned kUnreachable = ~0u;
  std::vector<unsigned> Hops(unsigned from, bool both_ways) const;

  std::string NodeName(unsigned n) const;
  std::string PortName(unsigned port) const;

  // The node whose engine entry of `id` sends its requests (rsp = false) or copies its
  // responses (rsp = true) into (n, port) under `nodes`' programs; nullopt when none does.
  std::optional<unsigned> EngineFeeder(unsigned n, unsigned port, unsigned id, bool rsp) const;

 private:
  std::optional<unsigned> Mask(unsigned node, unsigned flow, unsigned in_port) const;

  Geometry g_;
  Hardware hw_;
  const std::vector<NodeProgram>& nodes_;
  unsigned n_, ports_;
  FaultView faults_;  // every fault of g_, whatever its cycle: the controller plans around it
  // Fixed links: fixed_[node * ports + port] = arrival (port 0 unused), when a link exists.
  std::vector<std::optional<PortRef>> fixed_;
};

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_WIRING_H_
