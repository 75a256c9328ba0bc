// aries_coll_lane (one reduction lane with its result register, every opcode) against the
// golden model collectives/arith:
// random operands drawn from every fp32 class (zeros, subnormals, normals near 1, near the
// overflow and underflow thresholds, infinities, NaNs) and from the int32 corners, plus the
// documented special cases by hand; and the golden model itself against the host FPU with
// DAZ and FTZ set, where the two definitions coincide.
#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <cmath>
#include <random>

#include "Vcoll_lane.h"
#include "aries_pkg.h"
#include "arith.h"
#include "test_seed.h"
#include "verilated.h"

namespace {

namespace hw = aries::hw;
using aries::coll::kCanonicalNaN;
using aries::coll::LaneOp;
using aries::coll::OpName;

uint32_t Bits(float f) { return aries::coll::AsBits(f); }

class Lane {
 public:
  Lane()
      : ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Vcoll_lane>(ctx_.get())) {}
  // One enabled cycle: the result is in the lane's register after the edge.
  uint32_t Eval(unsigned op, uint32_t a, uint32_t b) { return Cycle(true, op, a, b); }
  // One cycle with en_i low.
  uint32_t Hold(unsigned op, uint32_t a, uint32_t b) { return Cycle(false, op, a, b); }

 private:
  uint32_t Cycle(bool en, unsigned op, uint32_t a, uint32_t b) {
    m_->en_i = en;
    m_->op_i = op;
    m_->a_i = a;
    m_->b_i = b;
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
    return m_->y_o;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcoll_lane> m_;
};

// An fp32 bit pattern from a random class.
uint32_t RandomF32(std::mt19937& rng) {
  std::uniform_int_distribution<uint32_t> frac(0, 0x7FFFFF), sign(0, 1), cls(0, 11);
  const uint32_t s = sign(rng) << 31;
  switch (cls(rng)) {
    case 0:
      return s;  // zero
    case 1:
      return s | (frac(rng) | 1u);  // subnormal
    case 2:
      return s | (0xFFu << 23);  // infinity
    case 3:
      return s | (0xFFu << 23) | (frac(rng) | 1u);  // NaN
    case 4:
      return s | ((1u + rng() % 4) << 23) | frac(rng);  // just above 2^-126
    case 5:
      return s | ((250u + rng() % 4) << 23) | frac(rng);  // near overflow
    case 6:
      return s | ((60u + rng() % 10) << 23) | frac(rng);  // products near 2^-126
    case 7:
      return s | ((190u + rng() % 10) << 23) | frac(rng);  // products near overflow
    case 8:
      return s | (127u << 23) | (frac(rng) & 0x7FFFF0u);  // near 1, few low bits
    default:
      return s | ((1u + rng() % 254) << 23) | frac(rng);  // any normal
  }
}

uint32_t RandomI32(std::mt19937& rng) {
  static const uint32_t kCorners[] = {0, 1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x80000001u};
  if (rng() % 4 == 0) return kCorners[rng() % 6];
  return static_cast<uint32_t>(rng());
}

TEST(CollLane, EveryOpMatchesTheGoldenModelOnRandomOperands) {
  Lane lane;
  std::mt19937 rng(static_cast<unsigned>(aries::test::TestSeed() + 5));
  for (unsigned op = 0; op < hw::kNumOps; ++op) {
    const bool fp = op >= hw::kOpAddF32 && op <= hw::kOpMaxF32;
    unsigned bad = 0;
    for (int i = 0; i < 200000 && bad < 5; ++i) {
      uint32_t a = fp ? RandomF32(rng) : RandomI32(rng);
      uint32_t b = fp ? RandomF32(rng) : RandomI32(rng);
      if (fp && i % 7 == 0) b = a ^ 0x80000000u;  // exact cancellation
      if (fp && i % 11 == 0) b = (a & 0xFF800000u) | (static_cast<uint32_t>(rng()) & 0x7FFFFF);
      const uint32_t want = LaneOp(op, a, b), got = lane.Eval(op, a, b);
      if (want != got) {
        ++bad;
        ADD_FAILURE() << OpName(op) << std::hex << " a=0x" << a << " b=0x" << b << " want 0x"
                      << want << " got 0x" << got;
      }
    }
  }
}

TEST(CollLane, DocumentedSpecialCases) {
  Lane lane;
  const uint32_t pz = 0, nz = 0x80000000u, pinf = 0x7F800000u, ninf = 0xFF800000u;
  const uint32_t one = Bits(1.0f), sub = 0x00000123u, nsub = 0x80000123u;
  const uint32_t snan = 0x7F800001u;
  // Signed zeros.
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, pz, nz), pz);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, nz, nz), nz);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, one, one ^ 0x80000000u), pz);
  EXPECT_EQ(lane.Eval(hw::kOpMulF32, nz, one), nz);
  EXPECT_EQ(lane.Eval(hw::kOpMinF32, pz, nz), nz);
  EXPECT_EQ(lane.Eval(hw::kOpMaxF32, nz, pz), pz);
  // NaN: canonical, also for inf - inf and 0 * inf; min and max propagate it.
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, snan, one), kCanonicalNaN);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, pinf, ninf), kCanonicalNaN);
  EXPECT_EQ(lane.Eval(hw::kOpMulF32, pz, pinf), kCanonicalNaN);
  EXPECT_EQ(lane.Eval(hw::kOpMinF32, one, snan), kCanonicalNaN);
  // Infinities and overflow.
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, pinf, one), pinf);
  EXPECT_EQ(lane.Eval(hw::kOpMulF32, Bits(3e38f), Bits(-2.0f)), ninf);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, Bits(3.4e38f), Bits(3.4e38f)), pinf);
  // Subnormals: read as zero (DAZ), results flushed (FTZ).
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, sub, one), one);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, sub, nsub), pz);
  EXPECT_EQ(lane.Eval(hw::kOpMulF32, sub, one), pz);
  EXPECT_EQ(lane.Eval(hw::kOpMaxF32, nsub, sub), pz);
  EXPECT_EQ(lane.Eval(hw::kOpMulF32, Bits(1e-20f), Bits(-1e-20f)), nz);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, Bits(1.5f * std::ldexp(1.0f, -126)),
                      Bits(-1.0f * std::ldexp(1.0f, -126))),
            pz);
  // Round to nearest even: 1 + 2^-24 is a tie that goes to 1; 1 + 3 * 2^-24 goes up.
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, one, Bits(std::ldexp(1.0f, -24))), one);
  EXPECT_EQ(lane.Eval(hw::kOpAddF32, one, Bits(3 * std::ldexp(1.0f, -24))), one + 2);
  // Integers wrap.
  EXPECT_EQ(lane.Eval(hw::kOpAddI32, 0x7FFFFFFFu, 1), 0x80000000u);
  EXPECT_EQ(lane.Eval(hw::kOpMulI32, 0x10000u, 0x10000u), 0u);
  EXPECT_EQ(lane.Eval(hw::kOpMinI32, 0xFFFFFFFFu, 1), 0xFFFFFFFFu);
  // An opcode out of range gives 0.
  EXPECT_EQ(lane.Eval(hw::kNumOps, 5, 6), 0u);
}

