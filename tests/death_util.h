// Death tests of RTL assertions: Verilator prints assertion failures on stdout, gtest matches
// the dying process's stderr, so the statement first sends stdout to stderr.
#ifndef ARIES_TESTS_DEATH_UTIL_H_
#define ARIES_TESTS_DEATH_UTIL_H_

#include <unistd.h>

#include <cstdio>

namespace aries::test {

inline void StdoutToStderr() {
  std::fflush(stdout);
  dup2(STDERR_FILENO, STDOUT_FILENO);
}

}  // namespace aries::test

#endif  // ARIES_TESTS_DEATH_UTIL_H_
