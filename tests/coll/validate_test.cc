// The validator refuses hand-broken programs, one test per rule (collectives/validate.h), and
// its message names the node, port, register or op.
#include <gtest/gtest.h>

#include "aries_pkg.h"
#include "planners.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

Program Good(Topology t, const char* algo, Collective c = Collective::kAllReduce) {
  Request r;
  r.geom.topology = t;
  r.geom.k = 4;
  r.algo = algo;
  r.collective = c;
  r.op = hw::kOpAddI32;
  r.elements = 1000;
  return Plan(r, Hardware{});
}

std::string Refusal(const Program& p, Hardware h = Hardware{}) {
  const Validation v = Validate(p, h);
  EXPECT_FALSE(v.ok());
  return v.error;
}

#define EXPECT_HAS(s, sub) EXPECT_NE((s).find(sub), std::string::npos) << (s)

TEST(Validate, Rule1Shape) {
  Program p = Good(Topology::kMesh, "ring");
  p.nodes.pop_back();
  EXPECT_HAS(Refusal(p), "15 node programs; the 4x4 package has 16 nodes");
  p = Good(Topology::kMesh, "ring");
  p.nodes[3].ops[0].peer = 3;
  EXPECT_HAS(Refusal(p), "node 3 (3,0) op 0 (recv-reduce): peer 3 is the node itself");
}

TEST(Validate, Rule2PortMuxesAndBypass) {
  Program p = Good(Topology::kMesh, "ring");
  p.nodes[5].bypass = 1;
  EXPECT_HAS(Refusal(p), "node 5 (1,1): PORTSEL/BYPASS set on a mesh package");
  p = Good(Topology::kAries, "ring");
  p.nodes[5].bypass = 1u << 3;
  EXPECT_HAS(Refusal(p), "BYPASS = 0x8 cuts a track the interposer does not have");
  p = Good(Topology::kAries, "ring");
  p.nodes[5].portsel[hw::kPortYP].out = 1;
  EXPECT_HAS(
      Refusal(p),
      "node 5 (1,1): PORTSEL[YP] output side selects x-track 0, which BYPASS does not cut here");
  p = Good(Topology::kAries, "ring");
  p.nodes[5].portsel[hw::kPortYP].out = 9;
  EXPECT_HAS(Refusal(p), "PORTSEL[YP] output side selects choice 9; allowed 0 (mesh) or 1..4");
  p = Good(Topology::kAries, "ring");
  p.nodes[5].bypass = 1;
  p.nodes[5].portsel[hw::kPortXP].out = 1;
  p.nodes[5].portsel[hw::kPortYP].out = 1;
  EXPECT_HAS(Refusal(p), "PORTSEL[XP] and PORTSEL[YP] both take the output side of track choice 1");
}

TEST(Validate, Rule3RoutingTables) {
  Program p = Good(Topology::kMesh, "ring");
  p.nodes[2].routes.push_back({64, 0, 2});
  EXPECT_HAS(Refusal(p), "node 2 (2,0): ROUTE[flow 64][in 0] = 0x2 out of range");
  p = Good(Topology::kMesh, "ring");
  p.nodes[2].routes.push_back({1, 0, 2});
  p.nodes[2].routes.push_back({1, 0, 4});
  EXPECT_HAS(Refusal(p), "ROUTE[flow 1][in L] written twice");
}

TEST(Validate, Rule4EngineRegisters) {
  Program p = Good(Topology::kMesh, "tree");
  p.nodes[0].ids[0].id = 8;
  EXPECT_HAS(Refusal(p),
             "node 0 (0,0): engine id 8: too many collective ids (the engine has ids 0..7)");
  p = Good(Topology::kMesh, "tree");
  p.nodes[0].ids[0].count = 0;
  EXPECT_HAS(Refusal(p), "ID_COUNT 0 (allowed 1..65535)");
  p = Good(Topology::kMesh, "tree");
  p.nodes[0].ids[0].req_out = 7;
  EXPECT_HAS(Refusal(p), "ID_REQ_OUT 7");
  p = Good(Topology::kMesh, "tree");
  p.nodes[0].req.steps.push_back(3);
  EXPECT_HAS(Refusal(p), "ENG_REQ_PROG names id 3, which is not configured");
  p = Good(Topology::kMesh, "tree");
  p.nodes[0].ids[0].count = 1;
  EXPECT_HAS(Refusal(p), "moves 63 flits of id 0; the engine's request program moves 1");
  Hardware none;
  none.engine = false;
  EXPECT_HAS(Refusal(Good(Topology::kMesh, "tree"), none),
             "the node model has no collective engine");
}

