// Choosing an all-reduce algorithm from measured costs, the way NCCL's tuner does, but fed by
// this simulator: `aries coll-sweep --csv` writes the cycles of every (topology, K, candidate,
// size) it ran; a candidate's cost at any size is the piecewise-linear interpolation between
// its measured sizes, in the flits its busiest node sends (CostModel::flits; linear
// extrapolation beyond the first and last), and `--algo auto` takes
// the cheapest. The quality of each model is its leave-one-out error: every inner measured
// point predicted from its neighbours alone.
#ifndef ARIES_COLLECTIVES_TUNER_H_
#define ARIES_COLLECTIVES_TUNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "planners.h"
#include "program.h"

namespace aries::coll {

// An algorithm with its embedding parameters.
struct Candidate {
  std::string algo;
  unsigned levels = 2;      // aries_lt
  unsigned embeddings = 1;  // tree
  RingLayout ring{};        // ring
  // "ring", "aries_lt L=3", "tree E=4", "ring rank bidir" (a ring map other than the snake, two
  // directions)
  std::string Label() const;
  // `r` asking for this candidate (its algorithm and embedding parameters).
  void ApplyTo(Request& r) const;
};

struct CostPoint {
  uint64_t bytes;
  double cycles;
  // Cycles of the run's bandwidth bound (the file's cycles x bound_fraction: 2(N-1)/N M/(p B)
  // for a point-to-point all-reduce, M/B for the in-network tree; `aries coll` prints it).
  double bound = 0;
};

struct CostModel {
  Collective collective = Collective::kAllReduce;
  Topology topology = Topology::kMesh;
  unsigned k = 0;
  // The rest of the package geometry the runs had (a cost file without these columns was
  // measured on the default geometry, the only one `aries coll` ran before they existed).
  unsigned tracks = Geometry{}.tracks;
  unsigned link_latency = Geometry{}.link_latency;
  unsigned extra_per_pitch = Geometry{}.extra_per_pitch;
  unsigned local_ports = Geometry{}.local_ports;  // node.local_ports (1 in files without it)
  bool On(const Geometry& g) const {
    return topology == g.topology && k == g.k && tracks == g.tracks &&
           link_latency == g.link_latency && extra_per_pitch == g.extra_per_pitch &&
           local_ports == g.local_ports;
  }
  // The package geometry the runs had (no faults).
  Geometry Geom() const;
  // "mesh 4x4", with the geometry's other fields where they are not the defaults.
  std::string Where() const;
  Candidate cand;
  // Communicators (coll.groups): "all" (one of every chiplet), or a named shape (ParseGroups)
  // whose groups all ran the collective at once; `points` are then the cycles until the last
  // group finished, and `alone` the first group's cycles run alone on the package (the same
  // sizes; empty where not measured): what running at once costs.
  std::string groups = "all";
  std::vector<CostPoint> points;  // strictly increasing bytes
  std::vector<CostPoint> alone;
  // Mean over the sizes measured both ways of cycles at once / alone (1 without `alone`).
  double Slowdown() const;
  // The flits the busiest node injects at a size (BusiestNodeFlits of the candidate's program
  // planned for this package and communicators; 0 where it cannot be planned), or none.
  // LoadCostModels sets it. A collective's cycles step with the whole flits of each piece it
  // cuts the data into (a 16-member reduce-scatter of 4,160 bytes sends shards of 65 elements
  // in 5 flits, of 4,096 bytes in 4), which a line through the measured sizes in bytes does
  // not see; Predict interpolates in these flits where the two sizes around differ in them.
  std::function<uint64_t(uint64_t bytes)> flits;
  // Interpolated cycles (in flits as above, else in bytes), never below the smallest measured
  // value, nor above `cap`'s prediction where there is one.
  double Predict(uint64_t bytes) const;
  // AtBound's: the measured model, so that no size (past the last measured one too, where the
  // last two points extrapolate) is predicted slower at the bound than measured.
  std::shared_ptr<const CostModel> cap;
  // Largest relative error of an inner point predicted from its two neighbours (0 with fewer
  // than three points).
  double LeaveOneOutError() const;
  // The same candidate at its bound: at every measured size the bound's cycles plus the least
  // overhead over the bound the candidate paid at any measured size, never below its cycles at
  // the smallest measured size (its latency), where that is less than what it measured. What a
  // planner of the same algorithm on the same package could reach streaming at the endpoint's
  // rate (the bandwidth bound; its latency stays as measured). A model with a point of unknown
  // bound (0), or of communicators (its `alone` runs have no bound), comes back unchanged.
  CostModel AtBound() const;
};

// The alpha-beta model cycles = alpha + beta * bytes fitted to a candidate's measurements by
// least squares on the relative error (weights 1 / cycles^2, so small and large sizes count
// alike), with the largest relative error of the fit over the measured points.
struct AlphaBeta {
  double alpha = 0;  // cycles
  double beta = 0;   // cycles per byte
  double max_rel_error = 0;
};
AlphaBeta FitAlphaBeta(const std::vector<CostPoint>& points);

// The candidates a sweep measures for algorithm `a` on K x K with `local_ports` endpoint ports:
// aries_lt at every level count K allows above 1 (L = 1 is the ring), the in-network tree with
// one and four embeddings, the ring as the snake and in rank order (ring maps), and with more
// than one local port also both in two directions (each direction on its own port), every
// other algorithm as it is.
std::vector<Candidate> SweepCandidates(const AlgorithmInfo& a, unsigned k, unsigned local_ports);

// The CSV header `aries coll-sweep` writes and LoadCostModels reads (after the measurement the
// geometry's tracks, link latency and extra cycles per pitch, then the ring's layout: ring_map,
// ring_dirs, then the node's local_ports, then the communicators: groups and alone_cycles, the
// first group's cycles alone, 0 when not run), and one measured row.
const char* CostCsvHeader();
inline constexpr size_t kCostCsvFields = 20;  // the columns of CostCsvHeader
// The comma-separated cells of a cost CSV line (the cost CSV quotes nothing).
std::vector<std::string> CostCells(const std::string& line);
std::string CostCsvRow(const Geometry& g, const Candidate& c, Collective coll,
                       const std::string& type, uint64_t bytes, uint64_t cycles, double busbw,
                       double bound_fraction, bool ok, const std::string& groups = "all",
                       uint64_t alone_cycles = 0);
// "mesh 4x4" for a geometry, with its other fields where they are not the defaults.
std::string GeometryLabel(const Geometry& g);
// Reads the rows of collective `coll`, element type `type` ("int32", "fp32") and communicator
// shape `groups` ("all": the whole package; "*": every shape) that passed from a sweep CSV;
// repeated sizes of one candidate are averaged. Throws PlanError naming file:line on a
// malformed row, an unknown collective, a shape ParseGroups does not name or an algorithm the
// factory does not know.
std::vector<CostModel> LoadCostModels(const std::string& path, const std::string& type = "int32",
                                      Collective coll = Collective::kAllReduce,
                                      const std::string& groups = "all");

struct Choice {
  Candidate best;
  double predicted = 0;
  double fit_error = 0;                                 // the best model's leave-one-out error
  std::vector<std::pair<std::string, double>> ranking;  // label, predicted cycles, cheapest first
  std::vector<std::pair<std::string, std::string>> refused;  // label, why it cannot serve
};
// The cheapest candidate for (geometry, bytes); throws PlanError when the models have none
// measured on that geometry (naming the ones they have): a cost model of another link latency
// or track count says nothing about this package. `refuse`, when given, says why a candidate
// cannot serve (empty: it can): the controller plans each one around the package's faults and
// the cheapest surviving one wins. The costs are the fault-free package's (the models' geometry
// has no faults); a detour's extra cycles are not in them.
Choice ChooseAlgorithm(const std::vector<CostModel>& models, const Geometry& g, uint64_t bytes,
                       const std::function<std::string(const Candidate&)>& refuse = nullptr);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_TUNER_H_
