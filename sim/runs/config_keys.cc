// The key table and its parsing (config.h): the table, Config (values with their origins),
// the typed reads, the geometry and sweep loads. No package, traffic or node model here (the
// fuzz harness tests/fuzz/fuzz_config.cc builds this file alone); Validate, which turns the
// keys into a run's settings, is config.cc.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "config.h"
#include "files.h"

namespace aries::sim {

namespace {

// The subcommands that read each group of keys.
constexpr const char* kRuns = "run sweep";                      // the point-to-point package runs
constexpr const char* kGeometry = "run sweep coll coll-sweep";  // the package geometry
constexpr const char* kModel = "run sweep coll coll-sweep train fig11 report";
constexpr const char* kColl = "coll";
constexpr const char* kFaults = "run sweep coll";  // one package's faults (not a sweep's list)

}  // namespace

const std::vector<std::string>& Subcommands() {
  static const std::vector<std::string> names = {
      "run",   "sweep", "bench", "keys",  "coll",   "coll-sweep", "coll-merge", "coll-models",
      "train", "fig9",  "fig10", "fig11", "table1", "area",       "report"};
  return names;
}

bool KeyInfo::UsedBy(const std::string& command) const {
  std::istringstream ws(commands);
  std::string w;
  while (ws >> w) {
    if (w == command) return true;
  }
  return false;
}

namespace {

// "0 .. 2^40", "0 .. 2^64-1", "2 .. 32": an integer bound, powers of two as such.
std::string BoundText(uint64_t x) {
  if (x == ~uint64_t{0}) return "2^64-1";
  if (x >= (uint64_t{1} << 16) && (x & (x - 1)) == 0) {
    unsigned e = 0;
    while ((uint64_t{1} << e) != x) ++e;
    return fmt::format("2^{}", e);
  }
  return fmt::format("{}", x);
}

// "64M", "16G", "1": a byte bound as the sizes are written.
std::string BytesText(uint64_t x) {
  if (x >= (uint64_t{1} << 30) && x % (uint64_t{1} << 30) == 0) {
    return fmt::format("{}G", x >> 30);
  }
  if (x >= (uint64_t{1} << 20) && x % (uint64_t{1} << 20) == 0) {
    return fmt::format("{}M", x >> 20);
  }
  return fmt::format("{}", x);
}

}  // namespace

std::string KeyInfo::Allowed() const {
  const std::string note = *allowed ? fmt::format(" {}", allowed) : "";
  switch (type.kind) {
    case KeyKind::kUint:
      return fmt::format("{}{} .. {}{}", type.auto_ok ? "auto, " : "", BoundText(type.lo),
                         BoundText(type.hi), note);
    case KeyKind::kBytes:
      return fmt::format("{} .. {} bytes{}", BytesText(type.lo), BytesText(type.hi),
                         *allowed ? fmt::format(" ({})", allowed) : "");
    case KeyKind::kReal:
      return type.real_open_lo ? fmt::format("({}, {}]{}", type.real_lo, type.real_hi, note)
                               : fmt::format("{} .. {}{}", type.real_lo, type.real_hi, note);
    case KeyKind::kBool:
      return "true, false";
    case KeyKind::kNode:
      return fmt::format("a node id, 0 .. K*K-1{}", note);
    default:
      return allowed;
  }
}

// NOLINTNEXTLINE(readability-function-size): a data table
const std::vector<KeyInfo>& ConfigKeys() {
  static const std::vector<KeyInfo> keys = {
      {"package.topology", "aries", "mesh, torus, fbfly, aries, cmesh (collectives only)",
       "interposer topology (cmesh: Adapt-NoC's concentrated mesh, 2x2 chiplets per router)",
       "run sweep coll train", WordKey()},
      {"package.k", "4", "(fbfly: 2 .. 8)", "K x K chiplets", "run sweep coll coll-sweep train",
       UintKey(2, 32)},
      {"package.tracks", "2", "", "ARIES bypass tracks per row and per column", kGeometry,
       UintKey(0, 2)},
      {"package.link_latency", "10", "",
       "wire cycles of a one-pitch link (ARIES V: 10 ns inter-chiplet hop at 1 GHz)", kGeometry,
       UintKey(1, 1000)},
      {"package.extra_per_pitch", "1", "",
       "wire cycles added per further pitch a link spans (bypass, wrap, fbfly links)", kGeometry,
       UintKey(0, 100)},
      {"node.local_ports", "1", "1, 2, 4",
       "local (endpoint) ports per chiplet: flits it injects and ejects per cycle (the node "
       "RTL's LocalPorts; 2 and 4: the Varies_node_l2 / _l4 models)",
       kGeometry, WordKey()},
      {"package.faults", "none",
       "none, or a comma-separated list of link:NAME|A-B, segment:xtrack<t>.<row>:A-B, "
       "switch:xtrack<t>.<row>:P, port:NODE.PORT, each with an optional @CYCLE",
       "dead interposer links, bypass wire spans, bypass switches and router ports, from reset or "
       "from a cycle (collectives/faults.h); the controller plans around them",
       kFaults, TextKey()},
      {"package.fault_file", "", "a file: one fault a line as in package.faults, # comments",
       "more faults, read from a file", kFaults, TextKey()},
      {"package.fault_routing", "tables", "tables, dor",
       "point-to-point routing with package.faults: routing tables around the faults present "
       "from cycle 0 (up*/down*, flow = destination; collectives/fault_routes.h), or dimension "
       "order regardless (packets into a dead link are lost and the watchdog names it)",
       kRuns, WordKey()},
      {"package.vc_alloc", "static", "static, dynamic",
       "VC of a DOR packet at each hop: its own (static), or any free VC of its class (dynamic, "
       "as BookSim2 and Garnet; CTRL.DYN_VC)",
       kRuns, WordKey()},
      {"package.node", "auto",
       "auto, Varies_node, Varies_node_p2p, Varies_node_fb, Varies_node_l2, Varies_node_l4, "
       "Varies_node_fb_l2",
       "the node's built parameter set (rtl/CMakeLists.txt; auto: the engine-less 5-port model, "
       "the traced full one for --trace, the 15-port one for the flattened butterfly, the _l2 / "
       "_l4 ones for node.local_ports = 2 / 4)",
       kRuns, WordKey()},
      {"package.bypass", "none", "none, random",
       "ARIES bypass setting: none, or random segments replacing mesh hops (register API)", kRuns,
       WordKey()},
      {"traffic.pattern", "uniform", "uniform, transpose, bitcomp, hotspot, neighbor, trace",
       "destination pattern", kRuns, WordKey()},
      {"traffic.rate", "0.1", "", "offered load, flits per node per cycle", kRuns,
       RealKey(0, 1, true)},
      {"traffic.packet_len", "4", "", "flits per packet", kRuns, UintKey(1, 64)},
      {"traffic.hotspot", "0", "", "hotspot node (pattern hotspot)", kRuns, NodeKey()},
      {"traffic.hotspot_share", "0.25", "", "share of packets sent to the hotspot", kRuns,
       RealKey(0, 1)},
      {"traffic.trace", "", "a file", "packet trace 'cycle src dst flits' (pattern trace)", kRuns,
       TextKey()},
      {"traffic.sink_accept", "1", "",
       "probability per cycle that an endpoint frees an ejection slot (back-pressure)", kRuns,
       RealKey(0.01, 1)},
      {"sim.warmup", "1000", "", "warm-up cycles before measuring", kRuns,
       UintKey(0, uint64_t{1} << 40)},
      {"sim.measure", "5000", "", "measurement window, cycles", kRuns,
       UintKey(1, uint64_t{1} << 40)},
      {"sim.drain_limit", "20000", "", "cycles allowed for measured packets to arrive", kRuns,
       UintKey(0, uint64_t{1} << 40)},
      {"sim.watchdog", "auto",
       "(and >= 2 x the longest link's latency, and >= 30 / traffic.sink_accept below 1)",
       "cycles without an ejection and without a flit or credit on the wires that count as "
       "stuck (auto: 5000, or 4 x the longest link's latency, or 30 / traffic.sink_accept, "
       "whichever is most)",
       kRuns, AutoUintKey(1, uint64_t{1} << 40)},
      {"sim.kernel", "systemc", "systemc, loop",
       "step nodes from the SystemC scheduler or from a plain loop (same results)", kRuns,
       WordKey()},
      {"sim.threads", "auto", "",
       "threads, each stepping a partition of rows in windows of the links' lookahead (kernel "
       "loop; same results; auto: the machine's cores, at most 8; under mpirun: per rank, auto 1)",
       kRuns, AutoUintKey(1, 64)},
      {"sim.model", "auto", "auto, rtl, fast, check",
       "node model: the Verilated RTL, the cycle-equivalent C++ model (same cycles, proven pin by "
       "pin; no waveforms), or both in lockstep comparing every pin every cycle; auto: rtl for "
       "one run (run, coll), fast for sweeps (sweep, coll-sweep, fig11, report, train --check)",
       kModel, WordKey()},
      {"sim.payload", "auto", "auto, full, id",
       "flit words the package moves: every lane (full), or the header and the packet id lane "
       "alone (id: the fast model, or check, where the RTL gets the other lanes zero; the other "
       "lanes are a function of the id and the cycles are the same); auto: id for the fast model "
       "on a node without the collective engine and without a packet log, else full",
       kRuns, WordKey()},
      {"sim.skip_idle", "true", "", "do not evaluate nodes whose edge changes nothing", kRuns,
       BoolKey()},
      {"sim.seed", "1", "",
       "seed of traffic, bypass choice, RTL initial values and collective inputs",
       "run sweep coll coll-sweep", UintKey(0, ~uint64_t{0})},
      {"sweep.rates", "0.02,0.05,0.1,0.2,0.3,0.4,0.5", "comma-separated loads, each > 0 and <= 1",
       "offered loads of `aries sweep`", "sweep", TextKey()},
      {"coll.algo", "ring", "auto or an algorithm (aries coll --help)",
       "collective algorithm (auto: the cheapest by the measured costs, coll only; left unset on a "
       "collective the ring does not serve, coll takes the first that serves it: direct)",
       "coll train", TextKey()},
      {"coll.collective", "allreduce",
       "allreduce, reducescatter, allgather, reduce, broadcast, barrier, alltoall, alltoallv "
       "(sweeps and cost models: allreduce, reducescatter, allgather, alltoall)",
       "the collective", "coll coll-sweep coll-models", TextKey()},
      {"coll.type", "int32", "int32, fp32", "element type", "coll coll-sweep coll-models",
       WordKey()},
      {"coll.op", "sum", "sum, prod, min, max, and, or, xor (and, or, xor: int32)",
       "the reduction the engines and endpoints compute (the cycles do not depend on it)", kColl,
       WordKey()},
      {"coll.size", "64K", "e.g. 64, 4K, 2M", "bytes per node", kColl,
       BytesKey(1, uint64_t{64} << 20)},
      {"coll.root", "0", "", "root of reduce and broadcast", kColl, NodeKey()},
      {"coll.levels", "2", "", "aries_lt: ring levels L (K = b^L)", "coll train", UintKey(1, 5)},
      {"coll.embeddings", "1", "", "tree: in-network trees over disjoint segments", "coll train",
       UintKey(1, 4)},
      {"coll.ring_map", "snake", "snake, rank",
       "ring: snake (a Hamiltonian cycle of neighbours) or rank (0, 1, .., N-1 row-major, as "
       "ASTRA-sim maps a ring onto a mesh)",
       "coll", WordKey()},
      {"coll.ring_dirs", "1", "1, 2",
       "ring: one ring, or two in opposite directions on half of "
       "every shard each",
       "coll", WordKey()},
      {"coll.groups", "all",
       "all, rows, cols, quadrants, qpeers, vpairs, hpairs, or node ids: 0,1,2,3;4,5,6,7",
       "communicators: each group runs the collective over its own members, all at the same "
       "time (the algorithms that plan them: ring, dbt, mtree, tree, direct, 2phase (grids only), "
       "each for the collectives it serves: aries coll --help lists them); qpeers: "
       "the chiplets at one offset in each quadrant, vpairs / hpairs: vertical / horizontal "
       "neighbour pairs; coll-sweep: a named shape, recorded in the cost file",
       "coll coll-sweep", TextKey()},
      {"coll.counts", "uniform", "uniform, random, or a counts file",
       "alltoallv: elements each chiplet sends each member of its communicator (uniform: "
       "coll.size / (4 G) each, G the largest communicator's members; random: 0 .. twice that, "
       "from sim.seed; a file: K^2 lines of K^2 counts, line i what chiplet i sends)",
       "coll", TextKey()},
      {"coll.verify", "false", "",
       "compare every element with its golden value (the reduction; all-to-all and "
       "alltoallv: the sender's block)",
       kColl, BoolKey()},
      {"coll.costs", "", "a sweep CSV",
       "measured cost file (aries coll-sweep --csv; empty: collectives/data/collective_costs.csv)",
       "coll train fig9 fig10 coll-models", TextKey()},
      {"eval.preset", "default", "default, paper",
       "assumptions of the evaluation figures: default (ours) or paper (baseline rings in rank "
       "order as ASTRA-sim lays them on a mesh, ARIES on the two local ports ARIES_BW needs); "
       "fig10 adds the decomposition of its speedups and their ceiling",
       "fig9 fig10 fig11 report", WordKey()},
      {"train.workload", "resnet50", "resnet50, vgg16, dlrm, transformer, gpt3 or a workload CSV",
       "the model trained", "train", TextKey()},
      {"train.strategy", "ddp",
       "ddp, fsdp, tp, or INNER@GROUPS+OUTER: inner ddp, fsdp, tp; groups rows, cols, quadrants; "
       "outer ddp, fsdp, pp",
       "ddp (all-reduce per layer or bucket), fsdp (all-gather + reduce-scatter), tp "
       "(all-reduce of partial outputs); nested: INNER within each group, OUTER across them "
       "(e.g. tp@rows+ddp, fsdp@quadrants+ddp, ddp@rows+pp: pipeline stages of rows)",
       "train", TextKey()},
      {"train.microbatches", "0", "",
       "pipeline (INNER@GROUPS+pp): micro-batches of the global batch (0: 4 per stage)", "train",
       UintKey(0, 4096)},
      {"train.memory", "16G", "e.g. 16G",
       "memory per chiplet the search's strategies must fit (16 GiB: one 8-high HBM2E stack of "
       "16 Gb dies, JEDEC JESD235C)",
       "train", BytesKey(1, uint64_t{1} << 50)},
      {"train.batch", "0", "", "samples per chiplet (0: the workload's)", "train fig10",
       UintKey(0, 1u << 20)},
      {"train.bucket", "0", "0: none; e.g. 25M",
       "ddp: gradient bucket bytes, 25M like PyTorch DDP (0: one all-reduce per layer)", "train",
       BytesKey(0, uint64_t{1} << 40)},
      {"train.utilization", "0.7", "", "compute utilization (MAD Max 4.2: ~0.7)", "train fig10",
       RealKey(0, 1, true)},
      {"train.check_max", "2M", "e.g. 2M", "largest collective train --check runs", "train",
       BytesKey(1, uint64_t{64} << 20)},
  };
  return keys;
}

namespace {

// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The words of a comma-separated `allowed` ("mesh, torus, cmesh (collectives only)" -> mesh,
// torus, cmesh).
std::vector<std::string> AllowedWords(const std::string& allowed) {
  std::vector<std::string> words;
  std::string plain;  // without its parentheses: "xor (and, or, xor: int32)" -> "xor "
  int depth = 0;
  for (char ch : allowed) {
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    if (depth == 0 && ch != ')') plain += ch;
  }
  std::istringstream ws(plain);
  std::string w;
  while (std::getline(ws, w, ',')) {
    w.erase(0, w.find_first_not_of(' '));
    w.erase(std::min(w.size(), w.find(' ')));
    if (!w.empty()) words.push_back(w);
  }
  return words;
}

}  // namespace

std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(word, c);
    if (d < best_distance) best = &c, best_distance = d;
  }
  return best ? fmt::format("; did you mean '{}'?", *best) : "";
}

