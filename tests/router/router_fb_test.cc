// aries_router as a flattened-butterfly router of an 8x8 package: 1 + 2*7 = 15 ports, 2 VCs,
// 4-flit buffers, one lane. Every port is reached by DOR, and random traffic drains.
#include <random>

#include "Vrouter_fb.h"
#include "router_test_util.h"

namespace aries::tb::test {
namespace {

constexpr RouterParams kFb{15, 2, 4, 1, 16};
constexpr unsigned kK = 8;

class RouterFbfly : public RouterFixture<Vrouter_fb> {
 protected:
  void SetUp() override {
    Build(kFb);
    h_->Reset(1, 2);
    ASSERT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoFbfly, kK, kK)).err);
  }
};

TEST_F(RouterFbfly, EveryRowAndColumnNeighbourHasItsOwnPort) {
  // Router (1,2): row ports 1..7 reach columns 0,2..7; column ports 8..14 reach rows 0,1,3..7.
  unsigned out = 1;
  for (unsigned col = 0; col < kK; ++col) {
    if (col == 1) continue;
    h_->Inject(0, h_->MakePacket(1, 0, false, 0, col, 2));
    ASSERT_TRUE(h_->RunUntilDrained(100));
    EXPECT_EQ(h_->deliveries().back().out, out++) << "column " << col;
    EXPECT_EQ(h_->deliveries().back().cycle - h_->deliveries().back().inject_cycle, 2u);
  }
  for (unsigned row = 0; row < kK; ++row) {
    if (row == 2) continue;
    h_->Inject(out % 15, h_->MakePacket(1, 1, false, 0, 1, row));
    ASSERT_TRUE(h_->RunUntilDrained(100));
    EXPECT_EQ(h_->deliveries().back().out, out++) << "row " << row;
  }
  EXPECT_EQ(out, 15u);
  // A diagonal destination goes along the row first.
  h_->Inject(0, h_->MakePacket(1, 0, false, 0, 3, 0));
  ASSERT_TRUE(h_->RunUntilDrained(100));
  EXPECT_EQ(h_->deliveries().back().out, 3u) << "column 3 is the third row port";
  ExpectClean();
}

TEST_F(RouterFbfly, RandomTrafficWithShallowBuffersDrains) {
  std::mt19937_64 rng(seed_);
  h_->set_sink_accept(0.5);
  for (int cycle = 0; cycle < 3000; ++cycle) {
    for (unsigned in = 0; in < 15; ++in)
      if (rng() % 6 == 0)
        h_->Inject(in, h_->MakePacket(1 + rng() % 5, rng() % 2, false, 0, rng() % kK, rng() % kK));
    h_->Step();
  }
  h_->set_sink_accept(1.0);
  ASSERT_TRUE(h_->RunUntilDrained(20000));
  EXPECT_GT(h_->deliveries().size(), 1000u);
  ExpectClean();
}

TEST_F(RouterFbfly, CtrlChecksTheRadixAgainstTheGrid) {
  // 2 VCs allow the torus; the flattened butterfly needs 15 ports for 8x8 and 17 for 9x9.
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoTorus, 4, 4)).err);
  EXPECT_TRUE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoFbfly, 9, 9)).err);
  EXPECT_FALSE(h_->Write(hw::kRegCtrl, hw::CtrlValue(hw::kTopoFbfly, 8, 8)).err);
  ExpectClean();
}

}  // namespace
}  // namespace aries::tb::test
