// `aries coll`: plans one collective, validates it, runs it cycle-accurately on the package and
// prints cycles, algorithm and bus bandwidth (nccl-tests definitions) and the fraction of the
// bandwidth bound; --verify checks every element against the golden reduction.
#ifndef ARIES_SIM_COLL_RUN_H_
#define ARIES_SIM_COLL_RUN_H_

#include <cstdint>
#include <string>

namespace aries::sim {

struct CollOptions {
  std::string topology = "mesh", algo = "ring", collective = "allreduce", type = "int32";
  std::string size = "64K";
  unsigned k = 4, root = 0, embeddings = 1, levels = 2;
  std::string inputs, outputs;  // per-node file patterns with {node} (.npy or raw)
  bool verify = false;
  uint64_t seed = 1;
};

// Returns the process exit code (0 ok, 1 verification or run failure); throws
// std::invalid_argument naming a bad option and what is allowed.
int RunCollectiveCommand(const CollOptions& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_COLL_RUN_H_
