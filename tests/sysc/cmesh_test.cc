// Adapt-NoC's concentrated mesh (collectives/concentrate.h, sysc RunConcentrated): programs
// planned for the K x K chiplet mesh run on K/2 x K/2 routers of four local ports, every element
// of every chiplet checked against the golden reduction, every flit delivered; the routes the
// controller derives, and what it refuses.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "coll_check.h"
#include "concentrate.h"
#include "node_models.h"
#include "planners.h"
#include "test_seed.h"

namespace {

using namespace aries;
namespace hw = aries::hw;
using coll::Collective;
using coll::Topology;

coll::Request MeshRequest(unsigned k, const std::string& algo, Collective c, uint64_t elements) {
  coll::Request r;
  r.geom.topology = Topology::kMesh;
  r.geom.k = k;
  r.algo = algo;
  r.collective = c;
  r.op = hw::kOpAddI32;
  r.elements = elements;
  return r;
}

coll::Program PlanForChiplets(const coll::Request& r) {
  coll::Hardware h;
  h.engine = false;
  return coll::Plan(r, h);
}

struct CmeshRun {
  coll::CmeshProgram cp;
  sysc::CollRunResult res;
};

// Plans `algo` for the chiplet mesh, concentrates it, runs it on the router mesh and checks it.
CmeshRun RunCmesh(unsigned k, const std::string& algo, Collective c, uint64_t elements,
                  sysc::NodeImpl impl = sysc::NodeImpl::kFast) {
  const std::string what =
      fmt::format("{} {} {}x{} cmesh {} elements", algo, coll::CollectiveName(c), k, k, elements);
  const coll::Request r = MeshRequest(k, algo, c, elements);
  CmeshRun run;
  run.cp = coll::Concentrate(PlanForChiplets(r), hw::kVaries_node_l4Params.NumFlows);
  sysc::PackageConfig pc;
  static_cast<coll::Geometry&>(pc) = coll::CmeshRouters(r.geom);
  sysc::Package pkg(pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint, impl),
                    test::TestSeed());
  EXPECT_EQ(pkg.num_nodes(), k * k / 4) << what;
  EXPECT_EQ(pkg.shape().local_ports, 4u) << what;
  const auto in = tb::MakeCollInputs(run.cp.chiplets, test::TestSeed());
  run.res = sysc::RunConcentrated(pkg, run.cp, in, 10'000'000);
  EXPECT_TRUE(run.res.finished) << what;
  EXPECT_TRUE(run.res.errors.empty())
      << what << ": " << (run.res.errors.empty() ? "" : run.res.errors[0]);
  EXPECT_GT(run.res.flits_injected, 0u) << what;
  EXPECT_EQ(run.res.flits_injected, run.res.flits_to_inject) << what;
  EXPECT_EQ(run.res.flits_ejected, run.res.flits_to_eject) << what;
  EXPECT_EQ(run.res.flits_injected, run.res.flits_ejected) << what;
  EXPECT_EQ(run.res.out.size(), k * k) << what;
  const auto bad = tb::CheckCollective(run.cp.chiplets, in, run.res.out);
  EXPECT_TRUE(bad.empty()) << what << ": " << (bad.empty() ? "" : bad[0]);
  return run;
}

TEST(Cmesh, PlacesTwoByTwoGroupsOnTheirRouter) {
  // 8x8: chiplet (x, y) on router (x/2, y/2) of a 4x4 mesh, local port (x%2) + 2 (y%2).
  EXPECT_EQ(coll::CmeshPlaceOf(0, 8).router, 0u);
  EXPECT_EQ(coll::CmeshPlaceOf(1, 8).router, 0u);
  EXPECT_EQ(coll::CmeshPlaceOf(1, 8).local_port, 1u);
  EXPECT_EQ(coll::CmeshPlaceOf(8, 8).router, 0u);
  EXPECT_EQ(coll::CmeshPlaceOf(8, 8).local_port, 2u);
  EXPECT_EQ(coll::CmeshPlaceOf(9, 8).local_port, 3u);
  EXPECT_EQ(coll::CmeshPlaceOf(2, 8).router, 1u);
  EXPECT_EQ(coll::CmeshPlaceOf(63, 8).router, 15u);
  EXPECT_EQ(coll::CmeshPlaceOf(63, 8).local_port, 3u);
  std::set<std::pair<unsigned, unsigned>> seen;
  for (unsigned c = 0; c < 64; ++c) {
    const auto at = coll::CmeshPlaceOf(c, 8);
    EXPECT_LT(at.router, 16u);
    EXPECT_LT(at.local_port, 4u);
    EXPECT_TRUE(seen.insert({at.router, at.local_port}).second) << c;
  }
}

TEST(Cmesh, RouterMeshHasTwoPitchLinks) {
  coll::Geometry g;
  g.topology = Topology::kMesh;
  g.k = 8;
  g.link_latency = 10;
  g.extra_per_pitch = 3;
  const coll::Geometry r = coll::CmeshRouters(g);
  EXPECT_EQ(r.topology, Topology::kMesh);
  EXPECT_EQ(r.k, 4u);
  EXPECT_EQ(r.local_ports, 4u);
  EXPECT_EQ(r.link_latency, 13u);
}

