// `aries train`: one training iteration of a workload on the package (sim/train), with its
// collective times from the cost models fitted to this simulator; `aries fig10`: ARIES
// section V-B Fig. 10, the execution-time speedup of ARIES over mesh, torus and the flattened
// butterfly for ring, double binary tree and multi-tree all-reduce.
#ifndef ARIES_SIM_TRAIN_RUN_H_
#define ARIES_SIM_TRAIN_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "geometry.h"
#include "streams.h"

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

struct Fig10Options {
  std::vector<unsigned> ks = {4, 8};
  std::vector<std::string> workloads = {"resnet50", "vgg16", "dlrm", "transformer"};
  std::string costs, csv, plot;  // plot: STEM of STEM.svg, .pdf, .png
  unsigned batch = 0;            // 0: each workload's
  double utilization = 0.7;
  std::string preset = "default";  // eval.preset: default (ours) or paper (the paper's setup)
};
// `aries fig10`'s request: `o` with train.batch, train.utilization, coll.costs and eval.preset
// from `c`.
Fig10Options Fig10Request(const Config& c, Fig10Options o);
int RunFig10Command(const Fig10Options& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_TRAIN_RUN_H_
