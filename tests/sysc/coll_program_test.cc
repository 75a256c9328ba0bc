// Planned collective programs run cycle-accurately on the Verilated package through the
// adapter (sysc/coll_adapter): every algorithm x topology x collective it implements on 4x4,
// a subset on 2x2 and 8x8, int32 and fp32, every element of every node checked against the
// golden reduction (tb/coll_check), every injected flit ejected.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "coll_check.h"
#include "node_models.h"
#include "planners.h"
#include "test_seed.h"

namespace {

using namespace aries;
namespace hw = aries::hw;
using coll::Collective;
using coll::Topology;

struct Case {
  Topology topo;
  unsigned k;
  const char* algo;
  Collective coll;
  unsigned op;
  uint64_t elements;
  unsigned levels = 2;      // aries_lt
  coll::RingLayout ring{};  // ring
  unsigned local_ports = 1;
};

std::string Name(const Case& c) {
  return fmt::format("{} {} {} {}x{} op {} {} elements{}", c.algo, coll::CollectiveName(c.coll),
                     coll::TopologyName(c.topo), c.k, c.k, c.op, c.elements,
                     c.ring.Plain() ? "" : fmt::format(" (ring{})", c.ring.Suffix())) +
         (c.local_ports > 1 ? fmt::format(", {} local ports", c.local_ports) : std::string());
}

// What one run did: cycles, flit counts and every node's activity counters, and the results.
struct CaseRun {
  std::vector<uint64_t> fp;
  std::vector<std::vector<uint32_t>> out;
};

// Runs one case on the shipped model for `use` and checks it.
CaseRun RunCase(const Case& c, uint64_t seed, sysc::NodeUse use = sysc::NodeUse::kAny) {
  sysc::PackageConfig pc;
  pc.topology = c.topo;
  pc.k = c.k;
  pc.local_ports = c.local_ports;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(use), seed);
  if (use == sysc::NodeUse::kPointToPoint) {
    EXPECT_FALSE(pkg.shape().coll_engine);
  }
  coll::Request r;
  r.geom = pc;
  r.algo = c.algo;
  r.collective = c.coll;
  r.op = c.op;
  r.elements = c.elements;
  r.root = c.k * c.k - 2;
  r.levels = c.levels;
  r.ring = c.ring;
  const coll::Program p = coll::Plan(r, sysc::HardwareOf(pkg.shape()));
  const auto in = tb::MakeCollInputs(p, seed);
  const auto res = sysc::RunProgram(pkg, p, in, 2'000'000);
  EXPECT_TRUE(res.finished) << Name(c);
  EXPECT_TRUE(res.errors.empty()) << Name(c) << ": " << (res.errors.empty() ? "" : res.errors[0]);
  EXPECT_EQ(res.flits_injected, res.flits_to_inject) << Name(c);
  EXPECT_EQ(res.flits_ejected, res.flits_to_eject) << Name(c);
  if (!coll::FindAlgorithm(c.algo)->engine) {
    EXPECT_EQ(res.flits_injected, res.flits_ejected) << Name(c);  // point to point
  }
  const auto bad = tb::CheckCollective(p, in, res.out);
  EXPECT_TRUE(bad.empty()) << Name(c) << ": " << (bad.empty() ? "" : bad[0]);
  CaseRun run{{res.cycles, res.flits_injected, res.flits_ejected, pkg.cycle()}, res.out};
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    const auto& k = pkg.counters(n);
    run.fp.insert(run.fp.end(), {k.evaluated, k.injected, k.ejected, k.buffer_writes,
                                 k.xbar_traversals, k.va_grants, k.buffer_toggles,
                                 k.engine_requests + k.engine_responses + k.engine_out,
                                 k.portsel_changes, k.bypass_changes});
    run.fp.insert(run.fp.end(), k.link_toggles.begin(), k.link_toggles.end());
  }
  return run;
}

