// The embedder (collectives/embed): logical links onto mesh hops, bypass segments and
// table-routed paths, checked through the planned programs (the validator re-derives every
// path from the registers the embedder wrote).
#include "embed.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bitset>

#include "aries_pkg.h"
#include "planners.h"
#include "wiring.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

Request Req(Topology t, unsigned k, const char* algo) {
  Request r;
  r.geom.topology = t;
  r.geom.k = k;
  r.algo = algo;
  r.op = hw::kOpAddI32;
  r.elements = 100000;
  return r;
}

unsigned Cuts(const Program& p) {
  unsigned c = 0;
  for (const NodeProgram& np : p.nodes)
    c += static_cast<unsigned>(std::bitset<32>(np.bypass).count());
  return c;
}

bool Has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

TEST(Embed, AriesBwGivesEveryRingLinkASecondLinkOnASegment) {
  Validation v;
  const Program p = Plan(Req(Topology::kAries, 4, "aries_bw"), Hardware{}, &v);  // validated
  EXPECT_TRUE(Has(p.summary, "32 links: 16 mesh hops, 16 bypass segments")) << p.summary;
  EXPECT_EQ(v.max_hops, 1u);  // both links of every ring edge are one hop
  // Every node sends on a second port besides its mesh port: two outputs and two inputs muxed
  // or mesh, none idle-and-needed.
  for (unsigned n = 0; n < 16; ++n) {
    unsigned outs = 0, ins = 0;
    for (unsigned port = 1; port < 5; ++port) {
      outs += p.nodes[n].portsel[port].out != 0;
      ins += p.nodes[n].portsel[port].in != 0;
    }
    EXPECT_EQ(outs, 1u) << "node " << n;
    EXPECT_EQ(ins, 1u) << "node " << n;
  }
  // Lane-1 messages are table-routed (a flow), lane-0 ones dimension order.
  for (const Op& o : p.nodes[5].ops) {
    if (o.act == Act::kSend) {
      EXPECT_EQ(o.flow >= 0, o.lane == 1);
    }
  }
}

TEST(Embed, AriesLtBridgesTheSecondLevelWithSegments) {
  Validation on_aries, on_mesh;
  const Program a = Plan(Req(Topology::kAries, 4, "aries_lt"), Hardware{}, &on_aries);
  const Program m = Plan(Req(Topology::kMesh, 4, "aries_lt"), Hardware{}, &on_mesh);
  EXPECT_EQ(on_aries.max_hops, 1u);  // level-2 peers two pitches apart: one segment
  EXPECT_EQ(on_mesh.max_hops, 2u);   // the same peers over two mesh hops
  EXPECT_TRUE(Has(a.summary, "16 bypass segments")) << a.summary;
  EXPECT_EQ(Cuts(m), 0u);
}

TEST(Embed, OppositeDirectionsShareOneSegment) {
  // Nodes 0 and 2 of a 4x4 ARIES exchange a message each way: one x-track segment [0, 2] cut at
  // both ends, 0 on its upper taps (XP, both sides), 2 on its lower taps (XM, both sides).
  Program p;
  p.req = Req(Topology::kAries, 4, "ring");
  p.elements = 16;
  p.nodes.resize(16);
  for (auto [a, b] : {std::pair{0u, 2u}, std::pair{2u, 0u}}) {
    p.nodes[a].ops.push_back({Act::kSend, b, {0, 16}});
    p.nodes[b].ops.push_back({Act::kRecvCopy, a, {0, 16}});
  }
  const EmbedReport r = Embed(p, Hardware{});
  EXPECT_EQ(r.links, 2u);
  EXPECT_EQ(r.segments, 2u);
  EXPECT_EQ(p.nodes[0].bypass, 1u << hw::kBypassXLsb);
  EXPECT_EQ(p.nodes[2].bypass, 1u << hw::kBypassXLsb);
  EXPECT_EQ(p.nodes[1].bypass, 0u);  // the segment passes node 1
  EXPECT_EQ(p.nodes[0].portsel[hw::kPortXP].out, 1);
  EXPECT_EQ(p.nodes[0].portsel[hw::kPortXP].in, 1);
  EXPECT_EQ(p.nodes[2].portsel[hw::kPortXM].out, 1);
  EXPECT_EQ(p.nodes[2].portsel[hw::kPortXM].in, 1);
  for (const NodeProgram& np : p.nodes) {
    for (const Op& o : np.ops) EXPECT_GE(o.flow, 0);  // table-routed over the segment
  }
  const Wiring w(p.req.geom, Hardware{}, p.nodes);
  for (auto [a, b] : {std::pair{0u, 2u}, std::pair{2u, 0u}}) {
    std::string why;
    const auto path = w.FlowPath(a, b, static_cast<unsigned>(p.nodes[a].ops[0].flow), 0, &why);
    EXPECT_EQ(path.size(), 1u) << a << " -> " << b << ": " << why;
  }
}

TEST(Embed, WhenTracksRunOutLinksTakeSharedPaths) {
  // dbt 8x8: more long tree links than two tracks per row and column carry; the rest ride
  // dimension order or x-then-y paths over the configured links, and the program stays
  // deadlock-free (the validator's channel-dependency rule).
  const Program p = Plan(Req(Topology::kAries, 8, "dbt"), Hardware{});  // throws if invalid
  EXPECT_TRUE(Has(p.summary, "bypass segments")) << p.summary;
  EXPECT_FALSE(Has(p.summary, " 0 bypass segments")) << p.summary;
  EXPECT_FALSE(Has(p.summary, " 0 table-routed")) << p.summary;
  // One track per dimension: fewer segments, still valid.
  Request one = Req(Topology::kAries, 8, "dbt");
  one.geom.tracks = 1;
  EXPECT_NO_THROW(Plan(one, Hardware{}));
}

TEST(Embed, ASecondLinkWithoutATrackIsRefusedByName) {
  Request r = Req(Topology::kAries, 4, "aries_bw");
  r.geom.tracks = 0;
  try {
    Plan(r, Hardware{});
    FAIL() << "planned without tracks";
  } catch (const PlanError& e) {
    EXPECT_TRUE(Has(e.what(), "no bypass segment for the second link node ")) << e.what();
    EXPECT_TRUE(Has(e.what(), "the package has 0 bypass tracks")) << e.what();
  }
}

TEST(Embed, OtherTopologiesAreDimensionOrderOnly) {
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kFbfly}) {
    for (const char* algo : {"dbt", "aries_lt", "cmtree", "rabenseifner"}) {
      const Program p = Plan(Req(t, 4, algo), Hardware{});
      EXPECT_EQ(Cuts(p), 0u) << algo;
      for (const NodeProgram& np : p.nodes) {
        EXPECT_TRUE(np.routes.empty()) << algo;
        for (const Op& o : np.ops) EXPECT_EQ(o.flow, -1) << algo;
      }
    }
  }
}

}  // namespace
