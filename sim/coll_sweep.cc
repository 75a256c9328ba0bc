#include "coll_sweep.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "coll_run.h"
#include "planners.h"
#include "tuner.h"

namespace aries::sim {

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) {
    if (!x.empty()) v.push_back(x);
  }
  return v;
}

}  // namespace

int RunCollSweep(const CollSweepOptions& o) {
  const auto topos = Split(o.topologies);
  const auto sizes = Split(o.sizes);
  const auto algos = Split(o.algos);
  for (const auto& t : topos) {
    if (!coll::ParseTopology(t)) {
      throw std::invalid_argument(fmt::format("--topologies {}: '{}' unknown; allowed {}", o.topologies, t, coll::TopologyNames()));
    }
  }
  const auto coll_kind = coll::ParseCollective(o.collective);
  if (!coll_kind || *coll_kind == coll::Collective::kReduce || *coll_kind == coll::Collective::kBroadcast ||
      *coll_kind == coll::Collective::kBarrier) {
    throw std::invalid_argument(fmt::format("--collective {}: allowed allreduce, reducescatter, allgather", o.collective));
  }
  for (const auto& sz : sizes) ParseBytes(sz, "--sizes");  // refuse a bad size before anything runs
  for (const auto& a : algos) {
    if (a != "all" && !coll::FindAlgorithm(a)) {
      throw std::invalid_argument(fmt::format("--algos {}: '{}' unknown; allowed all or {}", o.algos, a, coll::AlgorithmNames()));
    }
  }
  std::ofstream csv;
  if (!o.csv.empty()) {
    const bool fresh = !std::ifstream(o.csv).good();
    csv.open(o.csv, std::ios::app);
    if (!csv) throw std::invalid_argument(fmt::format("--csv {}: cannot open for writing", o.csv));
    if (fresh) csv << coll::CostCsvHeader() << "\n";
  }
  fmt::print("{} {} on {}x{}: cycles, bus bandwidth (B/cycle) and % of the bound "
             "({} M/B point to point, M/B in-network); every element verified\n\n",
             o.collective, o.type, o.k, o.k,
             *coll_kind == coll::Collective::kAllReduce ? "2(N-1)/N" : "(N-1)/N");
  std::string head = "| algorithm | topology |", rule = "|---|---|";
  for (const auto& s : sizes) {
    head += fmt::format(" {} |", s);
    rule += "---|";
  }
  fmt::print("{}\n{}\n", head, rule);
  int failures = 0;
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    if (!a.Serves(*coll_kind)) continue;
    if (!(algos.empty() || algos[0] == "all" || std::find(algos.begin(), algos.end(), std::string(a.name)) != algos.end())) continue;
    for (const coll::Candidate& cand : coll::SweepCandidates(a, o.k)) {
      for (const auto& t : topos) {
        if (!a.Serves(*coll::ParseTopology(t))) continue;
        std::string row = fmt::format("| {} | {} |", cand.Label(), t);
        bool skipped = false;
        for (const auto& s : sizes) {
          CollOptions co;
          co.topology = t;
          co.k = o.k;
          co.algo = a.name;
          co.collective = o.collective;
          co.levels = cand.levels;
          co.embeddings = cand.embeddings;
          co.type = o.type;
          co.size = s;
          co.seed = o.seed;
          co.verify = true;
          CollMeasurement m;
          try {
            m = MeasureCollective(co, true);
          } catch (const coll::PlanError& e) {  // not applicable here (no engine, ...)
            row += " n/a |";
            skipped = true;
            fmt::print(stderr, "  {} on {}: {}\n", cand.Label(), t, e.what());
            break;
          } catch (const std::exception& e) {  // a bug: report it, keep sweeping
            row += " ERROR |";
            ++failures;
            fmt::print(stderr, "  {} on {} at {}: {}\n", cand.Label(), t, s, e.what());
            continue;
          }
          failures += m.ok ? 0 : 1;
          row += fmt::format(" {} ({:.1f}, {:.0f}%){} |", m.cycles, m.busbw, 100.0 * m.bound / static_cast<double>(m.cycles),
                             m.ok ? "" : " FAILED");
          if (csv.is_open()) {
            csv << coll::CostCsvRow(*coll::ParseTopology(t), o.k, cand, *coll_kind, o.type, m.bytes, m.cycles,
                                    m.busbw, m.bound / static_cast<double>(m.cycles), m.ok)
                << "\n";
            csv.flush();
          }
        }
        if (skipped) {  // every size: not applicable (the reason went to stderr)
          row = fmt::format("| {} | {} |", cand.Label(), t);
          for (size_t i = 0; i < sizes.size(); ++i) row += " n/a |";
        }
        fmt::print("{}\n", row);
        std::fflush(stdout);
      }
    }
  }
  if (failures) fmt::print("\n{} runs FAILED\n", failures);
  return failures ? 1 : 0;
}

int RunCollModels(const std::string& costs, const std::string& type) {
  const std::string path = costs.empty() ? ARIES_COST_FILE : costs;
  const auto models = coll::LoadCostModels(path, type);
  fmt::print("all-reduce cost models from {} ({}): alpha + beta * bytes fitted on the relative "
             "error, and the piecewise-linear model --algo auto uses\n\n",
             path, type);
  fmt::print("| topology | K | algorithm | sizes | alpha (cycles) | beta (cycles/KB) | alpha-beta "
             "max error | piecewise leave-one-out error |\n|---|---|---|---|---|---|---|---|\n");
  for (const coll::CostModel& m : models) {
    const coll::AlphaBeta f = coll::FitAlphaBeta(m.points);
    fmt::print("| {} | {} | {} | {} | {:.0f} | {:.2f} | {:.1f}% | {:.1f}% |\n",
               coll::TopologyName(m.topology), m.k, m.cand.Label(), m.points.size(), f.alpha,
               f.beta * 1024, 100 * f.max_rel_error, 100 * m.LeaveOneOutError());
  }
  return 0;
}

}  // namespace aries::sim
