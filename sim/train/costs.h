// Collective times for the training model from the cost models fitted to this simulator's
// cycle-accurate runs (collectives/tuner.h: piecewise-linear between the measured sizes in the
// flits the busiest chiplet sends, linear extrapolation past the largest), per (collective,
// topology, K, algorithm).
#ifndef ARIES_SIM_TRAIN_COSTS_H_
#define ARIES_SIM_TRAIN_COSTS_H_

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "streams.h"
#include "tuner.h"

namespace aries::train {

// The training model's package: the default geometry of `t` and K with `local_ports` endpoint
// ports (the costs of another geometry are not its own).
coll::Geometry PackageOf(coll::Topology t, unsigned k, unsigned local_ports = 1);

// A cost model the file does not have (the message names what it measured there and the sweep
// that measures the missing one).
class MissingCost : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class CostTable {
 public:
  // All-reduce, reduce-scatter, all-gather and all-to-all models of element type `type` in a
  // sweep CSV, the whole package's and the communicators'.
  explicit CostTable(const std::string& path, const std::string& type = "int32");
  // The model of `cand` for (collective, package `g`: PackageOf, communicator shape `groups`);
  // throws MissingCost naming what the file measured for that package when there is none.
  const coll::CostModel& Find(coll::Collective c, const coll::Geometry& g,
                              const coll::Candidate& cand, const std::string& groups = "all") const;
  // The candidates measured for (collective, package, communicator shape).
  std::vector<coll::Candidate> Candidates(coll::Collective c, const coll::Geometry& g,
                                          const std::string& groups = "all") const;
  // The candidates collective `c` chooses among on `g`: over every chiplet (`groups` "all")
  // `cands`, or (none given, or an all-to-all, whose algorithms are not the all-reduce's) every
  // one measured there; over the communicators of a shape every one measured for it (the
  // algorithms that plan communicators: ring, dbt, mtree, tree). Throws MissingCost when there
  // is none.
  std::vector<coll::Candidate> Choices(coll::Collective c, const coll::Geometry& g,
                                       const std::vector<coll::Candidate>& cands,
                                       const std::string& groups = "all") const;
  // The candidate Scoped takes for collective `c` at `bytes`: the cheapest of Choices.
  coll::Candidate Cheapest(coll::Collective c, const coll::Geometry& g,
                           const std::vector<coll::Candidate>& cands, uint64_t bytes,
                           const std::string& groups = "all") const;
  // The costs of strategy `p`'s collectives on package `g`: each the cheapest of its Choices
  // at its size: over every chiplet of `cands`, over a group (Scope) of the models measured for
  // the scope's communicator shape (ScopeShape) with every group at once. A model missing is
  // looked up when first needed and throws MissingCost. The table must outlive the result.
  ScopedCost Scoped(const coll::Geometry& g, const std::vector<coll::Candidate>& cands,
                    const Parallelism& p, const Chiplet& chip) const;
  // ns per collective on package `g` with `cand` (cycles at the chiplet clock), every collective
  // looked up now so that a missing model fails before any schedule is built.
  CommCost Cost(const coll::Geometry& g, const coll::Candidate& cand, const Chiplet& chip,
                const std::vector<coll::Collective>& needed) const;
  // A reconfigurable package: each collective takes the cheapest of `cands` at its size (the
  // controller reprograms the links between collectives; the register writes are not timed).
  // `used`, when given, counts the collectives each candidate served (by label); `groups`: the
  // models measured over the communicators of that shape ("all": the whole package's).
  CommCost CheapestOf(const coll::Geometry& g, const std::vector<coll::Candidate>& cands,
                      const Chiplet& chip, const std::vector<coll::Collective>& needed,
                      std::shared_ptr<std::map<std::string, unsigned>> used = nullptr,
                      const std::string& groups = "all") const;
  // The same over candidates on several packages: a package that reconfigures its links into
  // one of several sub-network topologies between collectives (Adapt-NoC); `used` labels each
  // "candidate on package", the package named by `package_name` (default: its topology).
  CommCost CheapestOf(
      const std::vector<std::pair<coll::Geometry, coll::Candidate>>& options, const Chiplet& chip,
      const std::vector<coll::Collective>& needed,
      std::shared_ptr<std::map<std::string, unsigned>> used = nullptr,
      const std::string& groups = "all",
      const std::function<std::string(const coll::Geometry&)>& package_name = nullptr) const;
  const std::string& path() const { return path_; }
  // The same table with every model at its bound (coll::CostModel::AtBound): the costs of
  // ideal planners of the measured algorithms.
  CostTable AtBound() const;

 private:
  std::string path_;
  std::vector<coll::CostModel> models_;
};

// The collectives a strategy issues.
std::vector<coll::Collective> CollectivesOf(Strategy s);

}  // namespace aries::train

#endif  // ARIES_SIM_TRAIN_COSTS_H_
