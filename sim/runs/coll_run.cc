#include "coll_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "aries_pkg.h"
#include "arith.h"
#include "coll_adapter.h"
#include "coll_check.h"
#include "coll_io.h"
#include "config.h"
#include "energy.h"
#include "files.h"
#include "node_models.h"
#include "planners.h"
#include "provenance.h"
#include "run_util.h"
#include "symbolic.h"
#include "trace_outputs.h"
#include "tuner.h"

namespace aries::sim {

namespace hw = aries::hw;

uint64_t ParseElementBytes(const std::string& s, const char* option) {
  const uint64_t b = ParseBytes(s, option, uint64_t{64} << 20);
  if (b % 4 != 0) {
    throw std::invalid_argument(fmt::format(
        "{} {}: not whole 4-byte elements (allowed multiples of 4 bytes: 64, 4K, 2M)", option, s));
  }
  return b;
}

void RefuseOtherAlgorithmsKeys(const Config& c, const std::string& algo, bool auto_allowed) {
  // Each shapes one algorithm's plan; given for another it would be ignored without a word.
  const char* const or_auto = auto_allowed ? " or auto" : "";
  const bool any = auto_allowed && algo == "auto";
  if (c.FromCommandLine("coll.levels") && algo != "aries_lt" && !any) {
    BadKey(c, "coll.levels",
           fmt::format("only with --algo aries_lt{} (its ring levels; the algorithm is {})",
                       or_auto, algo));
  }
  if (c.FromCommandLine("coll.embeddings") && algo != "tree" && !any) {
    BadKey(c, "coll.embeddings",
           fmt::format("only with --algo tree{} (its in-network trees; the algorithm is {})",
                       or_auto, algo));
  }
}

void RequireElementType(const std::string& type, const char* option) {
  if (type != "int32" && type != "fp32") {
    throw std::invalid_argument(fmt::format("{} {}: allowed int32, fp32", option, type));
  }
}

namespace {

// The algorithm of the request: coll.algo as given, or when it is left at its default (the
// ring) and the ring does not serve `collective`, the first algorithm of the table that does
// (all-to-all: direct).
std::string AlgorithmFor(const Config& c, coll::Collective collective) {
  const std::string& algo = c.Get("coll.algo");
  if (!c.Origin("coll.algo").empty() || algo == "auto") return algo;
  const coll::AlgorithmInfo* given = coll::FindAlgorithm(algo);
  if (given && given->Serves(collective)) return algo;
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    if (a.Serves(collective)) return a.name;
  }
  return algo;
}

// coll.op of the request: refused for a collective that reduces nothing, and unless the engine
// reduces it on elements of `type`.
std::string RequestOp(const Config& c, coll::Collective collective, const std::string& type) {
  const std::string& op = c.Get("coll.op");
  if (c.FromCommandLine("coll.op") && collective != coll::Collective::kAllReduce &&
      collective != coll::Collective::kReduceScatter && collective != coll::Collective::kReduce) {
    BadKey(c, "coll.op",
           fmt::format("only with allreduce, reducescatter and reduce (the collective is {}, which "
                       "reduces nothing)",
                       coll::CollectiveName(collective)));
  }
  try {
    coll::ReductionOpcode(op, "int32");
  } catch (const std::invalid_argument&) {
    BadKey(c, "coll.op", coll::ReductionNames());
  }
  try {
    coll::ReductionOpcode(op, type);
  } catch (const std::invalid_argument&) {
    BadKey(c, "coll.op", "sum, prod, min, max with fp32 (and, or, xor act on int32 elements)");
  }
  return op;
}

// Refuses coll.counts but with alltoallv; with alltoallv, --algo auto (no measured costs), a
// counts file that does not exist, and coll.size beside a counts file.
void RefuseBadCounts(const Config& c, const CollOptions& o) {
  if (o.collective != coll::Collective::kAllToAllV) {
    if (!c.Origin("coll.counts").empty()) {
      BadKey(c, "coll.counts",
             fmt::format("only with alltoallv (the collective is {})",
                         coll::CollectiveName(o.collective)));
    }
    return;
  }
  if (o.algo == "auto") {
    const std::string serve = coll::AlgorithmNames(  // the algorithms that plan it
        [](const coll::AlgorithmInfo& a) { return a.Serves(coll::Collective::kAllToAllV); },
        " or ");
    BadKey(c, "coll.algo", serve + " with alltoallv (no measured costs)");
  }
  if (o.counts != "uniform" && o.counts != "random") {
    std::error_code ec;
    if (!std::filesystem::exists(o.counts, ec)) {
      BadKey(c, "coll.counts",
             "uniform, random, or a counts file that exists (K^2 lines of K^2 element counts)");
    }
    CheckInputFile(o.counts, "coll.counts", kSmallInputLimit * 16);  // K^2 lines of K^2 counts
    if (!c.Origin("coll.size").empty())
      BadKey(c, "coll.size", "unset with a counts file (the file gives every count)");
  }
}

}  // namespace

CollOptions CollRequest(const Config& c, CollOptions o) {
  o.geometry = GeometryOf(c);
  if (o.geometry.k * o.geometry.k > coll::kMaxSymbolicNodes) {  // refused now, not after planning
    BadKey(c, "package.k",
           fmt::format("2 .. 16 for a collective (the controller proves each program by "
                       "executing it symbolically, at most {} nodes)",
                       coll::kMaxSymbolicNodes));
  }
  const auto col = coll::ParseCollective(c.Get("coll.collective"));
  if (!col) BadKey(c, "coll.collective", coll::CollectiveNames());
  o.collective = *col;
  const std::string algo = AlgorithmFor(c, o.collective);
  if (algo != "auto" && !coll::FindAlgorithm(algo)) {
    BadKey(c, "coll.algo", "auto or one of " + coll::AlgorithmNames());
  }
  o.algo = algo;
  o.type = KeyWord(c, "coll.type");
  o.op = RequestOp(c, o.collective, o.type);
  // 64 MiB per node: 256 chiplets' buffers and their golden fit in memory.
  o.bytes = KeyBytes(c, "coll.size");
  if (o.bytes % 4 != 0) {  // (int32 and fp32 elements: a part element would be made up)
    BadKey(c, "coll.size", "whole 4-byte elements (int32, fp32): 4 .. 64M bytes, e.g. 64, 4K, 2M");
  }
  const unsigned n = o.geometry.k * o.geometry.k;
  if (c.Origin("coll.root").empty() || o.collective == coll::Collective::kReduce ||
      o.collective == coll::Collective::kBroadcast) {
    o.root = KeyNode(c, "coll.root", n);
  } else {
    BadKey(c, "coll.root",
           fmt::format("only with reduce and broadcast (the collective is {})",
                       coll::CollectiveName(o.collective)));
  }
  o.levels = static_cast<unsigned>(KeyUint(c, "coll.levels"));
  o.embeddings = static_cast<unsigned>(KeyUint(c, "coll.embeddings"));
  RefuseOtherAlgorithmsKeys(c, algo, true);
  o.ring.map = *coll::ParseRingMap(KeyWord(c, "coll.ring_map"));
  o.ring.dirs = static_cast<unsigned>(std::stoul(KeyWord(c, "coll.ring_dirs")));
  if (algo == "auto" && !o.ring.Plain()) {
    BadKey(c, o.ring.dirs != 1 ? "coll.ring_dirs" : "coll.ring_map",
           "the default with --algo auto (auto chooses among the measured layouts); name --algo "
           "ring to pick one");
  }
  if (const std::string& g = c.Get("coll.groups"); g != "all") {
    try {
      o.groups = coll::ParseGroups(g, o.geometry.k);
    } catch (const coll::PlanError& e) {
      BadKey(c, "coll.groups", e.what());
    }
    if (algo == "auto")
      BadKey(c, "coll.groups", "all with --algo auto (the costs are whole-package)");
  }
  o.counts = c.Get("coll.counts");
  RefuseBadCounts(c, o);
  o.verify = KeyBool(c, "coll.verify");
  o.costs = c.Get("coll.costs");
  o.seed = KeyUint(c, "sim.seed");
  o.model = KeyWord(c, "sim.model");
  o.model = ResolveModel(o.model, RunScale::kOne);
  return o;
}

