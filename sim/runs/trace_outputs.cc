#include "trace_outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <tuple>

#include "aries_pkg.h"
#include "arith.h"
#include "config.h"
#include "node_models.h"
#include "provenance.h"
#include "run_util.h"

namespace aries::sim {

namespace hw = aries::hw;

// Cycles a save file shows at first when the trace runs to the end of the run.
constexpr uint64_t kDefaultView = 200;

const char* PacketLogHeader() {
  return "cycle,event,node,link,channel,to_node,arrive_cycle,vc,head,tail,src,dst,flow,op,seq,"
         "lane0,lane1,header";
}

std::string DescribeHeader(uint32_t h, unsigned num_vcs, unsigned k) {
  const unsigned vc = (h >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u);
  if (vc >= num_vcs) {  // an engine VC
    const hw::CollHeader c = hw::UnpackCollHeader(h);
    return fmt::format("id{}.{} {} {}", c.id, c.seq, vc == num_vcs ? "req" : "rsp",
                       coll::OpName(c.op));
  }
  const hw::Flit f = hw::UnpackFlit(&h, 0);
  std::string mark = std::string(f.head ? "H" : "") + (f.tail ? "T" : "");
  if (mark.empty()) mark = "-";
  if (f.is_flow) return fmt::format("{}f{}@{} vc{}", mark, f.flow, f.src_y * k + f.src_x, vc);
  return fmt::format("{}{}>{} vc{}", mark, f.src_y * k + f.src_x, f.dst_y * k + f.dst_x, vc);
}

FlitRecorder::FlitRecorder(const TraceRequest& trace, const sysc::Package& pkg, FlitMatch follow)
    : pkg_(pkg),
      follow_(std::move(follow)),
      timeline_(!trace.timeline.empty()),
      from_(trace.from),
      to_(trace.to) {
  if (!trace.packet_log.empty()) {
    out_ = std::make_unique<OutputFile>(trace.packet_log, "--packet-log");
    out_->stream() << PacketLogHeader() << "\n";
  }
}

void FlitRecorder::Commit() {
  if (!out_) return;
  out_->Commit();
  WriteCsvProvenance(out_->path(), "--packet-log");
}

void FlitRecorder::operator()(const sysc::Package::FlitEvent& e) {
  using Kind = sysc::Package::FlitEvent::Kind;
  const sysc::NodeShape& shape = pkg_.shape();
  const unsigned k = pkg_.k();
  const uint32_t h = e.flit[0];
  const unsigned vc = (h >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u);
  const char* ev = e.kind == Kind::kInject ? "inject" : e.kind == Kind::kHop ? "hop" : "eject";
  // (The router ports: a hop's is the port whose mux selects the link, now.)
  const unsigned port =
      e.kind == Kind::kHop ? pkg_.LinkPort(e.node, e.link, true) : shape.LocalRouterPort(e.link);
  const bool head = (h >> hw::kHdrHeadBit) & 1u, tail = (h >> hw::kHdrTailBit) & 1u;
  if (follow_ && (head || (tail && e.kind == Kind::kEject)) && follow_(e)) {
    PacketHop hop{e.cycle, ev,   e.node, e.channel ? e.channel->dst() : e.node, 0, 0, 0,
                  head,    tail, vc};
    (e.kind == Kind::kInject ? hop.in_port : hop.out_port) = port;
    if (e.channel) hop.to_port = pkg_.LinkPort(e.channel->dst(), e.channel->dst_link(), false);
    hops_.push_back(hop);
  }
  if (timeline_ && e.cycle >= from_ && e.cycle < to_) {
    if (slices_.size() < kMaxTimelineSlices) {
      slices_.push_back({e.cycle, e.node, port, e.kind, e.channel, h});
    } else {
      ++cut_;
    }
  }
  if (!out_) return;
  std::ostream& f = out_->stream();
  // (A channel's name holds a comma, "x(1,3)+": quoted.)
  const std::string where = e.channel
                                ? fmt::format("{},\"{}\",{},{}", e.link, e.channel->name(),
                                              e.channel->dst(), e.cycle + e.channel->latency())
                                : ",,,";
  std::string fields;
  if (vc >= shape.num_vcs) {  // an engine VC: collective id, operation, sequence
    const hw::CollHeader c = hw::UnpackCollHeader(h);
    fields = fmt::format(",,{},{},{}", c.id, c.op, c.seq);
  } else {
    const hw::Flit fl = hw::UnpackFlit(e.flit, 0);
    fields = fl.is_flow ? fmt::format("{},,{},,", fl.src_y * k + fl.src_x, fl.flow)
                        : fmt::format("{},{},,,", fl.src_y * k + fl.src_x, fl.dst_y * k + fl.dst_x);
  }
  const uint32_t lane1 = shape.words() > 2 ? e.flit[2] : 0;
  f << e.cycle << ',' << ev << ',' << e.node << ',' << where << ',' << vc << ',' << (h & 1u) << ','
    << ((h >> 1) & 1u) << ',' << fields << ',' << e.flit[1] << ',' << lane1 << ",0x"
    << fmt::format("{:08x}", h) << '\n';
}

namespace {
// A port's bit in a mask (none for ~0u: a link no port owns).
uint32_t Bit(unsigned port) { return port < 32 ? 1u << port : 0u; }
}  // namespace

FollowedPath PathOf(const std::vector<PacketHop>& hops, uint64_t first, uint64_t end) {
  FollowedPath fp;
  TraceRequest& tr = fp.trace;
  auto at = [&tr](unsigned node) -> size_t {  // the node's place in the path
    auto it = std::find(tr.nodes.begin(), tr.nodes.end(), node);
    if (it != tr.nodes.end()) return static_cast<size_t>(it - tr.nodes.begin());
    tr.nodes.push_back(node);
    tr.view.in_ports.push_back(0);
    tr.view.out_ports.push_back(0);
    return tr.nodes.size() - 1;
  };
  uint64_t last_eject = first;
  std::vector<std::string> listed;
  std::vector<std::tuple<std::string, unsigned, unsigned>> seen;  // each step of the path once
  bool more = false;
  for (const PacketHop& h : hops) {
    if (h.cycle < first || h.cycle > end) continue;
    if (h.event == "eject") last_eject = std::max(last_eject, h.cycle);
    if (!h.head) continue;  // (a tail: its ejection ends the window)
    const size_t n = at(h.node);
    if (h.event == "inject") {
      tr.view.in_ports[n] |= Bit(h.in_port);
    } else {
      tr.view.out_ports[n] |= Bit(h.out_port);
    }
    if (h.event == "hop") tr.view.in_ports[at(h.to_node)] |= Bit(h.to_port);
    const auto step = std::make_tuple(h.event, h.node, h.to_node);
    if (std::find(seen.begin(), seen.end(), step) != seen.end()) continue;
    seen.push_back(step);
    if (listed.size() == 12) {
      more = true;
      continue;
    }
    listed.push_back(h.event == "hop"
                         ? fmt::format("node{} -> node{} (cycle {})", h.node, h.to_node, h.cycle)
                         : fmt::format("{} at node{} (cycle {})", h.event, h.node, h.cycle));
  }
  fp.text = fmt::format("{}", fmt::join(listed, ", ")) + (more ? ", ..." : "");
  tr.from = first > 5 ? first - 5 : 0;
  tr.to = last_eject + 10;
  // The view: the packet's life with 2 cycles before and 3 after (about 30 pixels a cycle for a
  // few hops, so that a one-cycle flit's first characters read), the trace a little wider.
  tr.view.from = first > 2 ? first - 2 : 0;
  tr.view.to = last_eject + 3;
  tr.view.markers = {first, last_eject};
  return fp;
}

namespace {
bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

WaveformFiles::WaveformFiles(const std::string& path) {
  if (path.empty()) return;
  vcd_ = EndsWith(path, ".vcd");
  if (!vcd_ && !EndsWith(path, ".fst")) {
    throw ConfigError(fmt::format(
        "--trace {}: name the waveform FILE.fst (GTKWave's compressed format) or FILE.vcd", path));
  }
  if (vcd_ && std::system("command -v fst2vcd > /dev/null 2>&1") != 0) {
    throw ConfigError(fmt::format(
        "--trace {}: a VCD is converted from the FST by fst2vcd, which is not installed (Debian "
        "package gtkwave; or name the waveform FILE.fst)",
        path));
  }
  const std::string gtkw = GtkwPathOf(path);
  wave_ = std::make_unique<OutputFile>(path, "--trace");
  if (vcd_) {  // the FST writer writes beside the VCD's temporary; fst2vcd converts it
    wave_->AddSideFile(".fst");
    wave_->AddSideFile(".fst.hier");
    writer_path_ = wave_->HandOver() + ".fst";
  } else {
    wave_->AddSideFile(".hier");  // (the FST writer's hierarchy, beside the file while it writes)
    writer_path_ = wave_->HandOver();
  }
  save_ = std::make_unique<OutputFile>(gtkw, "--trace");
  filter_ = std::make_unique<OutputFile>(FlitFilterPath(gtkw), "--trace");
}

void WaveformFiles::WriteSaveFile(const sysc::Package& pkg, const TraceRequest& trace) {
  std::vector<std::string> scopes;
  if (trace.nodes.empty()) {
    for (unsigned n = 0; n < pkg.num_nodes(); ++n) scopes.push_back(pkg.NodeName(n));
  } else {
    for (unsigned n : trace.nodes) scopes.push_back(pkg.NodeName(n));
  }
  GtkwView view = trace.view;
  if (view.to == 0) {  // the traced window, or its first 200 cycles when it runs to the end
    view.from = trace.from;
    view.to = trace.to != ~uint64_t{0} ? trace.to : trace.from + kDefaultView;
  }
  WritePackageGtkw(*save_, *filter_, trace.file, pkg.shape(), scopes, pkg.k(), view);
}

void WaveformFiles::Commit(bool fst_reads_back) {
  if (!wave_) return;
  if (!fst_reads_back) {
    throw std::runtime_error(fmt::format(
        "--trace {}: the waveform did not read back as an FST (a full disk?); the path is "
        "unchanged",
        wave_->path()));
  }
  if (vcd_) {
    const std::string cmd = fmt::format("fst2vcd -f {} -o {} > /dev/null 2>&1",
                                        ShellQuote(writer_path_), ShellQuote(wave_->temp()));
    if (std::system(cmd.c_str()) != 0) {
      throw std::runtime_error(
          fmt::format("--trace {}: fst2vcd could not convert the waveform; the path is unchanged",
                      wave_->path()));
    }
  }
  for (OutputFile* f : {wave_.get(), save_.get(), filter_.get()}) f->Commit();
}

void CheckTraceRequest(const TraceRequest& trace, sysc::NodeImpl impl, const std::string& model,
                       unsigned num_nodes) {
  if (!trace.file.empty() && impl != sysc::NodeImpl::kRtl) {
    throw ConfigError(
        fmt::format("--trace needs sim.model = rtl (sim.model = {}: the fast model "
                    "has no waveforms; it gives the same cycles)",
                    model));
  }
  for (unsigned n : trace.nodes) {
    if (n >= num_nodes) {
      throw ConfigError(
          fmt::format("--trace-nodes: node {} does not exist (0 .. {})", n, num_nodes - 1));
    }
  }
}

void CheckTraceWindow(const TraceRequest& trace) {
  const bool window = trace.from != 0 || trace.to != ~uint64_t{0};
  if (trace.file.empty() && !trace.nodes.empty())
    throw ConfigError("--trace-nodes chooses the nodes --trace FILE.fst records: give --trace too");
  if (trace.file.empty() && trace.timeline.empty() && window) {
    throw ConfigError(
        "--trace-from and --trace-to choose the cycles --trace FILE.fst and --timeline FILE.json "
        "record: give one of them");
  }
  if (trace.from >= trace.to) {
    throw ConfigError(fmt::format("--trace-from {} --trace-to {}: an empty window (from < to)",
                                  trace.from, trace.to));
  }
}

std::vector<unsigned> ParseTraceNodes(const std::string& s) {
  std::vector<unsigned> v;
  if (s == "all") return v;
  const std::vector<std::string> items = SplitList(s, "--trace-nodes");  // (each once, none empty)
  if (items.empty()) throw ConfigError("--trace-nodes '': expected all or node ids like 0,5,6");
  for (const std::string& item : items) {
    unsigned long n = 0;
    try {
      size_t pos = 0;
      n = std::stoul(item, &pos);
      if (pos != item.size()) throw std::invalid_argument(item);
    } catch (const std::logic_error&) {
      throw ConfigError(fmt::format("--trace-nodes '{}': expected node ids like 0,5,6", s));
    }
    if (std::find(v.begin(), v.end(), n) != v.end())  // (0 and 00: one node)
      throw ConfigError(fmt::format("--trace-nodes {}: node {} given twice", s, n));
    v.push_back(static_cast<unsigned>(n));
  }
  return v;
}

Timeline::Track Timeline::TrackOf(const std::string& process, const std::string& thread) {
  auto p = std::find(processes_.begin(), processes_.end(), process);
  if (p == processes_.end()) {
    processes_.push_back(process);
    threads_.emplace_back();
    ends_.emplace_back();
    lane_tid_.emplace_back();
    p = processes_.end() - 1;
  }
  const unsigned pid = static_cast<unsigned>(p - processes_.begin());
  auto& names = threads_[pid];
  auto t = std::find(names.begin(), names.end(), thread);
  if (t == names.end()) {
    names.push_back(thread);
    ends_[pid].emplace_back();
    lane_tid_[pid].emplace_back();
    t = names.end() - 1;
  }
  return {pid, static_cast<unsigned>(t - names.begin())};
}

void Timeline::Slice(const std::string& process, const std::string& thread, const std::string& name,
                     double start_ns, double end_ns, const std::string& args_json) {
  const Track tr = TrackOf(process, thread);
  std::vector<double>& ends = ends_[tr.pid][tr.tid];
  std::vector<unsigned>& tids = lane_tid_[tr.pid][tr.tid];
  size_t lane = 0;  // the first lane free at start_ns (slices come in any order of start)
  while (lane < ends.size() && ends[lane] > start_ns) ++lane;
  if (lane == ends.size()) {
    ends.push_back(0);
    tids.push_back(static_cast<unsigned>(tid_names_.size()));
    tid_names_.push_back(lane == 0 ? thread : fmt::format("{} #{}", thread, lane + 1));
    tid_pid_.push_back(tr.pid);
  }
  ends[lane] = std::max(ends[lane], end_ns);
  events_.push_back({tr.pid, tids[lane], name, args_json, start_ns, std::max(start_ns, end_ns)});
}

void Timeline::Total(const std::string& key, uint64_t value) {
  totals_.emplace_back(key, std::to_string(value));
}

void Timeline::Total(const std::string& key, double value) {
  totals_.emplace_back(key, nlohmann::json(value).dump());
}

std::string Timeline::Json() const {
  nlohmann::json events = nlohmann::json::array();
  for (size_t p = 0; p < processes_.size(); ++p) {
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", p + 1},
                      {"tid", 0},
                      {"args", {{"name", processes_[p]}}}});
    events.push_back({{"ph", "M"},
                      {"name", "process_sort_index"},
                      {"pid", p + 1},
                      {"tid", 0},
                      {"args", {{"sort_index", p}}}});
  }
  for (size_t t = 0; t < tid_names_.size(); ++t) {
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", tid_pid_[t] + 1},
                      {"tid", t + 1},
                      {"args", {{"name", tid_names_[t]}}}});
    events.push_back({{"ph", "M"},
                      {"name", "thread_sort_index"},
                      {"pid", tid_pid_[t] + 1},
                      {"tid", t + 1},
                      {"args", {{"sort_index", t}}}});
  }
  nlohmann::json j;
  j["traceEvents"] = std::move(events);
  j["displayTimeUnit"] = "ns";
  nlohmann::json totals = nlohmann::json::object();
  for (const auto& [key, value] : totals_) totals[key] = nlohmann::json::parse(value);
  j["otherData"] = {{"provenance", ProvenanceJson()}, {"totals", std::move(totals)}};
  // The slices are written as text, one a line, after the metadata events (a million slices as
  // JSON objects would take a gigabyte).
  std::string out = j.dump(1);
  const size_t at = out.find("\n ]", out.find("\"traceEvents\""));
  std::string slices;
  slices.reserve(events_.size() * 120);
  std::vector<std::string> cats(processes_.size());
  for (size_t p = 0; p < processes_.size(); ++p) cats[p] = nlohmann::json(processes_[p]).dump();
  for (const Event& e : events_) {
    slices += fmt::format(
        ",\n  {{\"ph\": \"X\", \"name\": {}, \"pid\": {}, \"tid\": {}, \"ts\": {}, \"dur\": {}, "
        "\"cat\": {}{}}}",
        nlohmann::json(e.name).dump(), e.pid + 1, e.tid + 1, e.start / 1e3, (e.end - e.start) / 1e3,
        cats[e.pid], e.args.empty() ? "" : ", \"args\": " + e.args);
  }
  if (at != std::string::npos) out.insert(at, slices);  // (none: no process, so no slice)
  return out + "\n";
}

