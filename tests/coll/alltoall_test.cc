// All-to-all (collectives/alltoall_planners.cc): its blocks and bound, the planners' refusals,
// and the symbolic execution's offsets: a message may land elsewhere than it was sent from, a
// block delivered from the wrong offset is refused, and so is a reduction of elements from two
// offsets.
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

TEST(AllToAll, RefusalsNameTheItem) {
  EXPECT_HAS(Refusal(A2a(Topology::kMesh, 4, "direct", 15)),
             "coll.size: all-to-all over 16 members needs at least 16 elements");
  Request g = A2a(Topology::kMesh, 4, "2phase", 64);
  g.groups = ParseGroups("rows", 4);
  EXPECT_HAS(Refusal(g), "algorithm 2phase plans the whole package only");
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

}  // namespace
