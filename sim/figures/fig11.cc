// ARIES Fig. 11: energy of one all-reduce per family and topology (aries fig11).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "coll_run.h"
#include "energy.h"
#include "figures.h"
#include "files.h"
#include "node_models.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "tuner.h"

namespace aries::sim {

namespace {

struct EnergyFamily {
  std::string name;
  std::vector<std::pair<std::string, unsigned>> baseline, aries;  // (algorithm, levels)
};

// Fig. 11's families: each paper family's baseline algorithm, and ARIES's candidates (levels
// 0: the most ARIES_LT allows for K, as the sweeps measure it; 2 for the others, whose level
// count is unused).
std::vector<EnergyFamily> EnergyFamilies() {
  std::vector<EnergyFamily> fams;
  for (const std::string& fam : coll::PaperFamilies()) {
    EnergyFamily f;
    f.name = fam;
    f.baseline = {{coll::FamilyBaseline(fam).name, 2}};
    for (const coll::AlgorithmInfo* a : coll::AriesCandidates(fam)) {
      f.aries.push_back({a->name, a->variant == coll::AlgoVariant::kLevels ? 0u : 2u});
    }
    fams.push_back(std::move(f));
  }
  return fams;
}

// ARIES V-C: the average energy reduction (%) of ARIES vs mesh, torus, flattened butterfly,
// Adapt-NoC (i: 0..3) on K x K.
double PaperEnergyReduction(unsigned k, int i) {
  const double p4[] = {30.5, 28.9, 21.2, 17.5}, p8[] = {38.8, 33.8, 29.2, 20.7};
  return k == 4 ? p4[i] : p8[i];
}

constexpr size_t kAriesSlot = 3;  // ARIES's package in Fig11Packages, after the 3 baselines

// The packages of one K: mesh, torus, fbfly, ARIES, then Adapt-NoC's sub-networks that are no
// baseline's package (its adaptable links, its concentrated mesh; figures.h), each named; and
// each sub-network's slot among them.
struct Fig11Packages {
  std::vector<coll::Geometry> geoms;
  std::vector<std::string> where;
  std::vector<std::pair<coll::Topology, size_t>> subs;
};

// The packages of K x K under `as`.
Fig11Packages PackagesOf(unsigned k, const Assumptions& as) {
  Fig11Packages pk;
  for (coll::Topology t : {coll::Topology::kMesh, coll::Topology::kTorus, coll::Topology::kFbfly,
                           coll::Topology::kAries}) {
    pk.geoms.push_back(PresetPackage(t, k, as));
    pk.where.push_back(coll::TopologyName(t));
  }
  for (const coll::Topology sub : AdaptNocSubnetworks()) {
    const coll::Geometry want = AdaptNocPackage(sub, k);
    size_t slot = pk.geoms.size();
    for (size_t b = 0; b < 3 && slot == pk.geoms.size(); ++b) {
      if (coll::GeometryLabel(pk.geoms[b]) == coll::GeometryLabel(want)) slot = b;
    }
    if (slot == pk.geoms.size()) {
      pk.geoms.push_back(want);
      pk.where.push_back(AdaptNocSubnetworkName(sub));
    }
    pk.subs.emplace_back(sub, slot);
  }
  return pk;
}

// One family's runs on K x K: per package its run of least energy and that run's algorithm,
// Adapt-NoC's slot (its sub-network of least energy), and ARIES's energy reduction (%) vs
// mesh, torus, fbfly and Adapt-NoC.
struct FamilyEnergy {
  std::vector<CollMeasurement> best;
  std::vector<std::string> label;
  size_t adapt = 0;
  double reduction[4] = {0, 0, 0, 0};
};

// The run of `algo` (`levels`, 0: K's default) on package `g` of K x K, verified, with its energy;
// a ring laid out as `as` lays out a baseline's (`baseline`) or ARIES's.
CollOptions EnergyRun(const Fig11Options& o, const coll::Geometry& g, const std::string& algo,
                      unsigned levels, unsigned k, const Assumptions& as, bool baseline) {
  CollOptions co;
  co.geometry = g;
  co.model = o.model;
  co.algo = algo;
  const coll::AlgorithmInfo* info = coll::FindAlgorithm(algo);
  if (info && info->ring_layout) co.ring = PresetRing(as, baseline);
  co.levels = levels ? levels : (k == 4 ? 2 : 3);
  co.bytes = o.bytes;
  co.verify = true;
  co.energy = true;
  co.tech = o.tech;
  co.tech_set = o.tech_set;
  return co;
}

// Runs family `f` on every package of `pk` (ARIES's candidates on ARIES, the baseline algorithm
// elsewhere); throws when a run fails verification.
FamilyEnergy MeasureFamily(const Fig11Options& o, const EnergyFamily& f, const Fig11Packages& pk,
                           unsigned k, const Assumptions& as) {
  FamilyEnergy e;
  e.best.resize(pk.geoms.size());
  e.label.resize(pk.geoms.size());
  for (size_t ti = 0; ti < pk.geoms.size(); ++ti) {
    for (const auto& [algo, levels] : ti == kAriesSlot ? f.aries : f.baseline) {
      const CollOptions co = EnergyRun(o, pk.geoms[ti], algo, levels, k, as, ti != kAriesSlot);
      fmt::print(stderr, "  {}x{} {} {} on {}\n", k, k, f.name, algo, pk.where[ti]);
      const CollMeasurement m = MeasureCollective(co, true);
      if (!m.ok)
        throw std::runtime_error(
            fmt::format("{} on {} {}x{} failed verification", algo, pk.where[ti], k, k));
      if (e.label[ti].empty() || m.energy.total() < e.best[ti].energy.total()) {
        e.best[ti] = m;
        e.label[ti] = coll::Candidate{algo, co.levels, co.embeddings, co.ring}.Label();
      }
    }
  }
  // Adapt-NoC (figures.h): the sub-network of least energy among those it forms, each run
  // above (the most favourable choice for it).
  e.adapt = pk.subs[0].second;
  for (const auto& [sub, slot] : pk.subs) {
    if (e.best[slot].energy.total() < e.best[e.adapt].energy.total()) e.adapt = slot;
  }
  const double a = e.best[kAriesSlot].energy.total();
  for (size_t i = 0; i < 4; ++i) {
    const double other = e.best[i < 3 ? i : e.adapt].energy.total();
    e.reduction[i] = 100.0 * (1.0 - a / other);
  }
  return e;
}

// Prints the title and head of K x K's table.
void PrintEnergyHead(unsigned k) {
  fmt::print(
      "\n{}x{}:\n\n| family | ARIES nJ | ARIES reduction vs mesh / torus / fbfly / Adapt-NoC | "
      "paper (V-C, average) |\n|---|---|---|---|\n",
      k, k);
}

// Prints family `f`'s row (every package's energy and algorithm are the CSV's).
void PrintEnergyRow(const EnergyFamily& f, const FamilyEnergy& e) {
  std::string red;
  for (size_t i = 0; i < 4; ++i)
    red += (i ? " / " : "") + UnsignedZero(fmt::format("{:.1f}%", e.reduction[i]));
  fmt::print("| {} | {:.1f} | {} | |\n", f.name, e.best[kAriesSlot].energy.total() / 1e3, red);
}

// Prints K x K's last row, the means of the families' reductions `sum_red` (sums over 3) beside
// the paper's, and where the other columns are.
void PrintEnergyFoot(unsigned k, const double* sum_red) {
  fmt::print(
      "| mean of the families | | {:.1f}% / {:.1f}% / {:.1f}% / {:.1f}% | {:.1f}% / "
      "{:.1f}% / {:.1f}% / {:.1f}% |\n",
      sum_red[0] / 3, sum_red[1] / 3, sum_red[2] / 3, sum_red[3] / 3, PaperEnergyReduction(k, 0),
      PaperEnergyReduction(k, 1), PaperEnergyReduction(k, 2), PaperEnergyReduction(k, 3));
  fmt::print("\n{}\n", kAllColumnsLine);
}

// Family `f`'s CSV rows on K x K: mesh, torus, fbfly, ARIES, then Adapt-NoC's (its sub-network's
// run, the algorithm labelled with the sub-network).
std::string EnergyCsvRows(const Fig11Options& o, unsigned k, const EnergyFamily& f,
                          const FamilyEnergy& e, const Fig11Packages& pk, const Assumptions& as) {
  std::string csv;
  const double a = e.best[kAriesSlot].energy.total();
  for (size_t row = 0; row < 5; ++row) {
    const size_t ti = row < 4 ? row : e.adapt;
    const CollMeasurement& m = e.best[ti];
    const std::string topo = row < 4 ? pk.where[ti] : kAdaptNoc;
    const std::string algo =
        row < 4 ? e.label[ti] : fmt::format("{} on {}", e.label[ti], pk.where[e.adapt]);
    csv += fmt::format(
        "{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{},{},{},{},{},{}\n", k,
        f.name, topo, algo, m.cycles, m.energy.total() / 1e3, m.energy.buffers / 1e3,
        m.energy.crossbar / 1e3, m.energy.allocators / 1e3, m.energy.links / 1e3,
        m.energy.engine / 1e3, m.energy.leakage / 1e3,
        row == kAriesSlot ? "" : fmt::format("{:.4f}", 1.0 - a / m.energy.total()), o.bytes, o.tech,
        pk.geoms[ti].local_ports, as.name, ResolveModel(o.model, RunScale::kMany));
  }
  return csv;
}

}  // namespace

int RunFig11Command(const Fig11Options& o) {
  {  // refuse a bad technology before anything runs
    energy::Tech t =
        energy::LoadTech(CheckInputFile(energy::TechPath(o.tech), "--tech", kSmallInputLimit));
    for (const auto& a : o.tech_set) energy::Override(t, a);
  }
  const std::vector<EnergyFamily> fams = EnergyFamilies();
  const Assumptions& as = PresetAssumptions(o.preset);
  fmt::print(
      "ARIES Fig. 11: energy of one {} int32 all-reduce per node ({}), cycle-accurate runs ({} "
      "node model), every element verified; ARIES reduction = 1 - ARIES / other\n{}\n",
      SizeLabel(o.bytes), o.tech, ResolveModel(o.model, RunScale::kMany), PresetLine(as));
  std::string csv =
      "k,family,topology,algorithm,cycles,energy_nj,buffers_nj,crossbar_nj,allocators_nj,links_nj,"
      "engine_nj,leakage_nj,aries_reduction,bytes,tech,local_ports,preset,model\n";
  for (unsigned k : o.ks) {
    PrintEnergyHead(k);
    const Fig11Packages pk = PackagesOf(k, as);
    double sum_red[4] = {0, 0, 0, 0};
    for (const EnergyFamily& f : fams) {
      const FamilyEnergy e = MeasureFamily(o, f, pk, k, as);
      for (size_t i = 0; i < 4; ++i) sum_red[i] += e.reduction[i];
      PrintEnergyRow(f, e);
      csv += EnergyCsvRows(o, k, f, e, pk, as);
    }
    PrintEnergyFoot(k, sum_red);
  }
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig11", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
