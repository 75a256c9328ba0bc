// Trees: the in-network tree on the engines (PIUMA), double binary tree (ARIES IV-B1), multi-tree
// and concentrated multi-tree (ARIES IV-B2).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "aries_pkg.h"
#include "plan_steps.h"
#include "wiring.h"

namespace aries::coll::steps {

namespace hw = aries::hw;

// In-network tree (PIUMA): the union of dimension-order paths to a root of minimum
// eccentricity; the engines reduce where paths meet and broadcast back on the inverse tree.
// With E embeddings the vector is split in E segments, each on its own id and root, the ids
// interleaved in 256-flit engine steps.
Program PlanTree(const Request& req, const Hardware& hwp) {
  if (!hwp.engine) {
    throw PlanError(
        fmt::format("algorithm tree needs the collective engine; the {} node model "
                    "has none",
                    TopologyName(req.geom.topology)));
  }
  const unsigned emb = req.embeddings;
  if (emb == 0 || emb > hwp.coll_ids || emb > hwp.coll_prog) {
    throw PlanError(
        fmt::format("coll.embeddings = {}: allowed 1..{} (the engine's ids and "
                    "program steps)",
                    emb, std::min(hwp.coll_ids, hwp.coll_prog)));
  }
  Program p = Empty(req);
  const unsigned k = req.geom.k, n = p.num_nodes();
  const bool rooted =
      req.collective == Collective::kReduce || req.collective == Collective::kBroadcast;
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
  // Several embeddings interleave their ids in program steps of kStep flits. Every step change
  // costs the engines a few cycles of lockstep (measured on 4x4, four embeddings, 64 KB:
  // 4,510 cycles with 8-flit steps, 2,232 with 64, 1,374 with 256), so steps are long.
  constexpr uint64_t kStep = 256;
  const uint64_t count =
      emb == 1 ? std::min<uint64_t>(max_flits, 0xFFFF) : std::min<uint64_t>(kStep, max_flits);
  const uint64_t passes = (max_flits + count - 1) / count;
  if (passes > 0xFFFF)
    throw PlanError("vector too large for the engine's program (passes > 65535)");
  unsigned depth_max = 0;
  for (unsigned e = 0; e < emb; ++e) {
    if (seg[e].len == 0) continue;
    const unsigned root = rooted ? req.root : centres[e % centres.size()];
    // Parent port of every node: the first hop of its dimension-order path to the root (a
    // shortest path on every topology here), or, where a fault breaks that path, a live link to
    // a node one hop nearer the root over the live links.
    std::vector<unsigned> parent_port(n, 0), dist;
    std::vector<uint32_t> children(n, 0);
    const bool faults = !req.geom.faults.empty();
    if (faults) dist = w.Hops(root, true);  // symmetric: hops to the root
    for (unsigned a = 0; a < n; ++a) {
      if (a == root) continue;
      std::string why;
      const auto path = w.DorPath(a, root, 0, &why);
      if (!path.empty()) {
        parent_port[a] = path[0].port;
        depth_max = std::max(depth_max, static_cast<unsigned>(path.size()));
      } else if (!faults || dist[a] == Wiring::kUnreachable) {
        throw PlanError(faults ? fmt::format("tree: {} cannot reach the root {} over the live "
                                             "links ({})",
                                             w.NodeName(a), w.NodeName(root), why)
                               : "tree: " + why);
      } else {
        for (unsigned q = 1; q < w.num_ports() && parent_port[a] == 0; ++q) {
          const auto to = w.Across(a, q, nullptr);
          if (to && dist[to->node] + 1 == dist[a] && w.Across(to->node, to->port, nullptr)) {
            parent_port[a] = q;
          }
        }
        depth_max = std::max(depth_max, dist[a]);
      }
      const auto to = w.Across(a, parent_port[a], nullptr);
      children[to->node] |= 1u << to->port;
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
  p.summary = fmt::format(
      "in-network tree: dimension-order paths to {} root(s) of minimum "
      "eccentricity, {} embedding(s), engine steps of {} flits x {} passes",
      rooted ? 1u : std::min<unsigned>(emb, 4), emb, count, passes);
  return p;
}

namespace {

// A spanning tree over node ids: parent (-1 at the root) and depth in tree edges.
struct Tree {
  unsigned root = 0;
  std::vector<int> parent;
  std::vector<unsigned> depth;
  unsigned height = 0;
};

void SetDepths(Tree& t) {
  const size_t n = t.parent.size();
  t.depth.assign(n, 0);
  for (size_t v = 0; v < n; ++v) {
    unsigned d = 0;
    for (int u = static_cast<int>(v); t.parent[u] >= 0; u = t.parent[u]) ++d;
    t.depth[v] = d;
    t.height = std::max(t.height, d);
  }
}

// The binary tree of NCCL's double binary tree over ranks 0..n-1 (in-order numbering: rank r
// with lowest set bit 2^h sits at height h, its parent is r with that bit cleared and the next
// one set; rank 0 is the root above the highest power of two).
std::vector<int> BtreeParents(unsigned n) {
  std::vector<int> up(n, -1);
  for (unsigned r = 1; r < n; ++r) {
    const unsigned low = r & (~r + 1);
    unsigned u = (r ^ low) | (low << 1);
    if (u >= n) u = r ^ low;
    up[r] = static_cast<int>(u);
  }
  return up;
}

// Nodes next to `v` over the topology's live fixed links (mesh, wraps, butterfly rows and
// columns; a dead link or a link on a dead port is left out).
std::vector<std::vector<unsigned>> Neighbours(const Geometry& g) {
  const unsigned n = g.k * g.k;
  std::vector<std::vector<unsigned>> nb(n);
  const FaultView dead(g, ~uint64_t{0});
  for (const LinkSpec& l : FixedLinks(g)) {
    if (dead.Link(l.a, l.b) || dead.Port(l.a, l.la + 1) || dead.Port(l.b, l.lb + 1)) continue;
    nb[l.a].push_back(l.b);
    nb[l.b].push_back(l.a);
  }
  for (auto& v : nb) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return nb;
}

// Multi-tree (Huang et al., ISCA'21): one tree rooted at every member, grown breadth-first in
// lockstep; at every level each tree, in turn, takes every node next to its frontier over the
// link the trees built so far use least. `members` are node ids, `nb` member indices.
std::vector<Tree> MultiTrees(const std::vector<unsigned>& members,
                             const std::vector<std::vector<unsigned>>& nb, unsigned num_nodes) {
  const size_t m = members.size();
  std::vector<std::vector<int>> par(m, std::vector<int>(m, -1));
  std::vector<std::vector<bool>> in(m, std::vector<bool>(m, false));
  std::vector<std::vector<unsigned>> frontier(m);
  std::map<std::pair<unsigned, unsigned>, unsigned> load;
  for (size_t j = 0; j < m; ++j) {
    in[j][j] = true;
    frontier[j] = {static_cast<unsigned>(j)};
  }
  for (bool grew = true; grew;) {
    grew = false;
    std::vector<std::vector<unsigned>> next(m);
    for (size_t j = 0; j < m; ++j) {
      for (unsigned v = 0; v < m; ++v) {
        if (in[j][v]) continue;
        int best = -1;
        for (unsigned u : frontier[j]) {
          if (std::find(nb[u].begin(), nb[u].end(), v) == nb[u].end()) continue;
          if (best < 0 || load[{u, v}] < load[{static_cast<unsigned>(best), v}])
            best = static_cast<int>(u);
        }
        if (best < 0) continue;
        par[j][v] = best;
        ++load[{static_cast<unsigned>(best), v}];
        next[j].push_back(v);
      }
      for (unsigned v : next[j]) in[j][v] = true;
      grew = grew || !next[j].empty();
    }
    frontier = std::move(next);
  }
  for (size_t j = 0; j < m; ++j) {  // only faults cut a member off
    for (size_t v = 0; v < m; ++v) {
      if (!in[j][v]) {
        throw PlanError(fmt::format("multi-tree: node {} cannot reach node {} over the live links",
                                    members[v], members[j]));
      }
    }
  }
  std::vector<Tree> trees(m);
  for (size_t j = 0; j < m; ++j) {
    Tree& t = trees[j];
    t.root = members[j];
    t.parent.assign(num_nodes, -1);
    std::vector<bool> member(num_nodes, false);
    for (size_t v = 0; v < m; ++v) {
      if (par[j][v] >= 0) t.parent[members[v]] = static_cast<int>(members[par[j][v]]);
    }
    SetDepths(t);
  }
  return trees;
}

unsigned Height(const std::vector<Tree>& trees) {
  unsigned h = 0;
  for (const Tree& t : trees) h = std::max(h, t.height);
  return h;
}

// Reduce-scatter and all-gather of `r` over trees[j] reducing chunk j of `r` to its root, level
// by level (children before parents up, parents before children down) across all trees.
void MultiTreePhases(Builder& b, const std::vector<Tree>& trees, Range r, bool rs, bool ag) {
  const auto m = static_cast<unsigned>(trees.size());
  const unsigned height = Height(trees);
  auto chunk = [&](unsigned j) { return SubShard(r, m, j); };
  if (rs) {
    for (unsigned d = height; d >= 1; --d) {
      for (unsigned j = 0; j < m; ++j) {
        const Tree& t = trees[j];
        for (size_t v = 0; v < t.parent.size(); ++v) {
          if (t.parent[v] >= 0 && t.depth[v] == d) {
            b.Xfer(static_cast<unsigned>(v), static_cast<unsigned>(t.parent[v]), chunk(j), true);
          }
        }
      }
    }
  }
  if (ag) {
    for (unsigned d = 1; d <= height; ++d) {
      for (unsigned j = 0; j < m; ++j) {
        const Tree& t = trees[j];
        for (size_t v = 0; v < t.parent.size(); ++v) {
          if (t.parent[v] >= 0 && t.depth[v] == d) {
            b.Xfer(static_cast<unsigned>(t.parent[v]), static_cast<unsigned>(v), chunk(j), false);
          }
        }
      }
    }
  }
}

}  // namespace

// Double binary tree (Sanders et al.; NCCL; ARIES IV-B1): ranks are node ids (row-major, as
// ARIES Fig. 7); tree A is the in-order binary tree, tree B its mirror (rank N-1-r; shifted by
// one for odd N) so A's leaves are B's inner nodes. Each tree reduces half of the vector to its
// root and broadcasts it back, pipelined element by element. On ARIES the embedder bridges
// aligned non-adjacent tree neighbours with bypass segments.
Program PlanDoubleBinaryTree(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes();
  Tree a, bt;
  a.parent = BtreeParents(n);
  bt.parent.assign(n, -1);
  for (unsigned r = 0; r < n; ++r) {
    if (n % 2 == 0) {
      const int u = a.parent[n - 1 - r];
      bt.parent[r] = u < 0 ? -1 : static_cast<int>(n - 1 - u);
    } else {
      const int u = a.parent[(r + n - 1) % n];
      bt.parent[r] = u < 0 ? -1 : static_cast<int>((u + 1) % n);
    }
  }
  a.root = 0;
  bt.root = n % 2 == 0 ? n - 1 : 1 % n;
  SetDepths(a);
  SetDepths(bt);
  MultiTreePhases(b, {a, bt}, {0, p.elements}, true, true);  // half of the vector each
  p.sync_steps = Height({a, bt});
  p.summary = fmt::format(
      "double binary tree: in-order binary tree over the node ids (root {}) "
      "and its {} (root {}), half of the vector each, height {}",
      a.root, n % 2 == 0 ? "mirror" : "shift by one", bt.root, p.sync_steps);
  return p;
}

// Multi-tree (Huang et al., ISCA'21; ARIES IV-B2): N trees over the topology's links, tree j
// rooted at node j reduces chunk j (reduce-scatter), then broadcasts it back (all-gather).
Program PlanMultiTree(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes();
  std::vector<unsigned> members(n);
  for (unsigned v = 0; v < n; ++v) members[v] = v;
  const auto trees = MultiTrees(members, Neighbours(req.geom), n);
  const bool rs = req.collective != Collective::kAllGather;
  const bool ag = req.collective != Collective::kReduceScatter;
  MultiTreePhases(b, trees, {0, p.elements}, rs, ag);
  const unsigned height = Height(trees);
  p.sync_steps = height;
  p.summary = fmt::format(
      "multi-tree: {} breadth-first trees over the {} links, tree j reduces "
      "chunk j to node j, height {}",
      n, TopologyName(req.geom.topology), height);
  return p;
}

// Concentrated multi-tree (ARIES IV-B2, Fig. 8): 2x2 groups concentrate (a ring reduce-scatter
// inside each group leaves member q a quarter of the vector); the members q of all groups form
// a (K/2)x(K/2) plane whose neighbours are two pitches apart (bypass segments on ARIES) and run
// a multi-tree on their quarter; a ring all-gather inside each group ends it. Tree height about
// halves; each plane carries a quarter of the vector (Fig. 8(c): every group's links busy).
Program PlanConcentratedMultiTree(const Request& req, const Hardware&) {
  const unsigned k = req.geom.k;
  if (k % 2 != 0) {
    throw PlanError(fmt::format("cmtree concentrates 2x2 groups: K even; K = {}", k));
  }
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes(), g = k / 2;
  const Range all{0, p.elements};
  const unsigned quad[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // ring order in a group
  std::vector<std::vector<unsigned>> groups;
  for (unsigned gy = 0; gy < g; ++gy) {
    for (unsigned gx = 0; gx < g; ++gx) {
      std::vector<unsigned> ring;
      for (const auto& q : quad) ring.push_back((2 * gy + q[1]) * k + 2 * gx + q[0]);
      groups.push_back(ring);
    }
  }
  const auto quarters = Chunks(groups[0].size(), all);
  for (const auto& ring : groups) RingReduceScatter(b, ring, quarters);
  unsigned height = 0;
  std::vector<std::vector<Tree>> planes(4);
  for (unsigned q = 0; q < 4; ++q) {
    std::vector<unsigned> members;
    for (const auto& ring : groups) members.push_back(ring[q]);
    std::vector<std::vector<unsigned>> nb(members.size());
    for (unsigned i = 0; i < members.size(); ++i) {
      const unsigned gx = i % g, gy = i / g;
      if (gx + 1 < g) nb[i].push_back(i + 1);
      if (gx > 0) nb[i].push_back(i - 1);
      if (gy + 1 < g) nb[i].push_back(i + g);
      if (gy > 0) nb[i].push_back(i - g);
    }
    planes[q] = MultiTrees(members, nb, n);
    height = std::max(height, Height(planes[q]));
  }
  for (unsigned q = 0; q < 4; ++q) MultiTreePhases(b, planes[q], quarters[q], true, false);
  for (unsigned q = 0; q < 4; ++q) MultiTreePhases(b, planes[q], quarters[q], false, true);
  for (const auto& ring : groups) RingAllGather(b, ring, quarters);
  p.sync_steps = 3 + height;
  p.summary = fmt::format(
      "concentrated multi-tree: {} 2x2 groups (ring inside), 4 planes of {} "
      "trees two pitches apart, plane tree height {}",
      g * g, g * g, height);
  return p;
}

}  // namespace aries::coll::steps