const KeyInfo& KeyInfoOf(const std::string& key) {
  for (const KeyInfo& k : ConfigKeys()) {
    if (key == k.key) return k;
  }
  std::vector<std::string> known;
  for (const KeyInfo& k : ConfigKeys()) known.emplace_back(k.key);
  const std::string hint = DidYouMean(key, known);
  if (!hint.empty()) throw ConfigError(fmt::format("unknown key '{}'{}", Excerpt(key), hint));
  std::string list;
  for (const std::string& k : known) list += fmt::format(" {}", k);
  throw ConfigError(fmt::format("unknown key '{}' (aries keys lists them):{}", Excerpt(key), list));
}

namespace {

// `text` wrapped at word boundaries into lines of at most `width` columns, each after `indent`.
std::string Wrapped(const std::string& text, const std::string& indent, size_t width = 100) {
  std::string out, line = indent;
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (line.size() > indent.size() && line.size() + 1 + w.size() > width) {
      out += line + "\n";
      line = indent;
    }
    line += (line.size() > indent.size() ? " " : "") + w;
  }
  return out + line + "\n";
}

}  // namespace

int PrintConfigKeys() {
  // One block a key, within 100 columns: the key and its default, then what is allowed, what
  // it means and the subcommands that read it.
  for (const KeyInfo& k : ConfigKeys()) {
    fmt::print("{} = '{}'\n", k.key, k.default_value);
    fmt::print("{}", Wrapped(fmt::format("allowed: {}", k.Allowed()), "    "));
    fmt::print("{}", Wrapped(fmt::format("{} [read by: {}]", k.description, k.commands), "    "));
  }
  return 0;
}

