#include "coll_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
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
#include "node_models.h"
#include "planners.h"
#include "provenance.h"
#include "run_util.h"
#include "tuner.h"

namespace aries::sim {

namespace hw = aries::hw;

uint64_t ParseBytes(const std::string& s, const char* option, uint64_t max) {
  // Decimal digits, then an optional suffix; no sign, no C prefixes, no overflow.
  const size_t digits = s.find_first_not_of("0123456789");
  const std::string num = s.substr(0, digits);
  const std::string suf = digits == std::string::npos ? "" : s.substr(digits);
  const uint64_t mul = suf.empty() || suf == "B"   ? 1
                       : suf == "K" || suf == "KB" ? 1024
                       : suf == "M" || suf == "MB" ? 1024 * 1024
                       : suf == "G" || suf == "GB" ? uint64_t{1} << 30
                                                   : 0;
  uint64_t v = 0;
  if (!num.empty() && num.size() <= 12) v = std::stoull(num);
  if (v == 0 || mul == 0 || v > max / mul) {
    throw std::invalid_argument(fmt::format(
        "{} {}: a positive byte count with an optional K, M or G suffix (64, 4K, 2M), at most {}",
        option, s, max));
  }
  return v * mul;
}

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

uint64_t KeyBytes(const Config& c, const std::string& key, uint64_t lo, uint64_t max) {
  const std::string& v = c.Get(key);
  if (lo == 0 && v == "0") return 0;
  try {
    return ParseBytes(v, key.c_str(), max);
  } catch (const std::invalid_argument&) {
    BadKey(c, key,
           fmt::format("{}a byte count with an optional K, M or G suffix (64, 4K, 2M) up to {}",
                       lo == 0 ? "0 or " : "", max));
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

}  // namespace

CollOptions CollRequest(const Config& c, CollOptions o) {
  o.geometry = GeometryOf(c);
  const auto col = coll::ParseCollective(c.Get("coll.collective"));
  if (!col) BadKey(c, "coll.collective", coll::CollectiveNames());
  o.collective = *col;
  const std::string algo = AlgorithmFor(c, o.collective);
  if (algo != "auto" && !coll::FindAlgorithm(algo)) {
    BadKey(c, "coll.algo", "auto or one of " + coll::AlgorithmNames());
  }
  o.algo = algo;
  o.type = KeyWord(c, "coll.type");
  o.op = c.Get("coll.op");
  if (c.FromCommandLine("coll.op") && o.collective != coll::Collective::kAllReduce &&
      o.collective != coll::Collective::kReduceScatter &&
      o.collective != coll::Collective::kReduce) {
    BadKey(c, "coll.op",
           fmt::format("only with allreduce, reducescatter and reduce (the collective is {}, which "
                       "reduces nothing)",
                       coll::CollectiveName(o.collective)));
  }
  try {
    coll::ReductionOpcode(o.op, "int32");
  } catch (const std::invalid_argument&) {
    BadKey(c, "coll.op", coll::ReductionNames());
  }
  try {
    coll::ReductionOpcode(o.op, o.type);
  } catch (const std::invalid_argument&) {
    BadKey(c, "coll.op", "sum, prod, min, max with fp32 (and, or, xor act on int32 elements)");
  }
  // 64 MiB per node: 256 chiplets' buffers and their golden fit in memory.
  o.bytes = KeyBytes(c, "coll.size", 1, uint64_t{64} << 20);
  if (o.bytes % 4 != 0) {  // (int32 and fp32 elements: a part element would be made up)
    BadKey(c, "coll.size", "whole 4-byte elements (int32, fp32): 4 .. 64M bytes, e.g. 64, 4K, 2M");
  }
  const unsigned n = o.geometry.k * o.geometry.k;
  if (c.Origin("coll.root").empty() || o.collective == coll::Collective::kReduce ||
      o.collective == coll::Collective::kBroadcast) {
    o.root = static_cast<unsigned>(KeyUint(c, "coll.root", 0, n - 1));
  } else {
    BadKey(c, "coll.root",
           fmt::format("only with reduce and broadcast (the collective is {})",
                       coll::CollectiveName(o.collective)));
  }
  o.levels = static_cast<unsigned>(KeyUint(c, "coll.levels", 1, 5));
  o.embeddings = static_cast<unsigned>(KeyUint(c, "coll.embeddings", 1, 4));
  RefuseOtherAlgorithmsKeys(c, algo, true);
  o.ring.map = *coll::ParseRingMap(KeyWord(c, "coll.ring_map"));
  o.ring.dirs = static_cast<unsigned>(KeyUint(c, "coll.ring_dirs", 1, 2));
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
  if (o.collective != coll::Collective::kAllToAllV && !c.Origin("coll.counts").empty()) {
    BadKey(c, "coll.counts",
           fmt::format("only with alltoallv (the collective is {})",
                       coll::CollectiveName(o.collective)));
  }
  if (o.collective == coll::Collective::kAllToAllV) {
    if (algo == "auto") {
      const std::string serve = coll::AlgorithmNames(  // the algorithms that plan it
          [](const coll::AlgorithmInfo& a) { return a.Serves(coll::Collective::kAllToAllV); },
          " or ");
      BadKey(c, "coll.algo", serve + " with alltoallv (no measured costs)");
    }
    if (o.counts != "uniform" && o.counts != "random") {
      std::ifstream probe(o.counts);
      if (!probe || std::filesystem::is_directory(o.counts)) {
        BadKey(c, "coll.counts",
               "uniform, random, or a counts file that exists (K^2 lines of K^2 element counts)");
      }
      if (!c.Origin("coll.size").empty())
        BadKey(c, "coll.size", "unset with a counts file (the file gives every count)");
    }
  }
  o.verify = KeyBool(c, "coll.verify");
  o.costs = c.Get("coll.costs");
  o.seed = KeyUint(c, "sim.seed", 0, ~uint64_t{0});
  o.model = KeyWord(c, "sim.model");
  if (o.model == "auto") o.model = "rtl";  // one run: the RTL (sweeps take the fast model)
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

}  // namespace

std::string MeasuredModel(const std::string& model) { return model == "auto" ? "fast" : model; }

CollMeasurement MeasureCollective(const CollOptions& o, bool quiet) {
  auto print = [&](auto&&... a) {
    if (!quiet) fmt::print(std::forward<decltype(a)>(a)...);
  };
  coll::Request r;
  RequireElementType(o.type);
  r.op = coll::ReductionOpcode(o.op, o.type);
  const coll::Collective* c = &o.collective;
  const bool with_energy =
      o.energy || !o.tech_set.empty() || !o.energy_csv.empty() || o.tech != "dsent45";
  energy::Tech tech;
  if (with_energy) {  // a bad technology file or override is refused before anything runs
    tech = energy::LoadTech(energy::TechPath(o.tech));
    for (const auto& a : o.tech_set) energy::Override(tech, a);
  }
  sysc::PackageConfig pc;
  static_cast<coll::Geometry&>(pc) = o.geometry;
  pc.count_toggles = with_energy;  // only energy reads the data toggles
  // Adapt-NoC's concentrated mesh: the program is planned for the chiplet mesh and re-routed
  // onto the package, a mesh of K/2 x K/2 routers with four local ports (coll::Concentrate).
  const bool cmesh = pc.topology == coll::Topology::kCmesh;
  const uint64_t bytes = o.bytes;
  if (bytes == 0) throw std::invalid_argument("--size: a positive byte count");
  r.geom = pc;
  r.algo = o.algo;
  r.levels = o.levels;
  r.embeddings = o.embeddings;
  r.ring = o.ring;
  r.groups = o.groups;
  double predicted = 0;
  if (o.algo == "auto") {
    if (!coll::Swept(*c)) {
      throw std::invalid_argument(fmt::format(
          "--algo auto: the measured costs cover {}; for {} name one of {}", coll::SweptNames(),
          coll::CollectiveName(o.collective), coll::AlgorithmNames()));
    }
    const std::string path = o.costs.empty() ? ARIES_COST_FILE : o.costs;
    // A collective's cycles do not depend on the element type or the reduction (the engine's
    // lanes and the endpoints take one cycle per flit for every operation; tested by
    // CollOps.CyclesDoNotDependOnTypeOrOperation): without models of this type, the int32 ones.
    auto models = coll::LoadCostModels(path, o.type, *c);
    if (models.empty() && o.type != "int32") {
      models = coll::LoadCostModels(path, "int32", *c);
      print(
          "auto: {} has no {} rows; the int32 models serve (the cycles do not depend on the "
          "element type)\n",
          path, o.type);
    }
    // Around faults present from reset, the candidates the controller cannot plan are out.
    coll::Geometry fault_free = pc;
    fault_free.faults = {};
    std::function<std::string(const coll::Candidate&)> refuse;
    if (!pc.faults.empty()) {
      refuse = [&](const coll::Candidate& cand) -> std::string {
        coll::Request q = r;
        q.collective = *c;
        cand.ApplyTo(q);
        q.elements = coll::ElementsOfBytes(bytes);
        q.geom.faults = pc.faults.FromReset();
        try {
          coll::Hardware h;  // the shipped node's, with the package's local ports
          h.local_ports = pc.local_ports;
          coll::Plan(q, h);
        } catch (const coll::PlanError& e) {
          return e.what();
        }
        return {};
      };
    }
    const coll::Choice ch = coll::ChooseAlgorithm(models, fault_free, bytes, refuse);
    for (const auto& [label, why] : ch.refused) {
      print("auto: {} cannot serve around the faults: {}\n", label, why);
    }
    ch.best.ApplyTo(r);
    predicted = ch.predicted;
    std::string why;
    for (size_t i = 0; i < ch.ranking.size() && i < 5; ++i) {
      why += fmt::format("{}{} {:.0f}", i ? ", " : "", ch.ranking[i].first, ch.ranking[i].second);
    }
    print(
        "auto: {} predicted cheapest for {} bytes on {} (cycles interpolated between measured "
        "sizes in {}, in the busiest chiplet's flits where they differ; this model's "
        "leave-one-out error "
        "{:.1f}%): {}{}\n",
        ch.best.Label(), bytes, coll::GeometryLabel(fault_free), path, 100.0 * ch.fit_error, why,
        ch.ranking.size() > 5 ? ", ..." : "");
  }
  r.collective = *c;
  // Point-to-point algorithms run on the node model without the collective engine (the same
  // cycles and counters, tests/sysc and tests/sim check it; fewer instructions per node step).
  // (An unknown name takes the full model; Plan() refuses it below, naming the algorithms.)
  const coll::AlgorithmInfo* algo = coll::FindAlgorithm(r.algo);
  const bool engine = !algo || algo->engine;
  // auto: the fast model (which also models the engine; coll --model check proves it equal).
  const std::string model = MeasuredModel(o.model);
  // The controller plans around the faults present from reset (a link that does not train);
  // faults from a later cycle strike the running package, which the watchdog stops, the
  // links that lost flits name what broke, and the controller plans again around it and runs
  // the collective again from the inputs on the package as it is now (at most kAttempts runs).
  coll::FaultSet known = pc.faults.FromReset();
  sysc::PackageConfig run_pc = pc;  // the package of the next attempt (faults' cycles shifted)
  if (cmesh) static_cast<coll::Geometry&>(run_pc) = coll::CmeshRouters(pc);
  r.elements = coll::ElementsOfBytes(bytes);
  r.root = o.root;
  const bool is_v = *c == coll::Collective::kAllToAllV;
  if (is_v) {
    // coll.size is what a member sends in all (itself included), split evenly over its G
    // members: the same traffic as an all-to-all of that size, unless the counts say otherwise.
    const uint64_t per_pair = std::max<uint64_t>(1, r.elements / coll::LargestCommunicator(r));
    r.counts = !o.count_matrix.empty() ? o.count_matrix
               : o.counts == "uniform" || o.counts == "random"
                   ? coll::MakeCounts(r, o.counts, per_pair, o.seed)
                   : tb::ReadCountsFile(o.counts, r.geom.k * r.geom.k);
  }
  constexpr unsigned kAttempts = 4;
  std::unique_ptr<sysc::Package> pkg_owner;
  coll::Program p;
  coll::CmeshProgram cp;  // cmesh: p re-routed onto the routers
  coll::Validation v;
  std::shared_ptr<const std::vector<std::vector<uint32_t>>> in;
  std::optional<coll::AllToAllVLayout> lay;  // all-to-all-v: its buffers (counts checked by Plan)
  sysc::CollRunResult res;
  uint64_t lost_cycles = 0;  // cycles of the runs a fault stopped
  const auto t0 = std::chrono::steady_clock::now();
  for (unsigned attempt = 1;; ++attempt) {
    pkg_owner = std::make_unique<sysc::Package>(
        run_pc,
        sysc::ShippedNodeModels(engine ? sysc::NodeUse::kAny : sysc::NodeUse::kPointToPoint,
                                sysc::ParseNodeImpl(model)),
        o.seed);
    r.geom.faults = known;
    const coll::Hardware hw = sysc::HardwareOf(pkg_owner->shape());
    p = coll::Plan(r, hw, &v);
    if (cmesh) cp = coll::Concentrate(p, hw.num_flows);
    const unsigned nn = p.num_nodes();
    if (attempt == 1) {
      if (is_v) {
        lay.emplace(r);
        uint64_t moved = 0;
        for (unsigned i = 0; i < p.num_nodes(); ++i) moved += lay->Sent(i);
        print(
            "ARIES-sim coll: {} alltoallv, {} counts: {} bytes between chiplets in all (send area "
            "{} + receive area {}{} elements of {}) on {} ({} node model)\n",
            r.algo, o.counts, moved * 4, lay->send_area(), lay->elements() - lay->send_area(),
            p.elements > lay->elements()
                ? fmt::format(" + staging {}", p.elements - lay->elements())
                : std::string(),
            o.type, coll::GeometryLabel(pc), model);
      } else {
        print("ARIES-sim coll: {} {} ({}) of {} bytes ({} x {}) on {} ({} node model)\n", r.algo,
              coll::CollectiveName(o.collective), coll::OpName(r.op), bytes, p.elements, o.type,
              coll::GeometryLabel(pc), model);
      }
      if (!pc.faults.empty()) print("  faults: {}\n", pc.faults.Names(pc));
      if (o.inputs.empty()) {
        in = SeededInputs(p, o.seed);
      } else {
        // An input file holds the node's buffer: an all-to-all-v's send and receive areas,
        // without the staging a 2phase plan adds past them (zeros: its scratch).
        auto read = tb::ReadNodeVectors(o.inputs, o.type, nn, lay ? lay->elements() : p.elements);
        for (auto& v : read) v.resize(p.elements, 0);
        in = std::make_shared<const std::vector<std::vector<uint32_t>>>(std::move(read));
      }
    }
    print("  plan{}: {}\n", attempt > 1 ? fmt::format(" (attempt {})", attempt) : "",
          cmesh ? cp.chiplets.summary : p.summary);
    if (!known.empty()) print("  planned around: {}\n", known.Names(pc));
    print(
        "  validated: {} messages, {} engine trees, {} channels, longest path {} hops; "
        "synchronization steps {}\n",
        v.symbolic.messages, v.symbolic.engine_ids, v.channels, v.max_hops, p.sync_steps);
    if (attempt == 1) {
      print("  inputs: {}\n", o.inputs.empty() ? fmt::format("seeded generator (seed {})", o.seed)
                                               : tb::NodePath(o.inputs, 0) + " ...");
    }
    ProgressMeter meter(o.progress && !quiet, "coll");
    const std::function<void(uint64_t)> shown =
        quiet || !meter.enabled() ? std::function<void(uint64_t)>() : std::ref(meter);
    res = cmesh ? sysc::RunConcentrated(*pkg_owner, cp, *in, 200'000'000, shown)
                : sysc::RunProgram(*pkg_owner, p, *in, 200'000'000, shown);
    if (!res.stuck || res.lost.empty() || attempt == kAttempts) break;
    // Recovery: what the links' ends disagree on joins the known faults; the package keeps
    // every fault that has struck and the ones still to come, their cycles counted from now.
    const uint64_t stop = pkg_owner->cycle();
    print("  FAULT: the run stopped at cycle {} ({} cycles into the collective):\n",
          pkg_owner->cycle(), res.stuck_cycle);
    for (const auto& l : res.lost) print("    {}\n", l.Describe(*pkg_owner));
    const size_t known_before = known.faults.size();
    for (const auto& l : res.lost) {
      const bool have = std::any_of(known.faults.begin(), known.faults.end(),
                                    [&](const coll::Fault& f) { return f == l.fault; });
      if (!have) known.faults.push_back(l.fault);
    }
    if (known.faults.size() == known_before) {  // the same links again: re-planning won't help
      res.errors.push_back(fmt::format(
          "the links that lost flits ({}) were already planned around: a fault the controller "
          "cannot see from the links (a dead port or switch) stops the repaired program too",
          known.Names(pc)));
      break;
    }
    for (coll::Fault& f : run_pc.faults.faults) f.from = f.from <= stop ? 0 : f.from - stop;
    lost_cycles += res.stuck_cycle;
    print(
        "  re-planning around {} and running the collective again from its inputs on a fresh "
        "package (what is dead stays dead; energy and counters below are the last run's)\n",
        known.Names(pc));
  }
  sysc::Package& pkg = *pkg_owner;
  const unsigned n = p.num_nodes();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double link_bytes = 4.0 * pkg.shape().lanes;  // per cycle per link direction
  // All-to-all-v: a node's size is the mean of what it sends others, its bound the most any
  // node sends or receives (over its local ports) or the bisection's, the larger.
  uint64_t v_mean = 0, v_most = 0;
  if (is_v) {  // the mean over the chiplets in a communicator
    unsigned in_comm = 0;
    for (unsigned i = 0; i < n; ++i) {
      if (!coll::RankOf(r, i)) continue;
      ++in_comm;
      v_mean += lay->Sent(i);
      v_most = std::max({v_most, lay->Sent(i), lay->Received(i).len});
    }
    v_mean /= std::max(1u, in_comm);
  }
  const double algbw =
      static_cast<double>(is_v ? v_mean : p.elements) * 4.0 / static_cast<double>(res.cycles);
  double factor = 1.0;
  // The largest communicator's members (every node without groups) set the bound.
  const unsigned members = coll::LargestCommunicator(r);
  switch (*c) {
    case coll::Collective::kAllReduce:
      factor = 2.0 * (members - 1) / members;
      break;
    case coll::Collective::kReduceScatter:
    case coll::Collective::kAllGather:
    case coll::Collective::kAllToAll:
      factor = static_cast<double>(members - 1) / members;
      break;
    case coll::Collective::kAllToAllV:  // the size already leaves out a member's own block
    default:
      factor = 1.0;
  }
  // Bound: point-to-point algorithms move factor * M through each node's p local ports (one
  // link's bandwidth each: 2(N-1)/N M/(p B) for all-reduce); the in-network tree M through the
  // engine's one port (nccl-tests bus bandwidth / link bandwidth). An all-to-all over the whole
  // package is also bound by its bisection (coll::AllToAllBisection), the larger of the two.
  const double ports = engine ? 1.0 : static_cast<double>(pc.local_ports);
  double bound =
      static_cast<double>(p.elements) * 4.0 * (engine ? 1.0 : factor) / (link_bytes * ports);
  if (*c == coll::Collective::kAllToAll && r.groups.empty()) {
    bound = std::max(bound, static_cast<double>(p.elements) * 4.0 *
                                coll::AllToAllBisection(r.geom) / link_bytes);
  }
  if (is_v) {
    bound = std::max(static_cast<double>(v_most) * 4.0 / (link_bytes * ports),
                     coll::AllToAllVBisection(r.geom, r.counts) * 4.0 / link_bytes);
  }
  print(
      "  cycles {}   algbw {:.2f} B/cycle   busbw {:.2f} B/cycle   bound {:.0f} cycles "
      "({:.1f}% of it)   [{:.2f} s simulated]\n",
      res.cycles, algbw, algbw * factor, bound, 100.0 * bound / res.cycles, secs);
  // Communicators: each one's cycles, and (o.alone) the same group run alone on the package,
  // what sharing it with the others costs.
  std::vector<CollMeasurement::Group> groups;
  if (!r.groups.empty()) {
    for (const auto& members_of : coll::Communicators(r)) {
      CollMeasurement::Group g;
      g.members = members_of;
      for (unsigned v : members_of) g.cycles = std::max(g.cycles, res.node_cycles.at(v));
      // All-to-all-v: alone, the group keeps its own counts, nothing to or from the others; a
      // group whose counts move nothing between its members has no run alone.
      CollOptions solo = o;
      bool moves = true;
      if (is_v && o.alone) {
        moves = false;
        solo.count_matrix.assign(n, std::vector<uint64_t>(n, 0));
        for (unsigned a : members_of) {
          for (unsigned b : members_of) {
            solo.count_matrix[a][b] = r.counts[a][b];
            moves = moves || (a != b && r.counts[a][b] != 0);
          }
        }
      }
      if (o.alone && r.groups.size() > 1 && moves && (groups.empty() || !o.alone_first_only)) {
        solo.groups = {members_of};
        solo.alone = false;
        solo.energy = false;
        solo.json.clear();
        solo.outputs.clear();
        solo.progress = false;
        g.alone = MeasureCollective(solo, true).cycles;
      }
      groups.push_back(std::move(g));
    }
    for (const auto& g : groups) {
      print("  group {}: {} cycles{}\n", fmt::join(g.members, ","), g.cycles,
            g.alone ? fmt::format(" (alone on the package: {}, sharing costs {:+.1f}%)", g.alone,
                                  100.0 * (static_cast<double>(g.cycles) / g.alone - 1.0))
                    : "");
    }
  }
  if (lost_cycles > 0) {
    print("  recovered: {} cycles of stopped runs + {} of the repaired run = {} cycles in all\n",
          lost_cycles, res.cycles, lost_cycles + res.cycles);
  }
  if (predicted > 0) {
    print("  auto: predicted {:.0f} cycles, measured {} ({:+.1f}%)\n", predicted, res.cycles,
          100.0 * (static_cast<double>(res.cycles) - predicted) / predicted);
  }
  print("  flits injected {} (schedule {}), ejected {} (schedule {})\n", res.flits_injected,
        res.flits_to_inject, res.flits_ejected, res.flits_to_eject);
  const bool flits_ok =
      res.flits_injected == res.flits_to_inject && res.flits_ejected == res.flits_to_eject;
  bool ok = res.finished && res.errors.empty() && flits_ok;
  for (const auto& e : res.errors) print("  error: {}\n", e);
  if (!flits_ok && res.errors.empty()) {  // (a stopped run's errors say why already)
    print("  error: the endpoints moved other flit counts than their schedules (above)\n");
  }
  if (!o.outputs.empty()) {
    // Each node's result region (the whole vector, its shard after a reduce-scatter, nothing
    // off the root of a reduce).
    unsigned written = 0;
    std::string first;
    const std::vector<coll::Range> regions = p.ResultRegions();
    for (unsigned node = 0; node < n; ++node) {
      const coll::Range rr = regions[node];
      if (rr.len == 0) continue;
      if (first.empty()) first = tb::NodePath(o.outputs, node);
      tb::WriteVectorFile(
          tb::NodePath(o.outputs, node), o.type,
          std::vector<uint32_t>(res.out[node].begin() + static_cast<std::ptrdiff_t>(rr.off),
                                res.out[node].begin() + static_cast<std::ptrdiff_t>(rr.end())));
      ++written;
    }
    print("  outputs: {} files, {} ...\n", written, first);
  }
  if (o.verify) {
    const auto bad = tb::CheckCollective(p, *in, res.out);
    for (const auto& b : bad) print("  verify: {}\n", b);
    print("  verify: {}\n", bad.empty()
                                ? fmt::format("every element of every node matches the golden {}",
                                              o.collective == coll::Collective::kAllToAll
                                                  ? "(each block its sender's)"
                                              : is_v ? "(each received block its sender's, the "
                                                       "send areas untouched)"
                                                     : "reduction")
                                : "FAILED");
    ok = ok && bad.empty();
  }
  CollMeasurement m;
  if (with_energy) {
    energy::Activity act;
    const auto& sh = pkg.shape();
    act.flit_bits = 32 * sh.words();
    // The router the topology needs with the package's local ports (a small butterfly runs on a
    // wider shipped model whose spare ports are not part of the design).
    act.router_buffer_bits =
        uint64_t{coll::RouterPorts(run_pc.topology, run_pc.k) + run_pc.local_ports - 1} *
        sh.num_vcs * sh.buffer_depth * act.flit_bits;
    act.cycles = res.cycles;
    // The concentrated mesh's router links span two chiplet pitches (the package counts one),
    // and every flit crosses a chiplet's pitch of wire to its group's router and one from it
    // (coll::CmeshLocalLatency): a link more per router, its toggles at the rate of the
    // router's buffer writes (the same flits; the wire itself is not counted).
    const uint64_t pitches = cmesh ? 2 : 1;
    for (unsigned node = 0; node < pkg.num_nodes(); ++node) {
      const sysc::NodeCounters& c = pkg.counters(node);
      energy::NodeActivity na;
      na.buffer_writes = c.buffer_writes;
      na.buffer_toggles = c.buffer_toggles;
      na.xbar_traversals = c.xbar_traversals;
      na.va_grants = c.va_grants;
      // Operands arriving at the engine, one operation per lane each: an upper bound (m operands
      // of a reduction need m - 1 operations), the engine's internal issue is not at the pins.
      na.engine_ops = c.engine_requests * sh.lanes;
      na.reconfigs = c.portsel_changes + c.bypass_changes;
      na.link_flits = c.link_flits;
      na.link_toggles = c.link_toggles;
      na.link_flit_pitches = c.link_flit_pitches;
      for (auto& lp : na.link_flit_pitches) lp *= pitches;
      if (cmesh) {
        const uint64_t local = c.injected + c.ejected;
        na.link_flits.push_back(local);
        na.link_toggles.push_back(
            c.buffer_writes == 0 ? 0
                                 : static_cast<uint64_t>(static_cast<double>(local) *
                                                         static_cast<double>(c.buffer_toggles) /
                                                         static_cast<double>(c.buffer_writes)));
        na.link_flit_pitches.push_back(local);
      }
      act.nodes.push_back(std::move(na));
    }
    m.energy = energy::Compute(tech, act);
    const energy::Energy& e = m.energy;
    const energy::LinkEnergy* busiest = nullptr;
    for (const auto& l : e.per_link) {
      if (!busiest || l.pj > busiest->pj) busiest = &l;
    }
    print(
        "  energy ({}, {} bits per flit): {:.1f} nJ = buffers {:.1f} + crossbar {:.1f} + "
        "allocators {:.1f} + "
        "links {:.1f} + engine {:.1f} + reconfiguration {:.1f} + leakage {:.1f} nJ; {:.2f} pJ per "
        "byte reduced; "
        "buffer toggle rate {:.3f}{}\n",
        tech.name, act.flit_bits, e.total() / 1e3, e.buffers / 1e3, e.crossbar / 1e3,
        e.allocators / 1e3, e.links / 1e3, e.engine / 1e3, e.reconfig / 1e3, e.leakage / 1e3,
        e.total() / (static_cast<double>(p.elements) * 4.0), e.buffer_toggle_rate,
        busiest ? fmt::format("; busiest link {} link {}: {} flits, toggle rate {:.3f}, {:.1f} nJ",
                              pkg.NodeName(busiest->node), busiest->link, busiest->flits,
                              busiest->toggle_rate, busiest->pj / 1e3)
                : "");
    if (!o.energy_csv.empty()) {
      // Activity and energy per node (its router, engine and reconfiguration) and per link.
      std::string csv =
          "kind,node,link,buffer_writes,buffer_toggles,xbar_traversals,va_grants,engine_ops,"
          "reconfigs,flits,toggle_rate,energy_pj\n";
      for (unsigned node = 0; node < pkg.num_nodes(); ++node) {
        const energy::NodeActivity& na = act.nodes[node];
        csv += fmt::format("node,{},,{},{},{},{},{},{},,,{:.3f}\n", node, na.buffer_writes,
                           na.buffer_toggles, na.xbar_traversals, na.va_grants, na.engine_ops,
                           na.reconfigs, e.per_node[node]);
      }
      for (const auto& l : e.per_link) {
        csv += fmt::format("link,{},{},,,,,,,{},{:.4f},{:.3f}\n", l.node, l.link, l.flits,
                           l.toggle_rate, l.pj);
      }
      WriteCsv(o.energy_csv, csv, "--energy-csv", "  energy per node and link");
    }
  }
  m.bytes = bytes;
  m.elements = p.elements;
  m.cycles = res.cycles;
  m.algbw = algbw;
  m.busbw = algbw * factor;
  m.bound = bound;
  m.sync_steps = p.sync_steps;
  m.segment_links = p.SegmentLinks();
  m.algorithm = coll::Candidate{r.algo, r.levels, r.embeddings, r.ring}.Label();
  m.op = coll::OpName(r.op);
  m.model = model;
  m.plan = cmesh ? cp.chiplets.summary : p.summary;
  m.flits_injected = res.flits_injected;
  m.flits_ejected = res.flits_ejected;
  m.predicted = predicted;
  m.seconds = secs;
  m.verified = o.verify && ok;
  m.ok = ok;
  m.groups = std::move(groups);
  return m;
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
      CheckWritable(tb::NodePath(o.outputs, node), "--outputs");
  }
  const CollMeasurement m = MeasureCollective(o);
  if (!o.json.empty()) WriteOutput(o.json, CollJson(o, m) + "\n", "--json", "  json");
  return m.ok ? 0 : 1;
}

}  // namespace aries::sim
