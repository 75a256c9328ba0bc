#include "coll_endpoint.h"

#include <fmt/format.h>

#include "aries_pkg.h"

namespace aries::tb {

CollEndpoint::CollEndpoint(const sysc::NodeShape& shape, unsigned id, unsigned op,
                           std::vector<uint32_t> vector, double accept, uint64_t seed)
    : shape_(shape),
      id_(id),
      op_(op),
      vec_(std::move(vector)),
      flits_((vec_.size() + shape.lanes - 1) / shape.lanes),
      accept_(accept),
      rng_(seed),
      credits_(shape.coll_depth),
      result_(vec_.size(), 0) {}

bool CollEndpoint::Inject(uint64_t cycle, uint32_t* w) {
  if (!started_ || sent_ == flits_ || credits_ == 0) return false;
  const unsigned vc = shape_.num_vcs;  // request VC
  w[0] = 1u | 2u | (vc << hw::kHdrVcLsb) | (1u << hw::kHdrIsFlowBit) | (id_ << hw::kHdrFlowLsb) |
         (op_ << hw::kCollHdrOpLsb) |
         (static_cast<uint32_t>(sent_ & 0xFFF) << hw::kCollHdrSeqLsb);
  for (unsigned l = 0; l < shape_.lanes; ++l) {
    const size_t e = sent_ * shape_.lanes + l;
    w[1 + l] = e < vec_.size() ? vec_[e] : 0u;
  }
  if (sent_ == 0) first_tx_ = cycle;
  ++sent_;
  --credits_;
  return true;
}

uint8_t CollEndpoint::EjectCredits(uint64_t) {
  uint8_t m = 0;
  for (unsigned c = 0; c < 2; ++c) {
    if (fill_[c] != 0 && (accept_ >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) <
                                                accept_)) {
      --fill_[c];
      m = static_cast<uint8_t>(m | (1u << (shape_.num_vcs + c)));
    }
  }
  return m;
}

void CollEndpoint::AfterEdge(uint64_t cycle, uint8_t inject_credits, const uint32_t* ej) {
  if ((inject_credits >> shape_.num_vcs) & 1u) ++credits_;
  if (!ej) return;
  const uint32_t h = ej[0];
  const unsigned vc = (h >> hw::kHdrVcLsb) & 7u;
  const unsigned id = (h >> hw::kHdrFlowLsb) & 0x3FFu;
  const unsigned op = (h >> hw::kCollHdrOpLsb) & 0xFu;
  const unsigned seq = (h >> hw::kCollHdrSeqLsb) & 0xFFFu;
  if (vc != shape_.num_vcs && vc != shape_.num_vcs + 1) {
    errors_.push_back(fmt::format("cycle {}: a flit on VC {} reached the endpoint", cycle, vc));
    return;
  }
  ++fill_[vc - shape_.num_vcs];
  if (id != id_ || op != op_ || seq != (received_ & 0xFFF)) {
    errors_.push_back(fmt::format("cycle {}: received id {} op {} seq {}, expected id {} op {} "
                                  "seq {}",
                                  cycle, id, op, seq, id_, op_, received_ & 0xFFF));
  }
  if (received_ >= flits_) {
    errors_.push_back(fmt::format("cycle {}: more than {} flits received", cycle, flits_));
    return;
  }
  for (unsigned l = 0; l < shape_.lanes; ++l) {
    const size_t e = received_ * shape_.lanes + l;
    if (e < result_.size()) result_[e] = ej[1 + l];
  }
  ++received_;
  last_rx_ = cycle;
}

}  // namespace aries::tb
