// aries_port_mux (3 links, 4 VCs, 64-bit flits) on its Verilated model: every select routes
// flits and credits both ways, unselected links are silent and reported when used, and random
// stimulus with random select changes matches a C++ reference cycle by cycle.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>

#include "Vport_mux.h"
#include "death_util.h"
#include "test_seed.h"
#include "verilated.h"

namespace {

constexpr unsigned kLinks = 3, kVcs = 4;

uint64_t Seed() { return aries::test::TestSeed(777); }

class PortMux : public ::testing::Test {
 protected:
  PortMux() : ctx_(new VerilatedContext), m_(new Vport_mux(ctx_.get())) {
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
    m_->rst_ni = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
  }
  ~PortMux() override { m_->final(); }
  // Low phase then rising edge, so the (clocked) assertions see this cycle's inputs.
  void Tick() {
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
  }
  static uint64_t Flit(unsigned link, unsigned n) { return (uint64_t{link} << 56) | n; }
  void SetLinkFlits(unsigned valid_mask, unsigned n) {
    m_->lnk_in_valid_i = valid_mask;
    for (unsigned l = 0; l < kLinks; ++l) {
      const uint64_t f = Flit(l, n);
      m_->lnk_in_flit_i[2 * l] = static_cast<uint32_t>(f);
      m_->lnk_in_flit_i[2 * l + 1] = static_cast<uint32_t>(f >> 32);
    }
  }
  uint64_t RouterInFlit() const { return m_->rtr_in_flit_o; }
  uint64_t LinkOutFlit(unsigned l) const {
    return m_->lnk_out_flit_o[2 * l] | (uint64_t{m_->lnk_out_flit_o[2 * l + 1]} << 32);
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vport_mux> m_;
};

TEST_F(PortMux, EverySelectRoutesFlitsAndCreditsBothWays) {
  for (unsigned in_sel = 0; in_sel < kLinks; ++in_sel) {
    for (unsigned out_sel = 0; out_sel < kLinks; ++out_sel) {
      m_->in_sel_i = in_sel;
      m_->out_sel_i = out_sel;
      SetLinkFlits(1u << in_sel, 10 + in_sel);
      m_->rtr_in_credit_i = 0x5;
      m_->rtr_out_valid_i = 1;
      m_->rtr_out_flit_i = 0xABCDEF0123ull;
      m_->lnk_out_credit_i = 0x9u << (out_sel * kVcs);
      m_->eval();
      EXPECT_TRUE(m_->rtr_in_valid_o);
      EXPECT_EQ(RouterInFlit(), Flit(in_sel, 10 + in_sel));
      EXPECT_EQ(m_->lnk_in_credit_o, 0x5u << (in_sel * kVcs)) << "credit to the selected link only";
      EXPECT_EQ(m_->lnk_out_valid_o, 1u << out_sel);
      EXPECT_EQ(LinkOutFlit(out_sel), 0xABCDEF0123ull);
      EXPECT_EQ(m_->rtr_out_credit_o, 0x9u);
      EXPECT_FALSE(m_->stray_o);
      Tick();
    }
  }
}

TEST_F(PortMux, TrafficOnAnUnselectedLinkIsReported) {
  ctx_->assertOn(false);  // observe stray_o instead of aborting on the assertion
  m_->in_sel_i = 0;
  m_->out_sel_i = 0;
  SetLinkFlits(0x4, 1);  // a flit on the y-bypass while the mesh link is selected
  m_->eval();
  EXPECT_FALSE(m_->rtr_in_valid_o) << "the stray flit does not reach the router";
  EXPECT_TRUE(m_->stray_o);
  SetLinkFlits(0, 0);
  m_->lnk_out_credit_i = 0x1u << kVcs;  // a credit from the x-bypass receiver
  m_->eval();
  EXPECT_EQ(m_->rtr_out_credit_o, 0u);
  EXPECT_TRUE(m_->stray_o);
}

TEST(PortMuxDeathTest, StrayFlitTripsTheAssertion) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        aries::test::StdoutToStderr();
        VerilatedContext ctx;
        Vport_mux m(&ctx);
        m.rst_ni = 1;
        m.eval();
        m.rst_ni = 0;
        m.eval();
        m.rst_ni = 1;
        m.in_sel_i = 1;
        m.lnk_in_valid_i = 0x1;
        m.clk_i = 0;
        m.eval();
        m.clk_i = 1;
        m.eval();
      },
      "NoFlitOnUnselectedLink_A");
}

TEST_F(PortMux, RandomStimulusMatchesTheReference) {
  std::mt19937_64 rng(Seed());
  unsigned in_sel = 0, out_sel = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    if (rng() % 50 == 0) in_sel = rng() % kLinks;
    if (rng() % 50 == 0) out_sel = rng() % kLinks;
    m_->in_sel_i = in_sel;
    m_->out_sel_i = out_sel;
    const bool in_valid = rng() & 1;
    SetLinkFlits(in_valid ? (1u << in_sel) : 0, cycle);
    const unsigned rtr_credit = rng() & 0xF;
    m_->rtr_in_credit_i = rtr_credit;
    const bool out_valid = rng() & 1;
    const uint64_t out_flit = rng();
    m_->rtr_out_valid_i = out_valid;
    m_->rtr_out_flit_i = out_flit;
    const unsigned lnk_credit = rng() & 0xF;
    m_->lnk_out_credit_i = lnk_credit << (out_sel * kVcs);
    m_->eval();
    ASSERT_EQ(bool(m_->rtr_in_valid_o), in_valid);
    if (in_valid) {
      ASSERT_EQ(RouterInFlit(), Flit(in_sel, cycle));
    }
    ASSERT_EQ(m_->lnk_in_credit_o, rtr_credit << (in_sel * kVcs));
    ASSERT_EQ(m_->lnk_out_valid_o, out_valid ? (1u << out_sel) : 0u);
    for (unsigned l = 0; l < kLinks; ++l) ASSERT_EQ(LinkOutFlit(l), out_flit);
    ASSERT_EQ(m_->rtr_out_credit_o, lnk_credit);
    ASSERT_FALSE(m_->stray_o);
    Tick();
  }
}

}  // namespace
