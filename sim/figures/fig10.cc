// `aries fig10`: ARIES section V-B Fig. 10, the execution-time speedup of ARIES over mesh,
// torus, the flattened butterfly and Adapt-NoC per all-reduce family, from the training-time
// model (sim/train) with collective times from the measured cost models.
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
#include "figures.h"
#include "files.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "streams.h"
#include "train_run.h"
#include "workload.h"

namespace aries::sim {

Fig10Options Fig10Request(const Config& c, Fig10Options o) {
  o.batch = static_cast<unsigned>(KeyUint(c, "train.batch"));
  o.utilization = KeyReal(c, "train.utilization");
  o.costs = c.Get("coll.costs");
  o.preset = KeyWord(c, "eval.preset");
  return o;
}

namespace {

struct Family {
  const char* name;
  const char* label;
  std::vector<std::string> baseline;  // algorithms on mesh, torus, fbfly
  std::vector<std::string> aries;     // algorithms ARIES may configure (the best is taken)
};

// Whether ARIES's candidates of `family` include a concentrating algorithm (cmtree).
bool Concentrating(const std::string& family) {
  for (const coll::AlgorithmInfo* a : coll::AriesCandidates(family)) {
    if (a->concentrates) return true;
  }
  return false;
}

// Whether ARIES's candidates of `family` include a tree over the ranks (dbt), the same tree
// edges on every topology: the dedicated-link step measures it on the butterfly.
bool RankTree(const std::string& family) {
  for (const coll::AlgorithmInfo* a : coll::AriesCandidates(family)) {
    if (a->rank_tree) return true;
  }
  return false;
}

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
  for (int i = 0; i < kBaselines; ++i) {
    s += (i ? " / " : "") + UnsignedZero(fmt::format(fmt::runtime(fmt_one), v[i]));
  }
  return s;
}

// The four baselines' values `v` as table cells ("a | b | c | d"; "-" in each unless `shown`).
std::string Cells(const double* v, bool shown = true) {
  std::string s;
  for (int i = 0; i < kBaselines; ++i) {
    s += (i ? " | " : "") + (shown ? UnsignedZero(fmt::format("{:.2f}", v[i])) : std::string("-"));
  }
  return s;
}

// One row of the decomposition or the ceiling for a family and K: its name and its value over
// each baseline (kTopos order; "-" in each unless `shown`).
struct StepRow {
  const char* name;
  const double* v;
  bool shown;
};

// Prints `rows` of family `family` on K x K, one table line each.
void PrintStepRows(const std::string& family, unsigned k, const std::vector<StepRow>& rows) {
  for (const StepRow& r : rows) {
    fmt::print("| {} | {} | {} | {} |\n", family, k, r.name, Cells(r.v, r.shown));
  }
}

// The geometric-mean speedups of ARIES over the baselines (kTopos) of one family on K x K.
struct Fig10Mean {
  std::string family;
  unsigned k = 0;
  double speedup[kBaselines] = {0, 0, 0, 0};
  // The same of the iteration's communication alone (communication time over ARIES's): the
  // iteration speedup as compute goes to nothing.
  double comm_speedup[kBaselines] = {0, 0, 0, 0};
  double reduction[kBaselines] = {0, 0, 0, 0};  // the mean communication reduction, %
};

// A topology's best iteration and the algorithms it ran ("ALGO xN + ...").
struct Best {
  train::Iteration it;
  std::string algo;
};

// What one assumption set's tables measure with: the request, the assumptions, the chiplet and
// the costs (`at_bound`: the same at their bound, for the roles `as` puts there).
struct Fig10Setting {
  const Fig10Options& o;
  const Assumptions& as;
  const train::CostTable& measured;
  const train::CostTable* at_bound;
  train::Chiplet chip;
};

using PackagedCandidate = std::pair<coll::Geometry, coll::Candidate>;

// The candidates of `algos` that `table` measured on `packages` (K x K; ARIES's when `aries`,
// Adapt-NoC's sub-networks when `adapt`) and `as` admits, ARIES's rank-order trees on the
// butterfly's links when `as` dedicates them; ties go to the family's first algorithm (the plain
// ring, the plain multi-tree).
std::vector<PackagedCandidate> TopologyCandidates(const train::CostTable& table,
                                                  const std::vector<std::string>& algos,
                                                  const std::vector<coll::Topology>& packages,
                                                  bool aries, bool adapt, unsigned k,
                                                  const Assumptions& as) {
  std::vector<PackagedCandidate> cands;
  // The family's measured candidates on `geom` that `keep` accepts.
  auto add = [&](const coll::Geometry& geom, auto keep) {
    for (const coll::Candidate& cand : table.Candidates(coll::Collective::kAllReduce, geom)) {
      if (std::find(algos.begin(), algos.end(), cand.algo) != algos.end() && keep(cand))
        cands.push_back({geom, cand});
    }
  };
  // ARIES with a link per tree edge: its rank-tree algorithms on the butterfly's links.
  const bool links = aries && as.dedicated_tree_links;
  auto dedicated = [&](const coll::Candidate& cand) {
    const coll::AlgorithmInfo* a = coll::FindAlgorithm(cand.algo);
    return links && a && a->rank_tree;
  };
  for (const coll::Topology pt : packages) {
    add(adapt ? AdaptNocPackage(pt, k) : PresetPackage(pt, k, as),
        [&](const coll::Candidate& c) { return PresetAdmits(c, !aries, as) && !dedicated(c); });
  }
  if (links) add(DedicatedTreeLinksPackage(k, as), dedicated);
  std::stable_sort(cands.begin(), cands.end(), [&](const auto& x, const auto& y) {
    return std::find(algos.begin(), algos.end(), x.second.algo) <
           std::find(algos.begin(), algos.end(), y.second.algo);
  });
  return cands;
}

// The refusal when `table` has no all-reduce costs of `algos` on `geom` (`rank`: the rank-order
// ring the paper preset needs): what is missing and, off the sweep's default geometry, the sweep
// that measures it.
std::invalid_argument NoCostsError(const train::CostTable& table,
                                   const std::vector<std::string>& algos,
                                   const coll::Geometry& geom, bool rank, unsigned k) {
  const bool ports = geom.local_ports != 1;
  const bool pitch = geom.extra_per_pitch != coll::Geometry{}.extra_per_pitch;
  return std::invalid_argument(fmt::format(
      "{}: no all-reduce costs of {}{} on {}{}", table.path(), fmt::join(algos, "/"),
      rank ? " (the rank-order ring the paper preset needs)" : "", coll::GeometryLabel(geom),
      rank || ports || pitch
          ? fmt::format(
                "; measure them with aries coll-sweep -k {} --algos {} "
                "--topologies {}{}{} --csv FILE",
                k, fmt::join(algos, ","), coll::TopologyName(geom.topology),
                ports ? fmt::format(" --set node.local_ports={}", geom.local_ports) : "",
                pitch ? fmt::format(" --set package.extra_per_pitch={}", geom.extra_per_pitch) : "")
          : ""));
}

// Workload `w`'s iteration on topology `t` (kTopos) with family `fam` on K x K: each all-reduce
// the cheapest of the topology's candidates at its size.
Best BestOn(const char* t, const Family& fam, unsigned k, const train::Workload& w,
            const Fig10Setting& s) {
  const bool aries = std::string(t) == "aries";
  const bool adapt = std::string(t) == kAdaptNoc;
  const auto& algos = aries ? fam.aries : fam.baseline;
  const bool ideal = (aries && s.as.aries_at_bound) || (adapt && s.as.adapt_at_bound);
  if (ideal && !s.at_bound) throw std::logic_error("Fig10Tables: no costs at the bound");
  const train::CostTable& table = ideal ? *s.at_bound : s.measured;
  // Adapt-NoC: the candidates of every sub-network it forms.
  const std::vector<coll::Topology> packages =
      adapt ? AdaptNocSubnetworks() : std::vector<coll::Topology>{*coll::ParseTopology(t)};
  const auto cands = TopologyCandidates(table, algos, packages, aries, adapt, k, s.as);
  if (cands.empty()) {
    throw NoCostsError(
        table, algos, adapt ? AdaptNocPackage(packages[0], k) : PresetPackage(packages[0], k, s.as),
        s.as.rank_baselines && !aries, k);
  }
  train::IterationOptions io;
  io.chiplets = k * k;
  io.batch = s.o.batch;
  io.embedding_exchange = false;  // the paper's figure compares all-reduce algorithms
  auto used = std::make_shared<std::map<std::string, unsigned>>();
  const auto cost = table.CheapestOf(
      cands, s.chip, {coll::Collective::kAllReduce}, used, "all",
      adapt ? [](const coll::Geometry& g) { return AdaptNocSubnetworkName(g.topology); }
            : std::function<std::string(const coll::Geometry&)>());
  Best b{train::RunIteration(w, s.chip, io, cost), ""};
  // No commas: the label is a CSV field.
  for (const auto& [label, n] : *used)
    b.algo += fmt::format("{}{} x{}", b.algo.empty() ? "" : " + ", label, n);
  return b;
}

// One workload's row of a family's table: every topology's iteration (kTopos order, ARIES
// last), and ARIES's speedup and communication reduction (%) over each baseline.
struct Fig10Row {
  Best best[kBaselines + 1];
  double speedup[kBaselines], reduction[kBaselines];
};

// Measures workload `w`'s row of family `fam` on K x K; throws when ARIES's iteration has no
// all-reduce to compare.
Fig10Row MeasureWorkload(const Family& fam, unsigned k, const train::Workload& w,
                         const Fig10Setting& s) {
  Fig10Row r;
  for (int i = 0; i <= kBaselines; ++i) r.best[i] = BestOn(kTopos[i], fam, k, w, s);
  const Best& a = r.best[kBaselines];
  if (a.it.collectives == 0 || a.it.time <= 0) {
    throw std::invalid_argument(
        fmt::format("workload {}: no gradient all-reduce under ddp (every layer "
                    "sharded or without parameters); nothing to compare",
                    w.name));
  }
  for (int i = 0; i < kBaselines; ++i) {
    r.speedup[i] = r.best[i].it.time / a.it.time;
    r.reduction[i] = 100 * (1.0 - a.it.comm_busy / r.best[i].it.comm_busy);
  }
  return r;
}

// The running sums of a family's rows over the workloads.
struct Fig10Sums {
  double logsum[kBaselines] = {0, 0, 0, 0}, comm_red[kBaselines] = {0, 0, 0, 0};
  double comm_logsum[kBaselines] = {0, 0, 0, 0};

