// The ring family: ring (ARIES II-C), 2D ring (Table I), ARIES_BW (IV-A1), ARIES_LT (IV-A2).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "plan_steps.h"

namespace aries::coll::steps {

namespace {

// The whole region along a chain (pipelined by the endpoints flit by flit).
void Chain(Builder& b, const std::vector<unsigned>& chain, Range r, bool reduce) {
  for (size_t j = 0; j + 1 < chain.size(); ++j) b.Xfer(chain[j], chain[j + 1], r, reduce);
}

// Rotates `ring` so that it ends at `root` (a chain towards the root) or starts there.
std::vector<unsigned> ChainTo(const std::vector<unsigned>& ring, unsigned root, bool ending) {
  std::vector<unsigned> c(ring.size());
  const size_t at = std::find(ring.begin(), ring.end(), root) - ring.begin();
  for (size_t i = 0; i < ring.size(); ++i) {
    c[i] = ring[(at + (ending ? 1 : 0) + i) % ring.size()];
  }
  return c;
}

}  // namespace

Program PlanRing(const Request& req, const Hardware& hwp) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes(), dirs = req.ring.dirs;
  const Range all{0, p.elements};
  // Direction d runs ring d (the second the first reversed) on part d of every region: of each
  // node's shard for the ring phases (so a reduce-scatter still leaves each node its shard), of
  // the whole buffer for the chains.
  std::vector<std::vector<unsigned>> rings{RingOrder(req.geom.k, req.ring.map)};
  if (dirs == 2) rings.emplace_back(rings[0].rbegin(), rings[0].rend());
  auto part = [&](Range r, unsigned d) { return SubShard(r, dirs, d); };
  // Communicators (Request::groups): each runs its own ring, its members in the package ring's
  // order, at the same time as the others (the whole package: one communicator of every node).
  const auto comms = Communicators(req);
  const unsigned largest = LargestCommunicator(req);
  for (unsigned d = 0; d < dirs; ++d) {
    // Direction d's messages take local port d mod local_ports (with two ports, one each).
    std::vector<size_t> first(n);
    for (unsigned i = 0; i < n; ++i) first[i] = p.nodes[i].ops.size();
    const auto ring_port = static_cast<uint8_t>(d % std::max(1u, hwp.local_ports));
    for (const auto& members : comms) {
      std::vector<unsigned> ring;  // the package ring's order, restricted to the members
      for (unsigned v : rings[d]) {
        if (std::binary_search(members.begin(), members.end(), v)) ring.push_back(v);
      }
      std::vector<Range> own(ring.size());  // position i's shard: its node's rank
      for (size_t i = 0; i < ring.size(); ++i) {
        const CommRank r = *RankOf(req, ring[i]);
        own[i] = part(Shard(all.len, r.size, r.rank), d);
      }
      switch (req.collective) {
        case Collective::kAllReduce:
        case Collective::kBarrier:
          RingReduceScatter(b, ring, own);
          RingAllGather(b, ring, own);
          break;
        case Collective::kReduceScatter:
          RingReduceScatter(b, ring, own);
          break;
        case Collective::kAllGather:
          RingAllGather(b, ring, own);
          break;
        default:
          break;
      }
    }
    const auto& ring = rings[d];
    switch (req.collective) {
      case Collective::kReduce:
        Chain(b, ChainTo(ring, req.root, true), part(all, d), true);
        break;
      case Collective::kBroadcast:
        Chain(b, ChainTo(ring, req.root, false), part(all, d), false);
        break;
      default:  // the ring phases, above
        break;
    }
    for (unsigned i = 0; i < n; ++i) {
      for (size_t j = first[i]; j < p.nodes[i].ops.size(); ++j) p.nodes[i].ops[j].port = ring_port;
    }
  }
  p.sync_steps = largest - 1;  // every phase (and the chains) is N - 1 dependent rounds
  const char* order = req.ring.map == RingMap::kRank
                          ? "ranks in row-major order, row ends and the closing link long hops"
                      : req.geom.k % 2
                          ? "a snake; a Hamiltonian cycle is impossible for odd K: one long hop"
                          : "a Hamiltonian cycle of the grid";
  if (!req.groups.empty()) {
    p.summary = fmt::format(
        "{}: one ring each over its members in the order of the package's ring ({}), all at "
        "once{}",
        GroupsLabel(req), order, dirs == 2 ? ", two directions" : "");
    return p;
  }
  p.summary = fmt::format("{} over the {} nodes ({}), {} chunks{}, dimension-order hops",
                          dirs == 2 ? "two rings in opposite directions" : "one ring", n, order, n,
                          dirs == 2 ? " per direction on half of each shard" : "");
  return p;
}