// Plans `r` for `pkg`, runs it on seeded inputs and expects it finished without errors, every
// flit delivered and every element verified (`what` names the case in a failure).
struct VerifiedRun {
  coll::Program p;
  std::vector<std::vector<uint32_t>> in;
  sysc::CollRunResult res;
};
VerifiedRun RunVerified(sysc::Package& pkg, const coll::Request& r, uint64_t seed,
                        const std::string& what = "") {
  VerifiedRun v;
  v.p = coll::Plan(r, sysc::HardwareOf(pkg.shape()));
  v.in = tb::MakeCollInputs(v.p, seed);
  v.res = sysc::RunProgram(pkg, v.p, v.in, 10'000'000);
  EXPECT_TRUE(v.res.finished) << what;
  EXPECT_TRUE(v.res.errors.empty()) << what;
  EXPECT_EQ(v.res.flits_injected, v.res.flits_to_inject) << what;
  EXPECT_EQ(v.res.flits_ejected, v.res.flits_to_eject) << what;
  EXPECT_TRUE(tb::CheckCollective(v.p, v.in, v.res.out).empty()) << what;
  return v;
}

// `algo` over the communicators `groups` of a 4x4 package of topology `t` (the shipped node
// models for `use`), every group at once, verified as RunVerified does.
VerifiedRun RunGroups(Topology t, sysc::NodeUse use, const std::string& algo,
                      const std::string& groups, Collective c, uint64_t elements, uint64_t seed) {
  sysc::PackageConfig pc;
  pc.topology = t;
  pc.k = 4;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(use), seed);
  coll::Request r;
  r.geom = pc;
  r.algo = algo;
  r.collective = c;
  r.op = hw::kOpAddI32;
  r.elements = elements;
  r.groups = coll::ParseGroups(groups, 4);
  return RunVerified(pkg, r, seed, fmt::format("{} {} {}", algo, groups, TopologyName(t)));
}

// What the ring family implements (all-to-all has algorithms of its own).
const Collective kAll[] = {Collective::kAllReduce, Collective::kReduceScatter,
                           Collective::kAllGather, Collective::kReduce,
                           Collective::kBroadcast, Collective::kBarrier};

TEST(CollProgram, EveryAlgorithmTopologyAndCollectiveOn4x4) {
  const uint64_t seed = aries::test::TestSeed(11);
  unsigned runs = 0;
  std::vector<Collective> every(std::begin(kAll), std::end(kAll));
  every.push_back(Collective::kAllToAll);
  for (const auto& a : coll::Algorithms()) {
    for (Collective c : every) {
      if (!a.Serves(c)) continue;
      for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries}) {
        if (!a.Serves(t)) continue;
        // 1000 elements: the flit (16) and N (16) do not divide the shards evenly.
        RunCase({t, 4, a.name, c, hw::kOpAddI32, 1000}, seed + runs++);
      }
    }
  }
  EXPECT_GT(runs, 40u);
}

TEST(CollProgram, Fp32AndOtherOperations) {
  const uint64_t seed = aries::test::TestSeed(12);
  for (const auto& a : coll::Algorithms()) {
    if (!a.Serves(Collective::kAllReduce)) continue;  // the all-to-all's copy no element
    if (a.Serves(Topology::kMesh)) {
      RunCase({Topology::kMesh, 4, a.name, Collective::kAllReduce, hw::kOpAddF32, 333}, seed);
      RunCase({Topology::kTorus, 4, a.name, Collective::kAllReduce, hw::kOpMaxF32, 50}, seed + 1);
    }
    RunCase({Topology::kAries, 4, a.name, Collective::kAllReduce, hw::kOpXor, 1}, seed + 2);
    RunCase({Topology::kAries, 4, a.name, Collective::kAllReduce, hw::kOpAddF32, 4099}, seed + 3);
  }
}

TEST(CollProgram, SubsetOn2x2And8x8) {
  const uint64_t seed = aries::test::TestSeed(13);
  for (const char* algo : {"ring", "2dring", "rabenseifner", "tree", "dbt", "mtree", "cmtree"}) {
    RunCase({Topology::kMesh, 2, algo, Collective::kAllReduce, hw::kOpAddI32, 77}, seed);
    RunCase({Topology::kTorus, 8, algo, Collective::kAllReduce, hw::kOpAddI32, 2000}, seed + 1);
  }
  // ARIES 8x8: segments run out (greedy segmentation), three-level hierarchical rings.
  for (const char* algo : {"aries_bw", "dbt", "cmtree", "mtree"}) {
    RunCase({Topology::kAries, 8, algo, Collective::kAllReduce, hw::kOpAddI32, 3001}, seed + 2);
  }
  RunCase({Topology::kAries, 8, "aries_lt", Collective::kAllReduce, hw::kOpAddF32, 3001, 3},
          seed + 3);
  RunCase({Topology::kAries, 2, "aries_lt", Collective::kAllReduce, hw::kOpAddI32, 77, 1},
          seed + 4);
  // The flattened butterfly runs rings and trees.
  for (const char* algo : {"ring", "dbt", "mtree", "2dring"}) {
    RunCase({Topology::kFbfly, 4, algo, Collective::kAllReduce, hw::kOpAddI32, 1000}, seed + 5);
  }
}

