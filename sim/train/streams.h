// One training iteration of one chiplet as two in-order streams, compute and communication,
// with explicit dependencies between their operations (MAD Max section 4.3): every chiplet
// runs the same streams (the parallel strategies here are symmetric), so one chiplet's
// timeline is the package's.
//
//   ddp   forward, then backward in reverse layer order; the gradients of each bucket (layers
//         gathered in backward order until --bucket bytes; 0: one per layer) are all-reduced
//         on the communication stream once the bucket's last layer has back-propagated,
//         overlapping the rest of the backward pass.
//   fsdp  parameters sharded across the chiplets: an all-gather before each layer's forward
//         and again before its backward (prefetched one layer ahead: at most two layers
//         gathered), a reduce-scatter of its gradient after its backward.
//   tp    every layer split across the chiplets (a 1/N share of its work) on one shared batch:
//         the all-reduces the workload's tp columns give (partial outputs after the forward,
//         the input gradient after the backward), each blocking the next layer; no gradient
//         collective.
//
// With overlap off, the two streams are one: every operation waits for the previous one, the
// serialized iteration time.
#ifndef ARIES_SIM_TRAIN_STREAMS_H_
#define ARIES_SIM_TRAIN_STREAMS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "program.h"
#include "workload.h"

namespace aries::train {

// The chiplet's compute, ARIES Table II: 16 PEs of 32x32 multipliers at 1 GHz.
struct Chiplet {
  double clock_ghz = 1.0;    // ARIES Table II clock rate (also the NoC's: cycles -> ns)
  unsigned pes = 16;         // ARIES Table II "# of PEs"
  unsigned array = 32;       // ARIES Table II multiplier array 32x32
  double utilization = 0.7;  // MAD Max 4.2: compute utilization ~70%
  unsigned elem_bytes = 4;   // ARIES Table II data width 32 bits (gradients, activations)
  // Sustained FLOPs per ns: 2 FLOPs per multiply-accumulate.
  double FlopsPerNs() const { return 2.0 * pes * array * array * clock_ghz * utilization; }
};

enum class Strategy { kDdp, kFsdp, kTp };
const char* StrategyName(Strategy s);
// "ddp", "fsdp", "tp"; throws std::invalid_argument naming the value and the allowed ones.
Strategy ParseStrategy(const std::string& s);

struct IterationOptions {
  Strategy strategy = Strategy::kDdp;
  unsigned chiplets = 16;     // N
  unsigned batch = 0;         // samples per chiplet; 0: the workload's
  uint64_t bucket_bytes = 0;  // ddp: 0 = one all-reduce per layer
  bool overlap = true;
};

// Communication time in ns of one collective of `bytes` (the whole buffer) on the package.
using CommCost = std::function<double(coll::Collective, uint64_t bytes)>;

enum class Stream { kCompute, kComm };

struct Op {
  std::string name;  // "fwd conv1", "allreduce fc7+fc8", ...
  Stream stream = Stream::kCompute;
  coll::Collective collective = coll::Collective::kAllReduce;  // kComm only
  uint64_t bytes = 0;                                          // kComm only
  double duration = 0;                                         // ns
  std::vector<size_t> deps;  // ops (indices) that must end first, besides the stream order
  double start = 0, end = 0;
};

struct Iteration {
  std::vector<Op> ops;      // in issue order per stream
  double time = 0;          // ns: the last op's end
  double compute_busy = 0;  // ns of compute
  double comm_busy = 0;     // ns of communication
  double exposed_comm = 0;  // time - compute_busy: the compute stream idle on communication
  unsigned collectives = 0;
};

// Builds and schedules one iteration; throws std::invalid_argument on 0 chiplets.
Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const CommCost& cost);

// Schedules ops in place: each stream runs its ops in vector order, an op starts when its
// stream is free and its dependencies have ended (one stream for both when !overlap). Throws
// std::logic_error naming an op whose dependencies can never end (a cycle).
void Schedule(std::vector<Op>& ops, bool overlap);

// The timeline as CSV: stream,op,collective,bytes,start_ns,end_ns.
std::string TimelineCsv(const Iteration& it);

}  // namespace aries::train

#endif  // ARIES_SIM_TRAIN_STREAMS_H_
