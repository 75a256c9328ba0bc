// aries_coll_engine against the golden reduction tree (collectives/arith.h), with its assertions
// on: every operation over random inputs with random input gaps and output back-pressure;
// partial input sets and the fixed reduction order; broadcast and the all-reduce turn at the
// root; many collective ids sharing queues through an interleaved program; dropped flits with
// their status; register refusals; latency and line rate.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "aries_pkg.h"
#include "arith.h"
#include "engine_harness.h"
#include "test_seed.h"

namespace {

namespace hw = aries::hw;
using aries::coll::EngineTreeReduce;
using aries::coll::OpName;
using aries::test::CollFlit;
using aries::test::EngineHarness;
using aries::test::kEngIds;
using aries::test::kEngLanes;
using aries::test::kEngPorts;
using aries::test::kEngQueue;
using aries::test::kEngReqVc;
using aries::test::kEngRspVc;

uint64_t Seed() { return aries::test::TestSeed() + 17u; }

struct IdCfg {
  unsigned op = hw::kOpAddI32;
  unsigned count = 1;
  unsigned req_in = 0, req_out = 0, rsp_in = 0, rsp_out = 0;
};

void Configure(EngineHarness& h, unsigned id, const IdCfg& c) {
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegCfg), hw::IdCfgValue(c.op));
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegCount), c.count);
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegReqIn), c.req_in);
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegReqOut), c.req_out);
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegRspIn), c.rsp_in);
  h.WriteOk(hw::EngIdReg(id, hw::kIdRegRspOut), c.rsp_out);
}

void Program(EngineHarness& h, unsigned cls, const std::vector<unsigned>& ids, unsigned passes) {
  const uint32_t base = cls == 0 ? hw::kRegEngReqProgBase : hw::kRegEngRspProgBase;
  for (size_t i = 0; i < ids.size(); ++i) h.WriteOk(base + static_cast<uint32_t>(i), ids[i]);
  h.WriteOk(cls == 0 ? hw::kRegEngReqLen : hw::kRegEngRspLen,
            hw::EngLenValue(static_cast<unsigned>(ids.size()), passes));
}

uint32_t RandomValue(unsigned op, std::mt19937& rng) {
  const bool fp = op >= hw::kOpAddF32 && op <= hw::kOpMaxF32;
  if (!fp) return static_cast<uint32_t>(rng());
  switch (rng() % 8) {
    case 0:
      return (rng() % 2) << 31;  // signed zero
    case 1:
      return ((rng() % 2) << 31) | 0x7F800000u;  // infinity
    case 2:
      return 0x7F800000u | (static_cast<uint32_t>(rng()) & 0x7FFFFF) | 1u;  // NaN
    case 3:
      return static_cast<uint32_t>(rng()) & 0x807FFFFFu;  // subnormal or zero
    default: {
      return aries::coll::AsBits(std::ldexp(static_cast<float>(rng() % 2000) / 1000.0f - 1.0f,
                                            static_cast<int>(rng() % 40) - 20));
    }
  }
}

// One id: every port of `in` sends `count` request flits; the result leaves by `out`.
// Returns the expected result lanes per sequence number.
std::vector<std::vector<uint32_t>> SendReduction(EngineHarness& h, unsigned id, unsigned op,
                                                 unsigned in, unsigned count, std::mt19937& rng,
                                                 unsigned seq0 = 0) {
  std::vector<std::vector<uint32_t>> want(count, std::vector<uint32_t>(kEngLanes));
  for (unsigned s = 0; s < count; ++s) {
    std::vector<std::vector<uint32_t>> vals(kEngLanes, std::vector<uint32_t>(kEngPorts, 0));
    std::vector<bool> present(kEngPorts);
    for (unsigned p = 0; p < kEngPorts; ++p) {
      present[p] = (in >> p) & 1u;
      if (!present[p]) continue;
      CollFlit f;
      f.id = id;
      f.op = op;
      f.seq = (seq0 + s) & 0xFFF;
      f.vc = kEngReqVc;
      for (unsigned l = 0; l < kEngLanes; ++l) f.lanes[l] = vals[l][p] = RandomValue(op, rng);
      h.Send(p, f);
    }
    for (unsigned l = 0; l < kEngLanes; ++l) want[s][l] = EngineTreeReduce(op, present, vals[l]);
  }
  return want;
}

