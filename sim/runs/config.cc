// Validate: the keys of run and sweep turned into a run's settings (the key table and its
// parsing are config_keys.cc).
#include "config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "node_models.h"
#include "program.h"

namespace aries::sim {

namespace {

// sim.threads = auto: one thread per core, at most 8 (an 8 x 8 package has too little work per
// cycle to feed more).
unsigned AutoThreads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return std::clamp(hw, 1u, 8u);
}

// The package keys: geometry, node, VC allocation, fault routing and bypass, checked against
// one another.
void ValidatePackage(const Config& c, SimSettings& s) {
  static_cast<coll::Geometry&>(s.package) = GeometryOf(c);
  const coll::Topology* topo = &s.package.topology;
  if (*topo == coll::Topology::kCmesh) {
    BadKey(c, "package.topology",
           "mesh, torus, fbfly, aries for point-to-point traffic (the concentrated mesh, cmesh, "
           "runs collectives: aries coll, coll-sweep)");
  }
  s.package.skip_idle = KeyBool(c, "sim.skip_idle");
  const std::string vc_alloc = c.Get("package.vc_alloc");
  if (vc_alloc != "static" && vc_alloc != "dynamic") BadKey(c, "package.vc_alloc");
  s.package.dynamic_vcs = vc_alloc == "dynamic";
  s.node = c.Get("package.node");
  if (s.node != "auto" && !sysc::ShippedParams(s.node)) BadKey(c, "package.node");
  s.fault_routing = KeyWord(c, "package.fault_routing");
  const unsigned flows = coll::Hardware{}.num_flows;  // the shipped nodes' routing-table flows
  if (!s.package.faults.empty() && s.package.k * s.package.k > flows &&
      s.fault_routing == "tables") {
    throw ConfigError(fmt::format(
        "package.faults with package.fault_routing = tables: one routing-table flow per "
        "destination, at most {} nodes (package.k = {}); set package.fault_routing = dor",
        flows, s.package.k));
  }
  s.bypass = c.Get("package.bypass");
  if (s.bypass == "random" && !s.package.faults.empty() && s.fault_routing == "tables") {
    throw ConfigError(
        "package.bypass = random with package.faults: the routes around faults use the mesh "
        "links; set package.bypass = none");
  }
  if (s.bypass != "none" && s.bypass != "random") BadKey(c, "package.bypass");
  if (s.bypass == "random" && *topo != coll::Topology::kAries) {
    throw ConfigError(fmt::format("package.bypass = random needs package.topology = aries (is {})",
                                  c.Get("package.topology")));
  }
  if (s.bypass == "random" && s.package.tracks == 0) {
    throw ConfigError(
        "package.bypass = random needs bypass tracks: package.tracks = 1 or 2 (is 0, so no hop "
        "could move onto a bypass segment)");
  }
}

// The traffic keys on a package of `nodes` nodes (the seed is the run's, set by Validate).
tb::TrafficConfig TrafficOf(const Config& c, unsigned nodes) {
  tb::TrafficConfig t;
  auto pat = tb::ParsePattern(c.Get("traffic.pattern"));
  if (!pat) BadKey(c, "traffic.pattern");
  t.pattern = *pat;
  t.rate = KeyReal(c, "traffic.rate");
  t.packet_len = static_cast<unsigned>(KeyUint(c, "traffic.packet_len"));
  t.hotspot = KeyNode(c, "traffic.hotspot", nodes);
  t.hotspot_share = KeyReal(c, "traffic.hotspot_share");
  t.sink_accept = KeyReal(c, "traffic.sink_accept");
  // A pattern's own keys, given for another pattern, would be ignored without a word.
  auto only_with = [&](const char* key, tb::Pattern p) {
    if (*pat != p && c.FromCommandLine(key)) {
      BadKey(c, key,
             fmt::format("only with traffic.pattern = {} (the pattern is {})", tb::PatternName(p),
                         tb::PatternName(*pat)));
    }
  };
  only_with("traffic.hotspot", tb::Pattern::kHotspot);
  only_with("traffic.hotspot_share", tb::Pattern::kHotspot);
  only_with("traffic.trace", tb::Pattern::kTrace);
  if (*pat == tb::Pattern::kTrace && c.Get("traffic.trace").empty()) {
    throw ConfigError("traffic.pattern = trace needs traffic.trace = FILE");
  }
  return t;
}

// The run's windows and watchdog; the watchdog must outwait the longest link of `package`.
tb::RunConfig RunWindowsOf(const Config& c, const coll::Geometry& package) {
  tb::RunConfig r;
  r.warmup = KeyUint(c, "sim.warmup");
  r.measure = KeyUint(c, "sim.measure");
  r.drain_limit = KeyUint(c, "sim.drain_limit");
  const uint64_t longest = coll::LongestLinkLatency(package);
  // A sink that frees a slot with probability p a cycle goes n cycles without one with
  // probability (1-p)^n: under e^-30 for n >= 30 / p.
  const double accept = KeyReal(c, "traffic.sink_accept");
  const uint64_t sink_wait = accept < 1 ? static_cast<uint64_t>(std::ceil(30.0 / accept)) : 0;
  if (c.Get("sim.watchdog") == "auto") {
    r.watchdog = std::max(coll::DefaultWatchdog(package), sink_wait);
  } else {
    r.watchdog = KeyUint(c, "sim.watchdog");
    if (r.watchdog < std::max(2 * longest, sink_wait)) {
      BadKey(c, "sim.watchdog",
             fmt::format("auto or >= {} (twice the longest link's {} cycles: a flit and its "
                         "credit in flight are progress the watchdog must wait for{})",
                         std::max(2 * longest, sink_wait), longest,
                         sink_wait ? fmt::format("; and 30 / traffic.sink_accept = {} cycles, "
                                                 "which a slow sink may go without an ejection",
                                                 sink_wait)
                                   : ""));
    }
  }
  return r;
}

// The kernel, its threads, the node model and the payload the package moves.
void ValidateStepping(const Config& c, SimSettings& s) {
  s.kernel = c.Get("sim.kernel");
  if (s.kernel != "systemc" && s.kernel != "loop") BadKey(c, "sim.kernel");
  if (c.Get("sim.threads") == "auto") {
    s.package.threads = s.kernel == "loop" ? AutoThreads() : 1;
  } else {
    s.package.threads = static_cast<unsigned>(KeyUint(c, "sim.threads"));
    if (s.package.threads > 1 && s.kernel != "loop") {
      throw ConfigError(fmt::format(
          "sim.threads = {} needs sim.kernel = loop (the SystemC kernel steps nodes one by one)",
          s.package.threads));
    }
  }
  s.model = KeyWord(c, "sim.model");
  s.payload = KeyWord(c, "sim.payload");
}

}  // namespace

SimSettings Validate(const Config& c) {
  SimSettings s;
  ValidatePackage(c, s);
  s.traffic = TrafficOf(c, s.package.k * s.package.k);
  s.trace_file = c.Get("traffic.trace");
  s.run = RunWindowsOf(c, s.package);
  ValidateStepping(c, s);
  s.seed = KeyUint(c, "sim.seed");
  s.traffic.seed = s.seed;
  return s;
}
std::string ResolveModel(const std::string& model, RunScale scale) {
  if (model != "auto") return model;
  return scale == RunScale::kOne ? "rtl" : "fast";
}

}  // namespace aries::sim