// One router link per two rows of chiplets crosses the middle: half the mesh's cut, taken on a
// router boundary (K = 6: 2 columns against 4, not 3 against 3 through a group).
TEST(Cmesh, AllToAllBisectionCutsBetweenRouters) {
  coll::Geometry g;
  g.k = 8;
  g.topology = Topology::kMesh;
  const double mesh = coll::AllToAllBisection(g);
  g.topology = Topology::kCmesh;
  EXPECT_DOUBLE_EQ(coll::AllToAllBisection(g), 2 * mesh);
  g.k = 6;
  EXPECT_DOUBLE_EQ(coll::AllToAllBisection(g), 2.0 * 4.0 / (0.5 * 6));
}

TEST(Cmesh, RefusesWhatItCannotConcentrate) {
  auto refuses = [](coll::Geometry g, const std::string& needle) {
    try {
      coll::CmeshRouters(g);
      ADD_FAILURE() << "accepted " << needle;
    } catch (const coll::PlanError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("allowed"), std::string::npos) << e.what();
    }
  };
  coll::Geometry g;
  g.topology = Topology::kMesh;
  g.k = 5;
  refuses(g, "K = 5");
  g.k = 2;
  refuses(g, "K = 2");
  g.k = 4;
  g.topology = Topology::kTorus;
  refuses(g, "torus");
  g.topology = Topology::kMesh;
  g.local_ports = 2;
  refuses(g, "node.local_ports");
  // The in-network tree needs the collective engine the concentrated mesh lacks.
  coll::Request tree = MeshRequest(4, "tree", Collective::kAllReduce, 64);
  coll::Hardware h;
  try {
    coll::Concentrate(coll::Plan(tree, h), 64);
    ADD_FAILURE() << "concentrated an engine program";
  } catch (const coll::PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("engine"), std::string::npos) << e.what();
  }
}

TEST(Cmesh, RoutesEveryChannelAlongTheRouterMeshToTheReceiversPort) {
  const coll::Program p = PlanForChiplets(MeshRequest(8, "mtree", Collective::kAllReduce, 4096));
  const coll::CmeshProgram cp = coll::Concentrate(p, 64);
  ASSERT_EQ(cp.routes.size(), 16u);
  EXPECT_GT(cp.flows, 0u);
  EXPECT_LE(cp.flows, 64u);
  // Follow every send's flow from the sender's local port through the tables: it must reach
  // the receiver's local port on the receiver's router, by dimension-order hops.
  const unsigned net = coll::RouterPorts(Topology::kMesh, 4);
  std::set<std::tuple<unsigned, unsigned, int, unsigned>> keys;  // (sender, receiver, flow, VC)
  unsigned sends = 0;
  for (unsigned a = 0; a < 64; ++a) {
    for (const coll::Op& o : cp.chiplets.nodes[a].ops) {
      EXPECT_EQ(o.port, 0u);
      if (o.act != coll::Act::kSend) continue;
      ++sends;
      ASSERT_GE(o.flow, 0);
      keys.insert({a, o.peer, o.flow, o.vc});
      const auto from = coll::CmeshPlaceOf(a, 8), to = coll::CmeshPlaceOf(o.peer, 8);
      unsigned router = from.router, in = hw::LocalPort(from.local_port, net), hops = 0;
      for (;;) {
        uint32_t mask = 0;
        for (const coll::RouteEntry& e : cp.routes[router]) {
          if (e.flow == static_cast<unsigned>(o.flow) && e.in_port == in) mask = e.mask;
        }
        ASSERT_EQ(__builtin_popcount(mask), 1) << a << " -> " << o.peer << " at router " << router;
        const unsigned out = static_cast<unsigned>(__builtin_ctz(mask));
        if (router == to.router) {
          EXPECT_EQ(out, hw::LocalPort(to.local_port, net)) << a << " -> " << o.peer;
          break;
        }
        ASSERT_GE(out, 1u);
        ASSERT_LE(out, 4u);
        const unsigned x = router % 4, y = router / 4;
        if (out == hw::kPortXP) router = y * 4 + x + 1;
        if (out == hw::kPortXM) router = y * 4 + x - 1;
        if (out == hw::kPortYP) router = (y + 1) * 4 + x;
        if (out == hw::kPortYM) router = (y - 1) * 4 + x;
        in = hw::OppositePort(out);
        ASSERT_LE(++hops, 6u) << a << " -> " << o.peer << ": a loop";
      }
      EXPECT_LE(hops + 1, cp.max_hops);
    }
  }
  EXPECT_GT(sends, 0u);
  EXPECT_EQ(keys.size(), cp.channels);
  // Receives name the flows of their sends.
  for (unsigned b = 0; b < 64; ++b) {
    for (const coll::Op& o : cp.chiplets.nodes[b].ops) {
      if (o.IsRecv()) {
        EXPECT_TRUE(keys.count({o.peer, b, o.flow, o.vc})) << o.peer << " -> " << b;
      }
    }
  }
}