// `aries coll` runs point-to-point algorithms on the node model without the collective engine:
// the same program on both models gives the same cycles, results and activity counters of
// every node (ARIES with port muxes and bypass segments, a torus with its dateline VCs, a mesh
// tree).
TEST(CollProgram, PointToPointAlgorithmsGiveTheSameRunWithoutTheEngine) {
  const uint64_t seed = aries::test::TestSeed(15);
  for (const Case& c :
       {Case{Topology::kAries, 4, "aries_bw", Collective::kAllReduce, hw::kOpAddI32, 3000},
        Case{Topology::kAries, 4, "ring", Collective::kReduceScatter, hw::kOpAddI32, 2000},
        Case{Topology::kAries, 4, "aries_lt", Collective::kAllReduce, hw::kOpAddI32, 2000},
        Case{Topology::kTorus, 4, "ring", Collective::kAllReduce, hw::kOpAddF32, 1000},
        Case{Topology::kMesh, 4, "dbt", Collective::kAllReduce, hw::kOpAddI32, 5000}}) {
    EXPECT_FALSE(coll::FindAlgorithm(c.algo)->engine) << c.algo;
    const CaseRun full = RunCase(c, seed), p2p = RunCase(c, seed, sysc::NodeUse::kPointToPoint);
    EXPECT_EQ(full.fp, p2p.fp) << Name(c);
    EXPECT_EQ(full.out, p2p.out) << Name(c);
  }
}

// The ring in rank order (ASTRA-sim's ring on a mesh) and in two directions: every collective
// on the 4x4 mesh, the all-reduce on every topology and on an 8x8 mesh, every element checked.
TEST(CollProgram, RingMapsAndDirections) {
  const uint64_t seed = aries::test::TestSeed(16);
  unsigned runs = 0;
  for (auto [map, dirs] :
       {std::pair{coll::RingMap::kRank, 1u}, std::pair{coll::RingMap::kSnake, 2u},
        std::pair{coll::RingMap::kRank, 2u}}) {
    for (Collective c : kAll) {
      Case cs{Topology::kMesh, 4, "ring", c, hw::kOpAddI32, 1000};
      cs.ring = {map, dirs};
      RunCase(cs, seed + runs++);
    }
    for (Topology t : {Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
      Case cs{t, 4, "ring", Collective::kAllReduce, hw::kOpAddF32, 999};
      cs.ring = {map, dirs};
      RunCase(cs, seed + runs++);
    }
  }
  Case big{Topology::kMesh, 8, "ring", Collective::kAllReduce, hw::kOpAddI32, 3001};
  big.ring = {coll::RingMap::kRank, 2};
  RunCase(big, seed + runs);
}

// node.local_ports = 2 and 4: every collective of the two-direction ring on the mesh and of
// ARIES_BW on ARIES, verified; and the endpoint bandwidth doubles the ring family: ARIES_BW on
// two local ports at least 1.8x the mesh ring on one (issue 16).
TEST(CollProgram, LocalPortsCarryTheRingFamily) {
  const uint64_t seed = aries::test::TestSeed(21);
  unsigned runs = 0;
  for (unsigned lp : {2u, 4u}) {
    for (Collective c : kAll) {
      Case ring{Topology::kMesh, 4, "ring", c, hw::kOpAddI32, 1000};
      ring.ring = {coll::RingMap::kSnake, 2};
      ring.local_ports = lp;
      RunCase(ring, seed + runs++);
      Case bw{Topology::kAries, 4, "aries_bw", c, hw::kOpAddF32, 999};
      bw.local_ports = lp;
      RunCase(bw, seed + runs++);
    }
  }
  Case one{Topology::kMesh, 4, "ring", Collective::kAllReduce, hw::kOpAddI32, 16384};
  Case two{Topology::kAries, 4, "aries_bw", Collective::kAllReduce, hw::kOpAddI32, 16384};
  two.local_ports = 2;
  const uint64_t base = RunCase(one, seed + runs++).fp[0];
  const uint64_t fast = RunCase(two, seed + runs).fp[0];
  EXPECT_GE(static_cast<double>(base), 1.8 * static_cast<double>(fast)) << base << " vs " << fast;
}

// node.local_ports = 2 and 4: the trees, recursive doubling and ARIES_LT spread their messages
// over the local ports (SpreadOverPorts), every element verified on ARIES and the mesh.
TEST(CollProgram, LocalPortsCarryTheTrees) {
  const uint64_t seed = aries::test::TestSeed(24);
  unsigned runs = 0;
  for (unsigned lp : {2u, 4u}) {
    for (const char* algo : {"dbt", "mtree", "cmtree", "rd", "aries_lt"}) {
      for (Topology t : {Topology::kAries, Topology::kMesh}) {
        if (t == Topology::kMesh && std::string(algo) == "aries_lt") continue;
        Case c{t, 4, algo, Collective::kAllReduce, hw::kOpAddI32, 3001};
        c.local_ports = lp;
        RunCase(c, seed + runs++);
      }
    }
  }
}

TEST(CollProgram, TreeWithFourEmbeddingsAndPadding) {
  const uint64_t seed = aries::test::TestSeed(14);
  sysc::PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = 4;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(), seed);
  coll::Request r;
  r.geom = pc;
  r.algo = "tree";
  r.op = hw::kOpAddI32;
  r.elements = 5001;
  r.embeddings = 4;
  RunVerified(pkg, r, seed);
}