namespace {

// The seeded inputs of the last collective this thread generated (tb::MakeCollInputs is a
// function of these fields): a sweep job runs several algorithms on one size, and at 2 MB on
// 8x8 drawing the 33 M elements again was a fifth of a ring all-reduce job.
struct InputMemo {
  unsigned nodes = 0, op = 0;
  uint64_t elements = 0, seed = 0;
  coll::Collective collective = coll::Collective::kAllReduce;
  std::shared_ptr<const std::vector<std::vector<uint32_t>>> in;  // shared with the runs
};

std::shared_ptr<const std::vector<std::vector<uint32_t>>> SeededInputs(const coll::Program& p,
                                                                       uint64_t seed) {
  thread_local InputMemo memo;
  if (!memo.in || memo.nodes != p.num_nodes() || memo.elements != p.elements || memo.seed != seed ||
      memo.op != p.req.op || memo.collective != p.req.collective) {
    memo.in = nullptr;  // (its memory first, for the new inputs)
    memo.in =
        std::make_shared<const std::vector<std::vector<uint32_t>>>(tb::MakeCollInputs(p, seed));
    memo.nodes = p.num_nodes();
    memo.elements = p.elements;
    memo.seed = seed;
    memo.op = p.req.op;
    memo.collective = p.req.collective;
  }
  return memo.in;
}

using Inputs = std::shared_ptr<const std::vector<std::vector<uint32_t>>>;

// The report `aries coll` prints: each stage's lines on stdout as the stage finds them (the
// plan before the run, so a long run shows what it runs), nothing when quiet.
struct CollReport {
  bool quiet = false;

