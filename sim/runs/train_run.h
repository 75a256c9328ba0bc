// `aries train`: one training iteration of a workload on the package (sim/train), with its
// collective times from the cost models fitted to this simulator. `aries fig10` is in
// sim/figures (figures.h).
#ifndef ARIES_SIM_TRAIN_RUN_H_
#define ARIES_SIM_TRAIN_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "geometry.h"
#include "streams.h"
#include "workload.h"

namespace aries::sim {

struct TrainOptions {
  std::string workload = "resnet50";     // train.workload: a shipped name or a workload CSV
  train::Parallelism par;                // train.strategy: flat or nested (INNER@GROUPS+OUTER)
  unsigned microbatches = 0;             // pp: 0 = 4 per stage
  uint64_t memory = uint64_t{16} << 30;  // train.memory: bytes per chiplet (the search)
  bool search = false;                   // --search: enumerate strategies, print the best
  std::vector<coll::Topology> search_topologies = {coll::Topology::kAries, coll::Topology::kMesh,
                                                   coll::Topology::kTorus};
  unsigned top = 5;  // --search: strategies printed per topology
  coll::Topology topology = coll::Topology::kAries;
  unsigned k = 4;
  std::string algo = "ring";  // coll.algo: the algorithm whose measured cost model is used
  unsigned levels = 2, embeddings = 1, batch = 0;
  uint64_t bucket = 0;  // ddp bucket bytes (0: one all-reduce per layer)
  double utilization = 0.7;
  std::string costs;           // cost CSV (default: the repository's)
  std::string timeline, plot;  // outputs (plot: STEM of STEM.svg, .pdf, .png)
  bool check = false;          // re-run collectives up to check_max cycle-accurately
  uint64_t check_max = 2 * 1024 * 1024;
  std::string model = "auto";  // node model of the checks (auto: fast)
};
// `aries train`'s request: `o` (its outputs and --check) with the keys it reads (package
// topology and K, coll.algo/levels/embeddings/costs, train.*, sim.model) from `c`.
TrainOptions TrainRequest(const Config& c, TrainOptions o);
int RunTrainCommand(const TrainOptions& o);

// What `train` and `fig10` share.
std::string Us(double ns);
unsigned BatchOf(unsigned batch_option, const train::Workload& w);
train::Chiplet ChipletWith(double utilization);

}  // namespace aries::sim

#endif  // ARIES_SIM_TRAIN_RUN_H_
