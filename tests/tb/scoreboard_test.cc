// The testbench's own checks, driven by a scripted fake router: each fault a router could
// commit (a duplicate, a reordering, an interleaved packet, corrupted data, a wrong VC, a
// receiver overflow, an invented credit, a lost flit) must be reported. Proves the checks the
// router tests rely on can fail.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "router_harness.h"

namespace aries::tb {
namespace {

// A router whose outputs the test scripts. It records every flit driven into it and answers
// register reads as an idle router would.
class FakeDut final : public RouterDut {
 public:
  explicit FakeDut(const RouterParams& p) : p_(p) {}
  const RouterParams& params() const override { return p_; }
  void SetNode(unsigned, unsigned) override {}
  void SetReset(bool) override {}
  void SetIn(unsigned port, bool valid, const uint32_t* words) override {
    if (valid) received_[port].emplace_back(words, words + 1 + p_.lanes);
  }
  void SetOutCredit(unsigned, unsigned, bool) override {}
  void SetCfg(bool req, bool, uint32_t addr, uint32_t) override { cfg_req_ = req, addr_ = addr; }
  bool OutValid(unsigned port) const override { return out_.count(port) != 0; }
  const uint32_t* OutWords(unsigned port) const override { return out_.at(port).data(); }
  bool InCredit(unsigned port, unsigned vc) const override {
    return credits_.count({port, vc}) != 0 || (extra_credit_ && port == 1 && vc == 0);
  }
  bool CfgRsp() const override { return rsp_; }
  uint32_t CfgRdata() const override { return rdata_; }
  bool CfgErr() const override { return false; }
  bool Err() const override { return false; }
  void Tick() override {
    out_ = std::move(next_out_);
    next_out_.clear();
    credits_ = std::move(next_credits_);
    next_credits_.clear();
    rsp_ = cfg_req_;
    const bool idle_reg = addr_ == hw::kRegOutIdle || addr_ == hw::kRegInEmpty;
    rdata_ = (cfg_req_ && idle_reg) ? ((1u << p_.num_ports) - 1) & ~busy_ports_ : 0;
    cfg_req_ = false;
    extra_credit_ = false;
    ++cycle_;
  }
  uint64_t cycle() const override { return cycle_; }
  void SetAssertionsOn(bool) override {}
  bool OpenTrace(const std::string&) override { return false; }

  // Script: the flit appears on `port` after the next Tick(), and its buffer slot at input
  // `from` is credited back as a router would.
  void Emit(unsigned port, std::vector<uint32_t> words, unsigned from) {
    next_credits_.insert({from, (words[0] >> hw::kHdrVcLsb) & 7u});
    next_out_[port] = std::move(words);
  }
  void EmitCreditOnce() { extra_credit_ = true; }
  /// Ports the fake reports as not idle / not empty (a lost credit, a stuck flit).
  uint32_t busy_ports_ = 0;
  std::map<unsigned, std::vector<std::vector<uint32_t>>> received_;

