// The per-node vector reader (tb/coll_io.cc): any bytes as an .npy file, read as int32 and fp32
// vectors of a size taken from the input; what it returns has exactly that size.
#include "coll_io.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint64_t elements = 1 + data[0] % 64;
  const std::string& path = aries::fuzz::AsFile(data + 1, size - 1, ".npy");
  for (const char* type : {"int32", "fp32"}) {
    try {
      const auto v = aries::tb::ReadVectorFile(path, type, elements);
      if (v.size() != elements) aries::fuzz::Finding("ReadVectorFile", "wrong element count");
    } catch (const std::runtime_error&) {
    } catch (const std::invalid_argument&) {
    } catch (const std::exception& e) {
      aries::fuzz::Finding("ReadVectorFile: an unexpected exception", e.what());
    }
  }
  return 0;
}