  // Prints one line (with its newline), formatted as fmt::format formats it.
  template <typename... T>
  void Add(fmt::format_string<T...> f, T&&... a) {
    if (!quiet) fmt::print(f, std::forward<T>(a)...);
  }
};

// What every stage reads: the request (completed by CompleteRequest), the package, the node
// model and the energy technology.
struct CollSetup {
  coll::Request r;
  sysc::PackageConfig pc;  // the package (cmesh: the chiplets' geometry)
  bool with_energy = false, cmesh = false, is_v = false;
  bool engine = true;  // the node model with the collective engine
  bool quiet = false;  // no progress meter
  std::string model;   // the node model run
  energy::Tech tech;   // with energy
};

// The options' package and request before the algorithm is chosen; throws
// std::invalid_argument for a bad element type, reduction, technology or size before anything
// runs.
CollSetup SetupOf(const CollOptions& o, bool quiet) {
  CollSetup s;
  s.quiet = quiet;
  RequireElementType(o.type);
  s.r.op = coll::ReductionOpcode(o.op, o.type);
  s.with_energy = o.energy || !o.tech_set.empty() || !o.energy_csv.empty() || o.tech != "dsent45";
  if (s.with_energy) {  // a bad technology file or override is refused before anything runs
    s.tech = energy::LoadTech(CheckInputFile(energy::TechPath(o.tech), "--tech", kSmallInputLimit));
    for (const auto& a : o.tech_set) energy::Override(s.tech, a);
  }
  static_cast<coll::Geometry&>(s.pc) = o.geometry;
  s.pc.count_toggles = s.with_energy;  // only energy reads the data toggles
  // Adapt-NoC's concentrated mesh: the program is planned for the chiplet mesh and re-routed
  // onto the package, a mesh of K/2 x K/2 routers with four local ports (coll::Concentrate).
  s.cmesh = s.pc.topology == coll::Topology::kCmesh;
  if (o.bytes == 0) throw std::invalid_argument("--size: a positive byte count");
  s.r.geom = s.pc;
  s.r.algo = o.algo;
  s.r.levels = o.levels;
  s.r.embeddings = o.embeddings;
  s.r.ring = o.ring;
  s.r.groups = o.groups;
  return s;
}

// --algo auto's test of a candidate around the faults present from reset: why the controller
// cannot plan it (empty: it can); no test on a package without faults.
std::function<std::string(const coll::Candidate&)> RefusalAroundFaults(const CollOptions& o,
                                                                       const CollSetup& s) {
  if (s.pc.faults.empty()) return nullptr;
  return [&o, &s](const coll::Candidate& cand) -> std::string {
    coll::Request q = s.r;
    q.collective = o.collective;
    cand.ApplyTo(q);
    q.elements = coll::ElementsOfBytes(o.bytes);
    q.geom.faults = s.pc.faults.FromReset();
    try {
      coll::Hardware h;  // the shipped node's, with the package's local ports
      h.local_ports = s.pc.local_ports;
      coll::Plan(q, h);
    } catch (const coll::PlanError& e) {
      return e.what();
    }
    return {};
  };
}

// The first five of auto's ranking with their predicted cycles ("ring 1933, tree 1152, ...").
std::string RankingText(const coll::Choice& ch) {
  std::string why;
  for (size_t i = 0; i < ch.ranking.size() && i < 5; ++i) {
    why += fmt::format("{}{} {:.0f}", i ? ", " : "", ch.ranking[i].first, ch.ranking[i].second);
  }
  return why + (ch.ranking.size() > 5 ? ", ..." : "");
}

// --algo auto: the cost models' cheapest candidate for the request on the fault-free package,
// among the ones the controller can plan around the faults present from reset.
coll::Choice ChooseAutoAlgorithm(const CollOptions& o, const CollSetup& s, CollReport& report) {
  if (!coll::Swept(o.collective)) {
    throw std::invalid_argument(fmt::format(
        "--algo auto: the measured costs cover {}; for {} name one of {}", coll::SweptNames(),
        coll::CollectiveName(o.collective), coll::AlgorithmNames()));
  }
  const std::string path = CostPath(o.costs);
  // A collective's cycles do not depend on the element type or the reduction (the engine's
  // lanes and the endpoints take one cycle per flit for every operation; tested by
  // CollOps.CyclesDoNotDependOnTypeOrOperation): without models of this type, the int32 ones.
  auto models = coll::LoadCostModels(path, o.type, o.collective);
  if (models.empty() && o.type != "int32") {
    models = coll::LoadCostModels(path, "int32", o.collective);
    report.Add(
        "auto: {} has no {} rows; the int32 models serve (the cycles do not depend on the "
        "element type)\n",
        CostFileLabel(path), o.type);
  }
  coll::Geometry fault_free = s.pc;
  fault_free.faults = {};
  const coll::Choice ch =
      coll::ChooseAlgorithm(models, fault_free, o.bytes, RefusalAroundFaults(o, s));
  for (const auto& [label, why] : ch.refused) {
    report.Add("auto: {} cannot serve around the faults: {}\n", label, why);
  }
  report.Add(
      "auto: {} predicted cheapest for {} bytes on {} (cycles interpolated between measured "
      "sizes in {}, in the busiest chiplet's flits where they differ; this model's "
      "leave-one-out error "
      "{:.1f}%): {}\n",
      ch.best.Label(), o.bytes, coll::GeometryLabel(fault_free), CostFileLabel(path),
      100.0 * ch.fit_error, RankingText(ch));
  return ch;
}

// Completes the request with the collective, its elements, root and (all-to-all-v) counts, and
// picks the node model for the algorithm chosen.
void CompleteRequest(const CollOptions& o, CollSetup& s) {
  coll::Request& r = s.r;
  r.collective = o.collective;
  // Point-to-point algorithms run on the node model without the collective engine (the same
  // cycles and counters, tests/sysc and tests/sim check it; fewer instructions per node step).
  // (An unknown name takes the full model; Plan() refuses it below, naming the algorithms.)
  const coll::AlgorithmInfo* algo = coll::FindAlgorithm(r.algo);
  s.engine = !algo || algo->engine;
  // auto: the fast model (which also models the engine; coll --model check proves it equal).
  s.model = ResolveModel(o.model, RunScale::kMany);
  r.elements = coll::ElementsOfBytes(o.bytes);
  r.root = o.root;
  s.is_v = o.collective == coll::Collective::kAllToAllV;
  if (s.is_v) {
    // coll.size is what a member sends in all (itself included), split evenly over its G
    // members: the same traffic as an all-to-all of that size, unless the counts say otherwise.
    const uint64_t per_pair = std::max<uint64_t>(1, r.elements / coll::LargestCommunicator(r));
    r.counts = !o.count_matrix.empty() ? o.count_matrix
               : o.counts == "uniform" || o.counts == "random"
                   ? coll::MakeCounts(r, o.counts, per_pair, o.seed)
                   : tb::ReadCountsFile(o.counts, r.geom.k * r.geom.k);
  }
}

// The run of the collective: the last attempt's package, program, inputs and result.
struct CollRun {
  coll::Request r;         // as last planned: its faults are the ones planned around
  sysc::PackageConfig pc;  // the package of the next attempt (cmesh: the routers; faults'
                           // cycles shifted to count from its start)
  std::unique_ptr<sysc::Package> pkg;
  coll::Program p;
  coll::CmeshProgram cp;  // cmesh: p re-routed onto the routers
  Inputs in;
  std::optional<coll::AllToAllVLayout> lay;  // all-to-all-v: its buffers (counts checked by Plan)
  sysc::CollRunResult res;
  uint64_t lost_cycles = 0;             // cycles of the runs a fault stopped
  double seconds = 0;                   // simulation wall time, every attempt
  std::unique_ptr<WaveformFiles> wave;  // --trace (the first attempt's package)
  std::shared_ptr<FlitRecorder> flits;  // --packet-log, --timeline, --trace-op's first run
};

// The plan's summary (cmesh: the chiplets' plan).
const std::string& PlanSummary(const CollSetup& s, const CollRun& run) {
  return s.cmesh ? run.cp.chiplets.summary : run.p.summary;
}

// A fresh package for the attempt and the plan for it around the known faults (cmesh:
// concentrated onto the routers); returns the plan's validation. When no plan exists (PlanError)
// `run` keeps the last attempt's package and program.
coll::Validation PlanAttempt(const CollOptions& o, const CollSetup& s, CollRun& run) {
  // (--trace: the first attempt's package opens the waveform as its nodes leave reset; later
  // attempts there are none: CheckCollTrace refuses faults after reset with it.)
  const bool traced = run.wave && !run.pkg;
  const sysc::Package::Waveform wave{traced ? run.wave->writer_path() : "", o.trace.nodes,
                                     o.trace.from, o.trace.to};
  auto pkg = std::make_unique<sysc::Package>(
      run.pc,
      sysc::ShippedNodeModels(  // (the engine-less point-to-point model has no tracing)
          s.engine || traced ? sysc::NodeUse::kAny : sysc::NodeUse::kPointToPoint,
          sysc::ParseNodeImpl(s.model)),
      o.seed, nullptr, traced ? &wave : nullptr);
  coll::Validation v;
  const coll::Hardware hw = sysc::HardwareOf(pkg->shape());
  coll::Program p = coll::Plan(run.r, hw, &v);
  run.pkg = std::move(pkg);
  run.p = std::move(p);
  if (s.cmesh) run.cp = coll::Concentrate(run.p, hw.num_flows);
  return v;
}

// The report's first lines: what runs, how big, on which package and node model, the faults.
void ReportRequest(const CollOptions& o, const CollSetup& s, const CollRun& run,
                   CollReport& report) {
  const coll::Program& p = run.p;
  if (run.lay) {
    const coll::AllToAllVLayout& lay = *run.lay;
    uint64_t moved = 0;
    for (unsigned i = 0; i < p.num_nodes(); ++i) moved += lay.Sent(i);
    report.Add(
        "ARIES-sim coll: {} alltoallv, {} counts: {} bytes between chiplets in all (send area "
        "{} + receive area {}{} elements of {}) on {} ({} node model)\n",
        run.r.algo, o.counts, moved * 4, lay.send_area(), lay.elements() - lay.send_area(),
        p.elements > lay.elements() ? fmt::format(" + staging {}", p.elements - lay.elements())
                                    : std::string(),
        o.type, coll::GeometryLabel(s.pc), s.model);
  } else {
    report.Add("ARIES-sim coll: {} {} ({}) of {} bytes ({} x {}) on {} ({} node model)\n",
               run.r.algo, coll::CollectiveName(o.collective), coll::OpName(run.r.op), o.bytes,
               p.elements, o.type, coll::GeometryLabel(s.pc), s.model);
  }
  if (!s.pc.faults.empty()) report.Add("  faults: {}\n", s.pc.faults.Names(s.pc));
}

// The nodes' inputs: the seeded generator's, or the --inputs files.
Inputs InputsOf(const CollOptions& o, const CollRun& run) {
  if (o.inputs.empty()) return SeededInputs(run.p, o.seed);
  // An input file holds the node's buffer: an all-to-all-v's send and receive areas, without
  // the staging a 2phase plan adds past them (zeros: its scratch).
  const coll::Program& p = run.p;
  const uint64_t elements = run.lay ? run.lay->elements() : p.elements;
  for (unsigned node = 0; node < p.num_nodes(); ++node)  // (an .npy header is under 4 KB)
    CheckInputFile(tb::NodePath(o.inputs, node), "--inputs", elements * 4 + 4096);
  auto read = tb::ReadNodeVectors(o.inputs, o.type, p.num_nodes(), elements);
  for (auto& v : read) v.resize(p.elements, 0);
  return std::make_shared<const std::vector<std::vector<uint32_t>>>(std::move(read));
}

// The attempt's plan lines: the plan, the faults it avoids, its validation (and, the first
// time, the inputs).
void ReportPlan(const CollOptions& o, const CollSetup& s, const CollRun& run,
                const coll::Validation& v, unsigned attempt, CollReport& report) {
  if (attempt > 1) {  // (said once the re-plan exists: when none does, the refusal says why)
    report.Add(
        "  re-planning around {} and running the collective again from its inputs on a fresh "
        "package (what is dead stays dead; energy and counters below are the last run's)\n",
        run.r.geom.faults.Names(s.pc));
  }
  report.Add("  plan{}: {}\n", attempt > 1 ? fmt::format(" (attempt {})", attempt) : "",
             PlanSummary(s, run));
  const coll::FaultSet& known = run.r.geom.faults;
  if (!known.empty()) report.Add("  planned around: {}\n", known.Names(s.pc));
  report.Add(
      "  validated: {} messages, {} engine trees, {} channels, longest path {} hops; "
      "synchronization steps {}\n",
      v.symbolic.messages, v.symbolic.engine_ids, v.channels, v.max_hops, run.p.sync_steps);
  if (attempt == 1) {
    report.Add("  inputs: {}\n", o.inputs.empty()
                                     ? fmt::format("seeded generator (seed {})", o.seed)
                                     : tb::NodePath(o.inputs, 0) + " ...");
  }
}

// Runs the attempt's program on its package, with the progress meter on stderr unless quiet.
sysc::CollRunResult RunAttempt(const CollOptions& o, const CollSetup& s, CollRun& run) {
  ProgressMeter meter(o.progress && !s.quiet, "coll");
  const std::function<void(uint64_t)> shown =
      s.quiet || !meter.enabled() ? std::function<void(uint64_t)>() : std::ref(meter);
  return s.cmesh ? sysc::RunConcentrated(*run.pkg, run.cp, *run.in, 200'000'000, shown)
                 : sysc::RunProgram(*run.pkg, run.p, *run.in, 200'000'000, shown);
}

// After a run a fault stopped: the parts that killed the channels whose ends disagree
// (Package::LostLinks: a dead port as the port, with its mesh link both ways and every track
// tap it could select; a dead switch with every segment over it; a link both ways) join the
// known faults (the request's), and the package keeps every fault that has struck and the ones
// still to come, their cycles counted from now. False when nothing new was learned (a re-plan
// would plan the same; the run's errors say so).
bool LearnLostLinks(const CollSetup& s, CollRun& run, CollReport& report) {
  const uint64_t stop = run.pkg->cycle();
  report.Add("  FAULT: the run stopped at cycle {} ({} cycles into the collective):\n",
             run.pkg->cycle(), run.res.stuck_cycle);
  for (const auto& l : run.res.lost) report.Add("    {}\n", l.Describe(*run.pkg));
  coll::FaultSet& known = run.r.geom.faults;
  const size_t known_before = known.faults.size();
  coll::FaultSet lost;
  for (const auto& l : run.res.lost) {
    auto have = [&](const coll::FaultSet& set) {
      return std::any_of(set.faults.begin(), set.faults.end(),
                         [&](const coll::Fault& f) { return f == l.fault; });
    };
    if (!have(lost)) lost.faults.push_back(l.fault);
    if (!have(known)) known.faults.push_back(l.fault);
  }
  if (known.faults.size() == known_before) {
    run.res.errors.push_back(fmt::format(
        "the parts that lost flits ({}) were already planned around: a re-plan would plan the "
        "same",
        lost.Names(s.pc)));
    return false;
  }
  for (coll::Fault& f : run.pc.faults.faults) f.from = f.from <= stop ? 0 : f.from - stop;
  run.lost_cycles += run.res.stuck_cycle;
  return true;
}

// The op --trace-op NODE:OP names: a send of the node's program (point-to-point or into the
// engine); a bad one is refused with the node's ops listed.
struct FollowedOp {
  unsigned node = 0;
  size_t op = 0;
};
std::optional<FollowedOp> ParseTraceOp(const std::string& text, const coll::Program& p) {
  if (text.empty()) return std::nullopt;
  FollowedOp f;
  const size_t colon = text.find(':');
  try {
    size_t a = 0, b = 0;
    if (colon == std::string::npos) throw std::invalid_argument(text);
    f.node = static_cast<unsigned>(std::stoul(text.substr(0, colon), &a));
    f.op = std::stoul(text.substr(colon + 1), &b);
    if (a != colon || b != text.size() - colon - 1) throw std::invalid_argument(text);
  } catch (const std::logic_error&) {
    throw ConfigError(fmt::format(
        "--trace-op '{}': expected NODE:OP, the index of a send in the node's program (0:0)",
        Excerpt(text)));
  }
  if (f.node >= p.num_nodes()) {
    throw ConfigError(fmt::format("--trace-op {}: node {} does not exist (0 .. {})", text, f.node,
                                  p.num_nodes() - 1));
  }
  const std::vector<coll::Op>& ops = p.nodes[f.node].ops;
  const bool send = f.op < ops.size() &&
                    (ops[f.op].act == coll::Act::kSend || ops[f.op].act == coll::Act::kEngSend);
  if (!send) {
    std::string list;
    for (size_t j = 0; j < ops.size() && j < 24; ++j) {
      const coll::Op& op = ops[j];
      const bool eng = op.act == coll::Act::kEngSend || op.act == coll::Act::kEngRecv;
      list += fmt::format("\n  {}:{} {} {} {} ({} elements)", f.node, j, coll::ActName(op.act),
                          eng ? "id" : "peer", eng ? op.id : op.peer, op.region.len);
    }
    if (ops.size() > 24) list += fmt::format("\n  ... {} ops in all", ops.size());
    throw ConfigError(fmt::format(
        "--trace-op {}: op {} of node {} is not a send (it has {} ops; a send or eng-send is "
        "followed):{}",
        text, f.op, f.node, ops.size(), list));
  }
  return f;
}

// The flits of the followed op's message: a send's (its source and destination, or flow), an
// engine stream's (its collective id on the engine VCs).
FlitMatch MatchOf(const coll::Op& op, unsigned node, const sysc::NodeShape& shape, unsigned k) {
  const unsigned vcs = shape.num_vcs;
  auto vc_of = [](uint32_t h) { return (h >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u); };
  if (op.act == coll::Act::kEngSend) {
    const unsigned id = op.id;
    return [=](const sysc::Package::FlitEvent& e) {
      return vc_of(e.flit[0]) >= vcs && hw::UnpackCollHeader(e.flit[0]).id == id;
    };
  }
  const int flow = op.flow;
  const unsigned peer = op.peer;
  return [=](const sysc::Package::FlitEvent& e) {
    if (vc_of(e.flit[0]) >= vcs) return false;
    const hw::Flit f = hw::UnpackFlit(e.flit, 0);
    if (f.src_y * k + f.src_x != node) return false;
    return flow >= 0 ? f.is_flow && static_cast<int>(f.flow) == flow
                     : !f.is_flow && f.dst_y * k + f.dst_x == peer;
  };
}

// The flit observer of the run: the packet log, the timeline's flits, the followed op's flits.
void ObserveFlits(const CollOptions& o, CollRun& run) {
  // (--trace-op: its first run, without a waveform, finds the message's path.)
  const std::optional<FollowedOp> f =
      o.trace.file.empty() ? ParseTraceOp(o.trace_op, run.p) : std::nullopt;
  if (!o.trace.Observes() && !f) return;
  const sysc::NodeShape& shape = run.pkg->shape();
  const FlitMatch match =
      f ? MatchOf(run.p.nodes[f->node].ops[f->op], f->node, shape, run.pc.k) : FlitMatch();
  run.flits = std::make_shared<FlitRecorder>(o.trace, *run.pkg, match);
  auto rec = run.flits;
  run.pkg->SetFlitObserver([rec](const sysc::Package::FlitEvent& e) { (*rec)(e); });
}

// `trace` with the program's engine steps for the flit decoder: per collective id, its place in
// the nodes' request programs (the same on every node that injects it, else left out).
TraceRequest WithEngineSteps(TraceRequest trace, const coll::Program& p) {
  std::map<unsigned, GtkwView::EngineStep> steps;
  std::set<unsigned> mixed;
  for (const coll::NodeProgram& np : p.nodes) {
    for (size_t i = 0; i < np.req.steps.size(); ++i) {
      const unsigned id = np.req.steps[i];
      const coll::EngineId* e = np.FindId(id);
      const GtkwView::EngineStep s{id, static_cast<unsigned>(i),
                                   static_cast<unsigned>(np.req.steps.size()), e ? e->count : 1};
      const auto [it, fresh] = steps.emplace(id, s);
      const GtkwView::EngineStep& had = it->second;
      if (!fresh && (had.pos != s.pos || had.steps != s.steps || had.count != s.count))
        mixed.insert(id);
    }
  }
  for (const auto& [id, s] : steps)
    if (!mixed.count(id) && s.count > 0) trace.view.engine_steps.push_back(s);
  return trace;
}

// Refuses debugging outputs the run cannot give: a waveform of the fast model, a waveform or
// flit log across a re-plan (a fault after reset), the concentrated mesh's followed op.
void CheckCollTrace(const CollOptions& o) {
  const coll::Geometry& g = o.geometry;
  CheckTraceRequest(o.trace, sysc::ParseNodeImpl(o.model), o.model, g.k * g.k);
  const bool debugging = !o.trace.file.empty() || o.trace.Observes() || !o.trace_op.empty();
  if (debugging && g.faults.FromReset().faults.size() != g.faults.faults.size()) {
    throw ConfigError(
        "--trace, --packet-log, --timeline and --trace-op record one run: a fault after reset "
        "stops it and the collective runs again on a fresh package (give the faults from reset, "
        "cycle 0, to trace around them)");
  }
  if (!o.trace_op.empty() && o.trace.file.empty())
    throw ConfigError("--trace-op NODE:OP needs --trace FILE.fst: the waveform of its path");
  if (!o.trace_op.empty() &&
      (!o.trace.nodes.empty() || o.trace.from != 0 || o.trace.to != ~uint64_t{0})) {
    throw ConfigError(
        "--trace-op chooses the nodes and cycles itself (the message's path): drop "
        "--trace-nodes, --trace-from and --trace-to");
  }
  CheckTraceWindow(o.trace);
  if (!o.trace_op.empty() && g.topology == coll::Topology::kCmesh)
    throw ConfigError(
        "--trace-op: not on the concentrated mesh (trace its routers by --trace-nodes)");
}

// An engine stream's events among those of its id (every member injects the id): its requests
// from `node` up to the root (requests only move up the tree, so the nodes they reach from
// `node` are its path), the responses coming back down that path, and its injections and
// ejections at `node`.
std::vector<PacketHop> StreamOf(const std::vector<PacketHop>& hops, unsigned node,
                                unsigned num_vcs) {
  std::vector<unsigned> path = {node};
  auto on = [&path](unsigned n) { return std::find(path.begin(), path.end(), n) != path.end(); };
  std::vector<PacketHop> out;
  for (const PacketHop& h : hops) {
    const bool request = h.vc == num_vcs;
    if (h.event != "hop") {
      if (h.node == node) out.push_back(h);
    } else if (request && on(h.node)) {
      if (!on(h.to_node)) path.push_back(h.to_node);
      out.push_back(h);
    } else if (!request && on(h.node) && on(h.to_node)) {
      out.push_back(h);
    }
  }
  return out;
}

// The followed op's message on the run (PathOf): a send's packets from their first injection to
// the last one's tail ejected at the peer (a channel delivers in order), an engine stream from
// its first injection until the node's results of the id are in.
FollowedPath FollowPath(const CollOptions& o, const CollRun& run) {
  const FollowedOp f = *ParseTraceOp(o.trace_op, run.p);
  const std::vector<coll::Op>& ops = run.p.nodes[f.node].ops;
  const coll::Op& op = ops[f.op];
  const std::vector<PacketHop>& hops = run.flits->hops();
  const auto& spans = run.res.op_spans.at(f.node);
  constexpr uint64_t kNever = sysc::ScheduleEndpoint::OpSpan::kNever;
  if (spans.at(f.op).first == kNever)
    throw ConfigError(fmt::format("--trace-op {}: the op moved nothing in this run", o.trace_op));
  // The op's injections: the endpoint runs `lead` cycles ahead of the nodes' clock, which the
  // flit events count.
  const unsigned lead = run.pkg->shape().ep_lead;
  const uint64_t t0 = spans[f.op].first > lead + 2 ? spans[f.op].first - lead - 2 : 0;
  const uint64_t t1 = spans[f.op].last + 2;
  uint64_t first = kNever, packets = 0;
  for (const PacketHop& h : hops) {
    if (h.head && h.event == "inject" && h.node == f.node && h.cycle >= t0 && h.cycle <= t1) {
      first = std::min(first, h.cycle);
      ++packets;
    }
  }
  if (packets == 0)
    throw ConfigError(fmt::format("--trace-op {}: no flit of it was seen leaving", o.trace_op));
  uint64_t end = t1;
  if (op.act == coll::Act::kSend) {
    uint64_t tails = 0;
    for (const PacketHop& h : hops) {
      if (h.tail && h.event == "eject" && h.node == op.peer && h.cycle >= first &&
          tails < packets) {
        ++tails;
        end = h.cycle;
      }
    }
  } else {
    for (size_t j = f.op + 1; j < ops.size(); ++j) {
      if (ops[j].act == coll::Act::kEngRecv && ops[j].id == op.id && spans[j].first != kNever) {
        end = spans[j].last;
        break;
      }
    }
  }
  FollowedPath fp =
      PathOf(op.act == coll::Act::kSend ? hops : StreamOf(hops, f.node, run.pkg->shape().num_vcs),
             first, end);
  fp.text = fmt::format("op {} of node {} ({} {} {}): {}", f.op, f.node, coll::ActName(op.act),
                        op.act == coll::Act::kSend ? "to node" : "id",
                        op.act == coll::Act::kSend ? op.peer : op.id, fp.text);
  return fp;
}

// --timeline: the collective on a trace-event timeline: the collective as one slice, per node
// its program's ops (a track per channel: sends to a peer, receives from one, an engine id) and
// its flits' injections and ejections, per link direction each flit's hop.
void WriteCollTimeline(const CollOptions& o, const CollRun& run) {
  Timeline t;
  const unsigned lead = run.pkg->shape().ep_lead;
  const double start = static_cast<double>(run.res.start_cycle) - lead;
  t.Slice("collective", coll::CollectiveName(o.collective),
          fmt::format("{} {} bytes", run.r.algo, o.bytes), start,
          start + static_cast<double>(run.res.cycles));
  uint64_t op_slices = 0;
  for (size_t n = 0; n < run.res.op_spans.size() && n < run.p.num_nodes(); ++n) {
    const std::vector<coll::Op>& ops = run.p.nodes[n].ops;
    for (size_t j = 0; j < ops.size() && j < run.res.op_spans[n].size(); ++j) {
      const auto span = run.res.op_spans[n][j];
      if (span.first == sysc::ScheduleEndpoint::OpSpan::kNever) continue;
      const coll::Op& op = ops[j];
      const bool eng = op.act == coll::Act::kEngSend || op.act == coll::Act::kEngRecv;
      const std::string track =
          eng ? fmt::format("engine id{}", op.id)
              : fmt::format("{} node{}", op.IsRecv() ? "from" : "to", op.peer);
      t.Slice(fmt::format("node{}", n), track,
              fmt::format("op {} {} ({} elements)", j, coll::ActName(op.act), op.region.len),
              static_cast<double>(span.first) - lead, static_cast<double>(span.last + 1) - lead,
              fmt::format("{{\"op\": {}, \"elements\": {}}}", j, op.region.len));
      ++op_slices;
    }
  }
  if (run.flits) AddFlitSlices(t, *run.flits, o.trace);
  uint64_t hops = 0;  // flits sent on interposer links, by the nodes' counters
  for (unsigned n = 0; n < run.pkg->num_nodes(); ++n) {
    for (uint64_t f : run.pkg->counters(n).link_flits) hops += f;
  }
  t.Total("cycles", run.res.cycles);
  t.Total("flit_hops", hops);
  t.Total("flits_injected", run.res.flits_injected);
  t.Total("flits_ejected", run.res.flits_ejected);
  t.Total("op_slices", op_slices);
  WriteOutputFile(o.trace.timeline, t.Json(), "--timeline");
}

// Plans, validates and runs the collective. The controller plans around the faults present
// from reset (a link that does not train); faults from a later cycle strike the running
// package, which the watchdog stops, the links that lost flits name what broke, and the
// controller plans again around it and runs the collective again from the inputs on the
// package as it is now. It goes on while each stop teaches it a fault it did not know (there
// are finitely many, so this ends); when no plan exists around what it knows (the faults cut
// the package in parts: Plan says "partitioned", naming the cut), the stopped run is the
// result and its errors say why.
CollRun PlanWithRecovery(const CollOptions& o, const CollSetup& s, CollReport& report) {
  CollRun run;
  run.r = s.r;
  run.r.geom.faults = s.pc.faults.FromReset();
  run.pc = s.pc;
  if (s.cmesh) static_cast<coll::Geometry&>(run.pc) = coll::CmeshRouters(s.pc);
  if (!o.trace.file.empty()) run.wave = std::make_unique<WaveformFiles>(o.trace.file);
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned attempt = 1;; ++attempt) {
    coll::Validation v;
    if (attempt == 1) {
      v = PlanAttempt(o, s, run);  // (a request that cannot be planned from reset is refused)
    } else {
      try {
        v = PlanAttempt(o, s, run);
      } catch (const coll::PlanError& e) {
        // The stopped run stays the result (its cycles are not lost cycles of a repair).
        run.lost_cycles -= run.res.stuck_cycle;
        run.res.errors.push_back(
            fmt::format("no plan around {}: {}", run.r.geom.faults.Names(s.pc), e.what()));
        break;
      }
    }
    if (attempt == 1) {
      if (s.is_v) run.lay.emplace(run.r);
      ReportRequest(o, s, run, report);
      run.in = InputsOf(o, run);
      if (run.wave) run.wave->WriteSaveFile(*run.pkg, WithEngineSteps(o.trace, run.p));
      ObserveFlits(o, run);
    }
    ReportPlan(o, s, run, v, attempt, report);
    run.res = RunAttempt(o, s, run);
    if (!run.res.stuck || run.res.lost.empty() || !LearnLostLinks(s, run, report)) break;
  }
  if (run.wave) run.wave->Commit(run.pkg->CloseTrace());
  if (run.flits) run.flits->Commit();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

// All-to-all-v: what a node sends others, the mean over the chiplets in a communicator, and
// the most any of them sends or receives (elements).
struct AllToAllVTraffic {
  uint64_t mean = 0, most = 0;
};

// The all-to-all-v traffic of the run's layout.
AllToAllVTraffic TrafficOf(const CollRun& run) {
  AllToAllVTraffic t;
  unsigned in_comm = 0;
  for (unsigned i = 0; i < run.p.num_nodes(); ++i) {
    if (!coll::RankOf(run.r, i)) continue;
    ++in_comm;
    t.mean += run.lay->Sent(i);
    t.most = std::max({t.most, run.lay->Sent(i), run.lay->Received(i).len});
  }
  t.mean /= std::max(1u, in_comm);
  return t;
}

// nccl-tests' bus bandwidth factor of `collective` over communicators of `members`.
double BusFactor(coll::Collective collective, unsigned members) {
  switch (collective) {
    case coll::Collective::kAllReduce:
      return 2.0 * (members - 1) / members;
    case coll::Collective::kReduceScatter:
    case coll::Collective::kAllGather:
    case coll::Collective::kAllToAll:
      return static_cast<double>(members - 1) / members;
    case coll::Collective::kAllToAllV:  // the size already leaves out a member's own block
    default:
      return 1.0;
  }
}

// The run's bandwidths (bytes per cycle, nccl-tests definitions) and bandwidth bound (cycles).
struct CollBound {
  double algbw = 0, factor = 1.0, bound = 0;
};

// The bandwidths of the run and its bandwidth bound. All-to-all-v: a node's size is the mean
// of what it sends others, its bound the most any node sends or receives (over its local
// ports) or the bisection's, the larger.
// The bound and the bandwidths; the headline line gives them only for a run that `succeeded`
// (finished, its flits accounted for and, with --verify, every element golden).
CollBound Bound(const CollOptions& o, const CollSetup& s, const CollRun& run, bool succeeded,
                CollReport& report) {
  const coll::Program& p = run.p;
  const double link_bytes = 4.0 * run.pkg->shape().lanes;  // per cycle per link direction
  const AllToAllVTraffic v = s.is_v ? TrafficOf(run) : AllToAllVTraffic{};
  CollBound b;
  b.algbw =
      static_cast<double>(s.is_v ? v.mean : p.elements) * 4.0 / static_cast<double>(run.res.cycles);
  // The largest communicator's members (every node without groups) set the bound.
  b.factor = BusFactor(o.collective, coll::LargestCommunicator(run.r));
  // Bound: point-to-point algorithms move factor * M through each node's p local ports (one
  // link's bandwidth each: 2(N-1)/N M/(p B) for all-reduce); the in-network tree M through the
  // engine's one port (nccl-tests bus bandwidth / link bandwidth). An all-to-all over the whole
  // package is also bound by its bisection (coll::AllToAllBisection), the larger of the two.
  const double ports = s.engine ? 1.0 : static_cast<double>(s.pc.local_ports);
  b.bound =
      static_cast<double>(p.elements) * 4.0 * (s.engine ? 1.0 : b.factor) / (link_bytes * ports);
  if (o.collective == coll::Collective::kAllToAll && run.r.groups.empty()) {
    b.bound = std::max(b.bound, static_cast<double>(p.elements) * 4.0 *
                                    coll::AllToAllBisection(run.r.geom) / link_bytes);
  }
  if (s.is_v) {
    b.bound = std::max(static_cast<double>(v.most) * 4.0 / (link_bytes * ports),
                       coll::AllToAllVBisection(run.r.geom, run.r.counts) * 4.0 / link_bytes);
  }
  if (!succeeded) {
    report.Add("  cycles {}   FAILED (below): no bandwidth reported   [{:.2f} s simulated]\n",
               run.res.cycles, run.seconds);
    return b;
  }
  report.Add(
      "  cycles {}   algbw {:.2f} B/cycle   busbw {:.2f} B/cycle   bound {:.0f} cycles "
      "({:.1f}% of it)   [{:.2f} s simulated]\n",
      run.res.cycles, b.algbw, b.algbw * b.factor, b.bound, 100.0 * b.bound / run.res.cycles,
      run.seconds);
  return b;
}

// The request of communicator `members` run alone on the package, quietly and without files
// (all-to-all-v: with its own counts, nothing to or from the others); none when those counts
// move nothing between its members.
std::optional<CollOptions> AloneRequest(const CollOptions& o, const CollSetup& s,
                                        const CollRun& run, const std::vector<unsigned>& members) {
  CollOptions solo = o;
  if (s.is_v) {
    bool moves = false;
    const unsigned n = run.p.num_nodes();
    solo.count_matrix.assign(n, std::vector<uint64_t>(n, 0));
    for (unsigned a : members) {
      for (unsigned b : members) {
        solo.count_matrix[a][b] = run.r.counts[a][b];
        moves = moves || (a != b && run.r.counts[a][b] != 0);
      }
    }
    if (!moves) return std::nullopt;
  }
  solo.groups = {members};
  solo.alone = false;
  solo.energy = false;  // and nothing that implies it: no energy of its own, no energy CSV
  solo.energy_csv.clear();
  solo.tech_set.clear();
  solo.tech = CollOptions{}.tech;
  solo.json.clear();
  solo.outputs.clear();
  solo.progress = false;
  return solo;
}

// Communicators: each one's cycles (its last member's last op) and (o.alone) the same group
// run alone on the package, what sharing it with the others costs.
std::vector<CollMeasurement::Group> MeasureCommunicators(const CollOptions& o, const CollSetup& s,
                                                         const CollRun& run, CollReport& report) {
  std::vector<CollMeasurement::Group> groups;
  if (run.r.groups.empty()) return groups;
  for (const auto& members_of : coll::Communicators(run.r)) {
    CollMeasurement::Group g;
    g.members = members_of;
    for (unsigned v : members_of) g.cycles = std::max(g.cycles, run.res.node_cycles.at(v));
    if (o.alone && run.r.groups.size() > 1 && (groups.empty() || !o.alone_first_only)) {
      if (const auto solo = AloneRequest(o, s, run, members_of)) {
        g.alone = MeasureCollective(*solo, true).cycles;
      }
    }
    groups.push_back(std::move(g));
  }
  for (const auto& g : groups) {
    report.Add("  group {}: {} cycles{}\n", fmt::join(g.members, ","), g.cycles,
               g.alone ? fmt::format(" (alone on the package: {}, sharing costs {:+.1f}%)", g.alone,
                                     100.0 * (static_cast<double>(g.cycles) / g.alone - 1.0))
                       : "");
  }
  return groups;
}

// Whether the run finished without errors, every flit its schedule's; its lines: the
// recovery's total, auto's prediction beside the measurement, the flit counts, the errors.
// Whether the run finished without errors and moved exactly its schedules' flits.
bool RanToCompletion(const CollRun& run) {
  const sysc::CollRunResult& res = run.res;
  return res.finished && res.errors.empty() && res.flits_injected == res.flits_to_inject &&
         res.flits_ejected == res.flits_to_eject;
}

bool CheckOutcome(const CollRun& run, double predicted, CollReport& report) {
  const sysc::CollRunResult& res = run.res;
  if (run.lost_cycles > 0 && res.finished) {
    report.Add(
        "  recovered: {} cycles of stopped runs + {} of the repaired run = {} cycles in all\n",
        run.lost_cycles, res.cycles, run.lost_cycles + res.cycles);
  }
  if (predicted > 0) {
    report.Add("  auto: predicted {:.0f} cycles, measured {} ({:+.1f}%)\n", predicted, res.cycles,
               100.0 * (static_cast<double>(res.cycles) - predicted) / predicted);
  }
  report.Add("  flits injected {} (schedule {}), ejected {} (schedule {})\n", res.flits_injected,
             res.flits_to_inject, res.flits_ejected, res.flits_to_eject);
  const bool flits_ok =
      res.flits_injected == res.flits_to_inject && res.flits_ejected == res.flits_to_eject;
  for (const auto& e : res.errors) report.Add("  error: {}\n", e);
  if (!flits_ok && res.errors.empty()) {  // (a stopped run's errors say why already)
    report.Add("  error: the endpoints moved other flit counts than their schedules (above)\n");
  }
  return RanToCompletion(run);
}

// Writes each node's result region (the whole vector, its shard after a reduce-scatter,
// nothing off the root of a reduce) to its --outputs file.
void WriteOutputs(const CollOptions& o, const CollRun& run, CollReport& report) {
  unsigned written = 0;
  std::string first;
  const std::vector<coll::Range> regions = run.p.ResultRegions();
  for (unsigned node = 0; node < run.p.num_nodes(); ++node) {
    const coll::Range rr = regions[node];
    if (rr.len == 0) continue;
    if (first.empty()) first = tb::NodePath(o.outputs, node);
    const std::vector<uint32_t>& out = run.res.out[node];
    const std::string path = tb::NodePath(o.outputs, node);
    WriteOutputFile(path,
                    tb::EncodeVectorFile(
                        path, o.type,
                        std::vector<uint32_t>(out.begin() + static_cast<std::ptrdiff_t>(rr.off),
                                              out.begin() + static_cast<std::ptrdiff_t>(rr.end()))),
                    "--outputs");
    ++written;
  }
  report.Add("  outputs: {} files, {} ...\n", written, first);
}

// Reports the verification (`bad`: tb::CheckCollective's mismatches); whether every element of
// every node matches its golden value.
bool ReportVerification(const CollOptions& o, const CollSetup& s,
                        const std::vector<std::string>& bad, CollReport& report) {
  for (const auto& b : bad) report.Add("  verify: {}\n", b);
  report.Add("  verify: {}\n",
             bad.empty() ? fmt::format("every element of every node matches the golden {}",
                                       o.collective == coll::Collective::kAllToAll
                                           ? "(each block its sender's)"
                                       : s.is_v ? "(each received block its sender's, the "
                                                  "send areas untouched)"
                                                : "reduction")
                         : "FAILED");
  return bad.empty();
}

// A node's activity from its counters; a link's flits cross `pitches` chiplet pitches, and on
// the concentrated mesh its local traffic is one link more.
energy::NodeActivity NodeActivityOf(const sysc::NodeCounters& c, unsigned lanes, uint64_t pitches,
                                    bool cmesh) {
  energy::NodeActivity na;
  na.buffer_writes = c.buffer_writes;
  na.buffer_toggles = c.buffer_toggles;
  na.xbar_traversals = c.xbar_traversals;
  na.va_grants = c.va_grants;
  // Operands arriving at the engine, one operation per lane each: an upper bound (m operands
  // of a reduction need m - 1 operations), the engine's internal issue is not at the pins.
  na.engine_ops = c.engine_requests * lanes;
  na.reconfigs = c.portsel_changes + c.bypass_changes;
  na.link_flits = c.link_flits;
  na.link_toggles = c.link_toggles;
  na.link_flit_pitches = c.link_flit_pitches;
  for (auto& lp : na.link_flit_pitches) lp *= pitches;
  if (cmesh) {
    const uint64_t local = c.injected + c.ejected;
    na.link_flits.push_back(local);
    na.link_toggles.push_back(c.buffer_writes == 0
                                  ? 0
                                  : static_cast<uint64_t>(static_cast<double>(local) *
                                                          static_cast<double>(c.buffer_toggles) /
                                                          static_cast<double>(c.buffer_writes)));
    na.link_flit_pitches.push_back(local);
  }
  return na;
}

// The last run's activity from the package's counters.
energy::Activity ActivityOf(const CollSetup& s, const CollRun& run) {
  const sysc::Package& pkg = *run.pkg;
  energy::Activity act;
  const auto& sh = pkg.shape();
  act.flit_bits = 32 * sh.words();
  // The router the topology needs with the package's local ports (a small butterfly runs on a
  // wider shipped model whose spare ports are not part of the design).
  act.router_buffer_bits =
      uint64_t{coll::RouterPorts(run.pc.topology, run.pc.k) + run.pc.local_ports - 1} * sh.num_vcs *
      sh.buffer_depth * act.flit_bits;
  act.cycles = run.res.cycles;
  // The concentrated mesh's router links span two chiplet pitches (the package counts one),
  // and every flit crosses a chiplet's pitch of wire to its group's router and one from it
  // (coll::CmeshLocalLatency): a link more per router, its toggles at the rate of the
  // router's buffer writes (the same flits; the wire itself is not counted).
  const uint64_t pitches = s.cmesh ? 2 : 1;
  for (unsigned node = 0; node < pkg.num_nodes(); ++node) {
    act.nodes.push_back(NodeActivityOf(pkg.counters(node), sh.lanes, pitches, s.cmesh));
  }
  return act;
}

// Activity and energy per node (its router, engine and reconfiguration) and per link, as CSV.
std::string EnergyCsv(const energy::Activity& act, const energy::Energy& e) {
  std::string csv =
      "kind,node,link,buffer_writes,buffer_toggles,xbar_traversals,va_grants,engine_ops,"
      "reconfigs,flits,toggle_rate,energy_pj\n";
  for (unsigned node = 0; node < act.nodes.size(); ++node) {
    const energy::NodeActivity& na = act.nodes[node];
    csv += fmt::format("node,{},,{},{},{},{},{},{},,,{:.3f}\n", node, na.buffer_writes,
                       na.buffer_toggles, na.xbar_traversals, na.va_grants, na.engine_ops,
                       na.reconfigs, e.per_node[node]);
  }
  for (const auto& l : e.per_link) {
    csv += fmt::format("link,{},{},,,,,,,{},{:.4f},{:.3f}\n", l.node, l.link, l.flits,
                       l.toggle_rate, l.pj);
  }
  return csv;
}

// The last run's energy and (with --energy-csv) its CSV text.
struct CollEnergy {
  energy::Energy energy;
  std::string csv;
};

// The energy of the last run from its activity (energy::Compute), by component.
CollEnergy MeasureEnergy(const CollOptions& o, const CollSetup& s, const CollRun& run,
                         CollReport& report) {
  const energy::Activity act = ActivityOf(s, run);
  CollEnergy ce;
  ce.energy = energy::Compute(s.tech, act);
  const energy::Energy& e = ce.energy;
  const energy::LinkEnergy* busiest = nullptr;
  for (const auto& l : e.per_link) {
    if (!busiest || l.pj > busiest->pj) busiest = &l;
  }
  report.Add(
      "  energy ({}, {} bits per flit): {:.1f} nJ = buffers {:.1f} + crossbar {:.1f} + "
      "allocators {:.1f} + "
      "links {:.1f} + engine {:.1f} + reconfiguration {:.1f} + leakage {:.1f} nJ; {:.2f} pJ per "
      "byte reduced; "
      "buffer toggle rate {:.3f}{}\n",
      s.tech.name, act.flit_bits, e.total() / 1e3, e.buffers / 1e3, e.crossbar / 1e3,
      e.allocators / 1e3, e.links / 1e3, e.engine / 1e3, e.reconfig / 1e3, e.leakage / 1e3,
      e.total() / (static_cast<double>(run.p.elements) * 4.0), e.buffer_toggle_rate,
      busiest ? fmt::format("; busiest link {} link {}: {} flits, toggle rate {:.3f}, {:.1f} nJ",
                            run.pkg->NodeName(busiest->node), busiest->link, busiest->flits,
                            busiest->toggle_rate, busiest->pj / 1e3)
              : "");
  if (!o.energy_csv.empty()) ce.csv = EnergyCsv(act, e);
  return ce;
}

// The stages of MeasureCollective, the report's lines gathered into `report`: the algorithm
// (auto), the run with recovery, the bound, the communicators, outputs and verification, the
// energy.
CollMeasurement MeasureStages(const CollOptions& o, CollReport& report) {
  CollSetup s = SetupOf(o, report.quiet);
  double predicted = 0;
  if (o.algo == "auto") {
    const coll::Choice ch = ChooseAutoAlgorithm(o, s, report);
    ch.best.ApplyTo(s.r);
    predicted = ch.predicted;
  }
  CompleteRequest(o, s);
  const CollRun run = PlanWithRecovery(o, s, report);
  // Verified before the headline (reported below it): a failed run shows no bandwidth.
  const std::vector<std::string> bad =
      o.verify ? tb::CheckCollective(run.p, *run.in, run.res.out) : std::vector<std::string>{};
  const CollBound b = Bound(o, s, run, RanToCompletion(run) && bad.empty(), report);
  CollMeasurement m;
  m.groups = MeasureCommunicators(o, s, run, report);
  m.ok = CheckOutcome(run, predicted, report);
  if (!o.outputs.empty()) WriteOutputs(o, run, report);
  if (!o.trace.timeline.empty()) WriteCollTimeline(o, run);
  if (!o.trace_op.empty() && run.flits) {
    FollowedPath fp = FollowPath(o, run);
    m.followed = std::move(fp.text);
    m.follow = std::move(fp.trace);
  }
  if (o.verify) m.ok = ReportVerification(o, s, bad, report) && m.ok;
  CollEnergy ce;
  if (s.with_energy) ce = MeasureEnergy(o, s, run, report);
  if (!o.energy_csv.empty() && s.with_energy) {
    WriteCsv(o.energy_csv, ce.csv, "--energy-csv", "  energy per node and link");
  }
  m.energy = ce.energy;
  m.bytes = o.bytes;
  m.elements = run.p.elements;
  m.cycles = run.res.cycles;
  m.algbw = b.algbw;
  m.busbw = b.algbw * b.factor;
  m.bound = b.bound;
  m.sync_steps = run.p.sync_steps;
  m.segment_links = run.p.SegmentLinks();
  m.algorithm = coll::Candidate{run.r.algo, run.r.levels, run.r.embeddings, run.r.ring}.Label();
  m.op = coll::OpName(run.r.op);
  m.model = s.model;
  m.plan = PlanSummary(s, run);
  m.flits_injected = run.res.flits_injected;
  m.flits_ejected = run.res.flits_ejected;
  m.predicted = predicted;
  m.seconds = run.seconds;
  m.verified = o.verify && m.ok;
  return m;
}

}  // namespace

