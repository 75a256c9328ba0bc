#include "costs.h"

#include <fmt/format.h>

#include <stdexcept>

namespace aries::train {

coll::Geometry PackageOf(coll::Topology t, unsigned k, unsigned local_ports) {
  coll::Geometry g;
  g.topology = t;
  g.k = k;
  g.local_ports = local_ports;
  return g;
}

CostTable::CostTable(const std::string& path, const std::string& type) : path_(path) {
  for (coll::Collective c : {coll::Collective::kAllReduce, coll::Collective::kReduceScatter,
                             coll::Collective::kAllGather, coll::Collective::kAllToAll}) {
    auto m = coll::LoadCostModels(path, type, c, "*");
    models_.insert(models_.end(), m.begin(), m.end());
  }
}

const coll::CostModel& CostTable::Find(coll::Collective c, const coll::Geometry& g,
                                       const coll::Candidate& cand,
                                       const std::string& groups) const {
  for (const coll::CostModel& m : models_) {
    if (m.collective == c && m.On(g) && m.groups == groups && m.cand.Label() == cand.Label())
      return m;
  }
  std::string have;
  for (const coll::Candidate& x : Candidates(c, g, groups))
    have += (have.empty() ? "" : ", ") + x.Label();
  const bool grouped = groups != "all";
  throw MissingCost(fmt::format(
      "no measured {} costs for {} on {}{} in {}; measured there: {} (add them with aries "
      "coll-sweep -k {} --collective {}{} --topologies {} --csv)",
      coll::CollectiveName(c), cand.Label(), coll::GeometryLabel(g),
      grouped ? ", communicators " + groups : "", path_, have.empty() ? "none" : have, g.k,
      coll::CollectiveName(c), grouped ? " --groups " + groups : "",
      coll::TopologyName(g.topology)));
}

CostTable CostTable::AtBound() const {
  CostTable t = *this;
  for (coll::CostModel& m : t.models_) m = m.AtBound();
  return t;
}

std::vector<coll::Candidate> CostTable::Candidates(coll::Collective c, const coll::Geometry& g,
                                                   const std::string& groups) const {
  std::vector<coll::Candidate> v;
  for (const coll::CostModel& m : models_) {
    if (m.collective == c && m.On(g) && m.groups == groups) v.push_back(m.cand);
  }
  return v;
}

std::vector<coll::Candidate> CostTable::Choices(coll::Collective c, const coll::Geometry& g,
                                                const std::vector<coll::Candidate>& cands,
                                                const std::string& groups) const {
  const bool own = c == coll::Collective::kAllToAll || cands.empty() || groups != "all";
  std::vector<coll::Candidate> list = own ? Candidates(c, g, groups) : cands;
  // None measured: Find throws, naming what the file has there and the sweep to run (for
  // the algorithm every shape plans).
  if (list.empty())
    Find(c, g, {c == coll::Collective::kAllToAll ? "direct" : "ring", 2, 1, {}}, groups);
  return list;
}

coll::Candidate CostTable::Cheapest(coll::Collective c, const coll::Geometry& g,
                                    const std::vector<coll::Candidate>& cands, uint64_t bytes,
                                    const std::string& groups) const {
  const coll::Candidate* best = nullptr;
  double cycles = 0;
  const std::vector<coll::Candidate> list = Choices(c, g, cands, groups);  // never empty
  for (const coll::Candidate& x : list) {  // ties to the first, as CheapestOf's
    const double p = Find(c, g, x, groups).Predict(bytes);
    if (!best || p < cycles) {
      best = &x;
      cycles = p;
    }
  }
  return *best;
}

ScopedCost CostTable::Scoped(const coll::Geometry& g, const std::vector<coll::Candidate>& cands,
                             const Parallelism& p, const Chiplet& chip) const {
  // Per (collective, scope) its cost, looked up on first use.
  auto cache = std::make_shared<std::map<std::pair<coll::Collective, Scope>, CommCost>>();
  return [this, g, cands, p, chip, cache](coll::Collective c, uint64_t bytes, Scope s) {
    auto it = cache->find({c, s});
    if (it == cache->end()) {
      const std::string shape = ScopeShape(p, s);
      CommCost f = CheapestOf(g, Choices(c, g, cands, shape), chip, {c}, nullptr, shape);
      it = cache->emplace(std::make_pair(c, s), std::move(f)).first;
    }
    return it->second(c, bytes);
  };
}

CommCost CostTable::Cost(const coll::Geometry& g, const coll::Candidate& cand, const Chiplet& chip,
                         const std::vector<coll::Collective>& needed) const {
  return CheapestOf(g, {cand}, chip, needed);
}

CommCost CostTable::CheapestOf(const coll::Geometry& g, const std::vector<coll::Candidate>& cands,
                               const Chiplet& chip, const std::vector<coll::Collective>& needed,
                               std::shared_ptr<std::map<std::string, unsigned>> used,
                               const std::string& groups) const {
  std::vector<std::pair<coll::Geometry, coll::Candidate>> options;
  for (const coll::Candidate& c : cands) options.push_back({g, c});
  return CheapestOf(options, chip, needed, std::move(used), groups);
}

CommCost CostTable::CheapestOf(
    const std::vector<std::pair<coll::Geometry, coll::Candidate>>& options, const Chiplet& chip,
    const std::vector<coll::Collective>& needed,
    std::shared_ptr<std::map<std::string, unsigned>> used, const std::string& groups,
    const std::function<std::string(const coll::Geometry&)>& package_name) const {
  if (options.empty()) throw std::invalid_argument("no candidate algorithms to choose from");
  bool one_package = true;
  for (const auto& [g, c] : options) {
    one_package = one_package && g.topology == options[0].first.topology;
  }
  struct Found {
    coll::Collective c;
    const coll::CostModel* m;
    std::string label;
  };
  std::vector<Found> found;
  for (coll::Collective c : needed) {
    for (const auto& [g, cand] : options) {
      found.push_back(
          {c, &Find(c, g, cand, groups),
           one_package ? cand.Label()
                       : fmt::format("{} on {}", cand.Label(),
                                     package_name ? package_name(g)
                                                  : std::string(coll::TopologyName(g.topology)))});
    }
  }
  const double ghz = chip.clock_ghz;
  return [found, ghz, used](coll::Collective c, uint64_t bytes) {
    const Found* best = nullptr;
    double cycles = 0;
    for (const Found& f : found) {
      if (f.c != c) continue;
      const double p = f.m->Predict(bytes);
      if (!best || p < cycles) {
        best = &f;
        cycles = p;
      }
    }
    if (!best)
      throw std::logic_error(
          fmt::format("no cost model looked up for {}", coll::CollectiveName(c)));
    if (used) ++(*used)[best->label];
    return cycles / ghz;
  };
}

std::vector<coll::Collective> CollectivesOf(Strategy s) {
  switch (s) {
    case Strategy::kDdp:
    case Strategy::kTp:
      return {coll::Collective::kAllReduce};
    case Strategy::kFsdp:
      return {coll::Collective::kAllGather, coll::Collective::kReduceScatter};
    case Strategy::kPp:
      return {coll::Collective::kAllGather};
  }
  return {};
}

}  // namespace aries::train
