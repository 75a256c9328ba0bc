// Communicators (Request::groups): the parser of coll.groups and its refusals, ranks, result
// regions, and the ring planned over several groups at once proven by the validator's symbolic
// execution on every topology (each member ends with its own group's reduction, no other's).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "aries_pkg.h"
#include "planners.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

std::string Refusal(const std::string& text, unsigned k) {
  try {
    ParseGroups(text, k);
  } catch (const PlanError& e) {
    return e.what();
  }
  return "";
}

TEST(Groups, ParsedFromNamesAndLists) {
  using G = std::vector<std::vector<unsigned>>;
  EXPECT_EQ(ParseGroups("rows", 2), (G{{0, 1}, {2, 3}}));
  EXPECT_EQ(ParseGroups("cols", 2), (G{{0, 2}, {1, 3}}));
  EXPECT_EQ(ParseGroups("quadrants", 4),
            (G{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}}));
  EXPECT_EQ(ParseGroups("3,0;5,6,7", 4), (G{{3, 0}, {5, 6, 7}}));
  // The communicators across quadrants and the neighbour pairs (pipeline stages' transfers).
  EXPECT_EQ(ParseGroups("qpeers", 4),
            (G{{0, 2, 8, 10}, {1, 3, 9, 11}, {4, 6, 12, 14}, {5, 7, 13, 15}}));
  EXPECT_EQ(ParseGroups("vpairs", 4),
            (G{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}}));
  EXPECT_EQ(ParseGroups("hpairs", 4),
            (G{{0, 1}, {4, 5}, {8, 9}, {12, 13}, {2, 3}, {6, 7}, {10, 11}, {14, 15}}));
  EXPECT_NE(Refusal("vpairs", 5).find("vpairs with K even (K = 5)"), std::string::npos);
  EXPECT_NE(Refusal("rings", 4).find("or rows, cols, quadrants, qpeers, vpairs, hpairs"),
            std::string::npos);
  EXPECT_NE(Refusal("0,1;1,2", 4).find("node 1 is in two"), std::string::npos);
  EXPECT_NE(Refusal("0,0", 4).find("node 0 is in two"), std::string::npos);
  EXPECT_NE(Refusal("0,1;2", 4).find("(group 2 has 1)"), std::string::npos);
  EXPECT_NE(Refusal("0,16", 4).find("node ids 0..15 on 4x4 (16 is not one)"), std::string::npos);
  EXPECT_NE(Refusal("0,,1", 4).find("('' is not one)"), std::string::npos);
  EXPECT_NE(Refusal("all", 4).find("('all' is not one)"), std::string::npos);
  EXPECT_NE(Refusal("quadrants", 3).find("K even (K = 3)"), std::string::npos);
  EXPECT_NE(Refusal("quadrants", 2).find("(group 1 has 1)"), std::string::npos);
}

TEST(Groups, RanksAndResultRegionsAreTheCommunicators) {
  Request r;
  r.geom.k = 4;
  r.collective = Collective::kReduceScatter;
  r.groups = {{9, 2, 5}, {0, 1}};
  const auto comms = Communicators(r);
  ASSERT_EQ(comms.size(), 2u);
  EXPECT_EQ(comms[0], (std::vector<unsigned>{2, 5, 9}));  // ranks by ascending id
  const auto r9 = RankOf(r, 9);
  ASSERT_TRUE(r9.has_value());
  EXPECT_EQ(r9->comm, 0u);
  EXPECT_EQ(r9->rank, 2u);
  EXPECT_EQ(r9->size, 3u);
  EXPECT_FALSE(RankOf(r, 3).has_value());  // in no communicator
  Program p;
  p.req = r;
  p.elements = 10;
  p.nodes.resize(16);
  EXPECT_EQ(p.ResultRegion(9).off, 7u);  // the third of three shards of 10: [7, 10)
  EXPECT_EQ(p.ResultRegion(9).len, 3u);
  EXPECT_EQ(p.ResultRegion(1).off, 5u);  // the second of two: [5, 10)
  EXPECT_EQ(p.ResultRegion(3).len, 0u);
  // Without groups: one communicator of every node, the rank is the id.
  r.groups.clear();
  EXPECT_EQ(Communicators(r).at(0).size(), 16u);
  EXPECT_EQ(RankOf(r, 7)->rank, 7u);
}

// Every grouping on every topology, all-reduce, reduce-scatter and all-gather, sizes that do not
// divide: Plan validates each, so the symbolic execution proves every member holds its own
// group's result.
TEST(Groups, RingsOverGroupsValidateOnEveryTopology) {
  unsigned planned = 0;
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (const char* g : {"rows", "cols", "quadrants", "0,2,8,10;1,3,9,11", "0,5,10,15;3,6"}) {
      for (Collective c :
           {Collective::kAllReduce, Collective::kReduceScatter, Collective::kAllGather}) {
        for (uint64_t m : {uint64_t{1}, uint64_t{1001}}) {
          for (unsigned dirs : {1u, 2u}) {
            SCOPED_TRACE(fmt::format("{} {} {} {} elements, {} directions", TopologyName(t), g,
                                     CollectiveName(c), m, dirs));
            Request r;
            r.geom.topology = t;
            r.geom.k = 4;
            r.algo = "ring";
            r.collective = c;
            r.op = hw::kOpAddI32;
            r.elements = m;
            r.ring.dirs = dirs;
            r.groups = ParseGroups(g, 4);
            Hardware h;
            h.engine = t != Topology::kFbfly;
            Validation v;
            const Program p = Plan(r, h, &v);
            EXPECT_GT(v.symbolic.messages, 0u);
            EXPECT_EQ(p.sync_steps, r.groups[0].size() - 1);
            ++planned;
          }
        }
      }
    }
  }
  EXPECT_EQ(planned, 4u * 5 * 3 * 2 * 2);
}

// The symbolic check is per communicator: the rows' program does not pass for the columns.
TEST(Groups, TheValidatorRefusesAProgramForOtherGroups) {
  Request r;
  r.geom.topology = Topology::kAries;
  r.geom.k = 4;
  r.algo = "ring";
  r.elements = 64;
  r.groups = ParseGroups("rows", 4);
  Hardware h;
  Program p = Plan(r, h);
  p.req.groups = ParseGroups("cols", 4);
  const Validation v = Validate(p, h);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.error.find("inputs present"), std::string::npos) << v.error;
}

TEST(Groups, RefusedWhereTheyCannotBePlanned) {
  Request r;
  r.geom.k = 4;
  r.elements = 64;
  r.groups = ParseGroups("rows", 4);
  auto refusal = [&](Request q) -> std::string {
    try {
      Plan(q, Hardware{});
    } catch (const PlanError& e) {
      return e.what();
    }
    return "";
  };
  Request a = r;
  a.algo = "dbt";
  EXPECT_NE(refusal(a).find("algorithm dbt plans the whole package only; communicators are "
                            "planned by: ring, direct"),
            std::string::npos);
  Request b = r;
  b.collective = Collective::kBroadcast;
  EXPECT_NE(refusal(b).find("coll.groups with broadcast: allowed allreduce"), std::string::npos);
  Request c = r;
  c.groups = {{0, 1}, {1, 2}};  // not through the parser
  EXPECT_NE(refusal(c).find("coll.groups: allowed disjoint groups (node 1 is in two"),
            std::string::npos);
  Request d = r;
  d.groups = {{0, 99}};
  EXPECT_NE(refusal(d).find("coll.groups: allowed node ids 0..15 on 4x4 (99 is not one)"),
            std::string::npos);
}

}  // namespace
