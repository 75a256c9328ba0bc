#include "gtkw.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "aries_pkg.h"
#include "provenance.h"
#include "run_util.h"

namespace aries::sim {

namespace hw = aries::hw;
namespace {

// GTKWave trace flags: binary, hex, decimal, and group begin / end markers.
constexpr const char* kBin = "@28";
constexpr const char* kHex = "@22";
constexpr const char* kDec = "@24";
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kGroupEnd = "@1000200";
// Hex, right-justified, through the translate filter process (TR_HEX | TR_RJUSTIFY |
// TR_PTRANSLATED in GTKWave's trace flags).
constexpr const char* kHexFiltered = "@4022";
// The flit bits a decoded trace joins to its valid bit: the header and lanes 0 and 1, what the
// decoder prints (sim/tools/flit_filter.py --gated).
constexpr unsigned kShownFlitBits = 96;

// The window GTKWave opens (pixels), its tree and signal-name panes, and the waves' width.
constexpr unsigned kWindowWidth = 1600, kWindowHeight = 1000, kSstWidth = 200, kSignalsWidth = 320;
constexpr unsigned kWaveWidth = kWindowWidth - kSstWidth - kSignalsWidth - 40;

unsigned Clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

std::string Range(unsigned width) { return width > 1 ? fmt::format("[{}:0]", width - 1) : ""; }

const char* PortName(unsigned p) {
  static const char* kNames[] = {"local", "+x", "-x", "+y", "-y"};
  return p < 5 ? kNames[p] : "";
}

class Writer {
 public:
  explicit Writer(std::ostream& os) : os_(os) {}
  void Signal(const char* fmt_flag, const std::string& name, unsigned width = 1,
              const std::string& alias = "") {
    if (fmt_flag != last_flag_) os_ << fmt_flag << "\n";
    last_flag_ = fmt_flag;
    if (!alias.empty()) os_ << "+{" << alias << "} ";
    os_ << name << Range(width) << "\n";
    ++count_;
  }
  // A flit through the decoding filter (its "^>" line before each trace that uses it): the
  // port's valid bit joined to the flit's low 96 bits (header, lanes 0 and 1), so the decoder
  // shows a flit only while it is valid (GTKWave's "#{}" concatenation; "(i)" is bit position
  // i of the vector from its most significant bit).
  void Flit(const std::string& filter, const std::string& valid, const std::string& name,
            unsigned width, const std::string& alias) {
    os_ << "^>1 " << filter << "\n";
    if (last_flag_ != kHexFiltered) os_ << kHexFiltered << "\n";
    last_flag_ = kHexFiltered;
    os_ << "#{" << alias << "} " << valid;
    const unsigned shown = std::min(width, kShownFlitBits);
    for (unsigned b = shown; b-- > 0;) os_ << " (" << width - 1 - b << ")" << name << Range(width);
    os_ << "\n";
    ++count_;
  }
  void Begin(const std::string& label) {
    os_ << kGroupBegin << "\n-" << label << "\n";
    last_flag_ = kGroupBegin;
  }
  void End(const std::string& label) {
    os_ << kGroupEnd << "\n-" << label << "\n";
    last_flag_ = kGroupEnd;
  }
  int count() const { return count_; }

