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

}  // namespace

int RunFig9Command(const Fig9Options& o) {
  const std::vector<unsigned>& ks = o.ks;
  const std::string path = o.costs.empty() ? ARIES_COST_FILE : o.costs;
  const auto models = coll::LoadCostModels(path, "int32");
  const Assumptions& as = PresetAssumptions(o.preset);
  fmt::print(
      "ARIES Fig. 9: all-reduce algorithm bandwidth (GB/s = bytes per cycle at 1 GHz) against the "
      "data size, from the cycle-accurate runs in {} (every element verified when measured)\n{}\n",
      path, PresetLine(as));
  std::string csv = "k,family,algorithm,topology,bytes,cycles,algbw_gbps,local_ports,preset\n";
  const std::vector<Fig9Series> curves = Fig9Curves();
  for (const std::string& fam : coll::PaperFamilies()) {
    for (unsigned k : ks) {
      std::vector<uint64_t> sizes;
      std::vector<std::pair<std::string, std::map<uint64_t, double>>> rows;
      for (const Fig9Series& f : curves) {
        if (f.family != fam) continue;
        for (const coll::CostModel& m : models) {
          // The paper's package (the default geometry) with the preset's local ports and rings.
          const coll::Geometry g = PresetPackage(*coll::ParseTopology(f.topology), k, as);
          if (!m.On(g) || m.cand.algo != f.algo) continue;
          if (!PresetAdmits(m.cand, g.topology != coll::Topology::kAries, as)) continue;
          const std::string name = fmt::format("{} on {}", m.cand.Label(), f.topology);
          std::map<uint64_t, double> bw;
          for (const coll::CostPoint& p : m.points) {
            const double gbps = static_cast<double>(p.bytes) / p.cycles;
            bw[p.bytes] = gbps;
            if (std::find(sizes.begin(), sizes.end(), p.bytes) == sizes.end())
              sizes.push_back(p.bytes);
            csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{}\n", k, fam, m.cand.Label(),
                               f.topology, p.bytes, p.cycles, gbps, g.local_ports, as.name);
          }
          rows.push_back({name, bw});
        }
      }
      // Adapt-NoC (figures.h): at each size every sub-network measured, the fastest of them
      // (the baseline algorithm on each, one local port).
      {
        const char* base = coll::FamilyBaseline(fam).name;
        std::vector<std::map<uint64_t, double>> subs;  // GB/s per size, per sub-network
        std::string label, names, missing;  // the sub-networks with costs, and those without
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
        if (!subs.empty()) {
          std::map<uint64_t, double> bw;
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
            bw[bytes] = best;
            csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f},{},{}\n", k, fam, label, kAdaptNoc,
                               bytes, static_cast<double>(bytes) / best, best, 1, as.name);
          }
          rows.push_back(
              {fmt::format(
                   "Adapt-NoC (fastest of its {}{})", names,
                   missing.empty() ? std::string() : fmt::format("; no costs of its {}", missing)),
               bw});
        }
      }
      std::sort(sizes.begin(), sizes.end());
      fmt::print("\n{} all-reduce on {}x{}, GB/s:\n\n| curve |", fam, k, k);
      std::string rule = "|---|";
      for (uint64_t s : sizes) {
        fmt::print(" {} |", SizeLabel(s));
        rule += "---|";
      }
      fmt::print("\n{}\n", rule);
      for (const auto& [name, bw] : rows) {
        std::string line = "| " + name + " |";
        for (uint64_t s : sizes) {
          const auto it = bw.find(s);
          line += it == bw.end() ? " - |" : fmt::format(" {:.1f} |", it->second);
        }
        fmt::print("{}\n", line);
      }
      if (rows.empty())
        fmt::print("| (no measurements of this family on {}x{} in {}) |\n", k, k, path);
    }
  }
  fmt::print("\n");
  WriteCsv(o.csv, csv, "--csv", "csv");
  PlotCsv("fig9", csv, o.plot);
  return 0;
}

}  // namespace aries::sim
