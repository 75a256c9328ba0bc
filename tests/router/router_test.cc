// aries_router on its Verilated model (5 ports, 4 VCs, 32-flit buffers, 2 lanes): directed
// cases first, then seeded random traffic with random back-pressure against the scoreboard.
#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "Vrouter_t.h"
#include "router_test_util.h"

namespace aries::tb::test {
namespace {

using hw::Flit;

constexpr RouterParams kParams{5, 4, 32, 2, 64};
// The router sits at (1,1) of a 3x3 mesh: each DOR destination below leaves on one port.
constexpr unsigned kDst[5][2] = {{1, 1}, {2, 1}, {0, 1}, {1, 2}, {1, 0}};

class Router : public RouterFixture<Vrouter_t> {
 protected:
  void SetUp() override { Build(kParams); }
  std::vector<Flit> Unicast(unsigned out, unsigned len = 1, unsigned vc = 0) {
    return h_->MakePacket(len, vc, false, 0, kDst[out][0], kDst[out][1]);
  }
};

// --- registers -------------------------------------------------------------------------------

TEST_F(Router, IdentityAndParameterRegisters) {
  EXPECT_EQ(h_->Read(hw::kRegId).rdata, hw::kRouterIdValue);
  EXPECT_EQ(h_->Read(hw::kRegNumPorts).rdata, 5u);
  EXPECT_EQ(h_->Read(hw::kRegNumVcs).rdata, 4u);
  EXPECT_EQ(h_->Read(hw::kRegBufferDepth).rdata, 32u);
  EXPECT_EQ(h_->Read(hw::kRegNumFlows).rdata, 64u);
  EXPECT_EQ(h_->Read(hw::kRegLanes).rdata, 2u);
  EXPECT_EQ(h_->Read(hw::kRegCtrl).rdata, hw::CtrlValue(hw::kTopoMesh, 32, 32))
      << "reset: a mesh of up to 32x32, so DOR works unconfigured";
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 0u);
  ExpectClean();
}

TEST_F(Router, CtrlAcceptsLegalValuesAndReadsBack) {
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoTorus, 4, 4)).err);
  EXPECT_EQ(h_->Read(hw::kRegCtrl).rdata, hw::CtrlValue(hw::kTopoTorus, 4, 4));
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoFbfly, 2, 3)).err)
      << "1 + 1 + 2 = 4 ports needed, 5 present";
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoMesh, 2, 2)).err);
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoTorus, 4, 4, true)).err);
  EXPECT_EQ(h_->Read(hw::kRegCtrl).rdata, hw::CtrlValue(hw::kTopoTorus, 4, 4, true))
      << "CTRL.DYN_VC reads back";
  ExpectClean();
}

TEST_F(Router, IllegalCtrlValuesAreRefusedAndChangeNothing) {
  const uint32_t before = hw::CtrlValue(hw::kTopoMesh, 3, 3);
  ASSERT_FALSE(h_->Write(hw::kRegCtrl, before).err);
  const uint32_t bad[] = {
      3u,                                   // topology encoding 3 does not exist
      before | 0x20u,                       // reserved bit
      before | 0x04u,                       // reserved bit
      hw::CtrlValue(hw::kTopoFbfly, 4, 4),  // needs 1 + 3 + 3 = 7 ports, router has 5
      hw::CtrlValue(hw::kTopoMesh, 1, 3),   // node x = 1 outside a 1-column grid
      hw::CtrlValue(hw::kTopoMesh, 3, 1),   // node y = 1 outside a 1-row grid
  };
  for (uint32_t v : bad) {
    EXPECT_TRUE(h_->Write(hw::kRegCtrl, v).err) << std::hex << v;
    EXPECT_EQ(h_->Read(hw::kRegCtrl).rdata, before) << std::hex << v;
  }
  EXPECT_TRUE(h_->Read(hw::kRegStatus).rdata >> hw::kStatusCfgErrBit & 1u);
  ExpectClean();
}

