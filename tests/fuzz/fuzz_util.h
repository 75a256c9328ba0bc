// What the harnesses share: the input written to a file (the readers take paths), and a
// finding for an exception a reader must never throw (the documented refusals are the
// expected outcome of bad input; anything else, a crash or a sanitizer report, is a finding).
#ifndef ARIES_TESTS_FUZZ_FUZZ_UTIL_H_
#define ARIES_TESTS_FUZZ_FUZZ_UTIL_H_

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace aries::fuzz {

// A per-process file (its name ends in `suffix`) holding exactly `data`.
inline const std::string& AsFile(const uint8_t* data, size_t size, const char* suffix) {
  // Removed at exit: a corpus run starts one process per input directory, CI many.
  struct Owned {
    std::string path;
    ~Owned() {
      if (!path.empty()) std::remove(path.c_str());
    }
  };
  static Owned file;
  std::string& path = file.path;
  if (path.empty()) {
    path = "/tmp/aries_fuzz_" + std::to_string(getpid()) + suffix;
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

[[noreturn]] inline void Finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "FINDING: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace aries::fuzz

#endif  // ARIES_TESTS_FUZZ_FUZZ_UTIL_H_
