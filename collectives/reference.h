// The reference result of a program: every op executed on concrete values with the engine's
// arithmetic (arith.h), in the order the hardware applies them. An endpoint applies its ops in
// program order per element (a receive-reduce computes buffer (op) arriving); an engine id
// reduces its inputs through the fixed tree over the router's port slots (EngineTreeReduce:
// the same association for the same ports, whatever the arrival times). So the result is
// exact, bit for bit, for every operation, fp32 add and mul included (whose value depends on
// the association), subnormals, infinities and NaNs following the engine's rules.
//
// For a program that ExecuteSymbolically accepts; throws std::logic_error on one it would
// refuse (a receive without a send, an engine id without its inputs).
#ifndef ARIES_COLLECTIVES_REFERENCE_H_
#define ARIES_COLLECTIVES_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "program.h"
#include "wiring.h"

namespace aries::coll {

// Every node's whole buffer after `p` runs on `inputs` (one vector of p.elements per node).
std::vector<std::vector<uint32_t>> ExecuteConcretely(
    const Program& p, const Wiring& w, const std::vector<std::vector<uint32_t>>& inputs);

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_REFERENCE_H_
