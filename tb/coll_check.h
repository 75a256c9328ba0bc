// Inputs and the golden check of a collective run: seeded per-node input vectors, and every
// element of every node's result region compared with the collective's definition (the
// reduction over all nodes' inputs, the owner's shard for all-gather, the root's vector for
// broadcast, the sender's block for all-to-all). Exact, bit for bit, for every operation: integer,
// bitwise, min and max against their definition; fp32 add and mul, whose value depends on the
// association, against the program executed with the engine's arithmetic in the hardware's order
// (coll::ExecuteConcretely).
#ifndef ARIES_TB_COLL_CHECK_H_
#define ARIES_TB_COLL_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "program.h"

namespace aries::tb {

std::vector<std::vector<uint32_t>> MakeCollInputs(const coll::Program& p, uint64_t seed);

// Mismatches (at most `max_report`, then a count), empty when every element is right.
std::vector<std::string> CheckCollective(const coll::Program& p,
                                         const std::vector<std::vector<uint32_t>>& in,
                                         const std::vector<std::vector<uint32_t>>& out,
                                         size_t max_report = 5);

}  // namespace aries::tb

#endif  // ARIES_TB_COLL_CHECK_H_
