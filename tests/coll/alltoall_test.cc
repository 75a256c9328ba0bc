// All-to-all and all-to-all-v (collectives/alltoall_planners.cc): blocks, layouts and bounds,
// the planners' refusals, and the symbolic execution's offsets: a message may land elsewhere
// than it was sent from, a block delivered from the wrong offset is refused, and so is a
// reduction of elements from two offsets.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "aries_pkg.h"
#include "planners.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

#define EXPECT_HAS(s, sub) EXPECT_NE((s).find(sub), std::string::npos) << (s)

Request A2a(Topology t, unsigned k, const char* algo, uint64_t elements) {
  Request r;
  r.geom.topology = t;
  r.geom.k = k;
  r.algo = algo;
  r.collective = Collective::kAllToAll;
  r.elements = elements;
  return r;
}

std::string Refusal(const Request& r) {
  try {
    Plan(r, Hardware{});
  } catch (const PlanError& e) {
    return e.what();
  }
  return "";
}

TEST(AllToAll, BlocksResultRegionAndName) {
  EXPECT_EQ(AllToAllBlock(1000, 16, 3).off, 186u);  // 62 elements a block
  EXPECT_EQ(AllToAllBlock(1000, 16, 3).len, 62u);
  Program p;
  p.req = A2a(Topology::kMesh, 4, "direct", 1000);
  p.elements = 1000;
  p.nodes.resize(16);
  EXPECT_EQ(p.ResultRegion(5).off, 0u);
  EXPECT_EQ(p.ResultRegion(5).len, 992u);  // the last 8 elements take no part
  EXPECT_EQ(ParseCollective("alltoall"), Collective::kAllToAll);
  EXPECT_HAS(std::string(CollectiveNames()), "alltoall");
}

TEST(AllToAll, BisectionBound) {
  Geometry g;
  g.k = 4;
  g.topology = Topology::kMesh;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 1.0);  // 2 x 2 / (1 x 4)
  g.k = 8;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 2.0);
  g.k = 3;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 2.0 / 3);  // a = 1, b = 2
  g.k = 4;
  g.topology = Topology::kTorus;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 0.5);
  g.topology = Topology::kFbfly;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 0.25);
  g.topology = Topology::kAries;
  g.tracks = 2;
  EXPECT_DOUBLE_EQ(AllToAllBisection(g), 1.0 / 3);
}

TEST(AllToAll, PlannedOnEveryTopologyOddKAndGroups) {
  unsigned planned = 0;
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (unsigned k : {2u, 3u, 4u, 5u}) {
      for (const char* algo : {"direct", "2phase"}) {
        SCOPED_TRACE(fmt::format("{} {}x{} {}", TopologyName(t), k, k, algo));
        Validation v;
        const Program p = Plan(A2a(t, k, algo, 1001), Hardware{}, &v);
        // Every ordered pair of members once (direct), or K - 1 peers per phase with K
        // messages in the rows' phase and one in the columns' (2phase).
        const uint64_t n = k * k;
        EXPECT_EQ(v.symbolic.messages,
                  std::string(algo) == "direct" ? n * (n - 1) : n * (k - 1) * (k + 1));
        EXPECT_EQ(p.sync_steps, std::string(algo) == "direct" ? 1u : 2u);
        ++planned;
      }
    }
    Request r = A2a(t, 4, "direct", 77);
    r.groups = ParseGroups("0,5,10,15;3,6;1,2,4", 4);
    Validation v;
    Plan(r, Hardware{}, &v);
    EXPECT_EQ(v.symbolic.messages, 4u * 3 + 2 + 3 * 2);
  }
  EXPECT_EQ(planned, 4u * 4 * 2);
}