  void Add(const Fig10Row& r) {
    const Best& a = r.best[kBaselines];
    for (int i = 0; i < kBaselines; ++i) {
      logsum[i] += std::log(r.speedup[i]);
      comm_red[i] += r.reduction[i];
      comm_logsum[i] += std::log(r.best[i].it.comm_busy / a.it.comm_busy);
    }
  }
  // The means of family `family` on K x K over `n` workloads.
  Fig10Mean Mean(const std::string& family, unsigned k, size_t count) const {
    const double n = static_cast<double>(count);
    Fig10Mean mean{family, k};
    for (int i = 0; i < kBaselines; ++i) {
      mean.speedup[i] = std::exp(logsum[i] / n);
      mean.comm_speedup[i] = std::exp(comm_logsum[i] / n);
      mean.reduction[i] = comm_red[i] / n;
    }
    return mean;
  }
};

// Prints the title and head of family `fam`'s table on K x K.
void PrintTableHead(const Family& fam, unsigned k) {
  fmt::print(
      "\n{} on {}x{}:\n\n| workload | ARIES us | speedup vs mesh / torus / fbfly / Adapt-NoC | "
      "communication reduced |\n|---|---|---|---|\n",
      fam.label, k, k);
}

// Prints workload `w`'s row (every topology's time and algorithm are the CSV's).
void PrintWorkloadRow(const train::Workload& w, const Fig10Row& r) {
  fmt::print("| {} | {} | {} | {} |\n", w.name, Us(r.best[kBaselines].it.time), Per(r.speedup),
             Per(r.reduction, "{:.0f}%"));
}

// Prints the table's last rows, ours and the paper's means, and where the other columns are.
void PrintTableFoot(const Fig10Mean& mean, const PaperSpeedup* paper) {
  fmt::print("| geometric mean (ours) | | {} | {} (mean) |\n", Per(mean.speedup),
             Per(mean.reduction, "{:.0f}%"));
  if (paper) {
    fmt::print("| paper (V-B) | | {} | {:.1f}% (average over the networks) |\n", Per(paper->vs),
               100 * PaperCommReduction(mean.family));
  }
  fmt::print("\n{}\n", kAllColumnsLine);
}

// Workload `w`'s CSV rows of family `fam` on K x K: one per topology, ARIES last.
std::string WorkloadCsvRows(unsigned k, const Family& fam, const train::Workload& w,
                            const Fig10Row& r, const PaperSpeedup* paper, const Fig10Setting& s) {
  std::string csv;
  const Best& a = r.best[kBaselines];
  for (int i = 0; i <= kBaselines; ++i) {
    const Best& b = r.best[i];
    const double pv = i == kBaselines || !paper ? 0 : paper->vs[i];
    csv += fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f},{:.4f},{},{},{}\n", k,
                       fam.name, w.name, kTopos[i], b.algo, b.it.time / 1000,
                       b.it.compute_busy / 1000, b.it.comm_busy / 1000, b.it.exposed_comm / 1000,
                       b.it.time / a.it.time, 1.0 - a.it.comm_busy / b.it.comm_busy,
                       pv > 0 ? fmt::format("{:.2f}", pv) : "", s.as.name, BatchOf(s.o.batch, w));
  }
  return csv;
}