Config::Config() {
  for (const KeyInfo& k : ConfigKeys()) values_[k.key] = k.default_value;
}

void Config::Set(const std::string& key, const std::string& value, const std::string& origin) {
  KeyInfoOf(key);  // refuses an unknown key, naming the known ones
  std::string& from = origin_[key];
  // Command-line origins are flags ("--set", "--topology"); a file's are "PATH:LINE". The
  // command line may override a file's value once; two values from the command line, or two
  // lines of a file, are a mistake the user must resolve.
  const auto on_command_line = [](const std::string& o) { return o.rfind("--", 0) == 0; };
  if (!from.empty() && (on_command_line(from) || !on_command_line(origin))) {
    throw ConfigError(fmt::format("{} given twice: '{}' ({}) and '{}' ({}); give it once", key,
                                  Excerpt(values_[key]), from, Excerpt(value), origin));
  }
  values_[key] = value;
  from = origin;
}

void Config::SetAssignment(const std::string& kv, const std::string& origin) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos) {
    throw ConfigError(fmt::format("'{}': expected key=value", Excerpt(kv)));
  }
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  Set(trim(kv.substr(0, eq)), trim(kv.substr(eq + 1)), origin);
}

void Config::LoadFile(const std::string& path) {
  // A regular file of bounded size: a device (/dev/zero) or a directory is refused, not read
  // forever or as nothing.
  std::ifstream f(CheckInputFile(path, "config", kSmallInputLimit));
  if (!f) throw ConfigError(fmt::format("config {}: cannot open", path));
  std::string line;
  unsigned n = 0;
  while (std::getline(f, line)) {
    ++n;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      SetAssignment(line, fmt::format("{}:{}", path, n));
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("config {}:{}: {}", path, n, e.what()));
    }
  }
}