CollMeasurement MeasureCollective(const CollOptions& o, bool quiet) {
  CollReport report;
  report.quiet = quiet;
  return MeasureStages(o, report);
}

std::string CollJson(const CollOptions& o, const CollMeasurement& m) {
  nlohmann::json j;
  j["provenance"] = ProvenanceJson();
  const coll::Geometry& g = o.geometry;
  j["request"] = {{"topology", coll::TopologyName(g.topology)},
                  {"k", g.k},
                  {"tracks", g.tracks},
                  {"link_latency", g.link_latency},
                  {"extra_per_pitch", g.extra_per_pitch},
                  {"algorithm", o.algo},
                  {"collective", coll::CollectiveName(o.collective)},
                  {"type", o.type},
                  {"op", o.op},
                  {"bytes", o.bytes},
                  {"root", o.root},
                  {"seed", o.seed},
                  {"model", o.model},
                  {"verify", o.verify},
                  {"local_ports", g.local_ports},
                  {"groups", o.groups}};
  if (o.collective == coll::Collective::kAllToAllV) j["request"]["counts"] = o.counts;
  nlohmann::json r = {
      {"algorithm", m.algorithm},
      {"engine_op", m.op},
      {"model", m.model},
      {"plan", m.plan},
      {"bytes", m.bytes},
      {"elements", m.elements},
      {"cycles", m.cycles},
      {"algbw_bytes_per_cycle", m.algbw},
      {"busbw_bytes_per_cycle", m.busbw},
      {"bound_cycles", m.bound},
      {"fraction_of_bound", m.cycles ? m.bound / static_cast<double>(m.cycles) : 0.0},
      {"sync_steps", m.sync_steps},
      {"segment_links", m.segment_links},
      {"flits_injected", m.flits_injected},
      {"flits_ejected", m.flits_ejected},
      {"verified", m.verified},
      {"ok", m.ok},
      {"seconds", m.seconds}};
  if (m.predicted > 0) r["predicted_cycles"] = m.predicted;
  for (const auto& grp : m.groups) {
    nlohmann::json one = {{"members", grp.members}, {"cycles", grp.cycles}};
    if (grp.alone) one["alone_cycles"] = grp.alone;
    r["groups"].push_back(one);
  }
  const energy::Energy& e = m.energy;
  if (e.total() > 0) {
    r["energy_pj"] = {{"total", e.total()},     {"buffers", e.buffers},
                      {"crossbar", e.crossbar}, {"allocators", e.allocators},
                      {"links", e.links},       {"engine", e.engine},
                      {"reconfig", e.reconfig}, {"leakage", e.leakage}};
  }
  j["result"] = r;
  return j.dump(2);
}

