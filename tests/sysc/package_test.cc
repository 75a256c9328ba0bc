// Package tests on the shipped node models (16 lanes, 4 VCs x 32 flits): zero-load latency
// per topology against the analytic value, flit conservation under random traffic on every
// topology (ARIES with random bypass configurations), bypass segment latency, register API
// errors, SystemC kernel == plain loop, skipping idle nodes and parallel evaluation change
// nothing, the watchdog.
#include "package.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <thread>

#include "aries_pkg.h"
#include "lockstep_node.h"
#include "net_run.h"
#include "net_traffic.h"
#include "node_models.h"
#include "package_sc.h"
#include "test_seed.h"
#include "tick_pool.h"
#include "transport.h"
#include "verilated.h"

namespace {

using aries::coll::Topology;
using aries::sysc::Package;
using aries::sysc::PackageConfig;
using aries::sysc::RegisterError;
using aries::sysc::RegOp;
using aries::tb::NetTraffic;
using aries::tb::Pattern;
using aries::tb::RunConfig;
using aries::tb::TrafficConfig;
namespace hw = aries::hw;

uint64_t Seed() { return aries::test::TestSeed(1); }

PackageConfig Cfg(Topology t, unsigned k) {
  PackageConfig c;
  c.topology = t;
  c.k = k;
  return c;
}

// Hops of dimension-order routing between two nodes.
unsigned Hops(Topology t, unsigned k, unsigned s, unsigned d) {
  auto dist = [&](unsigned a, unsigned b) -> unsigned {
    const unsigned diff = a > b ? a - b : b - a;
    if (t == Topology::kFbfly) return diff ? 1 : 0;
    if (t == Topology::kTorus) return std::min(diff, k - diff);
    return diff;
  };
  return dist(s % k, d % k) + dist(s / k, d / k);
}

// Wire cycles along the DOR path (torus wrap and fbfly links are longer).
unsigned WireCycles(const PackageConfig& c, unsigned s, unsigned d) {
  const unsigned k = c.k;
  unsigned cyc = 0;
  auto dim = [&](unsigned a, unsigned b) {
    if (a == b) return;
    const unsigned diff = a > b ? a - b : b - a;
    if (c.topology == Topology::kFbfly) {
      cyc += aries::coll::LinkLatency(c, diff);
    } else if (c.topology == Topology::kTorus) {
      // The shorter way round, ties going + (rtl/router/aries_route_compute.sv).
      const unsigned plus = (b + k - a) % k;
      const bool go_plus = 2 * plus <= k;
      const unsigned hops = go_plus ? plus : k - plus;
      const bool wrap = go_plus ? a + plus >= k : a < hops;
      cyc += (hops - (wrap ? 1 : 0)) * aries::coll::LinkLatency(c, 1) +
             (wrap ? aries::coll::LinkLatency(c, k - 1) : 0);
    } else {
      cyc += diff * aries::coll::LinkLatency(c, 1);
    }
  };
  dim(s % k, d % k);
  dim(s / k, d / k);
  return cyc;
}

// One packet alone in the package: its latency (creation to tail ejection).
uint64_t LonePacket(Package& pkg, unsigned src, unsigned dst, unsigned len) {
  TrafficConfig tc;
  tc.pattern = Pattern::kTrace;
  tc.rate = 0;
  tc.trace = {{pkg.cycle() + 1, src, dst, len}};
  NetTraffic t(pkg, tc);
  RunConfig rc;
  rc.warmup = 0;
  rc.measure = 2;
  rc.drain_limit = 2000;
  const auto r = aries::tb::RunTraffic(pkg, t, rc);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.latency.packets, 1u);
  return static_cast<uint64_t>(r.latency.max);
}

// Zero load: latency = 2 per router x (hops + 1) + wire cycles + (flits - 1).
void ZeroLoad(Topology t, unsigned k, unsigned link_latency = 10) {
  PackageConfig c = Cfg(t, k);
  c.link_latency = link_latency;
  Package pkg(c, aries::sysc::ShippedNodeModels(), 1);
  std::mt19937_64 rng(Seed());
  std::uniform_int_distribution<unsigned> node(0, pkg.num_nodes() - 1);
  for (int i = 0; i < 12; ++i) {
    const unsigned s = node(rng), d = node(rng);
    if (s == d) continue;
    const unsigned len = 1 + i % 4;
    const uint64_t want = 2 * (Hops(t, k, s, d) + 1) + WireCycles(c, s, d) + (len - 1);
    EXPECT_EQ(LonePacket(pkg, s, d, len), want)
        << pkg.NodeName(s) << " -> " << pkg.NodeName(d) << ", " << len << " flits";
  }
}

TEST(PackageZeroLoad, Mesh4x4) { ZeroLoad(Topology::kMesh, 4); }
TEST(PackageZeroLoad, Aries4x4) { ZeroLoad(Topology::kAries, 4); }
TEST(PackageZeroLoad, Torus4x4) { ZeroLoad(Topology::kTorus, 4); }
TEST(PackageZeroLoad, Torus5x5OddRing) { ZeroLoad(Topology::kTorus, 5); }
TEST(PackageZeroLoad, Fbfly4x4) { ZeroLoad(Topology::kFbfly, 4); }
TEST(PackageZeroLoad, Fbfly2x2OnFivePortNodes) { ZeroLoad(Topology::kFbfly, 2); }
TEST(PackageZeroLoad, Mesh8x8) { ZeroLoad(Topology::kMesh, 8); }
// One-cycle links (the BookSim2 comparison): the channel holds no cycle of its own, only the
// receiving node's input register.
TEST(PackageZeroLoad, Mesh8x8OneCycleLinks) { ZeroLoad(Topology::kMesh, 8, 1); }
// The largest packages: coordinates above 15 take the header's fifth coordinate bit (layout v2).
TEST(PackageZeroLoad, Mesh32x32OneCycleLinks) { ZeroLoad(Topology::kMesh, 32, 1); }
TEST(PackageZeroLoad, Torus32x32OneCycleLinks) { ZeroLoad(Topology::kTorus, 32, 1); }
TEST(PackageZeroLoad, Torus4x4OneCycleLinks) { ZeroLoad(Topology::kTorus, 4, 1); }

// Random traffic with back-pressure: every flit created is ejected once, checked, nothing
// outstanding, no hardware error.
// Runs the traffic (warm-up, measurement, then up to 20,000 cycles of drain) and checks that
// every flit created arrived, checked by the scoreboard, with nothing stuck.
aries::tb::RunResult RunDelivered(Package& pkg, NetTraffic& traffic, uint64_t warmup,
                                  uint64_t measure) {
  RunConfig rc;
  rc.warmup = warmup;
  rc.measure = measure;
  rc.drain_limit = 20000;
  const auto r = aries::tb::RunTraffic(pkg, traffic, rc);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_FALSE(r.stuck) << r.stuck_report;
  EXPECT_EQ(r.flits_created, r.flits_ejected);
  EXPECT_EQ(r.packets_outstanding, 0u);
  return r;
}

void Conservation(Topology t, unsigned k, bool random_bypass, Pattern pat = Pattern::kUniform,
                  bool dynamic_vcs = false) {
  const uint64_t seed = Seed();
  PackageConfig pc = Cfg(t, k);
  pc.dynamic_vcs = dynamic_vcs;
  Package pkg(pc, aries::sysc::ShippedNodeModels(), seed);
  unsigned moved = 0;
  if (random_bypass) {
    std::mt19937_64 rng(seed);
    moved = aries::tb::ApplyRandomBypass(pkg, rng);
    EXPECT_GT(moved, 0u);
  }
  TrafficConfig tc;
  tc.pattern = pat;
  tc.rate = 0.25;
  tc.packet_len = 3;
  tc.sink_accept = 0.7;
  tc.seed = seed;
  NetTraffic traffic(pkg, tc);
  const auto r = RunDelivered(pkg, traffic, 200, 1500);
  EXPECT_GT(r.flits_created, 1000u);
  EXPECT_TRUE(pkg.Quiet());
  // Activity balances once drained: every buffered flit left through the crossbar, every link
  // flit was written into the buffer at its far end, one VC-allocator grant per packet hop.
  uint64_t writes = 0, xbar = 0, link = 0, injected = 0, heads = 0;
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    const auto& c = pkg.counters(n);
    writes += c.buffer_writes;
    xbar += c.xbar_traversals;
    injected += c.injected;
    heads += c.va_grants;
    for (uint64_t f : c.link_flits) link += f;
  }
  EXPECT_EQ(writes, xbar);
  EXPECT_EQ(writes, injected + link);
  EXPECT_EQ(heads * tc.packet_len, xbar);  // every packet is packet_len flits
  if (random_bypass) {
    // The moved hops carried traffic: some bypass segment has flits.
    uint64_t seg_flits = 0;
    for (const auto* ch : pkg.Channels()) {
      if (ch->name().find("track") != std::string::npos) seg_flits += ch->flits_sent();
    }
    EXPECT_GT(seg_flits, 0u) << moved << " hops moved";
  }
}

TEST(PackageConservation, Mesh4x4) { Conservation(Topology::kMesh, 4, false); }
TEST(PackageConservation, Torus4x4) { Conservation(Topology::kTorus, 4, false); }
TEST(PackageConservation, Fbfly4x4) { Conservation(Topology::kFbfly, 4, false); }
TEST(PackageConservation, AriesRandomBypass4x4) { Conservation(Topology::kAries, 4, true); }
TEST(PackageConservation, AriesRandomBypass2x2) { Conservation(Topology::kAries, 2, true); }
TEST(PackageConservation, AriesRandomBypassTranspose4x4) {
  Conservation(Topology::kAries, 4, true, Pattern::kTranspose);
}
TEST(PackageConservation, MeshHotspot4x4) {
  Conservation(Topology::kMesh, 4, false, Pattern::kHotspot);
}
TEST(PackageConservation, MeshDynamicVcs4x4) {
  Conservation(Topology::kMesh, 4, false, Pattern::kUniform, true);
}
TEST(PackageConservation, TorusDynamicVcs4x4) {
  Conservation(Topology::kTorus, 4, false, Pattern::kUniform, true);
}
TEST(PackageConservation, AriesRandomBypassDynamicVcs4x4) {
  Conservation(Topology::kAries, 4, true, Pattern::kUniform, true);
}