const std::string& Config::Get(const std::string& key) const { return values_.at(key); }

const std::string& Config::Origin(const std::string& key) const {
  static const std::string kDefault;
  const auto it = origin_.find(key);
  return it == origin_.end() ? kDefault : it->second;
}

void Config::RefuseUnread(const std::string& command) const {
  for (const auto& [key, from] : origin_) {
    if (KeyInfoOf(key).UsedBy(command)) continue;
    std::string reads;
    for (const KeyInfo& k : ConfigKeys()) {
      if (k.UsedBy(command)) reads += fmt::format("{}{}", reads.empty() ? "" : ", ", k.key);
    }
    throw ConfigError(fmt::format("aries {} does not read {} (set by {}); it reads {}", command,
                                  key, from, reads.empty() ? "no configuration keys" : reads));
  }
}

void BadKey(const Config& c, const std::string& key, const std::string& why) {
  const std::string& from = c.Origin(key);
  const KeyInfo& k = KeyInfoOf(key);
  std::string allowed = why.empty() ? k.Allowed() : why;
  // A misspelt word of a word-valued key gets the nearest allowed word.
  if (why.empty() && (k.type.kind == KeyKind::kWord || k.type.kind == KeyKind::kBool)) {
    allowed += DidYouMean(c.Get(key), AllowedWords(allowed));
  }
  if (from.rfind("--", 0) == 0 && from != "--set") {  // a flag: name it as the user wrote it
    throw ConfigError(
        fmt::format("{} {}: allowed {} (key {})", from, Excerpt(c.Get(key)), allowed, key));
  }
  throw ConfigError(fmt::format("{} = '{}': allowed {}{}", key, Excerpt(c.Get(key)), allowed,
                                from.empty() || from == "--set" ? "" : fmt::format(" ({})", from)));
}

