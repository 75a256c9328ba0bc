// `aries coll-sweep`: all-reduce over every algorithm (and embedding variant) x topology x size
// on one K, every run verified element by element; prints a Markdown table (cycles, bus
// bandwidth, fraction of the bound) and writes the CSV that `--algo auto` reads as its cost
// models (collectives/tuner.h).
#ifndef ARIES_SIM_COLL_SWEEP_H_
#define ARIES_SIM_COLL_SWEEP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "geometry.h"
#include "program.h"

namespace aries::sim {

struct CollSweepOptions {
  // K, tracks, link latency and extra cycles per pitch (package.*), recorded in every CSV row;
  // the topology is set per run from `topologies`.
  coll::Geometry geometry;
  std::vector<coll::Topology> topologies = {coll::Topology::kMesh, coll::Topology::kTorus,
                                            coll::Topology::kAries, coll::Topology::kFbfly};
  std::vector<std::string> algos;                                    // algorithm names; empty: all
  std::vector<uint64_t> sizes = {1024, 64 * 1024, 2 * 1024 * 1024};  // bytes per node
  std::string type = "int32";                                        // coll.type
  coll::Collective collective = coll::Collective::kAllReduce;        // or any coll::Swept one
  std::string csv;  // append rows (header when the file is new)
  uint64_t seed = 1;
  std::string model = "auto";  // node model of every point (CollOptions::model; auto: fast)
  // coll.groups: "all", or a named communicator shape (coll::ParseGroups) whose groups run the
  // collective at once; the first group also runs alone (the CSV's alone_cycles). Only the
  // algorithms that plan communicators are swept then.
  std::string groups = "all";
  // Parallel and distributed sweeps: the sweep splits into one job per (algorithm, topology,
  // size), each an `aries coll-sweep` writing its own part CSV under job_dir. jobs > 1 runs
  // them on the local cores and merges the parts into csv; job_file writes their command
  // lines instead (one per line: GNU parallel, or a Slurm array task per line), merged later
  // with `aries coll-merge`.
  unsigned jobs = 1;
  std::string job_file;
  std::string job_dir;  // default: <csv or job_file>.parts
};

// `aries coll-sweep`'s request: `o` (its lists and outputs) with the keys it reads (package.k
// and the geometry, coll.collective, coll.type, sim.model, sim.seed) from `c`.
CollSweepOptions CollSweepRequest(const Config& c, CollSweepOptions o);
// The command line's lists: "mesh,torus" (option names the flag in errors), "1K,64K,2M",
// "ring,dbt" or "all" (-> empty).
std::vector<coll::Topology> ParseTopologyList(const std::string& list, const char* option);
std::vector<uint64_t> ParseSizeList(const std::string& list, const char* option);
std::vector<std::string> ParseAlgoList(const std::string& list, const char* option);

int RunCollSweep(const CollSweepOptions& o);

// `aries coll-merge`: concatenates sweep CSVs (one header, every row, in file order) into
// `out`; refuses a file whose header is not the sweep header, naming it.
int RunCollMerge(const std::vector<std::string>& parts, const std::string& out);

// `aries coll-models`: the cost models of one collective in a sweep CSV (default: the repository's
// measured costs), one row per (topology, K, candidate): the alpha-beta fit with its largest
// relative error, and the piecewise model's leave-one-out error.
int RunCollModels(const std::string& costs, const std::string& type,
                  coll::Collective collective = coll::Collective::kAllReduce);

}  // namespace aries::sim

#endif  // ARIES_SIM_COLL_SWEEP_H_
