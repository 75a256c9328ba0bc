#include "energy.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>
#include <utility>

namespace aries::energy {

namespace {

struct Key {
  const char* name;
  double Tech::*field;
  const char* description;
};

// Every key a technology file sets: its field and its meaning, in file order.
const std::vector<Key>& Keys() {
  static const std::vector<Key> k = {
      {"ref_flit_bits", &Tech::ref_flit_bits,
       "flit width (bits) the per-flit energies were computed for"},
      {"buffer_write_pj", &Tech::buffer_write_pj,
       "input-buffer write, pJ per flit of ref_flit_bits (random data)"},
      {"buffer_read_pj", &Tech::buffer_read_pj, "input-buffer read, pJ per flit of ref_flit_bits"},
      {"xbar_pj", &Tech::xbar_pj, "crossbar traversal, pJ per flit of ref_flit_bits"},
      {"sa_pj", &Tech::sa_pj, "switch-allocator arbitration, pJ per grant"},
      {"va_pj", &Tech::va_pj, "VC-allocator arbitration, pJ per grant"},
      {"link_pj_per_bit", &Tech::link_pj_per_bit,
       "interposer link, pJ per bit carried one chiplet pitch (random data)"},
      {"engine_op_pj", &Tech::engine_op_pj, "collective engine, pJ per 32-bit operation"},
      {"reconfig_pj", &Tech::reconfig_pj, "pJ per port-mux select or bypass switch changed"},
      {"buffer_leak_nw_per_bit", &Tech::buffer_leak_nw_per_bit,
       "buffer leakage, nW per stored bit"},
      {"router_leak_mw", &Tech::router_leak_mw,
       "leakage of the rest of a router at ref_flit_bits, mW"},
      {"data_fraction", &Tech::data_fraction,
       "part of buffer, crossbar and link energy that scales with the data's toggles, 0..1"},
  };
  return k;
}

double* Field(Tech& t, const std::string& key) {
  for (const Key& k : Keys()) {
    if (key == k.name) return &(t.*(k.field));
  }
  return nullptr;
}

std::string KeyList() {
  std::string s;
  for (const auto& [k, d] : TechKeys()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  const size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A non-negative decimal number, or nothing.
bool ParseValue(const std::string& v, double* out) {
  if (v.empty() || v.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
  size_t pos = 0;
  try {
    *out = std::stod(v, &pos);
  } catch (const std::logic_error&) {
    return false;
  }
  return pos == v.size() && *out >= 0 && *out < 1e12;
}

double Scale(double part, double whole) { return whole > 0 ? part / whole : 0; }

}  // namespace

const std::vector<std::pair<std::string, std::string>>& TechKeys() {
  static const std::vector<std::pair<std::string, std::string>> k = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const Key& key : Keys()) v.push_back({key.name, key.description});
    return v;
  }();
  return k;
}

Tech LoadTech(const std::string& path) {
  std::ifstream f(path);
  if (!f)
    throw TechError(
        fmt::format("{}: cannot open the technology file (shipped: dsent45, dsent32)", path));
  Tech t;
  t.name = path;
  std::map<std::string, unsigned> set_at;
  std::string line;
  for (unsigned ln = 1; std::getline(f, line); ++ln) {
    const std::string s = Trim(line);
    if (s.rfind("# source:", 0) == 0) t.sources.push_back(Trim(s.substr(9)));
    if (s.rfind("# name:", 0) == 0) t.name = Trim(s.substr(7));
    const std::string body = Trim(s.substr(0, s.find('#')));
    if (body.empty()) continue;
    const size_t eq = body.find('=');
    if (eq == std::string::npos)
      throw TechError(fmt::format("{}:{}: '{}': expected key = value", path, ln, body));
    const std::string key = Trim(body.substr(0, eq)), value = Trim(body.substr(eq + 1));
    double* field = Field(t, key);
    if (!field)
      throw TechError(fmt::format("{}:{}: unknown key '{}'; allowed {}", path, ln, key, KeyList()));
    if (set_at.count(key)) {
      throw TechError(
          fmt::format("{}:{}: '{}' already set on line {}", path, ln, key, set_at[key]));
    }
    if (!ParseValue(value, field)) {
      throw TechError(
          fmt::format("{}:{}: {} = '{}': expected a non-negative number", path, ln, key, value));
    }
    set_at[key] = ln;
  }
  for (const auto& [k, d] : TechKeys()) {
    if (!set_at.count(k)) throw TechError(fmt::format("{}: '{}' is not set ({})", path, k, d));
  }
  if (t.ref_flit_bits <= 0)
    throw TechError(fmt::format("{}: ref_flit_bits must be positive", path));
  if (t.data_fraction > 1)
    throw TechError(fmt::format("{}: data_fraction {}: allowed 0..1", path, t.data_fraction));
  return t;
}

void Override(Tech& t, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  const std::string key = Trim(assignment.substr(0, eq));
  double* field = Field(t, key);
  if (eq == std::string::npos || !field) {
    throw TechError(fmt::format("energy override '{}': expected key=value with key one of {}",
                                assignment, KeyList()));
  }
  double v = 0;
  if (!ParseValue(Trim(assignment.substr(eq + 1)), &v)) {
    throw TechError(
        fmt::format("energy override '{}': expected a non-negative decimal number", assignment));
  }
  if (key == "ref_flit_bits" && v <= 0) {
    throw TechError(
        fmt::format("energy override '{}': ref_flit_bits must be positive", assignment));
  }
  if (key == "data_fraction" && v > 1) {
    throw TechError(fmt::format("energy override '{}': data_fraction allowed 0..1", assignment));
  }
  *field = v;
}

std::string TechPath(const std::string& name_or_path) {
  if (name_or_path == "dsent45" || name_or_path == "dsent32") {
    return fmt::format("{}/{}.tech", ARIES_TECH_DIR, name_or_path);
  }
  return name_or_path;
}

Energy Compute(const Tech& t, const Activity& a) {
  Energy e;
  const double width = a.flit_bits / t.ref_flit_bits;  // per-flit figures scale with the width
  const double seconds = a.cycles / (a.clock_ghz * 1e9);
  const double leak_router_pj =
      seconds *
      (a.router_buffer_bits * t.buffer_leak_nw_per_bit * 1e-9 + t.router_leak_mw * 1e-3 * width) *
      1e12;
  uint64_t writes = 0, toggles = 0;
  for (const NodeActivity& n : a.nodes) {
    writes += n.buffer_writes;
    toggles += n.buffer_toggles;
  }
  e.buffer_toggle_rate =
      Scale(static_cast<double>(toggles), static_cast<double>(writes) * a.flit_bits);
  for (unsigned i = 0; i < a.nodes.size(); ++i) {
    const NodeActivity& n = a.nodes[i];
    if (n.link_toggles.size() != n.link_flits.size() ||
        n.link_flit_pitches.size() != n.link_flits.size()) {
      throw std::invalid_argument(
          fmt::format("energy: node {} has {} link flit counts, {} toggle counts, {} "
                      "pitch-weighted counts; they must match",
                      i, n.link_flits.size(), n.link_toggles.size(), n.link_flit_pitches.size()));
    }
    // The data a buffer stores is the data it reads out and the crossbar carries: one toggle
    // rate (this node's buffer writes) scales all three.
    const double rate = Scale(static_cast<double>(n.buffer_toggles),
                              static_cast<double>(n.buffer_writes) * a.flit_bits);
    const double data = (1 - t.data_fraction) + t.data_fraction * rate / 0.5;
    const double buf = n.buffer_writes * (t.buffer_write_pj + t.buffer_read_pj) * width * data;
    const double xbar = n.xbar_traversals * t.xbar_pj * width * data;
    const double alloc = n.xbar_traversals * t.sa_pj + n.va_grants * t.va_pj;
    const double eng = n.engine_ops * t.engine_op_pj;
    const double rec = n.reconfigs * t.reconfig_pj;
    double links = 0;
    for (unsigned l = 0; l < n.link_flits.size(); ++l) {
      if (n.link_flits[l] == 0) continue;
      // Published per-bit figures are for random data; per pitch of wire (a bypass segment or a
      // long butterfly link spans several: an assumption, see the technology file).
      const double lrate = Scale(static_cast<double>(n.link_toggles[l]),
                                 static_cast<double>(n.link_flits[l]) * a.flit_bits);
      const double pj = static_cast<double>(n.link_flit_pitches[l]) * a.flit_bits *
                        t.link_pj_per_bit * ((1 - t.data_fraction) + t.data_fraction * lrate / 0.5);
      links += pj;
      e.per_link.push_back({i, l, n.link_flits[l],
                            Scale(static_cast<double>(n.link_toggles[l]),
                                  static_cast<double>(n.link_flits[l]) * a.flit_bits),
                            pj});
    }
    e.buffers += buf;
    e.crossbar += xbar;
    e.allocators += alloc;
    e.links += links;
    e.engine += eng;
    e.reconfig += rec;
    e.leakage += leak_router_pj;
    e.per_node.push_back(buf + xbar + alloc + eng + rec + links + leak_router_pj);
  }
  return e;
}

}  // namespace aries::energy