namespace {

// The key's table entry, which must be of `kind` (a reader of another kind is a programming
// error, named).
const KeyInfo& TypedKey(const std::string& key, KeyKind kind) {
  const KeyInfo& k = KeyInfoOf(key);
  if (k.type.kind != kind) {
    throw std::logic_error(fmt::format("key {} is not read as this type (the key table)", key));
  }
  return k;
}

// The decimal integer `v` (digits only: no sign, no C prefixes; 010 is ten, 0x10 refused), or
// nothing.
std::optional<uint64_t> DecimalOf(const std::string& v) {
  if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  try {
    return std::stoull(v, nullptr, 10);
  } catch (const std::logic_error&) {
    return std::nullopt;
  }
}

// Whether `v` is a plain decimal: digits with at most one point ("0.3", "1", ".5"); no sign,
// exponent, hex float, inf or nan.
bool PlainDecimal(const std::string& v) {
  const size_t point = v.find('.');
  return !v.empty() && v != "." && v.find_first_not_of("0123456789.") == std::string::npos &&
         (point == std::string::npos || v.find('.', point + 1) == std::string::npos);
}

}  // namespace

uint64_t KeyUint(const Config& c, const std::string& key) {
  const KeyInfo& k = TypedKey(key, KeyKind::kUint);
  const std::optional<uint64_t> x = DecimalOf(c.Get(key));
  if (!x || *x < k.type.lo || *x > k.type.hi) BadKey(c, key);
  return *x;
}