// Every packet injected on VC 0: with static VC allocation every flit is ejected on VC 0; with
// CTRL.DYN_VC the heads take other free VCs on the way (as many flits arrive as left, with the
// scoreboard's checks), and CTRL reads back the bit on every node.
TEST(PackageVcAllocation, DynamicVcsLeaveTheInjectionVc) {
  for (bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic" : "static");
    PackageConfig pc = Cfg(Topology::kMesh, 4);
    pc.dynamic_vcs = dynamic;
    Package pkg(pc, aries::sysc::ShippedNodeModels(), Seed());
    for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
      EXPECT_EQ(pkg.Read(n, hw::kRegCtrl) >> hw::kCtrlDynVcBit & 1u, dynamic ? 1u : 0u) << n;
    }
    TrafficConfig tc;
    tc.rate = 0.4;
    tc.vc_mask = 0x1;
    tc.seed = Seed();
    NetTraffic traffic(pkg, tc);
    const auto r = RunDelivered(pkg, traffic, 100, 1000);
    const auto& by_vc = traffic.scoreboard().ejected_by_vc();
    ASSERT_FALSE(by_vc.empty());
    const uint64_t on_vc0 = by_vc[0];
    const uint64_t total = std::accumulate(by_vc.begin(), by_vc.end(), uint64_t{0});
    EXPECT_EQ(total, r.flits_ejected);
    if (dynamic) {
      EXPECT_LT(on_vc0, total) << "no head left VC 0";
      EXPECT_GT(by_vc.size(), 1u);
    } else {
      EXPECT_EQ(on_vc0, total);
    }
  }
}

// With CTRL.DYN_VC on an idle 4x4 mesh: a table-routed flow packet sent on VC 2 keeps VC 2 at
// every hop (the controller chose it), and a DOR packet sent on VC 2 right after it takes the
// lowest free VC with a credit, VC 0, at the first hop and keeps it to its destination (its
// body flits follow the head). With static VCs both arrive on VC 2.
std::vector<std::pair<bool, unsigned>> FlowAndDorOnVc2(bool dynamic) {
  PackageConfig c = Cfg(Topology::kMesh, 4);
  c.dynamic_vcs = dynamic;
  Package pkg(c, aries::sysc::ShippedNodeModels(), 1);
  const unsigned a = pkg.NodeId(0, 0), b = pkg.NodeId(3, 0);
  std::vector<RegOp> ops{{a, true, hw::RouteAddr(7, hw::kPortLocal), 1u << hw::kPortXP},
                         {b, true, hw::RouteAddr(7, hw::kPortXM), 1u << hw::kPortLocal}};
  for (unsigned x = 1; x < 3; ++x) {
    ops.push_back({pkg.NodeId(x, 0), true, hw::RouteAddr(7, hw::kPortXM), 1u << hw::kPortXP});
  }
  pkg.Program(ops);
  struct Ep : aries::sysc::Endpoint {
    unsigned sent = 0;
    bool src = false;
    std::vector<std::pair<bool, unsigned>> got;  // (is_flow, VC) per ejected flit
    bool Inject(uint64_t, unsigned, uint32_t* w) override {
      if (!src || sent == 8) return false;
      hw::Flit f;
      f.head = sent % 4 == 0;
      f.tail = sent % 4 == 3;
      f.vc = 2;
      f.is_flow = sent < 4;  // first the flow packet, then a DOR packet to (3, 0)
      f.flow = 7;
      f.dst_x = 3;
      f.dst_y = 0;
      hw::PackFlit(f, 16, w);
      ++sent;
      return true;
    }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t, const aries::sysc::EndpointEdge& edge) override {
      const uint32_t* e = edge.ejected[0];
      if (e) {
        const hw::Flit f = hw::UnpackFlit(e, 0);
        got.emplace_back(f.is_flow, f.vc);
      }
    }
  } src_ep, dst_ep;
  src_ep.src = true;
  pkg.AttachEndpoint(a, &src_ep);
  pkg.AttachEndpoint(b, &dst_ep);
  for (int i = 0; i < 200; ++i) pkg.Step();
  EXPECT_FALSE(pkg.AnyError());
  return dst_ep.got;
}

TEST(PackageVcAllocation, FlowsKeepTheirVcDorTakesTheLowestFreeOne) {
  using G = std::vector<std::pair<bool, unsigned>>;
  const G flow2 = {{true, 2}, {true, 2}, {true, 2}, {true, 2}};
  G want_static = flow2, want_dynamic = flow2;
  for (int i = 0; i < 4; ++i) {
    want_static.emplace_back(false, 2);
    want_dynamic.emplace_back(false, 0);
  }
  EXPECT_EQ(FlowAndDorOnVc2(false), want_static);
  EXPECT_EQ(FlowAndDorOnVc2(true), want_dynamic);
}

// An endpoint may say which of its per-cycle calls would do nothing (Endpoint::may_inject,
// may_free, quiet_edges): the package then leaves them out, and calls one that says nothing
// every cycle. A source sends one 4-flit packet and then says it has nothing to inject; the
// sink holds no flit and wants only edges that carry something: every flit still arrives, the
// sink hears only the edges with a flit or a credit.
TEST(PackageEndpoints, CallsAnEndpointSaysWouldDoNothingAreLeftOut) {
  Package pkg(Cfg(Topology::kMesh, 4),
              aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1);
  struct Counting : aries::sysc::Endpoint {
    bool source = false;
    unsigned injects = 0, frees = 0, edges = 0, sent = 0, got = 0;
    bool Inject(uint64_t, unsigned, uint32_t* w) override {
      ++injects;
      if (!source) return false;
      if (!may_inject_) ADD_FAILURE() << "Inject called after may_inject() turned false";
      hw::Flit f;
      f.head = sent == 0;
      f.tail = sent == 3;
      f.dst_x = 3;
      f.dst_y = 2;
      hw::PackFlit(f, 16, w);
      if (++sent == 4) may_inject_ = false;
      return true;
    }
    uint8_t EjectCredits(uint64_t, unsigned) override {
      ++frees;
      return 0;
    }
    void AfterEdge(uint64_t, const aries::sysc::EndpointEdge& edge) override {
      ++edges;
      if (edge.ejected[0]) ++got;
    }
    void Hints(bool inject, bool free, bool quiet) {
      may_inject_ = inject;
      may_free_ = free;
      quiet_edges_ = quiet;
    }
  } plain, src, sink;
  src.source = true;
  src.Hints(true, false, true);
  sink.Hints(false, false, true);
  pkg.AttachEndpoint(pkg.NodeId(1, 1), &plain);  // says nothing: called every cycle
  pkg.AttachEndpoint(pkg.NodeId(0, 0), &src);
  pkg.AttachEndpoint(pkg.NodeId(3, 2), &sink);
  constexpr unsigned kSteps = 100;
  for (unsigned i = 0; i < kSteps; ++i) pkg.Step();
  EXPECT_FALSE(pkg.AnyError());
  EXPECT_EQ(sink.got, 4u);
  EXPECT_EQ(sink.injects + sink.frees, 0u);
  EXPECT_EQ(sink.edges, 4u);  // the four ejections (the sink frees nothing, so no credit back)
  EXPECT_EQ(src.injects, 4u);
  EXPECT_EQ(src.frees, 0u);
  EXPECT_EQ(src.edges, 4u);  // the four injection credits returned
  EXPECT_EQ(plain.injects, kSteps);
  EXPECT_EQ(plain.frees, kSteps);
  EXPECT_EQ(plain.edges, kSteps);
}

// Contention under CTRL.DYN_VC on a 4x4 mesh, row 0: node (0,0) sends a 20-flit packet to (3,0)
// on VC 2; node (1,0) starts a 4-flit packet to (3,0), also on VC 2, while the long one holds
// its VC on every link ahead. Dynamic: the long packet takes VC 0 at each hop, the short one the
// lowest VC still free, VC 1, so it passes alongside and arrives first. Static: both keep VC 2
// and the short packet waits for the long one's tail at (1,0).
struct RowFlit {
  unsigned src_x, vc;
  bool tail;
};
std::vector<RowFlit> LongAndShortOnOneRow(bool dynamic) {
  PackageConfig c = Cfg(Topology::kMesh, 4);
  c.dynamic_vcs = dynamic;
  Package pkg(c, aries::sysc::ShippedNodeModels(), 1);
  struct Src : aries::sysc::Endpoint {
    unsigned x = 0, len = 0, sent = 0;
    uint64_t start = 0;
    bool Inject(uint64_t cycle, unsigned, uint32_t* w) override {
      if (cycle < start || sent == len) return false;
      hw::Flit f;
      f.head = sent == 0;
      f.tail = sent + 1 == len;
      f.vc = 2;
      f.dst_x = 3;
      f.src_x = x;
      hw::PackFlit(f, 16, w);
      ++sent;
      return true;
    }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t, const aries::sysc::EndpointEdge&) override {}
  } a, b;
  // 10-cycle links: the long packet's head leaves (1,0) about 16 cycles after it starts and its
  // tail about 20 cycles later, so the short packet, 20 cycles behind, meets it there.
  const uint64_t t0 = pkg.endpoint_cycle();
  a.x = 0, a.len = 20, a.start = t0;
  b.x = 1, b.len = 4, b.start = t0 + 20;
  struct Dst : aries::sysc::Endpoint {
    std::vector<RowFlit> got;
    bool Inject(uint64_t, unsigned, uint32_t*) override { return false; }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t, const aries::sysc::EndpointEdge& edge) override {
      const uint32_t* e = edge.ejected[0];
      if (e) {
        const hw::Flit f = hw::UnpackFlit(e, 0);
        got.push_back({f.src_x, f.vc, f.tail});
      }
    }
  } d;
  pkg.AttachEndpoint(pkg.NodeId(0, 0), &a);
  pkg.AttachEndpoint(pkg.NodeId(1, 0), &b);
  pkg.AttachEndpoint(pkg.NodeId(3, 0), &d);
  for (int i = 0; i < 300; ++i) pkg.Step();
  EXPECT_FALSE(pkg.AnyError());
  EXPECT_EQ(d.got.size(), 24u);
  return d.got;
}