// 2D ring: rings along the rows, then along the columns on each row's shard.
Program Plan2dRing(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned k = req.geom.k;
  const Range all{0, p.elements};
  std::vector<std::vector<unsigned>> rows(k), cols(k);
  for (unsigned y = 0; y < k; ++y) {
    for (unsigned x = 0; x < k; ++x) {
      rows[y].push_back(y * k + x);
      cols[x].push_back(y * k + x);
    }
  }
  // Row phase: position x of every row ends with chunk x of the vector (the same chunk for a
  // whole column); the column phase reduces that chunk over the column.
  std::vector<Range> row_chunks = Chunks(rows[0].size(), all);
  for (unsigned y = 0; y < k; ++y) RingReduceScatter(b, rows[y], row_chunks);
  std::vector<std::vector<Range>> col_chunks(k);
  for (unsigned x = 0; x < k; ++x) {
    col_chunks[x] = Chunks(cols[x].size(), row_chunks[x]);
    RingReduceScatter(b, cols[x], col_chunks[x]);
  }
  for (unsigned x = 0; x < k; ++x) RingAllGather(b, cols[x], col_chunks[x]);
  for (unsigned y = 0; y < k; ++y) RingAllGather(b, rows[y], row_chunks);
  p.sync_steps = 2 * (k - 1);
  p.summary = fmt::format(
      "rings along the {} rows, then along the columns on each row chunk "
      "(dimension-order hops; the mesh closes a row ring over the row)",
      k);
  return p;
}

// ARIES_BW (IV-A1): the ring, every message of two flits or more split on a flit boundary over
// two links between the same neighbours: the mesh link and a bypass segment wired to idle ports
// (the embedder gives every lane-1 link a segment of its own, Fig. 6(b)).
Program PlanAriesBw(const Request& req, const Hardware& hwp) {
  if (req.geom.k % 2 != 0) {
    throw PlanError(
        fmt::format("aries_bw needs a Hamiltonian ring of neighbours: K even; K = {}", req.geom.k));
  }
  Program p = PlanRing(req, hwp);
  size_t messages = 0, halved = 0;
  for (NodeProgram& np : p.nodes) {
    std::vector<Op> split;
    for (const Op& o : np.ops) {
      const uint64_t flits = (o.region.len + hwp.lanes - 1) / hwp.lanes;
      split.push_back(o);
      const bool send = o.act == Act::kSend;  // (its receive is split alike)
      messages += send;
      if (flits < 2) continue;
      halved += send;
      const uint64_t first = (flits + 1) / 2 * hwp.lanes;  // < len for two flits or more
      split.back().region.len = first;
      Op second = o;
      second.region = {o.region.off + first, o.region.len - first};
      second.lane = 1;
      second.port = static_cast<uint8_t>(1 % std::max(1u, hwp.local_ports));  // a port of its own
      split.push_back(second);
    }
    np.ops = std::move(split);
  }
  // (A message of one flit is not split: at sizes where none reaches two flits, the ring.)
  if (halved == 0) {
    p.summary = fmt::format(
        "ARIES_BW: the ring of algorithm ring; no message halved (none of the {} reaches two "
        "flits), so none takes a bypass segment",
        messages);
    return p;
  }
  p.summary = fmt::format(
      "ARIES_BW: the ring of algorithm ring, {} halved on a flit boundary over the mesh link and "
      "a bypass segment beside it{}",
      halved == messages
          ? std::string("every message")
          : fmt::format("{} of {} messages (those of two flits or more)", halved, messages),
      hwp.local_ports > 1 ? ", each half on a local port of its own" : "");
  return p;
}

