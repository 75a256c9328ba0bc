// The validator: refuses a program the hardware cannot run or that does not compute its
// collective, with a message naming the node, port, register or op. Rules, in the order they
// are checked (each has its own test in tests/coll/validate_test.cc):
//  1. shape: one node program per node, ops with peers on the package;
//  2. port muxes and bypass switches: choices that exist (tracks the interposer has), a track
//     taken only where the node cuts it, one port per tap direction (XP/YP share the upper
//     taps, XM/YM the lower ones), muxes only on ARIES nodes;
//  3. routing tables: flows, ports and masks in range, one entry per (flow, input port);
//  4. engine registers: ids below the engine's count (too many collective ids), operation,
//     count, ports and program lengths in range, programs naming configured ids, the stream of
//     every engine op covered by the node's program;
//  5. paths: every engine id's output ports and every message's route reach a node
//     (dimension order over what the muxes select, or the flow's table entries) on a VC the
//     router has; nothing dead (Geometry::faults) is on the way: the message names the fault;
//  6. no cyclic channel dependency among the paths of all messages (per VC, dateline classes
//     included);
//  7. the symbolic execution (symbolic.h): every element of every node ends as the collective
//     defines, each contribution exactly once, and the schedule can finish.
#ifndef ARIES_COLLECTIVES_VALIDATE_H_
#define ARIES_COLLECTIVES_VALIDATE_H_

#include <string>

#include "program.h"
#include "symbolic.h"

namespace aries::coll {

struct Validation {
  std::string error;  // empty: valid
  SymbolicReport symbolic;
  uint64_t channels = 0;  // (node, port, VC) channels the messages use
  uint64_t max_hops = 0;  // longest message path
  bool ok() const { return error.empty(); }
};

Validation Validate(const Program& p, const Hardware& hw);

// Engine flits node n moves for id (ID_COUNT x occurrences in the request program x passes).
uint64_t EngineFlits(const NodeProgram& np, unsigned id, bool response);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_VALIDATE_H_