TEST_F(Router, UnmappedAndReadOnlyAccessesAreRefused) {
  EXPECT_FALSE(h_->Read(hw::kRegLocalPorts).err);  // (LOCAL_PORTS, 0x0006, reads 1)
  EXPECT_EQ(h_->Read(hw::kRegLocalPorts).rdata, 1u);
  EXPECT_TRUE(h_->Write(hw::kRegLocalPorts, 2).err) << "read-only";
  EXPECT_TRUE(h_->Read(0x0007).err);
  EXPECT_TRUE(h_->Read(0x1234).err);
  EXPECT_TRUE(h_->Read(hw::kRegPassthruBase + 5).err) << "port 5 does not exist";
  EXPECT_TRUE(h_->Read(hw::kRegInFlitsBase + 7).err);
  EXPECT_TRUE(h_->Write(hw::kRegId, 1).err);
  EXPECT_TRUE(h_->Write(hw::kRegNumVcs, 8).err);
  EXPECT_TRUE(h_->Write(hw::kRegMissCount, 0).err);
  EXPECT_TRUE(h_->Write(hw::kRegInFlitsBase, 0).err);
  EXPECT_EQ(h_->Read(hw::kRegNumVcs).rdata, 4u);
  ExpectClean();
}

TEST_F(Router, RouteTableWritesAreRangeChecked) {
  EXPECT_FALSE(h_->Write(hw::RouteAddr(63, 4), 0x1F).err);
  EXPECT_EQ(h_->Read(hw::RouteAddr(63, 4)).rdata, 0x1Fu);
  EXPECT_TRUE(h_->Write(hw::RouteAddr(64, 0), 0x1).err) << "flow beyond NumFlows";
  EXPECT_TRUE(h_->Write(hw::RouteAddr(3, 5), 0x1).err) << "input port beyond NumPorts";
  EXPECT_TRUE(h_->Write(hw::RouteAddr(3, 0), 0x20).err) << "output bit beyond NumPorts";
  EXPECT_TRUE(h_->Read(hw::RouteAddr(64, 0)).err);
  EXPECT_EQ(h_->Read(hw::RouteAddr(3, 0)).rdata, 0u) << "refused write changed the table";
  ExpectClean();
}

TEST_F(Router, StatusIsWriteOneToClear) {
  h_->Read(0x0007);  // refused: sets CFG_ERR
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 1u << hw::kStatusCfgErrBit);
  EXPECT_TRUE(h_->Write(hw::kRegStatus, 0x100).err) << "reserved bit";
  EXPECT_FALSE(h_->Write(hw::kRegStatus, 1u << hw::kStatusCfgErrBit).err);
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 0u);
  ExpectClean();
}

// --- latency and throughput -------------------------------------------------------------------

TEST_F(Router, ZeroLoadLatencyIsTwoCyclesForEveryInputOutputPair) {
  for (unsigned in = 0; in < 5; ++in) {
    for (unsigned out = 0; out < 5; ++out) {
      h_->Inject(in, Unicast(out));
      ASSERT_TRUE(h_->RunUntilDrained(100));
      const Delivery& d = h_->deliveries().back();
      EXPECT_EQ(d.out, out);
      EXPECT_EQ(d.inport, in);
      EXPECT_EQ(d.cycle - d.inject_cycle, 2u) << "in " << in << " out " << out;
    }
  }
  EXPECT_EQ(h_->deliveries().size(), 25u);
  ExpectClean();
}

TEST_F(Router, MultiFlitPacketStreamsOneFlitPerCycle) {
  h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 8, 2));
  ASSERT_TRUE(h_->RunUntilDrained(100));
  const auto& d = h_->deliveries();
  ASSERT_EQ(d.size(), 8u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(d[i].cycle - d[i].inject_cycle, 2u);
    EXPECT_EQ(d[i].cycle, d[0].cycle + i);
    EXPECT_EQ(d[i].flit.vc, 2u);
  }
  ExpectClean();
}

TEST_F(Router, OneFlitPerCyclePerOutputWhenNothingContends) {
  // A permutation: input i -> output (i + 1) mod 5, 200 flits each, all outputs busy at once.
  for (unsigned in = 0; in < 5; ++in)
    for (int k = 0; k < 40; ++k) h_->Inject(in, Unicast((in + 1) % 5, 5, k % 4));
  ASSERT_TRUE(h_->RunUntilDrained(2000));
  std::map<unsigned, std::pair<uint64_t, uint64_t>> span;  // out -> (first, last) cycle
  for (const auto& d : h_->deliveries()) {
    auto [it, fresh] = span.try_emplace(d.out, d.cycle, d.cycle);
    if (!fresh) it->second.second = d.cycle;
  }
  for (const auto& [out, s] : span)
    EXPECT_EQ(s.second - s.first + 1, 200u) << "output " << out << " idled while it had work";
  ExpectClean();
}

