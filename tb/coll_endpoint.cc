#include "coll_endpoint.h"

#include <fmt/format.h>

#include <algorithm>

#include "aries_pkg.h"

namespace aries::tb {

CollEndpoint::CollEndpoint(const sysc::NodeShape& shape, unsigned id, unsigned op,
                           std::vector<uint32_t> vector, double accept, uint64_t seed)
    : CollEndpoint(
          shape, {Coll{id, op, vector}},  // (a copy: the size is read below)
          {Step{0, static_cast<unsigned>((vector.size() + shape.lanes - 1) / shape.lanes)}}, 1,
          accept, seed) {}

CollEndpoint::CollEndpoint(const sysc::NodeShape& shape, std::vector<Coll> colls,
                           std::vector<Step> steps, unsigned passes, double accept, uint64_t seed)
    : shape_(shape), flits_(0), accept_(accept), rng_(seed), port_(shape) {
  for (Coll& c : colls) {
    State st{c.id, c.op, std::move(c.vector), {}};
    st.result.assign(st.vec.size(), 0);
    colls_.push_back(std::move(st));
  }
  for (unsigned p = 0; p < passes; ++p) {
    for (const Step& s : steps) order_.insert(order_.end(), s.flits, s.id);
  }
  flits_ = order_.size();
  for (size_t c = 0; c < colls_.size(); ++c) {
    size_t n = 0;
    for (size_t o : order_) n += o == c;
    if (n * shape.lanes < colls_[c].vec.size() || (n - 1) * shape.lanes >= colls_[c].vec.size()) {
      errors_.push_back(fmt::format("schedule sends {} flits of collective {} for {} elements", n,
                                    c, colls_[c].vec.size()));
    }
  }
}

bool CollEndpoint::Inject(uint64_t /*cycle*/, unsigned port, uint32_t* w) {
  if (port != 0 || !started_ || sent_ == flits_ || !port_.CanSend()) return false;
  State& c = colls_[CollOf(sent_)];
  const size_t first = c.sent * shape_.lanes;
  const size_t n = first < c.vec.size() ? std::min<size_t>(shape_.lanes, c.vec.size() - first) : 0;
  port_.Send(c.id, c.op, c.sent, c.vec.data() + (n ? first : 0), n, w);
  ++c.sent;
  ++sent_;
  return true;
}

uint8_t CollEndpoint::EjectCredits(uint64_t, unsigned port) {
  uint8_t m = 0;
  if (port != 0) return m;
  for (unsigned c = 0; c < 2; ++c) {
    if (fill_[c] != 0 &&
        (accept_ >= 1.0 || std::uniform_real_distribution<double>(0, 1)(rng_) < accept_)) {
      --fill_[c];
      m = static_cast<uint8_t>(m | (1u << (shape_.num_vcs + c)));
    }
  }
  return m;
}

void CollEndpoint::AfterEdge(uint64_t cycle, const sysc::EndpointEdge& edge) {
  port_.Returned(edge.credits[0]);
  for (unsigned i = 1; i < edge.ports; ++i) {
    if (edge.ejected[i])
      errors_.push_back(fmt::format("cycle {}: a flit on local port {}", cycle, i));
  }
  const uint32_t* ej = edge.ejected[0];
  if (!ej) return;
  const hw::CollHeader h = hw::UnpackCollHeader(ej[0]);
  if (!port_.IsEngineVc(h.vc)) {
    errors_.push_back(fmt::format("cycle {}: a flit on VC {} reached the endpoint", cycle, h.vc));
    return;
  }
  ++fill_[h.vc - shape_.num_vcs];
  if (received_ >= flits_) {
    errors_.push_back(fmt::format("cycle {}: more than {} flits received", cycle, flits_));
    return;
  }
  State& c = colls_[CollOf(received_)];
  sysc::EnginePort::Check(cycle, h, c.id, c.op, c.received, &errors_);
  for (unsigned l = 0; l < shape_.lanes; ++l) {
    const size_t e = c.received * shape_.lanes + l;
    if (e < c.result.size()) c.result[e] = ej[1 + l];
  }
  ++c.received;
  ++received_;
  last_rx_ = cycle;
}

bool SharedPort::Inject(uint64_t cycle, unsigned port, uint32_t* words) {
  return a_->Inject(cycle, port, words) || b_->Inject(cycle, port, words);
}

uint8_t SharedPort::EjectCredits(uint64_t cycle, unsigned port) {
  return static_cast<uint8_t>((a_->EjectCredits(cycle, port) & a_vcs_) |
                              (b_->EjectCredits(cycle, port) & ~a_vcs_));
}

void SharedPort::AfterEdge(uint64_t cycle, const sysc::EndpointEdge& edge) {
  // Each side gets its VCs' credits and flits, port by port.
  sysc::EndpointEdge a, b;
  a.ports = b.ports = edge.ports;
  for (unsigned i = 0; i < edge.ports; ++i) {
    const uint32_t* ej = edge.ejected[i];
    const bool to_a = ej && ((a_vcs_ >> hw::UnpackCollHeader(ej[0]).vc) & 1u);
    a.credits[i] = static_cast<uint8_t>(edge.credits[i] & a_vcs_);
    b.credits[i] = static_cast<uint8_t>(edge.credits[i] & ~a_vcs_);
    a.ejected[i] = to_a ? ej : nullptr;
    b.ejected[i] = to_a ? nullptr : ej;
  }
  a_->AfterEdge(cycle, a);
  b_->AfterEdge(cycle, b);
}

}  // namespace aries::tb
