#include "planners.h"

#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "aries_pkg.h"
#include "embed.h"
#include "wiring.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

// Appends ops to node programs (empty regions are skipped on both sides).
class Builder {
 public:
  explicit Builder(Program& p) : p_(p) {}
  void Xfer(unsigned from, unsigned to, Range r, bool reduce, uint8_t lane = 0) {
    if (r.len == 0) return;
    Op send{Act::kSend, to, r};
    Op recv{reduce ? Act::kRecvReduce : Act::kRecvCopy, from, r};
    send.lane = recv.lane = lane;
    p_.nodes[from].ops.push_back(send);
    p_.nodes[to].ops.push_back(recv);
  }

 private:
  Program& p_;
};

Program Empty(const Request& req) {
  Program p;
  p.req = req;
  p.elements = req.collective == Collective::kBarrier ? 1 : req.elements;
  p.nodes.resize(req.geom.k * req.geom.k);
  return p;
}

// Ring reduce-scatter over `ring` (node ids in ring order): position i ends with chunk c[i]
// fully reduced. The chunk c[i] starts at position i + 1 and travels the ring once.
void RingReduceScatter(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c) {
  const size_t m = ring.size();
  for (size_t s = 0; s + 1 < m; ++s) {
    for (size_t j = 0; j < m; ++j) {
      b.Xfer(ring[j], ring[(j + 1) % m], c[(j + 2 * m - s - 1) % m], true);
    }
  }
}

// Ring all-gather: position i starts with chunk c[i]; every position ends with all of them.
void RingAllGather(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c) {
  const size_t m = ring.size();
  for (size_t s = 0; s + 1 < m; ++s) {
    for (size_t j = 0; j < m; ++j) {
      b.Xfer(ring[j], ring[(j + 1) % m], c[(j + m - s) % m], false);
    }
  }
}

// The whole region along a chain (pipelined by the endpoints flit by flit).
void Chain(Builder& b, const std::vector<unsigned>& chain, Range r, bool reduce) {
  for (size_t j = 0; j + 1 < chain.size(); ++j) b.Xfer(chain[j], chain[j + 1], r, reduce);
}