TEST(PackageVcAllocation, UnderContentionAHeadTakesTheLowestFreeVc) {
  for (bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic" : "static");
    const auto got = LongAndShortOnOneRow(dynamic);
    size_t long_tail = 0, short_tail = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const RowFlit& f = got[i];
      EXPECT_EQ(f.vc, dynamic ? (f.src_x == 0 ? 0u : 1u) : 2u) << "flit " << i;
      if (f.tail) (f.src_x == 0 ? long_tail : short_tail) = i;
    }
    if (dynamic) {
      EXPECT_LT(short_tail, long_tail) << "the short packet passes on its own VC";
    } else {
      EXPECT_GT(short_tail, long_tail) << "the short packet waits behind the long one";
    }
  }
}

// A bypass segment between (0,1) and (3,1) carries a flow: latency = 2 + segment wire + 2.
TEST(PackageBypass, SegmentCarriesAFlowWithItsLatency) {
  PackageConfig c = Cfg(Topology::kAries, 4);
  Package pkg(c, aries::sysc::ShippedNodeModels(), 1);
  const unsigned a = pkg.NodeId(0, 1), b = pkg.NodeId(3, 1);
  const unsigned x_t1 = 1 + 1;  // PORTSEL choice of x-track 1
  pkg.Program({{a, true, hw::kRegBypass, hw::BypassValue(0x2, 0)},
               {b, true, hw::kRegBypass, hw::BypassValue(0x2, 0)}});
  // a's XP (upper tap) out, b's XM (lower tap) in; flow 5 local -> XP at a, XM -> local at b.
  pkg.Program({{a, true, hw::kRegPortSelBase + hw::kPortXP, hw::PortSelValue(0, x_t1)},
               {b, true, hw::kRegPortSelBase + hw::kPortXM, hw::PortSelValue(x_t1, 0)},
               {a, true, hw::RouteAddr(5, hw::kPortLocal), 1u << hw::kPortXP},
               {b, true, hw::RouteAddr(5, hw::kPortXM), 1u << hw::kPortLocal}});
  bool found = false;
  for (const auto* ch : pkg.Channels()) {
    if (ch->src() == a && ch->dst() == b) {
      found = true;
      EXPECT_EQ(ch->latency(), c.link_latency + 2 * c.extra_per_pitch);
    }
  }
  ASSERT_TRUE(found);
  // Send one 4-flit flow packet by hand through an endpoint.
  struct FlowEp : aries::sysc::Endpoint {
    unsigned sent = 0, got = 0;
    uint64_t first = 0, last = 0;
    bool src = false;
    bool Inject(uint64_t cycle, unsigned, uint32_t* w) override {
      if (!src || sent == 4) return false;
      hw::Flit f;
      f.head = sent == 0;
      f.tail = sent == 3;
      f.is_flow = true;
      f.flow = 5;
      hw::PackFlit(f, 16, w);
      if (sent == 0) first = cycle;
      ++sent;
      return true;
    }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t cycle, const aries::sysc::EndpointEdge& edge) override {
      const uint32_t* e = edge.ejected[0];
      if (e) {
        ++got;
        last = cycle + 1;
      }
    }
  } src_ep, dst_ep;
  src_ep.src = true;
  pkg.AttachEndpoint(a, &src_ep);
  pkg.AttachEndpoint(b, &dst_ep);
  for (int i = 0; i < 100; ++i) pkg.Step();
  EXPECT_EQ(dst_ep.got, 4u);
  EXPECT_EQ(dst_ep.last - src_ep.first, 2u + (c.link_latency + 2 * c.extra_per_pitch) + 2u + 3u);
  EXPECT_FALSE(pkg.AnyError());
  // Activity, by hand. Headers (payload all zero): flow 5 (bits 6, 8), is_flow (bit 5), head
  // (bit 0) on the first flit, tail (bit 1) on the last: 0x161, 0x160, 0x160, 0x162 on VC 0.
  // From wires at 0: 4 + 1 + 0 + 1 = 6 toggles on every wire set the packet crosses once.
  const unsigned a_xp_t1_upper = 4 + 0 * 4 + 2 * 1 + 1;  // link 4 + d 2T + 2t + s
  for (unsigned n : {a, b}) {
    const auto& k = pkg.counters(n);
    SCOPED_TRACE(pkg.NodeName(n));
    EXPECT_EQ(k.buffer_writes, 4u);    // a: injected; b: arrived
    EXPECT_EQ(k.xbar_traversals, 4u);  // a: to XP; b: to the endpoint
    EXPECT_EQ(k.va_grants, 1u);        // one head per hop
    EXPECT_EQ(k.buffer_toggles, 6u);
    EXPECT_EQ(k.portsel_changes, 1u);  // a's XP output side, b's XM input side
    EXPECT_EQ(k.bypass_changes, 1u);   // x-track 1 cut
    EXPECT_EQ(k.engine_requests + k.engine_responses + k.engine_out, 0u);
  }
  for (unsigned l = 0; l < pkg.shape().num_links; ++l) {
    EXPECT_EQ(pkg.counters(a).link_flits[l], l == a_xp_t1_upper ? 4u : 0u) << "link " << l;
    EXPECT_EQ(pkg.counters(a).link_toggles[l], l == a_xp_t1_upper ? 6u : 0u) << "link " << l;
    // The segment spans three pitches (x 0 to 3): 4 flits x 3.
    EXPECT_EQ(pkg.counters(a).link_flit_pitches[l], l == a_xp_t1_upper ? 12u : 0u) << "link " << l;
    EXPECT_EQ(pkg.counters(b).link_flits[l], 0u) << "link " << l;
  }

  pkg.AttachEndpoint(a, nullptr);
  pkg.AttachEndpoint(b, nullptr);
}

TEST(PackageRegisters, ReadsIdentityOfEveryNode) {
  Package pkg(Cfg(Topology::kAries, 2), aries::sysc::ShippedNodeModels(), 1);
  std::vector<RegOp> ops;
  for (unsigned n = 0; n < 4; ++n) {
    ops.push_back({n, false, hw::kRegNodeId, 0});
    ops.push_back({n, false, hw::kRegId, 0});
    ops.push_back({n, false, hw::kRegNodeLinks, 0});
  }
  const auto res = pkg.Access(ops);
  for (unsigned n = 0; n < 4; ++n) {
    EXPECT_TRUE(res[3 * n].ok);
    EXPECT_EQ(res[3 * n].rdata, hw::kNodeIdValue);
    EXPECT_EQ(res[3 * n + 1].rdata, hw::kRouterIdValue);
    EXPECT_EQ(res[3 * n + 2].rdata, 12u);
  }
}

// The register table generated from rtl/regs/aries_regs.json is what the node decodes: every
// address of the node, router and engine pages (and the first routing-table flows) reads back
// without an error exactly when the table names a register there, on the node with engine and
// port muxes and on the point-to-point node (no engine page). A register added to the RTL and
// not to the JSON, or the other way round, fails here.
TEST(PackageRegisters, TheGeneratedTableIsWhatTheHardwareDecodes) {
  for (auto use : {aries::sysc::NodeUse::kAny, aries::sysc::NodeUse::kPointToPoint}) {
    Package pkg(Cfg(Topology::kAries, 2), aries::sysc::ShippedNodeModels(use), 1);
    std::vector<RegOp> ops;
    for (uint32_t a = 0; a < 0x0300; ++a) ops.push_back({0, false, a, 0});
    for (uint32_t a = hw::kRegRouteBase; a < hw::kRegRouteBase + 0x100; ++a)
      ops.push_back({0, false, a, 0});
    ops.push_back({0, false, hw::RouteAddr(pkg.shape().num_flows, 0), 0});  // past the table
    const auto res = pkg.Access(ops);
    unsigned mapped = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      const std::string name = pkg.RegName(ops[i].addr);
      const bool in_table = name.find("unmapped") == std::string::npos;
      mapped += in_table ? 1 : 0;
      EXPECT_EQ(res[i].ok, in_table) << fmt::format("0x{:04x} {}", ops[i].addr, name);
    }
    // 13 router registers + 3 port windows of 5, 5 node registers + 4 PORTSEL, 8 ROUTE flows x
    // 5 inputs; the engine: 8 + 2 programs of 8 steps + 8 ids x 8.
    const unsigned router_node = 13 + 15 + 5 + 4 + 8 * 5;
    EXPECT_EQ(mapped, use == aries::sysc::NodeUse::kAny ? router_node + 8 + 16 + 64 : router_node);
  }
}

// Random register writes on a Verilated node with its engine (legal and illegal: addresses
// the table names, unmapped ones, routing-table entries; values random, small or all ones):
// no assertion fires, and every refused write changes nothing a read can see but the STATUS
// registers' CFG_ERR bits. Accepted writes move the state, so later refusals are checked in
// many states.
TEST(PackageRegisters, RandomWritesRefusedChangeNothing) {
  Package pkg(Cfg(Topology::kAries, 2), aries::sysc::ShippedNodeModels(), 1);
  std::vector<RegOp> probe;
  for (uint32_t a = 0; a < 0x0300; ++a) probe.push_back({0, false, a, 0});
  for (uint32_t a = hw::kRegRouteBase; a < hw::kRegRouteBase + 0x100; ++a)
    probe.push_back({0, false, a, 0});
  std::vector<uint32_t> readable;
  const auto res0 = pkg.Access(probe);
  for (size_t i = 0; i < probe.size(); ++i) {
    if (res0[i].ok) readable.push_back(probe[i].addr);
  }
  ASSERT_GT(readable.size(),
            100u);  // (164 with the engine: TheGeneratedTableIsWhatTheHardwareDecodes)
  std::vector<RegOp> reads;
  for (uint32_t a : readable) reads.push_back({0, false, a, 0});
  auto snapshot = [&] {
    std::vector<uint32_t> v;
    for (const auto& r : pkg.Access(reads)) v.push_back(r.rdata);
    return v;
  };
  const uint32_t cfg_err[] = {1u << hw::kStatusCfgErrBit, 1u << hw::kNodeStatusCfgErrBit,
                              1u << hw::kEngStatusCfgErrBit};
  auto status_bit = [&](uint32_t addr) -> int {
    if (addr == hw::kRegStatus) return 0;
    if (addr == hw::kRegNodeStatus) return 1;
    if (addr == hw::kRegEngStatus) return 2;
    return -1;
  };
  std::mt19937_64 rng(aries::test::TestSeed(41));
  unsigned refused = 0, accepted = 0;
  for (unsigned i = 0; i < 300; ++i) {
    uint32_t addr =
        rng() % 4 == 0 ? static_cast<uint32_t>(rng() % 0x0300) : readable[rng() % readable.size()];
    const unsigned kind = rng() % 3;
    const uint32_t value = kind == 0   ? static_cast<uint32_t>(rng())
                           : kind == 1 ? static_cast<uint32_t>(rng() % 32)
                                       : 0xFFFFFFFFu;
    const auto before = snapshot();
    const bool ok = pkg.Access({{0, true, addr, value}})[0].ok;
    const auto after = snapshot();
    (ok ? accepted : refused) += 1;
    if (ok) continue;
    for (size_t r = 0; r < readable.size(); ++r) {
      const int st = status_bit(readable[r]);
      const uint32_t changed = before[r] ^ after[r];
      EXPECT_EQ(changed & ~(st >= 0 ? cfg_err[st] : 0u), 0u)
          << fmt::format("refused write {} = 0x{:08x} changed {}", pkg.RegName(addr), value,
                         pkg.RegName(readable[r]));
    }
  }
  EXPECT_GT(refused, 50u);
  EXPECT_GT(accepted, 20u);
}

