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

namespace {

// The engine program's shape: each embedding's segment of the vector, the flits of one
// program step and the passes over the steps.
struct TreeSteps {
  std::vector<Range> seg;
  uint64_t count = 0, passes = 0;
};

// Throws PlanError unless the node model has the collective engine and enough ids and program
// steps for coll.embeddings.
void CheckEngine(const Request& req, const Hardware& hwp) {
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
}

// The segments of `elements` for `emb` embeddings and the engine steps they take on `lanes`
// lanes. Throws PlanError when the passes exceed the engine's program.
TreeSteps EngineSteps(uint64_t elements, unsigned emb, unsigned lanes) {
  TreeSteps t;
  uint64_t max_flits = 0;
  t.seg.resize(emb);
  for (unsigned e = 0; e < emb; ++e) {
    t.seg[e] = Shard(elements, emb, e);
    max_flits = std::max<uint64_t>(max_flits, (t.seg[e].len + lanes - 1) / lanes);
  }
  // Several embeddings interleave their ids in program steps of kStep flits. Every step change
  // costs the engines a few cycles of lockstep (measured on 4x4, four embeddings, 64 KB:
  // 4,510 cycles with 8-flit steps, 2,232 with 64, 1,374 with 256), so steps are long.
  constexpr uint64_t kStep = 256;
  t.count = emb == 1 ? std::min<uint64_t>(max_flits, 0xFFFF) : std::min<uint64_t>(kStep, max_flits);
  t.passes = (max_flits + t.count - 1) / t.count;
  if (t.passes > 0xFFFF)
    throw PlanError("vector too large for the engine's program (passes > 65535)");
  return t;
}

// A communicator's roots: the members every member reaches over a dimension-order path inside
// the group (the engines of every node on the way reduce), by eccentricity (the longest of
// those paths), fewest hops first, at most four. Throws PlanError when no member can be one
// (group `g` counts from 0).
std::vector<unsigned> CommunicatorRoots(const Wiring& w, const std::vector<unsigned>& members,
                                        size_t g) {
  std::vector<std::pair<size_t, unsigned>> ecc;
  std::string why_not;  // why the first member cannot be the root
  for (unsigned a : members) {
    size_t far = 0;
    std::string bad;
    for (unsigned b : members) {
      if (b == a) continue;
      std::string why;
      const auto path = w.DorPath(b, a, 0, &why);
      if (path.empty()) {
        bad = fmt::format("{}'s path to it is broken ({})", w.NodeName(b), why);
      }
      for (const Hop& h : path) {
        if (bad.empty() && !std::binary_search(members.begin(), members.end(), h.node))
          bad = fmt::format("{}'s path to it passes {}", w.NodeName(b), w.NodeName(h.node));
      }
      if (!bad.empty()) break;
      far = std::max(far, path.size());
    }
    if (bad.empty()) {
      ecc.emplace_back(far, a);
    } else if (why_not.empty()) {
      why_not = fmt::format("{}: {}", w.NodeName(a), bad);
    }
  }
  if (ecc.empty()) {
    throw PlanError(fmt::format(
        "tree over communicators: no member of group {} can be its root, every one has a "
        "member whose dimension-order path to it leaves the group or is broken (as {}); the "
        "engines of every node on the way reduce, so allowed are groups whose paths stay "
        "inside them (rows, cols, quadrants, rectangles)",
        g + 1, why_not));
  }
  std::sort(ecc.begin(), ecc.end());
  std::vector<unsigned> r;
  for (size_t i = 0; i < std::min<size_t>(4, ecc.size()); ++i) r.push_back(ecc[i].second);
  return r;
}

// The roots of every communicator: of the whole package, the centre nodes (or the root of a
// rooted collective); of a communicator, CommunicatorRoots.
std::vector<std::vector<unsigned>> TreeRoots(const Request& req, const Wiring& w,
                                             const std::vector<std::vector<unsigned>>& comms,
                                             bool rooted) {
  const unsigned k = req.geom.k;
  const unsigned c = (k - 1) / 2, c1 = std::min(c + 1, k - 1);
  const std::vector<unsigned> centres = {c * k + c, c * k + c1, c1 * k + c, c1 * k + c1};
  std::vector<std::vector<unsigned>> roots;
  for (size_t g = 0; g < comms.size(); ++g) {
    if (req.groups.empty()) {
      roots.push_back(rooted ? std::vector<unsigned>{req.root} : centres);
      continue;
    }
    roots.push_back(CommunicatorRoots(w, comms[g], g));
  }
  return roots;
}

// One embedding's tree over a communicator: each member's parent port and the ports its
// children arrive on (bit per port), and its depth (the longest path to the root).
struct TreeLinks {
  std::vector<unsigned> parent_port;
  std::vector<uint32_t> children;
  unsigned depth = 0;
};

// The tree of `members` towards `root`: parent port of every member is the first hop of its
// dimension-order path to the root (a shortest path on every topology here), or, where a fault
// breaks that path (the whole package only: a communicator's root has unbroken paths), a live
// link to a node one hop nearer the root over the live links. Throws PlanError for a member
// that cannot reach the root.
TreeLinks TreeToRoot(const Request& req, const Wiring& w, const std::vector<unsigned>& members,
                     unsigned root, unsigned n) {
  TreeLinks t;
  t.parent_port.assign(n, 0);
  t.children.assign(n, 0);
  std::vector<unsigned> dist;
  const bool faults = !req.geom.faults.empty();
  if (faults) dist = w.Hops(root, true);  // symmetric: hops to the root
  for (unsigned a : members) {
    if (a == root) continue;
    std::string why;
    const auto path = w.DorPath(a, root, 0, &why);
    if (!path.empty()) {
      t.parent_port[a] = path[0].port;
      t.depth = std::max(t.depth, static_cast<unsigned>(path.size()));
    } else if (!faults || dist[a] == Wiring::kUnreachable) {
      throw PlanError(faults ? fmt::format("tree: {} cannot reach the root {} over the live "
                                           "links ({})",
                                           w.NodeName(a), w.NodeName(root), why)
                             : "tree: " + why);
    } else {
      for (unsigned q = 1; q < w.num_ports() && t.parent_port[a] == 0; ++q) {
        const auto to = w.Across(a, q, nullptr);
        if (to && dist[to->node] + 1 == dist[a] && w.Across(to->node, to->port, nullptr)) {
          t.parent_port[a] = q;
        }
      }
      t.depth = std::max(t.depth, dist[a]);
    }
    const auto to = w.Across(a, t.parent_port[a], nullptr);
    t.children[to->node] |= 1u << to->port;
  }
  return t;
}

// Programs the engine id `e` of every member along tree `t` (requests up to the root, turned
// there, responses back down, as the collective needs) and its send of segment `seg`.
void ProgramTreeIds(const Request& req, const std::vector<unsigned>& members, unsigned root,
                    const TreeLinks& t, unsigned e, Range seg, uint64_t count, Program* p) {
  const bool up = req.collective != Collective::kBroadcast;
  const bool down = req.collective != Collective::kReduce;
  for (unsigned a : members) {
    EngineId id;
    id.id = e;
    id.op = req.op;
    id.count = static_cast<uint32_t>(count);
    const bool is_root = a == root;
    if (up) {
      id.req_in = 1u | t.children[a];
      id.req_out = is_root ? (down ? hw::kEngTurn : 0u) : t.parent_port[a];
    } else if (is_root) {
      id.req_in = 1u;
      id.req_out = hw::kEngTurn;
    }
    if (down) {
      id.rsp_in = is_root ? hw::kEngTurn : t.parent_port[a];
      id.rsp_out = 1u | t.children[a];
    }
    NodeProgram& np = p->nodes[a];
    np.ids.push_back(id);
    if (id.req_in) np.req.steps.push_back(e);
    if (id.rsp_out) np.rsp.steps.push_back(e);
    if (id.req_in & 1u) np.ops.push_back({Act::kEngSend, 0, seg, -1, 0, e});
  }
}

// Appends the engine receives after every send (the endpoint injects all its ids' requests in
// program order): every member's where responses come down, else the root's.
void AddTreeReceives(const Request& req, const std::vector<std::vector<unsigned>>& comms,
                     const std::vector<std::vector<unsigned>>& roots, const TreeSteps& steps,
                     Program* p) {
  const bool down = req.collective != Collective::kReduce;
  const unsigned emb = static_cast<unsigned>(steps.seg.size());
  for (unsigned e = 0; e < emb; ++e) {
    if (steps.seg[e].len == 0) continue;
    for (size_t g = 0; g < comms.size(); ++g) {
      const unsigned root = roots[g][e % roots[g].size()];
      for (unsigned a : comms[g]) {
        if (down || a == root)
          p->nodes[a].ops.push_back({Act::kEngRecv, 0, steps.seg[e], -1, 0, e});
      }
    }
  }
}

}  // namespace