TEST_F(Router, FullThroughputOverTheCreditRoundTripOfTheDefaultLinks) {
  // 10-cycle links (ARIES Table II: 10 ns at 1 GHz) both ways.
  Build(kParams, HarnessConfig{10, 10, 1.0, 0});
  for (int k = 0; k < 100; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 4, 0));
  ASSERT_TRUE(h_->RunUntilDrained(3000));
  const auto& d = h_->deliveries();
  ASSERT_EQ(d.size(), 400u);
  EXPECT_EQ(d.back().cycle - d.front().cycle + 1, 400u) << "a stall means credits ran out";
  ExpectClean();
}

// With these sinks (a slot frees the cycle a flit arrives) a credit is away for
// link + credit latency + 2 cycles: 15 + 15 + 2 = 32 credits just suffice, 15 + 16 do not.
double OneVcRate(RouterHarness& h) {
  for (int k = 0; k < 100; ++k)
    h.Inject(hw::kPortXM, h.MakePacket(4, 0, false, 0, kDst[hw::kPortXP][0], kDst[hw::kPortXP][1]));
  EXPECT_TRUE(h.RunUntilDrained(20000));
  const auto& d = h.deliveries();
  return d.empty() ? 0.0 : 400.0 / double(d.back().cycle - d.front().cycle + 1);
}

TEST_F(Router, CreditLoopOfExactlyTheBufferDepthKeepsFullThroughput) {
  Build(kParams, HarnessConfig{15, 15, 1.0, 0});
  EXPECT_DOUBLE_EQ(OneVcRate(*h_), 1.0);
  ExpectClean();
}

TEST_F(Router, CreditLoopOneCycleLongerThanTheBufferStalls) {
  Build(kParams, HarnessConfig{15, 16, 1.0, 0});
  const double rate = OneVcRate(*h_);
  EXPECT_LT(rate, 1.0);
  EXPECT_NEAR(rate, 32.0 / 33.0, 0.01);
  ExpectClean();
}

TEST_F(Router, CreditRoundTripLongerThanTheBufferLimitsThroughput) {
  // 20-cycle links: a credit is away 42 cycles, so one VC gets 32/42 of a link.
  Build(kParams, HarnessConfig{20, 20, 1.0, 0});
  const double rate = OneVcRate(*h_);
  EXPECT_NEAR(rate, 32.0 / 42.0, 0.02);
  ExpectClean();
}

// --- isolation, fairness ----------------------------------------------------------------------

TEST_F(Router, BlockedVcDoesNotStopTheOtherVcs) {
  // Both VCs arrive on the same input and leave on the same output: VC 0's head blocks at
  // the input (no credit downstream) while VC 1 passes it in both arbitration stages.
  h_->set_sink_blocked(hw::kPortXP, 0, true);
  for (int k = 0; k < 20; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 4, 0));  // 80 > 64
  for (int k = 0; k < 20; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 4, 1));
  for (int i = 0; i < 400; ++i) h_->Step();
  unsigned vc0 = 0, vc1 = 0;
  for (const auto& d : h_->deliveries()) (d.flit.vc == 0 ? vc0 : vc1)++;
  EXPECT_EQ(vc0, 32u) << "VC 0 stops when its 32 credits are spent";
  EXPECT_EQ(vc1, 80u) << "VC 1 is not blocked by VC 0";
  h_->set_sink_blocked(hw::kPortXP, 0, false);
  ASSERT_TRUE(h_->RunUntilDrained(2000));
  ExpectClean();
}