// ARIES_LT (IV-A2): L-level hierarchical rings. With b = K^(1/L), a node's x and y have L digits
// in base b; the level-l rings join the b x b nodes that differ only in digit l (level 0: b x b
// blocks of neighbours; level L-1: nodes K/b apart, joined by bypass segments on ARIES), each in
// the ring order of a b x b grid. Reduce-scatter level by level, each on the chunk the previous
// level left, then all-gather back down: L (b^2 - 1) dependent steps per phase.
Program PlanAriesLt(const Request& req, const Hardware&) {
  const unsigned k = req.geom.k, levels = req.levels;
  const auto allowed = AriesLtLevels(k);
  if (std::find(allowed.begin(), allowed.end(), levels) == allowed.end()) {
    std::string names;
    for (unsigned l : allowed) names += fmt::format("{}{}", names.empty() ? "" : ", ", l);
    throw PlanError(
        fmt::format("coll.levels = {}: K = {} must be b^levels for an integer b >= 2; "
                    "allowed levels for K = {}: {}",
                    levels, k, k, names.empty() ? "none" : names));
  }
  const auto b = static_cast<unsigned>(std::lround(std::pow(k, 1.0 / levels)));
  Program p = Empty(req);
  Builder bld(p);
  const unsigned n = p.num_nodes();
  const auto order = RingOrder(b);
  std::vector<Range> hold(n, Range{0, p.elements});
  struct Ring {
    std::vector<unsigned> nodes;
    std::vector<Range> chunks;
  };
  std::vector<std::vector<Ring>> by_level;
  unsigned stride = 1;
  for (unsigned l = 0; l < levels; ++l, stride *= b) {
    std::vector<Ring> rings;
    for (unsigned base = 0; base < n; ++base) {
      if ((base % k / stride) % b != 0 || (base / k / stride) % b != 0) continue;
      Ring r;
      for (unsigned j : order) r.nodes.push_back(base + (j % b) * stride + (j / b) * stride * k);
      r.chunks = Chunks(r.nodes.size(), hold[base]);
      rings.push_back(std::move(r));
    }
    for (const Ring& r : rings) {
      RingReduceScatter(bld, r.nodes, r.chunks);
      for (size_t i = 0; i < r.nodes.size(); ++i) hold[r.nodes[i]] = r.chunks[i];
    }
    by_level.push_back(std::move(rings));
  }
  for (unsigned l = levels; l-- > 0;) {
    for (const Ring& r : by_level[l]) RingAllGather(bld, r.nodes, r.chunks);
  }
  p.sync_steps = levels * (b * b - 1);
  p.summary = fmt::format(
      "ARIES_LT: {} levels of {}x{} rings (level l joins nodes {}^l apart), "
      "reduce-scatter up the levels, all-gather down",
      levels, b, b, b);
  return p;
}

}  // namespace aries::coll::steps

namespace aries::coll {

std::vector<unsigned> AriesLtLevels(unsigned k) {
  std::vector<unsigned> v;
  for (unsigned l = 1; (1u << l) <= k; ++l) {
    for (unsigned b = 2; b <= k; ++b) {
      uint64_t pw = 1;
      for (unsigned i = 0; i < l && pw <= k; ++i) pw *= b;
      if (pw == k) v.push_back(l);
      if (pw >= k) break;
    }
  }
  return v;
}

std::vector<unsigned> RingOrder(unsigned k, RingMap map) {
  std::vector<unsigned> r;
  if (map == RingMap::kRank) {
    for (unsigned i = 0; i < k * k; ++i) r.push_back(i);
    return r;
  }
  if (k % 2 == 1 || k == 1) {
    for (unsigned y = 0; y < k; ++y) {
      for (unsigned i = 0; i < k; ++i) r.push_back(y * k + (y % 2 ? k - 1 - i : i));
    }
    return r;
  }
  // Row 0 left to right, rows 1..K-1 snaking over columns 1..K-1, back up column 0.
  for (unsigned x = 0; x < k; ++x) r.push_back(x);
  for (unsigned y = 1; y < k; ++y) {
    for (unsigned i = 0; i + 1 < k; ++i) r.push_back(y * k + (y % 2 ? k - 1 - i : 1 + i));
  }
  for (unsigned y = k - 1; y >= 1; --y) r.push_back(y * k);
  return r;
}

}  // namespace aries::coll