// Family `fam`'s table on K x K over the workloads (printed unless `quiet`; rows appended to
// `csv`); returns its geometric means.
Fig10Mean FamilyTable(const Family& fam, unsigned k, const std::vector<train::Workload>& ws,
                      const Fig10Setting& s, bool quiet, std::string* csv) {
  const PaperSpeedup* paper = PaperFor(fam.name, k);
  if (!quiet) PrintTableHead(fam, k);
  Fig10Sums sums;
  for (const train::Workload& w : ws) {
    const Fig10Row r = MeasureWorkload(fam, k, w, s);
    sums.Add(r);
    if (!quiet) PrintWorkloadRow(w, r);
    *csv += WorkloadCsvRows(k, fam, w, r, paper, s);
  }
  const Fig10Mean mean = sums.Mean(fam.name, k, ws.size());
  if (!quiet) PrintTableFoot(mean, paper);
  return mean;
}

// One assumption set's tables (printed unless `quiet`; rows appended to `csv`); returns the
// geometric means per family and K.
// `at_bound`: the same costs at their bound (train::CostTable::AtBound), for the roles `as`
// puts there (needed when it puts any).
std::vector<Fig10Mean> Fig10Tables(const Fig10Options& o, const std::vector<train::Workload>& ws,
                                   const train::CostTable& measured, const Assumptions& as,
                                   bool quiet, std::string* csv,
                                   const train::CostTable* at_bound = nullptr) {
  const Fig10Setting s{o, as, measured, at_bound, ChipletWith(o.utilization)};
  std::vector<Fig10Mean> means;
  for (const Family& fam : Families()) {
    for (unsigned k : o.ks) means.push_back(FamilyTable(fam, k, ws, s, quiet, csv));
  }
  return means;
}