TEST(CollEngine, EveryOperationReducesFiveInputsUnderBackPressure) {
  for (unsigned op = 0; op < hw::kNumOps; ++op) {
    EngineHarness h(Seed() + op);
    std::mt19937 rng(static_cast<unsigned>(Seed() + op));
    h.set_send_rate(0.6);
    h.set_accept(0.5);
    const unsigned count = 40, dst = 2;
    Configure(h, 1, {op, count, 0x1F, dst, 0, 0});
    Program(h, 0, {1}, 1);
    h.WriteOk(hw::kRegEngCtrl, 1u << hw::kEngCtrlReqBit);
    const auto want = SendReduction(h, 1, op, 0x1F, count, rng);
    ASSERT_TRUE(h.RunUntil(count)) << OpName(op) << ": " << h.left().size() << " of " << count;
    for (unsigned s = 0; s < count; ++s) {
      const auto& l = h.left()[s];
      EXPECT_EQ(l.port, dst);
      EXPECT_EQ(l.flit.vc, kEngReqVc);
      EXPECT_EQ(l.flit.id, 1u);
      EXPECT_EQ(l.flit.op, op);
      EXPECT_EQ(l.flit.seq, s);
      EXPECT_EQ(l.flit.lanes, want[s]) << OpName(op) << " flit " << s;
    }
    for (int i = 0; i < 50; ++i) h.Step();
    EXPECT_EQ(h.left().size(), count) << "no extra flits";
    EXPECT_EQ(h.Read(hw::kRegEngCtrl), 0u) << "program finished";
    EXPECT_EQ(h.Read(hw::EngIdReg(1, hw::kIdRegReqDone)), count);
    EXPECT_EQ(h.Read(hw::kRegEngStatus), 0u);
    for (unsigned p = 0; p < kEngPorts; ++p) EXPECT_EQ(h.sender_credits(p, 0), kEngQueue);
    h.Step();  // past the last register response
    EXPECT_TRUE(h.dut().idle_o);
  }
}

// Partial input sets reduce in the tree order of their ports, and fp results repeat exactly.
TEST(CollEngine, PartialInputSetsFollowTheFixedTreeOrder) {
  for (unsigned in : {0x1Au, 0x01u, 0x14u, 0x0Eu, 0x19u}) {
    std::vector<uint32_t> first;
    for (int rep = 0; rep < 2; ++rep) {
      EngineHarness h(Seed() + in);
      std::mt19937 rng(in * 7 + 1);  // the same data both times
      h.set_send_rate(0.5 + 0.4 * rep);
      const unsigned count = 12;
      Configure(h, 2, {hw::kOpAddF32, count, in, 0, 0, 0});
      Program(h, 0, {2}, 1);
      h.WriteOk(hw::kRegEngCtrl, 1);
      const auto want = SendReduction(h, 2, hw::kOpAddF32, in, count, rng);
      ASSERT_TRUE(h.RunUntil(count));
      std::vector<uint32_t> got;
      for (unsigned s = 0; s < count; ++s) {
        EXPECT_EQ(h.left()[s].port, 0u);
        EXPECT_EQ(h.left()[s].flit.lanes, want[s]) << "inputs 0x" << std::hex << in;
        got.insert(got.end(), h.left()[s].flit.lanes.begin(), h.left()[s].flit.lanes.end());
      }
      if (rep == 0)
        first = got;
      else
        EXPECT_EQ(got, first) << "fp result changed with the arrival timing";
    }
  }
}

// The order is observable: with inputs 1e8, -1e8 and 1 on ports 1, 2, 3, the tree pairs slots
// (0, 1) and (2, 3), so it computes in1 + (in2 + in3) = 1e8 + (-1e8 + 1) = 0 in fp32, where
// the left-to-right order (in1 + in2) + in3 would give 1.
TEST(CollEngine, FpOrderIsTheTreeOfPortSlots) {
  EngineHarness h(Seed());
  Configure(h, 0, {hw::kOpAddF32, 1, 0x0E, 4, 0, 0});
  Program(h, 0, {0}, 1);
  h.WriteOk(hw::kRegEngCtrl, 1);
  auto bits = [](float f) { return aries::coll::AsBits(f); };
  const float in[4] = {0, 1e8f, -1e8f, 1.0f};
  for (unsigned p = 1; p <= 3; ++p) {
    CollFlit f;
    f.op = hw::kOpAddF32;
    f.lanes = {bits(in[p]), bits(in[p])};
    h.Send(p, f);
  }
  ASSERT_TRUE(h.RunUntil(1));
  // in1 + (in2 + in3) = 1e8 + (-1e8 + 1) = 1e8 - 1e8 = 0 (1 is lost in -1e8 + 1).
  EXPECT_EQ(h.left()[0].flit.lanes[0], bits(0.0f));
  EXPECT_EQ(h.left()[0].port, 4u);
}