TEST_F(Router, PersistentContentionIsSharedFairly) {
  // Four inputs send single-flit packets to the local port as fast as they can.
  const unsigned ins[] = {hw::kPortXP, hw::kPortXM, hw::kPortYP, hw::kPortYM};
  for (int k = 0; k < 400; ++k)
    for (unsigned in : ins) h_->Inject(in, Unicast(hw::kPortLocal, 1, k % 4));
  for (int i = 0; i < 800; ++i) h_->Step();
  std::map<unsigned, unsigned> got;
  for (const auto& d : h_->deliveries()) got[d.inport]++;
  unsigned lo = ~0u, hi = 0, total = 0;
  for (unsigned in : ins) lo = std::min(lo, got[in]), hi = std::max(hi, got[in]), total += got[in];
  EXPECT_GE(total, 795u) << "the output must stay busy";
  EXPECT_LE(hi - lo, 1u) << "round robin: shares differ by at most one flit";
  ASSERT_TRUE(h_->RunUntilDrained(5000));
  ExpectClean();
}

// --- table routing ----------------------------------------------------------------------------

TEST_F(Router, MulticastReplicatesEveryFlitToEveryOutputOfTheSet) {
  const uint32_t set = (1u << hw::kPortLocal) | (1u << hw::kPortXP) | (1u << hw::kPortYM);
  ASSERT_FALSE(h_->Write(hw::RouteAddr(7, hw::kPortXM), set).err);
  h_->Inject(hw::kPortXM, h_->MakePacket(6, 1, true, 7, 0, 0));
  ASSERT_TRUE(h_->RunUntilDrained(200));
  std::map<unsigned, unsigned> per_out;
  for (const auto& d : h_->deliveries()) {
    per_out[d.out]++;
    EXPECT_EQ(d.cycle - d.inject_cycle, 2u) << "no contention: all copies leave together";
  }
  EXPECT_EQ(per_out.size(), 3u);
  for (auto [out, n] : per_out) EXPECT_EQ(n, 6u) << "output " << out;
  ExpectClean();
}

TEST_F(Router, TableRoutesDependOnTheInputPort) {
  ASSERT_FALSE(h_->Write(hw::RouteAddr(3, hw::kPortXM), 1u << hw::kPortXP).err);
  ASSERT_FALSE(h_->Write(hw::RouteAddr(3, hw::kPortYM), 1u << hw::kPortYP).err);
  h_->Inject(hw::kPortXM, h_->MakePacket(2, 0, true, 3, 0, 0));
  h_->Inject(hw::kPortYM, h_->MakePacket(2, 0, true, 3, 0, 0));
  ASSERT_TRUE(h_->RunUntilDrained(200));
  for (const auto& d : h_->deliveries())
    EXPECT_EQ(d.out, d.inport == hw::kPortXM ? hw::kPortXP : hw::kPortYP);
  EXPECT_EQ(h_->deliveries().size(), 4u);
  ExpectClean();
}

TEST_F(Router, RoutingTableMissIsFlaggedDroppedAndItsCreditReturned) {
  EXPECT_FALSE(dut_->Err());
  h_->Inject(hw::kPortYP, h_->MakePacket(3, 2, true, 42, 0, 0));  // flow 42 never programmed
  h_->Inject(hw::kPortYP, Unicast(hw::kPortXM, 1, 2));            // traffic behind it flows on
  ASSERT_TRUE(h_->RunUntilDrained(200));
  EXPECT_EQ(h_->deliveries().size(), 1u);
  EXPECT_EQ(h_->expected_drops(), 3u);
  EXPECT_EQ(h_->source_credits(hw::kPortYP, 2), 32u) << "dropped flits return their credits";
  const uint32_t status = h_->Read(hw::kRegStatus).rdata;
  EXPECT_TRUE(status >> hw::kStatusMissBit & 1u);
  const uint32_t info = h_->Read(hw::kRegErrInfo).rdata;
  EXPECT_EQ(info >> hw::kErrInfoFlowLsb & ((1u << hw::kFlowIdW) - 1), 42u);
  EXPECT_EQ(info >> hw::kErrInfoPortLsb & 0x1Fu, unsigned(hw::kPortYP));
  EXPECT_EQ(h_->Read(hw::kRegMissCount).rdata, 3u);
  EXPECT_TRUE(dut_->Err());
  ExpectClean();
}