std::string RefusalOf(Package& pkg, const std::vector<RegOp>& ops) {
  try {
    pkg.Program(ops);
  } catch (const RegisterError& e) {
    return e.what();
  }
  return "";
}

TEST(PackageRegisters, RefusalsNameTheRegisterAndReasonAndChangeNothing) {
  Package pkg(Cfg(Topology::kAries, 4), aries::sysc::ShippedNodeModels(), 1);
  const unsigned n = pkg.NodeId(1, 2);
  // A track that is not cut cannot be taken.
  std::string e =
      RefusalOf(pkg, {{n, true, hw::kRegPortSelBase + hw::kPortXP, hw::PortSelValue(1, 1)}});
  EXPECT_NE(e.find("node9"), std::string::npos) << e;  // (1, 2) on 4x4: 2 * 4 + 1
  EXPECT_NE(e.find("PORTSEL[XP]"), std::string::npos) << e;
  EXPECT_NE(e.find("not cut"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(n, hw::kRegPortSelBase + hw::kPortXP), 0u);
  // Choice out of range.
  e = RefusalOf(pkg, {{n, true, hw::kRegPortSelBase + hw::kPortYM, hw::PortSelValue(5, 0)}});
  EXPECT_NE(e.find("choices 0 (mesh)"), std::string::npos) << e;
  // XP and YP share the upper taps: both cannot take x-track 0's upper tap.
  pkg.Write(n, hw::kRegBypass, hw::BypassValue(0x1, 0));
  pkg.Write(n, hw::kRegPortSelBase + hw::kPortXP, hw::PortSelValue(1, 1));
  e = RefusalOf(pkg, {{n, true, hw::kRegPortSelBase + hw::kPortYP, hw::PortSelValue(1, 0)}});
  EXPECT_NE(e.find("owned by another port"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(n, hw::kRegPortSelBase + hw::kPortYP), 0u);
  // A used track's cut bit cannot change.
  e = RefusalOf(pkg, {{n, true, hw::kRegBypass, 0}});
  EXPECT_NE(e.find("BYPASS"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(n, hw::kRegBypass), hw::BypassValue(0x1, 0));
  // Reserved bits, unmapped and read-only registers.
  e = RefusalOf(pkg, {{n, true, hw::kRegBypass, 0x4}});
  EXPECT_NE(e.find("allowed bits"), std::string::npos) << e;
  e = RefusalOf(pkg, {{n, true, 0x01FF, 1}});
  EXPECT_NE(e.find("unmapped"), std::string::npos) << e;
  e = RefusalOf(pkg, {{n, true, hw::kRegNodeId, 1}});
  EXPECT_NE(e.find("read-only"), std::string::npos) << e;
  EXPECT_THROW(pkg.Read(99, hw::kRegId), RegisterError);
  // Router registers' texts from the register description, with this node's parameters.
  e = RefusalOf(pkg, {{n, true, hw::kRegCtrl, 3}});
  EXPECT_NE(e.find("CTRL = 0x00000003: allowed: topology 0..2 in [1:0], dynamic VCs in [4], "
                   "size-1 in [12:8] and [20:16] matching the node's coordinates, no other bits "
                   "(mask 0x001f1f13)"),
            std::string::npos)
      << e;
  e = RefusalOf(pkg, {{n, true, hw::RouteAddr(3, 1), 0x20}});
  EXPECT_NE(e.find("ROUTE[flow 3][in XP] = 0x00000020: the value is an output-port mask below "
                   "0x20"),
            std::string::npos)
      << e;
  e = RefusalOf(pkg, {{n, true, hw::kRegPassthruBase + 2, hw::PassthruValue(true, 7)}});
  EXPECT_NE(e.find("PASSTHRU[XM] = 0x00000701: allowed: enable in bit 0, output port 0 .. 4"),
            std::string::npos)
      << e;
  // Node status records the refusals (CFG_ERR), write 1 clears it.
  EXPECT_NE(pkg.Read(n, hw::kRegNodeStatus) & (1u << hw::kNodeStatusCfgErrBit), 0u);
  pkg.Write(n, hw::kRegNodeStatus, hw::kNodeStatusMask);
  EXPECT_EQ(pkg.Read(n, hw::kRegNodeStatus), 0u);
}

// A port that carries traffic cannot be switched to another link: both the sending side (an
// output that owns a VC and has credits out) and the receiving side (an input with flits
// buffered) refuse, nothing changes, and once the traffic has drained the same writes pass.
TEST(PackageRegisters, PortSelChangeIsRefusedWhileThePortCarriesTraffic) {
  Package pkg(Cfg(Topology::kAries, 4), aries::sysc::ShippedNodeModels(), 1);
  const unsigned a = pkg.NodeId(0, 0), b = pkg.NodeId(1, 0);
  pkg.Write(a, hw::kRegBypass, hw::BypassValue(0x1, 0));
  pkg.Write(b, hw::kRegBypass, hw::BypassValue(0x1, 0));
  TrafficConfig tc;
  tc.rate = 0.5;
  tc.pattern = Pattern::kHotspot;
  tc.hotspot = b;
  tc.hotspot_share = 1.0;
  NetTraffic t(pkg, tc);
  t.SetSinkStalled(b, true);
  for (int i = 0; i < 600; ++i) pkg.Step();
  const uint32_t out_side = hw::PortSelValue(0, 1);  // a's XP output onto x-track 0
  const uint32_t in_side = hw::PortSelValue(1, 0);   // b's XM input from x-track 0
  std::string e = RefusalOf(pkg, {{a, true, hw::kRegPortSelBase + hw::kPortXP, out_side}});
  EXPECT_NE(e.find("PORTSEL[XP]"), std::string::npos) << e;
  EXPECT_NE(e.find("not quiet"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(a, hw::kRegPortSelBase + hw::kPortXP), 0u);
  e = RefusalOf(pkg, {{b, true, hw::kRegPortSelBase + hw::kPortXM, in_side}});
  EXPECT_NE(e.find("PORTSEL[XM]"), std::string::npos) << e;
  EXPECT_NE(e.find("not quiet"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(b, hw::kRegPortSelBase + hw::kPortXM), 0u);
  // Drain, then the same writes are accepted and every flit was delivered.
  t.StopInjection();
  t.SetSinkStalled(b, false);
  for (int i = 0; i < 20000 && (t.scoreboard().outstanding() != 0 || !pkg.Quiet()); ++i) {
    pkg.Step();
  }
  ASSERT_EQ(t.scoreboard().outstanding(), 0u);
  ASSERT_TRUE(pkg.Quiet());
  pkg.Write(a, hw::kRegPortSelBase + hw::kPortXP, out_side);
  pkg.Write(b, hw::kRegPortSelBase + hw::kPortXM, in_side);
  EXPECT_EQ(pkg.Read(a, hw::kRegPortSelBase + hw::kPortXP), out_side);
  EXPECT_EQ(pkg.Read(b, hw::kRegPortSelBase + hw::kPortXM), in_side);
  // The refusals were recorded (NODE_STATUS.CFG_ERR) and nothing else went wrong.
  for (unsigned n : {a, b}) {
    EXPECT_EQ(pkg.Read(n, hw::kRegNodeStatus), 1u << hw::kNodeStatusCfgErrBit);
    pkg.Write(n, hw::kRegNodeStatus, hw::kNodeStatusMask);
  }
  EXPECT_FALSE(pkg.AnyError());
}

TEST(PackageRegisters, FbflyNodeHasNoMuxes) {
  Package pkg(Cfg(Topology::kFbfly, 4), aries::sysc::ShippedNodeModels(), 1);
  const std::string e = RefusalOf(pkg, {{0, true, hw::kRegPortSelBase + 1, 0}});
  EXPECT_NE(e.find("no port muxes"), std::string::npos) << e;
  EXPECT_EQ(pkg.Read(0, hw::kRegNodeTracks), 0u);
}

TEST(PackageConfigErrors, ImpossibleConfigurationsAreRefused) {
  auto msg = [](PackageConfig c) -> std::string {
    try {
      Package p(c, aries::sysc::ShippedNodeModels(), 1);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(msg(Cfg(Topology::kMesh, 33)).find("package.k = 33: allowed 2 .. 32"),
            std::string::npos);
  EXPECT_NE(msg(Cfg(Topology::kMesh, 1)).find("package.k = 1"), std::string::npos);
  EXPECT_NE(msg(Cfg(Topology::kFbfly, 9)).find("router ports"), std::string::npos);
  PackageConfig c = Cfg(Topology::kAries, 4);
  c.tracks = 3;
  EXPECT_NE(msg(c).find("package.tracks = 3"), std::string::npos);
  // The node's link input register is a link's last wire cycle: a link needs at least one.
  PackageConfig z = Cfg(Topology::kMesh, 4);
  z.link_latency = 0;
  EXPECT_NE(msg(z).find("package.link_latency = 0: allowed 1 or more"), std::string::npos);
  z.link_latency = 1;
  EXPECT_EQ(msg(z), "");
}

// One traffic run and what it did: every latency figure, cycle, channel count and every
// activity counter of every node, data toggles included (`fp`), and how often each node was
// evaluated (which idle-node skipping changes on purpose). Random bypass segments on ARIES.
struct RunKnobs {
  Topology topo = Topology::kAries;
  bool systemc = false;
  bool skip = true;
  unsigned threads = 1;
  double rate = 0.05;
  double sink_accept = 1.0;
  aries::sysc::NodeUse use = aries::sysc::NodeUse::kAny;
  bool dynamic_vcs = false;
  uint64_t seed = 3;
  unsigned k = 4;
  unsigned link_latency = 0;  // 0: the package's default
  bool count_toggles = true;
  aries::sysc::NodeImpl impl = aries::sysc::NodeImpl::kRtl;
  unsigned carried_lanes = 0;  // 0: every lane (with fewer: no toggles)
};
struct RunPrint {
  std::vector<uint64_t> fp, evaluated;
  std::vector<size_t> toggles_at;  // where fp holds the buffer and link toggles
};
RunPrint Fingerprint(const RunKnobs& kn, aries::sysc::Transport* net = nullptr) {
  PackageConfig c = Cfg(kn.topo, kn.k);
  if (kn.link_latency != 0) c.link_latency = kn.link_latency;
  c.skip_idle = kn.skip;
  c.threads = kn.threads;
  c.dynamic_vcs = kn.dynamic_vcs;
  c.count_toggles = kn.count_toggles;
  Package pkg(c, aries::sysc::ShippedNodeModels(kn.use, kn.impl, kn.carried_lanes), kn.seed, net);
  EXPECT_EQ(pkg.shape().coll_engine, kn.use == aries::sysc::NodeUse::kAny);
  if (net) {  // this rank's rows only
    unsigned local = 0;
    for (unsigned n = 0; n < pkg.num_nodes(); ++n) local += pkg.IsLocal(n) ? 1 : 0;
    auto first_row = [&](unsigned r) { return (r * kn.k + net->ranks() - 1) / net->ranks(); };
    EXPECT_EQ(local, kn.k * (first_row(net->rank() + 1) - first_row(net->rank())));
  }
  if (kn.topo == Topology::kAries) {
    std::mt19937_64 rng(kn.seed);
    EXPECT_GT(aries::tb::ApplyRandomBypass(pkg, rng), 0u);
  }
  TrafficConfig tc;
  tc.rate = kn.rate;
  tc.sink_accept = kn.sink_accept;
  tc.seed = kn.seed;
  NetTraffic traffic(pkg, tc);
  std::unique_ptr<aries::sysc::PackageSc> sc;
  aries::tb::Advance adv;
  if (kn.systemc) {
    sc = std::make_unique<aries::sysc::PackageSc>("pkg", &pkg);
    adv = [&sc](uint64_t n) { sc->Run(n); };
  }
  RunConfig rc;
  rc.warmup = 100;
  rc.measure = 1500;
  rc.drain_limit = 20000;
  const auto r = aries::tb::RunTraffic(pkg, traffic, rc, adv);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.flits_created, r.flits_ejected);
  RunPrint p;
  p.fp = {r.flits_created,
          r.flits_ejected,
          r.cycles,
          static_cast<uint64_t>(r.latency.mean * 1000),
          static_cast<uint64_t>(r.latency.net_mean * 1000),
          static_cast<uint64_t>(r.latency.p50),
          static_cast<uint64_t>(r.latency.p99),
          static_cast<uint64_t>(r.latency.max),
          r.latency.packets};
  for (const auto* ch : pkg.Channels()) p.fp.push_back(ch->flits_sent());
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    const auto& k = pkg.counters(n);
    EXPECT_EQ(k.engine_requests + k.engine_responses + k.engine_out, 0u) << n;
    p.fp.insert(p.fp.end(), {k.injected, k.ejected, k.buffer_writes, k.xbar_traversals, k.va_grants,
                             k.buffer_toggles, k.portsel_changes, k.bypass_changes});
    p.toggles_at.push_back(p.fp.size() - 3);
    p.fp.insert(p.fp.end(), k.link_flits.begin(), k.link_flits.end());
    for (uint64_t t : k.link_toggles) {
      p.toggles_at.push_back(p.fp.size());
      p.fp.push_back(t);
    }
    p.evaluated.push_back(k.evaluated);
  }
  return p;
}

// The same traffic stepped by a plain loop, by the SystemC scheduler, without idle-node
// skipping, and with node models evaluated on several threads gives the same run.
TEST(PackageKernels, SystemCSchedulerEqualsPlainLoop) {
  RunKnobs sc;
  sc.systemc = true;
  const RunPrint a = Fingerprint(sc), b = Fingerprint({});
  EXPECT_EQ(a.fp, b.fp);
  EXPECT_EQ(a.evaluated, b.evaluated);
}

// Without toggle counting (run and sweep, where no energy is computed) the run is the same and
// only the toggle counters, which only energy reads, stay 0.
TEST(PackageKernels, ToggleCountingOffChangesOnlyTheToggles) {
  RunKnobs off;
  off.count_toggles = false;
  off.rate = 0.2;
  RunKnobs on = off;
  on.count_toggles = true;
  RunPrint a = Fingerprint(on), b = Fingerprint(off);
  EXPECT_EQ(a.evaluated, b.evaluated);
  ASSERT_EQ(a.toggles_at, b.toggles_at);
  uint64_t counted = 0;
  for (size_t i : a.toggles_at) {
    counted += a.fp[i];
    EXPECT_EQ(b.fp[i], 0u) << i;
    a.fp[i] = 0;  // every other counter must be equal
  }
  EXPECT_GT(counted, 0u);
  EXPECT_EQ(a.fp, b.fp);
}

TEST(PackageKernels, SkippingIdleNodesChangesNothing) {
  RunKnobs all;
  all.skip = false;
  EXPECT_EQ(Fingerprint({}).fp, Fingerprint(all).fp);
}

// Partitions stepped on threads in windows of the lookahead give the run of one thread: three
// threads on any machine (more than CI's two cores, so partitions interleave), busy enough that
// most nodes tick every cycle; two at low load; more threads than rows of nodes.
TEST(PackageKernels, ParallelNodeEvaluationChangesNothing) {
  for (auto [rate, threads] : {std::pair{0.3, 3u}, std::pair{0.05, 2u}, std::pair{0.2, 9u}}) {
    RunKnobs one, many;
    one.rate = many.rate = rate;
    many.threads = threads;
    const RunPrint a = Fingerprint(one), b = Fingerprint(many);
    EXPECT_EQ(a.fp, b.fp) << rate;
    EXPECT_EQ(a.evaluated, b.evaluated) << rate;
  }
}

// A channel's sender and receiver each run a whole window of lookahead() cycles before the
// other (as partitions on two threads may): the receiver still sees every flit and credit in
// the cycle it arrives, none overwritten by what the sender wrote for later cycles.
TEST(PackageChannel, SenderAndReceiverMayRunALookaheadApart) {
  for (unsigned latency : {1u, 4u, 10u}) {
    aries::sysc::Channel ch("c", latency, 1, 2, 0, 0, 1, 0);
    const unsigned w = ch.lookahead();
    EXPECT_EQ(w, latency);  // 1 + latency - 1 input register
    unsigned seen = 0;
    for (uint64_t t = 0; t < 12 * w; t += w) {
      for (uint64_t c = t; c < t + w; ++c) {  // the sender's window: a flit every cycle
        // (a two-word channel; the array is a shipped flit's size, which CopyFlit's shipped
        // branch, never taken here, would read)
        uint32_t f[1 + aries::hw::kVaries_nodeParams.Lanes] = {static_cast<uint32_t>(c), 7};
        ch.SendFlit(c, f);
        ch.SendCredit(c, static_cast<uint8_t>(1 + c % 200));
      }
      for (uint64_t c = t; c < t + w; ++c) {  // then the receiver's
        const uint32_t* f = ch.FlitAt(c);
        if (c < w) {
          EXPECT_EQ(f, nullptr) << c;
          EXPECT_EQ(ch.CreditAt(c), 0) << c;
          continue;
        }
        ASSERT_NE(f, nullptr) << "latency " << latency << " cycle " << c;
        EXPECT_EQ(f[0], c - w);
        EXPECT_EQ(ch.CreditAt(c), 1 + (c - w) % 200);
        ++seen;
      }
    }
    EXPECT_EQ(seen, 11 * w);
  }
}

// Windows longer than a cycle: 10-cycle links let partitions run ten cycles apart (the random
// bypass segments on ARIES are longer still); 1-cycle links one. Mesh, torus with dynamic VCs
// (dateline classes) and ARIES, on 8 x 8 at a load where windows carry many flits and credits
// across the partition borders, under back-pressure from slow sinks.
TEST(PackageKernels, PartitionsRunTheirLookaheadApartAndChangeNothing) {
  struct Case {
    Topology topo;
    unsigned link_latency, threads;
    bool dynamic_vcs;
    unsigned lookahead;
  };
  for (const Case& c :
       {Case{Topology::kMesh, 10, 2, false, 10}, Case{Topology::kMesh, 1, 3, false, 1},
        Case{Topology::kTorus, 4, 4, true, 4}, Case{Topology::kAries, 10, 3, false, 10}}) {
    SCOPED_TRACE(testing::Message() << aries::coll::TopologyName(c.topo) << " links "
                                    << c.link_latency << ", " << c.threads << " threads");
    RunKnobs one;
    one.topo = c.topo;
    one.k = 8;
    one.link_latency = c.link_latency;
    one.dynamic_vcs = c.dynamic_vcs;
    one.rate = 0.25;
    one.sink_accept = 0.8;
    RunKnobs many = one;
    many.threads = c.threads;
    const RunPrint a = Fingerprint(one), b = Fingerprint(many);
    EXPECT_EQ(a.fp, b.fp);
    EXPECT_EQ(a.evaluated, b.evaluated);

    PackageConfig pc = Cfg(c.topo, 8);
    pc.link_latency = c.link_latency;
    pc.threads = c.threads;
    Package pkg(pc, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1);
    EXPECT_EQ(pkg.num_partitions(), c.threads);
    EXPECT_EQ(pkg.lookahead(), c.lookahead);
    EXPECT_EQ(pkg.PartitionOf(0), 0u);
    EXPECT_EQ(pkg.PartitionOf(63), c.threads - 1);
    pc.threads = 1;
    Package serial(pc, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1);
    EXPECT_EQ(serial.lookahead(), Package::kNoLookahead);
  }
}

// The package distributed over ranks (threads of this process joined by ThreadTransport, the
// same calls the MPI ranks of `aries run` make): every rank steps its rows and the run is the
// one-process run, down to every node's counters, which every rank has at the end.
TEST(PackageDistributed, RanksGiveTheOneProcessRun) {
  struct Case {
    Topology topo;
    unsigned link_latency, ranks, threads;
  };
  for (const Case& c : {Case{Topology::kMesh, 1, 2, 1}, Case{Topology::kAries, 10, 3, 1},
                        Case{Topology::kTorus, 4, 2, 2}}) {
    SCOPED_TRACE(testing::Message()
                 << aries::coll::TopologyName(c.topo) << " links " << c.link_latency << ", "
                 << c.ranks << " ranks x " << c.threads << " threads");
    RunKnobs kn;
    kn.topo = c.topo;
    kn.k = 8;
    kn.link_latency = c.link_latency;
    kn.rate = 0.25;
    kn.sink_accept = 0.8;
    kn.use = aries::sysc::NodeUse::kPointToPoint;
    const RunPrint one = Fingerprint(kn);
    kn.threads = c.threads;
    auto hub = std::make_shared<aries::sysc::ThreadTransport::Hub>(c.ranks);
    std::vector<RunPrint> got(c.ranks);
    std::vector<std::thread> ranks;
    for (unsigned r = 0; r < c.ranks; ++r) {
      ranks.emplace_back([&, r] {
        aries::sysc::ThreadTransport net(hub, r);
        got[r] = Fingerprint(kn, &net);
      });
    }
    for (auto& t : ranks) t.join();
    for (unsigned r = 0; r < c.ranks; ++r) {
      EXPECT_EQ(got[r].fp, one.fp) << "rank " << r;
      EXPECT_EQ(got[r].evaluated, one.evaluated) << "rank " << r;
    }
  }
}

// An error inside a window (here an endpoint that throws 5 cycles in) stops the run on every
// thread and every rank: the thread's own message where it happened, "another rank failed" on
// the others, no rank left waiting; the package then refuses to run on.
struct ThrowingEndpoint final : aries::sysc::Endpoint {
  uint64_t at = 0;  // the endpoint cycle it throws in
  bool Inject(uint64_t cycle, unsigned, uint32_t*) override {
    if (cycle == at) throw std::runtime_error("endpoint failed 5 cycles in");
    return false;
  }
  uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
  void AfterEdge(uint64_t, const aries::sysc::EndpointEdge&) override {}
};

TEST(PackageDistributed, AnErrorInAWindowStopsEveryThreadAndRank) {
  auto run = [](Package& pkg, ThrowingEndpoint& ep) {
    ep.at = pkg.endpoint_cycle() + 5;
    pkg.AttachEndpoint(pkg.num_nodes() - 1, &ep);  // the last row: the last partition
    std::string what;
    try {
      pkg.Run(50);
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    std::string again;
    try {
      pkg.Run(1);
    } catch (const std::logic_error& e) {
      again = e.what();
    }
    EXPECT_NE(again.find("stopped on an error"), std::string::npos) << again;
    pkg.AttachEndpoint(pkg.num_nodes() - 1, nullptr);
    return what;
  };
  PackageConfig c = Cfg(Topology::kMesh, 4);
  c.threads = 2;
  {
    Package pkg(c, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1);
    ThrowingEndpoint ep;
    EXPECT_EQ(run(pkg, ep), "endpoint failed 5 cycles in");
  }
  c.threads = 1;
  auto hub = std::make_shared<aries::sysc::ThreadTransport::Hub>(2);
  std::string what[2];
  std::vector<std::thread> ranks;
  for (unsigned r = 0; r < 2; ++r) {
    ranks.emplace_back([&, r] {
      aries::sysc::ThreadTransport net(hub, r);
      Package pkg(c, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1, &net);
      ThrowingEndpoint ep;
      what[r] = run(pkg, ep);
    });
  }
  for (auto& t : ranks) t.join();
  EXPECT_NE(what[0].find("another rank of the package failed"), std::string::npos) << what[0];
  EXPECT_EQ(what[1], "endpoint failed 5 cycles in");
}

// Point-to-point runs use the node model without the collective engine and tracing (a traced
// run takes the full model): the same traffic (back-pressure, random bypass segments on ARIES,
// static and dynamic VCs) on both gives the same run, down to how often each node was evaluated.
TEST(PackageModels, PointToPointModelGivesTheSameRunAsTheFullOne) {
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries}) {
    for (bool dyn : {false, true}) {
      SCOPED_TRACE(testing::Message() << aries::coll::TopologyName(t) << (dyn ? " dynamic" : ""));
      RunKnobs full;
      full.topo = t;
      full.rate = 0.35;
      full.sink_accept = 0.7;
      full.dynamic_vcs = dyn;
      full.seed = 5;
      RunKnobs p2p = full;
      p2p.use = aries::sysc::NodeUse::kPointToPoint;
      const RunPrint a = Fingerprint(p2p), b = Fingerprint(full);
      EXPECT_EQ(a.fp, b.fp);
      EXPECT_EQ(a.evaluated, b.evaluated);
    }
  }
}

// A model whose NodeShape disagrees with what its registers say it was built with is refused,
// naming the node, the register and the shape's field: a model built with other parameters
// than its C++ description (VCs, lanes, buffers, an engine) cannot run.
struct MisdescribedModel final : aries::sysc::NodeModel {
  std::unique_ptr<aries::sysc::NodeModel> real;
  aries::sysc::NodeShape shape_;
  const aries::sysc::NodeShape& shape() const override { return shape_; }
  void Reset(unsigned x, unsigned y) override { real->Reset(x, y); }
  void Tick(const aries::sysc::NodeIn& in, aries::sysc::NodeOut& out) override {
    real->Tick(in, out);
  }
  void Trace(VerilatedFstC* fst) override { real->Trace(fst); }
};

TEST(PackageModels, AShapeThatDisagreesWithTheRegistersIsRefused) {
  auto refusal = [](std::function<void(aries::sysc::NodeShape&)> lie, aries::sysc::NodeUse use) {
    const auto shipped = aries::sysc::ShippedNodeModels(use);
    auto factory = [&](unsigned ports, unsigned local_ports, VerilatedContext* ctx,
                       const std::string& name) {
      auto m = std::make_unique<MisdescribedModel>();
      m->real = shipped(ports, local_ports, ctx, name);
      m->shape_ = m->real->shape();
      lie(m->shape_);
      return std::unique_ptr<aries::sysc::NodeModel>(std::move(m));
    };
    try {
      Package pkg(Cfg(Topology::kMesh, 2), factory, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  using aries::sysc::NodeShape;
  using aries::sysc::NodeUse;
  EXPECT_EQ(refusal([](NodeShape&) {}, NodeUse::kAny), "");
  EXPECT_EQ(refusal([](NodeShape&) {}, NodeUse::kPointToPoint), "");
  EXPECT_EQ(refusal([](NodeShape& s) { s.buffer_depth = 16; }, NodeUse::kAny),
            "node model of node0: register 0x0003 reads 32, but its shape says buffer_depth = 16");
  EXPECT_EQ(refusal([](NodeShape& s) { s.lanes = 8; }, NodeUse::kPointToPoint),
            "node model of node0: register 0x0005 reads 16, but its shape says lanes = 8");
  EXPECT_EQ(refusal([](NodeShape& s) { s.coll_engine = true; }, NodeUse::kPointToPoint),
            "node model of node0: it has no collective engine (ENG_ID refused), but its shape says "
            "coll_engine = true");
  EXPECT_NE(refusal([](NodeShape& s) { s.coll_ids = 4; }, NodeUse::kAny).find("coll_ids"),
            std::string::npos);
}

// The traffic scoreboard on its own: packets of one source, destination and VC must arrive in
// the order they were made (static VCs), unless it is told VCs are dynamic; a flit is never
// accepted twice.
std::vector<uint32_t> FlitWords(const aries::tb::Packet& p, unsigned idx) {
  hw::Flit f;
  f.head = idx == 0;
  f.tail = idx + 1 == p.len;
  f.vc = p.vc;
  std::vector<uint32_t> w(3);
  w[0] = hw::PackHeader(f);
  w[1] = static_cast<uint32_t>(p.id);
  w[2] = aries::tb::NetScoreboard::Check(p.id, idx, 1);
  return w;
}

std::vector<std::string> EjectSwapped(bool ordered) {
  aries::tb::NetScoreboard sb(2, ordered);
  aries::tb::Packet a{}, b{}, c{};
  a.id = 1, b.id = 2, c.id = 3;
  for (auto* p : {&a, &b, &c}) {
    p->src = 0;
    p->dst = 3;
    p->vc = 1;
    p->len = 1;
    sb.OnCreate(*p);
  }
  EXPECT_TRUE(sb.OnEject(3, 10, FlitWords(b, 0).data()).has_value());
  EXPECT_TRUE(sb.OnEject(3, 11, FlitWords(a, 0).data()).has_value());
  EXPECT_TRUE(sb.OnEject(3, 12, FlitWords(c, 0).data()).has_value());
  EXPECT_EQ(sb.outstanding(), 0u);
  return sb.errors();
}

TEST(NetScoreboard, OvertakingIsReportedOnlyWithStaticVcs) {
  const auto errs = EjectSwapped(true);
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_NE(errs[0].find("overtook packet 1 (packet 2 of that stream arrived before it)"),
            std::string::npos)
      << errs[0];
  EXPECT_TRUE(EjectSwapped(false).empty());
}

// The stream table grows past its first 1,024 entries (512 streams) and keeps every stream:
// an overtaking on the first stream is still seen after 599 more streams made it grow.
TEST(NetScoreboard, OvertakingIsSeenAfterTheStreamTableGrows) {
  aries::tb::NetScoreboard sb(2, true);
  std::vector<aries::tb::Packet> ps;
  for (unsigned round = 0; round < 2; ++round) {
    for (unsigned s = 0; s < 600; ++s) {  // one packet of each stream per round
      aries::tb::Packet p{};
      p.id = 1 + ps.size();
      p.src = s % 30;
      p.dst = 30 + s / 30;
      p.vc = 1;
      p.len = 1;
      sb.OnCreate(p);
      ps.push_back(p);
    }
  }
  auto eject = [&](size_t i, uint64_t cycle) {
    EXPECT_TRUE(sb.OnEject(ps[i].dst, cycle, FlitWords(ps[i], 0).data()).has_value()) << i;
  };
  eject(600, 10);                     // stream 0's second packet first
  for (size_t i = 1; i < 600; ++i) {  // every other stream in order
    eject(i, 11);
    eject(600 + i, 12);
  }
  eject(0, 13);  // then stream 0's first
  EXPECT_EQ(sb.outstanding(), 0u);
  const auto errs = sb.errors();
  ASSERT_EQ(errs.size(), 1u) << (errs.empty() ? "no error" : errs[0]);
  EXPECT_NE(errs[0].find("overtook packet 1 (packet 601 of that stream arrived before it)"),
            std::string::npos)
      << errs[0];
}

TEST(NetScoreboard, DuplicateAndStrayFlitsAreReported) {
  aries::tb::NetScoreboard sb(2, true);
  aries::tb::Packet a{};
  a.id = 7;
  a.src = 1;
  a.dst = 2;
  a.len = 1;
  sb.OnCreate(a);
  EXPECT_TRUE(sb.OnEject(2, 5, FlitWords(a, 0).data()).has_value());
  EXPECT_FALSE(sb.OnEject(2, 6, FlitWords(a, 0).data()).has_value());
  ASSERT_EQ(sb.errors().size(), 1u);
  EXPECT_NE(sb.errors()[0].find("unknown or finished packet 7"), std::string::npos);
  EXPECT_EQ(sb.flits_ejected(), 2u);
}

TEST(PackageModels, PointToPointModelRefusesWaveforms) {
  Package pkg(Cfg(Topology::kMesh, 2),
              aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint), 1);
  try {
    pkg.OpenTrace(testing::TempDir() + "/p2p.fst", {}, 0, 10);
    FAIL() << "traced a model built without tracing";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("built without tracing"), std::string::npos) << e.what();
  }
  for (int i = 0; i < 3; ++i) pkg.Step();  // still runs, untraced
  EXPECT_TRUE(pkg.Quiet());
}

TEST(PackageKernels, ThreadCountIsChecked) {
  PackageConfig c = Cfg(Topology::kMesh, 2);
  c.threads = 0;
  try {
    Package p(c, aries::sysc::ShippedNodeModels(), 1);
    FAIL() << "threads = 0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("threads = 0: allowed 1 .. 64"), std::string::npos)
        << e.what();
  }
}

// The pool runs every index once per call, and each index on the same thread every call (the
// calling thread takes 0, threads(), ...), so a partition's state stays in one core's cache.
TEST(PackageKernels, ThePoolRunsEachIndexOnceOnTheSameThreadEveryCall) {
  aries::sysc::TickPool pool(3);
  ASSERT_EQ(pool.threads(), 3u);
  std::vector<std::thread::id> first;
  for (int call = 0; call < 50; ++call) {
    std::vector<std::thread::id> ran_on(7);
    std::vector<int> calls(7, 0);
    pool.Run(7, [&](unsigned i) {
      ran_on[i] = std::this_thread::get_id();
      ++calls[i];
    });
    EXPECT_EQ(calls, std::vector<int>(7, 1)) << "call " << call;
    if (call == 0) {
      first = ran_on;
    } else {
      EXPECT_EQ(ran_on, first) << "call " << call;
    }
  }
  for (unsigned i : {0u, 3u, 6u}) EXPECT_EQ(first[i], std::this_thread::get_id()) << i;
  EXPECT_NE(first[1], first[0]);
  EXPECT_NE(first[2], first[0]);
  EXPECT_NE(first[1], first[2]);
  EXPECT_EQ(first[4], first[1]);
  EXPECT_EQ(first[5], first[2]);
  // Fewer indices than threads: the last worker has none, and the call still returns.
  std::vector<std::thread::id> two(2);
  pool.Run(2, [&](unsigned i) { two[i] = std::this_thread::get_id(); });
  EXPECT_EQ(two[0], first[0]);
  EXPECT_EQ(two[1], first[1]);
}

// A sink that stops accepting: the watchdog reports the stuck packets and where they wait.
TEST(PackageWatchdog, ReportsStuckPackets) {
  Package pkg(Cfg(Topology::kMesh, 2), aries::sysc::ShippedNodeModels(), 1);
  TrafficConfig tc;
  tc.rate = 0.5;
  tc.pattern = Pattern::kHotspot;
  tc.hotspot = 3;
  tc.hotspot_share = 1.0;
  NetTraffic t(pkg, tc);
  t.SetSinkStalled(3, true);
  RunConfig rc;
  rc.warmup = 0;
  rc.measure = 3000;
  rc.watchdog = 500;
  const auto r = aries::tb::RunTraffic(pkg, t, rc);
  EXPECT_TRUE(r.stuck);
  EXPECT_NE(r.stuck_report.find("packet"), std::string::npos) << r.stuck_report;
  EXPECT_NE(r.stuck_report.find("node3: flits wait in input ports"), std::string::npos)
      << r.stuck_report;
}

TEST(PackageTrace, ReadsTraceFilesAndRefusesBadLines) {
  const std::string path = testing::TempDir() + "/t.trace";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("# cycle src dst flits\n10 0 3 2\n12 1 2 1\n", f);
  std::fclose(f);
  const auto v = aries::tb::ReadTrace(path, 4);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].dst, 3u);
  f = std::fopen(path.c_str(), "w");
  std::fputs("10 0 7 2\n", f);
  std::fclose(f);
  try {
    aries::tb::ReadTrace(path, 4);
    ADD_FAILURE() << "accepted node 7 of 4";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":1: node ids are 0 .. 3"), std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

// Uniform random traffic on an 8x8 mesh with dimension-order routing, 4 VCs x 32 flits: the
// bisection bound is 4/K = 0.5 flits/node/cycle (Dally & Towles, Principles and Practices of
// Interconnection Networks, section 3.3); DOR with a few VCs saturates at roughly 80-90% of it.
// Offered 0.7, the accepted rate must lie in [0.35, 0.5].
TEST(PackageSaturation, Mesh8x8UniformIsInTheDorRange) {
  Package pkg(Cfg(Topology::kMesh, 8), aries::sysc::ShippedNodeModels(), Seed());
  TrafficConfig tc;
  tc.rate = 0.7;
  NetTraffic t(pkg, tc);
  RunConfig rc;
  rc.warmup = 1000;
  rc.measure = 2000;
  rc.drain_limit = 0;
  const auto r = aries::tb::RunTraffic(pkg, t, rc);
  EXPECT_TRUE(r.saturated);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_GE(r.accepted, 0.35);
  EXPECT_LE(r.accepted, 0.5);
  std::printf("accepted %.4f flits/node/cycle at offered %.4f\n", r.accepted, r.offered);
}

}  // namespace

// The fast node model behind the package (sim.model = fast), and both models in lockstep
// (sim.model = check): the same traffic gives the same latencies, cycles and activity counters
// of every node as the Verilated RTL, and no pin of any node differs in any cycle.
struct ModelRun {
  aries::tb::RunResult r;
  std::vector<aries::sysc::NodeCounters> counters;
};

// carried_lanes (0: all): the fast model moving the header and that many lanes
// (sim.payload = id), without the data toggles.
ModelRun RunOnModel(Topology t, unsigned k, bool dynamic_vcs, bool bypass,
                    aries::sysc::NodeImpl impl, unsigned carried_lanes = 0) {
  const uint64_t seed = Seed();
  PackageConfig pc = Cfg(t, k);
  pc.dynamic_vcs = dynamic_vcs;
  pc.threads = 2;
  if (carried_lanes != 0) pc.count_toggles = false;
  Package pkg(
      pc, aries::sysc::ShippedNodeModels(aries::sysc::NodeUse::kPointToPoint, impl, carried_lanes),
      seed);
  if (carried_lanes != 0) {
    EXPECT_EQ(pkg.shape().words(), 1 + carried_lanes);
  }
  if (bypass) {
    std::mt19937_64 rng(seed);
    EXPECT_GT(aries::tb::ApplyRandomBypass(pkg, rng), 0u);
  }
  TrafficConfig tc;
  tc.rate = 0.35;
  tc.packet_len = 4;
  tc.sink_accept = 0.8;
  tc.seed = seed;
  NetTraffic traffic(pkg, tc);
  ModelRun m;
  m.r = RunDelivered(pkg, traffic, 300, 1500);
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) m.counters.push_back(pkg.counters(n));
  return m;
}

void SameOnEveryModel(Topology t, unsigned k, bool dynamic_vcs, bool bypass) {
  using aries::sysc::NodeImpl;
  const ModelRun rtl = RunOnModel(t, k, dynamic_vcs, bypass, NodeImpl::kRtl);
  EXPECT_GT(rtl.r.flits_created, 2000u);
  for (NodeImpl impl : {NodeImpl::kFast, NodeImpl::kCheck}) {
    ModelRun m;
    try {
      m = RunOnModel(t, k, dynamic_vcs, bypass, impl);
    } catch (const aries::sysc::NodeMismatch& e) {
      FAIL() << e.what();
    }
    const char* name = aries::sysc::NodeImplName(impl);
    EXPECT_EQ(m.r.cycles, rtl.r.cycles) << name;
    EXPECT_EQ(m.r.flits_ejected, rtl.r.flits_ejected) << name;
    EXPECT_EQ(m.r.latency.packets, rtl.r.latency.packets) << name;
    EXPECT_EQ(m.r.latency.mean, rtl.r.latency.mean) << name;
    EXPECT_EQ(m.r.latency.max, rtl.r.latency.max) << name;
    EXPECT_EQ(m.r.node_evaluations, rtl.r.node_evaluations) << name;
    for (unsigned n = 0; n < rtl.counters.size(); ++n) {
      const auto& a = rtl.counters[n];
      const auto& b = m.counters[n];
      EXPECT_EQ(a.buffer_writes, b.buffer_writes) << name << " node " << n;
      EXPECT_EQ(a.buffer_toggles, b.buffer_toggles) << name << " node " << n;
      EXPECT_EQ(a.va_grants, b.va_grants) << name << " node " << n;
      EXPECT_EQ(a.link_flits, b.link_flits) << name << " node " << n;
      EXPECT_EQ(a.link_toggles, b.link_toggles) << name << " node " << n;
      EXPECT_EQ(a.portsel_changes, b.portsel_changes) << name << " node " << n;
      EXPECT_EQ(a.bypass_changes, b.bypass_changes) << name << " node " << n;
    }
  }
  // The fast model moving the packet id lane alone: the same cycles, counts and latencies.
  const ModelRun id = RunOnModel(t, k, dynamic_vcs, bypass, NodeImpl::kFast, 1);
  EXPECT_TRUE(id.r.ok());
  EXPECT_EQ(id.r.cycles, rtl.r.cycles);
  EXPECT_EQ(id.r.flits_ejected, rtl.r.flits_ejected);
  EXPECT_EQ(id.r.flit_hops, rtl.r.flit_hops);
  EXPECT_EQ(id.r.latency.mean, rtl.r.latency.mean);
  EXPECT_EQ(id.r.latency.max, rtl.r.latency.max);
  EXPECT_EQ(id.r.node_evaluations, rtl.r.node_evaluations);
  for (unsigned n = 0; n < rtl.counters.size(); ++n) {
    EXPECT_EQ(id.counters[n].buffer_writes, rtl.counters[n].buffer_writes) << "node " << n;
    EXPECT_EQ(id.counters[n].va_grants, rtl.counters[n].va_grants) << "node " << n;
    EXPECT_EQ(id.counters[n].link_flits, rtl.counters[n].link_flits) << "node " << n;
  }
}

TEST(PackageModels, FastEqualsRtlMesh) { SameOnEveryModel(Topology::kMesh, 4, false, false); }
TEST(PackageModels, FastEqualsRtlTorusDynamicVcs) {
  SameOnEveryModel(Topology::kTorus, 4, true, false);
}
TEST(PackageModels, FastEqualsRtlAriesRandomBypass) {
  SameOnEveryModel(Topology::kAries, 4, false, true);
}
TEST(PackageModels, FastEqualsRtlFbfly) { SameOnEveryModel(Topology::kFbfly, 4, true, false); }

TEST(PackageModels, FastModelStandsForEveryShippedModelButHasNoWaveforms) {
  using aries::sysc::NodeImpl;
  using aries::sysc::NodeUse;
  VerilatedContext ctx;
  auto full = aries::sysc::ShippedNodeModels(NodeUse::kAny, NodeImpl::kFast)(5, 1, &ctx, "a");
  EXPECT_TRUE(full->shape().coll_engine);
  auto p2p =
      aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint, NodeImpl::kFast)(5, 1, &ctx, "b");
  EXPECT_FALSE(p2p->shape().coll_engine);
  auto fb = aries::sysc::ShippedNodeModels(NodeUse::kAny, NodeImpl::kFast)(15, 1, &ctx, "c");
  EXPECT_EQ(fb->shape().num_ports, 15u);
  EXPECT_THROW(aries::sysc::ShippedNodeModels(NodeUse::kAny, NodeImpl::kFast)(31, 1, &ctx, "d"),
               std::invalid_argument);
  try {
    full->Trace(nullptr);
    ADD_FAILURE() << "the fast model accepted a trace";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("sim.model=rtl"), std::string::npos) << e.what();
  }
  try {
    aries::sysc::ParseNodeImpl("verilog");
    ADD_FAILURE() << "an unknown model name was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: rtl, fast, check"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(aries::sysc::ParseNodeImpl("check"), NodeImpl::kCheck);
}

// sim.payload = id in lockstep: the RTL beside the fast model that carries the packet id alone
// gives the RTL's run and the fast model's, counter for counter (a mismatch would throw), on a
// mesh and on ARIES with random bypass segments.
TEST(PackageModels, PacketIdLockstepGivesTheSameRun) {
  for (Topology topo : {Topology::kMesh, Topology::kAries}) {
    RunKnobs rtl;
    rtl.topo = topo;
    rtl.rate = 0.3;
    rtl.use = aries::sysc::NodeUse::kPointToPoint;
    rtl.count_toggles = false;
    RunKnobs fast = rtl;
    fast.impl = aries::sysc::NodeImpl::kFast;
    fast.carried_lanes = 1;
    RunKnobs check = fast;
    check.impl = aries::sysc::NodeImpl::kCheck;
    const RunPrint a = Fingerprint(rtl), b = Fingerprint(fast), c = Fingerprint(check);
    EXPECT_EQ(a.fp, b.fp) << aries::coll::TopologyName(topo);
    EXPECT_EQ(a.fp, c.fp) << aries::coll::TopologyName(topo);
    EXPECT_EQ(a.evaluated, c.evaluated) << aries::coll::TopologyName(topo);
  }
}

// Fewer lanes: the fast model alone or beside the RTL in lockstep (which gets the other lanes
// zero), never the RTL alone, a node with the engine (it reduces every lane) or the data
// toggles (energy); each refusal names what is allowed.
TEST(PackageModels, FewerLanesNeedTheFastModelAndANodeWithoutTheEngine) {
  using aries::sysc::NodeImpl;
  using aries::sysc::NodeUse;
  VerilatedContext ctx;
  auto expect_refused = [&](NodeUse use, NodeImpl impl, unsigned lanes, const char* says) {
    try {
      aries::sysc::ShippedNodeModels(use, impl, lanes)(5, 1, &ctx, "n");
      ADD_FAILURE() << "accepted: " << says;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  expect_refused(NodeUse::kPointToPoint, NodeImpl::kRtl, 1, "the rtl model moves every lane");
  expect_refused(NodeUse::kAny, NodeImpl::kFast, 1, "with the collective engine");
  expect_refused(NodeUse::kAny, NodeImpl::kCheck, 1, "with the collective engine");
  expect_refused(NodeUse::kPointToPoint, NodeImpl::kFast, 17, "allowed: 1 to 16");
  auto id =
      aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint, NodeImpl::kFast, 1)(5, 1, &ctx, "id");
  EXPECT_EQ(id->shape().words(), 2u);
  EXPECT_EQ(id->shape().lanes, 16u);  // what the RTL has (the registers say so)
  auto pair =
      aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint, NodeImpl::kCheck, 1)(5, 1, &ctx, "p");
  EXPECT_EQ(pair->shape().words(), 2u);  // the package moves the fast model's words
  PackageConfig pc = Cfg(Topology::kMesh, 4);
  pc.count_toggles = true;
  try {
    Package pkg(pc, aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint, NodeImpl::kFast, 1), 1);
    ADD_FAILURE() << "toggles counted on a package carrying one lane";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("toggles"), std::string::npos) << e.what();
  }
}

