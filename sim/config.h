// Simulation configuration: one table of keys (description, default, allowed values), read
// from a file and `--set key=value` overrides, validated into typed settings.
//
// File format: one `key = value` per line, `#` starts a comment, blank lines ignored, e.g.
//   package.topology = torus
//   package.k = 8
//   traffic.rate = 0.3
// An unknown key or a bad value is an error naming the key, the value and what is allowed;
// nothing runs.
#ifndef ARIES_SIM_CONFIG_H_
#define ARIES_SIM_CONFIG_H_

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry.h"
#include "net_run.h"
#include "net_traffic.h"

namespace aries::sim {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct KeyInfo {
  const char* key;
  const char* default_value;
  const char* allowed;
  const char* description;
};
const std::vector<KeyInfo>& ConfigKeys();
// `aries keys`: one aligned line per key (key, default, allowed values, meaning).
int PrintConfigKeys();

// Raw key -> value, in table order, defaults filled in.
class Config {
 public:
  Config();
  void Set(const std::string& key, const std::string& value);  // throws ConfigError
  void SetAssignment(const std::string& key_eq_value);         // "key=value"
  void LoadFile(const std::string& path);
  const std::string& Get(const std::string& key) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// The validated, typed view.
struct SimSettings {
  sysc::PackageConfig package;
  std::string node = "auto";    // package.node: auto or a built parameter set's name
  std::string bypass = "none";  // none | random
  tb::TrafficConfig traffic;
  std::string trace_file;  // traffic.trace
  tb::RunConfig run;
  std::string kernel = "systemc";
  std::string model = "auto";  // sim.model: auto | rtl | fast | check (RunPackageCommand
                               // resolves auto: rtl for a run, fast for a sweep)
  uint64_t seed = 1;
  std::vector<double> sweep_rates;
};
SimSettings Validate(const Config& c);  // throws ConfigError

}  // namespace aries::sim

#endif  // ARIES_SIM_CONFIG_H_