TEST(Cmesh, RefusesChannelsThatNoFlowCanRoute) {
  // A multi-tree chiplet sends to up to four neighbours from its one local port: one flow
  // cannot take it to four outputs.
  const coll::Program p = PlanForChiplets(MeshRequest(4, "mtree", Collective::kAllReduce, 1024));
  EXPECT_GT(coll::Concentrate(p, 64).flows, 1u);
  try {
    coll::Concentrate(p, 1);
    ADD_FAILURE() << "a multi-tree on one flow";
  } catch (const coll::PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("1 flows"), std::string::npos) << e.what();
  }
}

// One message of `flits` flits from chiplet 0 to chiplet `to` of a 4x4 package on the
// concentrated mesh with `link_latency`-cycle one-pitch links: the cycles from its first
// injection to its receipt.
uint64_t OneMessage(unsigned to, unsigned link_latency, uint32_t flits = 1) {
  const uint32_t n = 16 * flits;  // 16 lanes a flit
  coll::Program p;
  p.req = MeshRequest(4, "ring", Collective::kAllReduce, n);
  p.req.geom.link_latency = link_latency;
  p.elements = n;
  p.nodes.resize(16);
  p.nodes[0].ops.push_back({coll::Act::kSend, to, {0, n}});
  p.nodes[to].ops.push_back({coll::Act::kRecvCopy, 0, {0, n}});
  const coll::CmeshProgram cp = coll::Concentrate(p, 64);
  sysc::PackageConfig pc;
  static_cast<coll::Geometry&>(pc) = coll::CmeshRouters(p.req.geom);
  sysc::Package pkg(
      pc, sysc::ShippedNodeModels(sysc::NodeUse::kPointToPoint, sysc::NodeImpl::kFast), 1);
  std::vector<std::vector<uint32_t>> in(16, std::vector<uint32_t>(n, 0));
  for (uint32_t i = 0; i < n; ++i) in[0][i] = 1000 + i;
  const sysc::CollRunResult res = sysc::RunConcentrated(pkg, cp, in, 100'000);
  EXPECT_TRUE(res.finished && res.errors.empty());
  EXPECT_EQ(res.out[to], in[0]);
  return res.cycles;
}

// A chiplet reaches its group's router over a one-pitch wire each way: a flit to a chiplet of
// the same group takes both wires and no router link, so 20 more cycles of one-pitch links
// add exactly 40 cycles; to the next group it also crosses a router link of two pitches.
TEST(Cmesh, ChipletsReachTheirRouterOverOnePitchOfWire) {
  EXPECT_EQ(coll::CmeshLocalLatency(MeshRequest(4, "ring", Collective::kAllReduce, 16).geom), 10u);
  EXPECT_EQ(OneMessage(1, 30) - OneMessage(1, 10), 40u);
  EXPECT_EQ(OneMessage(2, 30) - OneMessage(2, 10), 60u);
}

// Credits take the wires too: with 10-cycle wires a credit is home before the 32 flits of a VC's
// buffer are spent and a long message streams at a flit a cycle; with 40-cycle wires a round
// trip of at least 80 cycles returns 32 credits, so the same message takes at least 80/32
// cycles a flit. (The injection credits and the ejection slots bound the rate alike: this
// fails if neither loop crosses the wires, not if one alone skips them.)
TEST(Cmesh, CreditsCrossTheWiresBothWays) {
  const uint32_t flits = 1024;
  const uint64_t near = OneMessage(1, 10, flits), far = OneMessage(1, 40, flits);
  EXPECT_LT(near, flits + flits / 10 + 100) << near;
  EXPECT_GE(far, flits * 80 / 32) << far;
}

TEST(Cmesh, AllReducesVerifiedOn4x4) {
  for (const char* algo : {"ring", "dbt", "mtree", "rd"}) {
    const CmeshRun run = RunCmesh(4, algo, Collective::kAllReduce, 16 * 1024 + 5);
    EXPECT_GT(run.res.cycles, 0u) << algo;
  }
}

TEST(Cmesh, OtherCollectivesVerifiedOn4x4) {
  for (Collective c : {Collective::kReduceScatter, Collective::kAllGather})
    RunCmesh(4, "ring", c, 8 * 1024);
  for (const char* algo : {"direct", "2phase"}) RunCmesh(4, algo, Collective::kAllToAll, 8 * 1024);
}

TEST(Cmesh, AllReducesVerifiedOn8x8) {
  for (const char* algo : {"ring", "dbt", "mtree"}) RunCmesh(8, algo, Collective::kAllReduce, 8192);
}

// The RTL and the fast model in lockstep, every pin every cycle, on the four-local-port router.
TEST(Cmesh, RtlAndFastModelAgreePinByPin) {
  const CmeshRun check = RunCmesh(4, "mtree", Collective::kAllReduce, 4096, sysc::NodeImpl::kCheck);
  const CmeshRun fast = RunCmesh(4, "mtree", Collective::kAllReduce, 4096, sysc::NodeImpl::kFast);
  EXPECT_EQ(check.res.cycles, fast.res.cycles);
}

}  // namespace
