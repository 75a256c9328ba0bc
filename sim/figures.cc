#include "figures.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "coll_run.h"
#include "plot.h"
#include "tuner.h"

namespace aries::sim {

namespace {

struct Fig9Series {
  const char* family;
  const char* algo;
  const char* topology;
};

// Fig. 9's curves: the baselines' algorithm on mesh and torus, ARIES's variants on ARIES.
const Fig9Series kFig9[] = {
    {"ring", "ring", "mesh"},   {"ring", "ring", "torus"},   {"ring", "aries_lt", "aries"},
    {"ring", "aries_bw", "aries"}, {"dbt", "dbt", "mesh"},   {"dbt", "dbt", "torus"},
    {"dbt", "dbt", "aries"},    {"mtree", "mtree", "mesh"},  {"mtree", "mtree", "torus"},
    {"mtree", "mtree", "aries"}, {"mtree", "cmtree", "aries"},
};

}  // namespace

std::vector<unsigned> ParsePaperKs(const std::string& ks) {
  std::vector<unsigned> v;
  for (const std::string& s : SplitList(ks)) {
    if (s != "4" && s != "8") throw std::invalid_argument(fmt::format("-k {}: allowed 4, 8 (the paper's)", ks));
    v.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (v.empty()) throw std::invalid_argument(fmt::format("-k '{}': allowed 4, 8 (the paper's)", ks));
  return v;
}

int RunFig9Command(const Fig9Options& o) {
  const std::vector<unsigned> ks = ParsePaperKs(o.ks);
  const std::string path = o.costs.empty() ? ARIES_COST_FILE : o.costs;
  const auto models = coll::LoadCostModels(path, "int32");
  fmt::print("ARIES Fig. 9: all-reduce algorithm bandwidth (GB/s = bytes per cycle at 1 GHz) against the data "
             "size, from the cycle-accurate runs in {} (every element verified when measured)\n",
             path);
  std::string csv = "k,family,algorithm,topology,bytes,cycles,algbw_gbps\n";
  std::vector<LineChart> panels;
  for (const char* fam : {"ring", "dbt", "mtree"}) {
    for (unsigned k : ks) {
      LineChart chart;
      chart.title = fmt::format("{} all-reduce {}x{}", fam, k, k);
      chart.x_label = "bytes per node";
      chart.y_label = "algorithm bandwidth (GB/s)";
      std::vector<uint64_t> sizes;
      std::vector<std::pair<std::string, std::map<uint64_t, double>>> rows;
      for (const Fig9Series& f : kFig9) {
        if (std::string(f.family) != fam) continue;
        for (const coll::CostModel& m : models) {
          if (m.k != k || m.cand.algo != f.algo || coll::TopologyName(m.topology) != std::string(f.topology)) continue;
          LineChart::Series ser;
          ser.name = fmt::format("{} on {}", m.cand.Label(), f.topology);
          std::map<uint64_t, double> bw;
          for (const coll::CostPoint& p : m.points) {
            const double gbps = static_cast<double>(p.bytes) / p.cycles;
            ser.points.push_back({static_cast<double>(p.bytes), gbps});
            bw[p.bytes] = gbps;
            if (std::find(sizes.begin(), sizes.end(), p.bytes) == sizes.end()) sizes.push_back(p.bytes);
            csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f}\n", k, fam, m.cand.Label(), f.topology, p.bytes, p.cycles, gbps);
          }
          rows.push_back({ser.name, bw});
          chart.series.push_back(std::move(ser));
        }
      }
      std::sort(sizes.begin(), sizes.end());
      fmt::print("\n{} all-reduce on {}x{}, GB/s:\n\n| curve |", fam, k, k);
      std::string rule = "|---|";
      for (uint64_t s : sizes) {
        fmt::print(" {} |", s >= 1048576 ? fmt::format("{}M", s / 1048576) : s >= 1024 ? fmt::format("{}K", s / 1024) : std::to_string(s));
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
      if (rows.empty()) fmt::print("| (no measurements of this family on {}x{} in {}) |\n", k, k, path);
      panels.push_back(std::move(chart));
    }
  }
  if (!o.csv.empty()) {
    std::ofstream f(o.csv);
    f << csv;
    if (!f) throw std::invalid_argument(fmt::format("--csv {}: cannot write", o.csv));
    fmt::print("\ncsv: {}\n", o.csv);
  }
  if (!o.svg.empty()) {
    std::ofstream f(o.svg);
    f << LineChartsSvg(panels, static_cast<unsigned>(ks.size()));
    if (!f) throw std::invalid_argument(fmt::format("--svg {}: cannot write", o.svg));
    fmt::print("plot: {}\n", o.svg);
  }
  return 0;
}

}  // namespace aries::sim