// NumFlows = 64 fills the 6-bit flow id: the highest id is a table entry like any other, a miss
// until programmed.
TEST_F(Router, HighestFlowIdIsAMissUntilProgrammed) {
  h_->Inject(hw::kPortXP, h_->MakePacket(1, 1, true, 63, 0, 0));
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_EQ(h_->deliveries().size(), 0u);
  EXPECT_EQ(h_->Read(hw::kRegMissCount).rdata, 1u);
  EXPECT_EQ(h_->Read(hw::kRegErrInfo).rdata & ((1u << hw::kFlowIdW) - 1), 63u);
  ExpectClean();
}

TEST_F(Router, DestinationOutsideTheGridIsAMiss) {
  ASSERT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoMesh, 3, 3)).err);
  h_->Inject(hw::kPortLocal, h_->MakePacket(1, 0, false, 0, 3, 0));
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_EQ(h_->deliveries().size(), 0u);
  EXPECT_EQ(h_->Read(hw::kRegMissCount).rdata, 1u);
  ExpectClean();
}

TEST_F(Router, FlitCountersCountEveryFlit) {
  for (unsigned out = 0; out < 5; ++out) h_->Inject(hw::kPortLocal, Unicast(out, 3, out % 4));
  ASSERT_TRUE(h_->RunUntilDrained(200));
  EXPECT_EQ(h_->Read(hw::kRegInFlitsBase + hw::kPortLocal).rdata, 15u);
  for (unsigned out = 0; out < 5; ++out) EXPECT_EQ(h_->Read(hw::kRegOutFlitsBase + out).rdata, 3u);
  ExpectClean();
}

// --- dimension-order routing on every topology ------------------------------------------------

TEST_F(Router, DimensionOrderRoutingMatchesTheGoldenModelOnEveryTopology) {
  std::mt19937_64 rng(seed_);
  struct Case {
    hw::Topo topo;
    unsigned sx, sy, x, y;
  };
  const Case cases[] = {{hw::kTopoMesh, 4, 4, 1, 2},
                        {hw::kTopoTorus, 4, 4, 3, 0},
                        {hw::kTopoTorus, 5, 3, 0, 2},
                        {hw::kTopoFbfly, 3, 2, 2, 1},
                        {hw::kTopoMesh, 16, 16, 0, 15}};
  for (const Case& c : cases) {
    h_->Reset(c.x, c.y);
    ASSERT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(c.topo, c.sx, c.sy)).err);
    for (int k = 0; k < 60; ++k) {
      const unsigned in = rng() % 5;
      const unsigned vc = (c.topo == hw::kTopoTorus) ? 2 * (rng() % 2) + (rng() % 2) : rng() % 4;
      h_->Inject(in, h_->MakePacket(1 + rng() % 3, vc, false, 0, rng() % c.sx, rng() % c.sy));
    }
    ASSERT_TRUE(h_->RunUntilDrained(2000)) << "topology " << c.topo;
    EXPECT_EQ(h_->expected_drops(), 0u);
    ExpectClean();
  }
}

TEST_F(Router, TorusWrapHopMovesToTheDatelineVc) {
  h_->Reset(3, 0);
  ASSERT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoTorus, 4, 4)).err);
  h_->Inject(hw::kPortLocal, h_->MakePacket(1, 2, false, 0, 0, 0));  // +x over the wrap
  h_->Inject(hw::kPortXM, h_->MakePacket(1, 1, false, 0, 3, 1));     // turns to y: class reset
  ASSERT_TRUE(h_->RunUntilDrained(100));
  ASSERT_EQ(h_->deliveries().size(), 2u);
  for (const auto& d : h_->deliveries()) {
    if (d.out == hw::kPortXP) {
      EXPECT_EQ(d.flit.vc, 3u);
    }
    if (d.out == hw::kPortYP) {
      EXPECT_EQ(d.flit.vc, 0u);
    }
  }
  ExpectClean();
}

// --- circuit pass-through ---------------------------------------------------------------------