// 2phase over communicators that are grids, proven on every topology: a row (one phase, its
// K - 1 peers), a quadrant and the peers across quadrants (2 x 2: one row peer, one column
// peer), pairs, two-column halves (2 x 4: a rank is r w + c, not r h + c); each member talks
// to its own group only, along one dimension.
TEST(AllToAll, TwoPhaseOverGridCommunicators) {
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (const char* g : {"rows", "cols", "quadrants", "qpeers", "vpairs", "hpairs",
                          "0,1,4,5,8,9,12,13;2,3,6,7,10,11,14,15"}) {
      SCOPED_TRACE(fmt::format("{} {}", TopologyName(t), g));
      Request r = A2a(t, 4, "2phase", 1001);
      r.groups = ParseGroups(g, 4);
      Validation v;
      const Program p = Plan(r, Hardware{}, &v);
      // A member of a w x h grid sends its w - 1 row peers h blocks each (one message a
      // block), then its h - 1 column peers a row of blocks each.
      const std::string sh = g;
      const uint64_t w = sh == "rows" ? 4 : sh == "cols" || sh == "vpairs" ? 1 : 2;
      const uint64_t h = sh == "cols" || sh[0] == '0' ? 4 : sh == "rows" || sh == "hpairs" ? 1 : 2;
      EXPECT_EQ(v.symbolic.messages, 16 * ((w - 1) * h + (h - 1)));
      for (unsigned a = 0; a < 16; ++a) {
        for (const Op& o : p.nodes[a].ops) {
          EXPECT_EQ(RankOf(r, a)->comm, RankOf(r, o.peer)->comm);
          EXPECT_TRUE(a % 4 == o.peer % 4 || a / 4 == o.peer / 4)  // one dimension
              << a << " and " << o.peer;
        }
      }
      EXPECT_NE(p.summary.find("over each of"), std::string::npos);
    }
  }
}

TEST(AllToAll, RefusalsNameTheItem) {
  EXPECT_HAS(Refusal(A2a(Topology::kMesh, 4, "direct", 15)),
             "coll.size: all-to-all over 16 members needs at least 16 elements");
  Request g = A2a(Topology::kMesh, 4, "2phase", 64);
  g.groups = ParseGroups("0,1,4;2,3", 4);
  EXPECT_HAS(Refusal(g),
             "2phase over communicators: group 1 is not a grid (its 3 members lie in 2 columns "
             "and 2 rows, and node 5 (1,1) where one of them crosses one is not a member)");
  EXPECT_HAS(Refusal(A2a(Topology::kMesh, 4, "ring", 64)),
             "algorithm ring does not implement alltoall");
  Request d = A2a(Topology::kMesh, 4, "direct", 64);
  d.collective = Collective::kAllReduce;
  EXPECT_HAS(Refusal(d), "algorithm direct does not implement allreduce; it implements alltoall");
}

// A block sent from the wrong offset reaches the right node with the right sender's data: only
// the offsets the symbolic execution follows tell (a check by whose input alone passes it).
TEST(AllToAll, AWrongBlockIsRefusedByItsOffset) {
  Program p = Plan(A2a(Topology::kMesh, 4, "direct", 160), Hardware{});
  for (Op& o : p.nodes[3].ops) {
    if (o.act == Act::kSend && o.peer == 7) o.region = AllToAllBlock(160, 16, 3);  // its own
  }
  const Validation v = Validate(p, Hardware{});
  EXPECT_FALSE(v.ok());
  EXPECT_HAS(v.error,
             "node 7 (3,1) ends with elements [30, 40) holding offset 30 of their "
             "input where offset 70 belongs");
  // Two receives swapped: the blocks hold the wrong senders.
  Program q = Plan(A2a(Topology::kMesh, 4, "direct", 160), Hardware{});
  Range* a = nullptr;
  Range* b = nullptr;
  for (Op& o : q.nodes[5].ops) {
    if (o.act == Act::kRecvCopy && o.peer == 1) a = &o.region;
    if (o.act == Act::kRecvCopy && o.peer == 2) b = &o.region;
  }
  ASSERT_TRUE(a && b);
  std::swap(*a, *b);
  const Validation w = Validate(q, Hardware{});
  EXPECT_FALSE(w.ok());
  EXPECT_HAS(w.error, "node 5 (1,1) ends with elements [10, 20) missing the input of node 1");
}