// The workloads `o` names, loaded; refuses an empty list.
std::vector<train::Workload> LoadWorkloads(const Fig10Options& o) {
  std::vector<train::Workload> ws;
  for (const auto& name : o.workloads)
    ws.push_back(train::LoadWorkload(
        CheckInputFile(train::WorkloadPath(name), "train.workload", kSmallInputLimit)));
  if (ws.empty()) {
    throw std::invalid_argument(fmt::format("--workloads: name at least one of {}",
                                            fmt::join(train::ShippedWorkloads(), ", ")));
  }
  return ws;
}

// Prints what the figure measures, where its costs come from, the package, the assumptions and
// the batches.
void PrintFig10Preamble(const Fig10Options& o, const std::vector<train::Workload>& ws,
                        const train::CostTable& table, const Assumptions& as) {
  fmt::print(
      "ARIES Fig. 10: execution time of one data-parallel training iteration (all-reduce per "
      "layer, "
      "overlapped with back-propagation), ARIES speedup over each topology; collective times from "
      "{} "
      "(cycle-accurate runs of this simulator); paper: ARIES V-B\n",
      CostFileLabel(table.path()));
  fmt::print(
      "Package: 2-stage routers, 4 VCs x 32 flits, 10-cycle hops and 64 B/cycle links, as the "
      "paper's (V: 10 ns hops, 68 GB/s at 1 GHz)\n{}\n",
      PresetLine(as));
  std::string batches;
  for (const train::Workload& w : ws)
    batches += fmt::format("{}{} {}", batches.empty() ? "" : ", ", w.name, BatchOf(o.batch, w));
  fmt::print(
      "Batch per chiplet ({}): {}; all-reduces only (the embedding tables' all-to-all left out: "
      "the figure compares all-reduce algorithms)\n",
      o.batch ? "--batch" : "each workload's reference batch", batches);
}

