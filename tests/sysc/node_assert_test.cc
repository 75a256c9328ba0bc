// The chiplet node with its RTL assertions compiled in (router, port muxes, node registers),
// stepped on the package under random traffic and random bypass configurations, so that every
// assertion of aries_node and below watches real package traffic. A small parameterisation
// keeps the build lean: 2 lanes, 4 VCs x 8 flits, 16 flows, 2 tracks per row and column.
// Any assertion failure stops the process, which fails the test. A death test proves the
// node's assertions are live in this build. The engine's assertions and the node's engine/router
// output check watch an all-reduce running beside random point-to-point traffic.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include "Vnode_chk.h"
#include "Vnode_chk___024root.h"
#include "Vnode_chk_params.h"
#include "coll_endpoint.h"
#include "coll_tree.h"
#include "death_util.h"
#include "net_run.h"
#include "net_traffic.h"
#include "package.h"
#include "test_seed.h"
#include "verilated_node.h"

namespace {

using aries::coll::Topology;
using aries::sysc::NodeShape;
using aries::sysc::Package;
using aries::sysc::PackageConfig;
using aries::tb::NetTraffic;
using aries::tb::Pattern;
using aries::tb::RunConfig;
using aries::tb::TrafficConfig;

NodeShape CheckedShape() { return aries::sysc::ShapeOf(aries::hw::kVnode_chkParams); }

// one_eval: the speed models' clocking (one evaluation per edge) instead of two.
aries::sysc::NodeModelFactory CheckedNodes(bool one_eval = false) {
  return [one_eval](unsigned num_ports, unsigned local_ports, VerilatedContext* ctx,
                    const std::string& name) -> std::unique_ptr<aries::sysc::NodeModel> {
    EXPECT_LE(num_ports, 5u);
    EXPECT_EQ(local_ports, 1u);
    if (one_eval) {
      // Assertions sample the inputs in the evaluation before the edge; with one evaluation an
      // input change and the edge share it, so the assertions on the configuration handshake
      // would see the request a cycle late. The speed models have no assertions: compare the
      // design's behaviour (the two-evaluation run keeps them on).
      ctx->assertOn(false);
      return std::make_unique<aries::sysc::VerilatedNode<Vnode_chk, true>>(CheckedShape(), ctx,
                                                                           name);
    }
    return std::make_unique<aries::sysc::VerilatedNode<Vnode_chk>>(CheckedShape(), ctx, name);
  };
}

uint64_t Seed() { return aries::test::TestSeed() + 11; }

// Runs the traffic (100 warm-up, `measure` measured cycles, drain) and checks that every flit
// created was delivered, checked, with nothing stuck.
void RunAndCheck(Package& pkg, NetTraffic& traffic, uint64_t measure) {
  RunConfig rc;
  rc.warmup = 100;
  rc.measure = measure;
  rc.drain_limit = 20000;
  const auto r = aries::tb::RunTraffic(pkg, traffic, rc);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_FALSE(r.stuck) << r.stuck_report;
  EXPECT_GT(r.flits_created, 500u);
  EXPECT_EQ(r.flits_created, r.flits_ejected);
  EXPECT_EQ(r.packets_outstanding, 0u);
}

struct Case {
  const char* name;
  Topology topo;
  unsigned k;
  bool random_bypass;
  Pattern pattern;
  double rate;
  double sink_accept;
  bool dynamic_vcs = false;  // CTRL.DYN_VC
};

class NodeAssertions : public testing::TestWithParam<Case> {};

TEST_P(NodeAssertions, RandomTrafficKeepsEveryAssertionAndDeliversEveryFlit) {
  const Case& c = GetParam();
  const uint64_t seed = Seed();
  PackageConfig pc;
  pc.topology = c.topo;
  pc.k = c.k;
  pc.dynamic_vcs = c.dynamic_vcs;
  Package pkg(pc, CheckedNodes(), seed);
  if (c.random_bypass) {
    std::mt19937_64 rng(seed);
    // On 2x2 a random plan may move no hop (a segment there is as long as a mesh link).
    const unsigned moved = aries::tb::ApplyRandomBypass(pkg, rng);
    if (c.k > 2) {
      EXPECT_GT(moved, 0u);
    }
  }
  TrafficConfig tc;
  tc.pattern = c.pattern;
  tc.rate = c.rate;
  tc.packet_len = 3;
  tc.sink_accept = c.sink_accept;
  tc.seed = seed;
  NetTraffic traffic(pkg, tc);
  RunAndCheck(pkg, traffic, 1200);
  EXPECT_TRUE(pkg.Quiet());
  EXPECT_FALSE(pkg.AnyError());
}

INSTANTIATE_TEST_SUITE_P(
    Package, NodeAssertions,
    testing::Values(
        Case{"AriesRandomBypassUniform", Topology::kAries, 4, true, Pattern::kUniform, 0.3, 0.6},
        Case{"AriesRandomBypassTranspose", Topology::kAries, 4, true, Pattern::kTranspose, 0.3,
             1.0},
        Case{"AriesRandomBypass2x2", Topology::kAries, 2, true, Pattern::kUniform, 0.5, 0.5},
        Case{"TorusDatelines", Topology::kTorus, 4, false, Pattern::kUniform, 0.3, 0.8},
        Case{"MeshHotspot", Topology::kMesh, 4, false, Pattern::kHotspot, 0.2, 0.5},
        Case{"MeshDynamicVcs", Topology::kMesh, 4, false, Pattern::kUniform, 0.4, 0.7, true},
        Case{"TorusDynamicVcs", Topology::kTorus, 4, false, Pattern::kUniform, 0.4, 0.8, true},
        Case{"AriesRandomBypassDynamicVcs", Topology::kAries, 4, true, Pattern::kUniform, 0.3, 0.6,
             true}),
    [](const auto& info) { return std::string(info.param.name); });

// The speed models evaluate each clock edge once (the low phase is only recorded in the model's
// edge detector); the checked models evaluate it twice. The same traffic with random bypass
// segments and back-pressure gives the same run either way: every latency figure, every
// cycle and every activity counter of every node (assertions watch the two-evaluation run).
TEST(NodeAssertions, OneEvaluationPerEdgeGivesTheSameRunAsTwo) {
  const uint64_t seed = Seed();
  struct Outcome {
    aries::tb::RunResult r;
    std::vector<aries::sysc::NodeCounters> counters;
  };
  auto run = [&](bool one_eval) {
    PackageConfig pc;
    pc.topology = Topology::kAries;
    pc.k = 4;
    Package pkg(pc, CheckedNodes(one_eval), seed);
    std::mt19937_64 rng(seed);
    EXPECT_GT(aries::tb::ApplyRandomBypass(pkg, rng), 0u);
    TrafficConfig tc;
    tc.pattern = Pattern::kUniform;
    tc.rate = 0.35;
    tc.packet_len = 3;
    tc.sink_accept = 0.7;
    tc.seed = seed;
    NetTraffic traffic(pkg, tc);
    RunConfig rc;
    rc.warmup = 100;
    rc.measure = 1000;
    Outcome o{aries::tb::RunTraffic(pkg, traffic, rc), {}};
    for (unsigned n = 0; n < pkg.num_nodes(); ++n) o.counters.push_back(pkg.counters(n));
    return o;
  };
  const Outcome two = run(false), one = run(true);
  ASSERT_TRUE(two.r.ok());
  ASSERT_TRUE(one.r.ok());
  EXPECT_GT(two.r.flits_ejected, 1000u);
  EXPECT_EQ(one.r.cycles, two.r.cycles);
  EXPECT_EQ(one.r.flits_created, two.r.flits_created);
  EXPECT_EQ(one.r.flits_ejected, two.r.flits_ejected);
  EXPECT_EQ(one.r.latency.packets, two.r.latency.packets);
  EXPECT_EQ(one.r.latency.mean, two.r.latency.mean);
  EXPECT_EQ(one.r.latency.p99, two.r.latency.p99);
  EXPECT_EQ(one.r.latency.max, two.r.latency.max);
  EXPECT_EQ(one.r.latency.net_mean, two.r.latency.net_mean);
  ASSERT_EQ(one.counters.size(), two.counters.size());
  for (size_t n = 0; n < one.counters.size(); ++n) {
    const auto &a = one.counters[n], &b = two.counters[n];
    EXPECT_EQ(a.evaluated, b.evaluated) << "node " << n;
    EXPECT_EQ(a.xbar_traversals, b.xbar_traversals) << "node " << n;
    EXPECT_EQ(a.va_grants, b.va_grants) << "node " << n;
    EXPECT_EQ(a.buffer_toggles, b.buffer_toggles) << "node " << n;
    EXPECT_EQ(a.link_flits, b.link_flits) << "node " << n;
    EXPECT_EQ(a.link_toggles, b.link_toggles) << "node " << n;
  }
}

// A flit on a link direction no port has selected (here a bypass tap while every port is on
// its mesh link) trips the node's stray-flit assertion in this build.
TEST(NodeAssertionsDeathTest, FlitOnAnUnselectedLinkTripsTheAssertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        aries::test::StdoutToStderr();
        auto ctx = std::make_unique<VerilatedContext>();
        aries::sysc::VerilatedNode<Vnode_chk> node(CheckedShape(), ctx.get(), "n");
        node.Reset(0, 0);
        const NodeShape s = CheckedShape();
        aries::sysc::NodeIn in;
        aries::sysc::NodeOut out;
        in.Size(s);
        out.Size(s);
        in.link_valid = uint64_t{1} << 4;   // x-track 0, lower tap
        in.link_flit[4 * s.words()] = 0x3;  // a head-and-tail flit on VC 0
        node.Tick(in, out);
        node.Tick(in, out);
      },
      "NoStrayFlit_A");
}

}  // namespace