// A reduction joins the same element of every input: a receive-reduce moved to another shard
// of the same length reduces elements of two offsets.
TEST(AllToAll, AReductionAcrossOffsetsIsRefused) {
  Request r;
  r.geom.k = 4;
  r.algo = "ring";
  r.elements = 160;
  r.op = hw::kOpAddI32;
  Program p = Plan(r, Hardware{});
  for (Op& o : p.nodes[0].ops) {
    if (o.act == Act::kRecvReduce) {
      o.region.off = o.region.off >= 10 ? o.region.off - 10 : o.region.off + 10;
      break;
    }
  }
  const Validation v = Validate(p, Hardware{});
  EXPECT_FALSE(v.ok());
  EXPECT_HAS(v.error, "reduces elements");
  EXPECT_HAS(v.error, "with elements from offset");
}

// All-to-all-v (program.h: AllToAllVLayout): the send and receive areas the counts lay out,
// the counts' refusals naming the row and column, the generated counts, the bisection bound,
// and the symbolic execution proving a direct plan and refusing a block received from the
// wrong sender or offset.

// 2x2: node 0 sends 5 to 1 and 7 to 3, keeps 2; node 1 sends 1 to 0; node 2 keeps 3, sends 9
// to 3; node 3 sends 4 to 0, 1 and 2.
const std::vector<std::vector<uint64_t>> kCounts = {
    {2, 5, 0, 7}, {1, 0, 0, 0}, {0, 0, 3, 9}, {4, 4, 4, 0}};

Request V(Topology t, unsigned k, std::vector<std::vector<uint64_t>> counts) {
  Request r;
  r.geom.topology = t;
  r.geom.k = k;
  r.algo = "direct";
  r.collective = Collective::kAllToAllV;
  r.counts = std::move(counts);
  return r;
}

TEST(AllToAllV, LayoutOfSendAndReceiveAreas) {
  const AllToAllVLayout l(V(Topology::kMesh, 2, kCounts));
  // Send areas: node 0 holds 2 + 5 + 0 + 7 = 14, the longest; node 3 12.
  EXPECT_EQ(l.send_area(), 14u);
  EXPECT_EQ(l.Send(0, 0).off, 0u);
  EXPECT_EQ(l.Send(0, 1).off, 2u);
  EXPECT_EQ(l.Send(0, 3).off, 7u);
  EXPECT_EQ(l.Send(0, 3).len, 7u);
  EXPECT_EQ(l.Send(3, 2).off, 8u);
  // Receive areas at 14, the other members in rank order: node 0 gets 1 from node 1 and 4
  // from node 3; node 3 gets 7 from node 0 and 9 from node 2 (16, the longest).
  EXPECT_EQ(l.Recv(0, 1).off, 14u);
  EXPECT_EQ(l.Recv(0, 3).off, 15u);
  EXPECT_EQ(l.Recv(0, 3).len, 4u);
  EXPECT_EQ(l.Recv(3, 0).off, 14u);
  EXPECT_EQ(l.Recv(3, 2).off, 21u);
  EXPECT_EQ(l.Recv(2, 2).len, 0u);  // its own block stays in its send area
  EXPECT_EQ(l.Received(3).off, 14u);
  EXPECT_EQ(l.Received(3).len, 16u);
  EXPECT_EQ(l.elements(), 30u);
  EXPECT_EQ(l.Sent(0), 12u);
  EXPECT_EQ(l.Sent(2), 9u);
  const Program p = Plan(V(Topology::kMesh, 2, kCounts), Hardware{});
  EXPECT_EQ(p.elements, 30u);
  EXPECT_EQ(p.ResultRegion(0).off, 14u);
  EXPECT_EQ(p.ResultRegion(0).len, 5u);
  const std::vector<Range> all = p.ResultRegions();  // every node's, from one layout
  ASSERT_EQ(all.size(), 4u);
  for (unsigned n = 0; n < 4; ++n) {
    EXPECT_EQ(all[n].off, l.Received(n).off) << n;
    EXPECT_EQ(all[n].len, l.Received(n).len) << n;
  }
  EXPECT_EQ(ParseCollective("alltoallv"), Collective::kAllToAllV);
  EXPECT_HAS(std::string(CollectiveNames()), "alltoallv");
  EXPECT_FALSE(Swept(Collective::kAllToAllV));
}

