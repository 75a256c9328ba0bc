// aries_bypass_track (K = 8 switches joined by the track wires) against the package's segment
// resolution (coll::ResolveSegments): for every cut vector, what a router's upper tap drives
// arrives at exactly the lower tap of the next cutting router, and vice versa; nothing reaches
// a router whose switch passes; driving a passing switch's tap is reported.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "Vbypass_track.h"
#include "geometry.h"
#include "verilated.h"

namespace {

constexpr unsigned kK = 8;

class BypassTrack : public testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    m_ = std::make_unique<Vbypass_track>(ctx_.get());
    m_->clk_i = 0;
    m_->rst_ni = 1;
  }
  void Drive(unsigned cut, const std::vector<uint16_t>& lo, const std::vector<uint16_t>& hi) {
    m_->cut_i = cut;
    for (unsigned k = 0; k < kK; ++k) {
      Set(m_->tap_lo_i, k, lo[k]);
      Set(m_->tap_hi_i, k, hi[k]);
    }
    m_->eval();
  }
  template <typename T>
  static void Set(T& bus, unsigned k, uint16_t v) {
    const unsigned bit = k * 16;
    bus[bit / 32] = (bus[bit / 32] & ~(0xFFFFu << (bit % 32))) | (uint32_t{v} << (bit % 32));
  }
  template <typename T>
  static uint16_t Get(const T& bus, unsigned k) {
    const unsigned bit = k * 16;
    return static_cast<uint16_t>(bus[bit / 32] >> (bit % 32));
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vbypass_track> m_;
};

TEST_F(BypassTrack, SegmentsMatchThePackageResolution) {
  for (unsigned cut = 0; cut < (1u << kK); ++cut) {
    std::vector<bool> cv(kK);
    for (unsigned k = 0; k < kK; ++k) cv[k] = (cut >> k) & 1u;
    // Only cutting routers drive their taps; each drives a distinct nonzero value.
    std::vector<uint16_t> lo(kK, 0), hi(kK, 0);
    for (unsigned k = 0; k < kK; ++k) {
      if (cv[k]) {
        lo[k] = static_cast<uint16_t>(0x100 + k);
        hi[k] = static_cast<uint16_t>(0x200 + k);
      }
    }
    Drive(cut, lo, hi);
    std::vector<uint16_t> want_lo(kK, 0), want_hi(kK, 0);
    for (auto [a, b] : aries::coll::ResolveSegments(cv)) {
      want_lo[b] = hi[a];  // a's upper tap reaches b's lower tap
      want_hi[a] = lo[b];
    }
    for (unsigned k = 0; k < kK; ++k) {
      EXPECT_EQ(Get(m_->tap_lo_o, k), want_lo[k]) << "cut " << cut << " router " << k;
      EXPECT_EQ(Get(m_->tap_hi_o, k), want_hi[k]) << "cut " << cut << " router " << k;
    }
    EXPECT_EQ(m_->tap_drive_err_o, 0u);
  }
}

TEST_F(BypassTrack, DrivingAPassingSwitchIsReported) {
  std::vector<uint16_t> lo(kK, 0), hi(kK, 0);
  hi[3] = 0x55;
  Drive(0x81, lo, hi);  // routers 0 and 7 cut, 3 passes
  EXPECT_EQ(m_->tap_drive_err_o, 1u << 3);
  EXPECT_EQ(Get(m_->tap_lo_o, 7), 0u);  // the drive is lost
}

}  // namespace
