// The seed of a randomized test: ARIES_SEED if set, else the suite's fixed default, printed so
// a failing run can be repeated exactly.
#ifndef ARIES_TESTS_TEST_SEED_H_
#define ARIES_TESTS_TEST_SEED_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace aries::test {

inline uint64_t TestSeed(uint64_t fallback = 20261122) {
  const char* s = std::getenv("ARIES_SEED");
  const uint64_t seed = s ? std::strtoull(s, nullptr, 0) : fallback;
  std::printf("seed %llu (set ARIES_SEED to change)\n", static_cast<unsigned long long>(seed));
  return seed;
}

}  // namespace aries::test

#endif  // ARIES_TESTS_TEST_SEED_H_
