// Test helpers for collectives on a mesh package: an X-then-Y spanning tree (reparentable onto
// bypass segments), the engine registers that program one collective id on it, written
// through sysc/coll_adapter's RegisterWrites, and the golden value over the engines' tree
// order. The engine tests program trees by hand, below the planners, to reach cases the
// planners do not make (reparented trees, ids interleaved by a hand-written program).
#ifndef ARIES_TESTS_SYSC_COLL_TREE_H_
#define ARIES_TESTS_SYSC_COLL_TREE_H_

#include <cstdint>
#include <vector>

#include "aries_pkg.h"
#include "arith.h"
#include "coll_adapter.h"
#include "package.h"
#include "program.h"

namespace aries::test {

namespace hw = aries::hw;
using aries::sysc::RegOp;

// A spanning tree of the package: parent_port[n] is the port n sends to its parent by (0 at
// the root), arrive_port[n] the port of the parent its flits arrive on (the opposite port over
// a mesh link; any port whose mux selects the bypass segment otherwise).
struct Tree {
  unsigned k, root;
  std::vector<unsigned> parent_port, parent;
  std::vector<std::vector<unsigned>> children;
  std::vector<unsigned> arrive_port;
};

// Reparents node n to q, its flits leaving by `out` and arriving on q's port `in`.
inline void Reparent(Tree& t, unsigned n, unsigned q, unsigned out, unsigned in) {
  auto& sib = t.children[t.parent[n]];
  for (size_t i = 0; i < sib.size(); ++i) {
    if (sib[i] == n) {
      sib.erase(sib.begin() + static_cast<long>(i));
      break;
    }
  }
  t.parent[n] = q;
  t.parent_port[n] = out;
  t.arrive_port[n] = in;
  t.children[q].push_back(n);
}

inline Tree MakeTree(unsigned k, unsigned rx, unsigned ry) {
  // The X-then-Y mesh tree: rows reduce towards the root's column, that column towards the root.
  Tree t{k,
         ry * k + rx,
         std::vector<unsigned>(k * k, 0),
         std::vector<unsigned>(k * k, 0),
         std::vector<std::vector<unsigned>>(k * k),
         std::vector<unsigned>(k * k, 0)};
  for (unsigned y = 0; y < k; ++y) {
    for (unsigned x = 0; x < k; ++x) {
      const unsigned n = y * k + x;
      unsigned p = 0, q = n;
      if (x < rx)
        p = hw::kPortXP, q = n + 1;
      else if (x > rx)
        p = hw::kPortXM, q = n - 1;
      else if (y < ry)
        p = hw::kPortYP, q = n + k;
      else if (y > ry)
        p = hw::kPortYM, q = n - k;
      t.parent_port[n] = p;
      t.parent[n] = q;
      t.arrive_port[n] = p != 0 ? hw::OppositePort(p) : 0;
      if (p != 0) t.children[q].push_back(n);
    }
  }
  return t;
}

// The engine registers of collective `id` on every node (the controller's program model, one
// id and a one-step program per stage): reduce up the tree, and at the root either turn into
// responses broadcast back down (all-reduce) or deliver to the root's endpoint (reduce).
inline std::vector<coll::NodeProgram> TreeNodePrograms(const Tree& t, unsigned id, unsigned op,
                                                       unsigned flits, bool allreduce) {
  std::vector<coll::NodeProgram> nodes(t.k * t.k);
  for (unsigned n = 0; n < t.k * t.k; ++n) {
    coll::EngineId e;
    e.id = id;
    e.op = op;
    e.count = flits;
    e.req_in = 1;  // bit 0: the local endpoint
    for (unsigned c : t.children[n]) e.req_in |= 1u << t.arrive_port[c];
    const bool root = n == t.root;
    e.req_out = root ? (allreduce ? hw::kEngTurn : 0u) : t.parent_port[n];
    if (allreduce) {
      e.rsp_in = root ? hw::kEngTurn : t.parent_port[n];
      e.rsp_out = e.req_in;
      nodes[n].rsp = {{id}, 1};
    }
    nodes[n].req = {{id}, 1};
    nodes[n].ids.push_back(e);
  }
  return nodes;
}

// The register writes of those programs (sysc/coll_adapter's RegisterWrites) on the 5-port
// node.
inline std::vector<RegOp> ProgramTree(const Tree& t, unsigned id, unsigned op, unsigned flits,
                                      bool allreduce) {
  coll::Program p;
  p.nodes = TreeNodePrograms(t, id, op, flits, allreduce);
  return sysc::RegisterWrites(p, hw::kNumMeshPorts);
}

// The golden value of element e at node n: the engine's tree over its port slots (slot 0 the
// local vector, slot p the value its child on port p sends).
inline uint32_t Golden(const Tree& t, unsigned op, const std::vector<std::vector<uint32_t>>& vec,
                       unsigned n, size_t e) {
  std::vector<bool> present(5, false);
  std::vector<uint32_t> val(5, 0);
  present[0] = true;
  val[0] = vec[n][e];
  for (unsigned c : t.children[n]) {
    const unsigned slot = t.arrive_port[c];
    present[slot] = true;
    val[slot] = Golden(t, op, vec, c, e);
  }
  return aries::coll::EngineTreeReduce(op, present, val);
}

// Hops from the farthest node to the root.
inline unsigned Depth(const Tree& t) {
  unsigned d = 0;
  for (unsigned n = 0; n < t.k * t.k; ++n) {
    unsigned h = 0;
    for (unsigned m = n; m != t.root; m = t.parent[m]) ++h;
    d = std::max(d, h);
  }
  return d;
}

}  // namespace aries::test

#endif  // ARIES_TESTS_SYSC_COLL_TREE_H_
