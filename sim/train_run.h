// `aries train`: one training iteration of a workload on the package (sim/train), with its
// collective times from the cost models fitted to this simulator; `aries fig10`: ARIES
// section V-B Fig. 10, the execution-time speedup of ARIES over mesh, torus and the flattened
// butterfly for ring, double binary tree and multi-tree all-reduce.
#ifndef ARIES_SIM_TRAIN_RUN_H_
#define ARIES_SIM_TRAIN_RUN_H_

#include <string>

namespace aries::sim {

struct TrainOptions {
  std::string workload = "resnet50", strategy = "ddp", topology = "mesh", algo = "ring";
  unsigned k = 4, levels = 2, embeddings = 1, batch = 0;
  std::string bucket = "0";  // ddp bucket bytes (0: one all-reduce per layer)
  double utilization = 0.7;
  std::string costs;          // cost CSV (default: the repository's)
  std::string timeline, svg;  // outputs
  bool check = false;         // re-run collectives up to check_max cycle-accurately
  std::string check_max = "2M";
};
int RunTrainCommand(const TrainOptions& o);

struct Fig10Options {
  std::string ks = "4,8";
  std::string workloads = "resnet50,vgg16,dlrm,transformer";
  std::string costs, csv, svg;
  unsigned batch = 0;  // 0: each workload's
  double utilization = 0.7;
};
int RunFig10Command(const Fig10Options& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_TRAIN_RUN_H_
