// Unit tests of rtl/prim on their Verilated models: directed corner cases, then seeded random
// stimulus with random back-pressure against a C++ reference. ARIES_SEED sets the seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <memory>
#include <random>

#include "Vprim_credit.h"
#include "Vprim_demux.h"
#include "Vprim_fifo.h"
#include "Vprim_mux.h"
#include "Vprim_reg_rsp.h"
#include "Vprim_rr_arb.h"
#include "death_util.h"
#include "test_seed.h"
#include "verilated.h"

namespace {

uint64_t Seed() { return aries::test::TestSeed(12345); }

// Owns a context and a model; Tick() is one rising + falling edge.
template <class V>
struct Dut {
  Dut() : ctx(new VerilatedContext), m(new V(ctx.get())) {
    ctx->randReset(2);
    m->clk_i = 0;
    m->rst_ni = 0;
    m->eval();
    Tick();
    m->rst_ni = 1;
    m->eval();
  }
  ~Dut() { m->final(); }
  // Low phase first: assertions sample the inputs as they were just before the rising edge.
  void Tick() {
    m->clk_i = 0;
    m->eval();
    m->clk_i = 1;
    m->eval();
  }
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> m;
};

// ---------------------------------------------------------------------------------------------
// aries_fifo (Width 16, Depth 5: not a power of two)
// ---------------------------------------------------------------------------------------------
constexpr unsigned kFifoDepth = 5;

TEST(Fifo, EmptyAfterResetFullAfterDepthPushes) {
  Dut<Vprim_fifo> d;
  EXPECT_FALSE(d.m->valid_o);
  EXPECT_TRUE(d.m->ready_o);
  d.m->ready_i = 0;
  for (unsigned i = 0; i < kFifoDepth; ++i) {
    d.m->valid_i = 1;
    d.m->data_i = 100 + i;
    d.Tick();
    EXPECT_EQ(d.m->count_o, i + 1);
  }
  EXPECT_FALSE(d.m->ready_o) << "full FIFO must refuse";
  d.m->data_i = 999;
  d.Tick();  // push refused: nothing changes
  EXPECT_EQ(d.m->count_o, kFifoDepth);
  d.m->valid_i = 0;
  d.m->ready_i = 1;
  for (unsigned i = 0; i < kFifoDepth; ++i) {
    d.m->eval();
    ASSERT_TRUE(d.m->valid_o);
    EXPECT_EQ(d.m->data_o, 100 + i);
    d.Tick();
  }
  EXPECT_FALSE(d.m->valid_o);
}

TEST(Fifo, NoSameCycleFallThrough) {
  Dut<Vprim_fifo> d;
  d.m->valid_i = 1;
  d.m->data_i = 7;
  d.m->ready_i = 1;
  d.m->eval();
  EXPECT_FALSE(d.m->valid_o) << "output must not depend combinationally on the input";
  d.Tick();
  d.m->valid_i = 0;
  d.m->eval();
  EXPECT_TRUE(d.m->valid_o);
  EXPECT_EQ(d.m->data_o, 7);
}

TEST(Fifo, RandomPushPopMatchesQueue) {
  std::mt19937_64 rng(Seed());
  Dut<Vprim_fifo> d;
  std::deque<uint16_t> ref;
  uint64_t pushes = 0, pops = 0;
  for (int cyc = 0; cyc < 20000; ++cyc) {
    const bool push = rng() % 3 != 0;
    const bool pop = rng() % 2 == 0;
    const uint16_t data = rng() & 0xFFFF;
    d.m->valid_i = push;
    d.m->data_i = data;
    d.m->ready_i = pop;
    d.m->eval();
    ASSERT_EQ(d.m->count_o, ref.size());
    ASSERT_EQ(bool(d.m->valid_o), !ref.empty());
    ASSERT_EQ(bool(d.m->ready_o), ref.size() < kFifoDepth);
    if (d.m->valid_o) {
      ASSERT_EQ(d.m->data_o, ref.front());
    }
    const bool did_pop = pop && !ref.empty();
    const bool did_push = push && ref.size() < kFifoDepth;
    d.Tick();
    if (did_pop) ref.pop_front(), ++pops;
    if (did_push) ref.push_back(data), ++pushes;
  }
  EXPECT_GT(pushes, 5000u);
  EXPECT_GT(pops, 5000u);
}

// ---------------------------------------------------------------------------------------------
// aries_rr_arb (N = 5)
// ---------------------------------------------------------------------------------------------
TEST(RrArb, GrantsRotateUnderPersistentRequests) {
  Dut<Vprim_rr_arb> d;
  d.m->req_i = 0x1F;
  d.m->update_i = 1;
  unsigned counts[5] = {};
  for (int i = 0; i < 100; ++i) {
    d.m->eval();
    ASSERT_TRUE(d.m->valid_o);
    ASSERT_EQ(d.m->gnt_o, 1u << d.m->idx_o);
    counts[d.m->idx_o]++;
    d.Tick();
  }
  for (unsigned c : counts) EXPECT_EQ(c, 20u);
}

TEST(RrArb, NoUpdateKeepsTheTurn) {
  Dut<Vprim_rr_arb> d;
  d.m->req_i = 0x6;  // requesters 1 and 2
  d.m->update_i = 0;
  d.m->eval();
  const unsigned first = d.m->idx_o;
  for (int i = 0; i < 5; ++i) {
    d.Tick();
    d.m->eval();
    EXPECT_EQ(d.m->idx_o, first);
  }
  d.m->update_i = 1;
  d.Tick();
  d.m->eval();
  EXPECT_NE(d.m->idx_o, first);
}

TEST(RrArb, RandomRequestsAreGrantedFairly) {
  std::mt19937_64 rng(Seed());
  Dut<Vprim_rr_arb> d;
  d.m->update_i = 1;
  // Starvation bound: a requester that keeps requesting waits at most N-1 grants.
  unsigned waiting[5] = {};
  for (int cyc = 0; cyc < 20000; ++cyc) {
    unsigned req = rng() & 0x1F;
    for (unsigned i = 0; i < 5; ++i)
      if (waiting[i]) req |= 1u << i;  // a waiting requester keeps its request
    d.m->req_i = req;
    d.m->eval();
    ASSERT_EQ(bool(d.m->valid_o), req != 0);
    if (req) {
      ASSERT_EQ(d.m->gnt_o & ~req, 0u);
      ASSERT_EQ(d.m->gnt_o, 1u << d.m->idx_o);
    } else {
      ASSERT_EQ(d.m->gnt_o, 0u);
    }
    for (unsigned i = 0; i < 5; ++i) {
      if (!(req >> i & 1)) continue;
      if (d.m->gnt_o >> i & 1) {
        waiting[i] = 0;
      } else {
        ASSERT_LT(++waiting[i], 5u) << "requester " << i << " starved";
      }
    }
    d.Tick();
  }
}

// ---------------------------------------------------------------------------------------------
// aries_stream_mux / aries_stream_demux (N = 3)
// ---------------------------------------------------------------------------------------------
TEST(StreamMux, SelectedInputOnlyReachesTheOutput) {
  Dut<Vprim_mux> d;
  std::mt19937_64 rng(Seed());
  for (int i = 0; i < 2000; ++i) {
    const unsigned sel = rng() % 3;
    const unsigned valid = rng() & 7;
    const uint32_t data = rng() & 0xFFFFFF;
    const bool ready = rng() & 1;
    d.m->sel_i = sel;
    d.m->valid_i = valid;
    d.m->data_i = data;
    d.m->ready_i = ready;
    d.m->eval();
    EXPECT_EQ(bool(d.m->valid_o), bool(valid >> sel & 1));
    EXPECT_EQ(d.m->data_o, (data >> (8 * sel)) & 0xFF);
    EXPECT_EQ(d.m->ready_o, ready ? (1u << sel) : 0u);
    d.Tick();
  }
}

TEST(StreamDemux, InputReachesTheSelectedOutputOnly) {
  Dut<Vprim_demux> d;
  std::mt19937_64 rng(Seed());
  for (int i = 0; i < 2000; ++i) {
    const unsigned sel = rng() % 3;
    const bool valid = rng() & 1;
    const unsigned ready = rng() & 7;
    d.m->sel_i = sel;
    d.m->valid_i = valid;
    d.m->ready_i = ready;
    d.m->eval();
    EXPECT_EQ(d.m->valid_o, valid ? (1u << sel) : 0u);
    EXPECT_EQ(bool(d.m->ready_o), bool(ready >> sel & 1));
    d.Tick();
  }
}

// ---------------------------------------------------------------------------------------------
// aries_credit_cnt (MaxCredits = 4)
// ---------------------------------------------------------------------------------------------
TEST(CreditCnt, CountsTakesAndGives) {
  Dut<Vprim_credit> d;
  d.m->eval();
  EXPECT_EQ(d.m->count_o, 4u);
  EXPECT_TRUE(d.m->full_o);
  d.m->take_i = 1;
  for (unsigned i = 0; i < 4; ++i) d.Tick();
  d.m->take_i = 0;
  d.m->eval();
  EXPECT_EQ(d.m->count_o, 0u);
  EXPECT_FALSE(d.m->avail_o);
  d.m->take_i = 1;
  d.m->give_i = 1;  // both in one cycle cancel, even at zero
  d.m->eval();
  EXPECT_FALSE(d.m->error_o);
  d.Tick();
  EXPECT_EQ(d.m->count_o, 0u);
  d.m->take_i = 0;
  d.Tick();
  d.m->give_i = 0;
  d.m->eval();
  EXPECT_EQ(d.m->count_o, 1u);
}

TEST(CreditCnt, TakeThenGiveReturnsToFull) {
  Dut<Vprim_credit> d;
  d.m->take_i = 1;
  d.Tick();
  d.m->take_i = 0;
  d.m->give_i = 1;
  d.Tick();
  d.m->give_i = 0;
  d.Tick();
  d.Tick();
  EXPECT_EQ(d.m->count_o, 4u);
  EXPECT_FALSE(d.m->error_o);
}

TEST(CreditCnt, UnderflowAndOverflowAreFlagged) {
  Dut<Vprim_credit> d;
  d.ctx->assertOn(false);  // observe error_o instead of aborting on the assertion
  d.m->give_i = 1;
  d.m->eval();
  EXPECT_TRUE(d.m->error_o) << "give with every credit home is an overflow";
  d.Tick();
  EXPECT_EQ(d.m->count_o, 4u) << "an overflow does not change the count";
  d.m->give_i = 0;
  d.m->take_i = 1;
  for (unsigned i = 0; i < 4; ++i) d.Tick();
  d.m->eval();
  EXPECT_TRUE(d.m->error_o) << "take with no credit is an underflow";
  d.Tick();
  EXPECT_EQ(d.m->count_o, 0u);
}

TEST(CreditCntDeathTest, OverflowTripsTheAssertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        aries::test::StdoutToStderr();
        Dut<Vprim_credit> d;
        d.m->give_i = 1;
        d.Tick();
        d.Tick();
      },
      "CreditOverflow_A");
}

// ---------------------------------------------------------------------------------------------
// aries_reg_rsp: every (req, we, ok) combination against the rule, with random read values
// ---------------------------------------------------------------------------------------------
TEST(RegRsp, AnswersEveryRequestTheNextCycle) {
  Dut<Vprim_reg_rsp> d;
  std::mt19937_64 rng(Seed());
  for (unsigned i = 0; i < 2000; ++i) {
    const unsigned req = rng() & 1u, we = rng() & 1u, ok = rng() & 1u;
    const uint32_t rdata = static_cast<uint32_t>(rng());
    d.m->req_i = req;
    d.m->we_i = we;
    d.m->ok_i = ok;
    d.m->rdata_i = rdata;
    d.m->eval();
    EXPECT_EQ(d.m->refused_o, req && !ok);
    d.Tick();
    EXPECT_EQ(d.m->rsp_o, req);
    EXPECT_EQ(d.m->err_o, req && !ok);
    EXPECT_EQ(d.m->rdata_o, req && ok && !we ? rdata : 0u) << "req " << req << " we " << we;
  }
}

}  // namespace
