// ARIES Table I from the controller's planned programs (aries table1).
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

std::vector<unsigned> ParseTable1Ks(const std::string& ks_arg) {
  std::vector<unsigned> ks;
  for (const std::string& s : SplitList(ks_arg, "-k")) {
    if (s != "4" && s != "8" && s != "16")
      throw std::invalid_argument(fmt::format("-k {}: allowed 4, 8, 16", ks_arg));
    ks.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (ks.empty()) throw std::invalid_argument(fmt::format("-k '{}': allowed 4, 8, 16", ks_arg));
  return ks;
}

int RunTable1Command(const std::vector<unsigned>& ks, const std::string& csv_path,
                     const std::string& plot) {
  if (ks.empty()) throw std::invalid_argument("-k: allowed 4, 8, 16");
  fmt::print(
      "ARIES Table I: all-reduce of G bytes on N chiplets; the table's formulas (torus) beside the "
      "controller's planned programs (links: distinct directed sender -> receiver pairs that carry "
      "data; largest message: the biggest single send as a fraction of G; steps: the longest chain "
      "of dependent messages)\n");
  const coll::Hardware hardware = sysc::HardwareOf(sysc::ShippedShape());
  std::string csv =
      "n,algorithm,topology,levels,links_formula,links,message_fraction_formula,largest_message_"
      "fraction,"
      "sync_steps_formula,sync_steps\n";
  for (unsigned k : ks) {
    const double n = k * k;
    fmt::print(
        "\nN = {} ({}x{}):\n\n| algorithm | links | measured | bandwidth per link | largest "
        "message | sync steps | measured |\n|---|---|---|---|---|---|---|\n",
        k * k, k, k);
    for (const coll::AlgorithmInfo* a : coll::TableIAlgorithms()) {
      const coll::TableIRow& row = *a->table1;
      coll::Request req;
      req.geom.topology = row.topology;
      req.geom.k = k;
      req.algo = a->name;
      // ARIES_LT: two levels where K is a square (Table I v2's L = 2), else the most K allows.
      const auto lv = coll::AriesLtLevels(k);
      req.levels = std::find(lv.begin(), lv.end(), 2u) != lv.end() ? 2 : lv.back();
      req.op = aries::hw::kOpAddI32;
      req.elements = 1u << 16;
      const coll::Program p = coll::Plan(req, hardware, nullptr);
      std::set<std::tuple<unsigned, unsigned, unsigned>> links;
      uint64_t largest = 0;
      for (unsigned node = 0; node < p.num_nodes(); ++node) {
        for (const coll::Op& op : p.nodes[node].ops) {
          if (op.act != coll::Act::kSend) continue;
          links.insert({node, op.peer, op.lane});
          largest = std::max<uint64_t>(largest, op.region.len);
        }
      }
      const std::string algo(a->name);
      const bool leveled = a->variant == coll::AlgoVariant::kLevels;
      const double f_links = row.links(n, req.levels);
      const double f_sync = row.sync(n, req.levels);
      const double frac = static_cast<double>(largest) / static_cast<double>(p.elements);
      const std::string label =
          leveled ? fmt::format("{}, L = {}", row.label, req.levels) : row.label;
      const double f_frac = row.message(n, req.levels);
      csv += fmt::format("{},{},{},{},{:.0f},{},{:.6f},{:.6f},{:.4g},{}\n", k * k, algo,
                         coll::TopologyName(row.topology), leveled ? req.levels : 0, f_links,
                         links.size(), f_frac, frac, f_sync, p.sync_steps);
      fmt::print("| {} | {} = {:.0f} | {} | {} | G/{:.3g} | {} = {:.3g} | {} |\n", label,
                 row.links_formula, f_links, links.size(), row.message_formula,
                 frac > 0 ? 1.0 / frac : 0.0, row.sync_formula, f_sync, p.sync_steps);
    }
  }
  fmt::print(
      "\nSteps are the planner's count of dependent message steps (`collectives/README.md` "
      "compares them with Table I row by row). Adapt-NoC (ARIES ref. [28]) has no row: it has no "
      "algorithm of its own, it runs the baselines' rows on the sub-network it forms (mesh, "
      "torus, adaptable links, concentrated mesh; fig9-fig11 pick it per collective).\n");
  WriteCsv(csv_path, csv, "--csv", "csv");
  PlotCsv("table1", csv, plot);
  return 0;
}

}  // namespace aries::sim
