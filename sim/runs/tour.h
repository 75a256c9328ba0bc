// `aries` with no arguments: what the simulator is for, in seconds. Part 1 runs the paper's
// all-reduce families cycle-accurately on a 4x4 ARIES package beside a 4x4 mesh (every element
// of every chiplet verified); part 2 is the point-to-point run (`aries run`), introduced with
// what it does and does not use of the ARIES hardware.
#ifndef ARIES_SIM_TOUR_H_
#define ARIES_SIM_TOUR_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "coll_run.h"

namespace aries::sim {

// One row of part 1: a family at one size, the fastest of its baseline on the mesh and the
// fastest of ARIES's algorithms of the family on ARIES; `ok` when every run of the row finished
// with every flit accounted and every element verified.
struct TourRow {
  uint64_t bytes = 0;
  std::string family;
  CollMeasurement mesh, aries;
  bool ok = true;
};
struct Tour {
  std::vector<TourRow> rows;
  unsigned runs = 0;
  bool ok = true;  // every row
};
// Measures part 1 on K x K for the given sizes (nothing printed); `each_row` is called as each
// row is measured.
Tour MeasureTour(unsigned k, const std::vector<uint64_t>& sizes,
                 const std::function<void(const TourRow&)>& each_row = {});

// Runs part 1 on K x K (the default run: 4) for the given sizes and prints its table; true when
// every run finished with every flit accounted and every element verified.
bool RunCollectiveTour(unsigned k, const std::vector<uint64_t>& sizes);

// The text that introduces part 2 (the point-to-point run on the default package).
void PrintPointToPointIntro();

}  // namespace aries::sim

#endif  // ARIES_SIM_TOUR_H_
