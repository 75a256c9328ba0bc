// Planners: (topology, K, algorithm, collective, operation, size) -> Program, chosen by name.
// Every plan is validated (validate.h) before it is returned; a request no planner can serve
// gets a PlanError naming the offending item and what is allowed.
#ifndef ARIES_COLLECTIVES_PLANNERS_H_
#define ARIES_COLLECTIVES_PLANNERS_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "program.h"
#include "validate.h"

namespace aries::coll {

// The parameter an algorithm's variants differ in (the sweeps measure each, the tuner labels
// them): none, the ring levels L of ARIES_LT, or the embeddings E of the in-network tree.
enum class AlgoVariant { kNone, kLevels, kEmbeddings };

// The algorithm's row of ARIES Table I: the table's formulas for an all-reduce of G bytes on N
// chiplets (K = sqrt N per side; L ring levels for ARIES_LT), as printed and as values.
struct TableIRow {
  unsigned order;     // the row's place in the table
  const char* label;  // the table's name of the algorithm
  Topology topology;  // where the table counts it (torus; ARIES_LT on ARIES)
  const char *links_formula, *message_formula, *sync_formula;
  double (*links)(double n, unsigned levels);    // logical links used
  double (*message)(double n, unsigned levels);  // largest message as a fraction of G
  double (*sync)(double n, unsigned levels);     // synchronization steps
};

// Where the paper's figures (ARIES Figs. 9-11, V-B) put an algorithm of one of its families.
struct PaperRole {
  bool baseline = false;    // the family's algorithm on mesh, torus and flattened butterfly
  int aries = -1;           // its place among the family's ARIES candidates (-1: not one)
  bool fig9_aries = false;  // drawn on ARIES in Fig. 9 (ARIES's own variants, and the family's
                            // algorithm where ARIES has none of its own)
  const char* family_label = nullptr;  // the baseline's: the family as the training model names it
};

struct AlgorithmInfo {
  const char* name;
  const char* description;
  bool engine;                          // uses the collective engine (in-network)
  std::vector<Collective> collectives;  // what it implements
  std::vector<Topology> topologies;     // where it applies
  const char* family;                   // ARIES IV: ring, dbt, mtree; or its own name
  AlgoVariant variant = AlgoVariant::kNone;
  PaperRole paper = {};
  const TableIRow* table1 = nullptr;  // its row of Table I, if it has one
  bool ring_layout = false;           // takes coll.ring_map and coll.ring_dirs (Request::ring)
  bool communicators = false;         // plans Request::groups (its collectives over each
                                      // group at once)
  bool concentrates = false;          // gathers 2x2 groups first (ARIES IV-B2: cmtree)
  bool rank_tree = false;             // its trees join ranks whatever the links (dbt): the same
                                      // tree edges on every topology, only their paths differ
  bool Serves(Collective c) const;
  bool Serves(Topology t) const;
};

// The paper's algorithm families in the paper's order (those with a baseline algorithm).
std::vector<std::string> PaperFamilies();
// The family's algorithm on the baseline topologies, and its ARIES candidates in order.
const AlgorithmInfo& FamilyBaseline(const std::string& family);
std::vector<const AlgorithmInfo*> AriesCandidates(const std::string& family);
// The algorithms with a Table I row, in the table's order.
std::vector<const AlgorithmInfo*> TableIAlgorithms();

// Every algorithm the factory knows, in order.
const std::vector<AlgorithmInfo>& Algorithms();
// The algorithm called `name`, or nullptr.
const AlgorithmInfo* FindAlgorithm(std::string_view name);
// "ring, 2dring, ..." for messages and --help: every algorithm, or those `which` accepts, in
// registry order, joined by `sep`.
std::string AlgorithmNames(const std::function<bool(const AlgorithmInfo&)>& which = nullptr,
                           const char* sep = ", ");

// Plans and validates; throws PlanError (unknown algorithm, a collective or topology the
// algorithm does not serve, hardware too small) or std::logic_error if a planner produced a
// program its own validator refuses (a bug, with the validator's message). On the concentrated
// mesh (kCmesh) the program is the chiplet mesh's, each chiplet with one local port and no
// engine; coll::Concentrate routes it onto the routers.
Program Plan(const Request& req, const Hardware& hw, Validation* validation = nullptr);
// The planner's program for `req`, checked as Plan checks the request but neither embedded nor
// validated: what a plan's shape says (its flits), not a program to run.
Program PlanUnvalidated(const Request& req, const Hardware& hw);
// The most flits any node's endpoint injects for `p`: its sends, `lanes` elements a flit (a
// region a flit does not divide ends with a partial one), and its engine streams with their
// padding (EngineFlits).
uint64_t BusiestNodeFlits(const Program& p, unsigned lanes);

// The level counts L that aries_lt accepts for K (K = b^L for an integer b >= 2), increasing.
std::vector<unsigned> AriesLtLevels(unsigned k);

// The ring order the ring planner lays over the K x K grid: snake, a Hamiltonian cycle where the
// grid has one (K even); rank, 0 .. N-1 (see RingMap).
std::vector<unsigned> RingOrder(unsigned k, RingMap map = RingMap::kSnake);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_PLANNERS_H_
