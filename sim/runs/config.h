// Configuration: one table of keys (description, default, allowed values, the subcommands that
// read it) for every subcommand, read from a file, `--set key=value` overrides and the
// subcommands' own flags (aliases of keys: `coll --topology mesh` is
// `--set package.topology=mesh`), validated into typed requests at the command-line boundary.
//
// File format: one `key = value` per line, `#` starts a comment, blank lines ignored, e.g.
//   package.topology = torus
//   package.k = 8
//   traffic.rate = 0.3
// An unknown key, a bad value, a key given twice, or a key the subcommand does not read is
// an error naming the key (and the flag or file line it came from), the value and what is
// allowed; nothing runs.
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

// What a key holds. The readers below check a value against it, and the allowed text of
// `aries keys` and of every refusal is made from it (KeyInfo::Allowed): a range is written
// once, here.
enum class KeyKind {
  kText,   // a name, a list or a file: its reader checks it (`allowed` says the form)
  kWord,   // one of the words of `allowed`
  kBool,   // true or false
  kUint,   // a decimal integer in [lo, hi]
  kBytes,  // a byte count (64, 4K, 2M, 16G) in [lo, hi]
  kReal,   // a number in [real_lo, real_hi] ((real_lo, real_hi] when real_open_lo)
  kNode,   // a node id, 0 .. K*K-1 of the package read
};
struct KeyType {
  KeyKind kind = KeyKind::kText;
  uint64_t lo = 0, hi = 0;
  double real_lo = 0, real_hi = 0;
  bool real_open_lo = false;
  bool auto_ok = false;  // kUint: "auto" too (its reader resolves it before KeyUint)
};
constexpr KeyType TextKey() { return {}; }
constexpr KeyType WordKey() { return {KeyKind::kWord}; }
constexpr KeyType BoolKey() { return {KeyKind::kBool}; }
constexpr KeyType NodeKey() { return {KeyKind::kNode}; }
constexpr KeyType UintKey(uint64_t lo, uint64_t hi) { return {KeyKind::kUint, lo, hi}; }
constexpr KeyType AutoUintKey(uint64_t lo, uint64_t hi) {
  return {KeyKind::kUint, lo, hi, 0, 0, false, true};
}
constexpr KeyType BytesKey(uint64_t lo, uint64_t hi) { return {KeyKind::kBytes, lo, hi}; }
constexpr KeyType RealKey(double lo, double hi, bool open_lo = false) {
  return {KeyKind::kReal, 0, 0, lo, hi, open_lo};
}

struct KeyInfo {
  const char* key;
  const char* default_value;
  // kWord: the allowed words, comma-separated; a number: a note after its range ("(fbfly:
  // 2 .. 8)"), or ""; kText: the form of the value.
  const char* allowed;
  const char* description;
  const char* commands;  // the subcommands that read it, space-separated ("run sweep coll")
  KeyType type;
  bool UsedBy(const std::string& command) const;
  // What the key allows, as `aries keys` and the refusals say it: "2 .. 32 (fbfly: 2 .. 8)".
  std::string Allowed() const;
};
const std::vector<KeyInfo>& ConfigKeys();
// The subcommands of `aries`, which KeyInfo::commands names.
const std::vector<std::string>& Subcommands();
const KeyInfo& KeyInfoOf(const std::string& key);  // throws ConfigError naming the known keys
// "; did you mean 'X'?" for the candidate nearest to `word` (edit distance at most a third of
// its length, at least 2), or "" when none is that near: the tail of a refusal.
std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates);
// `aries keys`: the keys with defaults, allowed values, meaning and the subcommands that read
// them, aligned.
int PrintConfigKeys();

