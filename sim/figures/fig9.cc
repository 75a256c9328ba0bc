// ARIES Fig. 9 from the measured costs (aries fig9).
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
#include "node_models.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "tuner.h"

namespace aries::sim {

namespace {

struct Fig9Series {
  std::string family, algo, topology;
};

// Fig. 9's curves from the algorithm descriptors: each family's baseline algorithm on mesh and
// torus, then the family's ARIES candidates that Fig. 9 draws on ARIES.
std::vector<Fig9Series> Fig9Curves() {
  std::vector<Fig9Series> v;
  for (const std::string& fam : coll::PaperFamilies()) {
    const char* base = coll::FamilyBaseline(fam).name;
    v.push_back({fam, base, "mesh"});
    v.push_back({fam, base, "torus"});
    for (const coll::AlgorithmInfo* a : coll::AriesCandidates(fam)) {
      if (a->paper.fig9_aries) v.push_back({fam, a->name, "aries"});
    }
  }
  return v;
}

// One curve of a Fig. 9 table: its name and GB/s per size.
struct Fig9Row {
  std::string name;
  std::map<uint64_t, double> bw;
};

// One family's table on K x K: the sizes measured (ascending), its curves, the line that names
// Adapt-NoC's sub-networks ("" without its curve), and its CSV rows.
struct Fig9Table {
  std::vector<uint64_t> sizes;
  std::vector<Fig9Row> rows;
  std::string adapt_note;
  std::string csv;
};

// The curves of `curves` of family `fam` on K x K measured in `models` that `as` admits, on the
// paper's package (the default geometry) with the preset's local ports and rings.
Fig9Table MeasureCurves(const std::vector<coll::CostModel>& models,
                        const std::vector<Fig9Series>& curves, const std::string& fam, unsigned k,
                        const Assumptions& as) {
  Fig9Table t;
  for (const Fig9Series& f : curves) {
    if (f.family != fam) continue;
    for (const coll::CostModel& m : models) {
      const coll::Geometry g = PresetPackage(*coll::ParseTopology(f.topology), k, as);
      if (!m.On(g) || m.cand.algo != f.algo) continue;
      if (!PresetAdmits(m.cand, g.topology != coll::Topology::kAries, as)) continue;
      Fig9Row row{fmt::format("{} on {}", m.cand.Label(), f.topology), {}};
      for (const coll::CostPoint& p : m.points) {
        const double gbps = static_cast<double>(p.bytes) / p.cycles;
        row.bw[p.bytes] = gbps;
        if (std::find(t.sizes.begin(), t.sizes.end(), p.bytes) == t.sizes.end())
          t.sizes.push_back(p.bytes);
        t.csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{}\n", k, fam, m.cand.Label(),
                             f.topology, p.bytes, p.cycles, gbps, g.local_ports, as.name);
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

// Adapt-NoC's curve of family `fam` on K x K (figures.h): at each size every sub-network
// measured, the fastest of them (the baseline algorithm on each, one local port).
struct AdaptNocCurve {
  bool measured = false;  // any of its sub-networks
  Fig9Row row;
  std::string note, csv;
};

// Measures Adapt-NoC's curve from `models`.
AdaptNocCurve MeasureAdaptNoc(const std::vector<coll::CostModel>& models, const std::string& fam,
                              unsigned k, const Assumptions& as) {
  const char* base = coll::FamilyBaseline(fam).name;
  std::vector<std::map<uint64_t, double>> subs;  // GB/s per size, per sub-network
  std::string label, names, missing;             // the sub-networks with costs, and those without
  for (const coll::Topology t : AdaptNocSubnetworks()) {
    const coll::Geometry g = AdaptNocPackage(t, k);
    const size_t before = subs.size();
    for (const coll::CostModel& m : models) {
      if (!m.On(g) || m.cand.algo != base || !PresetAdmits(m.cand, true, as)) continue;
      std::map<uint64_t, double> bw;
      for (const coll::CostPoint& p : m.points)
        bw[p.bytes] = static_cast<double>(p.bytes) / p.cycles;
      subs.push_back(std::move(bw));
      label = m.cand.Label();
      break;
    }
    std::string& list = subs.size() > before ? names : missing;
    list += (list.empty() ? "" : ", ") + AdaptNocSubnetworkName(t);
  }
  AdaptNocCurve c;
  if (subs.empty()) return c;
  c.measured = true;
  c.row.name = "Adapt-NoC (fastest)";
  c.note =
      fmt::format("Adapt-NoC (fastest): at each size the fastest of its {}{}", names,
                  missing.empty() ? std::string() : fmt::format("; no costs of its {}", missing));
  for (const auto& [bytes, first] : subs[0]) {
    double best = first;  // the most GB/s of the sub-networks measured at this size
    bool everywhere = true;
    for (const auto& sub : subs) {
      const auto it = sub.find(bytes);
      if (it == sub.end())
        everywhere = false;
      else
        best = std::max(best, it->second);
    }
    if (!everywhere) continue;
    c.row.bw[bytes] = best;
    c.csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{}\n", k, fam, label, kAdaptNoc, bytes,
                         static_cast<double>(bytes) / best, best, 1, as.name);
  }
  return c;
}

// Family `fam`'s table on K x K: its measured curves, then Adapt-NoC's.
Fig9Table MeasureFig9Table(const std::vector<coll::CostModel>& models,
                           const std::vector<Fig9Series>& curves, const std::string& fam,
                           unsigned k, const Assumptions& as) {
  Fig9Table t = MeasureCurves(models, curves, fam, k, as);
  AdaptNocCurve adapt = MeasureAdaptNoc(models, fam, k, as);
  if (adapt.measured) {
    t.rows.push_back(std::move(adapt.row));
    t.adapt_note = std::move(adapt.note);
    t.csv += adapt.csv;
  }
  std::sort(t.sizes.begin(), t.sizes.end());
  return t;
}

constexpr size_t kConsoleWidth = 100;  // the widest line of a console table

// The lines of `t`'s table over `sizes`: its head, its rule and a line per curve.
std::vector<std::string> TableLines(const Fig9Table& t, const std::vector<uint64_t>& sizes) {
  std::string head = "| curve |", rule = "|---|";
  for (uint64_t s : sizes) {
    head += fmt::format(" {} |", SizeLabel(s));
    rule += "---|";
  }
  std::vector<std::string> lines = {head, rule};
  for (const Fig9Row& row : t.rows) {
    std::string line = "| " + row.name + " |";
    for (uint64_t s : sizes) {
      const auto it = row.bw.find(s);
      line += it == row.bw.end() ? " - |" : fmt::format(" {:.1f} |", it->second);
    }
    lines.push_back(line);
  }
  return lines;
}

// `t`'s sizes split in order over as few tables as fit the console, shared out evenly (all in
// one when even one size per table does not fit).
std::vector<std::vector<uint64_t>> SizeGroups(const Fig9Table& t) {
  const size_t m = t.sizes.size();
  for (size_t n = 1; n <= m; ++n) {
    std::vector<std::vector<uint64_t>> groups;
    bool fits = true;
    for (size_t g = 0, next = 0; g < n; ++g) {
      const size_t count = m / n + (g < m % n ? 1 : 0);
      groups.emplace_back(t.sizes.begin() + next, t.sizes.begin() + next + count);
      next += count;
      for (const std::string& line : TableLines(t, groups.back()))
        fits = fits && line.size() <= kConsoleWidth;
    }
    if (fits) return groups;
  }
  return {t.sizes};
}

// Prints family `fam`'s table on K x K (measured in `path`): its sizes over as many tables as
// fit the console, then the line naming Adapt-NoC's sub-networks.
void PrintFig9Table(const std::string& fam, unsigned k, const Fig9Table& t,
                    const std::string& path) {
  fmt::print("\n{} all-reduce on {}x{}, GB/s:\n", fam, k, k);
  for (const std::vector<uint64_t>& sizes : SizeGroups(t)) {
    fmt::print("\n");
    for (const std::string& line : TableLines(t, sizes)) fmt::print("{}\n", line);
  }
  if (t.rows.empty())
    fmt::print("| (no measurements of this family on {}x{} in {}) |\n", k, k, CostFileLabel(path));
  if (!t.adapt_note.empty()) fmt::print("\n{}\n", t.adapt_note);
}

}  // namespace

int RunFig9Command(const Fig9Options& o) {
  const std::string path = CostPath(o.costs);
  const auto models = coll::LoadCostModels(path, "int32");
  const Assumptions& as = PresetAssumptions(o.preset);
  fmt::print(
      "ARIES Fig. 9: all-reduce algorithm bandwidth (GB/s = bytes per cycle at 1 GHz) against the "
      "data size, from the cycle-accurate runs in {} (every element verified when measured)\n{}\n",
      CostFileLabel(path), PresetLine(as));
  std::string csv = "k,family,algorithm,topology,bytes,cycles,algbw_gbps,local_ports,preset\n";
  const std::vector<Fig9Series> curves = Fig9Curves();
  for (const std::string& fam : coll::PaperFamilies()) {
    for (unsigned k : o.ks) {
      const Fig9Table t = MeasureFig9Table(models, curves, fam, k, as);
      csv += t.csv;
      PrintFig9Table(fam, k, t, path);
    }
  }
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig9", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
