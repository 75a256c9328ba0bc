#include "transport.h"

#include <algorithm>

namespace aries::sysc {

uint64_t Transport::Sum(uint64_t x) {
  std::vector<uint64_t> v{x};
  AllReduce(v, Reduce::kSum);
  return v[0];
}

uint64_t Transport::Max(uint64_t x) {
  std::vector<uint64_t> v{x};
  AllReduce(v, Reduce::kMax);
  return v[0];
}

bool Transport::Any(bool x) {
  std::vector<uint64_t> v{x ? 1u : 0u};
  AllReduce(v, Reduce::kOr);
  return v[0] != 0;
}

std::vector<Bytes> Transport::AllGather(const Bytes& mine) {
  std::vector<Bytes> all = Exchange(std::vector<Bytes>(ranks(), mine));
  all[rank()] = mine;
  return all;
}

ThreadTransport::Hub::Hub(unsigned ranks)
    : ranks_(ranks), slots_(ranks, std::vector<Bytes>(ranks)), reduce_(ranks) {}

void ThreadTransport::Hub::Barrier() {
  std::unique_lock<std::mutex> lk(mu_);
  const uint64_t gen = generation_;
  if (++arrived_ == ranks_) {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
  } else {
    cv_.wait(lk, [&] { return generation_ != gen; });
  }
}

std::vector<Bytes> ThreadTransport::Exchange(const std::vector<Bytes>& out) {
  for (unsigned r = 0; r < ranks(); ++r) {
    if (r != rank_) hub_->slots_[rank_][r] = out.at(r);
  }
  hub_->Barrier();
  std::vector<Bytes> in(ranks());
  for (unsigned r = 0; r < ranks(); ++r) {
    if (r != rank_) in[r] = hub_->slots_[r][rank_];
  }
  hub_->Barrier();  // nobody writes the slots again before everyone has read them
  return in;
}

void ThreadTransport::AllReduce(std::vector<uint64_t>& v, Reduce op) {
  hub_->reduce_[rank_] = v;
  hub_->Barrier();
  for (unsigned r = 0; r < ranks(); ++r) {
    if (r == rank_) continue;
    const auto& o = hub_->reduce_[r];
    for (size_t i = 0; i < v.size(); ++i) {
      switch (op) {
        case Reduce::kSum:
          v[i] += o.at(i);
          break;
        case Reduce::kMax:
          v[i] = std::max(v[i], o.at(i));
          break;
        case Reduce::kOr:
          v[i] |= o.at(i);
          break;
      }
    }
  }
  hub_->Barrier();
}

}  // namespace aries::sysc
