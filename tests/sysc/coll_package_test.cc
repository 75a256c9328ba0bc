// In-network collectives on the package (shipped node models: 16 lanes, collective engine):
// an all-reduce through a spanning tree programmed node by node through the register API
// (reduction to a root, broadcast back), and a reduce to the root, on 2x2, 4x4 and 8x8, int32
// and fp32, with sizes the flit does not divide; every element of every node is compared with
// the golden reduction computed over the same tree order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "aries_pkg.h"
#include "arith.h"
#include "coll_endpoint.h"
#include "coll_tree.h"
#include "lockstep_node.h"
#include "node_models.h"
#include "package.h"

namespace {

namespace hw = aries::hw;
using aries::coll::Topology;
using aries::sysc::Package;
using aries::sysc::PackageConfig;
using aries::sysc::RegOp;
using aries::tb::CollEndpoint;
using aries::test::Golden;
using aries::test::MakeTree;
using aries::test::ProgramTree;
using aries::test::Tree;

uint32_t RandomElement(unsigned op, std::mt19937& rng) {
  if (op == hw::kOpAddF32 || op == hw::kOpMaxF32) {
    return aries::coll::AsBits(static_cast<float>(static_cast<int>(rng() % 20001) - 10000) /
                               977.0f);
  }
  return static_cast<uint32_t>(rng());
}

struct Outcome {
  uint64_t cycles = 0;
  unsigned depth = 0;  // hops from the farthest leaf to the root
};

// What a test may change around RunCollective: the topology, a setup step that programs the
// package (bypass, port muxes) and reshapes the tree before the collective is programmed, and
// an inspection of the package afterwards.
struct Hooks {
  Topology topology = Topology::kMesh;
  std::function<void(Package&, Tree&)> setup;
  std::function<void(const Package&)> inspect;
  // The node model: the Verilated RTL, or (kCheck) the RTL and the fast C++ model in lockstep,
  // every pin compared every cycle (sysc/lockstep_node.h).
  aries::sysc::NodeImpl impl = aries::sysc::NodeImpl::kRtl;
};

// Runs one collective over the X-then-Y tree rooted at (rx, ry); checks every element of every
// node, that nothing is left in the package, and the engines' status. Returns the cycles from
// the start of injection to the last flit received.
Outcome RunCollective(unsigned k, unsigned rx, unsigned ry, unsigned op, size_t elements,
                      bool allreduce, double accept, uint64_t seed, const Hooks& hooks = {}) {
  PackageConfig pc;
  pc.topology = hooks.topology;
  pc.k = k;
  Package pkg(pc, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kAny, hooks.impl), seed);
  const auto& shape = pkg.shape();
  EXPECT_TRUE(shape.coll_engine);
  const unsigned flits = static_cast<unsigned>((elements + shape.lanes - 1) / shape.lanes);
  Tree t = MakeTree(k, rx, ry);
  if (hooks.setup) hooks.setup(pkg, t);
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::vector<std::vector<uint32_t>> vec(k * k, std::vector<uint32_t>(elements));
  for (auto& v : vec) {
    for (auto& e : v) e = RandomElement(op, rng);
  }
  const unsigned id = 3;
  std::vector<std::unique_ptr<CollEndpoint>> eps;
  for (unsigned n = 0; n < k * k; ++n) {
    eps.push_back(std::make_unique<CollEndpoint>(shape, id, op, vec[n], accept, seed + n));
    pkg.AttachEndpoint(n, eps.back().get());
  }
  pkg.Program(ProgramTree(t, id, op, flits, allreduce));
  for (auto& ep : eps) ep->Start();
  const uint64_t t0 = pkg.endpoint_cycle();  // receive cycles are the endpoints' time
  auto done = [&] {
    if (!allreduce) return eps[t.root]->received() == flits;
    for (auto& ep : eps) {
      if (ep->received() < flits) return false;
    }
    return true;
  };
  const uint64_t limit = 200000 + 40ull * flits;
  while (!done() && pkg.endpoint_cycle() - t0 < limit) pkg.Step();
  EXPECT_TRUE(done()) << "collective did not finish in " << limit << " cycles";
  for (int i = 0; i < 200; ++i) pkg.Step();  // anything extra would show up now
  EXPECT_TRUE(pkg.Quiet()) << "flits, credits or engine work left";
  uint64_t last = 0;
  std::vector<uint32_t> want(elements);
  for (size_t e = 0; e < elements; ++e) want[e] = Golden(t, op, vec, t.root, e);
  for (unsigned n = 0; n < k * k; ++n) {
    for (const auto& e : eps[n]->errors()) ADD_FAILURE() << pkg.NodeName(n) << ": " << e;
    EXPECT_EQ(eps[n]->sent(), flits) << pkg.NodeName(n);
    if (!allreduce && n != t.root) {
      EXPECT_EQ(eps[n]->received(), 0u) << pkg.NodeName(n);
      continue;
    }
    EXPECT_EQ(eps[n]->received(), flits) << pkg.NodeName(n);
    last = std::max(last, eps[n]->last_receive_cycle());
    unsigned bad = 0;
    for (size_t e = 0; e < elements && bad < 5; ++e) {
      if (eps[n]->result()[e] != want[e]) {
        ++bad;
        ADD_FAILURE() << pkg.NodeName(n) << " element " << e << ": got 0x" << std::hex
                      << eps[n]->result()[e] << ", want 0x" << want[e];
      }
    }
  }
  for (unsigned n = 0; n < k * k; ++n) {
    EXPECT_EQ(pkg.Read(n, hw::kRegEngStatus), 0u) << pkg.NodeName(n);
    EXPECT_EQ(pkg.Read(n, hw::kRegEngCtrl), 0u) << pkg.NodeName(n) << ": programs finished";
  }
  EXPECT_FALSE(pkg.AnyError());
  if (hooks.inspect) hooks.inspect(pkg);
  return {last + 1 - t0, aries::test::Depth(t)};
}