// In-network tree (PIUMA): the union of dimension-order paths to a root of minimum
// eccentricity; the engines reduce where paths meet and broadcast back on the inverse tree.
// With E embeddings the vector is split in E segments, each on its own id and root, the ids
// interleaved in 256-flit engine steps.
Program PlanTree(const Request& req, const Hardware& hwp) {
  CheckEngine(req, hwp);
  const unsigned emb = req.embeddings;
  Program p = Empty(req);
  const unsigned n = p.num_nodes();
  const bool rooted =
      req.collective == Collective::kReduce || req.collective == Collective::kBroadcast;
  Wiring w(req.geom, hwp, p.nodes);
  const TreeSteps steps = EngineSteps(p.elements, emb, hwp.lanes);
  const auto comms = Communicators(req);
  const std::vector<std::vector<unsigned>> roots = TreeRoots(req, w, comms, rooted);
  unsigned depth_max = 0;
  for (unsigned e = 0; e < emb; ++e) {
    if (steps.seg[e].len == 0) continue;
    for (size_t g = 0; g < comms.size(); ++g) {
      const unsigned root = roots[g][e % roots[g].size()];
      const TreeLinks t = TreeToRoot(req, w, comms[g], root, n);
      depth_max = std::max(depth_max, t.depth);
      ProgramTreeIds(req, comms[g], root, t, e, steps.seg[e], steps.count, &p);
    }
  }
  AddTreeReceives(req, comms, roots, steps, &p);
  for (NodeProgram& np : p.nodes) {
    np.req.passes = np.req.steps.empty() ? 0 : static_cast<unsigned>(steps.passes);
    np.rsp.passes = np.rsp.steps.empty() ? 0 : static_cast<unsigned>(steps.passes);
  }
  p.sync_steps = depth_max;
  p.summary = fmt::format(
      "in-network tree{}: dimension-order paths to {} root(s) of minimum "
      "eccentricity{}, {} embedding(s), engine steps of {} flits x {} passes",
      req.groups.empty() ? "" : " over " + GroupsLabel(req) + " at once",
      std::min<unsigned>(emb, static_cast<unsigned>(roots[0].size())),
      req.groups.empty() ? "" : " in each", emb, steps.count, steps.passes);
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

// The double binary tree over `members` (node ids by rank): tree A is the in-order binary tree
// over the ranks, tree B its mirror (rank m-1-r; shifted by one for odd m) so A's leaves are B's
// inner nodes.
std::vector<Tree> DoubleBinaryTrees(const std::vector<unsigned>& members, unsigned num_nodes) {
  const auto m = static_cast<unsigned>(members.size());
  const std::vector<int> up = BtreeParents(m);
  std::vector<Tree> t(2);
  for (Tree& x : t) x.parent.assign(num_nodes, -1);
  for (unsigned r = 0; r < m; ++r) {
    if (up[r] >= 0) t[0].parent[members[r]] = static_cast<int>(members[up[r]]);
    const int u = m % 2 == 0 ? up[m - 1 - r] : up[(r + m - 1) % m];
    if (u >= 0) {
      t[1].parent[members[r]] = static_cast<int>(members[m % 2 == 0 ? m - 1 - u : (u + 1) % m]);
    }
  }
  t[0].root = members[0];
  t[1].root = members[m % 2 == 0 ? m - 1 : 1 % m];
  for (Tree& x : t) SetDepths(x);
  return t;
}

// The links a communicator's multi-tree grows over, as member indices: the topology's live
// links between members; where they leave the group in pieces (members apart, as the
// communicators across quadrants), also each member's nearest member along its row and column
// (a bypass segment on ARIES, a dimension-order path elsewhere); where those still do not join
// it, consecutive ranks. `all`: the package's Neighbours.
std::vector<std::vector<unsigned>> GroupNeighbours(const Geometry& g,
                                                   const std::vector<std::vector<unsigned>>& all,
                                                   const std::vector<unsigned>& members) {
  const size_t m = members.size();
  std::vector<std::vector<unsigned>> nb(m);
  auto index = [&](unsigned v) -> int {
    const auto it = std::lower_bound(members.begin(), members.end(), v);
    return it != members.end() && *it == v ? static_cast<int>(it - members.begin()) : -1;
  };
  auto join = [&](size_t i, size_t j) {
    if (i == j || std::find(nb[i].begin(), nb[i].end(), j) != nb[i].end()) return;
    nb[i].push_back(static_cast<unsigned>(j));
    nb[j].push_back(static_cast<unsigned>(i));
  };
  auto connected = [&] {
    std::vector<bool> seen(m, false);
    std::vector<unsigned> todo{0};
    seen[0] = true;
    size_t count = 1;
    while (!todo.empty()) {
      const unsigned i = todo.back();
      todo.pop_back();
      for (unsigned j : nb[i]) {
        if (!seen[j]) {
          seen[j] = true;
          ++count;
          todo.push_back(j);
        }
      }
    }
    return count == m;
  };
  for (size_t i = 0; i < m; ++i) {
    for (unsigned v : all[members[i]]) {
      const int j = index(v);
      if (j >= 0) join(i, static_cast<size_t>(j));
    }
  }
  if (!connected()) {
    const unsigned k = g.k;
    for (size_t i = 0; i < m; ++i) {
      const unsigned x = members[i] % k, y = members[i] / k;
      int best[4] = {-1, -1, -1, -1};  // nearest left, right, above, below
      unsigned gap[4] = {0, 0, 0, 0};
      for (size_t j = 0; j < m; ++j) {
        const unsigned xj = members[j] % k, yj = members[j] / k;
        int side = -1;
        unsigned d = 0;
        if (yj == y && xj != x) {
          side = xj < x ? 0 : 1;
          d = xj < x ? x - xj : xj - x;
        } else if (xj == x && yj != y) {
          side = yj < y ? 2 : 3;
          d = yj < y ? y - yj : yj - y;
        }
        if (side >= 0 && (best[side] < 0 || d < gap[side])) {
          best[side] = static_cast<int>(j);
          gap[side] = d;
        }
      }
      for (int j : best) {
        if (j >= 0) join(i, static_cast<size_t>(j));
      }
    }
  }
  if (!connected()) {
    for (size_t i = 0; i + 1 < m; ++i) join(i, i + 1);
  }
  for (auto& v : nb) std::sort(v.begin(), v.end());
  return nb;
}

}  // namespace

