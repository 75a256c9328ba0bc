#include "costs.h"

#include <fmt/format.h>

#include <stdexcept>

namespace aries::train {

namespace {
// The training model's package: the default geometry (the costs of another are not its own).
coll::Geometry Package(coll::Topology t, unsigned k) {
  coll::Geometry g;
  g.topology = t;
  g.k = k;
  return g;
}
}  // namespace

CostTable::CostTable(const std::string& path, const std::string& type) : path_(path) {
  for (coll::Collective c : {coll::Collective::kAllReduce, coll::Collective::kReduceScatter,
                             coll::Collective::kAllGather}) {
    auto m = coll::LoadCostModels(path, type, c);
    models_.insert(models_.end(), m.begin(), m.end());
  }
}

const coll::CostModel& CostTable::Find(coll::Collective c, coll::Topology t, unsigned k,
                                       const coll::Candidate& cand) const {
  for (const coll::CostModel& m : models_) {
    if (m.collective == c && m.On(Package(t, k)) && m.cand.Label() == cand.Label()) return m;
  }
  std::string have;
  for (const coll::Candidate& x : Candidates(c, t, k))
    have += (have.empty() ? "" : ", ") + x.Label();
  throw std::invalid_argument(fmt::format(
      "no measured {} costs for {} on {} {}x{} in {}; measured there: {} (add them with aries "
      "coll-sweep --collective {} --csv)",
      coll::CollectiveName(c), cand.Label(), coll::TopologyName(t), k, k, path_,
      have.empty() ? "none" : have, coll::CollectiveName(c)));
}

std::vector<coll::Candidate> CostTable::Candidates(coll::Collective c, coll::Topology t,
                                                   unsigned k) const {
  std::vector<coll::Candidate> v;
  for (const coll::CostModel& m : models_) {
    if (m.collective == c && m.On(Package(t, k))) v.push_back(m.cand);
  }
  return v;
}

CommCost CostTable::Cost(coll::Topology t, unsigned k, const coll::Candidate& cand,
                         const Chiplet& chip, const std::vector<coll::Collective>& needed) const {
  return CheapestOf(t, k, {cand}, chip, needed);
}

CommCost CostTable::CheapestOf(coll::Topology t, unsigned k,
                               const std::vector<coll::Candidate>& cands, const Chiplet& chip,
                               const std::vector<coll::Collective>& needed,
                               std::shared_ptr<std::map<std::string, unsigned>> used) const {
  if (cands.empty()) throw std::invalid_argument("no candidate algorithms to choose from");
  std::vector<std::pair<coll::Collective, const coll::CostModel*>> found;
  for (coll::Collective c : needed) {
    for (const coll::Candidate& cand : cands) found.push_back({c, &Find(c, t, k, cand)});
  }
  const double ghz = chip.clock_ghz;
  return [found, ghz, used](coll::Collective c, uint64_t bytes) {
    const coll::CostModel* best = nullptr;
    double cycles = 0;
    for (const auto& [fc, m] : found) {
      if (fc != c) continue;
      const double p = m->Predict(bytes);
      if (!best || p < cycles) {
        best = m;
        cycles = p;
      }
    }
    if (!best)
      throw std::logic_error(
          fmt::format("no cost model looked up for {}", coll::CollectiveName(c)));
    if (used) ++(*used)[best->cand.Label()];
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
  }
  return {};
}

}  // namespace aries::train