// Chunks of `r` for a ring whose position i must end with the shard of node ring[i] (so a
// reduce-scatter leaves every node its own shard and an all-gather starts from it).
std::vector<Range> OwnShards(const std::vector<unsigned>& ring, Range r, unsigned n_all,
                             bool whole_package) {
  std::vector<Range> c(ring.size());
  for (size_t i = 0; i < ring.size(); ++i) {
    if (whole_package) {
      c[i] = Shard(r.len, n_all, ring[i]);
    } else {
      c[i] = Shard(r.len, static_cast<unsigned>(ring.size()), static_cast<unsigned>(i));
    }
    c[i].off += r.off;
  }
  return c;
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

Program PlanRing(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes();
  const auto ring = RingOrder(req.geom.k);
  const Range all{0, p.elements};
  const auto own = OwnShards(ring, all, n, true);
  switch (req.collective) {
    case Collective::kAllReduce:
    case Collective::kBarrier:
      RingReduceScatter(b, ring, own);
      RingAllGather(b, ring, own);
      break;
    case Collective::kReduceScatter: RingReduceScatter(b, ring, own); break;
    case Collective::kAllGather: RingAllGather(b, ring, own); break;
    case Collective::kReduce: Chain(b, ChainTo(ring, req.root, true), all, true); break;
    case Collective::kBroadcast: Chain(b, ChainTo(ring, req.root, false), all, false); break;
  }
  p.sync_steps = n - 1;  // every phase (and the chains) is N - 1 dependent rounds
  p.summary = fmt::format("one ring over the {} nodes (a Hamiltonian cycle of the grid{}), {} "
                          "chunks, dimension-order hops",
                          n, req.geom.k % 2 ? " is impossible for odd K: one long hop" : "", n);
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
  std::vector<Range> row_chunks = OwnShards(rows[0], all, k, false);
  for (unsigned y = 0; y < k; ++y) RingReduceScatter(b, rows[y], row_chunks);
  std::vector<std::vector<Range>> col_chunks(k);
  for (unsigned x = 0; x < k; ++x) {
    col_chunks[x] = OwnShards(cols[x], row_chunks[x], k, false);
    RingReduceScatter(b, cols[x], col_chunks[x]);
  }
  for (unsigned x = 0; x < k; ++x) RingAllGather(b, cols[x], col_chunks[x]);
  for (unsigned y = 0; y < k; ++y) RingAllGather(b, rows[y], row_chunks);
  p.sync_steps = 2 * (k - 1);
  p.summary = fmt::format("rings along the {} rows, then along the columns on each row chunk "
                          "(dimension-order hops; the mesh closes a row ring over the row)",
                          k);
  return p;
}

bool PowerOfTwo(unsigned n) { return n != 0 && (n & (n - 1)) == 0; }

// Recursive doubling: log2 N exchanges of the whole vector.
Program PlanRecursiveDoubling(const Request& req, const Hardware&) {
  Program p = Empty(req);
  const unsigned n = p.num_nodes();
  if (!PowerOfTwo(n)) throw PlanError(fmt::format("rd needs a power-of-two node count; K = {}", req.geom.k));
  const Range all{0, p.elements};
  unsigned steps = 0;
  for (unsigned d = 1; d < n; d <<= 1, ++steps) {
    for (unsigned a = 0; a < n; ++a) p.nodes[a].ops.push_back({Act::kSend, a ^ d, all});
    for (unsigned a = 0; a < n; ++a) p.nodes[a].ops.push_back({Act::kRecvReduce, a ^ d, all});
  }
  p.sync_steps = steps;
  p.summary = "recursive doubling: node n exchanges the whole vector with n ^ 2^s, s = 0..log2 N - 1";
  return p;
}

// Rabenseifner: reduce-scatter by recursive halving, all-gather by recursive doubling.
Program PlanRabenseifner(const Request& req, const Hardware&) {
  Program p = Empty(req);
  const unsigned n = p.num_nodes();
  if (!PowerOfTwo(n)) {
    throw PlanError(fmt::format("rabenseifner needs a power-of-two node count; K = {}", req.geom.k));
  }
  // Shard indices [lo, hi) a node holds before the step of distance d; the node whose bit d is
  // 0 keeps the lower half, so node a ends with shard a.
  auto span = [&](unsigned a, unsigned d) {
    unsigned lo = 0, hi = n;
    for (unsigned e = n / 2; e > d; e >>= 1) {
      const unsigned mid = (lo + hi) / 2;
      if (a & e) lo = mid; else hi = mid;
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
  if (rs) {
    for (unsigned d = n / 2; d >= 1; d >>= 1) {
      for (unsigned a = 0; a < n; ++a) {
        const auto [lo, hi] = span(a, d);
        const unsigned mid = (lo + hi) / 2;
        const Range give = (a & d) ? range(lo, mid) : range(mid, hi);
        if (give.len) p.nodes[a].ops.push_back({Act::kSend, a ^ d, give});
      }
      for (unsigned a = 0; a < n; ++a) {
        const auto [lo, hi] = span(a, d);
        const unsigned mid = (lo + hi) / 2;
        const Range keep = (a & d) ? range(mid, hi) : range(lo, mid);
        if (keep.len) p.nodes[a].ops.push_back({Act::kRecvReduce, a ^ d, keep});
      }
    }
  }
  if (ag) {
    for (unsigned d = 1; d < n; d <<= 1) {
      for (unsigned a = 0; a < n; ++a) {
        const auto [lo, hi] = span(a, d);
        const unsigned mid = (lo + hi) / 2;
        const Range mine = (a & d) ? range(mid, hi) : range(lo, mid);
        if (mine.len) p.nodes[a].ops.push_back({Act::kSend, a ^ d, mine});
      }
      for (unsigned a = 0; a < n; ++a) {
        const auto [lo, hi] = span(a, d);
        const unsigned mid = (lo + hi) / 2;
        const Range theirs = (a & d) ? range(lo, mid) : range(mid, hi);
        if (theirs.len) p.nodes[a].ops.push_back({Act::kRecvCopy, a ^ d, theirs});
      }
    }
  }
  p.sync_steps = steps;  // log2 N rounds in either phase
  p.summary = "Rabenseifner: recursive halving (reduce-scatter) then recursive doubling "
              "(all-gather), halves of the vector between nodes n and n ^ 2^s";
  return p;
}

// In-network tree (PIUMA): the union of dimension-order paths to a root of minimum
// eccentricity; the engines reduce where paths meet and broadcast back on the inverse tree.
// With E embeddings the vector is split in E segments, each on its own id and root, the ids
// interleaved in 8-flit steps.
Program PlanTree(const Request& req, const Hardware& hwp) {
  if (!hwp.engine) {
    throw PlanError(fmt::format("algorithm tree needs the collective engine; the {} node model "
                                "has none",
                                TopologyName(req.geom.topology)));
  }
  const unsigned emb = req.embeddings;
  if (emb == 0 || emb > hwp.coll_ids || emb > hwp.coll_prog) {
    throw PlanError(fmt::format("coll.embeddings = {}: allowed 1..{} (the engine's ids and "
                                "program steps)",
                                emb, std::min(hwp.coll_ids, hwp.coll_prog)));
  }
  Program p = Empty(req);
  const unsigned k = req.geom.k, n = p.num_nodes();
  const bool rooted = req.collective == Collective::kReduce || req.collective == Collective::kBroadcast;
  const bool up = req.collective != Collective::kBroadcast;
  const bool down = req.collective != Collective::kReduce;
  const unsigned c = (k - 1) / 2, c1 = std::min(c + 1, k - 1);
  const std::vector<unsigned> centres = {c * k + c, c * k + c1, c1 * k + c, c1 * k + c1};
  Wiring w(req.geom, hwp, p.nodes);
  const unsigned lanes = hwp.lanes;
  uint64_t max_flits = 0;
  std::vector<Range> seg(emb);
  for (unsigned e = 0; e < emb; ++e) {
    seg[e] = Shard(p.elements, emb, e);
    max_flits = std::max<uint64_t>(max_flits, (seg[e].len + lanes - 1) / lanes);
  }
  const uint64_t count = emb == 1 ? std::min<uint64_t>(max_flits, 0xFFFF) : std::min<uint64_t>(8, max_flits);
  const uint64_t passes = (max_flits + count - 1) / count;
  if (passes > 0xFFFF) throw PlanError("vector too large for the engine's program (passes > 65535)");
  unsigned depth_max = 0;
  for (unsigned e = 0; e < emb; ++e) {
    if (seg[e].len == 0) continue;
    const unsigned root = rooted ? req.root : centres[e % centres.size()];
    // Parent port of every node: the first hop of its dimension-order path to the root.
    std::vector<unsigned> parent_port(n, 0);
    std::vector<uint32_t> children(n, 0);
    for (unsigned a = 0; a < n; ++a) {
      if (a == root) continue;
      std::string why;
      const auto path = w.DorPath(a, root, 0, &why);
      if (path.empty()) throw PlanError("tree: " + why);
      parent_port[a] = path[0].port;
      const auto to = w.Across(a, path[0].port, nullptr);
      children[to->node] |= 1u << to->port;
      depth_max = std::max(depth_max, static_cast<unsigned>(path.size()));
    }
    for (unsigned a = 0; a < n; ++a) {
      EngineId id;
      id.id = e;
      id.op = req.op;
      id.count = static_cast<uint32_t>(count);
      const bool is_root = a == root;
      if (up) {
        id.req_in = 1u | children[a];
        id.req_out = is_root ? (down ? hw::kEngTurn : 0u) : parent_port[a];
      } else if (is_root) {
        id.req_in = 1u;
        id.req_out = hw::kEngTurn;
      }
      if (down) {
        id.rsp_in = is_root ? hw::kEngTurn : parent_port[a];
        id.rsp_out = 1u | children[a];
      }
      NodeProgram& np = p.nodes[a];
      np.ids.push_back(id);
      if (id.req_in) np.req.steps.push_back(e);
      if (id.rsp_out) np.rsp.steps.push_back(e);
      if (id.req_in & 1u) np.ops.push_back({Act::kEngSend, 0, seg[e], -1, 0, e});
    }
  }
  // Receives after every send (the endpoint injects all its ids' requests in program order).
  for (unsigned e = 0; e < emb; ++e) {
    if (seg[e].len == 0) continue;
    const unsigned root = rooted ? req.root : centres[e % centres.size()];
    for (unsigned a = 0; a < n; ++a) {
      if (down || a == root) p.nodes[a].ops.push_back({Act::kEngRecv, 0, seg[e], -1, 0, e});
    }
  }
  for (NodeProgram& np : p.nodes) {
    np.req.passes = np.req.steps.empty() ? 0 : static_cast<unsigned>(passes);
    np.rsp.passes = np.rsp.steps.empty() ? 0 : static_cast<unsigned>(passes);
  }
  p.sync_steps = depth_max;
  p.summary = fmt::format("in-network tree: dimension-order paths to {} root(s) of minimum "
                          "eccentricity, {} embedding(s), engine steps of {} flits x {} passes",
                          rooted ? 1u : std::min<unsigned>(emb, 4), emb, count, passes);
  return p;
}

using PlanFn = Program (*)(const Request&, const Hardware&);

struct Entry {
  AlgorithmInfo info;
  PlanFn fn;
};

const std::vector<Entry>& Registry() {
  using C = Collective;
  static const std::vector<Entry> r = {
      {{"ring", "one ring (reduce-scatter + all-gather), ARIES II-C", false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kReduce, C::kBroadcast, C::kBarrier}},
       PlanRing},
      {{"2dring", "rings along rows then columns, ARIES Table I", false,
        {C::kAllReduce, C::kBarrier}},
       Plan2dRing},
      {{"rd", "recursive doubling, host-based baseline (PIUMA)", false,
        {C::kAllReduce, C::kBarrier}},
       PlanRecursiveDoubling},
      {{"rabenseifner", "recursive halving + doubling, host-based baseline (PIUMA)", false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kBarrier}},
       PlanRabenseifner},
      {{"tree", "in-network reduction tree on the collective engines (PIUMA)", true,
        {C::kAllReduce, C::kReduceScatter, C::kReduce, C::kBroadcast, C::kBarrier}},
       PlanTree},
  };
  return r;
}

}  // namespace

