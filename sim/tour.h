// `aries` with no arguments: what the simulator is for, in seconds. Part 1 runs the paper's
// all-reduce families cycle-accurately on a 4x4 ARIES package beside a 4x4 mesh (every element
// of every chiplet verified); part 2 is the point-to-point run (`aries run`), introduced with
// what it does and does not use of the ARIES hardware.
#ifndef ARIES_SIM_TOUR_H_
#define ARIES_SIM_TOUR_H_

#include <cstdint>
#include <string>
#include <vector>

namespace aries::sim {

// One row of part 1: a family's baseline on the mesh against the fastest of its ARIES
// algorithms on ARIES, at one size.
struct TourRow {
  uint64_t bytes = 0;
  std::string family;
  std::string mesh_algo, aries_algo;  // labels ("aries_lt L=2")
  uint64_t mesh_cycles = 0, aries_cycles = 0;
  double mesh_bound = 0, aries_bound = 0;  // bound cycles
  unsigned aries_segments = 0;             // links the ARIES plan wires onto bypass segments
  bool verified = false;                   // every run of the row verified
};

struct TourResult {
  std::vector<TourRow> rows;
  unsigned runs = 0;
  bool ok = false;  // every run finished, accounted and verified
};

// Runs part 1 on K x K (the default 4) for the given sizes and prints its table; quiet: no
// printing (tests).
TourResult RunCollectiveTour(unsigned k, const std::vector<uint64_t>& sizes, bool quiet = false);

// The text that introduces part 2 (the point-to-point run on the default package).
void PrintPointToPointIntro();

}  // namespace aries::sim

#endif  // ARIES_SIM_TOUR_H_