// The geometric means of the decomposition's steps toward the paper preset, each in the paper
// preset's tables' order.
struct Fig10Steps {
  std::vector<Fig10Mean> ours;        // our assumptions
  std::vector<Fig10Mean> mapped;      // only the baselines' ring mapping changed
  std::vector<Fig10Mean> bound;       // the paper preset at batch 1
  std::vector<Fig10Mean> one_hop;     // ... with ARIES's segments at one hop's latency
  std::vector<Fig10Mean> unconc;      // ... without ARIES's concentrated algorithms
  std::vector<Fig10Mean> tree_links;  // ... with a link per tree edge (Fig. 7(c))
};

// The request `o` at one sample per chiplet.
Fig10Options AtBatchOne(Fig10Options o) {
  o.batch = 1;
  return o;
}

// Measures the decomposition's steps (nothing printed).
Fig10Steps MeasureSteps(const Fig10Options& o, const std::vector<train::Workload>& ws,
                        const train::CostTable& table) {
  std::string unused;
  Fig10Steps s;
  // What each assumption explains: the same tables under ours, then with only the baselines'
  // ring mapping changed.
  s.ours = Fig10Tables(o, ws, table, kOurAssumptions, true, &unused);
  s.mapped = Fig10Tables(o, ws, table, kRankBaselines, true, &unused);
  // The paper does not state its batches: the same preset with one sample per chiplet, the
  // most communication-bound iteration, bounds what the batch can explain.
  const Fig10Options one = AtBatchOne(o);
  s.bound = Fig10Tables(one, ws, table, kPaperAssumptions, true, &unused);
  // Two assumptions the paper leaves open, at batch 1: ARIES's segments at one hop's latency,
  // and what ARIES's concentrated algorithms add (the preset without them).
  s.one_hop = Fig10Tables(one, ws, table, kPaperOneHopSegments, true, &unused);
  s.unconc = Fig10Tables(one, ws, table, kPaperUnconcentrated, true, &unused);
  // A link per tree edge (Fig. 7(c)), at batch 1: the preset with ARIES's double binary tree
  // on the butterfly's links at ARIES's two local ports, over the same without.
  s.tree_links = Fig10Tables(one, ws, table, kPaperDedicatedTreeLinks, true, &unused);
  return s;
}