TEST_F(Router, PassThroughTakesOneCycleAndForwardsCredits) {
  ASSERT_FALSE(
      h_->Write(hw::kRegPassthruBase + hw::kPortXM, hw::PassthruValue(true, hw::kPortLocal)).err);
  EXPECT_EQ(h_->Read(hw::kRegPassthruBase + hw::kPortXM).rdata,
            hw::PassthruValue(true, hw::kPortLocal));
  // The circuit ignores the header: everything arriving on XM leaves on the local port, even
  // 100 flits on one VC (more than the 32 buffer slots: credits come from the local sink).
  for (int k = 0; k < 25; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 4, 1));
  // Other inputs keep routing; a DOR packet for the reserved output waits (not tested here).
  h_->Inject(hw::kPortYM, Unicast(hw::kPortXP, 2, 0));
  h_->set_sink_accept(0.5);
  ASSERT_TRUE(h_->RunUntilDrained(3000));
  unsigned circuit = 0;
  for (const auto& d : h_->deliveries()) {
    if (d.inport != hw::kPortXM) continue;
    ++circuit;
    EXPECT_EQ(d.out, unsigned(hw::kPortLocal));
  }
  EXPECT_EQ(circuit, 100u);
  // With no back-pressure the circuit adds one cycle, not two.
  h_->set_sink_accept(1.0);
  h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 1, 3));
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_EQ(h_->deliveries().back().cycle - h_->deliveries().back().inject_cycle, 1u);
  ExpectClean();
}

TEST_F(Router, PassThroughChangesAreCheckedAndRefusedWhileBusy) {
  const uint32_t xm = hw::kRegPassthruBase + hw::kPortXM;
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(true, hw::kPortXM)).err) << "U-turn circuit";
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(true, 5)).err) << "no output 5";
  EXPECT_TRUE(h_->Write(xm, 0x2).err) << "reserved bit";
  ASSERT_FALSE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  EXPECT_TRUE(
      h_->Write(hw::kRegPassthruBase + hw::kPortYM, hw::PassthruValue(true, hw::kPortLocal)).err)
      << "two circuits into one output";
  // Stall the local sink so the circuit holds credits: a change now is refused.
  h_->set_sink_blocked(hw::kPortLocal, 0, true);
  h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 1, 0));
  for (int i = 0; i < 10; ++i) h_->Step();
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(false, 0)).err) << "circuit still has a flit out";
  EXPECT_EQ(h_->Read(xm).rdata, hw::PassthruValue(true, hw::kPortLocal));
  h_->set_sink_blocked(hw::kPortLocal, 0, false);
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_FALSE(h_->Write(xm, hw::PassthruValue(false, 0)).err);
  // And a buffered input with flits waiting cannot become a circuit.
  h_->set_sink_blocked(hw::kPortXP, 0, true);
  for (int k = 0; k < 12; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 4, 0));
  for (int i = 0; i < 80; ++i) h_->Step();
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(true, hw::kPortYP)).err);
  h_->set_sink_blocked(hw::kPortXP, 0, false);
  ASSERT_TRUE(h_->RunUntilDrained(500));
  ExpectClean();
}

TEST_F(Router, PassThroughDisableOfAnIdlePortIsAccepted) {
  // Writing the reset value (disabled, output 0) is legal even on port 0 itself.
  for (unsigned p = 0; p < 5; ++p)
    EXPECT_FALSE(h_->Write(hw::kRegPassthruBase + p, 0).err) << "port " << p;
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 0u);
  ExpectClean();
}

TEST_F(Router, PassThroughIsRefusedWhileAPacketIsOpen) {
  const uint32_t xm = hw::kRegPassthruBase + hw::kPortXM;
  // A packet from XM to XP whose tail has not come yet: XM's buffers are empty, but XP's VC 2
  // is owned by it. Turning XM into a circuit now would strand the rest of the packet.
  auto pkt = Unicast(hw::kPortXP, 4, 2);
  auto tail = std::vector<Flit>(pkt.begin() + 2, pkt.end());
  pkt.resize(2);
  h_->Inject(hw::kPortXM, pkt);
  for (int i = 0; i < 10; ++i) h_->Step();
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  EXPECT_TRUE(
      h_->Write(hw::kRegPassthruBase + hw::kPortYM, hw::PassthruValue(true, hw::kPortXP)).err)
      << "XP has an open packet";
  h_->Inject(hw::kPortXM, tail);
  ASSERT_TRUE(h_->RunUntilDrained(100));
  ASSERT_FALSE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  // The same through the circuit: a head without its tail keeps the circuit from closing.
  pkt = Unicast(hw::kPortXP, 4, 1);
  tail.assign(pkt.begin() + 1, pkt.end());
  pkt.resize(1);
  h_->Inject(hw::kPortXM, pkt);
  for (int i = 0; i < 10; ++i) h_->Step();
  EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(false, 0)).err);
  h_->Inject(hw::kPortXM, tail);
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_FALSE(h_->Write(xm, hw::PassthruValue(false, 0)).err);
  ExpectClean();
}

