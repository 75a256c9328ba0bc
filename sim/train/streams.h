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
// Nested strategies (MAD Max section 5: a strategy within a group of devices and another across
// the groups), "INNER@GROUPS+OUTER" over groups of rows, columns or quadrants of the package:
//
//   tp@G+ddp    every layer split over a group's g chiplets (tp all-reduces inside the group, on
//               a batch of g x batch samples), its 1/g of each gradient all-reduced across the
//               groups;  tp@G+fsdp: that 1/g sharded across the groups too (all-gathers before
//               the forward and the backward, reduce-scatters after);
//   ddp@G+ddp   data parallel everywhere, each gradient all-reduced hierarchically: a
//               reduce-scatter in the group, an all-reduce of the 1/g shard across the groups,
//               an all-gather in the group;
//   fsdp@G+ddp  parameters sharded in the group (gathers and reduce-scatters there), the 1/g
//               gradient shard all-reduced across the groups (hybrid sharding);
//   ddp@G+fsdp  parameters sharded across the groups, the 1/G gradient shard all-reduced in the
//               group;
//   tp@G+pp, ddp@G+pp   pipeline parallelism across the groups: each group is a stage of
//               consecutive layers (balanced by compute), the global batch (batch x N) runs as
//               micro-batches through the stages (GPipe: every forward, then every backward),
//               activations and their gradients pass from stage to stage between neighbouring
//               chiplets (rows: vertical pairs; columns: horizontal pairs), inside a stage tp or
//               ddp as above; the bubble is the stages' idle time at the start and the end.
//
// A collective's scope says which chiplets it spans (Scope), and with it which measured cost
// model it takes: the whole package's, or the communicators' rows of the cost file (every group
// at once: the slowdown of sharing the package is in the measurement).
//
// Sharded tables (DLRM's embeddings) are sharded over every chiplet whatever the strategy; their
// pooled outputs (the act column) reach the chiplets that own the samples by an all-to-all
// before the layer that reads them (Workload::embeddings_to) and their gradients go back by
// another after its backward (data parallel strategies); under flat tp every chiplet needs every
// pooled output of the shared batch (an all-gather), under tp@G the group's samples (an
// all-gather in the group after the all-to-all).
//
// With overlap off, the two streams are one: every operation waits for the previous one, the
// serialized iteration time (per pipeline stage under pp).
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

enum class Strategy { kDdp, kFsdp, kTp, kPp };  // kPp: across groups only
const char* StrategyName(Strategy s);
// "ddp", "fsdp", "tp"; throws std::invalid_argument naming the value and the allowed ones.
Strategy ParseStrategy(const std::string& s);

// The chiplets a collective spans.
enum class Scope {
  kAll,    // every chiplet
  kInner,  // the chiplet's group
  kOuter,  // the chiplets at its place in every group (rows: a column; quadrants: qpeers)
  kStage,  // a pipeline stage's chiplet and its neighbour in the next stage (vpairs, hpairs)
};
const char* ScopeName(Scope s);  // "all", "inner", "outer", "stage"

// A strategy: flat (`inner` over every chiplet) or nested (`inner` within each group of the
// shape `groups`, `outer` across the groups).
struct Parallelism {
  Strategy inner = Strategy::kDdp;
  std::string groups = "all";  // all (flat), rows, cols, quadrants
  Strategy outer = Strategy::kDdp;
  bool Flat() const { return groups == "all"; }
  std::string Label() const;  // "ddp", "tp@rows+ddp"
};
// "ddp", "fsdp", "tp" or "INNER@GROUPS+OUTER": inner ddp, fsdp or tp; groups rows, cols or
// quadrants; outer ddp, fsdp or pp (pp with ddp or tp inside, over rows or cols; not fsdp over
// fsdp: that is flat fsdp). Throws std::invalid_argument saying what is allowed (worded to
// follow "allowed") and naming the part that is not.
Parallelism ParseParallelism(const std::string& s);
// The communicator shape (coll::ParseGroups) of `scope` under `p`: "all" for kAll, the groups
// for kInner, cols / rows / qpeers for kOuter, vpairs / hpairs for kStage.
std::string ScopeShape(const Parallelism& p, Scope scope);
// Chiplets per group of a shape on K x K (K^2 for "all").
unsigned GroupSize(const std::string& groups, unsigned k);

