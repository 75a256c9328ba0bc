#include "config.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "node_models.h"

namespace aries::sim {

const std::vector<KeyInfo>& ConfigKeys() {
  static const std::vector<KeyInfo> keys = {
      {"package.topology", "aries", "mesh, torus, fbfly, aries", "interposer topology"},
      {"package.k", "4", "2 .. 32 (fbfly: 2 .. 8)", "K x K chiplets"},
      {"package.tracks", "2", "0 .. 2", "ARIES bypass tracks per row and per column"},
      {"package.link_latency", "10", "1 .. 1000",
       "wire cycles of a one-pitch link (ARIES V: 10 ns inter-chiplet hop at 1 GHz)"},
      {"package.extra_per_pitch", "1", "0 .. 100",
       "wire cycles added per further pitch a link spans (bypass, wrap, fbfly links)"},
      {"package.vc_alloc", "static", "static, dynamic",
       "VC of a DOR packet at each hop: its own (static), or any free VC of its class (dynamic, "
       "as BookSim2 and Garnet; CTRL.DYN_VC)"},
      {"package.node", "auto", "auto, Varies_node, Varies_node_p2p, Varies_node_fb",
       "the node's built parameter set (rtl/CMakeLists.txt; auto: the engine-less 5-port model, "
       "the traced full one for --trace, the 15-port one for the flattened butterfly)"},
      {"package.bypass", "none", "none, random",
       "ARIES bypass setting: none, or random segments replacing mesh hops (register API)"},
      {"traffic.pattern", "uniform", "uniform, transpose, bitcomp, hotspot, neighbor, trace",
       "destination pattern"},
      {"traffic.rate", "0.1", "0 .. 1", "offered load, flits per node per cycle"},
      {"traffic.packet_len", "4", "1 .. 64", "flits per packet"},
      {"traffic.hotspot", "0", "a node id", "hotspot node (pattern hotspot)"},
      {"traffic.hotspot_share", "0.25", "0 .. 1", "share of packets sent to the hotspot"},
      {"traffic.trace", "", "a file", "packet trace 'cycle src dst flits' (pattern trace)"},
      {"traffic.sink_accept", "1", "0.01 .. 1",
       "probability per cycle that an endpoint frees an ejection slot (back-pressure)"},
      {"sim.warmup", "1000", ">= 0", "warm-up cycles before measuring"},
      {"sim.measure", "5000", ">= 1", "measurement window, cycles"},
      {"sim.drain_limit", "20000", ">= 0", "cycles allowed for measured packets to arrive"},
      {"sim.watchdog", "5000", ">= 100", "cycles without an ejection that count as stuck"},
      {"sim.kernel", "systemc", "systemc, loop",
       "step nodes from the SystemC scheduler or from a plain loop (same results)"},
      {"sim.threads", "auto", "auto, 1 .. 64",
       "threads, each stepping a partition of rows in windows of the links' lookahead (kernel "
       "loop; same results; auto: the machine's cores, at most 8; under mpirun: per rank, auto 1)"},
      {"sim.model", "auto", "auto, rtl, fast, check",
       "node model: the Verilated RTL, the cycle-equivalent C++ model (same cycles, proven pin by "
       "pin; no waveforms), or both in lockstep comparing every pin every cycle; auto: rtl for "
       "run, fast for sweep"},
      {"sim.skip_idle", "true", "true, false", "do not evaluate nodes whose edge changes nothing"},
      {"sim.seed", "1", "any integer", "seed of traffic, bypass choice and RTL initial values"},
      {"sweep.rates", "0.02,0.05,0.1,0.2,0.3,0.4,0.5", "comma-separated loads",
       "offered loads of `aries sweep`"},
  };
  return keys;
}

int PrintConfigKeys() {
  for (const KeyInfo& k : ConfigKeys()) {
    fmt::print("{:<24} {:<10} {:<40} {}\n", k.key, k.default_value, k.allowed, k.description);
  }
  return 0;
}

Config::Config() {
  for (const KeyInfo& k : ConfigKeys()) values_[k.key] = k.default_value;
}

void Config::Set(const std::string& key, const std::string& value) {
  auto it = values_.find(key);
  if (it == values_.end()) {
    std::string known;
    for (const KeyInfo& k : ConfigKeys()) known += fmt::format(" {}", k.key);
    throw ConfigError(fmt::format("unknown key '{}'; known keys:{}", key, known));
  }
  it->second = value;
}

void Config::SetAssignment(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) {
    throw ConfigError(fmt::format("'{}': expected key=value", kv));
  }
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  Set(trim(kv.substr(0, eq)), trim(kv.substr(eq + 1)));
}

void Config::LoadFile(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw ConfigError(fmt::format("config {}: cannot open", path));
  std::string line;
  unsigned n = 0;
  while (std::getline(f, line)) {
    ++n;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      SetAssignment(line);
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("config {}:{}: {}", path, n, e.what()));
    }
  }
}

const std::string& Config::Get(const std::string& key) const { return values_.at(key); }

