// The packet-trace reader (tb/trace_file.cc) on a 16-node package: any bytes; a trace it accepts
// must hold only what the reader promises.
#include <stdexcept>

#include "fuzz_util.h"
#include "trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = aries::fuzz::AsFile(data, size, ".tr");
  try {
    const auto v = aries::tb::ReadTrace(path, 16);
    uint64_t last = 0;
    for (const auto& e : v) {
      if (e.src >= 16 || e.dst >= 16 || e.flits == 0 || e.flits > 1024 || e.cycle < last) {
        aries::fuzz::Finding("ReadTrace", "accepted an entry it promises to refuse");
      }
      last = e.cycle;
    }
    if (v.empty()) aries::fuzz::Finding("ReadTrace", "accepted a trace without packets");
  } catch (const std::runtime_error&) {
  } catch (const std::exception& e) {
    aries::fuzz::Finding("ReadTrace: an exception other than runtime_error", e.what());
  }
  return 0;
}