TEST(Validate, Rule5Paths) {
  Program p = Good(Topology::kMesh, "ring");
  p.nodes[0].ops[0].flow = 5;  // no table entries for flow 5
  EXPECT_HAS(Refusal(p),
             "node 0 (0,0) op 0 (send to node 1 (1,0)): no route: flow 5 from node 0 (0,0) to node "
             "1 (1,0): no ROUTE[flow 5][in L] at node 0 (0,0)");
  p = Good(Topology::kMesh, "ring");
  p.nodes[0].ops[0].vc = 4;
  EXPECT_HAS(Refusal(p), "VC 4 (allowed 0..3)");
  // On ARIES, a mesh port whose output mux selects a track takes dimension-order packets away.
  p = Good(Topology::kAries, "ring");
  p.nodes[0].bypass = 1;
  p.nodes[3].bypass = 1;
  p.nodes[3].portsel[hw::kPortXM].in = 1;
  p.nodes[0].portsel[hw::kPortXP].out = 1;
  EXPECT_HAS(
      Refusal(p),
      "dimension-order hop from node 0 (0,0) by XP reaches node 3 (3,0) instead of node 1 (1,0)");
}

// node.local_ports: a send names a local port the node has, a channel's sends keep one port,
// and a table route delivers by the port its message was injected on.
TEST(Validate, Rule5LocalPorts) {
  Hardware two;
  two.local_ports = 2;
  Request r;
  r.geom.topology = Topology::kMesh;
  r.geom.k = 4;
  r.geom.local_ports = 2;
  r.ring.dirs = 2;
  r.op = hw::kOpAddI32;
  r.elements = 1000;
  const Program good = Plan(r, two);
  EXPECT_TRUE(Validate(good, two).ok()) << Validate(good, two).error;
  // Every send of the program is on a port, one direction each: both are used.
  unsigned on[2] = {0, 0};
  for (const NodeProgram& np : good.nodes) {
    for (const Op& o : np.ops) {
      if (o.act == Act::kSend) ++on[o.port];
    }
  }
  EXPECT_GT(on[0], 0u);
  EXPECT_EQ(on[0], on[1]);
  // The same program on nodes with one local port: its routes eject by local port 1 (router
  // port 5), which they do not have.
  EXPECT_HAS(Refusal(good, Hardware{}), "= 0x20 out of range (flows < 64, ports < 5");
  Program q = good;
  q.nodes[0].routes.clear();
  for (NodeProgram& np : q.nodes) np.routes.clear();
  for (NodeProgram& np : q.nodes) {
    for (Op& o : np.ops) o.flow = -1;  // dimension order: no table entries to refuse
  }
  EXPECT_HAS(Refusal(q, Hardware{}), "local port 1 (the node has 1)");
  // A send moved to the other port: its channel's first send took the first.
  Program p = good;
  for (Op& o : p.nodes[0].ops) {
    if (o.act == Act::kSend && o.port == 0) {
      o.port = 1;
      break;
    }
  }
  // (Its flow's table entries start at local port 0: traced from port 1 it goes astray.)
  EXPECT_HAS(Refusal(p, two), "node 0 (0,0) op 0 (send to node 1 (1,0)): no route: flow 0");
  // A dimension-order channel whose sends take two ports.
  for (NodeProgram& np : q.nodes) {
    for (Op& o : np.ops) o.port = 0;
  }
  unsigned sends = 0;
  for (Op& o : q.nodes[0].ops) {
    if (o.act == Act::kSend && ++sends == 2) o.port = 1;
  }
  EXPECT_HAS(Refusal(q, two), "a channel's messages keep their order on one port");
  // A route whose last hop ejects by the other local port than its message came in by.
  p = good;
  bool moved = false;
  for (NodeProgram& np : p.nodes) {
    for (RouteEntry& e : np.routes) {
      if (!moved && e.mask == 1u << hw::LocalPort(1, 5)) {
        e.mask = 1u;  // local port 0
        moved = true;
      }
    }
  }
  ASSERT_TRUE(moved);
  EXPECT_HAS(Refusal(p, two), "is delivered by local port 0, not 1");
}