TEST(CollEngine, ResponseIsCopiedToEveryPortOfTheSet) {
  EngineHarness h(Seed());
  std::mt19937 rng(3);
  h.set_send_rate(0.7);
  h.set_accept(0.4);
  const unsigned count = 30, outs = 0x17;  // ports 0, 1, 2, 4
  Configure(h, 3, {hw::kOpMaxF32, count, 0, 0, 3, outs});
  Program(h, 1, {3}, 1);
  h.WriteOk(hw::kRegEngCtrl, 1u << hw::kEngCtrlRspBit);
  std::vector<std::vector<uint32_t>> sent;
  for (unsigned s = 0; s < count; ++s) {
    CollFlit f;
    f.id = 3;
    f.op = hw::kOpMaxF32;
    f.seq = s;
    f.vc = kEngRspVc;
    for (auto& l : f.lanes) l = static_cast<uint32_t>(rng());
    sent.push_back(f.lanes);
    h.Send(3, f);
  }
  ASSERT_TRUE(h.RunUntil(4 * count));
  std::map<unsigned, unsigned> next;
  for (const auto& l : h.left()) {
    ASSERT_TRUE((outs >> l.port) & 1u) << "copy on port " << l.port;
    EXPECT_EQ(l.flit.vc, kEngRspVc);
    const unsigned s = next[l.port]++;
    EXPECT_EQ(l.flit.seq, s);
    EXPECT_EQ(l.flit.lanes, sent[s]);
  }
  for (unsigned p : {0u, 1u, 2u, 4u}) EXPECT_EQ(next[p], count);
  EXPECT_EQ(h.Read(hw::EngIdReg(3, hw::kIdRegRspDone)), count);
}

// The root of an all-reduce: the request result turns into this engine's responses and goes
// back to every child and the local endpoint.
TEST(CollEngine, AllReduceRootTurnsTheResultIntoResponses) {
  EngineHarness h(Seed());
  std::mt19937 rng(5);
  h.set_send_rate(0.8);
  h.set_accept(0.6);
  const unsigned count = 25;
  Configure(h, 1, {hw::kOpAddI32, count, 0x1F, hw::kEngTurn, hw::kEngTurn, 0x1F});
  Program(h, 0, {1}, 1);
  Program(h, 1, {1}, 1);
  h.WriteOk(hw::kRegEngCtrl, 3);
  const auto want = SendReduction(h, 1, hw::kOpAddI32, 0x1F, count, rng);
  ASSERT_TRUE(h.RunUntil(5 * count));
  std::map<unsigned, unsigned> next;
  for (const auto& l : h.left()) {
    EXPECT_EQ(l.flit.vc, kEngRspVc);
    const unsigned s = next[l.port]++;
    EXPECT_EQ(l.flit.seq, s);
    EXPECT_EQ(l.flit.lanes, want[s]) << "port " << l.port << " flit " << s;
  }
  for (unsigned p = 0; p < kEngPorts; ++p) EXPECT_EQ(next[p], count);
  EXPECT_EQ(h.Read(hw::kRegEngCtrl), 0u);
}

// Four ids share the queues; the program interleaves them in steps of 3 flits, 5 passes, and
// the senders follow the same order (as the controller orders every node). Random gaps and
// back-pressure; every result checked.
TEST(CollEngine, InterleavedIdsShareQueuesWithoutBlocking) {
  EngineHarness h(Seed());
  std::mt19937 rng(static_cast<unsigned>(Seed()));
  h.set_send_rate(0.5);
  h.set_accept(0.3);
  const unsigned step = 3, passes = 5;
  const IdCfg cfg[4] = {{hw::kOpAddI32, step, 0x1F, 1, 0, 0},
                        {hw::kOpMulF32, step, 0x0B, 2, 0, 0},
                        {hw::kOpXor, step, 0x16, 0, 0, 0},
                        {hw::kOpMinI32, step, 0x11, 1, 0, 0}};
  for (unsigned id = 0; id < 4; ++id) Configure(h, id, cfg[id]);
  const std::vector<unsigned> order = {2, 0, 3, 1};
  Program(h, 0, order, passes);
  h.WriteOk(hw::kRegEngCtrl, 1);
  std::map<unsigned, std::vector<std::vector<uint32_t>>> want;
  for (unsigned pass = 0; pass < passes; ++pass) {
    for (unsigned id : order) {
      auto w = SendReduction(h, id, cfg[id].op, cfg[id].req_in, step, rng, pass * step);
      want[id].insert(want[id].end(), w.begin(), w.end());
    }
  }
  ASSERT_TRUE(h.RunUntil(4 * step * passes));
  std::map<unsigned, unsigned> next;
  for (const auto& l : h.left()) {
    const unsigned id = l.flit.id;
    ASSERT_LT(id, 4u);
    EXPECT_EQ(l.port, cfg[id].req_out);
    const unsigned s = next[id]++;
    EXPECT_EQ(l.flit.seq, s);
    EXPECT_EQ(l.flit.lanes, want[id][s]) << "id " << id << " flit " << s;
  }
  for (unsigned id = 0; id < 4; ++id) EXPECT_EQ(next[id], step * passes);
  EXPECT_EQ(h.Read(hw::kRegEngStatus), 0u);
}

