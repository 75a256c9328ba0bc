// The workload file reader (sim/train/workload.cc): any bytes as a workload CSV.
#include "fuzz_util.h"
#include "workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = aries::fuzz::AsFile(data, size, ".csv");
  try {
    aries::train::LoadWorkload(path);
  } catch (const std::invalid_argument&) {
  } catch (const std::runtime_error&) {
  } catch (const std::exception& e) {
    aries::fuzz::Finding("workload: an unexpected exception", e.what());
  }
  return 0;
}