namespace {

using aries::sysc::NodeImpl;
using aries::sysc::NodeUse;

// node.local_ports = 2 and 4: random traffic enters and leaves by every local port (a VC's
// packets take one port; dimension order ejects by input port mod local ports), every flit
// arrives once, and the RTL and the fast model agree pin by pin (sim.model = check).
TEST(PackageLocalPorts, EveryLocalPortCarriesTrafficAndEveryFlitArrives) {
  for (unsigned lp : {2u, 4u}) {
    PackageConfig pc = Cfg(Topology::kMesh, 4);
    pc.local_ports = lp;
    Package pkg(pc, aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint, NodeImpl::kCheck),
                Seed());
    EXPECT_EQ(pkg.shape().local_ports, lp);
    std::vector<uint64_t> in(lp, 0), out(lp, 0);
    pkg.SetFlitObserver([&](const Package::FlitEvent& e) {
      if (e.kind == Package::FlitEvent::kInject) ++in.at(e.link);
      if (e.kind == Package::FlitEvent::kEject) ++out.at(e.link);
    });
    TrafficConfig tc;
    tc.rate = 0.4;
    tc.packet_len = 4;
    tc.seed = Seed();
    NetTraffic traffic(pkg, tc);
    aries::tb::RunResult r;
    try {
      r = RunDelivered(pkg, traffic, 200, 1500);
    } catch (const aries::sysc::NodeMismatch& e) {
      FAIL() << e.what();
    }
    EXPECT_GT(r.flits_created, 3000u) << lp;
    for (unsigned i = 0; i < lp; ++i) {
      EXPECT_GT(in[i], r.flits_created / (4 * lp)) << lp << " ports: port " << i;
      EXPECT_GT(out[i], r.flits_created / (4 * lp)) << lp << " ports: port " << i;
    }
  }
}

