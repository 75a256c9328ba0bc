#include "plan_steps.h"

#include <algorithm>
#include <map>
#include <tuple>

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
  p.elements = req.collective == Collective::kBarrier     ? 1
               : req.collective == Collective::kAllToAllV ? AllToAllVLayout(req).elements()
                                                          : req.elements;
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

Range SubShard(Range r, unsigned n, unsigned i) {
  Range c = Shard(r.len, n, i);
  c.off += r.off;
  return c;
}

std::vector<Range> Chunks(size_t n, Range r) {
  std::vector<Range> c(n);
  for (size_t i = 0; i < n; ++i)
    c[i] = SubShard(r, static_cast<unsigned>(n), static_cast<unsigned>(i));
  return c;
}

bool PowerOfTwo(unsigned n) { return n != 0 && (n & (n - 1)) == 0; }

bool SpreadOverPorts(Program& p, unsigned ports) {
  if (ports < 2) return false;
  for (const NodeProgram& np : p.nodes) {
    for (const Op& o : np.ops) {
      if (o.port != 0) return false;
    }
  }
  // (from, to, flow, VC, lane): a channel, whose messages are received in the order sent.
  using Chan = std::tuple<unsigned, unsigned, int, unsigned, uint8_t>;
  std::map<Chan, uint8_t> port_of;
  bool moved = false;
  std::map<Chan, uint64_t> size;
  for (unsigned n = 0; n < p.num_nodes(); ++n) {
    for (const Op& o : p.nodes[n].ops) {
      if (o.act == Act::kSend) size[{n, o.peer, o.flow, o.vc, o.lane}] += o.region.len;
    }
  }
  std::vector<uint64_t> out(p.num_nodes() * ports, 0), in(p.num_nodes() * ports, 0);
  for (const auto& [chan, len] : size) {
    const unsigned a = std::get<0>(chan), b = std::get<1>(chan);
    if (b >= p.num_nodes()) continue;  // (a bad peer: the validator names it)
    unsigned best = 0;
    uint64_t best_cost = ~uint64_t{0};
    for (unsigned q = 0; q < ports; ++q) {
      const uint64_t c = std::max(out[a * ports + q], in[b * ports + q]);
      if (c < best_cost) best = q, best_cost = c;
    }
    out[a * ports + best] += len;
    in[b * ports + best] += len;
    port_of[chan] = static_cast<uint8_t>(best);
    moved = moved || best != 0;
  }
  for (unsigned n = 0; n < p.num_nodes(); ++n) {
    for (Op& o : p.nodes[n].ops) {
      if (!(o.act == Act::kSend || o.IsRecv())) continue;
      // (A receive without its send, or a bad peer, stays on port 0: the validator names it.)
      const auto it = port_of.find(o.act == Act::kSend ? Chan{n, o.peer, o.flow, o.vc, o.lane}
                                                       : Chan{o.peer, n, o.flow, o.vc, o.lane});
      if (it != port_of.end()) o.port = it->second;
    }
  }
  return moved;
}

}  // namespace aries::coll::steps
