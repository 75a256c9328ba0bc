// Endpoint: what sits at a node's local router port (traffic generators and sinks in tb/, the
// DMA endpoint later). The package calls it once per cycle of its node, inside the node's step,
// possibly on another thread than the other nodes' endpoints (see WindowObserver).
#ifndef ARIES_SYSC_ENDPOINT_H_
#define ARIES_SYSC_ENDPOINT_H_

#include <array>
#include <cstdint>

namespace aries::sysc {

// Most local ports a node has (aries_node LocalPorts: 1, 2 or 4; node.local_ports).
inline constexpr unsigned kMaxLocalPorts = 4;

// What the node gave its endpoint in one cycle, per local port 0 .. ports-1.
struct EndpointEdge {
  unsigned ports = 1;
  std::array<uint8_t, kMaxLocalPorts> credits{};          // injection credits returned (VC mask)
  std::array<const uint32_t*, kMaxLocalPorts> ejected{};  // the flit ejected there, or nullptr
};

// An endpoint meets its node through the node's local ports (router port 0 and, with
// node.local_ports > 1, the router's last ports): one flit in and one out per port and cycle.
// An endpoint that uses port 0 only injects nothing on the others; the router ejects a
// dimension-order packet on local port (its input port mod local_ports), a table-routed one
// where its route says.
class Endpoint {
 public:
  virtual ~Endpoint() = default;
  // Before the edge of `cycle`, for each local port in order: write a flit to inject on `port`
  // into `words` and return true, or return false. The endpoint keeps its own injection
  // credits per port (it starts with buffer_depth per VC and port).
  virtual bool Inject(uint64_t cycle, unsigned port, uint32_t* words) = 0;
  // Before the edge, for each local port: VC mask of the port's ejection-buffer slots the
  // endpoint frees this cycle (credits to the router's local output).
  virtual uint8_t EjectCredits(uint64_t cycle, unsigned port) = 0;
  // After the edge, once: the injection credits returned and the flits ejected, per port.
  virtual void AfterEdge(uint64_t cycle, const EndpointEdge& edge) = 0;

  // Calls the package may leave out because they would do nothing (it reads these before a
  // node's step): Inject while may_inject() is false (nothing waits to be injected on any port),
  // EjectCredits while may_free() is false (no ejected flit held on any port), and AfterEdge on a
  // cycle with no credit returned and no flit ejected while quiet_edges() is true. An endpoint
  // that never sets them is called every cycle.
  bool may_inject() const { return may_inject_; }
  bool may_free() const { return may_free_; }
  bool quiet_edges() const { return quiet_edges_; }

 protected:
  bool may_inject_ = true, may_free_ = true, quiet_edges_ = false;
};

// Endpoints that share state (a traffic generator's packet table and random stream, a
// scoreboard) with the endpoints of other nodes: within a window of Package::Run, endpoints of
// different partitions run on different threads, so shared state is touched only here. The
// package calls both serially: BeforeWindow before the first cycle of the window [from, to) (in
// endpoint cycles), AfterWindow after its last, with `last` on the last window of a
// Package::Run call (and after every cycle stepped by SystemC), when the caller looks at the
// results next.
class WindowObserver {
 public:
  virtual ~WindowObserver() = default;
  virtual void BeforeWindow(uint64_t from, uint64_t to) = 0;
  virtual void AfterWindow(bool last) = 0;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_ENDPOINT_H_