uint64_t KeyUintWithin(const Config& c, const std::string& key, uint64_t lo, uint64_t hi,
                       const std::string& why) {
  const uint64_t x = KeyUint(c, key);
  if (x < lo || x > hi) BadKey(c, key, fmt::format("{} .. {} ({})", lo, hi, why));
  return x;
}

unsigned KeyNode(const Config& c, const std::string& key, unsigned nodes) {
  TypedKey(key, KeyKind::kNode);
  const std::optional<uint64_t> x = DecimalOf(c.Get(key));
  if (!x || *x >= nodes) BadKey(c, key, fmt::format("a node id, 0 .. {}", nodes - 1));
  return static_cast<unsigned>(*x);
}

double KeyReal(const Config& c, const std::string& key) {
  const KeyInfo& k = TypedKey(key, KeyKind::kReal);
  const std::string& v = c.Get(key);
  if (!PlainDecimal(v)) BadKey(c, key);
  try {
    size_t pos = 0;
    const double x = std::stod(v, &pos);
    const bool above_lo = k.type.real_open_lo ? x > k.type.real_lo : x >= k.type.real_lo;
    if (pos != v.size() || !(above_lo && x <= k.type.real_hi)) BadKey(c, key);  // (NaN too)
    return x;
  } catch (const std::logic_error&) {
    BadKey(c, key);
  }
}

uint64_t KeyBytes(const Config& c, const std::string& key) {
  const KeyInfo& k = TypedKey(key, KeyKind::kBytes);
  const std::string& v = c.Get(key);
  if (k.type.lo == 0 && v == "0") return 0;  // (train.bucket: 0 is "none")
  try {
    const uint64_t b = ParseBytes(v, key.c_str(), k.type.hi);
    if (b < k.type.lo) BadKey(c, key);
    return b;
  } catch (const std::invalid_argument&) {
    BadKey(c, key);
  }
}

bool KeyBool(const Config& c, const std::string& key) {
  TypedKey(key, KeyKind::kBool);
  const std::string& v = c.Get(key);
  if (v == "true") return true;  // (as the allowed values say: not 1, yes or on)
  if (v == "false") return false;
  BadKey(c, key);
}

const std::string& KeyWord(const Config& c, const std::string& key) {
  const KeyInfo& k = TypedKey(key, KeyKind::kWord);
  const std::string& v = c.Get(key);
  for (const std::string& w : AllowedWords(k.allowed)) {
    if (w == v) return v;
  }
  BadKey(c, key);
}