TEST(AllToAllV, PlannedAndProvenOnEveryTopologyWithZerosAndGroups) {
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (unsigned k : {2u, 3u, 4u}) {
      SCOPED_TRACE(fmt::format("{} {}x{}", TopologyName(t), k, k));
      Request r = V(t, k, {});
      r.counts = MakeCounts(r, "random", 6, k);
      r.counts[0][1] = 0;  // an empty block sends nothing
      uint64_t pairs = 0;
      for (unsigned i = 0; i < k * k; ++i) {
        for (unsigned j = 0; j < k * k; ++j) pairs += i != j && r.counts[i][j] != 0;
      }
      Validation v;
      Plan(r, Hardware{}, &v);
      EXPECT_TRUE(v.ok()) << v.error;
      EXPECT_EQ(v.symbolic.messages, pairs);
    }
    Request g = V(t, 4, {});
    g.groups = ParseGroups("0,5,10,15;3,6", 4);
    g.counts = MakeCounts(g, "uniform", 3, 1);
    Validation v;
    const Program p = Plan(g, Hardware{}, &v);
    EXPECT_EQ(v.symbolic.messages, 4u * 3 + 2);
    EXPECT_EQ(p.ResultRegion(1).len, 0u);  // in no communicator
  }
}

// 2phase all-to-all-v: each member hands a row peer its blocks for the peer's column, the peer
// stages the ones for other rows past the layout and sends each column peer its row's blocks
// for it. Proven (every received element its sender's) on every topology and K with empty
// blocks, over grid communicators; every message along one dimension; the staging area the
// largest sum of what a member relays.
TEST(AllToAllV, TwoPhaseProvenOnEveryTopologyAndGridCommunicators) {
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (unsigned k : {2u, 3u, 4u, 5u}) {
      for (const char* g : {"all", "rows", "cols", "quadrants", "qpeers", "vpairs", "hpairs"}) {
        const std::string shape = g;
        if (k != 4 && shape != "all" && shape != "rows" && shape != "cols") continue;
        SCOPED_TRACE(fmt::format("{} {}x{} {}", TopologyName(t), k, k, g));
        Request r = V(t, k, {});
        r.algo = "2phase";
        if (shape != "all") r.groups = ParseGroups(g, k);
        r.counts = MakeCounts(r, "random", 5, k + static_cast<unsigned>(t));
        r.counts[0][1] = 0;             // an empty block sends nothing
        if (k > 2) r.counts[k][1] = 0;  // nor does an empty staged one
        Validation v;
        const Program p = Plan(r, Hardware{}, &v);
        ASSERT_TRUE(v.ok()) << v.error;
        // Relayed: what (c, y) sent for (x, z), staged at (x, y), for y != z and c != x.
        const AllToAllVLayout lay(r);
        uint64_t staging = 0;
        for (unsigned at = 0; at < k * k; ++at) {
          const auto rank = RankOf(r, at);
          if (!rank) continue;
          uint64_t relayed = 0;
          for (unsigned src = 0; src < k * k; ++src) {
            for (unsigned dst = 0; dst < k * k; ++dst) {
              if (src / k == at / k && src % k != at % k && dst % k == at % k &&
                  dst / k != at / k && RankOf(r, src) && RankOf(r, src)->comm == rank->comm &&
                  RankOf(r, dst) && RankOf(r, dst)->comm == rank->comm)
                relayed += r.counts[src][dst];
            }
          }
          staging = std::max(staging, relayed);
        }
        EXPECT_EQ(p.elements, lay.elements() + staging);
        for (unsigned a = 0; a < k * k; ++a) {
          for (const Op& o : p.nodes[a].ops) {
            EXPECT_TRUE(a % k == o.peer % k || a / k == o.peer / k) << a << " and " << o.peer;
            EXPECT_EQ(RankOf(r, a)->comm, RankOf(r, o.peer)->comm);
          }
        }
        EXPECT_HAS(p.summary, "2-phase all-to-all-v");
      }
    }
  }
  Request r = V(Topology::kMesh, 4, {});
  r.algo = "2phase";
  r.groups = ParseGroups("0,5,10,15;3,6", 4);
  r.counts = MakeCounts(r, "uniform", 3, 1);
  EXPECT_HAS(Refusal(r), "group 1 is not a grid");
  // The staging counts against the buffer's limit: 2^19 elements from every chiplet of the 4x4
  // package to every one make send and receive areas of 16 x 2^19 + 15 x 2^19 = 31 x 2^19,
  // under 2^24 = 32 x 2^19 (direct plans it), and a relay stages 3 rows x 3 senders x 2^19 more.
  r = V(Topology::kMesh, 4, {});
  r.algo = "2phase";
  r.counts = MakeCounts(r, "uniform", uint64_t{1} << 19, 1);
  EXPECT_HAS(Refusal(r), "2phase alltoallv: a buffer of 20971520 elements per chiplet");
  EXPECT_HAS(Refusal(r), "allowed at most 16777216 (direct needs no staging)");
}