// Communicators (issue 20): two row groups' all-reduces at once on 4x4 ARIES, every element of
// every member against its own group's reduction (the golden is per group: corrupting one
// member's result, or checking against another grouping, is caught); the rows meet no link of
// each other, so each finishes as fast as alone; interleaved groups on the mesh share links and
// are slower together than alone.
TEST(CollProgram, CommunicatorsRunAtOnceAndEachIsVerified) {
  const uint64_t seed = aries::test::TestSeed(22);
  auto run = [&](Topology t, const std::string& groups, Collective c, uint64_t elements) {
    return RunGroups(t, sysc::NodeUse::kPointToPoint, "ring", groups, c, elements, seed);
  };
  for (Collective c :
       {Collective::kAllReduce, Collective::kReduceScatter, Collective::kAllGather}) {
    run(Topology::kAries, "0,1,2,3;4,5,6,7", c, 1001);
    run(Topology::kMesh, "quadrants", c, 999);
  }
  const VerifiedRun v = run(Topology::kAries, "0,1,2,3;4,5,6,7", Collective::kAllReduce, 4096);
  const auto& [p, in, res] = v;
  // Nodes 8..15 take no part: their buffers keep their inputs (the golden checks that too).
  EXPECT_EQ(res.out[12], in[12]);
  EXPECT_EQ(res.node_cycles.size(), 16u);
  // The golden is each group's own reduction.
  auto bad = res.out;
  bad[5][17] ^= 1;
  EXPECT_EQ(tb::CheckCollective(p, in, bad).size(), 1u);
  coll::Program other = p;
  other.req.groups = coll::ParseGroups("0,1,4,5;2,3,6,7", 4);
  EXPECT_FALSE(tb::CheckCollective(other, in, res.out).empty());
  // Together as fast as alone (no shared link on ARIES: the rows' wrap links are bypass
  // segments of their own rows).
  const auto alone = run(Topology::kAries, "0,1,2,3", Collective::kAllReduce, 4096).res;
  EXPECT_EQ(*std::max_element(res.node_cycles.begin(), res.node_cycles.begin() + 4),
            *std::max_element(alone.node_cycles.begin(), alone.node_cycles.begin() + 4));
  // Interleaved groups on the mesh: their dimension-order paths share links.
  const auto both = run(Topology::kMesh, "0,2,8,10;1,3,9,11", Collective::kAllReduce, 4096).res;
  const auto one = run(Topology::kMesh, "0,2,8,10", Collective::kAllReduce, 4096).res;
  EXPECT_GT(static_cast<double>(both.node_cycles[0]),
            1.5 * static_cast<double>(one.node_cycles[0]));
}

