// Symbolic execution of a program: proves that it computes its collective. Every element of
// every node carries the set of nodes whose input it contains; a reduction joins sets and
// refuses to count a node twice, a copy replaces, and at the end every element of every
// node's result region must hold exactly what the collective defines (all nodes for a
// reduction, the owner of the shard for all-gather, the root for broadcast, the sender of the
// block for all-to-all). Every element also carries the offset it came from in its inputs'
// buffers: a reduction joins elements of one offset only, and at the end every element must
// hold the offset the collective defines (its own, or the block it was sent from for
// all-to-all); a message may land at another offset than it was sent from. It also finds
// schedules that cannot finish (a receive with no matching send, a cycle of receives) and
// messages nobody receives.
//
// Cost: the elements are tracked per interval between region boundaries, not per element, so
// a 64 MB collective costs what a 1 KB one does.
#ifndef ARIES_COLLECTIVES_SYMBOLIC_H_
#define ARIES_COLLECTIVES_SYMBOLIC_H_

#include <string>

#include "program.h"
#include "wiring.h"

namespace aries::coll {

struct SymbolicReport {
  std::string error;        // empty: the program computes its collective
  uint64_t messages = 0;    // point-to-point messages matched
  uint64_t engine_ids = 0;  // engine trees evaluated
  uint64_t intervals = 0;   // element intervals tracked
  // The error is the executor's capacity, not the program's: its element intervals are common to
  // every node, and messages received at other offsets than they were sent from (all-to-all-v's
  // unaligned blocks) can cut them into more than it tracks.
  bool capacity = false;
};

// The most nodes a program may have (the symbolic execution's limit: K <= 16).
inline constexpr unsigned kMaxSymbolicNodes = 256;
SymbolicReport ExecuteSymbolically(const Program& p, const Wiring& w);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_SYMBOLIC_H_