TEST(AllToAllV, CountsRefusalsNameRowAndColumn) {
  Request r = V(Topology::kMesh, 2, kCounts);
  r.counts.pop_back();
  EXPECT_HAS(Refusal(r), "coll.counts: 3 rows, one per chiplet of 2x2: allowed 4");
  r = V(Topology::kMesh, 2, kCounts);
  r.counts[2].push_back(1);
  EXPECT_HAS(Refusal(r), "coll.counts: row 2 has 5 counts: allowed 4");
  r = V(Topology::kMesh, 2, kCounts);
  r.groups = ParseGroups("0,1;2,3", 2);
  EXPECT_HAS(Refusal(r),
             "row 0 column 3 is 7, but chiplets 0 and 3 are in different communicators");
  r.groups = ParseGroups("0,1", 2);
  r.counts = {{0, 5, 0, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 0}};
  EXPECT_HAS(Refusal(r), "row 2 column 2 is 1, but chiplet 2 is in no communicator");
  r = V(Topology::kMesh, 2, {{9, 0, 0, 0}, {0, 9, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}});
  EXPECT_HAS(Refusal(r), "every count between two different chiplets is 0");
  r = V(Topology::kMesh, 2, kCounts);
  r.counts[1][3] = uint64_t{1} << 25;
  EXPECT_HAS(Refusal(r), "row 1 column 3 is 33554432: allowed 0 .. 16777216");
  r.counts[1][3] = uint64_t{1} << 23;
  r.counts[3][1] = uint64_t{1} << 23;
  r.counts[0][1] = 100;
  // Node 3 sends the most (4 + 2^23 + 4), node 1 receives the most (100 + 2^23).
  EXPECT_HAS(Refusal(r),
             "a buffer of 16777324 elements (chiplet 3 sends 8388616, chiplet 1 "
             "receives 8388708): allowed at most 16777216");
  r = V(Topology::kMesh, 2, kCounts);
  r.algo = "ring";
  EXPECT_HAS(Refusal(r), "algorithm ring does not implement alltoallv");
  // Large unaligned blocks: the symbolic execution's common intervals run out, a refusal that
  // says so (not a planner bug).
  r = V(Topology::kMesh, 2, {});
  r.counts = MakeCounts(r, "random", uint64_t{1} << 19, 1);
  EXPECT_HAS(Refusal(r), "direct alltoallv: the validator cannot prove this program");
  try {
    MakeCounts(r, "zipf", 1, 1);
    ADD_FAILURE() << "zipf accepted";
  } catch (const PlanError& e) {
    EXPECT_HAS(std::string(e.what()), "coll.counts = zipf: allowed uniform, random");
  }
}

