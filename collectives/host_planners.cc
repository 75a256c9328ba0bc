// Host-based baselines (PIUMA): recursive doubling and Rabenseifner.
#include <fmt/format.h>

#include <utility>

#include "plan_steps.h"

namespace aries::coll::steps {

// Recursive doubling: log2 N exchanges of the whole vector.
Program PlanRecursiveDoubling(const Request& req, const Hardware&) {
  Program p = Empty(req);
  const unsigned n = p.num_nodes();
  if (!PowerOfTwo(n))
    throw PlanError(fmt::format("rd needs a power-of-two node count; K = {}", req.geom.k));
  const Range all{0, p.elements};
  unsigned steps = 0;
  for (unsigned d = 1; d < n; d <<= 1, ++steps) {
    for (unsigned a = 0; a < n; ++a) p.nodes[a].ops.push_back({Act::kSend, a ^ d, all});
    for (unsigned a = 0; a < n; ++a) p.nodes[a].ops.push_back({Act::kRecvReduce, a ^ d, all});
  }
  p.sync_steps = steps;
  p.summary =
      "recursive doubling: node n exchanges the whole vector with n ^ 2^s, s = 0..log2 N - 1";
  return p;
}

// Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive doubling.
Program PlanRabenseifner(const Request& req, const Hardware&) {
  Program p = Empty(req);
  const unsigned n = p.num_nodes();
  if (!PowerOfTwo(n)) {
    throw PlanError(
        fmt::format("rabenseifner needs a power-of-two node count; K = {}", req.geom.k));
  }
  // Shard indices [lo, hi) a node holds before the step of distance d; the node whose bit d is
  // 0 keeps the lower half, so node a ends with shard a.
  auto span = [&](unsigned a, unsigned d) {
    unsigned lo = 0, hi = n;
    for (unsigned e = n / 2; e > d; e >>= 1) {
      const unsigned mid = (lo + hi) / 2;
      if (a & e)
        lo = mid;
      else
        hi = mid;
    }
    return std::pair{lo, hi};
  };
  auto range = [&](unsigned lo, unsigned hi) {
    const Range a = Shard(p.elements, n, lo), z = Shard(p.elements, n, hi - 1);
    return Range{a.off, z.end() - a.off};
  };
  const bool rs = req.collective != Collective::kAllGather;
  const bool ag = req.collective != Collective::kReduceScatter;
  unsigned steps = 0;
  for (unsigned d = 1; d < n; d <<= 1) ++steps;
  // One exchange at distance d: every node sends one half of its span to a ^ d (all sends
  // first, so nothing is sent after it is overwritten) and receives the other half. The node
  // whose bit d is 0 owns the lower half. Halving sends the partner's half and reduces into its
  // own; doubling sends its own half and copies the partner's.
  auto exchange = [&](unsigned d, bool send_own, Act recv) {
    auto halves = [&](unsigned a) {
      const auto [lo, hi] = span(a, d);
      const unsigned mid = (lo + hi) / 2;
      const Range lower = range(lo, mid), upper = range(mid, hi);
      return (a & d) ? std::pair{upper, lower} : std::pair{lower, upper};  // own, other
    };
    for (unsigned a = 0; a < n; ++a) {
      const auto [own, other] = halves(a);
      const Range give = send_own ? own : other;
      if (give.len) p.nodes[a].ops.push_back({Act::kSend, a ^ d, give});
    }
    for (unsigned a = 0; a < n; ++a) {
      const auto [own, other] = halves(a);
      const Range take = send_own ? other : own;
      if (take.len) p.nodes[a].ops.push_back({recv, a ^ d, take});
    }
  };
  if (rs) {
    for (unsigned d = n / 2; d >= 1; d >>= 1) exchange(d, false, Act::kRecvReduce);
  }
  if (ag) {
    for (unsigned d = 1; d < n; d <<= 1) exchange(d, true, Act::kRecvCopy);
  }
  p.sync_steps = steps;  // log2 N rounds in either phase
  p.summary =
      "Rabenseifner: recursive halving (reduce-scatter) then recursive doubling "
      "(all-gather), halves of the vector between nodes n and n ^ 2^s";
  return p;
}

}  // namespace aries::coll::steps