// The batch-1 iterations of row `i` with every step taken: with the tree links where the
// family has them.
const Fig10Mean& LastStep(const Fig10Steps& s, size_t i) {
  return RankTree(s.bound[i].family) ? s.tree_links[i] : s.bound[i];
}

// The factors of one decomposition row, per baseline (the columns PrintDecomposition names).
struct DecompositionRow {
  double map[kBaselines], ports[kBaselines], batch[kBaselines], hop[kBaselines], links[kBaselines],
      rest[kBaselines], conc[kBaselines], no_compute[kBaselines], rest_comm[kBaselines];
};

// Decomposes row `i` of the paper preset's means `p` into the steps `s`.
DecompositionRow Decompose(const Fig10Mean& p, const Fig10Steps& s, size_t i) {
  const Fig10Mean& d = s.ours[i];
  const Fig10Mean& m = s.mapped[i];
  const Fig10Mean& b = s.bound[i];
  const Fig10Mean& h = s.one_hop[i];
  const Fig10Mean& u = s.unconc[i];
  const PaperSpeedup* ref = PaperFor(p.family, p.k);
  const bool tree = RankTree(p.family);
  const Fig10Mean& last = LastStep(s, i);
  DecompositionRow r;
  for (int t = 0; t < kBaselines; ++t) {
    r.map[t] = m.speedup[t] / d.speedup[t];
    r.ports[t] = p.speedup[t] / m.speedup[t];
    r.batch[t] = b.speedup[t] / p.speedup[t];
    r.hop[t] = h.speedup[t] / b.speedup[t];
    r.links[t] = tree ? s.tree_links[i].speedup[t] / b.speedup[t] : 1.0;
    r.rest[t] = ref ? ref->vs[t] / (h.speedup[t] * r.links[t]) : 0;
    r.conc[t] = b.speedup[t] / u.speedup[t];
    r.no_compute[t] = last.comm_speedup[t] / last.speedup[t];
    r.rest_comm[t] = ref ? ref->vs[t] / (r.hop[t] * last.comm_speedup[t]) : 0;
  }
  return r;
}

// Prints what the decomposition measures and its table's head (`o`: the batches it starts
// from).
void PrintDecompositionHead(const Fig10Options& o) {
  fmt::print(
      "\nDecomposition of the paper's speedups over mesh / torus / fbfly / Adapt-NoC (geometric "
      "means over the workloads; one row per family, K and step, each baseline a column): ours "
      "under our assumptions, the factor the paper's baseline "
      "ring mapping adds (rank-order baselines / ours), the factor ARIES's second local port "
      "adds (paper preset / rank-order baselines), the most the unstated batch can add (the "
      "paper preset at batch 1 per chiplet, communication-bound, / at {}), the factor ARIES's "
      "bypass segments at one hop's latency add (package.extra_per_pitch 0 on ARIES / 1, at "
      "batch 1), the factor a link of its own for every tree edge adds (Fig. 7(c): ARIES's "
      "double binary tree on the butterfly's per-pair links at its two local ports / on ARIES, "
      "batch 1; - for a family without such a tree), and what remains "
      "unexplained (paper / all of these); beside the paper preset at batch 1, the part of it "
      "ARIES's concentrated multi-tree gives (with / without cmtree among ARIES's candidates; - "
      "for a family without a concentrated algorithm); last, the same iterations' "
      "communication alone: the factor removing every computation adds (the communication "
      "time's ratio over the iteration's, with the tree links where the family has them; the "
      "limit of a batch going to nothing) and what the paper's figure leaves even then (paper "
      "/ one-hop segments / communication alone)\n\n"
      "| family | K | step | mesh | torus | fbfly | Adapt-NoC |\n"
      "|---|---|---|---|---|---|---|\n",
      o.batch ? fmt::format("batch {}", o.batch) : "the reference batches");
}