// Bad flits are dropped with their credit returned, counted, and described.
TEST(CollEngine, BadFlitsAreDroppedAndReported) {
  EngineHarness h(Seed());
  Configure(h, 1, {hw::kOpAddI32, 4, 0x03, 2, 0, 0});
  // A flit while no program runs.
  CollFlit f;
  f.id = 1;
  h.Send(3, f);
  for (int i = 0; i < 10; ++i) h.Step();
  EXPECT_EQ(h.Read(hw::kRegEngStatus), 1u << hw::kEngStatusIdleBit);
  EXPECT_EQ(h.Read(hw::kRegEngErrInfo), (3u << 16) | 1u);
  EXPECT_TRUE(h.dut().err_o);
  h.WriteOk(hw::kRegEngStatus, hw::kEngStatusMask);
  EXPECT_FALSE(h.dut().err_o);
  Program(h, 0, {1}, 1);
  h.WriteOk(hw::kRegEngCtrl, 1);
  // Unknown id (not enabled), on the response class.
  f.id = 2;
  f.vc = kEngRspVc;
  h.Send(4, f);
  // The current id with the wrong operation, then out of sequence.
  CollFlit g;
  g.id = 1;
  g.op = hw::kOpXor;
  h.Send(0, g);
  CollFlit k;
  k.id = 1;
  k.seq = 7;
  h.Send(1, k);
  for (int i = 0; i < 20; ++i) h.Step();
  EXPECT_EQ(h.Read(hw::kRegEngStatus), (1u << hw::kEngStatusUnknownIdBit) |
                                           (1u << hw::kEngStatusOpBit) |
                                           (1u << hw::kEngStatusSeqBit));
  EXPECT_EQ(h.Read(hw::kRegEngDropped), 4u);
  EXPECT_TRUE(h.left().empty());
  for (unsigned p = 0; p < kEngPorts; ++p) {
    EXPECT_EQ(h.sender_credits(p, 0), kEngQueue) << "credit of a dropped flit returned";
    EXPECT_EQ(h.sender_credits(p, 1), kEngQueue);
  }
  // Good flits still reduce afterwards.
  std::mt19937 rng(1);
  const auto want = SendReduction(h, 1, hw::kOpAddI32, 0x03, 4, rng);
  ASSERT_TRUE(h.RunUntil(4));
  for (unsigned s = 0; s < 4; ++s) EXPECT_EQ(h.left()[s].flit.lanes, want[s]);
}

