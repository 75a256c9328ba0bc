// A training workload: the layers of one model with their gradient sizes and forward work per
// sample, read from a CSV in sim/train/workloads/ (written by make_workloads.py from the
// models' papers; the header comments cite them).
#ifndef ARIES_SIM_TRAIN_WORKLOAD_H_
#define ARIES_SIM_TRAIN_WORKLOAD_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace aries::train {

// A malformed workload file: the message names file:line, the column and what is allowed.
class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Layer {
  std::string name;
  uint64_t params = 0;   // trainable parameters: the gradient's elements
  double fwd_flops = 0;  // forward FLOPs per sample (backward: twice that)
  uint64_t tp_fwd = 0;   // tensor parallel: elements per sample all-reduced after the forward
  uint64_t tp_bwd = 0;   //   and after the backward (the input gradient)
  bool sharded = false;  // a model-parallel table: no gradient collective
  uint64_t act = 0;      // output activation elements per sample (the optional act column: the
                         // memory kept for the backward pass, a pipeline stage's transfer, a
                         // sharded table's pooled output exchanged all-to-all)
  double fwd_ns = 0;     // optional, given directly: forward / backward ns per sample on
  double bwd_ns = 0;     //   one chiplet (0: from the FLOPs and the chiplet's rate)
};

struct Workload {
  std::string name;
  std::vector<std::string> sources;  // "# source:" lines
  std::string sample;                // what one sample is
  unsigned batch = 1;                // default samples per chiplet per iteration
  std::vector<Layer> layers;         // forward order
  // "# embeddings_to: LAYER": the first layer that reads the sharded tables' pooled outputs
  // (DLRM's interaction); by default the first layer after the last sharded one. The pooled
  // outputs (act of the sharded layers) reach it by an all-to-all.
  std::string embeddings_to;
  bool HasActivations() const;  // the file gave the act column
  uint64_t Params() const;
  double FwdFlops() const;  // per sample
};

// Reads a workload CSV: "# key: value" comments (workload, source, sample, batch,
// embeddings_to), then the header "layer,params,fwd_flops,tp_fwd,tp_bwd,sync" (optionally
// followed by ",act", then optionally by ",fwd_ns,bwd_ns": measured times per sample that
// replace the FLOPs-based ones where non-zero) and one row per layer (sync: dp or sharded;
// element counts up to 2^40, so byte sizes cannot overflow; FLOPs up to 2^60).
Workload LoadWorkload(const std::string& path);

// The shipped workloads' names ("resnet50", ...), and the path of a name or a path.
std::vector<std::string> ShippedWorkloads();
std::string WorkloadPath(const std::string& name_or_path);

}  // namespace aries::train

#endif  // ARIES_SIM_TRAIN_WORKLOAD_H_