 private:
  RouterParams p_;
  std::map<unsigned, std::vector<uint32_t>> out_, next_out_;
  std::set<std::pair<unsigned, unsigned>> credits_, next_credits_;
  bool cfg_req_ = false, rsp_ = false, extra_credit_ = false;
  uint32_t addr_ = 0, rdata_ = 0;
  uint64_t cycle_ = 0;
};

constexpr RouterParams kP{5, 4, 32, 2, 64};

class Scoreboard : public ::testing::Test {
 protected:
  Scoreboard() : dut_(kP), h_(dut_, HarnessConfig{}) {}
  // Queues single-flit (or `len`-flit) packets from `in` to output +x on `vc`, steps until the
  // harness has driven them all, and returns the words the router received.
  std::vector<std::vector<uint32_t>> Send(unsigned in, unsigned count, unsigned len = 1,
                                          unsigned vc = 0) {
    for (unsigned k = 0; k < count; ++k) h_.Inject(in, h_.MakePacket(len, vc, false, 0, 2, 1));
    for (unsigned i = 0; i < count * len + 2; ++i) h_.Step();
    return dut_.received_[in];
  }
  void Deliver(unsigned out, const std::vector<uint32_t>& words, unsigned from = hw::kPortXM) {
    dut_.Emit(out, words, from);
    h_.Step();  // Tick moves the scripted flit onto the outputs
    h_.Step();  // the harness collects it
  }
  bool Reported(const std::string& what) const {
    for (const auto& e : h_.errors())
      if (e.find(what) != std::string::npos) return true;
    return false;
  }
  FakeDut dut_;
  RouterHarness h_;
};

TEST_F(Scoreboard, CorrectDeliveryPasses) {
  auto in = Send(hw::kPortXM, 2);
  Deliver(hw::kPortXP, in[0]);
  Deliver(hw::kPortXP, in[1]);
  EXPECT_TRUE(h_.RunUntilDrained(100));
  EXPECT_TRUE(h_.errors().empty()) << h_.errors().front();
}

TEST_F(Scoreboard, LostFlitKeepsTheRunFromDraining) {
  auto in = Send(hw::kPortXM, 2);
  Deliver(hw::kPortXP, in[0]);
  EXPECT_FALSE(h_.RunUntilDrained(100));
  EXPECT_EQ(h_.outstanding(), 1u);
}

TEST_F(Scoreboard, RouterNotIdleAtTheEndIsReported) {
  auto in = Send(hw::kPortXM, 1);
  Deliver(hw::kPortXP, in[0]);
  dut_.busy_ports_ = 1u << hw::kPortYP;  // e.g. a credit the router lost on output +y
  EXPECT_FALSE(h_.RunUntilDrained(100));
  EXPECT_TRUE(Reported("drained by the testbench but not by the router"));
}

TEST_F(Scoreboard, DuplicateIsReported) {
  auto in = Send(hw::kPortXM, 1);
  Deliver(hw::kPortXP, in[0]);
  Deliver(hw::kPortXP, in[0]);
  EXPECT_TRUE(Reported("was not expected"));
}

TEST_F(Scoreboard, WrongOutputIsReported) {
  auto in = Send(hw::kPortXM, 1);
  Deliver(hw::kPortYP, in[0]);
  EXPECT_TRUE(Reported("should not come out here"));
}

TEST_F(Scoreboard, ReorderingWithinAFlowIsReported) {
  auto in = Send(hw::kPortXM, 2);
  Deliver(hw::kPortXP, in[1]);
  Deliver(hw::kPortXP, in[0]);
  EXPECT_TRUE(Reported("overtook"));
}

TEST_F(Scoreboard, InterleavedPacketsOnOneVcAreReported) {
  auto a = Send(hw::kPortXM, 1, 2);
  auto b = Send(hw::kPortYM, 1, 2);
  Deliver(hw::kPortXP, a[0]);
  Deliver(hw::kPortXP, b[0], hw::kPortYM);
  EXPECT_TRUE(Reported("interleaves an open packet"));
}

TEST_F(Scoreboard, CorruptedPayloadIsReported) {
  auto in = Send(hw::kPortXM, 1);
  in[0][2] ^= 1u;  // lane 1 (lane 0 holds the tag)
  Deliver(hw::kPortXP, in[0]);
  EXPECT_TRUE(Reported("content changed"));
}

TEST_F(Scoreboard, WrongVcIsReported) {
  auto in = Send(hw::kPortXM, 1);
  in[0][0] |= 1u << hw::kHdrVcLsb;  // VC 1 instead of 0
  Deliver(hw::kPortXP, in[0]);
  EXPECT_TRUE(Reported("expected VC 0"));
}

TEST_F(Scoreboard, ReceiverOverflowIsReported) {
  h_.set_sink_blocked(hw::kPortXP, 0, true);
  auto in = Send(hw::kPortXM, 32);  // the source stops at 32 credits: exactly a full buffer
  auto more = Send(hw::kPortYM, 1);
  for (const auto& w : in) Deliver(hw::kPortXP, w);
  EXPECT_TRUE(h_.errors().empty()) << "32 flits fit the receiver";
  Deliver(hw::kPortXP, more[0], hw::kPortYM);  // the 33rd: the router ignored credits
  EXPECT_TRUE(Reported("receiver buffer overflow"));
}

TEST_F(Scoreboard, InventedCreditIsReported) {
  dut_.EmitCreditOnce();  // the router returns a credit for a slot nobody used
  h_.Step();
  h_.Step();
  EXPECT_TRUE(Reported("more credits than buffer slots"));
}

}  // namespace
}  // namespace aries::tb
