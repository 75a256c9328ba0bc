// Planners: (topology, K, algorithm, collective, operation, size) -> Program, chosen by name.
// Every plan is validated (validate.h) before it is returned; a request no planner can serve
// gets a PlanError naming the offending item and what is allowed.
#ifndef ARIES_COLLECTIVES_PLANNERS_H_
#define ARIES_COLLECTIVES_PLANNERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "program.h"
#include "validate.h"

namespace aries::coll {

// The parameter an algorithm's variants differ in (the sweeps measure each, the tuner labels
// them): none, the ring levels L of ARIES_LT, or the embeddings E of the in-network tree.
enum class AlgoVariant { kNone, kLevels, kEmbeddings };

struct AlgorithmInfo {
  const char* name;
  const char* description;
  bool engine;                          // uses the collective engine (in-network)
  std::vector<Collective> collectives;  // what it implements
  std::vector<Topology> topologies;     // where it applies
  const char* family;                   // ARIES IV: ring, dbt, mtree; or its own name
  AlgoVariant variant = AlgoVariant::kNone;
  bool Serves(Collective c) const;
  bool Serves(Topology t) const;
};

// Every algorithm the factory knows, in order.
const std::vector<AlgorithmInfo>& Algorithms();
// The algorithm called `name`, or nullptr.
const AlgorithmInfo* FindAlgorithm(std::string_view name);
// "ring, 2dring, ..." for messages and --help.
std::string AlgorithmNames();

// Plans and validates; throws PlanError (unknown algorithm, a collective or topology the
// algorithm does not serve, hardware too small) or std::logic_error if a planner produced a
// program its own validator refuses (a bug, with the validator's message).
Program Plan(const Request& req, const Hardware& hw, Validation* validation = nullptr);

// The level counts L that aries_lt accepts for K (K = b^L for an integer b >= 2), increasing.
std::vector<unsigned> AriesLtLevels(unsigned k);

// The ring order (a Hamiltonian cycle where the grid has one: K even) used by the ring planner.
std::vector<unsigned> RingOrder(unsigned k);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_PLANNERS_H_