// Trees over communicators (issue 20): the double binary tree, the multi-tree and the in-network
// tree over row groups and quadrants at once, on ARIES and the mesh, every element of every
// member against its own group's reduction; groups apart (the communicators across quadrants)
// for the point-to-point trees. Rows meet no link of each other: each row's tree takes as long
// together as alone.
TEST(CollProgram, TreesOverCommunicatorsRunAtOnceAndEachIsVerified) {
  const uint64_t seed = aries::test::TestSeed(24);
  auto run = [&](Topology t, const char* algo, const std::string& groups, Collective c,
                 uint64_t elements) {
    return RunGroups(t, sysc::NodeUse::kAny, algo, groups, c, elements, seed).res;
  };
  for (Topology t : {Topology::kAries, Topology::kMesh}) {
    for (const char* algo : {"dbt", "mtree", "tree"}) {
      run(t, algo, "rows", Collective::kAllReduce, 1001);
      run(t, algo, "quadrants", Collective::kAllReduce, 999);
    }
    run(t, "mtree", "qpeers", Collective::kAllReduce, 1001);
    run(t, "dbt", "qpeers", Collective::kAllReduce, 1001);
    run(t, "mtree", "rows", Collective::kReduceScatter, 1001);
    run(t, "mtree", "cols", Collective::kAllGather, 1001);
    run(t, "tree", "cols", Collective::kReduceScatter, 1001);
  }
  for (const char* algo : {"dbt", "mtree", "tree"}) {
    const auto both = run(Topology::kAries, algo, "0,1,2,3;4,5,6,7", Collective::kAllReduce, 4096);
    const auto alone = run(Topology::kAries, algo, "0,1,2,3", Collective::kAllReduce, 4096);
    EXPECT_EQ(*std::max_element(both.node_cycles.begin(), both.node_cycles.begin() + 4),
              *std::max_element(alone.node_cycles.begin(), alone.node_cycles.begin() + 4))
        << algo;
  }
}

// A direct all-to-all (-v: counts still to give) on the package `pc`.
coll::Request Direct(const sysc::PackageConfig& pc, Collective c) {
  coll::Request r;
  r.geom = pc;
  r.algo = "direct";
  r.collective = c;
  return r;
}

