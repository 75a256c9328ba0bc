// The technology file reader and its overrides (sim/energy/energy.cc): any bytes as a file, and
// the input's last line as a key=value override.
#include "energy.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = aries::fuzz::AsFile(data, size, ".tech");
  try {
    aries::energy::Tech t = aries::energy::LoadTech(path);
    const std::string text(reinterpret_cast<const char*>(data), size);
    const size_t nl = text.rfind('\n');
    try {
      aries::energy::Override(t, nl == std::string::npos ? text : text.substr(nl + 1));
    } catch (const std::invalid_argument&) {
    } catch (const std::runtime_error&) {
    }
  } catch (const std::invalid_argument&) {
  } catch (const std::runtime_error&) {
  } catch (const std::exception& e) {
    aries::fuzz::Finding("tech: an unexpected exception", e.what());
  }
  return 0;
}
