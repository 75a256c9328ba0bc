// `aries coll`: plans one collective, validates it, runs it cycle-accurately on the package and
// prints cycles, algorithm and bus bandwidth (nccl-tests definitions) and the fraction of the
// bandwidth bound; --verify checks every element against the golden reduction.
#ifndef ARIES_SIM_COLL_RUN_H_
#define ARIES_SIM_COLL_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "energy.h"
#include "geometry.h"
#include "program.h"
#include "run_util.h"
#include "trace_outputs.h"

namespace aries::sim {

struct CollOptions {
  // The package: topology, K, tracks, link latency and extra cycles per pitch (package.*).
  coll::Geometry geometry;
  std::string algo = "ring";  // coll.algo: an algorithm's name or auto (Plan refuses others)
  coll::Collective collective = coll::Collective::kAllReduce;
  std::string type = "int32";  // coll.type: int32 or fp32 (RequireElementType)
  std::string op = "sum";      // coll.op: sum, prod, min, max, and, or, xor (ReductionOpcode)
  uint64_t bytes = 64 * 1024;  // coll.size: per node
  unsigned root = 0, embeddings = 1, levels = 2;
  coll::RingLayout ring;  // coll.ring_map, coll.ring_dirs: the ring algorithm only
  std::vector<std::vector<unsigned>> groups;  // coll.groups: communicators (empty: every node)
  // coll.counts (alltoallv): uniform, random or a counts file (tb::ReadCountsFile).
  std::string counts = "uniform";
  // alltoallv: the counts themselves (K^2 x K^2; library callers: a group run alone keeps its
  // counts); when given, `counts` only names them.
  std::vector<std::vector<uint64_t>> count_matrix;
  bool alone = true;  // with groups: also run each group alone (what sharing the package costs)
  bool alone_first_only = false;  // only the first group (sweeps: the groups are alike)
  std::string inputs, outputs;    // per-node file patterns with {node} (.npy or raw)
  std::string costs;              // --algo auto: cost CSV (default: the repository's)
  bool verify = false;
  uint64_t seed = 1;
  // Node model: rtl (the Verilated RTL), fast (the cycle-equivalent C++ model), check (both in
  // lockstep, every pin compared every cycle), auto (= fast). Library callers (sweeps, figures,
  // the training model's checks) take auto; `aries coll` resolves sim.model = auto to rtl.
  std::string model = "auto";
  // Energy from the run's activity: a technology file (name or path) and key=value overrides
  // (any of tech, tech_set, energy_csv implies energy).
  bool energy = false;
  std::string tech = "dsent45";
  std::vector<std::string> tech_set;
  std::string energy_csv;  // per node and per link
  std::string json;        // `aries coll --json`: the measurement with its provenance
  // Debugging (the RTL model for a waveform): --trace, --trace-nodes/-from/-to, --packet-log,
  // --timeline; and --trace-op NODE:OP, the message of one op of the program to follow.
  TraceRequest trace;
  std::string trace_op;
  bool progress = false;  // progress on stderr about once a second (also on a terminal)
};

// `aries coll`'s request: `o` (its file and energy flags) with the keys it reads (package
// geometry, coll.*, sim.model, sim.seed) from `c`; throws ConfigError naming a bad value.
CollOptions CollRequest(const Config& c, CollOptions o);

// Throws std::invalid_argument unless `type` is an element type the engine reduces.
void RequireElementType(const std::string& type, const char* option = "--type");

// ParseBytes of a collective's buffer: whole 4-byte elements (int32, fp32), at most 64 MiB;
// throws std::invalid_argument naming the option and `s` (a part element would be made up).
uint64_t ParseElementBytes(const std::string& s, const char* option);
// Refuses coll.levels (aries_lt's) and coll.embeddings (tree's) given on the command line for
// another algorithm `algo` (auto too unless `auto_allowed`: it may pick either).
void RefuseOtherAlgorithmsKeys(const Config& c, const std::string& algo, bool auto_allowed);

// One measured run.
struct CollMeasurement {
  uint64_t bytes = 0, elements = 0, cycles = 0;
  double algbw = 0, busbw = 0;  // bytes per cycle (nccl-tests definitions)
  double bound = 0;             // cycles of the bandwidth bound
  unsigned sync_steps = 0;
  unsigned segment_links = 0;  // links the plan wires onto bypass segments
  std::string algorithm;       // the algorithm run (auto's choice), with its levels or embeddings
  std::string op;              // the engine operation: "add.i32", "max.f32", ...
  std::string model;           // the node model: rtl, fast, check
  std::string plan;            // the plan's summary
  uint64_t flits_injected = 0, flits_ejected = 0;
  double predicted = 0;   // --algo auto: the cost model's cycles
  double seconds = 0;     // simulation wall time
  bool verified = false;  // every element compared with the golden reduction (and equal)
  bool ok = false;        // finished, no errors, every flit accounted (and verified)
  energy::Energy energy;  // with CollOptions::energy: the run's energy (pJ) by component
  // With communicators: each one's members, its cycles (its last member's last op) and, run
  // alone on the package, its cycles then (0: not run alone).
  struct Group {
    std::vector<unsigned> members;
    uint64_t cycles = 0, alone = 0;
  };
  std::vector<Group> groups;
  // --trace-op: the followed message (its path as text) and the trace that records it (its
  // nodes, their ports, the cycles, markers at its injection and ejection).
  std::string followed;
  TraceRequest follow;
};

// Plans, validates and runs one collective (sim.model = auto: the fast model, ResolveModel with
// RunScale::kMany); prints the report unless `quiet`.
CollMeasurement MeasureCollective(const CollOptions& o, bool quiet = false);

// The measurement as JSON: provenance (with the typed configuration), the request and the
// results, numbers as numbers.
std::string CollJson(const CollOptions& o, const CollMeasurement& m);

// Runs, prints and (with o.json) writes the JSON. Returns the process exit code (0 ok, 1
// verification or run failure); throws std::invalid_argument naming a bad option and what is
// allowed.
int RunCollectiveCommand(const CollOptions& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_COLL_RUN_H_