// Raw key -> value, in table order, defaults filled in; each value remembers where it came from
// (the default, "--set", a flag such as "--topology", or "FILE:LINE") for the error messages.
class Config {
 public:
  Config();
  // Sets `key` from `origin`; throws ConfigError for an unknown key, or for a key already set
  // on the command line or in the same file (the user gave two values; neither is taken).
  // Values from a file may be overridden once by the command line.
  void Set(const std::string& key, const std::string& value, const std::string& origin = "--set");
  void SetAssignment(const std::string& key_eq_value, const std::string& origin = "--set");
  void LoadFile(const std::string& path);
  const std::string& Get(const std::string& key) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  // Where the value of `key` came from ("" for the default).
  const std::string& Origin(const std::string& key) const;
  // Whether `key` was given on the command line (--set or a flag), not in a file or defaulted:
  // what a run that would ignore it refuses (a configuration file may hold keys for other runs).
  bool FromCommandLine(const std::string& key) const { return Origin(key).rfind("--", 0) == 0; }
  // Throws ConfigError naming the first key set (not defaulted) that `command` does not read,
  // where it was set, and the keys the command reads.
  void RefuseUnread(const std::string& command) const;

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> origin_;
};

// Typed reads for the request builders, each checked against the key's type and range in the
// table: each throws ConfigError naming the key, the value, its origin and what the table
// allows. Integers are decimal only.
uint64_t KeyUint(const Config& c, const std::string& key);
double KeyReal(const Config& c, const std::string& key);
uint64_t KeyBytes(const Config& c, const std::string& key);
bool KeyBool(const Config& c, const std::string& key);
// A node id of a package of `nodes` chiplets (coll.root, traffic.hotspot).
unsigned KeyNode(const Config& c, const std::string& key, unsigned nodes);
// KeyUint where the reader takes less than the table allows, for the reason `why` (train's K:
// "2 .. 16: the cost models' packages"): refused naming that range and reason.
uint64_t KeyUintWithin(const Config& c, const std::string& key, uint64_t lo, uint64_t hi,
                       const std::string& why);
// "64", "4K", "2M", "16G" (K, M and G are 1024, 1024^2 and 1024^3) -> bytes in 1 .. `max`; throws
// std::invalid_argument naming the option, `s` and the format.
uint64_t ParseBytes(const std::string& s, const char* option = "--size",
                    uint64_t max = uint64_t{1} << 40);
// One of the table's allowed words (a comma-separated `allowed`).
const std::string& KeyWord(const Config& c, const std::string& key);
[[noreturn]] void BadKey(const Config& c, const std::string& key, const std::string& why = "");
// The package geometry keys (package.topology, k, tracks, link_latency, extra_per_pitch);
// without `with_topology` the topology is left at its default (a sweep sets it per run) and
// the faults, which name the topology's links, are not read (a sweep does not take faults).
coll::Geometry GeometryOf(const Config& c, bool with_topology = true);
// package.faults and package.fault_file against the geometry `g` (ConfigError naming the fault).
coll::FaultSet FaultsOf(const Config& c, const coll::Geometry& g);

// How many runs a request makes: what sim.model = auto resolves by.
enum class RunScale {
  kOne,   // one run a user looks at (run, coll, the default run): the RTL
  kMany,  // runs made many at a time (sweep, coll-sweep, fig11, report, train --check, library
          // callers): the fast model, the RTL's cycles proven pin by pin
};
// The node model sim.model = `model` names: auto by the one rule above; rtl, fast and check
// name themselves.
std::string ResolveModel(const std::string& model, RunScale scale);

// The validated, typed view.
struct SimSettings {
  sysc::PackageConfig package;
  std::string node = "auto";             // package.node: auto or a built parameter set's name
  std::string bypass = "none";           // none | random
  std::string fault_routing = "tables";  // tables | dor (package.fault_routing)
  tb::TrafficConfig traffic;
  std::string trace_file;  // traffic.trace
  tb::RunConfig run;
  std::string kernel = "systemc";
  std::string model = "auto";    // sim.model: auto | rtl | fast | check (RunPackageCommand
                                 // resolves auto: rtl for a run, fast for a sweep)
  std::string payload = "auto";  // sim.payload: auto | full | id (RunPackageCommand resolves
                                 // auto)
  uint64_t seed = 1;
};
SimSettings Validate(const Config& c);  // throws ConfigError
// sweep.rates (aries sweep's loads); throws ConfigError naming a bad one.
std::vector<double> SweepRates(const Config& c);

}  // namespace aries::sim

#endif  // ARIES_SIM_CONFIG_H_