// Double binary tree (Sanders et al.; NCCL; ARIES IV-B1): ranks are node ids (row-major, as
// ARIES Fig. 7); each tree reduces half of the vector to its root and broadcasts it back,
// pipelined element by element. On ARIES the embedder bridges aligned non-adjacent tree
// neighbours with bypass segments. Communicators: one pair of trees over each group's ranks, all
// at once.
Program PlanDoubleBinaryTree(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  unsigned height = 0;
  std::vector<unsigned> roots;  // the first communicator's two trees' (the summary names them)
  for (const auto& members : Communicators(req)) {
    const auto trees = DoubleBinaryTrees(members, p.num_nodes());
    MultiTreePhases(b, trees, {0, p.elements}, true, true);  // half of the vector each
    height = std::max(height, Height(trees));
    if (roots.empty()) roots = {trees[0].root, trees[1].root};
  }
  p.sync_steps = height;
  const bool odd = LargestCommunicator(req) % 2 != 0;
  if (!req.groups.empty()) {
    p.summary = fmt::format(
        "double binary tree over each of {} at once: in-order binary tree over its ranks and "
        "its {}, half of the vector each, height {}",
        GroupsLabel(req), odd ? "shift by one" : "mirror", height);
    return p;
  }
  p.summary = fmt::format(
      "double binary tree: in-order binary tree over the node ids (root {}) "
      "and its {} (root {}), half of the vector each, height {}",
      roots[0], odd ? "shift by one" : "mirror", roots[1], p.sync_steps);
  return p;
}