// All-to-all beyond the 4x4 sweep above: the flattened butterfly, 3x3 (blocks of an odd count),
// two local ports, communicators at once; the golden names a block that went astray.
TEST(CollProgram, AllToAllEverywhereAndTheGoldenCatchesAStrayBlock) {
  const uint64_t seed = aries::test::TestSeed(23);
  for (const char* algo : {"direct", "2phase"}) {
    RunCase({Topology::kFbfly, 4, algo, Collective::kAllToAll, hw::kOpAddI32, 1000}, seed);
    RunCase({Topology::kMesh, 3, algo, Collective::kAllToAll, hw::kOpAddI32, 500}, seed + 1);
    Case two{Topology::kAries, 4, algo, Collective::kAllToAll, hw::kOpAddI32, 4096};
    two.local_ports = 2;
    RunCase(two, seed + 2);
  }
  sysc::PackageConfig pc;
  pc.topology = Topology::kAries;
  pc.k = 4;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
  coll::Request r = Direct(pc, Collective::kAllToAll);
  r.elements = 640;
  r.groups = coll::ParseGroups("rows", 4);
  const auto [p, in, res] = RunVerified(pkg, r, seed, "rows");
  // Node 6 (rank 2 of row 1: nodes 4..7) holds node 5's block 2 as its block 1 (blocks of 160).
  EXPECT_EQ(res.out[6][160 + 7], in[5][2 * 160 + 7]);
  EXPECT_EQ(res.out[6][2 * 160 + 7], in[6][2 * 160 + 7]);  // its own block stays
  auto bad = res.out;
  std::swap(bad[6][160 + 7], bad[6][3 * 160 + 7]);
  const auto found = tb::CheckCollective(p, in, bad);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NE(found[0].find("node 6 element 167"), std::string::npos) << found[0];
  EXPECT_NE(found[0].find("(node 5's element 327)"), std::string::npos) << found[0];
  // 2phase over grid communicators at once, every block verified: quadrants and the peers
  // across quadrants (2 x 2 grids), rows (one phase), on ARIES and the mesh.
  for (Topology t : {Topology::kAries, Topology::kMesh}) {
    for (const char* g : {"quadrants", "qpeers", "rows"}) {
      sysc::PackageConfig pg = pc;
      pg.topology = t;
      sysc::Package pk(pg, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
      coll::Request q = Direct(pg, Collective::kAllToAll);
      q.algo = "2phase";
      q.elements = 1001;
      q.groups = coll::ParseGroups(g, 4);
      RunVerified(pk, q, seed, fmt::format("2phase {} {}", g, TopologyName(t)));
    }
  }
  // What no message writes keeps its input: the tail past G blocks (3 members, 641 elements:
  // blocks of 213, elements 639 and 640 left) and every element of a node in no communicator.
  sysc::Package pkg3(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
  r.groups = coll::ParseGroups("0,1,2", 4);
  r.elements = 641;
  const auto [p3, in3, res3] = RunVerified(pkg3, r, seed, "0,1,2");
  auto tail = res3.out;
  tail[1][640] ^= 1u;
  tail[9][5] ^= 1u;
  const auto caught = tb::CheckCollective(p3, in3, tail);
  ASSERT_EQ(caught.size(), 2u);
  EXPECT_NE(caught[0].find("node 1 element 640"), std::string::npos) << caught[0];
  EXPECT_NE(caught[0].find("past the all-to-all's blocks"), std::string::npos) << caught[0];
  EXPECT_NE(caught[1].find("node 9 element 5"), std::string::npos) << caught[1];
  EXPECT_NE(caught[1].find("in no communicator"), std::string::npos) << caught[1];
}

// All-to-all-v, cycle-accurate: random counts with empty blocks on every topology (3x3 and 4x4,
// two local ports on ARIES), row communicators at once; the golden names a received element
// from the wrong place, and a write into a send area or past a node's receive blocks.
TEST(CollProgram, AllToAllVEverywhereAndTheGoldenCatchesAStrayElement) {
  const uint64_t seed = aries::test::TestSeed(25);
  unsigned runs = 0;
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kFbfly, Topology::kAries}) {
    for (unsigned k : {3u, 4u}) {
      sysc::PackageConfig pc;
      pc.topology = t;
      pc.k = k;
      pc.local_ports = t == Topology::kAries ? 2 : 1;
      sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
      coll::Request r = Direct(pc, Collective::kAllToAllV);
      r.counts = coll::MakeCounts(r, "random", 40, seed + k);
      r.counts[1][0] = r.counts[0][k * k - 1] = 0;
      r.counts[k * k - 2][k * k - 1] += 1;  // the block checked below is never empty
      const auto [p, in, res] =
          RunVerified(pkg, r, seed, fmt::format("{} {}x{}", coll::TopologyName(t), k, k));
      // Node k*k-1's last block (from node k*k-2) holds that node's block for it.
      const coll::AllToAllVLayout lay(r);
      const unsigned last = k * k - 1, from = k * k - 2;
      const coll::Range at = lay.Recv(last, from), src = lay.Send(from, last);
      ASSERT_GT(at.len, 0u);
      EXPECT_EQ(res.out[last][at.end() - 1], in[from][src.end() - 1]);
      ++runs;
    }
  }
  EXPECT_EQ(runs, 8u);
  sysc::PackageConfig pc;
  pc.topology = Topology::kAries;
  pc.k = 4;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
  coll::Request r = Direct(pc, Collective::kAllToAllV);
  r.groups = coll::ParseGroups("rows", 4);
  r.counts = coll::MakeCounts(r, "random", 30, seed);
  r.counts[5][6] = 7;
  r.counts[4][5] = r.counts[6][5] = r.counts[7][5] = 1;  // node 5's receive area ends early
  const auto [p, in, res] = RunVerified(pkg, r, seed, "rows");
  const coll::AllToAllVLayout lay(r);
  auto bad = res.out;
  const coll::Range got = lay.Recv(6, 5);  // node 6's block from node 5 (7 elements)
  bad[6][got.off + 3] ^= 1u;
  bad[6][1] ^= 1u;  // its send area
  const uint64_t past = lay.Received(5).end();
  ASSERT_LT(past, p.elements);
  bad[5][past] ^= 1u;  // past node 5's receive blocks
  const auto found = tb::CheckCollective(p, in, bad);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_NE(found[0].find(fmt::format("node 5 element {}", past)), std::string::npos) << found[0];
  EXPECT_NE(found[0].find("past its receive blocks"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find(fmt::format("node 6 element {}", got.off + 3)), std::string::npos)
      << found[1];
  EXPECT_NE(found[1].find(fmt::format("(node 5's element {})", lay.Send(5, 6).off + 3)),
            std::string::npos)
      << found[1];
  EXPECT_NE(found[2].find("node 6 element 1:"), std::string::npos) << found[2];
  EXPECT_NE(found[2].find("its send area"), std::string::npos) << found[2];
}

// All-to-all-v through the row peers (2phase), cycle-accurate: random counts with empty blocks
// on every topology (4x4; 3x3 on the mesh; ARIES with two local ports), grid communicators at
// once (quadrants, the peers across them, rows). The staging area past the layout is the
// members' scratch; a relayed element that arrives wrong is caught where it lands.
TEST(CollProgram, TwoPhaseAllToAllVEverywhereAndTheGoldenCatchesARelayedElement) {
  const uint64_t seed = aries::test::TestSeed(26);
  struct Run {
    Topology t;
    unsigned k;
    const char* groups;
  };
  for (const Run& c : {Run{Topology::kMesh, 4, ""}, Run{Topology::kMesh, 3, ""},
                       Run{Topology::kTorus, 4, ""}, Run{Topology::kFbfly, 4, ""},
                       Run{Topology::kAries, 4, ""}, Run{Topology::kAries, 4, "quadrants"},
                       Run{Topology::kMesh, 4, "qpeers"}, Run{Topology::kTorus, 4, "rows"}}) {
    sysc::PackageConfig pc;
    pc.topology = c.t;
    pc.k = c.k;
    pc.local_ports = c.t == Topology::kAries ? 2 : 1;
    sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
    coll::Request r = Direct(pc, Collective::kAllToAllV);
    r.algo = "2phase";
    if (*c.groups) r.groups = coll::ParseGroups(c.groups, c.k);
    r.counts = coll::MakeCounts(r, "random", 40, seed + c.k);
    r.counts[1][0] = 0;
    RunVerified(pkg, r, seed,
                fmt::format("2phase {} {}x{} {}", coll::TopologyName(c.t), c.k, c.k, c.groups));
  }
  sysc::PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = 4;
  sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint), seed);
  coll::Request r = Direct(pc, Collective::kAllToAllV);
  r.algo = "2phase";
  r.counts = coll::MakeCounts(r, "uniform", 20, seed);
  const auto [p, in, res] = RunVerified(pkg, r, seed, "2phase uniform");
  const coll::AllToAllVLayout lay(r);
  ASSERT_GT(p.elements, lay.elements());  // a staging area
  // Node 1 (1,0) relays node 0's block for node 5 (1,1), which the run delivered (verified
  // above). The golden leaves the staging area as scratch and names a wrong element of the
  // relayed block by its sender's offset.
  auto bad = res.out;
  bad[1][lay.elements()] ^= 1u;
  EXPECT_TRUE(tb::CheckCollective(p, in, bad).empty());
  bad[5][lay.Recv(5, 0).off + 2] ^= 1u;
  const auto found = tb::CheckCollective(p, in, bad);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].find(fmt::format("node 5 element {}", lay.Recv(5, 0).off + 2)),
            std::string::npos)
      << found[0];
  EXPECT_NE(found[0].find(fmt::format("(node 0's element {})", lay.Send(0, 5).off + 2)),
            std::string::npos)
      << found[0];
}

