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
  for (unsigned n = 0; n < p.num_nodes(); ++n) {
    std::map<Chan, uint64_t> size;  // elements each outgoing channel carries
    for (const Op& o : p.nodes[n].ops) {
      if (o.act == Act::kSend) size[{n, o.peer, o.flow, o.vc, o.lane}] += o.region.len;
    }
    std::vector<uint64_t> load(ports, 0);
    for (const auto& [chan, len] : size) {  // in the order of their peers
      const auto q =
          static_cast<uint8_t>(std::min_element(load.begin(), load.end()) - load.begin());
      load[q] += len;
      port_of[chan] = q;
      moved = moved || q != 0;
    }
  }
  for (unsigned n = 0; n < p.num_nodes(); ++n) {
    for (Op& o : p.nodes[n].ops) {
      if (o.act == Act::kSend) {
        o.port = port_of.at({n, o.peer, o.flow, o.vc, o.lane});
      } else if (o.IsRecv()) {
        o.port = port_of.at({o.peer, n, o.flow, o.vc, o.lane});
      }
    }
  }
  return moved;
}

}  // namespace aries::coll::steps