// Prints the decomposition of the paper's speedups `means` (the paper preset's) into `s`.
void PrintDecomposition(const Fig10Options& o, const std::vector<Fig10Mean>& means,
                        const Fig10Steps& s) {
  PrintDecompositionHead(o);
  for (size_t i = 0; i < means.size(); ++i) {
    const Fig10Mean& p = means[i];
    const PaperSpeedup* ref = PaperFor(p.family, p.k);
    const DecompositionRow r = Decompose(p, s, i);
    PrintStepRows(p.family, p.k,
                  {{"ours", s.ours[i].speedup, true},
                   {"x baseline ring mapping", r.map, true},
                   {"x endpoint bandwidth", r.ports, true},
                   {"= paper preset", p.speedup, true},
                   {"x batch 1", r.batch, true},
                   {"= paper preset, batch 1", s.bound[i].speedup, true},
                   {"of which concentration", r.conc, Concentrating(p.family)},
                   {"x one-hop segments", r.hop, true},
                   {"x dedicated tree links", r.links, RankTree(p.family)},
                   {"paper (V-B)", ref ? ref->vs : nullptr, ref != nullptr},
                   {"unexplained", r.rest, ref != nullptr},
                   {"x no compute", r.no_compute, true},
                   {"unexplained, no compute", r.rest_comm, ref != nullptr}});
  }
}

// The ceiling's geometric means, at batch 1, in the paper preset's tables' order.
struct Fig10Ceiling {
  std::vector<Fig10Mean> ceiling;      // every step, ARIES's collectives at their bound
  std::vector<Fig10Mean> adapt_floor;  // Adapt-NoC's sub-networks at their bound
};

// Measures the ceiling (nothing printed).
Fig10Ceiling MeasureCeiling(const Fig10Options& o, const std::vector<train::Workload>& ws,
                            const train::CostTable& table) {
  // The ceiling: what is left once ARIES's collectives run at their bound (no planner of the
  // same algorithms on the same package does better) is the baselines' part; Adapt-NoC's
  // floor: any of its sub-networks at the bound (its concentrated mesh, not modelled, too).
  std::string unused;
  const Fig10Options one = AtBatchOne(o);
  const train::CostTable at_bound = table.AtBound();
  Fig10Ceiling c;
  c.ceiling = Fig10Tables(one, ws, table, kPaperAriesAtBound, true, &unused, &at_bound);
  c.adapt_floor = Fig10Tables(one, ws, table, kPaperAdaptAtBound, true, &unused, &at_bound);
  return c;
}

// The ceiling's columns of one row, per baseline (the columns PrintCeiling names).
struct CeilingRow {
  double gain[kBaselines], top[kBaselines], left[kBaselines], top_comm[kBaselines],
      left_comm[kBaselines];
};

// The ceiling of row `i` over the decomposition's steps `s`.
CeilingRow CeilingOf(const Fig10Ceiling& ceil, const Fig10Steps& s, size_t i) {
  const Fig10Mean& c = ceil.ceiling[i];
  const Fig10Mean& last = LastStep(s, i);
  const PaperSpeedup* ref = PaperFor(c.family, c.k);
  CeilingRow r;
  for (int t = 0; t < kBaselines; ++t) {
    // Over every step before it (the decomposition's product: one-hop segments and tree
    // links), measured together with them.
    const double hop = s.one_hop[i].speedup[t] / s.bound[i].speedup[t];
    r.gain[t] = c.speedup[t] / (last.speedup[t] * hop);
    r.top[t] = c.speedup[t];
    r.top_comm[t] = c.comm_speedup[t];
    r.left[t] = ref ? ref->vs[t] / r.top[t] : 0;
    r.left_comm[t] = ref ? ref->vs[t] / r.top_comm[t] : 0;
  }
  return r;
}