TEST_F(Router, PassThroughIsRefusedWhileFlitsArriveOrTheOutputIsContended) {
  const uint32_t xm = hw::kRegPassthruBase + hw::kPortXM;
  // A flit arrives on XM in every cycle: any change of XM is refused.
  for (int k = 0; k < 60; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortYP, 1, k % 4));
  for (int i = 0; i < 5; ++i) h_->Step();
  for (int k = 0; k < 5; ++k)
    EXPECT_TRUE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  // Another input keeps output YP busy: a circuit into YP is refused as well.
  EXPECT_TRUE(
      h_->Write(hw::kRegPassthruBase + hw::kPortLocal, hw::PassthruValue(true, hw::kPortYP)).err);
  ASSERT_TRUE(h_->RunUntilDrained(500));
  EXPECT_FALSE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  ExpectClean();
}

TEST_F(Router, CreditErrorIsReportedInStatusAndErrUntilCleared) {
  dut_->SetAssertionsOn(false);  // observe the report instead of aborting on the assertion
  EXPECT_FALSE(dut_->Err());
  dut_->SetOutCredit(hw::kPortYM, 3, true);  // a credit nobody spent
  dut_->Tick();
  dut_->SetOutCredit(hw::kPortYM, 3, false);
  const uint32_t status = h_->Read(hw::kRegStatus).rdata;
  EXPECT_EQ(status, 1u << hw::kStatusCreditErrBit);
  EXPECT_TRUE(dut_->Err());
  EXPECT_FALSE(h_->Write(hw::kRegStatus, status).err);
  EXPECT_FALSE(dut_->Err());
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 0u);
  // The counter kept its value: with the receiver stalled exactly 32 flits go out, not 33.
  dut_->SetAssertionsOn(true);
  h_->set_sink_blocked(hw::kPortYM, 3, true);
  for (int k = 0; k < 10; ++k) h_->Inject(hw::kPortLocal, Unicast(hw::kPortYM, 4, 3));
  for (int i = 0; i < 200; ++i) h_->Step();
  EXPECT_EQ(h_->deliveries().size(), 32u);
  h_->set_sink_blocked(hw::kPortYM, 3, false);
  ASSERT_TRUE(h_->RunUntilDrained(500));
  ExpectClean();
}

// The scoreboard itself: a golden model that disagrees with the RTL must produce errors, and a
// flit the RTL never delivers must stay outstanding (the checks can fail).
TEST_F(Router, ScoreboardCatchesMisroutedAndMissingFlits) {
  ASSERT_FALSE(h_->Write(hw::RouteAddr(5, hw::kPortLocal), 1u << hw::kPortXP).err);
  h_->golden().SetRoute(5, hw::kPortLocal, 1u << hw::kPortYP);  // the golden model disagrees
  h_->Inject(hw::kPortLocal, h_->MakePacket(2, 0, true, 5, 0, 0));
  EXPECT_FALSE(h_->RunUntilDrained(200)) << "the expected YP copies never come";
  EXPECT_EQ(h_->outstanding(), 2u);
  ASSERT_FALSE(h_->errors().empty());
  EXPECT_NE(h_->errors()[0].find("should not come out here"), std::string::npos) << h_->errors()[0];
}

