// The configuration file and key parser (sim/runs/config_keys.cc): any bytes as a config file, then
// every line as --set; every subcommand's unread-key check, the geometry, the sweep loads and a
// typed read of every key. A bad input must end in ConfigError, nothing else.
#include "config.h"
#include "fuzz_util.h"

using namespace aries::sim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = aries::fuzz::AsFile(data, size, ".cfg");
  try {
    Config c;
    try {
      c.LoadFile(path);
    } catch (const ConfigError&) {
    }
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t b = 0;
    while (b < text.size()) {
      size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      try {
        c.SetAssignment(text.substr(b, e - b), "--set");
      } catch (const ConfigError&) {
      }
      b = e + 1;
    }
    for (const std::string& cmd : Subcommands()) {
      try {
        c.RefuseUnread(cmd);
      } catch (const ConfigError&) {
      }
    }
    for (const KeyInfo& k : ConfigKeys()) {  // each key through the reader of its type
      try {
        switch (k.type.kind) {
          case KeyKind::kUint:
            KeyUint(c, k.key);
            break;
          case KeyKind::kReal:
            KeyReal(c, k.key);
            break;
          case KeyKind::kBytes:
            KeyBytes(c, k.key);
            break;
          case KeyKind::kBool:
            KeyBool(c, k.key);
            break;
          case KeyKind::kWord:
            KeyWord(c, k.key);
            break;
          case KeyKind::kNode:
            KeyNode(c, k.key, 16);
            break;
          case KeyKind::kText:
            break;
        }
      } catch (const ConfigError&) {
      }
    }
    try {
      GeometryOf(c);
    } catch (const ConfigError&) {
    }
    try {
      const auto rates = SweepRates(c);
      for (double r : rates) {
        if (!(r > 0 && r <= 1)) aries::fuzz::Finding("SweepRates", "a rate outside (0, 1]");
      }
    } catch (const ConfigError&) {
    }
  } catch (const std::exception& e) {
    aries::fuzz::Finding("config: an exception other than ConfigError", e.what());
  }
  return 0;
}
