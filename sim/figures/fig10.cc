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
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "streams.h"
#include "train_run.h"
#include "workload.h"

namespace aries::sim {

Fig10Options Fig10Request(const Config& c, Fig10Options o) {
  o.batch = static_cast<unsigned>(KeyUint(c, "train.batch", 0, 1u << 20));
  o.utilization = KeyReal(c, "train.utilization", 0, 1);
  if (!(o.utilization > 0)) BadKey(c, "train.utilization");
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

// The geometric-mean speedups of ARIES over the baselines (kTopos) of one family on K x K.
struct Fig10Mean {
  std::string family;
  unsigned k = 0;
  double speedup[kBaselines] = {0, 0, 0, 0};
  // The same of the iteration's communication alone (communication time over ARIES's): the
  // iteration speedup as compute goes to nothing.
  double comm_speedup[kBaselines] = {0, 0, 0, 0};
};

// One assumption set's tables (printed unless `quiet`; rows appended to `csv`); returns the
// geometric means per family and K.
// `at_bound`: the same costs at their bound (train::CostTable::AtBound), for the roles `as`
// puts there (needed when it puts any).
std::vector<Fig10Mean> Fig10Tables(const Fig10Options& o, const std::vector<train::Workload>& ws,
                                   const train::CostTable& measured, const Assumptions& as,
                                   bool quiet, std::string* csv,
                                   const train::CostTable* at_bound = nullptr) {
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
      double comm_logsum[kBaselines] = {0, 0, 0, 0};
      for (const train::Workload& w : ws) {
        train::IterationOptions io;
        io.chiplets = k * k;
        io.batch = o.batch;
        io.embedding_exchange = false;  // the paper's figure compares all-reduce algorithms
        struct Best {
          train::Iteration it;
          std::string algo;
        };
        std::map<std::string, Best> best;
        for (const char* t : kTopos) {
          const bool aries = std::string(t) == "aries";
          const bool adapt = std::string(t) == kAdaptNoc;
          const auto& algos = aries ? fam.aries : fam.baseline;
          const bool ideal = (aries && as.aries_at_bound) || (adapt && as.adapt_at_bound);
          if (ideal && !at_bound) throw std::logic_error("Fig10Tables: no costs at the bound");
          const train::CostTable& table = ideal ? *at_bound : measured;
          // Adapt-NoC: the candidates of every sub-network it forms.
          const std::vector<coll::Topology> packages =
              adapt ? AdaptNocSubnetworks() : std::vector<coll::Topology>{*coll::ParseTopology(t)};
          std::vector<std::pair<coll::Geometry, coll::Candidate>> cands;
          // The family's measured candidates on `geom` that `keep` accepts.
          auto add = [&](const coll::Geometry& geom, auto keep) {
            for (const coll::Candidate& cand :
                 table.Candidates(coll::Collective::kAllReduce, geom)) {
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
                [&](const coll::Candidate& c) {
                  return PresetAdmits(c, !aries, as) && !dedicated(c);
                });
          }
          if (links) add(DedicatedTreeLinksPackage(k, as), dedicated);
          // Ties go to the family's first algorithm (the plain ring, the plain multi-tree).
          std::stable_sort(cands.begin(), cands.end(), [&](const auto& x, const auto& y) {
            return std::find(algos.begin(), algos.end(), x.second.algo) <
                   std::find(algos.begin(), algos.end(), y.second.algo);
          });
          if (cands.empty()) {
            const coll::Geometry geom =
                adapt ? AdaptNocPackage(packages[0], k) : PresetPackage(packages[0], k, as);
            const bool rank = as.rank_baselines && !aries;
            const bool ports = geom.local_ports != 1;
            const bool pitch = geom.extra_per_pitch != coll::Geometry{}.extra_per_pitch;
            throw std::invalid_argument(fmt::format(
                "{}: no all-reduce costs of {}{} on {}{}", table.path(), fmt::join(algos, "/"),
                rank ? " (the rank-order ring the paper preset needs)" : "",
                coll::GeometryLabel(geom),
                rank || ports || pitch
                    ? fmt::format(
                          "; measure them with aries coll-sweep -k {} --algos {} "
                          "--topologies {}{}{} --csv FILE",
                          k, fmt::join(algos, ","), coll::TopologyName(geom.topology),
                          ports ? fmt::format(" --set node.local_ports={}", geom.local_ports) : "",
                          pitch ? fmt::format(" --set package.extra_per_pitch={}",
                                              geom.extra_per_pitch)
                                : "")
                    : ""));
          }
          auto used = std::make_shared<std::map<std::string, unsigned>>();
          const auto cost = table.CheapestOf(
              cands, chip, {coll::Collective::kAllReduce}, used, "all",
              adapt ? [](const coll::Geometry& g) { return AdaptNocSubnetworkName(g.topology); }
                    : std::function<std::string(const coll::Geometry&)>());
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
          comm_logsum[i] += std::log(b.it.comm_busy / a.it.comm_busy);
        }
        print("| {} | {} | {} | {} | {} ({}) | {} ({}) | {} | {} |\n", w.name,
              Us(best["mesh"].it.time), Us(best["torus"].it.time), Us(best["fbfly"].it.time),
              Us(best[kAdaptNoc].it.time), best[kAdaptNoc].algo, Us(a.it.time), a.algo, Per(sp),
              Per(red, "{:.0f}%"));
        for (int i = 0; i <= kBaselines; ++i) {
          const Best& b = best[kTopos[i]];
          const double pv = i == kBaselines || !paper ? 0 : paper->vs[i];
          *csv +=
              fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.4f},{:.4f},{},{},{}\n", k,
                          fam.name, w.name, kTopos[i], b.algo, b.it.time / 1000,
                          b.it.compute_busy / 1000, b.it.comm_busy / 1000, b.it.exposed_comm / 1000,
                          b.it.time / a.it.time, 1.0 - a.it.comm_busy / b.it.comm_busy,
                          pv > 0 ? fmt::format("{:.2f}", pv) : "", as.name, BatchOf(o.batch, w));
        }
      }
      const double n = static_cast<double>(ws.size());
      Fig10Mean mean{fam.name, k};
      double mean_red[kBaselines];
      for (int i = 0; i < kBaselines; ++i) {
        mean.speedup[i] = std::exp(logsum[i] / n);
        mean.comm_speedup[i] = std::exp(comm_logsum[i] / n);
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
      "comm_reduction,paper_speedup,preset,batch\n";
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
  std::string batches;
  for (const train::Workload& w : ws)
    batches += fmt::format("{}{} {}", batches.empty() ? "" : ", ", w.name, BatchOf(o.batch, w));
  fmt::print(
      "Batch per chiplet ({}): {}; all-reduces only (the embedding tables' all-to-all left out: "
      "the figure compares all-reduce algorithms)\n",
      o.batch ? "--batch" : "each workload's reference batch", batches);
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
    // Two assumptions the paper leaves open, at batch 1: ARIES's segments at one hop's latency,
    // and what ARIES's concentrated algorithms add (the preset without them).
    const auto one_hop = Fig10Tables(one, ws, table, kPaperOneHopSegments, true, &unused);
    const auto unconc = Fig10Tables(one, ws, table, kPaperUnconcentrated, true, &unused);
    // A link per tree edge (Fig. 7(c)), at batch 1: the preset with ARIES's double binary tree
    // on the butterfly's links at ARIES's two local ports, over the same without.
    const auto tree_links = Fig10Tables(one, ws, table, kPaperDedicatedTreeLinks, true, &unused);
    fmt::print(
        "\nDecomposition of the paper's speedups over mesh / torus / fbfly / Adapt-NoC (geometric "
        "means over the workloads): ours under our assumptions, the factor the paper's baseline "
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
        "| family | K | ours | x baseline ring mapping | x endpoint bandwidth | = paper preset | "
        "x batch 1 | = paper preset, batch 1 | of which concentration | x one-hop segments | "
        "x dedicated tree links | paper (V-B) | unexplained | x no compute | unexplained, no "
        "compute |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        o.batch ? fmt::format("batch {}", o.batch) : "the reference batches");
    for (size_t i = 0; i < means.size(); ++i) {
      const Fig10Mean& p = means[i];
      const Fig10Mean& d = ours[i];
      const Fig10Mean& m = mapped[i];
      const Fig10Mean& b = bound[i];
      const Fig10Mean& h = one_hop[i];
      const Fig10Mean& u = unconc[i];
      const PaperSpeedup* ref = PaperFor(p.family, p.k);
      const bool tree = RankTree(p.family);
      // The iterations with every step taken: with the tree links where the family has them.
      const Fig10Mean& last = tree ? tree_links[i] : b;
      double map[kBaselines], ports[kBaselines], batch[kBaselines], hop[kBaselines],
          links[kBaselines], rest[kBaselines], conc[kBaselines], no_compute[kBaselines],
          rest_comm[kBaselines];
      for (int t = 0; t < kBaselines; ++t) {
        map[t] = m.speedup[t] / d.speedup[t];
        ports[t] = p.speedup[t] / m.speedup[t];
        batch[t] = b.speedup[t] / p.speedup[t];
        hop[t] = h.speedup[t] / b.speedup[t];
        links[t] = tree ? tree_links[i].speedup[t] / b.speedup[t] : 1.0;
        rest[t] = ref ? ref->vs[t] / (h.speedup[t] * links[t]) : 0;
        conc[t] = b.speedup[t] / u.speedup[t];
        no_compute[t] = last.comm_speedup[t] / last.speedup[t];
        rest_comm[t] = ref ? ref->vs[t] / (hop[t] * last.comm_speedup[t]) : 0;
      }
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                 p.family, p.k, Per(d.speedup), Per(map), Per(ports), Per(p.speedup), Per(batch),
                 Per(b.speedup), Concentrating(p.family) ? Per(conc) : "-", Per(hop),
                 tree ? Per(links) : "-", ref ? Per(ref->vs) : "-", ref ? Per(rest) : "-",
                 Per(no_compute), ref ? Per(rest_comm) : "-");
    }
    // The ceiling: what is left once ARIES's collectives run at their bound (no planner of the
    // same algorithms on the same package does better) is the baselines' part; Adapt-NoC's
    // floor: any of its sub-networks at the bound (its concentrated mesh, not modelled, too).
    const train::CostTable at_bound = table.AtBound();
    const auto ceiling = Fig10Tables(one, ws, table, kPaperAriesAtBound, true, &unused, &at_bound);
    const auto adapt_floor =
        Fig10Tables(one, ws, table, kPaperAdaptAtBound, true, &unused, &at_bound);
    fmt::print(
        "\nThe ceiling (batch 1, every step above, one-hop segments and tree links measured with "
        "it): ARIES's collectives at their bandwidth bound (each measured algorithm at its "
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
        "| family | K | x ARIES at its bound | ceiling | paper (V-B) | left to the baselines | "
        "ceiling, communication | left to the baselines, communication | over Adapt-NoC at "
        "its bound / modelled |\n"
        "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < means.size(); ++i) {
      const Fig10Mean& c = ceiling[i];
      const Fig10Mean& f = adapt_floor[i];
      const Fig10Mean& last = RankTree(c.family) ? tree_links[i] : bound[i];
      const PaperSpeedup* ref = PaperFor(c.family, c.k);
      double gain[kBaselines], top[kBaselines], left[kBaselines], top_comm[kBaselines],
          left_comm[kBaselines];
      for (int t = 0; t < kBaselines; ++t) {
        // Over every step before it (the decomposition's product: one-hop segments and tree
        // links), measured together with them.
        const double hop = one_hop[i].speedup[t] / bound[i].speedup[t];
        gain[t] = c.speedup[t] / (last.speedup[t] * hop);
        top[t] = c.speedup[t];
        top_comm[t] = c.comm_speedup[t];
        left[t] = ref ? ref->vs[t] / top[t] : 0;
        left_comm[t] = ref ? ref->vs[t] / top_comm[t] : 0;
      }
      constexpr int kAdapt = kBaselines - 1;
      fmt::print("| {} | {} | {} | {} | {} | {} | {} | {} | {:.2f} / {:.2f} |\n", c.family, c.k,
                 Per(gain), Per(top), ref ? Per(ref->vs) : "-", ref ? Per(left) : "-",
                 Per(top_comm), ref ? Per(left_comm) : "-", f.speedup[kAdapt],
                 last.speedup[kAdapt]);
    }
    fmt::print("\n");
  }
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig10", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
