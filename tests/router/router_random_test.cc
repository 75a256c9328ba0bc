// aries_router under seeded random traffic: unicast (DOR) and multicast (table) packets of
// random length on random VCs, random back-pressure at every output, with the scoreboard
// checking every flit (content, order per flow, wormhole contiguity, credits) and that nothing
// is left at the end. RTL assertions are on: a credit counter that under- or overflows aborts.
#include <random>

#include "Vrouter_t.h"
#include "death_util.h"
#include "router_test_util.h"

namespace aries::tb::test {
namespace {

constexpr RouterParams kParams{5, 4, 32, 2, 64};

struct RandomCase {
  const char* name;
  hw::Topo topo;
  unsigned link_latency;
  double sink_accept;
  double multicast_share;
  unsigned max_len;
};

class RouterRandom : public RouterFixture<Vrouter_t>,
                     public ::testing::WithParamInterface<RandomCase> {};

TEST_P(RouterRandom, EveryFlitDeliveredOnceInOrderNothingLeft) {
  const RandomCase c = GetParam();
  Build(kParams, HarnessConfig{c.link_latency, c.link_latency, c.sink_accept, 0});
  std::mt19937_64 rng(seed_);
  const unsigned k = 4;
  h_->Reset(1, 2);
  ASSERT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(c.topo, k, k)).err);
  // Flow tables: 16 flows, a random non-empty output set per (flow, input).
  for (unsigned flow = 0; flow < 16; ++flow)
    for (unsigned in = 0; in < 5; ++in)
      ASSERT_FALSE(h_->Write(hw::RouteAddr(flow, in), 1 + rng() % 31).err);

  uint64_t flits = 0;
  for (int cycle = 0; cycle < 6000; ++cycle) {
    if (cycle < 4000) {
      for (unsigned in = 0; in < 5; ++in) {
        if (rng() % 8 != 0) continue;  // about one packet per input every 8 cycles
        const unsigned len = 1 + rng() % c.max_len;
        const unsigned vc =
            (c.topo == hw::kTopoTorus) ? 2 * (rng() % 2) : static_cast<unsigned>(rng() % 4);
        const bool mc = std::uniform_real_distribution<double>(0, 1)(rng) < c.multicast_share;
        h_->Inject(in, h_->MakePacket(len, vc, mc, rng() % 16, rng() % k, rng() % k));
        flits += len;
      }
    }
    if (cycle % 500 == 0) h_->set_sink_accept(c.sink_accept * (0.5 + 0.5 * (rng() % 2)));
    h_->Step();
  }
  h_->set_sink_accept(1.0);
  ASSERT_TRUE(h_->RunUntilDrained(50000))
      << "router did not drain: " << h_->outstanding() << " flits outstanding";
  EXPECT_EQ(h_->injected_flits(), flits) << "every queued flit entered the router";
  EXPECT_EQ(h_->expected_drops(), 0u);
  EXPECT_FALSE(dut_->Err());
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 0u);
  ExpectClean();
}

INSTANTIATE_TEST_SUITE_P(
    Traffic, RouterRandom,
    ::testing::Values(RandomCase{"MeshUnicastNoBackPressure", hw::kTopoMesh, 0, 1.0, 0.0, 4},
                      RandomCase{"MeshUnicastHeavyBackPressure", hw::kTopoMesh, 2, 0.3, 0.0, 6},
                      RandomCase{"MeshMixedMulticast", hw::kTopoMesh, 1, 0.6, 0.4, 5},
                      RandomCase{"TorusLongLinks", hw::kTopoTorus, 10, 0.7, 0.2, 8},
                      RandomCase{"AllMulticastLongPackets", hw::kTopoMesh, 3, 0.5, 1.0, 12}),
    [](const auto& info) { return std::string(info.param.name); });

// Credits: a receiver that returns one credit too many trips the RTL assertion.
TEST(RouterAssertions, ExtraCreditTripsTheOverflowAssertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        aries::test::StdoutToStderr();
        VerilatedRouter<Vrouter_t> dut(kParams, 1);
        HarnessConfig hc;
        RouterHarness h(dut, hc);
        dut.SetOutCredit(hw::kPortXP, 0, true);  // nothing was sent: all 32 credits are home
        dut.Tick();
        dut.Tick();
      },
      "CreditOverflow_A");
}

// A sender that respects credits can fill a VC buffer but never overflow it; one that ignores
// them trips NoOverflow_A (next test).
TEST(RouterAssertions, CreditsStopTheSenderAtAFullVc) {
  VerilatedRouter<Vrouter_t> dut(kParams, 1);
  HarnessConfig hc;
  hc.sink_accept = 1.0;
  RouterHarness h(dut, hc);
  h.set_sink_blocked(hw::kPortXP, 0, true);
  for (int k = 0; k < 16; ++k) h.Inject(hw::kPortXM, h.MakePacket(4, 0, false, 0, 2, 1));
  for (int i = 0; i < 200; ++i) h.Step();
  // 32 flits in the sink, 32 in the input buffer: the source has no credit left.
  EXPECT_EQ(h.source_credits(hw::kPortXM, 0), 0u);
  EXPECT_EQ(h.deliveries().size(), 32u);
  EXPECT_EQ(h.Read(hw::kRegStatus).rdata, 0u);
  EXPECT_TRUE(h.errors().empty()) << h.errors().front();
}

TEST(RouterAssertionsDeathTest, FlitIntoAFullVcTripsTheAssertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        aries::test::StdoutToStderr();
        VerilatedRouter<Vrouter_t> dut(kParams, 1);
        HarnessConfig hc;
        RouterHarness h(dut, hc);
        h.set_sink_blocked(hw::kPortXP, 0, true);
        for (int k = 0; k < 16; ++k) h.Inject(hw::kPortXM, h.MakePacket(4, 0, false, 0, 2, 1));
        for (int i = 0; i < 200; ++i) h.Step();
        // Bypass the harness's credit check: drive one more flit by hand.
        std::vector<uint32_t> w(3, 0);
        hw::Flit f = h.MakePacket(1, 0, false, 0, 2, 1)[0];
        hw::PackFlit(f, 2, w.data());
        dut.SetIn(hw::kPortXM, true, w.data());
        dut.Tick();
        dut.Tick();
      },
      "NoOverflow_A");
}

}  // namespace
}  // namespace aries::tb::test
