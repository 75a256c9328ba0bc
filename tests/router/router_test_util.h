// Shared fixture of the router tests: a Verilated router behind RouterHarness.
// ARIES_SEED sets the seed; ARIES_TRACE=1 writes <test name>.fst for GTKWave.
#ifndef ARIES_TESTS_ROUTER_ROUTER_TEST_UTIL_H_
#define ARIES_TESTS_ROUTER_ROUTER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "router_harness.h"
#include "test_seed.h"
#include "verilated_router.h"

namespace aries::tb::test {

template <class V>
class RouterFixture : public ::testing::Test {
 protected:
  void Build(const RouterParams& p, HarnessConfig hc = {}) {
    hc.seed = seed_;
    dut_ = std::make_unique<VerilatedRouter<V>>(p, seed_);
    if (std::getenv("ARIES_TRACE")) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      dut_->OpenTrace(std::string(info->test_suite_name()) + "." + info->name() + ".fst");
    }
    h_ = std::make_unique<RouterHarness>(*dut_, hc);
  }
  void ExpectClean() {
    for (const auto& e : h_->errors()) ADD_FAILURE() << e;
    EXPECT_EQ(h_->outstanding(), 0u) << "flits still expected at the end";
  }
  uint64_t seed_ = aries::test::TestSeed(20261121);
  std::unique_ptr<RouterDut> dut_;
  std::unique_ptr<RouterHarness> h_;
};

}  // namespace aries::tb::test

#endif  // ARIES_TESTS_ROUTER_ROUTER_TEST_UTIL_H_