TEST(AllToAllV, GeneratedCounts) {
  Request r = V(Topology::kMesh, 4, {});
  r.groups = ParseGroups("rows", 4);
  const auto u = MakeCounts(r, "uniform", 10, 1);
  EXPECT_EQ(u[5][6], 10u);
  EXPECT_EQ(u[5][5], 10u);
  EXPECT_EQ(u[5][9], 0u);  // another row
  const auto a = MakeCounts(r, "random", 10, 7), b = MakeCounts(r, "random", 10, 7);
  EXPECT_EQ(a, b);  // the seed decides
  EXPECT_NE(a, MakeCounts(r, "random", 10, 8));
  uint64_t sum = 0, pairs = 0, zeros_across = 0;
  for (unsigned i = 0; i < 16; ++i) {
    for (unsigned j = 0; j < 16; ++j) {
      if (i / 4 != j / 4) {
        zeros_across += a[i][j] == 0;
        continue;
      }
      EXPECT_LE(a[i][j], 20u);
      sum += a[i][j];
      ++pairs;
    }
  }
  EXPECT_EQ(zeros_across, 16u * 12);
  EXPECT_NEAR(static_cast<double>(sum) / pairs, 10.0, 2.0);  // 64 draws of 0..20
}

TEST(AllToAllV, BisectionBound) {
  Geometry g;
  g.k = 2;
  g.topology = Topology::kMesh;
  // Column cut (nodes 0, 2 | 1, 3): 5 + 7 + 9 = 21 to the right, 1 + 4 + 4 = 9 back; row cut
  // (0, 1 | 2, 3): 7 down, 4 + 4 = 8 up. The most, 21, over K w = 2 link directions.
  EXPECT_DOUBLE_EQ(AllToAllVBisection(g, kCounts), 10.5);
  // Odd K: both middle cuts. On 3x3 node 2 -> node 1 crosses only x < 2 | x >= 2.
  g.k = 3;
  std::vector<std::vector<uint64_t>> one(9, std::vector<uint64_t>(9, 0));
  one[2][1] = 10;
  EXPECT_DOUBLE_EQ(AllToAllVBisection(g, one), 10.0 / 3);
  // Uniform counts give AllToAllBisection's figure times M (M = N per_pair).
  g.k = 4;
  Request r = V(Topology::kMesh, 4, {});
  const auto u = MakeCounts(r, "uniform", 5, 1);
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kFbfly, Topology::kAries}) {
    g.topology = t;
    g.tracks = 2;
    EXPECT_DOUBLE_EQ(AllToAllVBisection(g, u), AllToAllBisection(g) * 16 * 5) << TopologyName(t);
  }
}

// A block received at the right offset from the wrong sender, or from the sender's wrong
// offset: the symbolic execution names the node, the elements and what belongs there.
TEST(AllToAllV, AWrongBlockIsRefused) {
  const Request r = V(Topology::kMesh, 2, kCounts);
  Program p = Plan(r, Hardware{});
  for (Op& o : p.nodes[3].ops) {  // node 3 sends node 0 its block for node 1 (same length)
    if (o.act == Act::kSend && o.peer == 0) o.region = AllToAllVLayout(r).Send(3, 1);
  }
  Validation v = Validate(p, Hardware{});
  EXPECT_FALSE(v.ok());
  EXPECT_HAS(v.error, "node 0 (0,0) ends with elements [15, ");
  EXPECT_HAS(v.error, "holding offset 4 of their input where offset 0 belongs");
  Program q = Plan(r, Hardware{});
  for (Op& o : q.nodes[3].ops) {  // node 3 receives node 2's block where node 0's belongs
    if (o.act == Act::kRecvCopy) o.region = o.peer == 0 ? Range{14 + 9, 7} : Range{14, 9};
  }
  v = Validate(q, Hardware{});
  EXPECT_FALSE(v.ok());
  EXPECT_HAS(v.error, "node 3 (1,1) ends with elements [14, ");
}

}  // namespace