std::vector<unsigned> RingOrder(unsigned k) {
  std::vector<unsigned> r;
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

const std::vector<AlgorithmInfo>& Algorithms() {
  static const std::vector<AlgorithmInfo> a = [] {
    std::vector<AlgorithmInfo> v;
    for (const Entry& e : Registry()) v.push_back(e.info);
    return v;
  }();
  return a;
}

bool AlgorithmInfo::Serves(Collective c) const {
  return std::find(collectives.begin(), collectives.end(), c) != collectives.end();
}

const AlgorithmInfo* FindAlgorithm(std::string_view name) {
  for (const AlgorithmInfo& a : Algorithms()) {
    if (name == a.name) return &a;
  }
  return nullptr;
}

std::string AlgorithmNames() {
  std::string s;
  for (const Entry& e : Registry()) s += std::string(s.empty() ? "" : ", ") + e.info.name;
  return s;
}

Program Plan(const Request& req, const Hardware& hw, Validation* validation) {
  const Entry* entry = nullptr;
  for (const Entry& e : Registry()) {
    if (req.algo == e.info.name) entry = &e;
  }
  if (!entry) {
    throw PlanError(fmt::format("coll.algo = {}: unknown; allowed {}", req.algo, AlgorithmNames()));
  }
  if (!entry->info.Serves(req.collective)) {
    std::string names;
    for (Collective c : entry->info.collectives) {
      names += std::string(names.empty() ? "" : ", ") + CollectiveName(c);
    }
    throw PlanError(fmt::format("algorithm {} does not implement {}; it implements {}", req.algo,
                                CollectiveName(req.collective), names));
  }
  const unsigned n = req.geom.k * req.geom.k;
  if (req.collective != Collective::kBarrier && req.elements == 0) {
    throw PlanError("coll.size: at least one element");
  }
  if ((req.collective == Collective::kReduce || req.collective == Collective::kBroadcast) &&
      req.root >= n) {
    throw PlanError(fmt::format("coll.root = {}: allowed 0..{}", req.root, n - 1));
  }
  if (req.op >= hw::kNumOps) {
    throw PlanError(fmt::format("operation {}: allowed 0..{}", req.op, hw::kNumOps - 1));
  }
  Program p = entry->fn(req, hw);
  const EmbedReport embedding = Embed(p, hw);
  if (embedding.links) p.summary += "; embedding: " + embedding.Summary();
  Validation v = Validate(p, hw);
  if (!v.ok()) {
    throw std::logic_error(fmt::format("planner {} produced a program its validator refuses: {}",
                                       req.algo, v.error));
  }
  if (validation) *validation = std::move(v);
  return p;
}

}  // namespace aries::coll