int RunCollectiveCommand(const CollOptions& o) {
  if (!o.outputs.empty()) {  // every node's file, before the run ({node} may name folders too)
    for (unsigned node = 0; node < o.geometry.k * o.geometry.k; ++node)
      CheckOutputPath(tb::NodePath(o.outputs, node), "--outputs");
  }
  CheckCollTrace(o);
  CollOptions run = o;
  if (!o.trace_op.empty()) {  // a first run, without outputs, finds the message's path
    CollOptions find = o;
    find.trace = {};
    find.outputs.clear();
    find.json.clear();
    find.energy = false;
    find.tech = "dsent45";
    find.tech_set.clear();
    find.energy_csv.clear();
    find.progress = false;
    const CollMeasurement first = MeasureCollective(find, true);
    fmt::print("  {}\n", first.followed);
    run.trace.RecordAs(first.follow);
    run.trace_op.clear();
  }
  const CollMeasurement m = MeasureCollective(run);
  if (!o.trace.file.empty())
    fmt::print("  trace: {} (open {})\n", o.trace.file, GtkwPathOf(o.trace.file));
  if (!o.json.empty()) WriteOutput(o.json, CollJson(o, m) + "\n", "--json", "  json");
  return m.ok ? 0 : 1;
}

}  // namespace aries::sim
