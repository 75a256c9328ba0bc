// `aries coll-sweep`: all-reduce over every algorithm (and embedding variant) x topology x size
// on one K, every run verified element by element; prints a Markdown table (cycles, bus
// bandwidth, fraction of the bound) and writes the CSV that `--algo auto` reads as its cost
// models (collectives/tuner.h).
#ifndef ARIES_SIM_COLL_SWEEP_H_
#define ARIES_SIM_COLL_SWEEP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "geometry.h"

namespace aries::sim {

struct CollSweepOptions {
  unsigned k = 4;
  // The rest of the package geometry, recorded in every CSV row (--set package.*).
  coll::Geometry geometry;  // its topology and k are set per run
  std::string topologies = "mesh,torus,aries,fbfly";
  std::string algos = "all";
  std::string sizes = "1K,64K,2M";
  std::string type = "int32";
  std::string collective = "allreduce";  // or reducescatter, allgather
  std::string csv;                       // append rows (header when the file is new)
  uint64_t seed = 1;
  std::string model = "auto";  // node model of every point (CollOptions::model)
  // Parallel and distributed sweeps: the sweep splits into one job per (algorithm, topology,
  // size), each an `aries coll-sweep` writing its own part CSV under job_dir. jobs > 1 runs
  // them on the local cores and merges the parts into csv; job_file writes their command
  // lines instead (one per line: GNU parallel, or a Slurm array task per line), merged later
  // with `aries coll-merge`.
  unsigned jobs = 1;
  std::string job_file;
  std::string job_dir;  // default: <csv or job_file>.parts
};

int RunCollSweep(const CollSweepOptions& o);

// `aries coll-merge`: concatenates sweep CSVs (one header, every row, in file order) into
// `out`; refuses a file whose header is not the sweep header, naming it.
int RunCollMerge(const std::vector<std::string>& parts, const std::string& out);

// `aries coll-models`: the cost models of one collective in a sweep CSV (default: the repository's
// measured costs), one row per (topology, K, candidate): the alpha-beta fit with its largest
// relative error, and the piecewise model's leave-one-out error.
int RunCollModels(const std::string& costs, const std::string& type,
                  const std::string& collective = "allreduce");

}  // namespace aries::sim

#endif  // ARIES_SIM_COLL_SWEEP_H_
