// DmaEndpoint: the chiplet's network interface for collectives (../shared/ARCHITECTURE.md, section
// 3): it reads the local vector from the chiplet's LocalMemory (at the memory's bandwidth),
// packetizes it into request flits of one collective id (VC num_vcs, sequence numbers 0, 1, ...,
// `lanes` elements per flit, the last one padded with zeros), writes the result flits the engine
// delivers back to memory, and signals completion (a completion counter, done(), an sc_event).
//
// Back-pressure is end to end: a flit is injected only when its data has been read and the
// engine's queue has a credit; an ejection slot is freed only when the flit's data has been
// written to memory, so a slow memory slows the collective instead of losing data.
//
// The memory is a SystemC process: run the package with the SystemC kernel (PackageSc). Used
// from the plain loop the endpoint refuses with an error.
#ifndef ARIES_SYSC_DMA_ENDPOINT_H_
#define ARIES_SYSC_DMA_ENDPOINT_H_

#include <systemc>
using namespace sc_core;

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "endpoint.h"
#include "engine_port.h"
#include "local_memory.h"
#include "node_model.h"

namespace aries::sysc {

class DmaEndpoint final : public sc_module, public Endpoint {
 public:
  struct Job {
    unsigned id = 0, op = 0;  // collective id and operation (aries_pkg Op*)
    size_t src = 0, dst = 0;  // word addresses of the input and the result in memory
    size_t elements = 0;      // 32-bit elements
    bool receives = true;     // results come back here (all-reduce; for a reduce: the root)
  };
  // `prefetch`: flits read ahead of injection.
  DmaEndpoint(sc_module_name name, const NodeShape& shape, LocalMemory* mem, unsigned prefetch = 4);

  // Starts a collective (the engines must be programmed and started first). Sequence numbers
  // start at 0: rewrite the id's ID_CFG in every engine before reusing an id.
  void Start(const Job& job);
  bool done() const { return done_; }
  uint64_t completed() const { return completed_; }  // completion counter
  const sc_event& done_event() const { return done_event_; }
  uint64_t start_cycle() const { return start_cycle_; }
  uint64_t done_cycle() const { return done_cycle_; }
  const std::vector<std::string>& errors() const { return errors_; }

  // Local port 0 only (the engine's port).
  bool Inject(uint64_t cycle, unsigned port, uint32_t* words) override;
  uint8_t EjectCredits(uint64_t cycle, unsigned port) override;
  void AfterEdge(uint64_t cycle, const EndpointEdge& edge) override;

 private:
  struct Buf {
    std::vector<uint32_t> data;
    bool done = false;
    unsigned vc = 0;  // of a received flit: the ejection VC whose slot frees when written
  };
  size_t Flits() const { return (job_.elements + shape_.lanes - 1) / shape_.lanes; }
  size_t ElementsOf(size_t flit) const;
  void Finish(uint64_t cycle);

  NodeShape shape_;
  LocalMemory* mem_;
  unsigned prefetch_;
  Job job_;
  bool active_ = false, done_ = false;
  size_t read_ = 0, sent_ = 0, received_ = 0;
  EnginePort port_;  // request flits, credits, result headers
  std::deque<std::unique_ptr<Buf>> reads_, writes_;
  unsigned freed_[8] = {};  // ejection slots to free per VC (their writes completed)
  uint64_t completed_ = 0, start_cycle_ = 0, done_cycle_ = 0;
  sc_event done_event_;
  std::vector<std::string> errors_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_DMA_ENDPOINT_H_
