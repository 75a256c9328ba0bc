// aries bench: simulation speed and peak memory of the package on mesh traffic, each point in
// its own process (`aries run` with --json), over link latencies, K, loads, node models and
// kernels (SystemC, the plain loop on one thread and on every core).
#ifndef ARIES_SIM_BENCH_H_
#define ARIES_SIM_BENCH_H_

#include <string>
#include <vector>

namespace aries::sim {

struct BenchOptions {
  bool quick = false;                              // 1,000 measured cycles per point, not 5,000
  std::vector<unsigned> links{10, 1};              // wire cycles of a one-pitch link
  std::vector<unsigned> ks{4, 8, 16};              // K x K mesh
  std::vector<std::string> models{"rtl", "fast"};  // node models (sim.model)
};

// Prints one row per point; throws std::runtime_error naming a point's command that failed.
int RunBenchCommand(const BenchOptions& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_BENCH_H_