TEST(CollEngine, RefusedRegisterAccessesChangeNothing) {
  EngineHarness h(Seed());
  EXPECT_EQ(h.Read(hw::kRegEngId), hw::kEngIdValue);
  EXPECT_EQ(h.Read(hw::kRegEngParams), kEngIds | (8u << 8) | (kEngQueue << 16) | (kEngPorts << 24));
  const uint32_t cfg = hw::EngIdReg(1, hw::kIdRegCfg);
  h.WriteOk(cfg, hw::kOpMaxI32 | (1u << hw::kIdCfgEnBit));
  h.WriteOk(hw::EngIdReg(1, hw::kIdRegCount), 9);
  struct Bad {
    uint32_t addr, value;
    bool readable;  // the address exists and can be read back unchanged
  };
  const Bad bad[] = {
      {hw::kRegEngId, 1, true},                                   // read-only
      {hw::kRegEngParams, 1, true},                               // read-only
      {hw::EngIdReg(1, hw::kIdRegReqDone), 0, true},              // read-only counter
      {cfg, hw::kNumOps, true},                                   // operation out of range
      {cfg, 0x1000, true},                                        // reserved bit
      {hw::EngIdReg(1, hw::kIdRegCount), 0, true},                // empty step
      {hw::EngIdReg(1, hw::kIdRegCount), 0x10000, true},          // count too large
      {hw::EngIdReg(1, hw::kIdRegReqIn), 1u << kEngPorts, true},  // no such port
      {hw::EngIdReg(1, hw::kIdRegReqOut), kEngPorts, true},       // no such port
      {hw::EngIdReg(1, hw::kIdRegRspIn), 30, true},               // neither a port nor EngTurn
      {hw::kRegEngReqProgBase, kEngIds, true},                    // id out of range
      {hw::kRegEngReqLen, 9, true},                               // longer than ProgDepth
      {hw::kRegEngReqLen, 1, true},                               // steps without passes
      {hw::kRegEngCtrl, 0x4, true},                               // reserved bit
      {hw::kRegEngCtrl, 1, true},                                 // empty program
      {hw::kRegEngStatus, 0x100, false},                          // reserved bit
      {hw::EngIdReg(kEngIds, 0), 0, false},                       // id beyond NumIds
      {hw::kRegEngReqProgBase + 8, 0, false},                     // step beyond ProgDepth
      {0x02FF, 0, false},                                         // unmapped
  };
  for (const Bad& b : bad) {
    const uint32_t before = b.readable ? h.Read(b.addr) : 0;
    EXPECT_FALSE(h.Write(b.addr, b.value)) << std::hex << "0x" << b.value << " to 0x" << b.addr;
    if (b.readable) {
      EXPECT_EQ(h.Read(b.addr), before) << std::hex << "0x" << b.addr;
    }
    EXPECT_NE(h.Read(hw::kRegEngStatus) & (1u << hw::kEngStatusCfgErrBit), 0u)
        << std::hex << "0x" << b.addr;
    h.WriteOk(hw::kRegEngStatus, hw::kEngStatusMask);
  }
  EXPECT_EQ(h.Read(cfg), hw::kOpMaxI32 | (1u << hw::kIdCfgEnBit));
  // A program naming a disabled id cannot start, nor one whose id has no inputs (request) or
  // no outputs (response).
  Program(h, 0, {3}, 1);
  EXPECT_FALSE(h.Write(hw::kRegEngCtrl, 1));
  Configure(h, 2, {hw::kOpAddI32, 2, 0, 0, 0, 0});
  Program(h, 0, {2}, 1);
  Program(h, 1, {2}, 1);
  EXPECT_FALSE(h.Write(hw::kRegEngCtrl, 1));
  EXPECT_FALSE(h.Write(hw::kRegEngCtrl, 2));
  h.WriteOk(hw::kRegEngStatus, hw::kEngStatusMask);
  Program(h, 0, {3}, 1);
  // While a program runs, its configuration is frozen.
  Configure(h, 3, {hw::kOpAddI32, 2, 0x01, 0, 0, 0});
  h.WriteOk(hw::kRegEngCtrl, 1);
  EXPECT_FALSE(h.Write(hw::EngIdReg(3, hw::kIdRegReqIn), 0x03));
  EXPECT_FALSE(h.Write(hw::kRegEngReqProgBase, 1));
  EXPECT_FALSE(h.Write(hw::kRegEngReqLen, 2 | (1u << 16)));
  EXPECT_FALSE(h.Write(hw::kRegEngCtrl, 1)) << "already running";
  EXPECT_EQ(h.Read(hw::EngIdReg(3, hw::kIdRegReqIn)), 0x01u);
  EXPECT_EQ(h.Read(hw::kRegEngCtrl), 1u);
}

// Zero load: a flit present at every input in cycle t leaves Levels + 2 cycles later (queue
// write, issue, Levels tree stages, output register): 5 for 5 ports. With every input full and
// every sink free, one result per cycle (line rate).
TEST(CollEngine, LatencyAndLineRate) {
  EngineHarness h(Seed());
  std::mt19937 rng(9);
  const unsigned count = 200;
  Configure(h, 0, {hw::kOpAddF32, count, 0x1F, 3, 0, 0});
  Program(h, 0, {0}, 1);
  h.WriteOk(hw::kRegEngCtrl, 1);
  const uint64_t t0 = h.cycle();
  SendReduction(h, 0, hw::kOpAddF32, 0x1F, count, rng);
  ASSERT_TRUE(h.RunUntil(count));
  const uint64_t first = h.left().front().cycle - t0;
  EXPECT_EQ(first, 5u) << "cycles from the inputs' cycle to the result leaving";
  // The output credit loop (issue, 4 cycles to the output, the sink's credit back, counter) is
  // 6 cycles, within the 8 credits; the input loop is 2 cycles: one flit per cycle.
  const uint64_t span = h.left().back().cycle - h.left().front().cycle + 1;
  EXPECT_EQ(span, count) << "one result per cycle";
}

}  // namespace
