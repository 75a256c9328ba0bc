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

// Every grouping on every topology, every algorithm that plans communicators and every
// collective it serves of all-reduce, reduce-scatter and all-gather, sizes that do not divide:
// Plan validates each, so the symbolic execution proves every member holds its own group's
// result. The in-network tree takes the groups whose dimension-order paths stay inside them.
TEST(Groups, CommunicatorsValidateOnEveryTopology) {
  unsigned planned = 0;
  const char* groupings[] = {"rows", "cols", "quadrants", "0,2,8,10;1,3,9,11", "0,5,10,15;3,6"};
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
    for (const char* algo : {"ring", "dbt", "mtree", "tree"}) {
      const AlgorithmInfo& info = *FindAlgorithm(algo);
      ASSERT_TRUE(info.communicators) << algo;
      for (const char* g : groupings) {
        const bool inside = std::string(g).find(',') == std::string::npos;  // the named shapes
        if (info.engine && (t == Topology::kFbfly || !inside)) continue;
        for (Collective c :
             {Collective::kAllReduce, Collective::kReduceScatter, Collective::kAllGather}) {
          if (!info.Serves(c)) continue;
          for (uint64_t m : {uint64_t{1}, uint64_t{1001}}) {
            for (unsigned dirs : {1u, 2u}) {
              if (dirs == 2 && !info.ring_layout) continue;
              SCOPED_TRACE(fmt::format("{} {} {} {} {} elements, {} directions", TopologyName(t),
                                       algo, g, CollectiveName(c), m, dirs));
              Request r;
              r.geom.topology = t;
              r.geom.k = 4;
              r.algo = algo;
              r.collective = c;
              r.op = hw::kOpAddI32;
              r.elements = m;
              r.ring.dirs = dirs;
              r.groups = ParseGroups(g, 4);
              Hardware h;
              h.engine = t != Topology::kFbfly;
              Validation v;
              const Program p = Plan(r, h, &v);
              EXPECT_GT(v.symbolic.messages + v.symbolic.engine_ids, 0u);
              EXPECT_NE(p.summary.find("communicators of"), std::string::npos) << p.summary;
              if (std::string(algo) == "ring") {
                EXPECT_EQ(p.sync_steps, r.groups[0].size() - 1);
              }
              // Members of one group only ever talk to each other.
              for (unsigned a = 0; a < 16; ++a) {
                const auto ra = RankOf(r, a);
                for (const Op& o : p.nodes[a].ops) {
                  if (o.act == Act::kEngSend || o.act == Act::kEngRecv) continue;
                  const auto rb = RankOf(r, o.peer);
                  ASSERT_TRUE(ra && rb);
                  EXPECT_EQ(ra->comm, rb->comm) << "node " << a << " and " << o.peer;
                }
              }
              ++planned;
            }
          }
        }
      }
    }
  }
  // ring: 4 topologies x 5 groupings x 3 collectives x 2 sizes x 2 directions; dbt: 4 x 5 x 2;
  // mtree: 4 x 5 x 3 x 2; tree: 3 topologies x 3 shapes x 2 collectives x 2.
  EXPECT_EQ(planned, 240u + 40 + 120 + 36);
}

// Trees over communicators, as the whole package's: the double binary tree over a group's ranks,
// the multi-tree over its links (members apart: their nearest along rows and columns), the
// in-network tree rooted at a member of least eccentricity; a group whose dimension-order paths
// leave it is refused for the in-network tree, naming the node outside.
TEST(Groups, TreesOverCommunicators) {
  Request r;
  r.geom.topology = Topology::kMesh;
  r.geom.k = 4;
  r.elements = 4096;
  r.op = hw::kOpAddI32;
  r.groups = ParseGroups("rows", 4);
  r.algo = "dbt";
  Program p = Plan(r, Hardware{});
  // Row 1's trees: in-order over ranks 0..3 (nodes 4..7), root rank 0 (node 4), and its mirror
  // rooted at rank 3 (node 7); heights 2.
  EXPECT_EQ(p.sync_steps, 2u);
  auto peers = [&](unsigned node) {
    std::vector<unsigned> v;
    for (const Op& o : p.nodes[node].ops) v.push_back(o.peer);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  };
  EXPECT_EQ(peers(4), (std::vector<unsigned>{5, 6}));  // A: root above 2 (6), B: under 5
  // The communicators across quadrants: a multi-tree over members two pitches apart (no link
  // joins them on the mesh), height 2 on the 2x2 plane.
  r.algo = "mtree";
  r.groups = ParseGroups("qpeers", 4);
  p = Plan(r, Hardware{});
  EXPECT_EQ(p.sync_steps, 2u);
  EXPECT_EQ(peers(0), (std::vector<unsigned>{2, 8}));
  // A diagonal group has no member in a row or column of another: consecutive ranks join it.
  r.groups = ParseGroups("0,5,10,15", 4);
  p = Plan(r, Hardware{});
  EXPECT_EQ(peers(0), (std::vector<unsigned>{5}));
  EXPECT_EQ(p.sync_steps, 3u);
  // In-network tree: each row rooted at its member of least eccentricity (x = 1), the only
  // engine entries on the row's nodes.
  r.algo = "tree";
  r.groups = ParseGroups("rows", 4);
  p = Plan(r, Hardware{});
  for (unsigned y = 0; y < 4; ++y) {
    const EngineId* root = p.nodes[y * 4 + 1].FindId(0);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->req_out, hw::kEngTurn);
    EXPECT_EQ(p.nodes[y * 4].FindId(0)->req_out, static_cast<unsigned>(hw::kPortXP));
  }
  EXPECT_EQ(p.sync_steps, 2u);
  r.groups = ParseGroups("qpeers", 4);
  try {
    Plan(r, Hardware{});
    ADD_FAILURE() << "qpeers planned for the in-network tree";
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("no member of group 1 can be its root, every one has a "
                                         "member whose dimension-order path to it leaves the "
                                         "group or is broken (as node 0 (0,0): node 2 (2,0)'s "
                                         "path to it passes node 1 (1,0))"),
              std::string::npos)
        << e.what();
  }
  // A group whose least eccentric member is no root: 1 and 2 tie, but 6 reaches 1 through 5.
  r.groups = {{0, 1, 2, 6}};
  p = Plan(r, Hardware{});
  EXPECT_EQ(p.nodes[2].FindId(0)->req_out, hw::kEngTurn);
  EXPECT_EQ(p.nodes[1].FindId(0)->req_out, static_cast<unsigned>(hw::kPortXP));
  // Only members hold engine entries, and each entry's ports stay in the group.
  for (unsigned a = 0; a < 16; ++a) {
    const bool member = a == 0 || a == 1 || a == 2 || a == 6;
    EXPECT_EQ(p.nodes[a].ids.empty(), !member) << a;
  }
  EXPECT_EQ(p.nodes[6].FindId(0)->req_out, static_cast<unsigned>(hw::kPortYM));
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
  a.algo = "cmtree";
  EXPECT_EQ(refusal(a),
            "coll.groups: algorithm cmtree plans the whole package only; communicators are "
            "planned by: ring, dbt, mtree, tree, direct, 2phase");
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
