// All-to-all-v (program.h: AllToAllVLayout): the send and receive areas the counts lay out,
// the counts' refusals naming the row and column, the generated counts, the bisection bound,
// and the symbolic execution proving a direct plan and refusing a block received from the
// wrong sender or offset.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <numeric>

#include "planners.h"

namespace {

using namespace aries::coll;

#define EXPECT_HAS(s, sub) EXPECT_NE((s).find(sub), std::string::npos) << (s)

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

std::string Refusal(const Request& r) {
  try {
    Plan(r, Hardware{});
  } catch (const PlanError& e) {
    return e.what();
  }
  return "";
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
  r.algo = "2phase";
  EXPECT_HAS(Refusal(r), "algorithm 2phase does not implement alltoallv");
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