void AddFlitSlices(Timeline& t, const FlitRecorder& rec, const TraceRequest& trace) {
  using Kind = sysc::Package::FlitEvent::Kind;
  const unsigned num_vcs = rec.package().shape().num_vcs, k = rec.package().k();
  for (const FlitRecorder::Slice& s : rec.slices()) {
    const std::string name = DescribeHeader(s.header, num_vcs, k);
    const double at = static_cast<double>(s.cycle);
    if (s.kind == Kind::kHop) {
      t.Slice("links", s.channel->name(), name, at, at + 1);
    } else {
      t.Slice(fmt::format("node{}", s.node),
              fmt::format("{} port {}", s.kind == Kind::kInject ? "inject" : "eject", s.port), name,
              at, at + 1);
    }
  }
  if (trace.from != 0 || trace.to != ~uint64_t{0}) {
    t.Total("flit_window_from", trace.from);
    if (trace.to != ~uint64_t{0}) t.Total("flit_window_to", trace.to);
  }
  if (rec.slices_cut() > 0) {
    fmt::print(stderr,
               "warning: --timeline {}: {} flit events past the first {} left out (choose the "
               "cycles with --trace-from and --trace-to)\n",
               trace.timeline, rec.slices_cut(), FlitRecorder::kMaxTimelineSlices);
    t.Total("flit_slices_cut", rec.slices_cut());
  }
}

}  // namespace aries::sim