// A butterfly of K < 8 runs on the 15-port node: the planner numbers the second local port after
// the topology's 7 ports, the node after its 15, and the route writes say the node's.
TEST(PackageCollective, RouteWritesTakeTheModelsLocalPortNumbers) {
  aries::coll::Program p;
  p.req.geom.topology = Topology::kFbfly;
  p.req.geom.k = 4;
  p.nodes.resize(16);
  p.nodes[3].routes = {
      {1, 7, 1u << 2}, {2, 2, 1u << 7}, {3, 0, 1u << 4}, {4, 3, 1u | 1u << 2 | 1u << 7}};
  std::vector<std::pair<uint32_t, uint32_t>> routes;  // (address, value) of node 3
  for (const RegOp& op : aries::sysc::RegisterWrites(p, 15)) {
    if (op.node == 3 && op.write) routes.push_back({op.addr, op.value});
  }
  const std::vector<std::pair<uint32_t, uint32_t>> want = {
      {hw::RouteAddr(1, 15), 1u << 2},
      {hw::RouteAddr(2, 2), 1u << 15},
      {hw::RouteAddr(3, 0), 1u << 4},
      {hw::RouteAddr(4, 3), 1u | 1u << 2 | 1u << 15}};
  EXPECT_EQ(routes, want);
  // On a model with the topology's own port count nothing moves; with fewer it is refused.
  unsigned same = 0;
  for (const RegOp& op : aries::sysc::RegisterWrites(p, 7)) {
    if (op.node == 3 && op.addr == hw::RouteAddr(1, 7) && op.value == 1u << 2) ++same;
    if (op.node == 3 && op.addr == hw::RouteAddr(2, 2) && op.value == 1u << 7) ++same;
  }
  EXPECT_EQ(same, 2u);
  try {
    aries::sysc::RegisterWrites(p, 5);
    ADD_FAILURE() << "a 7-port program was written for 5-port routers";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("7-port routers (fbfly 4x4) on a node model with 5 ports"),
              std::string::npos)
        << e.what();
  }
}