struct IterationOptions {
  Parallelism par;
  unsigned chiplets = 16;     // N
  unsigned group = 0;         // nested: chiplets per group (GroupSize); 0 with a flat strategy
  unsigned microbatches = 0;  // pp: micro-batches of the global batch; 0: 4 per stage
  unsigned batch = 0;         // samples per chiplet; 0: the workload's
  uint64_t bucket_bytes = 0;  // flat ddp: 0 = one all-reduce per layer
  bool overlap = true;
  // The sharded tables' pooled outputs by all-to-all (fig10, the paper's all-reduce study,
  // leaves it out).
  bool embedding_exchange = true;
};

// Communication time in ns of one collective of `bytes` (the whole buffer) on the package.
using CommCost = std::function<double(coll::Collective, uint64_t bytes)>;
// The same over the chiplets of `scope`.
using ScopedCost = std::function<double(coll::Collective, uint64_t bytes, Scope scope)>;

// kSync: a second communication stream, for the gradient synchronisation (and parameter
// gathers) across the groups of a tp@G strategy, whose tp all-reduces within the groups take
// kComm: they run on other links (a row's, against a column's) and a framework issues them on
// separate communicators, so neither waits behind the other.
enum class Stream { kCompute, kComm, kSync };

struct Op {
  std::string name;  // "fwd conv1", "allreduce fc7+fc8", ...
  Stream stream = Stream::kCompute;
  unsigned stage = 0;                                          // pipeline stage (its streams)
  coll::Collective collective = coll::Collective::kAllReduce;  // kComm only
  Scope scope = Scope::kAll;                                   // kComm only
  uint64_t bytes = 0;                                          // kComm only
  double duration = 0;                                         // ns
  std::vector<size_t> deps;  // ops (indices) that must end first, besides the stream order
  double start = 0, end = 0;
};

struct Iteration {
  std::vector<Op> ops;      // in issue order per stream
  double time = 0;          // ns: the last op's end
  double compute_busy = 0;  // ns of compute (the busiest stage's)
  double comm_busy = 0;     // ns of communication (the same stage's)
  // time - compute_busy: the compute stream idle on communication (and, under pp, on the
  // pipeline's fill and drain)
  double exposed_comm = 0;
  unsigned collectives = 0;  // the same stage's
  unsigned stages = 1;
  unsigned microbatches = 1;
};

// Builds and schedules one iteration; throws std::invalid_argument on 0 chiplets, a group
// size that does not divide them, or a pipeline it cannot build (more stages than layers,
// sharded tables, a micro-batch of less than a sample per chiplet).
Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const ScopedCost& cost);
// A flat strategy with one cost for every collective.
Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const CommCost& cost);

// Bytes one chiplet holds at the peak of an iteration: 16 per parameter it keeps (fp32
// weight, gradient and Adam's two moments: ZeRO, Rajbhandari et al. SC'20, section 3.1), the
// gathered layers of sharded strategies (two, weights and gradients), and the layer outputs
// it keeps for the backward pass (4 bytes per act element; internal activations such as
// attention scores are not counted: a lower bound).
double MemoryBytes(const Workload& w, const Chiplet& c, const IterationOptions& o);

// Schedules ops in place: each stream (compute and communication of each stage) runs its ops
// in vector order, an op starts when its stream is free and its dependencies have ended (one
// stream per stage when !overlap). Throws std::logic_error naming an op whose dependencies can
// never end (a cycle).
void Schedule(std::vector<Op>& ops, bool overlap);

// The timeline as CSV: stage,stream (compute, comm, sync),op,collective,scope,bytes,start_ns,
// end_ns.
std::string TimelineCsv(const Iteration& it);

}  // namespace aries::train

#endif  // ARIES_SIM_TRAIN_STREAMS_H_