// The cost models' flit count (coll::BusiestNodeFlits) is what the endpoints inject: messages by
// their regions' flits, engine streams with their steps' padding (the tree with four embeddings
// steps its ids in 256-flit pieces, which 20,000 elements do not fill).
TEST(CollProgram, BusiestNodeFlitsIsWhatTheEndpointsInject) {
  const sysc::NodeShape shape;  // the shipped node's
  for (const char* algo : {"tree", "ring", "dbt", "mtree"}) {
    for (unsigned e : {1u, 4u}) {
      if (e == 4 && std::string(algo) != "tree") continue;
      coll::Request r;
      r.geom.topology = Topology::kAries;
      r.geom.k = 4;
      r.algo = algo;
      r.embeddings = e;
      r.op = hw::kOpAddI32;
      r.elements = 20000;
      const coll::Program p = coll::Plan(r, sysc::HardwareOf(shape));
      uint64_t most = 0;
      for (unsigned n = 0; n < p.num_nodes(); ++n) {
        sysc::ScheduleEndpoint ep(shape, 4, n, p, std::vector<uint32_t>(p.elements));
        most = std::max(most, ep.flits_to_send());
      }
      EXPECT_EQ(coll::BusiestNodeFlits(p, shape.lanes), most) << algo << " E=" << e;
      // Without padding a node injects its vector once: 1,250 flits.
      if (e == 4) {
        EXPECT_GT(most, (r.elements + shape.lanes - 1) / shape.lanes) << "padding";
      }
    }
  }
}

}  // namespace