// The fast model's collective engine against the RTL's, pin by pin, on every operation (fp32
// special values included: RandomElement), with back-pressure, on mesh and torus.
TEST(PackageCollective, FastEngineEqualsRtlOnEveryOperation) {
  Hooks h;
  h.impl = aries::sysc::NodeImpl::kCheck;
  for (unsigned op = 0; op < hw::kNumOps; ++op) {
    h.topology = op % 2 == 0 ? Topology::kMesh : Topology::kTorus;
    try {
      RunCollective(4, op % 4, 1 + op % 3, op, 16 * 9 + 5, op % 3 != 2, 0.6, 100 + op, h);
    } catch (const aries::sysc::NodeMismatch& e) {
      FAIL() << "op " << op << ": " << e.what();
    }
  }
}

TEST(PackageCollective, AllReduce2x2Int32) {
  RunCollective(2, 0, 0, hw::kOpAddI32, 1000, true, 1.0, 1);
}
TEST(PackageCollective, AllReduce2x2MaxF32WithBackPressure) {
  RunCollective(2, 1, 1, hw::kOpMaxF32, 517, true, 0.3, 2);
}
TEST(PackageCollective, AllReduce4x4Fp32OddSize) {
  RunCollective(4, 1, 2, hw::kOpAddF32, 4099, true, 0.7, 3);
}
TEST(PackageCollective, AllReduce4x4XorCornerRoot) {
  RunCollective(4, 3, 3, hw::kOpXor, 1601, true, 1.0, 4);
}
TEST(PackageCollective, ReduceToRoot4x4Int32) {
  RunCollective(4, 2, 1, hw::kOpAddI32, 2000, false, 0.5, 5);
}
TEST(PackageCollective, AllReduce8x8Fp32) {
  RunCollective(8, 3, 4, hw::kOpAddF32, 3000, true, 0.8, 6);
}

// The Hockney model of PIUMA section "Model", adapted to this package: T(m) = alpha + beta m.
// beta: one 64-byte flit per cycle on every link and both trees at once (duplex links, separate
// request and response VCs), so beta m = m / 64 cycles. alpha: twice the leaf-to-root latency
// of the tree (PIUMA eq. 1 with one link level): per tree hop L + 1 wire cycles (L = 10) and
// Levels + 1 = 4 engine cycles (issue and the tree; the queue write overlaps the wire's last
// cycle), over D hops up and D down, plus Levels + 5 = 8 for the endpoints (injection into the
// leaf's queue, the root's turn, ejection): alpha = 2 D (L + Levels + 2) + Levels + 5. The
// single-flit all-reduce measures alpha + 1 exactly; the 1 KB and 1 MB all-reduces cannot beat
// alpha + m/64 and must stay within 5% of it (line rate).
TEST(PackageCollective, AllReduceAgainstHockneyBound) {
  std::printf("%-4s %10s %8s %10s %10s %10s %8s\n", "K", "bytes", "flits", "cycles", "alpha",
              "bound", "ratio");
  for (unsigned k : {4u, 8u}) {
    const unsigned r = k / 2 - 1;
    const Outcome one = RunCollective(k, r, r, hw::kOpAddI32, 16, true, 1.0, 7);
    const uint64_t alpha = one.cycles - 1;
    const uint64_t levels = 3;  // ceil(log2 5)
    EXPECT_EQ(alpha, 2ull * one.depth * (10 + levels + 2) + levels + 5) << "depth " << one.depth;
    for (size_t bytes : {size_t{1024}, size_t{1} << 20}) {
      const size_t flits = bytes / 64;
      const Outcome o = RunCollective(k, r, r, hw::kOpAddI32, bytes / 4, true, 1.0, 8);
      const double bound = static_cast<double>(alpha + flits);
      std::printf("%-4u %10zu %8zu %10llu %10llu %10.0f %8.3f\n", k, bytes, flits,
                  static_cast<unsigned long long>(o.cycles), static_cast<unsigned long long>(alpha),
                  bound, o.cycles / bound);
      EXPECT_GE(static_cast<double>(o.cycles), bound);
      EXPECT_LE(static_cast<double>(o.cycles), 1.05 * bound) << "line rate";
    }
  }
}

}  // namespace