// Without en_i the register keeps its value.
TEST(CollLane, HoldsItsResultWhileNotEnabled) {
  Lane lane;
  EXPECT_EQ(lane.Eval(hw::kOpAddI32, 2, 3), 5u);
  EXPECT_EQ(lane.Hold(hw::kOpAddI32, 10, 10), 5u);
}

// The golden model against the host FPU in its DAZ + FTZ mode, on operands whose results are
// not in the band where the two tininess rules differ (the host detects tininess before or
// after rounding depending on the architecture; the model defines it after rounding).
TEST(CollLaneGolden, AgreesWithTheHostFpuInDazFtzMode) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040);  // FTZ (bit 15) and DAZ (bit 6)
  std::mt19937 rng(7);
  unsigned checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint32_t a = RandomF32(rng), b = RandomF32(rng);
    const float fa = aries::coll::AsFloat(a), fb = aries::coll::AsFloat(b);
    volatile float s = fa + fb, p = fa * fb;
    const float ss = s, pp = p;
    const uint32_t hs = std::isnan(ss) ? kCanonicalNaN : Bits(ss);
    const uint32_t hp = std::isnan(pp) ? kCanonicalNaN : Bits(pp);
    const double exact = static_cast<double>(fa) * static_cast<double>(fb);
    const bool band =
        std::fabs(exact) > std::ldexp(1.0, -127) && std::fabs(exact) < std::ldexp(1.0, -126);
    EXPECT_EQ(LaneOp(hw::kOpAddF32, a, b), hs) << std::hex << a << " + " << b;
    if (!band) {
      EXPECT_EQ(LaneOp(hw::kOpMulF32, a, b), hp) << std::hex << a << " * " << b;
      ++checked;
    }
  }
  _mm_setcsr(saved);
  EXPECT_GT(checked, 190000u);
}

}  // namespace