uint64_t ParseBytes(const std::string& s, const char* option, uint64_t max) {
  // Decimal digits, then an optional suffix; no sign, no C prefixes, no overflow.
  const size_t digits = s.find_first_not_of("0123456789");
  const std::string num = s.substr(0, digits);
  const std::string suf = digits == std::string::npos ? "" : s.substr(digits);
  const uint64_t mul = suf.empty() || suf == "B"   ? 1
                       : suf == "K" || suf == "KB" ? 1024
                       : suf == "M" || suf == "MB" ? 1024 * 1024
                       : suf == "G" || suf == "GB" ? uint64_t{1} << 30
                                                   : 0;
  uint64_t v = 0;
  if (!num.empty() && num.size() <= 12) v = std::stoull(num);
  if (v == 0 || mul == 0 || v > max / mul) {
    throw std::invalid_argument(fmt::format(
        "{} {}: a positive byte count with an optional K, M or G suffix (64, 4K, 2M), at most {}",
        option, s, max));
  }
  return v * mul;
}

coll::Geometry GeometryOf(const Config& c, bool with_topology) {
  coll::Geometry g;
  if (with_topology) {
    auto topo = coll::ParseTopology(c.Get("package.topology"));
    if (!topo) BadKey(c, "package.topology");
    g.topology = *topo;
  }
  const auto* topo = &g.topology;
  g.k = static_cast<unsigned>(*topo == coll::Topology::kFbfly
                                  ? KeyUintWithin(c, "package.k", 2, 8, "the flattened butterfly")
                                  : KeyUint(c, "package.k"));
  g.tracks = static_cast<unsigned>(KeyUint(c, "package.tracks"));
  g.link_latency = static_cast<unsigned>(KeyUint(c, "package.link_latency"));
  g.extra_per_pitch = static_cast<unsigned>(KeyUint(c, "package.extra_per_pitch"));
  g.local_ports = static_cast<unsigned>(std::stoul(KeyWord(c, "node.local_ports")));
  if (!coll::LocalPortsSupported(g.local_ports)) BadKey(c, "node.local_ports");
  if (with_topology) g.faults = FaultsOf(c, g);
  return g;
}

coll::FaultSet FaultsOf(const Config& c, const coll::Geometry& g) {
  coll::FaultSet set;
  try {
    set = coll::ParseFaults(c.Get("package.faults"), g);
  } catch (const coll::FaultError& e) {
    BadKey(c, "package.faults", e.what());
  }
  const std::string& path = c.Get("package.fault_file");
  if (path.empty()) return set;
  std::ifstream f(CheckInputFile(path, "package.fault_file", kSmallInputLimit));
  std::stringstream text;
  text << f.rdbuf();
  if (!f && !f.eof())
    throw ConfigError(fmt::format("package.fault_file = '{}': cannot read", path));
  try {
    for (const coll::Fault& x : coll::ParseFaultLines(text.str(), g, path).faults) {
      for (const coll::Fault& y : set.faults) {
        coll::Fault a = x, b = y;
        a.from = b.from = 0;
        if (a == b) {
          throw ConfigError(
              fmt::format("fault '{}' is given by package.faults and by {}", x.Name(g), path));
        }
      }
      set.faults.push_back(x);
    }
  } catch (const coll::FaultError& e) {
    throw ConfigError(fmt::format("package.fault_file: {}", e.what()));
  }
  return set;
}

std::vector<double> SweepRates(const Config& c) {
  std::vector<double> rates;
  std::stringstream rs(c.Get("sweep.rates"));
  std::string item;
  while (std::getline(rs, item, ',')) {
    try {
      size_t pos = 0;
      if (!PlainDecimal(item)) BadKey(c, "sweep.rates");
      const double r = std::stod(item, &pos);
      if (pos != item.size() || !(r > 0 && r <= 1)) BadKey(c, "sweep.rates");
      if (std::find(rates.begin(), rates.end(), r) != rates.end()) {
        BadKey(
            c, "sweep.rates",
            fmt::format("each rate once ({} is given twice: its run would be made twice)", item));
      }
      rates.push_back(r);
    } catch (const std::logic_error&) {
      BadKey(c, "sweep.rates");
    }
  }
  if (rates.empty()) BadKey(c, "sweep.rates");
  return rates;
}

}  // namespace aries::sim