TEST(Validate, Rule6CyclicChannelDependency) {
  // Four flows around the 2x2 square of nodes 0, 1, 5, 4, each two hops on one VC: the
  // classic cycle dimension order avoids.
  Program p = Good(Topology::kMesh, "ring");
  const unsigned sq[4] = {0, 1, 5, 4};
  const unsigned out[4] = {hw::kPortXP, hw::kPortYP, hw::kPortXM, hw::kPortYM};
  const unsigned in[4] = {hw::kPortXM, hw::kPortYM, hw::kPortXP, hw::kPortYP};
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned a = sq[i], b = sq[(i + 1) % 4], c = sq[(i + 2) % 4];
    p.nodes[a].routes.push_back({i, 0, 1u << out[i]});
    p.nodes[b].routes.push_back({i, in[i], 1u << out[(i + 1) % 4]});
    p.nodes[c].routes.push_back({i, in[(i + 1) % 4], 1u});
    p.nodes[a].ops.push_back({Act::kSend, c, {0, 16}, static_cast<int>(i)});
    p.nodes[c].ops.push_back({Act::kRecvCopy, a, {0, 16}, static_cast<int>(i)});
  }
  EXPECT_HAS(Refusal(p), "cyclic channel dependency among the message paths");
}

TEST(Validate, Rule7SymbolicExecution) {
  // A reduction counted twice.
  Program p = Good(Topology::kMesh, "ring");
  p.nodes[1].ops.push_back({Act::kRecvReduce, 0, {0, 10}});
  p.nodes[0].ops.push_back({Act::kSend, 1, {0, 10}});
  EXPECT_HAS(Refusal(p), "counts the input of node");
  // A receive nobody sends.
  p = Good(Topology::kMesh, "ring");
  p.nodes[1].ops.insert(p.nodes[1].ops.begin(), {Act::kRecvCopy, 2, {0, 10}});
  EXPECT_HAS(Refusal(p),
             "cannot finish: op 1 (recv-reduce from node 4 (0,1)) waits for data that never comes");
  // A message nobody receives.
  p = Good(Topology::kMesh, "ring");
  p.nodes[1].ops.push_back({Act::kSend, 2, {0, 10}});
  EXPECT_HAS(Refusal(p), "1 message(s) from node 1 (1,0) to node 2 (2,0) are never received");
  // A missing step: the last all-gather receive of node 0 removed (and its send).
  p = Good(Topology::kMesh, "ring");
  const Op last = p.nodes[0].ops.back();
  p.nodes[0].ops.pop_back();
  auto& from = p.nodes[last.peer].ops;
  for (size_t j = from.size(); j-- > 0;) {
    if (from[j].act == Act::kSend && from[j].peer == 0) {
      from.erase(from.begin() + static_cast<long>(j));
      break;
    }
  }
  EXPECT_HAS(Refusal(p), "node 0 (0,0) ends with elements");
  // A receive of another length than its send.
  p = Good(Topology::kMesh, "rd");
  p.nodes[1].ops[1].region.off = 1;
  p.nodes[1].ops[1].region.len = 999;
  EXPECT_HAS(Refusal(p),
             "expects 999 elements at [1, 1000) but the message carries 1000 from "
             "[0, 1000)");
}

}  // namespace