namespace {

// Engine registers through the package API: refusals name the node, the register and what is
// allowed, and change nothing.
TEST(PackageCollective, EngineRegisterRefusalsAreExplained) {
  PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = 2;
  Package pkg(pc, aries::sysc::ShippedNodeModels(), 1);
  EXPECT_EQ(pkg.Read(1, hw::kRegEngId), hw::kEngIdValue);
  auto refusal = [&](const RegOp& op) -> std::string {
    try {
      pkg.Program({op});
    } catch (const aries::sysc::RegisterError& e) {
      return e.what();
    }
    return "";
  };
  std::string e = refusal({1, true, hw::EngIdReg(3, hw::kIdRegReqOut), 7});
  EXPECT_NE(e.find("ID_REQ_OUT[id 3]"), std::string::npos) << e;
  EXPECT_NE(e.find("a port 0 .. 4 or 31"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(1, hw::EngIdReg(3, hw::kIdRegReqOut)), 0u);
  e = refusal({2, true, hw::kRegEngCtrl, 1});
  EXPECT_NE(e.find("ENG_CTRL"), std::string::npos) << e;
  EXPECT_NE(e.find("names enabled ids"), std::string::npos) << e;
  e = refusal({0, true, hw::EngIdReg(8, 0), 1});
  EXPECT_NE(e.find("0x0280 + 8*id + 0..7 (id < 8)"), std::string::npos) << e;
  EXPECT_NE(pkg.Read(0, hw::kRegEngStatus) & (1u << hw::kEngStatusCfgErrBit), 0u);
}

}  // namespace

namespace {

// Three collectives with different roots, operations and vector lengths share every node's
// queues and links: the engines' programs interleave them in steps of a few flits over many
// passes, in the same order at every node, and the endpoints inject and receive in that order.
// Random back-pressure at every endpoint. Every element of every collective at every node is
// checked.
TEST(PackageCollective, InterleavedIdsWithDifferentRootsShareTheNetwork) {
  const unsigned k = 4, step = 3, passes = 12;
  PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = k;
  Package pkg(pc, aries::sysc::ShippedNodeModels(), 11);
  const auto& shape = pkg.shape();
  struct Def {
    unsigned id, op, rx, ry;
  };
  const Def defs[3] = {{1, hw::kOpAddF32, 0, 0}, {5, hw::kOpMinI32, 3, 1}, {2, hw::kOpXor, 2, 3}};
  const unsigned flits = step * passes;
  std::mt19937 rng(11);
  std::vector<Tree> trees;
  std::vector<std::vector<std::vector<uint32_t>>> vec(3);  // [coll][node][element]
  // The three ids' registers on every node, and one program interleaving them per stage.
  aries::coll::Program prog;
  prog.nodes.resize(k * k);
  for (unsigned c = 0; c < 3; ++c) {
    trees.push_back(MakeTree(k, defs[c].rx, defs[c].ry));
    const size_t elements = flits * shape.lanes - c * 5;  // not a multiple of the flit
    vec[c].assign(k * k, std::vector<uint32_t>(elements));
    for (auto& v : vec[c]) {
      for (auto& e : v) e = RandomElement(defs[c].op, rng);
    }
    const auto nodes = aries::test::TreeNodePrograms(trees[c], defs[c].id, defs[c].op, step, true);
    for (unsigned n = 0; n < k * k; ++n) prog.nodes[n].ids.push_back(nodes[n].ids[0]);
  }
  for (auto& np : prog.nodes) {
    for (unsigned c = 0; c < 3; ++c) {
      np.req.steps.push_back(defs[c].id);
      np.rsp.steps.push_back(defs[c].id);
    }
    np.req.passes = np.rsp.passes = passes;
  }
  const std::vector<RegOp> ops = aries::sysc::RegisterWrites(prog, shape.num_ports);
  std::vector<std::unique_ptr<CollEndpoint>> eps;
  for (unsigned n = 0; n < k * k; ++n) {
    std::vector<CollEndpoint::Coll> colls;
    for (unsigned c = 0; c < 3; ++c) colls.push_back({defs[c].id, defs[c].op, vec[c][n]});
    eps.push_back(std::make_unique<CollEndpoint>(
        shape, colls, std::vector<CollEndpoint::Step>{{0, step}, {1, step}, {2, step}}, passes, 0.4,
        100 + n));
    pkg.AttachEndpoint(n, eps.back().get());
  }
  pkg.Program(ops);
  for (auto& ep : eps) ep->Start();
  auto done = [&] {
    for (auto& ep : eps) {
      if (ep->received() < ep->flits()) return false;
    }
    return true;
  };
  for (uint64_t i = 0; i < 100000 && !done(); ++i) pkg.Step();
  ASSERT_TRUE(done());
  for (int i = 0; i < 200; ++i) pkg.Step();
  EXPECT_TRUE(pkg.Quiet());
  for (unsigned c = 0; c < 3; ++c) {
    const size_t elements = vec[c][0].size();
    std::vector<uint32_t> want(elements);
    for (size_t e = 0; e < elements; ++e) {
      want[e] = Golden(trees[c], defs[c].op, vec[c], trees[c].root, e);
    }
    for (unsigned n = 0; n < k * k; ++n) {
      for (const auto& e : eps[n]->errors()) ADD_FAILURE() << pkg.NodeName(n) << ": " << e;
      EXPECT_EQ(eps[n]->result(c), want) << "collective " << c << " at " << pkg.NodeName(n);
    }
  }
  for (unsigned n = 0; n < k * k; ++n) EXPECT_EQ(pkg.Read(n, hw::kRegEngStatus), 0u);
}

}  // namespace

namespace {

// ARIES and PIUMA together: an in-network all-reduce whose tree uses bypass segments. In every
// row, x-track 0 is cut at columns 1 and 3, so a segment joins them over column 2; node (3, y)
// sends to (1, y) over it (its XM port's mux takes the track, and (1, y)'s YP port, whose mesh
// link the tree does not use, takes the track's upper tap). The tree is one hop shallower;
// every element checked, and the single-flit latency drops by one hop each way (11 wire + 4
// engine cycles) less the segment's extra pitch (1 cycle each way): 2 x (15 - 1) = 28.
TEST(PackageCollective, AllReduceOverBypassSegmentsOnAries) {
  const unsigned k = 4;
  auto run = [](bool bypass, size_t elements) -> uint64_t {
    Hooks h;
    h.topology = Topology::kAries;
    size_t flits = 0;
    if (bypass) {
      h.setup = [&flits, elements](Package& pkg, Tree& t) {
        flits = (elements + pkg.shape().lanes - 1) / pkg.shape().lanes;
        for (unsigned y = 0; y < k; ++y) {
          const unsigned n1 = pkg.NodeId(1, y), n3 = pkg.NodeId(3, y);
          pkg.Write(n1, hw::kRegBypass, hw::BypassValue(0x1, 0));
          pkg.Write(n3, hw::kRegBypass, hw::BypassValue(0x1, 0));
          pkg.Write(n1, hw::kRegPortSelBase + hw::kPortYP, hw::PortSelValue(1, 1));
          pkg.Write(n3, hw::kRegPortSelBase + hw::kPortXM, hw::PortSelValue(1, 1));
          aries::test::Reparent(t, n3, n1, hw::kPortXM, hw::kPortYP);
        }
      };
      h.inspect = [&flits](const Package& pkg) {
        uint64_t seg = 0;
        for (const auto* ch : pkg.Channels()) {
          if (ch->name().find("track") != std::string::npos) seg += ch->flits_sent();
        }
        EXPECT_EQ(seg, 2u * k * flits) << "each row's segment carries the reduce and the broadcast";
      };
    }
    return RunCollective(k, 0, 0, hw::kOpAddF32, elements, true, 1.0, 21, h).cycles;
  };
  const uint64_t mesh1 = run(false, 16), aries1 = run(true, 16);
  EXPECT_EQ(mesh1 - aries1, 2u * (11 + 4 - 1)) << "mesh " << mesh1 << ", with bypass " << aries1;
  run(true, 1000);
}

}  // namespace
