// `aries` with no arguments: what the simulator is for, in seconds. Part 1 runs the paper's
// all-reduce families cycle-accurately on a 4x4 ARIES package beside a 4x4 mesh (every element
// of every chiplet verified); part 2 is the point-to-point run (`aries run`), introduced with
// what it does and does not use of the ARIES hardware.
#ifndef ARIES_SIM_TOUR_H_
#define ARIES_SIM_TOUR_H_

#include <cstdint>
#include <vector>

namespace aries::sim {

// Runs part 1 on K x K (the default run: 4) for the given sizes and prints its table; true when
// every run finished with every flit accounted and every element verified.
bool RunCollectiveTour(unsigned k, const std::vector<uint64_t>& sizes);

// The text that introduces part 2 (the point-to-point run on the default package).
void PrintPointToPointIntro();

}  // namespace aries::sim

#endif  // ARIES_SIM_TOUR_H_
