#include "engine_port.h"

#include <fmt/format.h>

namespace aries::sysc {

bool EnginePort::Check(uint64_t cycle, const hw::CollHeader& h, unsigned id, unsigned op,
                       uint64_t seq, std::vector<std::string>* errors) {
  const unsigned want = static_cast<unsigned>(seq & ((1u << hw::kCollSeqW) - 1u));
  if (h.id == id && h.op == op && h.seq == want) return true;
  errors->push_back(
      fmt::format("cycle {}: received id {} op {} seq {}, expected id {} op {} seq {}", cycle, h.id,
                  h.op, h.seq, id, op, want));
  return false;
}

}  // namespace aries::sysc
