// Golden model of the collective engine's arithmetic (rtl/coll_engine/aries_coll_lane.sv): one
// 32-bit lane, every opcode, with the documented fp32 rules (round to nearest even, DAZ on
// inputs, FTZ on results after rounding, canonical quiet NaN, -0 < +0 for min and max).
//
// Written independently of the RTL: fp32 add and mul are computed in double precision (exact
// for a product of two 24-bit significands; for a sum, double rounding through 53 bits is
// innocuous since 53 >= 2 * 24 + 2) and rounded once to fp32.
#ifndef ARIES_COLLECTIVES_ARITH_H_
#define ARIES_COLLECTIVES_ARITH_H_

#include <cstdint>
#include <string>
#include <vector>

namespace aries::coll {

// y = a (op) b for one lane; opcodes of aries_pkg.h (hw::kOp*); unknown opcodes give 0.
uint32_t LaneOp(unsigned op, uint32_t a, uint32_t b);
// dst[i] = dst[i] (op) src[i] for i < n: LaneOp over a flit's lanes, the opcode decoded once.
void LaneOps(unsigned op, uint32_t* dst, const uint32_t* src, unsigned n);

// Left-to-right reduction ((in0 op in1) op in2) ...: the golden value of the order-free
// operations (integer, bitwise, min, max); the engine's own order is EngineTreeReduce below.
uint32_t ReduceInOrder(unsigned op, const std::vector<uint32_t>& inputs);

// The engine's reduction tree (rtl/coll_engine/aries_coll_tree.sv) for one lane: slots are
// the router ports, present[s] says whether slot s takes part. Level by level, pairs (2i,
// 2i+1) combine: both present -> a (op) b, one -> it passes unchanged. Returns the root; a
// single present slot comes out unchanged. At least one slot must be present.
uint32_t EngineTreeReduce(unsigned op, const std::vector<bool>& present,
                          const std::vector<uint32_t>& values);

// The bits of an fp32 lane as a float and back.
float AsFloat(uint32_t bits);
uint32_t AsBits(float f);

// "add.f32", "max.i32", "xor", ...
std::string OpName(unsigned op);

// The engine opcode (hw::kOp*) of reduction `op` (sum, prod, min, max, and, or, xor) on element
// type `type` (int32, fp32); throws std::invalid_argument naming what is allowed (the bitwise
// operations act on int32 elements).
unsigned ReductionOpcode(const std::string& op, const std::string& type);
const char* ReductionNames();  // "sum, prod, min, max, and, or, xor"

inline constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_ARITH_H_
