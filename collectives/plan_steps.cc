#include "plan_steps.h"

namespace aries::coll::steps {

void Builder::Xfer(unsigned from, unsigned to, Range r, bool reduce, uint8_t lane) {
  if (r.len == 0) return;
  Op send{Act::kSend, to, r};
  Op recv{reduce ? Act::kRecvReduce : Act::kRecvCopy, from, r};
  send.lane = recv.lane = lane;
  p_.nodes[from].ops.push_back(send);
  p_.nodes[to].ops.push_back(recv);
}

Program Empty(const Request& req) {
  Program p;
  p.req = req;
  p.elements = req.collective == Collective::kBarrier ? 1 : req.elements;
  p.nodes.resize(req.geom.k * req.geom.k);
  return p;
}

void RingReduceScatter(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c) {
  const size_t m = ring.size();
  for (size_t s = 0; s + 1 < m; ++s) {
    for (size_t j = 0; j < m; ++j) {
      b.Xfer(ring[j], ring[(j + 1) % m], c[(j + 2 * m - s - 1) % m], true);
    }
  }
}

void RingAllGather(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c) {
  const size_t m = ring.size();
  for (size_t s = 0; s + 1 < m; ++s) {
    for (size_t j = 0; j < m; ++j) {
      b.Xfer(ring[j], ring[(j + 1) % m], c[(j + m - s) % m], false);
    }
  }
}

std::vector<Range> Chunks(size_t n, Range r) {
  std::vector<Range> c(n);
  for (size_t i = 0; i < n; ++i) {
    c[i] = Shard(r.len, static_cast<unsigned>(n), static_cast<unsigned>(i));
    c[i].off += r.off;
  }
  return c;
}

bool PowerOfTwo(unsigned n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace aries::coll::steps