// Multi-tree (Huang et al., ISCA'21; ARIES IV-B2): N trees over the topology's links, tree j
// rooted at node j reduces chunk j (reduce-scatter), then broadcasts it back (all-gather).
// Communicators: a multi-tree over each group's links (GroupNeighbours), all at once; tree j of
// a group is rooted at its rank j.
Program PlanMultiTree(const Request& req, const Hardware&) {
  Program p = Empty(req);
  Builder b(p);
  const unsigned n = p.num_nodes();
  const bool rs = req.collective != Collective::kAllGather;
  const bool ag = req.collective != Collective::kReduceScatter;
  unsigned height = 0;
  const auto links = Neighbours(req.geom);
  for (const auto& members : Communicators(req)) {
    const auto trees = MultiTrees(
        members, req.groups.empty() ? links : GroupNeighbours(req.geom, links, members), n);
    MultiTreePhases(b, trees, {0, p.elements}, rs, ag);
    height = std::max(height, Height(trees));
  }
  p.sync_steps = height;
  if (!req.groups.empty()) {
    p.summary = fmt::format(
        "multi-tree over each of {} at once: breadth-first trees over its members' {} links "
        "(members apart: their nearest along rows and columns), tree j reduces chunk j to rank "
        "j, height {}",
        GroupsLabel(req), TopologyName(req.geom.topology), height);
    return p;
  }
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
