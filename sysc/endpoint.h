// Endpoint: what sits at a node's local router port (traffic generators and sinks in tb/, the
// DMA endpoint later). The package calls it once per cycle of its node, inside the node's step,
// possibly on another thread than the other nodes' endpoints (see WindowObserver).
#ifndef ARIES_SYSC_ENDPOINT_H_
#define ARIES_SYSC_ENDPOINT_H_

#include <cstdint>

namespace aries::sysc {

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  // Before the edge of `cycle`: write a flit to inject into `words` and return true, or return
  // false. The endpoint keeps its own injection credits (it starts with buffer_depth per VC).
  virtual bool Inject(uint64_t cycle, uint32_t* words) = 0;
  // Before the edge: VC mask of ejection-buffer slots the endpoint frees this cycle (credits to
  // the router's local output).
  virtual uint8_t EjectCredits(uint64_t cycle) = 0;
  // After the edge: injection credits returned (VC mask) and the flit ejected (or nullptr).
  virtual void AfterEdge(uint64_t cycle, uint8_t inject_credits, const uint32_t* ejected) = 0;
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
