// aries: the ARIES-sim command line (sim/cli/cli.h; `aries --help`, `aries keys`).
//
//   aries                       the default run: a 4x4 ARIES package, uniform traffic at 0.1
//   aries [run] [options]       one run; --config FILE, --set key=value, --json, --csv, --trace
//   mpirun -n R aries run ...   the same run with the package's rows split over R processes
//   aries sweep [options]       injection-rate sweep (sweep.rates), one CSV row per rate
//   aries coll | coll-sweep | coll-merge | coll-models   collectives on the package
//   aries train | fig9 | fig10 | fig11 | table1 | area | report   the ARIES evaluation
//   aries bench | keys          simulation speed; the configuration keys
#include <malloc.h>

#include <csignal>
#include <cstdlib>

#include "cli.h"

namespace {

// SystemC's library owns main() and calls sc_main(); keep its banner off stdout (set before
// anything of SystemC runs).
const int kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  // A collective run allocates every node's buffer (2 MB each at the sweeps' largest size) for
  // the inputs, the endpoints and the results, and a sweep job runs several collectives in one
  // process. Keep freed memory in the heap for the next run instead of returning it to the
  // kernel (glibc trims a free top above 2x the last freed mmap chunk by default): a fresh page
  // costs a fault and a clear, a third of an 8x8 ring all-reduce job of 2 MB. Buffers up to
  // glibc's largest threshold (32 MB) come from the heap.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // A file grown past the size limit (ulimit -f) is a write error the outputs report by name
  // (sim/runs/files.h), not a signal that kills the run without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  return aries::sim::RunCommandLine(argc, argv);
}
