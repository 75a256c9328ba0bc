#include "train_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "coll_run.h"
#include "costs.h"
#include "figures.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "streams.h"
#include "workload.h"

namespace aries::sim {

namespace {

std::string CostPath(const std::string& costs) { return costs.empty() ? ARIES_COST_FILE : costs; }

std::string Us(double ns) { return fmt::format("{:.1f}", ns / 1000.0); }

train::Chiplet ChipletWith(double utilization) {
  if (!(utilization > 0 && utilization <= 1)) {
    throw std::invalid_argument(fmt::format("--utilization {}: allowed (0, 1]", utilization));
  }
  train::Chiplet c;
  c.utilization = utilization;
  return c;
}

}  // namespace

TrainOptions TrainRequest(const Config& c, TrainOptions o) {
  // The training model reads the cost models of the default geometry: topology and K only.
  const auto topo = coll::ParseTopology(c.Get("package.topology"));
  if (!topo) BadKey(c, "package.topology");
  o.topology = *topo;
  o.k = static_cast<unsigned>(KeyUint(c, "package.k", 2, 16));
  o.algo = c.Get("coll.algo");
  if (!coll::FindAlgorithm(o.algo)) {
    BadKey(c, "coll.algo", "one of " + coll::AlgorithmNames() + " (auto is coll's only)");
  }
  o.levels = static_cast<unsigned>(KeyUint(c, "coll.levels", 1, 5));
  o.embeddings = static_cast<unsigned>(KeyUint(c, "coll.embeddings", 1, 4));
  o.costs = c.Get("coll.costs");
  o.workload = c.Get("train.workload");
  try {
    o.strategy = train::ParseStrategy(c.Get("train.strategy"));
  } catch (const std::invalid_argument&) {
    BadKey(c, "train.strategy");
  }
  o.batch = static_cast<unsigned>(KeyUint(c, "train.batch", 0, 1u << 20));
  o.bucket = KeyBytes(c, "train.bucket", 0, uint64_t{1} << 40);
  if (o.bucket > 0 && o.strategy != train::Strategy::kDdp) {
    BadKey(c, "train.bucket",
           fmt::format("0 with {} (buckets are ddp's; {} issues one collective per layer)",
                       train::StrategyName(o.strategy), train::StrategyName(o.strategy)));
  }
  o.utilization = KeyReal(c, "train.utilization", 0, 1);
  if (!(o.utilization > 0)) BadKey(c, "train.utilization");
  o.check_max = KeyBytes(c, "train.check_max", 1, uint64_t{64} << 20);
  o.model = KeyWord(c, "sim.model");  // auto: the fast model
  return o;
}

Fig10Options Fig10Request(const Config& c, Fig10Options o) {
  o.batch = static_cast<unsigned>(KeyUint(c, "train.batch", 0, 1u << 20));
  o.utilization = KeyReal(c, "train.utilization", 0, 1);
  if (!(o.utilization > 0)) BadKey(c, "train.utilization");
  o.costs = c.Get("coll.costs");
  o.preset = KeyWord(c, "eval.preset");
  return o;
}

int RunTrainCommand(const TrainOptions& o) {
  const train::Workload w = train::LoadWorkload(train::WorkloadPath(o.workload));
  const train::Strategy strategy = o.strategy;
  const coll::Topology topo = o.topology;
  const char* topology = coll::TopologyName(topo);
  const char* strategy_name = train::StrategyName(strategy);
  const train::Chiplet chip = ChipletWith(o.utilization);
  const coll::Candidate cand{o.algo, o.levels, o.embeddings, {}};
  const uint64_t bucket = o.bucket;
  const uint64_t cap = o.check_max;
  const train::CostTable table(CostPath(o.costs));
  const auto needed = train::CollectivesOf(strategy);
  const train::CommCost cost = table.Cost(train::PackageOf(topo, o.k), cand, chip, needed);
  train::IterationOptions io;
  io.strategy = strategy;
  io.chiplets = o.k * o.k;
  io.batch = o.batch;
  io.bucket_bytes = bucket;
  const train::Iteration it = train::RunIteration(w, chip, io, cost);
  io.overlap = false;
  const train::Iteration ser = train::RunIteration(w, chip, io, cost);
  const unsigned batch = o.batch ? o.batch : w.batch;

  fmt::print(
      "ARIES-sim train: {} ({:.1f}M parameters, {:.3g} GFLOP forward per sample: {}), {}, "
      "batch {} {}, {} chiplets ({} {}x{}), collectives: {}\n",
      w.name, w.Params() / 1e6, w.FwdFlops() / 1e9, w.sample, strategy_name, batch,
      strategy == train::Strategy::kTp ? "shared by the chiplets (each does 1/N of every layer)"
                                       : "per chiplet",
      io.chiplets, topology, o.k, o.k, cand.Label());
  fmt::print(
      "  chiplet: {:.1f} TFLOP/s sustained (16 PEs x 32x32 multipliers x 1 GHz, ARIES Table II; "
      "utilization {:.2f}, MAD Max 4.2)\n",
      chip.FlopsPerNs() / 1000.0, chip.utilization);
  std::map<coll::Collective, uint64_t> largest;  // per collective: its model's largest size
  for (coll::Collective c : needed) {
    const coll::CostModel& m = table.Find(c, train::PackageOf(topo, o.k), cand);
    largest[c] = m.points.back().bytes;
    const coll::AlphaBeta ab = coll::FitAlphaBeta(m.points);
    fmt::print(
        "  cost model: {} {} on {} {}x{}, {} sizes {}..{} B from {}: piecewise leave-one-out "
        "error {:.1f}% (alpha-beta fit: {:.0f} cycles + {:.4f} cycles/B, largest error {:.1f}%)\n",
        coll::CollectiveName(c), cand.Label(), topology, o.k, o.k, m.points.size(),
        m.points.front().bytes, m.points.back().bytes, table.path(), 100 * m.LeaveOneOutError(),
        ab.alpha, ab.beta, 100 * ab.max_rel_error);
  }
  unsigned extrapolated = 0;
  for (const train::Op& op : it.ops) {
    if (op.stream == train::Stream::kComm && op.bytes > largest[op.collective]) ++extrapolated;
  }
  fmt::print(
      "  iteration: {} us overlapped, {} us serialized; compute {} us, communication {} us in {} "
      "collectives ({} above the largest measured size, extrapolated); exposed communication {} us "
      "({:.1f}% of the iteration)\n",
      Us(it.time), Us(ser.time), Us(it.compute_busy), Us(it.comm_busy), it.collectives,
      extrapolated, Us(it.exposed_comm), it.time > 0 ? 100.0 * it.exposed_comm / it.time : 0.0);
  WriteCsv(o.timeline, train::TimelineCsv(it), "--timeline", "  timeline");
  PlotCsv("timeline", train::TimelineCsv(it), o.plot);
  if (!o.check) return 0;
  // Every distinct collective of the iteration up to --check-max, run cycle-accurately.
  std::set<std::pair<int, uint64_t>> runs;
  for (const train::Op& op : it.ops) {
    if (op.stream == train::Stream::kComm && op.bytes <= cap)
      runs.insert({static_cast<int>(op.collective), op.bytes});
  }
  fmt::print(
      "\n  cycle-accurate check of {} distinct collectives up to {} bytes (every element "
      "verified):\n\n"
      "| collective | bytes | model (cycles) | measured (cycles) | error "
      "|\n|---|---|---|---|---|\n",
      runs.size(), cap);
  double worst = 0;
  bool ok = true;
  unsigned done = 0;
  for (const auto& [ci, bytes] : runs) {
    const auto c = static_cast<coll::Collective>(ci);
    CollOptions co;
    co.geometry.topology = o.topology;
    co.geometry.k = o.k;
    co.model = o.model;
    co.algo = o.algo;
    co.levels = o.levels;
    co.embeddings = o.embeddings;
    co.collective = c;
    co.bytes = bytes;
    co.verify = true;
    fmt::print(stderr, "  check {}/{}: {} of {} bytes\n", ++done, runs.size(),
               coll::CollectiveName(c), bytes);
    const CollMeasurement m = MeasureCollective(co, true);
    const double model = cost(c, bytes) * chip.clock_ghz;
    const double err = (model - static_cast<double>(m.cycles)) / static_cast<double>(m.cycles);
    worst = std::max(worst, std::abs(err));
    ok = ok && m.ok;
    fmt::print("| {} | {} | {:.0f} | {}{} | {:+.1f}% |\n", coll::CollectiveName(c), bytes, model,
               m.cycles, m.ok ? "" : " FAILED", 100 * err);
  }
  fmt::print("\n  largest model error {:.1f}%{}\n", 100 * worst, ok ? "" : "; some runs FAILED");
  return ok ? 0 : 1;
}

namespace {

struct Family {
  const char* name;
  const char* label;
  std::vector<std::string> baseline;  // algorithms on mesh, torus, fbfly
  std::vector<std::string> aries;     // algorithms ARIES may configure (the best is taken)
};

// The paper's families from the algorithm descriptors (collectives/planners.h: PaperRole).
const std::vector<Family>& Families() {
  static const std::vector<Family> f = [] {
    std::vector<Family> v;
    for (const std::string& fam : coll::PaperFamilies()) {
      const coll::AlgorithmInfo& base = coll::FamilyBaseline(fam);
      Family x{base.family, base.paper.family_label, {base.name}, {}};
      for (const coll::AlgorithmInfo* a : coll::AriesCandidates(fam)) x.aries.push_back(a->name);
      v.push_back(std::move(x));
    }
    return v;
  }();
  return f;
}

// ARIES V-B: speedup of ARIES over mesh, torus, flattened butterfly and Adapt-NoC, per family
// and K.
struct PaperSpeedup {
  const char* family;
  unsigned k;
  double vs[4];  // mesh, torus, fbfly, Adapt-NoC
};
const PaperSpeedup kPaper[] = {
    {"ring", 4, {2.10, 2.10, 1.52, 1.48}},  {"ring", 8, {2.09, 2.09, 1.46, 1.42}},
    {"dbt", 4, {1.35, 1.35, 1.65, 1.17}},   {"dbt", 8, {2.80, 2.43, 3.92, 1.67}},
    {"mtree", 4, {2.55, 1.44, 1.03, 1.25}}, {"mtree", 8, {2.21, 1.28, 1.08, 1.23}},
};
// ARIES V-B: communication time reduced by 33.7% (ring), 51.9% (DB-T), 19.5% (MT), averaged
// over the networks (stated with the Transformer).
const std::map<std::string, double> kPaperCommReduction = {
    {"ring", 0.337}, {"dbt", 0.519}, {"mtree", 0.195}};
double PaperCommReduction(const std::string& family) { return kPaperCommReduction.at(family); }
// The paper's speedups of `family` on K x K, or nullptr (K not in V-B).
const PaperSpeedup* PaperFor(const std::string& family, unsigned k) {
  for (const PaperSpeedup& p : kPaper) {
    if (p.family == family && p.k == k) return &p;
  }
  return nullptr;
}

// The baselines of Fig. 10 and ARIES last.
const char* kTopos[] = {"mesh", "torus", "fbfly", kAdaptNoc, "aries"};
constexpr int kBaselines = 4;
std::string Per(const double* v, const char* fmt_one = "{:.2f}") {
  std::string s;
  for (int i = 0; i < kBaselines; ++i)
    s += (i ? " / " : "") + fmt::format(fmt::runtime(fmt_one), v[i]);
  return s;
}

// The geometric-mean speedups of ARIES over the baselines (kTopos) of one family on K x K.
struct Fig10Mean {
  std::string family;
  unsigned k = 0;
  double speedup[kBaselines] = {0, 0, 0, 0};
};

// One assumption set's tables (printed unless `quiet`; rows appended to `csv`); returns the
// geometric means per family and K.
std::vector<Fig10Mean> Fig10Tables(const Fig10Options& o, const std::vector<train::Workload>& ws,
                                   const train::CostTable& table, const Assumptions& as, bool quiet,
                                   std::string* csv) {
  auto print = [&](auto&&... a) {
    if (!quiet) fmt::print(std::forward<decltype(a)>(a)...);
  };
  const train::Chiplet chip = ChipletWith(o.utilization);
  const std::vector<unsigned>& ks = o.ks;
  std::vector<Fig10Mean> means;
  for (const Family& fam : Families()) {
    for (unsigned k : ks) {
      const PaperSpeedup* paper = PaperFor(fam.name, k);
      print(
          "\n{} on {}x{}:\n\n| workload | mesh us | torus us | fbfly us | Adapt-NoC us "
          "(sub-network) | ARIES us (algorithm) | speedup vs mesh / torus / fbfly / Adapt-NoC | "
          "communication reduced vs mesh / torus / fbfly / Adapt-NoC |\n"
          "|---|---|---|---|---|---|---|---|\n",
          fam.label, k, k);
      double logsum[kBaselines] = {0, 0, 0, 0}, comm_red[kBaselines] = {0, 0, 0, 0};
      for (const train::Workload& w : ws) {
        train::IterationOptions io;
        io.chiplets = k * k;
        io.batch = o.batch;
        struct Best {
          train::Iteration it;
          std::string algo;
        };
        std::map<std::string, Best> best;
        for (const char* t : kTopos) {
          const bool aries = std::string(t) == "aries";
          const bool adapt = std::string(t) == kAdaptNoc;
          const auto& algos = aries ? fam.aries : fam.baseline;
          // Adapt-NoC: the candidates of every sub-network it forms.
          const std::vector<coll::Topology> packages =
              adapt ? AdaptNocSubnetworks() : std::vector<coll::Topology>{*coll::ParseTopology(t)};
          std::vector<std::pair<coll::Geometry, coll::Candidate>> cands;
          for (const coll::Topology pt : packages) {
            const coll::Geometry geom = PresetPackage(pt, k, as);
            for (const coll::Candidate& cand :
                 table.Candidates(coll::Collective::kAllReduce, geom)) {
              if (std::find(algos.begin(), algos.end(), cand.algo) != algos.end() &&
                  PresetAdmits(cand, !aries, as))
                cands.push_back({geom, cand});
            }
          }
          // Ties go to the family's first algorithm (the plain ring, the plain multi-tree).
          std::stable_sort(cands.begin(), cands.end(), [&](const auto& x, const auto& y) {
            return std::find(algos.begin(), algos.end(), x.second.algo) <
                   std::find(algos.begin(), algos.end(), y.second.algo);
          });
          if (cands.empty()) {
            const coll::Geometry geom = PresetPackage(packages[0], k, as);
            const bool rank = as.rank_baselines && !aries;
            const bool ports = geom.local_ports != 1;
            throw std::invalid_argument(fmt::format(
                "{}: no all-reduce costs of {}{} on {}{}", table.path(), fmt::join(algos, "/"),
                rank ? " (the rank-order ring the paper preset needs)" : "",
                coll::GeometryLabel(geom),
                rank || ports
                    ? fmt::format(
                          "; measure them with aries coll-sweep -k {} --algos {} "
                          "--topologies {}{} --csv FILE",
                          k, fmt::join(algos, ","), coll::TopologyName(geom.topology),
                          ports ? fmt::format(" --set node.local_ports={}", geom.local_ports) : "")
                    : ""));
          }
          auto used = std::make_shared<std::map<std::string, unsigned>>();
          const auto cost = table.CheapestOf(cands, chip, {coll::Collective::kAllReduce}, used);
          Best b{train::RunIteration(w, chip, io, cost), ""};
          // No commas: the label is a CSV field.
          for (const auto& [label, n] : *used)
            b.algo += fmt::format("{}{} x{}", b.algo.empty() ? "" : " + ", label, n);
          best[t] = std::move(b);
        }
        const Best& a = best["aries"];
        if (a.it.collectives == 0 || a.it.time <= 0) {
          throw std::invalid_argument(
              fmt::format("workload {}: no gradient all-reduce under ddp (every layer "
                          "sharded or without parameters); nothing to compare",
                          w.name));
        }
        double sp[kBaselines], red[kBaselines];
        for (int i = 0; i < kBaselines; ++i) {
          const Best& b = best[kTopos[i]];
          sp[i] = b.it.time / a.it.time;
          red[i] = 100 * (1.0 - a.it.comm_busy / b.it.comm_busy);
          logsum[i] += std::log(sp[i]);
          comm_red[i] += red[i];
        }
        print("| {} | {} | {} | {} | {} ({}) | {} ({}) | {} | {} |\n", w.name,
              Us(best["mesh"].it.time), Us(best["torus"].it.time), Us(best["fbfly"].it.time),
              Us(best[kAdaptNoc].it.time), best[kAdaptNoc].algo, Us(a.it.time), a.algo, Per(sp),
              Per(red, "{:.0f}%"));
        for (int i = 0; i <= kBaselines; ++i) {
          const Best& b = best[kTopos[i]];
          const double pv = i == kBaselines || !paper ? 0 : paper->vs[i];
          *csv +=
              fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f},{:.4f},{},{}\n", k,
                          fam.name, w.name, kTopos[i], b.algo, b.it.time / 1000,
                          b.it.compute_busy / 1000, b.it.comm_busy / 1000, b.it.exposed_comm / 1000,
                          b.it.time / a.it.time, 1.0 - a.it.comm_busy / b.it.comm_busy,
                          pv > 0 ? fmt::format("{:.2f}", pv) : "", as.name);
        }
      }
      const double n = static_cast<double>(ws.size());
      Fig10Mean mean{fam.name, k};
      double mean_red[kBaselines];
      for (int i = 0; i < kBaselines; ++i) {
        mean.speedup[i] = std::exp(logsum[i] / n);
        mean_red[i] = comm_red[i] / n;
      }
      means.push_back(mean);
      print("| geometric mean (ours) | | | | | | {} | {} (mean) |\n", Per(mean.speedup),
            Per(mean_red, "{:.0f}%"));
      if (paper) {
        print("| paper (V-B) | | | | | | {} | {:.1f}% (average over the networks) |\n",
              Per(paper->vs), 100 * PaperCommReduction(fam.name));
      }
    }
  }
  return means;
}

}  // namespace