// Prints what the ceiling measures and its table's head.
void PrintCeilingHead() {
  fmt::print(
      "\nThe ceiling (batch 1, every step above, one-hop segments and tree links measured with "
      "it; one row per family, K and quantity, each baseline a column): ARIES's collectives at "
      "their bandwidth bound (each measured algorithm at its "
      "endpoint bound plus the least overhead it paid at any measured size, never below its "
      "cycles at the smallest, its latency, nor above what it measured: "
      "coll::CostModel::AtBound), the factor that adds over the decomposition's steps, the "
      "speedup it gives (the ceiling), and the part of the paper's speedup left above it: what "
      "the paper's baselines must be slower than ours for the paper's figure (paper / ceiling; "
      "below 1.00 where the ceiling passes the paper), for the whole iteration and for its "
      "communication alone; last, ARIES over Adapt-NoC with every sub-network at that bound "
      "(no sub-network of one local port per chiplet, its concentrated mesh included, streams "
      "faster; one with fewer hops could still shorten the small all-reduces), beside ARIES "
      "over the modelled Adapt-NoC\n\n"
      "| family | K | quantity | mesh | torus | fbfly | Adapt-NoC |\n"
      "|---|---|---|---|---|---|---|\n");
}

// Prints the ceiling table: for each family and K of the decomposition's steps `s`, its rows.
void PrintCeiling(const Fig10Steps& s, const Fig10Ceiling& ceil) {
  PrintCeilingHead();
  constexpr int kAdapt = kBaselines - 1;
  for (size_t i = 0; i < ceil.ceiling.size(); ++i) {
    const Fig10Mean& c = ceil.ceiling[i];
    const PaperSpeedup* ref = PaperFor(c.family, c.k);
    const CeilingRow r = CeilingOf(ceil, s, i);
    PrintStepRows(c.family, c.k,
                  {{"x ARIES at its bound", r.gain, true},
                   {"ceiling", r.top, true},
                   {"paper (V-B)", ref ? ref->vs : nullptr, ref != nullptr},
                   {"left to the baselines", r.left, ref != nullptr},
                   {"ceiling, communication", r.top_comm, true},
                   {"left to the baselines, communication", r.left_comm, ref != nullptr}});
    fmt::print("| {} | {} | over Adapt-NoC at its bound | - | - | - | {:.2f} |\n", c.family, c.k,
               ceil.adapt_floor[i].speedup[kAdapt]);
    fmt::print("| {} | {} | over the modelled Adapt-NoC | - | - | - | {:.2f} |\n", c.family, c.k,
               LastStep(s, i).speedup[kAdapt]);
  }
  fmt::print("\n");
}

// The paper preset's decomposition and its ceiling, measured and printed after its tables
// (`means`).
void DecomposePaperSpeedups(const Fig10Options& o, const std::vector<train::Workload>& ws,
                            const train::CostTable& table, const std::vector<Fig10Mean>& means) {
  const Fig10Steps steps = MeasureSteps(o, ws, table);
  PrintDecomposition(o, means, steps);
  PrintCeiling(steps, MeasureCeiling(o, ws, table));
}

}  // namespace

int RunFig10Command(const Fig10Options& o) {
  const std::vector<train::Workload> ws = LoadWorkloads(o);
  const Assumptions& as = PresetAssumptions(o.preset);
  const train::CostTable table(CostPath(o.costs));
  std::string csv =
      "k,family,workload,topology,algorithm,iteration_us,compute_us,comm_us,exposed_us,aries_"
      "speedup,"
      "comm_reduction,paper_speedup,preset,batch\n";
  PrintFig10Preamble(o, ws, table, as);
  const auto means = Fig10Tables(o, ws, table, as, false, &csv);
  // The decomposition steps toward the paper preset.
  if (&as == &kPaperAssumptions) DecomposePaperSpeedups(o, ws, table, means);
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig10", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
