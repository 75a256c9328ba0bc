#include "train_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "coll_run.h"
#include "costs.h"
#include "files.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "streams.h"
#include "trace_outputs.h"
#include "workload.h"

namespace aries::sim {

// Nanoseconds as microseconds with one decimal.
std::string Us(double ns) { return fmt::format("{:.1f}", ns / 1000.0); }

// The samples per chiplet: --batch (train.batch) when given, else the workload's reference.
unsigned BatchOf(unsigned batch_option, const train::Workload& w) {
  return batch_option ? batch_option : w.batch;
}

// The chiplet at compute utilization `utilization`, refused outside (0, 1].
train::Chiplet ChipletWith(double utilization) {
  if (!(utilization > 0 && utilization <= 1)) {
    throw std::invalid_argument(fmt::format("--utilization {}: allowed (0, 1]", utilization));
  }
  train::Chiplet c;
  c.utilization = utilization;
  return c;
}

TrainOptions TrainRequest(const Config& c, TrainOptions o) {
  // The training model reads the cost models of the default geometry: topology and K only.
  const auto topo = coll::ParseTopology(c.Get("package.topology"));
  if (!topo) BadKey(c, "package.topology");
  o.topology = *topo;
  o.k = static_cast<unsigned>(
      KeyUintWithin(c, "package.k", 2, 16, "the training model's cost models"));
  o.algo = c.Get("coll.algo");
  if (!coll::FindAlgorithm(o.algo)) {
    BadKey(c, "coll.algo", "one of " + coll::AlgorithmNames() + " (auto is coll's only)");
  }
  o.levels = static_cast<unsigned>(KeyUint(c, "coll.levels"));
  o.embeddings = static_cast<unsigned>(KeyUint(c, "coll.embeddings"));
  o.costs = c.Get("coll.costs");
  o.workload = c.Get("train.workload");
  try {
    o.par = train::ParseParallelism(c.Get("train.strategy"));
  } catch (const std::invalid_argument& e) {
    BadKey(c, "train.strategy", e.what());
  }
  if (!o.par.Flat() && o.k % 2 != 0 &&
      (o.par.groups == "quadrants" || o.par.outer == train::Strategy::kPp)) {
    BadKey(c, "train.strategy",
           fmt::format("quadrants and pipeline stages with K even (K = {}: quadrants and the "
                       "stages' neighbour pairs need it)",
                       o.k));
  }
  o.batch = static_cast<unsigned>(KeyUint(c, "train.batch"));
  o.bucket = KeyBytes(c, "train.bucket");
  if (o.bucket > 0 && !(o.par.Flat() && o.par.inner == train::Strategy::kDdp)) {
    BadKey(c, "train.bucket",
           fmt::format("0 with {} (buckets are flat ddp's; {} issues its collectives per layer)",
                       o.par.Label(), o.par.Label()));
  }
  o.microbatches = static_cast<unsigned>(KeyUint(c, "train.microbatches"));
  if (o.microbatches > 0 && (o.par.Flat() || o.par.outer != train::Strategy::kPp)) {
    BadKey(
        c, "train.microbatches",
        fmt::format("0 with {} (micro-batches are a pipeline's: INNER@GROUPS+pp)", o.par.Label()));
  }
  // What one run reads and the search sets itself, what only the search reads and what only
  // --check reads: given where it would be ignored, refused (command-line keys only: a
  // configuration file may hold keys for other runs).
  if (o.search) {
    for (const char* key : {"train.strategy", "package.topology", "coll.algo", "coll.levels",
                            "coll.embeddings", "train.bucket", "train.microbatches"}) {
      if (c.FromCommandLine(key)) {
        BadKey(c, key,
               "only without --search (it tries every strategy, micro-batch count and measured "
               "algorithm on each of --topologies)");
      }
    }
  } else {
    RefuseOtherAlgorithmsKeys(c, o.algo, false);
  }
  if (!o.check) {
    for (const char* key : {"train.check_max", "sim.model"}) {
      if (c.FromCommandLine(key)) {
        BadKey(c, key, "only with --check (the cycle-accurate runs it sets)");
      }
    }
  }
  o.memory = KeyBytes(c, "train.memory");
  if (!o.search && c.FromCommandLine("train.memory")) {  // (one run would ignore it)
    BadKey(c, "train.memory",
           "only with --search (it prunes the search's strategies; one run prints the memory per "
           "chiplet it needs)");
  }
  o.utilization = KeyReal(c, "train.utilization");
  o.check_max = KeyBytes(c, "train.check_max");
  o.model = KeyWord(c, "sim.model");  // auto: the fast model
  return o;
}

namespace {

// The iteration as trace-event JSON: per pipeline stage (every chiplet of a stage runs alike)
// its compute, communication and synchronisation streams, and the communication the compute
// stream waits on (exposed: the stage's compute stream idle within the iteration).
std::string TrainTimelineJson(const train::Iteration& it) {
  Timeline t;
  std::map<unsigned, std::vector<std::pair<double, double>>> compute;  // per stage, in order
  for (const train::Op& op : it.ops) {
    const char* stream = op.stream == train::Stream::kSync   ? "sync"
                         : op.stream == train::Stream::kComm ? "communication"
                                                             : "compute";
    const std::string stage = fmt::format("stage {}", op.stage);
    const std::string args = op.stream == train::Stream::kCompute
                                 ? ""
                                 : fmt::format("{{\"collective\": \"{}\", \"bytes\": {}}}",
                                               coll::CollectiveName(op.collective), op.bytes);
    t.Slice(stage, stream, op.name, op.start, op.end, args);
    if (op.stream == train::Stream::kCompute) compute[op.stage].push_back({op.start, op.end});
  }
  for (auto& [stage, busy] : compute) {  // the gaps of the compute stream in [0, time)
    std::sort(busy.begin(), busy.end());
    double at = 0;
    for (const auto& [b, e] : busy) {
      if (b > at) t.Slice(fmt::format("stage {}", stage), "exposed communication", "idle", at, b);
      at = std::max(at, e);
    }
    if (it.time > at)
      t.Slice(fmt::format("stage {}", stage), "exposed communication", "idle", at, it.time);
  }
  t.Total("time_ns", it.time);
  t.Total("compute_busy_ns", it.compute_busy);
  t.Total("comm_busy_ns", it.comm_busy);
  t.Total("exposed_comm_ns", it.exposed_comm);
  t.Total("stages", uint64_t{it.stages});
  return t.Json();
}

// The iteration options of strategy `par` for the command's package and batch.
train::IterationOptions IterationOf(const TrainOptions& o, const train::Parallelism& par) {
  train::IterationOptions io;
  io.par = par;
  io.chiplets = o.k * o.k;
  io.group = par.Flat() ? 0 : train::GroupSize(par.groups, o.k);
  io.microbatches = o.microbatches;
  io.batch = o.batch;
  io.bucket_bytes = o.bucket;
  return io;
}

std::string Gb(double bytes) { return fmt::format("{:.2f}", bytes / double(uint64_t{1} << 30)); }

// What an iteration's collectives are: (collective, scope) -> the sizes it runs.
using CollSizes = std::map<std::pair<coll::Collective, train::Scope>, std::set<uint64_t>>;
CollSizes CollectivesIn(const train::Iteration& it) {
  CollSizes m;
  for (const train::Op& op : it.ops) {
    if (op.stream != train::Stream::kCompute) m[{op.collective, op.scope}].insert(op.bytes);
  }
  return m;
}

// Prints the cost model behind each (collective, scope) of the iteration.
void PrintCostModels(const train::CostTable& table, const coll::Geometry& g,
                     const coll::Candidate& cand, const train::Parallelism& par,
                     const CollSizes& colls) {
  for (const auto& [key, sizes] : colls) {
    const auto [c, scope] = key;
    const std::string shape = train::ScopeShape(par, scope);
    // The models the cost chooses from (CostTable::Choices: over groups and for the all-to-all
    // every algorithm measured there, else `cand`).
    struct Shown {
      const coll::CostModel* m;
      std::string label;
      std::vector<uint64_t> sizes;  // the iteration's sizes this model prices (the cheapest)
    };
    std::vector<Shown> models;
    const auto choices = table.Choices(c, g, {cand}, shape);
    std::map<std::string, std::vector<uint64_t>> used_by;  // candidate label -> sizes it prices
    for (uint64_t b : sizes)
      used_by[choices.size() == 1 ? choices[0].Label()
                                  : table.Cheapest(c, g, {cand}, b, shape).Label()]
          .push_back(b);
    for (const coll::Candidate& x : choices) {
      const coll::CostModel& m = table.Find(c, g, x, shape);
      const std::vector<uint64_t>& used = used_by[x.Label()];
      models.push_back(
          {&m,
           fmt::format("{}{}{}", x.Label(),
                       shape != "all" ? fmt::format(" over {} (every group at once: {:.2f}x "
                                                    "one group alone)",
                                                    shape, m.Slowdown())
                                      : "",
                       choices.size() > 1 ? "; the cheapest at each size" : ""),
           used});
    }
    for (const auto& [m, label, used] : models) {
      const coll::AlphaBeta ab = coll::FitAlphaBeta(m->points);
      unsigned extrapolated = 0;
      for (uint64_t b : used) extrapolated += b > m->points.back().bytes ? 1 : 0;
      fmt::print(
          "  cost model: {} {} on {}: {} sizes {}..{} B: piecewise leave-one-out error {:.1f}% "
          "(alpha-beta: {:.0f} cycles + {:.4f} cycles/B, largest error {:.1f}%); {} sizes "
          "used, {} above the largest measured (extrapolated)\n",
          coll::CollectiveName(c), label, coll::GeometryLabel(g), m->points.size(),
          m->points.front().bytes, m->points.back().bytes, 100 * m->LeaveOneOutError(), ab.alpha,
          ab.beta, 100 * ab.max_rel_error, used.size(), extrapolated);
    }
  }
}

// One cycle-accurate check: a collective over every chiplet or over the communicators of
// `shape` (every group at once), the algorithm the cost model took, the model's cycles.
struct CheckRun {
  coll::Collective c;
  std::string shape;
  uint64_t bytes;
  coll::Candidate run;
  double model;  // cycles
  bool operator<(const CheckRun& o) const {
    return std::make_tuple(static_cast<int>(c), shape, bytes, run.Label()) <
           std::make_tuple(static_cast<int>(o.c), o.shape, o.bytes, o.run.Label());
  }
};

// The distinct collectives of an iteration up to `cap` bytes, as checks.
std::set<CheckRun> ChecksOf(const train::Iteration& it, const train::Parallelism& par,
                            const train::CostTable& table, const coll::Geometry& g,
                            const std::vector<coll::Candidate>& cands,
                            const train::ScopedCost& cost, const train::Chiplet& chip,
                            uint64_t cap) {
  std::set<CheckRun> runs;
  for (const auto& [key, sizes] : CollectivesIn(it)) {
    const auto [c, scope] = key;
    const std::string shape = train::ScopeShape(par, scope);
    for (uint64_t bytes : sizes) {
      if (bytes > cap) continue;
      // The algorithm the cost takes at this size (over groups: of those measured for them).
      const coll::Candidate run = table.Cheapest(c, g, cands, bytes, shape);
      runs.insert({c, shape, bytes, run, cost(c, bytes, scope) * chip.clock_ghz});
    }
  }
  return runs;
}

// --check: each run cycle-accurately on the package, model against measurement; the largest
// error into `worst` (over every chiplet: [0], over communicators: [1]). Returns false when a
// run failed.
bool RunChecks(const TrainOptions& o, const coll::Geometry& g, const std::string& what,
               const std::set<CheckRun>& runs, double (&worst)[2]) {
  fmt::print(
      "\n  cycle-accurate check of {} distinct collectives of {} up to {} bytes on {} (every "
      "element verified; {} node model):\n\n"
      "| collective | communicators | algorithm | bytes | model (cycles) | measured (cycles) | "
      "error |\n|---|---|---|---|---|---|---|\n",
      runs.size(), what, o.check_max, coll::GeometryLabel(g),
      ResolveModel(o.model, RunScale::kMany));
  bool ok = true;
  unsigned done = 0;
  for (const CheckRun& r : runs) {
    CollOptions co;
    co.geometry = g;
    co.model = o.model;
    co.collective = r.c;
    co.bytes = r.bytes;
    co.verify = true;
    co.alone = false;
    if (r.shape != "all") co.groups = coll::ParseGroups(r.shape, g.k);
    co.algo = r.run.algo;
    co.levels = r.run.levels;
    co.embeddings = r.run.embeddings;
    co.ring = r.run.ring;
    fmt::print(stderr, "  check {}/{}: {} over {} of {} bytes\n", ++done, runs.size(),
               coll::CollectiveName(r.c), r.shape, r.bytes);
    const CollMeasurement m = MeasureCollective(co, true);
    const double err = (r.model - static_cast<double>(m.cycles)) / static_cast<double>(m.cycles);
    double& w = worst[r.shape == "all" ? 0 : 1];
    w = std::max(w, std::abs(err));
    ok = ok && m.ok;
    fmt::print("| {} | {} | {} | {} | {:.0f} | {}{} | {:+.1f}% |\n", coll::CollectiveName(r.c),
               r.shape == "all" ? "every chiplet" : r.shape, r.run.Label(), r.bytes, r.model,
               m.cycles, m.ok ? "" : " FAILED", 100 * err);
  }
  return ok;
}

// worst[i] < 0: no run of that kind.
void PrintWorst(const double (&worst)[2], bool ok) {
  auto pct = [](double w) {
    return w < 0 ? std::string("none run") : fmt::format("{:.1f}%", 100 * w);
  };
  fmt::print(
      "\n  largest model error {:.1f}% (collectives over every chiplet {}, over "
      "communicators {}){}\n",
      100 * std::max({0.0, worst[0], worst[1]}), pct(worst[0]), pct(worst[1]),
      ok ? "" : "; some runs FAILED");
}

const char* BatchLine(const train::Parallelism& p) {
  if (p.Flat()) {
    return p.inner == train::Strategy::kTp ? "shared by the chiplets (each does 1/N of every layer)"
                                           : "per chiplet";
  }
  if (p.outer == train::Strategy::kPp) {
    return "per chiplet (the global batch, batch x N, runs through the stages in micro-batches)";
  }
  return p.inner == train::Strategy::kTp
             ? "per chiplet (a group shares g x batch, each chiplet doing 1/g of every layer)"
             : "per chiplet";
}

int RunTrainSearch(const TrainOptions& o);

}  // namespace

int RunTrainCommand(const TrainOptions& o) {
  if (o.search) return RunTrainSearch(o);
  const train::Workload w = train::LoadWorkload(
      CheckInputFile(train::WorkloadPath(o.workload), "train.workload", kSmallInputLimit));
  const train::Parallelism& par = o.par;
  const coll::Topology topo = o.topology;
  const train::Chiplet chip = ChipletWith(o.utilization);
  const coll::Candidate cand{o.algo, o.levels, o.embeddings, {}};
  const train::CostTable table(CostPath(o.costs));
  const coll::Geometry geom = train::PackageOf(topo, o.k);
  train::IterationOptions io = IterationOf(o, par);
  const train::ScopedCost cost = table.Scoped(geom, {cand}, par, chip);
  const train::Iteration it = train::RunIteration(w, chip, io, cost);
  io.overlap = false;
  const train::Iteration ser = train::RunIteration(w, chip, io, cost);
  io.overlap = true;
  const unsigned batch = BatchOf(o.batch, w);

  fmt::print(
      "ARIES-sim train: {} ({:.1f}M parameters, {:.3g} GFLOP forward per sample: {}), {}, "
      "batch {} {}, {} chiplets ({} {}x{}), collectives over every chiplet: {}\n",
      w.name, w.Params() / 1e6, w.FwdFlops() / 1e9, w.sample, par.Label(), batch, BatchLine(par),
      io.chiplets, coll::TopologyName(topo), o.k, o.k, cand.Label());
  if (!par.Flat()) {
    fmt::print(
        "  groups: {} {} of {} chiplets ({} in each, across them {}); collectives within and "
        "across the groups take the cheapest algorithm measured over their communicators\n",
        io.chiplets / io.group, par.groups, io.group, train::StrategyName(par.inner),
        train::StrategyName(par.outer));
  }
  fmt::print(
      "  chiplet: {:.1f} TFLOP/s sustained (16 PEs x 32x32 multipliers x 1 GHz, ARIES Table II; "
      "utilization {:.2f}, MAD Max 4.2)\n",
      chip.FlopsPerNs() / 1000.0, chip.utilization);
  const CollSizes colls = CollectivesIn(it);
  PrintCostModels(table, geom, cand, par, colls);
  fmt::print(
      "  iteration: {} us overlapped, {} us serialized; compute {} us, communication {} us in {} "
      "collectives; exposed communication {} us ({:.1f}% of the iteration)\n",
      Us(it.time), Us(ser.time), Us(it.compute_busy), Us(it.comm_busy), it.collectives,
      Us(it.exposed_comm), it.time > 0 ? 100.0 * it.exposed_comm / it.time : 0.0);
  if (it.stages > 1) {
    fmt::print(
        "  pipeline: {} stages, {} micro-batches (GPipe); the busiest stage's figures above, its "
        "exposed time includes the fill and drain (the bubble: {:.1f}% of an ideal pipeline, "
        "(S-1)/(M+S-1))\n",
        it.stages, it.microbatches, 100.0 * (it.stages - 1) / (it.microbatches + it.stages - 1));
  }
  const double mem = train::MemoryBytes(w, chip, io);
  fmt::print("  memory per chiplet: {} GiB (parameters, gradients, Adam states, kept outputs){}\n",
             Gb(mem),
             mem > static_cast<double>(o.memory)
                 ? fmt::format("; more than the {} GiB a chiplet has (train.memory: --search "
                               "prunes such strategies)",
                               Gb(static_cast<double>(o.memory)))
                 : "");
  if (o.timeline.size() > 5 && o.timeline.compare(o.timeline.size() - 5, 5, ".json") == 0) {
    WriteOutputFile(o.timeline, TrainTimelineJson(it), "--timeline");
    fmt::print("  timeline: {} (trace-event JSON: Perfetto, chrome://tracing)\n", o.timeline);
  } else {
    WriteCsv(o.timeline, train::TimelineCsv(it), "--timeline", "  timeline");
  }
  PlotCsv("timeline", train::TimelineCsv(it), o.plot);
  if (!o.check) return 0;
  double worst[2] = {-1, -1};
  const bool ok = RunChecks(o, geom, par.Label(),
                            ChecksOf(it, par, table, geom, {cand}, cost, chip, o.check_max), worst);
  PrintWorst(worst, ok);
  return ok ? 0 : 1;
}

namespace {

// The strategies the search enumerates on K x K (MAD Max Fig. 8's space on a package: the
// flat ones, then each nesting over rows, columns and quadrants, pipelines over rows and
// columns with 1, 2, 4 and 8 micro-batches per stage).
std::vector<std::pair<train::Parallelism, unsigned>> SearchSpace(unsigned k) {
  std::vector<std::pair<train::Parallelism, unsigned>> v;
  for (const char* flat : {"fsdp", "ddp", "tp"}) v.push_back({train::ParseParallelism(flat), 0});
  std::vector<std::string> shapes = {"rows", "cols"};
  if (k % 2 == 0) shapes.push_back("quadrants");
  for (const std::string& g : shapes) {
    for (const char* nest : {"tp@{}+ddp", "tp@{}+fsdp", "ddp@{}+ddp", "fsdp@{}+ddp", "ddp@{}+fsdp"})
      v.push_back({train::ParseParallelism(fmt::format(fmt::runtime(nest), g)), 0});
  }
  if (k % 2 == 0) {
    for (const char* g : {"rows", "cols"}) {
      for (const char* inner : {"tp", "ddp"}) {
        for (unsigned per : {1u, 2u, 4u, 8u})
          v.push_back({train::ParseParallelism(fmt::format("{}@{}+pp", inner, g)), per * k});
      }
    }
  }
  return v;
}

// One strategy the search evaluated on a package.
struct SearchResult {
  std::string label;  // the strategy, with its micro-batches
  train::Parallelism par;
  train::IterationOptions io;
  train::Iteration it;
  double memory = 0;  // bytes per chiplet
};

// The search on one package: the strategies that fit and were priced, fastest first, and
// what was left out and why.
struct PackageSearch {
  coll::Topology topo;
  std::vector<SearchResult> ranked;  // fastest first
  size_t fsdp = 0;  // flat fsdp's place in `ranked` (ranked.size(): it does not fit)
  unsigned pruned = 0, unmeasured = 0, invalid = 0;  // over the memory, unpriced, unbuildable
  double least = 0;                                  // the least memory of a pruned strategy
  std::string why_unmeasured;                        // the first unpriced one's reason
  // r's speedup over flat fsdp ("-" when fsdp does not fit).
  std::string Speedup(const SearchResult& r) const {
    return fsdp < ranked.size() ? fmt::format("{:.2f}x", ranked[fsdp].it.time / r.it.time) : "-";
  }
};

// The search's first line: the workload, batch, package, memory bound and cost file.
void PrintSearchHeading(const TrainOptions& o, const train::Workload& w,
                        const train::CostTable& table) {
  const unsigned n = o.k * o.k, batch = BatchOf(o.batch, w);
  fmt::print(
      "ARIES-sim train --search: {} ({:.1f}M parameters), global batch {} ({} per chiplet) on "
      "{} chiplets ({}x{}), at most {} GiB per chiplet; collectives over every chiplet take the "
      "cheapest measured algorithm at each size, within and across groups the cheapest measured "
      "over the communicators (ring, dbt, mtree, tree; every group at once); costs from {}\n",
      w.name, w.Params() / 1e6, batch * n, batch, n, o.k, o.k, Gb(static_cast<double>(o.memory)),
      CostFileLabel(table.path()));
}

// Every strategy of the search space on topology `t`: those over --memory pruned, the rest
// priced with the measured costs (the cheapest algorithm at each size), ranked by iteration time.
PackageSearch SearchPackage(const TrainOptions& o, const train::Workload& w,
                            const train::Chiplet& chip, const train::CostTable& table,
                            coll::Topology t) {
  const coll::Geometry g = train::PackageOf(t, o.k);
  const unsigned n = o.k * o.k, batch = BatchOf(o.batch, w);
  PackageSearch best;
  best.topo = t;
  for (const auto& [par, micro] : SearchSpace(o.k)) {
    TrainOptions x = o;
    x.microbatches = micro;
    x.bucket = 0;
    train::IterationOptions io = IterationOf(x, par);
    // Flat tp shares its batch: the same global batch as every other strategy.
    if (par.Flat() && par.inner == train::Strategy::kTp) io.batch = batch * n;
    const double mem = train::MemoryBytes(w, chip, io);
    if (mem > static_cast<double>(o.memory)) {
      ++best.pruned;
      best.least = best.least == 0 ? mem : std::min(best.least, mem);
      continue;
    }
    SearchResult r{par.Label() + (micro ? fmt::format(" m={}", micro) : ""), par, io, {}, mem};
    try {
      r.it = train::RunIteration(w, chip, io, table.Scoped(g, {}, par, chip));
    } catch (const train::MissingCost& e) {
      ++best.unmeasured;
      if (best.why_unmeasured.empty()) best.why_unmeasured = e.what();
      continue;
    } catch (const std::invalid_argument&) {
      if (par.Flat() || par.outer != train::Strategy::kPp) throw;  // not the search space's
      ++best.invalid;  // a pipeline it cannot build for this workload
      continue;
    }
    best.ranked.push_back(std::move(r));
  }
  std::stable_sort(
      best.ranked.begin(), best.ranked.end(),
      [](const SearchResult& a, const SearchResult& b) { return a.it.time < b.it.time; });
  for (best.fsdp = 0; best.fsdp < best.ranked.size(); ++best.fsdp) {
    const train::Parallelism& par = best.ranked[best.fsdp].par;
    if (par.Flat() && par.inner == train::Strategy::kFsdp) break;
  }
  return best;
}

// A package's search: what was evaluated and left out, then the --top best strategies and
// flat fsdp, the baseline.
void PrintPackageSearch(const TrainOptions& o, const train::Workload& w,
                        const PackageSearch& best) {
  fmt::print(
      "\n{} {}x{}: {} strategies evaluated, {} over the memory{}, {} without measured costs{}, "
      "{} pipelines not applicable to {} (sharded tables, more stages than layers, no act "
      "column, micro-batches under a sample)\n\n",
      coll::TopologyName(best.topo), o.k, o.k, best.ranked.size(), best.pruned,
      best.pruned ? fmt::format(" (the least of them needs {} GiB)", Gb(best.least)) : "",
      best.unmeasured, best.why_unmeasured.empty() ? "" : " (first: " + best.why_unmeasured + ")",
      best.invalid, w.name);
  fmt::print(
      "| rank | strategy | iteration us | compute us | exposed comm. us (%) | memory GiB | "
      "vs fsdp |\n|---|---|---|---|---|---|---|\n");
  auto row = [&](const std::string& rank, const std::string& label, const SearchResult& r) {
    fmt::print("| {} | {} | {} | {} | {} ({:.1f}%) | {} | {} |\n", rank, label, Us(r.it.time),
               Us(r.it.compute_busy), Us(r.it.exposed_comm), 100.0 * r.it.exposed_comm / r.it.time,
               Gb(r.memory), best.Speedup(r));
  };
  for (size_t i = 0; i < best.ranked.size() && i < o.top; ++i)
    row(std::to_string(i + 1), best.ranked[i].label, best.ranked[i]);
  if (best.fsdp < best.ranked.size())
    row(fmt::format("({})", best.fsdp + 1), "fsdp (the baseline)", best.ranked[best.fsdp]);
}

// The packages side by side, each under its best strategy, against the first package's.
void PrintBestPerPackage(const std::vector<PackageSearch>& bests) {
  fmt::print(
      "\nEach package under its best strategy:\n\n| topology | best strategy | iteration us | "
      "exposed comm. us | vs its fsdp | vs {} |\n|---|---|---|---|---|---|\n",
      coll::TopologyName(bests[0].topo));
  const double ref = bests[0].ranked.empty() ? 0 : bests[0].ranked[0].it.time;
  for (const PackageSearch& b : bests) {
    if (b.ranked.empty()) {
      fmt::print("| {} | none fits | | | | |\n", coll::TopologyName(b.topo));
      continue;
    }
    const SearchResult& r = b.ranked[0];
    fmt::print("| {} | {} | {} | {} | {} | {} |\n", coll::TopologyName(b.topo), r.label,
               Us(r.it.time), Us(r.it.exposed_comm), b.Speedup(r),
               ref > 0 ? fmt::format("{:.2f}x", r.it.time / ref) : "-");
  }
}

// --search --check: every distinct collective of each package's printed strategies (the
// subgroups' too) run cycle-accurately; false when a run failed.
bool CheckSearch(const TrainOptions& o, const train::CostTable& table, const train::Chiplet& chip,
                 const std::vector<PackageSearch>& bests) {
  bool ok = true;
  double worst[2] = {-1, -1};
  for (const PackageSearch& b : bests) {
    const coll::Geometry g = train::PackageOf(b.topo, o.k);
    std::set<CheckRun> runs;
    for (size_t i = 0; i < b.ranked.size() && i < o.top; ++i) {
      const SearchResult& r = b.ranked[i];
      const auto mine =
          ChecksOf(r.it, r.par, table, g, {}, table.Scoped(g, {}, r.par, chip), chip, o.check_max);
      runs.insert(mine.begin(), mine.end());
    }
    ok = RunChecks(o, g,
                   fmt::format("the {} best strategies", std::min<size_t>(o.top, b.ranked.size())),
                   runs, worst) &&
         ok;
  }
  PrintWorst(worst, ok);
  return ok;
}

int RunTrainSearch(const TrainOptions& o) {
  const train::Workload w = train::LoadWorkload(
      CheckInputFile(train::WorkloadPath(o.workload), "train.workload", kSmallInputLimit));
  const train::Chiplet chip = ChipletWith(o.utilization);
  const train::CostTable table(CostPath(o.costs));
  PrintSearchHeading(o, w, table);
  std::vector<PackageSearch> bests;
  for (const coll::Topology t : o.search_topologies) {
    bests.push_back(SearchPackage(o, w, chip, table, t));
    PrintPackageSearch(o, w, bests.back());
  }
  if (bests.size() > 1) PrintBestPerPackage(bests);
  if (!o.check) return 0;
  return CheckSearch(o, table, chip, bests) ? 0 : 1;
}

}  // namespace

}  // namespace aries::sim