namespace {

// An all-reduce on the collective VCs while random point-to-point traffic loads the same ports,
// on the node with every assertion on (the engine's, the router's, and the node's check that
// an engine result never collides with a router flit on an output): both complete, every
// collective element and every packet checked.
TEST(NodeAssertions, AllReduceBesideRandomTrafficKeepsEveryAssertion) {
  const uint64_t seed = Seed();
  PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = 4;
  Package pkg(pc, CheckedNodes(), seed);
  const auto& shape = pkg.shape();
  TrafficConfig tc;
  tc.rate = 0.3;
  tc.packet_len = 3;
  tc.sink_accept = 0.7;
  tc.seed = seed;
  NetTraffic traffic(pkg, tc);
  const aries::test::Tree t = aries::test::MakeTree(4, 1, 2);
  const size_t elements = 2 * 150 - 1;
  const unsigned flits = static_cast<unsigned>((elements + shape.lanes - 1) / shape.lanes);
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::vector<std::vector<uint32_t>> vec(16, std::vector<uint32_t>(elements));
  std::vector<std::unique_ptr<aries::tb::CollEndpoint>> colls;
  std::vector<std::unique_ptr<aries::tb::SharedPort>> ports;
  const uint8_t coll_vcs = static_cast<uint8_t>(3u << shape.num_vcs);
  for (unsigned n = 0; n < 16; ++n) {
    for (auto& e : vec[n]) e = static_cast<uint32_t>(rng());
    colls.push_back(std::make_unique<aries::tb::CollEndpoint>(shape, 1, aries::hw::kOpAddI32,
                                                              vec[n], 0.6, seed + n));
    ports.push_back(
        std::make_unique<aries::tb::SharedPort>(colls.back().get(), pkg.endpoint(n), coll_vcs));
    pkg.AttachEndpoint(n, ports.back().get());
  }
  pkg.Program(aries::test::ProgramTree(t, 1, aries::hw::kOpAddI32, flits, true));
  for (auto& c : colls) c->Start();
  RunAndCheck(pkg, traffic, 1000);
  for (int i = 0; i < 5000; ++i) {
    bool done = true;
    for (auto& c : colls) done = done && c->received() == flits;
    if (done) break;
    pkg.Step();
  }
  for (unsigned n = 0; n < 16; ++n) {
    for (const auto& e : colls[n]->errors()) ADD_FAILURE() << pkg.NodeName(n) << ": " << e;
    ASSERT_EQ(colls[n]->received(), flits) << pkg.NodeName(n);
    for (size_t e = 0; e < elements; ++e) {
      ASSERT_EQ(colls[n]->result()[e], aries::test::Golden(t, aries::hw::kOpAddI32, vec, t.root, e))
          << pkg.NodeName(n) << " element " << e;
    }
  }
  EXPECT_FALSE(pkg.AnyError());
}

}  // namespace