TEST_F(Router, IdleAndEmptyRegistersFollowTheTraffic) {
  EXPECT_EQ(h_->Read(hw::kRegOutIdle).rdata, 0x1Fu);
  EXPECT_EQ(h_->Read(hw::kRegInEmpty).rdata, 0x1Fu);
  h_->set_sink_blocked(hw::kPortYP, 2, true);
  for (int k = 0; k < 12; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortYP, 4, 2));
  for (int i = 0; i < 120; ++i) h_->Step();
  EXPECT_EQ(h_->Read(hw::kRegOutIdle).rdata, 0x1Fu & ~(1u << hw::kPortYP)) << "credits out";
  EXPECT_EQ(h_->Read(hw::kRegInEmpty).rdata, 0x1Fu & ~(1u << hw::kPortXM)) << "16 flits wait";
  h_->set_sink_blocked(hw::kPortYP, 2, false);
  ASSERT_TRUE(h_->RunUntilDrained(500));
  EXPECT_EQ(h_->Read(hw::kRegOutIdle).rdata, 0x1Fu);
  ExpectClean();
}

TEST_F(Router, CircuitOutputIsReservedUntilTheCircuitCloses) {
  const uint32_t xm = hw::kRegPassthruBase + hw::kPortXM;
  ASSERT_FALSE(h_->Write(xm, hw::PassthruValue(true, hw::kPortLocal)).err);
  for (int k = 0; k < 30; ++k) h_->Inject(hw::kPortXM, Unicast(hw::kPortXP, 2, 0));
  h_->Inject(hw::kPortYM, Unicast(hw::kPortLocal, 3, 1));  // routed, wants the local port
  for (int i = 0; i < 150; ++i) h_->Step();
  unsigned routed = 0, circuit = 0;
  for (const auto& d : h_->deliveries()) (d.inport == hw::kPortYM ? routed : circuit)++;
  EXPECT_EQ(circuit, 60u);
  EXPECT_EQ(routed, 0u) << "the circuit's output is not allocated to routed traffic";
  ASSERT_FALSE(h_->Write(xm, hw::PassthruValue(false, 0)).err)
      << "a waiting routed packet does not keep the circuit from closing";
  ASSERT_TRUE(h_->RunUntilDrained(200));
  routed = 0;
  for (const auto& d : h_->deliveries()) routed += d.inport == hw::kPortYM;
  EXPECT_EQ(routed, 3u);
  ExpectClean();
}

TEST_F(Router, ConcurrentMulticastPacketsWithCrossedOutputsTakeTurns) {
  // Two 8-flit multicast packets on the same VC, output sets {XP, YP} and {YP, XP}, injected in
  // the same cycle from different inputs: without the token each could hold one output and
  // wait for the other. Both must arrive whole, one after the other on each output.
  const uint32_t set = (1u << hw::kPortXP) | (1u << hw::kPortYP);
  ASSERT_FALSE(h_->Write(hw::RouteAddr(9, hw::kPortXM), set).err);
  ASSERT_FALSE(h_->Write(hw::RouteAddr(9, hw::kPortYM), set).err);
  for (int round = 0; round < 5; ++round) {
    h_->Inject(hw::kPortXM, h_->MakePacket(8, 2, true, 9, 0, 0));
    h_->Inject(hw::kPortYM, h_->MakePacket(8, 2, true, 9, 0, 0));
  }
  ASSERT_TRUE(h_->RunUntilDrained(1000));
  EXPECT_EQ(h_->deliveries().size(), 160u);
  ExpectClean();  // the scoreboard checked that packets never interleave on an output VC
}

TEST_F(Router, FlitOnAVcBeyondNumVcsIsReportedAsOverflow) {
  dut_->SetAssertionsOn(false);
  Flit f = Unicast(hw::kPortXP)[0];
  f.vc = 6;  // the router has 4 VCs
  std::vector<uint32_t> w(1 + kParams.lanes);
  hw::PackFlit(f, kParams.lanes, w.data());
  dut_->SetIn(hw::kPortYM, true, w.data());
  dut_->Tick();
  dut_->SetIn(hw::kPortYM, false, w.data());
  EXPECT_EQ(h_->Read(hw::kRegStatus).rdata, 1u << hw::kStatusOverflowBit);
  EXPECT_TRUE(dut_->Err());
  EXPECT_EQ(h_->Read(hw::kRegInEmpty).rdata, 0x1Fu) << "the flit was not stored";
}

}  // namespace
}  // namespace aries::tb::test