// Zero load: a packet injected on an extra local port and ejected on another takes the same
// cycles as on port 0 (the extra ports have the router's two stages and the same registers).
TEST(PackageLocalPorts, ExtraLocalPortsHaveTheZeroLoadLatencyOfPortZero) {
  struct Src : aries::sysc::Endpoint {
    unsigned port = 0, k = 4, dst = 0;
    bool sent = false;
    uint64_t at = 0;
    bool Inject(uint64_t cycle, unsigned p, uint32_t* w) override {
      if (sent || p != port || cycle < 20) return false;
      hw::Flit f;
      f.head = f.tail = true;
      f.dst_x = dst % k;
      f.dst_y = dst / k;
      hw::PackFlit(f, 16, w);
      sent = true;
      at = cycle;
      return true;
    }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t, const aries::sysc::EndpointEdge&) override {}
  };
  struct Dst : aries::sysc::Endpoint {
    int port = -1;
    uint64_t at = 0;
    bool Inject(uint64_t, unsigned, uint32_t*) override { return false; }
    uint8_t EjectCredits(uint64_t, unsigned) override { return 0; }
    void AfterEdge(uint64_t cycle, const aries::sysc::EndpointEdge& e) override {
      for (unsigned i = 0; i < e.ports; ++i) {
        if (e.ejected[i]) port = static_cast<int>(i), at = cycle + 1;
      }
    }
  };
  std::vector<uint64_t> latency;
  for (unsigned lp : {1u, 2u, 4u}) {
    for (unsigned port = 0; port < lp; ++port) {
      PackageConfig pc = Cfg(Topology::kMesh, 4);
      pc.local_ports = lp;
      Package pkg(pc, aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint), 1);
      Src s;
      s.port = port;
      s.dst = pkg.NodeId(3, 1);
      Dst d;
      pkg.AttachEndpoint(pkg.NodeId(1, 1), &s);  // two hops east: arrives on XM (port 2)
      pkg.AttachEndpoint(s.dst, &d);
      for (int c = 0; c < 200; ++c) pkg.Step();
      ASSERT_TRUE(s.sent);
      // Dimension order ejects by the input port: XM (2) mod local ports.
      EXPECT_EQ(d.port, static_cast<int>(hw::DorLocalIndex(hw::kPortXM, lp))) << lp;
      latency.push_back(d.at - s.at);
      EXPECT_FALSE(pkg.AnyError());
    }
  }
  for (uint64_t l : latency) EXPECT_EQ(l, latency[0]);
}

}  // namespace