 private:
  std::ostream& os_;
  const char* last_flag_ = "";
  int count_ = 0;
};

// The flit decoder GTKWave runs (a translate filter process takes no arguments: a wrapper next
// to the save file passes this package's VCs and K), executable once in place.
void WriteFlitFilter(OutputFile& filter, unsigned num_vcs, unsigned k, unsigned flit_bits,
                     const std::vector<GtkwView::EngineStep>& steps) {
  std::string step_arg;
  for (const GtkwView::EngineStep& e : steps)
    step_arg += fmt::format("{}{}:{}:{}:{}", step_arg.empty() ? " --steps " : ",", e.id, e.pos,
                            e.steps, e.count);
  filter.stream() << "#!/bin/sh\n# Decodes ARIES-sim flits for GTKWave (written by aries --trace)\n"
                     "exec python3 "
                  << ShellQuote(ARIES_FLIT_FILTER) << " --gated "
                  << std::min(flit_bits, kShownFlitBits) << " --vcs " << num_vcs << " --k " << k
                  << step_arg << "\n";
  std::filesystem::permissions(
      filter.temp(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                         std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                         std::filesystem::perms::others_exec);
}

// GTKWave's zoom for `ps_per_pixel` (measured: GTKWave 3.3 shows 2^-zoom / 200 ps a pixel).
double ZoomFor(double ps_per_pixel) { return -std::log2(200.0 * std::max(ps_per_pixel, 0.01)); }

// The save file's head: what it is, its provenance, the waveform it opens, the window's size,
// and the view (start, zoom, markers: the "*" line holds the zoom, the primary marker and the
// named markers A to Z, -1 for none).
void WriteGtkwHead(std::ostream& os, const std::string& fst_path, const GtkwView& view) {
  os << "[*] ARIES-sim package trace: one group per node, inside it one per port "
        "(written by aries --trace)\n";
  // Provenance, as comment lines ("[*]" is GTKWave's comment).
  std::istringstream prov(ProvenanceCsvLines());
  for (std::string line; std::getline(prov, line);) os << "[*] " << line.substr(2) << "\n";
  // (Absolute, as the filter's: GTKWave reads it from the directory it was started in.)
  os << "[dumpfile] \"" << std::filesystem::absolute(fst_path).string() << "\"\n";
  os << "[size] " << kWindowWidth << " " << kWindowHeight << "\n[pos] 0 0\n";
  os << "[sst_width] " << kSstWidth << "\n[signals_width] " << kSignalsWidth << "\n";
  os << "[sst_expanded] 1\n";
  os << "[timestart] " << view.from * 1000 << "\n";  // 1 ns per cycle, time in ps
  if (view.to > view.from || !view.markers.empty()) {
    const double span_ps = view.to > view.from ? (view.to - view.from) * 1000.0 : 200'000.0;
    os << fmt::format("*{:.6f} {}", ZoomFor(span_ps / kWaveWidth),
                      view.markers.empty() ? -1 : static_cast<int64_t>(view.markers[0] * 1000));
    for (size_t m = 0; m < 26; ++m) {
      os << " " << (m < view.markers.size() ? static_cast<int64_t>(view.markers[m] * 1000) : -1);
    }
    os << "\n";
  }
}

// A node's own pins: clock, status, the config bus and the links' valid bits.
void NodePins(Writer& w, const std::string& scope, const sysc::NodeShape& p, bool all) {
  const std::string top = scope + ".";
  w.Signal(kBin, top + "clk_i");
  w.Signal(kBin, top + "err_o");
  if (!all) return;  // (a followed packet's hops: the clock and errors, then its ports)
  w.Signal(kBin, top + "idle_o");
  w.Signal(kHex, top + "bypass_o", 32);
  w.Signal(kBin, top + "cfg_req_i");
  w.Signal(kBin, top + "cfg_we_i");
  w.Signal(kHex, top + "cfg_addr_i", 16);
  w.Signal(kHex, top + "cfg_wdata_i", 32);
  w.Signal(kBin, top + "cfg_rsp_o");
  w.Signal(kHex, top + "cfg_rdata_o", 32);
  w.Signal(kBin, top + "cfg_err_o");
  w.Signal(kBin, top + "lnk_in_valid_i", p.num_links);
  w.Signal(kBin, top + "lnk_out_valid_o", p.num_links);
}

// The group of router input port `i`: its flit (decoded), route lookup, VC buffers' fill and
// switch requests.
void InputPortGroup(Writer& w, const std::string& scope, unsigned i, const sysc::NodeShape& p,
                    const std::string& filter_abs) {
  const std::string label = fmt::format("{} in {} {}", scope, i, PortName(i));
  const std::string u = scope + ".aries_node.u_router." + fmt::format("gen_in[{}].u_in.", i);
  w.Begin(label);
  w.Signal(kBin, u + "in_valid_i");
  w.Flit(filter_abs, u + "in_valid_i", u + "in_flit_i", 32 * p.words(),
         fmt::format("{}.in{}.flit", scope, i));
  w.Signal(kDec, u + "in_vc", 3);
  w.Signal(kDec, u + "lookup_flow_o", hw::kFlowIdW);
  w.Signal(kBin, u + "in_route", p.num_ports);
  w.Signal(kDec, u + "in_ovc", 3);
  w.Signal(kBin, u + "in_miss");
  for (unsigned v = 0; v < p.num_vcs; ++v) {
    w.Signal(kDec, u + fmt::format("gen_vc[{}].u_buf.count_o", v), Clog2(p.buffer_depth + 1),
             fmt::format("{}.in{}.vc{}_fill", scope, i, v));
  }
  w.Signal(kDec, u + "sel_vc_o", 3);
  w.Signal(kBin, u + "req_o", p.num_ports);
  w.Signal(kBin, u + "gnt_i", p.num_ports);
  w.Signal(kBin, u + "credit_o", p.num_vcs);
  w.End(label);
}

// The group of router output port `o`: its arbitration, VC ownership, credits and flit
// (decoded).
void OutputPortGroup(Writer& w, const std::string& scope, unsigned o, const sysc::NodeShape& p,
                     const std::string& filter_abs) {
  const std::string label = fmt::format("{} out {} {}", scope, o, PortName(o));
  const std::string u = scope + ".aries_node.u_router." + fmt::format("gen_out[{}].u_out.", o);
  w.Begin(label);
  w.Signal(kBin, u + "req_i", p.num_ports);
  w.Signal(kDec, u + "gnt_idx_o", Clog2(p.num_ports));
  w.Signal(kBin, u + "avail_o", p.num_vcs);
  w.Signal(kBin, u + "owned_o", p.num_vcs);
  w.Signal(kBin, u + "out_credit_i", p.num_vcs);
  w.Signal(kBin, u + "out_valid_o");
  w.Flit(filter_abs, u + "out_valid_o", u + "out_flit_o", 32 * p.words(),
         fmt::format("{}.out{}.flit", scope, o));
  w.End(label);
}

}  // namespace

std::string GtkwPathOf(const std::string& fst) {
  std::string gtkw = fst;
  for (const char* ext : {".fst", ".vcd"}) {
    const size_t n = std::string(ext).size();
    if (gtkw.size() > n && gtkw.compare(gtkw.size() - n, n, ext) == 0) {
      gtkw.resize(gtkw.size() - n);
      break;
    }
  }
  return gtkw + ".gtkw";
}

std::string FlitFilterPath(const std::string& gtkw_path) {
  return gtkw_path.substr(0, gtkw_path.rfind(".gtkw")) + ".flit_filter";
}

int WritePackageGtkw(OutputFile& save, OutputFile& filter, const std::string& fst_path,
                     const sysc::NodeShape& p, const std::vector<std::string>& scopes, unsigned k,
                     const GtkwView& view) {
  WriteFlitFilter(filter, p.num_vcs, k, 32 * p.words(), view.engine_steps);
  const std::string filter_abs = std::filesystem::absolute(filter.path()).string();
  std::ostream& os = save.stream();
  WriteGtkwHead(os, fst_path, view);
  Writer w(os);
  const bool masked = !view.in_ports.empty();
  const uint32_t every = (1u << p.num_ports) - 1;
  for (size_t n = 0; n < scopes.size(); ++n) {
    const std::string& scope = scopes[n];
    const uint32_t in = masked && n < view.in_ports.size() ? view.in_ports[n] : every;
    const uint32_t out = masked && n < view.out_ports.size() ? view.out_ports[n] : every;
    w.Begin(masked ? fmt::format("hop {}: {}", n + 1, scope) : scope);
    NodePins(w, scope, p, !masked);
    const unsigned ports = masked ? p.router_ports() : p.num_ports;  // (masked: extra local ports)
    for (unsigned i = 0; i < ports; ++i)
      if ((in >> i) & 1u) InputPortGroup(w, scope, i, p, filter_abs);
    for (unsigned o = 0; o < ports; ++o)
      if ((out >> o) & 1u) OutputPortGroup(w, scope, o, p, filter_abs);
    w.End(masked ? fmt::format("hop {}: {}", n + 1, scope) : scope);
  }
  return w.count();
}

}  // namespace aries::sim