int RunFig10Command(const Fig10Options& o) {
  std::vector<train::Workload> ws;
  for (const auto& name : o.workloads) ws.push_back(train::LoadWorkload(train::WorkloadPath(name)));
  if (ws.empty()) {
    throw std::invalid_argument(fmt::format("--workloads: name at least one of {}",
                                            fmt::join(train::ShippedWorkloads(), ", ")));
  }
  const Assumptions& as = PresetAssumptions(o.preset);
  const bool paper = &as == &kPaperAssumptions;  // the decomposition steps toward it
  const train::CostTable table(CostPath(o.costs));
  std::string csv =
      "k,family,workload,topology,algorithm,iteration_us,compute_us,comm_us,exposed_us,aries_"
      "speedup,"
      "comm_reduction,paper_speedup,preset\n";
  fmt::print(
      "ARIES Fig. 10: execution time of one data-parallel training iteration (all-reduce per "
      "layer, "
      "overlapped with back-propagation), ARIES speedup over each topology; collective times from "
      "{} "
      "(cycle-accurate runs of this simulator); paper: ARIES V-B\n",
      table.path());
  fmt::print(
      "Package: 2-stage routers, 4 VCs x 32 flits, 10-cycle hops and 64 B/cycle links, as the "
      "paper's (V: 10 ns hops, 68 GB/s at 1 GHz)\n{}\n",
      PresetLine(as));
  const auto means = Fig10Tables(o, ws, table, as, false, &csv);
  if (paper) {
    // What each assumption explains: the same tables under ours, then with only the baselines'
    // ring mapping changed, and the ratios between the steps.
    std::string unused;
    const auto ours = Fig10Tables(o, ws, table, kOurAssumptions, true, &unused);
    const auto mapped = Fig10Tables(o, ws, table, kRankBaselines, true, &unused);
    // The paper does not state its batches: the same preset with one sample per chiplet, the
    // most communication-bound iteration, bounds what the batch can explain.
    Fig10Options one = o;
    one.batch = 1;
    const auto bound = Fig10Tables(one, ws, table, kPaperAssumptions, true, &unused);
    fmt::print(
        "\nDecomposition of the paper's speedups over mesh / torus / fbfly / Adapt-NoC (geometric "
        "means over the workloads): ours under our assumptions, the factor the paper's baseline "
        "ring mapping adds (rank-order baselines / ours), the factor ARIES's second local port "
        "adds (paper preset / rank-order baselines), the most the unstated batch can add (the "
        "paper preset at batch 1 per chiplet, communication-bound, / at {}), and what remains "
        "unexplained (paper / paper preset at batch 1)\n\n"
        "| family | K | ours | x baseline ring mapping | x endpoint bandwidth | = paper preset | "
        "x batch 1 | = paper preset, batch 1 | paper (V-B) | unexplained |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n",
        o.batch ? fmt::format("batch {}", o.batch) : "the reference batches");
    for (size_t i = 0; i < means.size(); ++i) {
      const Fig10Mean& p = means[i];
      const Fig10Mean& d = ours[i];
      const Fig10Mean& m = mapped[i];
      const Fig10Mean& b = bound[i];
      const PaperSpeedup* ref = PaperFor(p.family, p.k);
      double map[kBaselines], ports[kBaselines], batch[kBaselines], rest[kBaselines];
      for (int t = 0; t < kBaselines; ++t) {
        map[t] = m.speedup[t] / d.speedup[t];
        ports[t] = p.speedup[t] / m.speedup[t];
        batch[t] = b.speedup[t] / p.speedup[t];
        rest[t] = ref ? ref->vs[t] / b.speedup[t] : 0;
      }
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", p.family, p.k,
                 Per(d.speedup), Per(map), Per(ports), Per(p.speedup), Per(batch), Per(b.speedup),
                 ref ? Per(ref->vs) : "-", ref ? Per(rest) : "-");
    }
    fmt::print("\n");
  }
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig10", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
