// GoogleTest entry for test programs that link SystemC: libsystemc owns main() and calls
// sc_main(). Each test runs in its own process (gtest_discover_tests), so a test may
// elaborate one SystemC design.
#include <gtest/gtest.h>

#include <cstdlib>

namespace {
// Before SystemC's first use (static initialisation): keep its banner out of the test logs.
const int kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