namespace {

const KeyInfo& Info(const std::string& key) {
  for (const KeyInfo& k : ConfigKeys()) {
    if (key == k.key) return k;
  }
  throw ConfigError("internal: no key " + key);
}

[[noreturn]] void Bad(const Config& c, const std::string& key) {
  throw ConfigError(fmt::format("{} = '{}': allowed {}", key, c.Get(key), Info(key).allowed));
}

uint64_t Uint(const Config& c, const std::string& key, uint64_t lo, uint64_t hi) {
  const std::string& v = c.Get(key);
  try {
    size_t pos = 0;
    if (v.empty() || v[0] == '-') Bad(c, key);
    const unsigned long long x = std::stoull(v, &pos, 0);
    if (pos != v.size() || x < lo || x > hi) Bad(c, key);
    return x;
  } catch (const std::logic_error&) {
    Bad(c, key);
  }
}

double Real(const Config& c, const std::string& key, double lo, double hi) {
  const std::string& v = c.Get(key);
  try {
    size_t pos = 0;
    const double x = std::stod(v, &pos);
    if (pos != v.size() || !(x >= lo && x <= hi)) Bad(c, key);
    return x;
  } catch (const std::logic_error&) {
    Bad(c, key);
  }
}

bool Bool(const Config& c, const std::string& key) {
  const std::string& v = c.Get(key);
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  Bad(c, key);
}

// sim.threads = auto: one thread per core, at most 8 (an 8 x 8 package has too little work per
// cycle to feed more).
unsigned AutoThreads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return std::clamp(hw, 1u, 8u);
}

}  // namespace

SimSettings Validate(const Config& c) {
  SimSettings s;
  auto topo = coll::ParseTopology(c.Get("package.topology"));
  if (!topo) Bad(c, "package.topology");
  s.package.topology = *topo;
  s.package.k =
      static_cast<unsigned>(Uint(c, "package.k", 2, *topo == coll::Topology::kFbfly ? 8 : 32));
  s.package.tracks = static_cast<unsigned>(Uint(c, "package.tracks", 0, 2));
  s.package.link_latency = static_cast<unsigned>(Uint(c, "package.link_latency", 1, 1000));
  s.package.extra_per_pitch = static_cast<unsigned>(Uint(c, "package.extra_per_pitch", 0, 100));
  s.package.skip_idle = Bool(c, "sim.skip_idle");
  const std::string vc_alloc = c.Get("package.vc_alloc");
  if (vc_alloc != "static" && vc_alloc != "dynamic") Bad(c, "package.vc_alloc");
  s.package.dynamic_vcs = vc_alloc == "dynamic";
  s.node = c.Get("package.node");
  if (s.node != "auto" && !sysc::ShippedParams(s.node)) Bad(c, "package.node");
  s.bypass = c.Get("package.bypass");
  if (s.bypass != "none" && s.bypass != "random") Bad(c, "package.bypass");
  if (s.bypass == "random" && *topo != coll::Topology::kAries) {
    throw ConfigError(fmt::format("package.bypass = random needs package.topology = aries (is {})",
                                  c.Get("package.topology")));
  }
  auto pat = tb::ParsePattern(c.Get("traffic.pattern"));
  if (!pat) Bad(c, "traffic.pattern");
  s.traffic.pattern = *pat;
  s.traffic.rate = Real(c, "traffic.rate", 0, 1);
  s.traffic.packet_len = static_cast<unsigned>(Uint(c, "traffic.packet_len", 1, 64));
  const unsigned n = s.package.k * s.package.k;
  s.traffic.hotspot = static_cast<unsigned>(Uint(c, "traffic.hotspot", 0, n - 1));
  s.traffic.hotspot_share = Real(c, "traffic.hotspot_share", 0, 1);
  s.traffic.sink_accept = Real(c, "traffic.sink_accept", 0.01, 1);
  s.trace_file = c.Get("traffic.trace");
  if (*pat == tb::Pattern::kTrace && s.trace_file.empty()) {
    throw ConfigError("traffic.pattern = trace needs traffic.trace = FILE");
  }
  s.run.warmup = Uint(c, "sim.warmup", 0, 1ull << 40);
  s.run.measure = Uint(c, "sim.measure", 1, 1ull << 40);
  s.run.drain_limit = Uint(c, "sim.drain_limit", 0, 1ull << 40);
  s.run.watchdog = Uint(c, "sim.watchdog", 100, 1ull << 40);
  s.kernel = c.Get("sim.kernel");
  if (s.kernel != "systemc" && s.kernel != "loop") Bad(c, "sim.kernel");
  if (c.Get("sim.threads") == "auto") {
    s.package.threads = s.kernel == "loop" ? AutoThreads() : 1;
  } else {
    s.package.threads = static_cast<unsigned>(Uint(c, "sim.threads", 1, 64));
    if (s.package.threads > 1 && s.kernel != "loop") {
      throw ConfigError(fmt::format(
          "sim.threads = {} needs sim.kernel = loop (the SystemC kernel steps nodes one by one)",
          s.package.threads));
    }
  }
  s.model = c.Get("sim.model");
  if (s.model != "auto" && s.model != "rtl" && s.model != "fast" && s.model != "check") {
    Bad(c, "sim.model");
  }
  s.seed = Uint(c, "sim.seed", 0, ~0ull);
  s.traffic.seed = s.seed;
  std::stringstream rs(c.Get("sweep.rates"));
  std::string item;
  while (std::getline(rs, item, ',')) {
    try {
      size_t pos = 0;
      const double r = std::stod(item, &pos);
      if (pos != item.size() || r <= 0 || r > 1) Bad(c, "sweep.rates");
      s.sweep_rates.push_back(r);
    } catch (const std::logic_error&) {
      Bad(c, "sweep.rates");
    }
  }
  return s;
}

}  // namespace aries::sim
