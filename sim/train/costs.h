// Collective times for the training model from the cost models fitted to this simulator's
// cycle-accurate runs (collectives/tuner.h: piecewise-linear in the measured sizes, linear
// extrapolation past the largest), per (collective, topology, K, algorithm).
#ifndef ARIES_SIM_TRAIN_COSTS_H_
#define ARIES_SIM_TRAIN_COSTS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "streams.h"
#include "tuner.h"

namespace aries::train {

class CostTable {
 public:
  // All-reduce, reduce-scatter and all-gather models of element type `type` in a sweep CSV.
  explicit CostTable(const std::string& path, const std::string& type = "int32");
  // The model of `cand` for (collective, topology, K); throws std::invalid_argument naming
  // what the file measured for that topology and K when there is none.
  const coll::CostModel& Find(coll::Collective c, coll::Topology t, unsigned k,
                              const coll::Candidate& cand) const;
  // The candidates measured for (collective, topology, K).
  std::vector<coll::Candidate> Candidates(coll::Collective c, coll::Topology t, unsigned k) const;
  // ns per collective on (t, K) with `cand` (cycles at the chiplet clock), every collective
  // looked up now so that a missing model fails before any schedule is built.
  CommCost Cost(coll::Topology t, unsigned k, const coll::Candidate& cand, const Chiplet& chip,
                const std::vector<coll::Collective>& needed) const;
  // A reconfigurable package: each collective takes the cheapest of `cands` at its size (the
  // controller reprograms the links between collectives; the register writes are not timed).
  // `used`, when given, counts the collectives each candidate served (by label).
  CommCost CheapestOf(coll::Topology t, unsigned k, const std::vector<coll::Candidate>& cands,
                      const Chiplet& chip, const std::vector<coll::Collective>& needed,
                      std::shared_ptr<std::map<std::string, unsigned>> used = nullptr) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<coll::CostModel> models_;
};

// The collectives a strategy issues.
std::vector<coll::Collective> CollectivesOf(Strategy s);

}  // namespace aries::train

#endif  // ARIES_SIM_TRAIN_COSTS_H_
