#include "package_run.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "fault_routes.h"
#include "files.h"
#include "geometry.h"
#include "node_models.h"
#include "package.h"
#include "package_sc.h"
#include "plot.h"
#include "provenance.h"
#include "run_util.h"
#include "trace_outputs.h"

namespace aries::sim {

namespace hw = aries::hw;

namespace {

// The run's traffic; a packet trace (traffic.trace) is read and refused when none of its
// packets is injected in the measurement window.
tb::TrafficConfig TrafficOfRun(const SimSettings& s, unsigned num_nodes) {
  tb::TrafficConfig tc = s.traffic;
  if (tc.pattern != tb::Pattern::kTrace) return tc;
  tc.trace =
      tb::ReadTrace(CheckInputFile(s.trace_file, "traffic.trace", kLargeInputLimit), num_nodes);
  // Latency is measured on the packets injected in [warm-up, warm-up + measure): a trace
  // with none there would report 0 packets and latency 0 as if measured.
  const uint64_t from = s.run.warmup, to = s.run.warmup + s.run.measure;
  size_t in_window = 0, before = 0;
  for (const tb::TraceEntry& e : tc.trace) {
    in_window += e.cycle >= from && e.cycle < to;
    before += e.cycle < from;
  }
  if (in_window == 0) {
    throw ConfigError(fmt::format(
        "traffic.trace {}: none of its {} packets is injected in the measurement window, "
        "cycles {} .. {} ({} in the warm-up); set sim.warmup and sim.measure to cover them",
        s.trace_file, tc.trace.size(), from, to - 1, before));
  }
  return tc;
}

// The nodes the package is built of: package.node names a built parameter set; auto takes the
// engine-less point-to-point model unless waveforms (`traced`) are asked for.
sysc::NodeModelFactory NodeModelsOf(const SimSettings& s, sysc::NodeImpl impl, bool traced) {
  const unsigned carried = s.payload == "id" ? 1 : 0;  // lane 0: the packet id
  if (s.node != "auto") return sysc::NamedNodeModels(s.node, impl, carried);
  return sysc::ShippedNodeModels(traced ? sysc::NodeUse::kAny : sysc::NodeUse::kPointToPoint, impl,
                                 carried);
}

// Programs routing tables around the faults present from reset (a fault of a later cycle
// strikes the running traffic: the watchdog's report names the link); returns their summary.
std::string ProgramFaultRoutes(sysc::Package& pkg, const SimSettings& s) {
  coll::Geometry known = s.package;
  known.faults = s.package.faults.FromReset();
  const coll::FaultRoutes routes = coll::RouteAroundFaults(known, sysc::HardwareOf(pkg.shape()));
  std::vector<sysc::RegOp> ops;
  for (unsigned n = 0; n < pkg.num_nodes(); ++n)
    sysc::AppendRouteWrites(ops, n, routes.tables[n], known, pkg.shape().num_ports);
  pkg.Program(ops);
  return routes.Summary();
}

// The progress report of a run of `cycles` cycles on stderr (rank 0's), or none.
tb::Progress ProgressOf(bool progress, uint64_t cycles, sysc::Transport* net) {
  auto meter = std::make_shared<ProgressMeter>(progress, "run", cycles);
  if (!meter->enabled() || (net && net->rank() != 0)) return {};
  return [meter](uint64_t cycle) { (*meter)(cycle); };
}

// --timeline: the run's flits on a trace-event timeline (a track per link direction, and per
// node its injections and ejections), with the run's totals they add up to.
void WriteRunTimeline(const TraceRequest& trace, const FlitRecorder& rec, const tb::RunResult& r) {
  Timeline t;
  AddFlitSlices(t, rec, trace);
  t.Total("cycles", r.cycles);
  t.Total("flits_injected", r.flits_created);
  t.Total("flits_ejected", r.flits_ejected);
  t.Total("flit_hops", r.flit_hops);
  WriteOutputFile(trace.timeline, t.Json(), "--timeline");
}

// The peak resident memory in KB, the largest over the ranks.
long PeakMemoryKb(sysc::Transport* net) {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  long kb = ru.ru_maxrss;
  if (net) kb = static_cast<long>(net->Max(static_cast<uint64_t>(kb)));
  return kb;
}

}  // namespace

RunOutput RunPackage(const SimSettings& s, const TraceRequest& trace, bool use_systemc,
                     bool progress, sysc::Transport* net) {
  RunOutput o;
  o.ranks = net ? net->ranks() : 1;
  // Point-to-point traffic only: the node model without the collective engine and tracing
  // (same cycles), unless waveforms are asked for.
  const sysc::NodeImpl impl = sysc::ParseNodeImpl(s.model);
  const bool traced = !trace.file.empty();
  sysc::PackageConfig pc = s.package;
  pc.count_toggles = false;  // no energy here: the data toggles are never read
  // Checked before the package is built: with waveforms, it opens the FST as its nodes leave
  // reset, so its own CTRL writes are in it, and a refused input must leave no file behind.
  // What is refused after it (a fault that cuts a node off, a bypass setting) removes the
  // waveform's files (declared first, so the package has closed the FST).
  CheckTraceRequest(trace, impl, s.model, s.package.k * s.package.k);
  tb::TrafficConfig tc = TrafficOfRun(s, s.package.k * s.package.k);
  WaveformFiles outputs(trace.file);
  const sysc::Package::Waveform wave{outputs.writer_path(), trace.nodes, trace.from, trace.to};
  sysc::Package pkg(pc, NodeModelsOf(s, impl, traced), s.seed, net, traced ? &wave : nullptr);
  // The waveform is open (the package's construction), so the config bus shows the run's own
  // register writes below too: bypass segments, routes around faults.
  if (traced) outputs.WriteSaveFile(pkg, trace);
  if (s.bypass == "random") {
    std::mt19937_64 rng(s.seed ^ 0xB7E15162u);
    o.moved_hops = tb::ApplyRandomBypass(pkg, rng);
  }
  // Tables route around the faults present from reset; a fault still to come (perhaps never,
  // in this run) leaves dimension-order routing as it is until it strikes.
  if (!s.package.faults.FromReset().empty() && s.fault_routing == "tables") {
    o.fault_routes = ProgramFaultRoutes(pkg, s);
    tc.flow_routed = true;
  }
  tb::NetTraffic traffic(pkg, tc);
  std::shared_ptr<FlitRecorder> logger;
  if (trace.Observes()) {
    FlitMatch follow;
    if (trace.packet >= 0) {  // lane 0 of a traffic packet's flits: its id
      const unsigned vcs = pkg.shape().num_vcs;
      const auto id = static_cast<uint32_t>(trace.packet);
      follow = [vcs, id](const sysc::Package::FlitEvent& e) {
        return ((e.flit[0] >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u)) < vcs && e.flit[1] == id;
      };
    }
    logger = std::make_shared<FlitRecorder>(trace, pkg, follow);
    pkg.SetFlitObserver([logger](const sysc::Package::FlitEvent& e) { (*logger)(e); });
  }
  tb::Advance advance;
  std::unique_ptr<sysc::PackageSc> sc;
  if (use_systemc) {
    sc = std::make_unique<sysc::PackageSc>("package", &pkg);
    advance = [&sc](uint64_t n) { sc->Run(n); };
  }
  const tb::Progress prog = ProgressOf(progress, s.run.warmup + s.run.measure, net);
  o.result = tb::RunTraffic(pkg, traffic, s.run, advance, prog);
  outputs.Commit(pkg.CloseTrace());
  if (logger) {
    logger->Commit();
    o.packet_path = logger->hops();
    if (!trace.timeline.empty()) WriteRunTimeline(trace, *logger, o.result);
  }
  if (traced && pkg.cycle() <= trace.from) {  // (the run's end is known only now)
    fmt::print(stderr,
               "warning: --trace-from {}: the run ended at cycle {}, so {} holds none of its "
               "cycles\n",
               trace.from, pkg.cycle(), trace.file);
  }
  o.maxrss_kb = PeakMemoryKb(net);
  return o;
}

namespace {
// "4x4 aries, 2 tracks, link 10 cycles (+1 per extra pitch)[, dynamic VC allocation]": the
// package a run or a sweep steps.
std::string PackageLine(const SimSettings& s, const Config& c) {
  return fmt::format("{}x{} {}, {} tracks, link {} cycles (+{} per extra pitch){}", s.package.k,
                     s.package.k, c.Get("package.topology"), s.package.tracks,
                     s.package.link_latency, s.package.extra_per_pitch,
                     s.package.dynamic_vcs ? ", dynamic VC allocation" : "");
}
}  // namespace

void PrintSummary(const SimSettings& s, const Config& c, const RunOutput& o) {
  const tb::RunResult& r = o.result;
  fmt::print("ARIES-sim package run\n");
  fmt::print("  {:<28} {}\n", "package", PackageLine(s, c));
  if (s.bypass == "random") {
    fmt::print("  {:<28} random, {} mesh hops moved onto bypass segments\n", "bypass",
               o.moved_hops);
  }
  if (!s.package.faults.empty()) {
    fmt::print("  {:<28} {}\n", "faults", s.package.faults.Names(s.package));
    fmt::print("  {:<28} {}\n", "routing",
               !o.fault_routes.empty() ? o.fault_routes
               : s.fault_routing == "dor"
                   ? "dimension order (package.fault_routing = dor)"
                   : "dimension order (none from reset: the tables route around faults present "
                     "from reset)");
  }
  fmt::print("  {:<28} {} at {} flits/node/cycle, {}-flit packets, seed {}\n", "traffic",
             c.Get("traffic.pattern"), s.traffic.rate, s.traffic.packet_len, s.seed);
  fmt::print("  {:<28} {:.4f} offered, {:.4f} accepted{}\n", "throughput (flits/node/cycle)",
             r.offered, r.accepted, r.saturated ? "  SATURATED" : "");
  fmt::print("  {:<28} mean {:.1f}, p50 {:.0f}, p99 {:.0f}, max {:.0f} ({} packets)\n",
             "packet latency (cycles)", r.latency.mean, r.latency.p50, r.latency.p99, r.latency.max,
             r.latency.packets);
  fmt::print("  {:<28} {:.1f}\n", "network latency mean", r.latency.net_mean);
  fmt::print("  {:<28} mean {:.3f}, max {:.3f} flits/cycle\n", "link utilisation", r.link_util_mean,
             r.link_util_max);
  fmt::print(
      "  {:<28} {} created, {} ejected, {} packets outstanding; {} flit-hops on the "
      "interposer\n",
      "flits", r.flits_created, r.flits_ejected, r.packets_outstanding, r.flit_hops);
  fmt::print("  {:<28} {}{}\n", "all flits delivered, checked",
             r.ok() && r.packets_outstanding == 0 ? "yes" : "NO",
             s.payload == "id" ? " (headers and packet ids: sim.payload = id; full moves and "
                                 "checks every lane)"
                               : "");
  if (r.drain_limited) {  // not lost: the run stopped waiting for them
    fmt::print(
        "  {:<28} {} packets still in flight when sim.drain_limit = {} cycles after the window "
        "ran out (none lost; raise sim.drain_limit to let them arrive)\n",
        "stopped by the drain limit", r.packets_outstanding, s.run.drain_limit);
  }
  fmt::print(
      "  {:<28} {} cycles in {:.2f} s = {:.0f} cycles/s ({} node model, {} kernel, {}{} "
      "thread{}), peak memory {} MB{}\n",
      "speed", r.cycles, r.seconds, r.seconds > 0 ? r.cycles / r.seconds : 0.0, s.model, s.kernel,
      o.ranks > 1 ? fmt::format("{} ranks x ", o.ranks) : "", s.package.threads,
      s.package.threads == 1 ? "" : "s", o.maxrss_kb / 1024, o.ranks > 1 ? " per rank" : "");
  for (const std::string& e : r.errors) fmt::print("  error: {}\n", e);
  if (r.stuck) fmt::print("  STUCK: {}", r.stuck_report);
}

std::string CsvHeader() {
  return "topology,k,tracks,link_latency,vc_alloc,bypass,pattern,rate,packet_len,seed,offered,"
         "accepted,"
         "saturated,stuck,lat_mean,lat_p50,lat_p99,lat_max,net_lat_mean,link_util_mean,"
         "link_util_max,cycles,seconds,cycles_per_s,maxrss_kb,errors,model,payload";
}

std::string CsvRow(const SimSettings& s, const RunOutput& o) {
  const tb::RunResult& r = o.result;
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{:.5f},{:.5f},{},{},{:.2f},{:.0f},{:.0f},{:.0f},"
      "{:.2f},{:.4f},{:.4f},{},{:.3f},{:.0f},{},{},{},{}",
      coll::TopologyName(s.package.topology), s.package.k, s.package.tracks, s.package.link_latency,
      s.package.dynamic_vcs ? "dynamic" : "static", s.bypass, tb::PatternName(s.traffic.pattern),
      s.traffic.rate, s.traffic.packet_len, s.seed, r.offered, r.accepted, r.saturated ? 1 : 0,
      r.stuck ? 1 : 0, r.latency.mean, r.latency.p50, r.latency.p99, r.latency.max,
      r.latency.net_mean, r.link_util_mean, r.link_util_max, r.cycles, r.seconds,
      r.seconds > 0 ? r.cycles / r.seconds : 0.0, o.maxrss_kb, r.errors.size(), s.model, s.payload);
}

std::string ToJson(const Config& c, const std::string& command,
                   const std::vector<std::pair<SimSettings, RunOutput>>& runs) {
  nlohmann::json j;
  j["provenance"] = ProvenanceJson();
  j["request"] = TypedConfig(c, command);
  nlohmann::json& runs_json = j["result"]["runs"] = nlohmann::json::array();
  for (const auto& [s, o] : runs) {
    const tb::RunResult& r = o.result;
    nlohmann::json x;
    x["rate"] = s.traffic.rate;
    x["seed"] = s.seed;
    x["offered"] = r.offered;
    x["accepted"] = r.accepted;
    x["saturated"] = r.saturated;
    x["stuck"] = r.stuck;
    x["drain_limited"] = r.drain_limited;
    x["stuck_report"] = r.stuck_report;
    x["latency"] = {{"mean", r.latency.mean},       {"p50", r.latency.p50},
                    {"p99", r.latency.p99},         {"max", r.latency.max},
                    {"packets", r.latency.packets}, {"network_mean", r.latency.net_mean}};
    x["flits"] = {{"created", r.flits_created},
                  {"ejected", r.flits_ejected},
                  {"packets_outstanding", r.packets_outstanding}};
    x["errors"] = r.errors;
    x["cycles"] = r.cycles;
    x["seconds"] = r.seconds;
    x["cycles_per_second"] = r.seconds > 0 ? r.cycles / r.seconds : 0.0;
    x["maxrss_kb"] = o.maxrss_kb;
    x["model"] = s.model;
    x["payload"] = s.payload;
    x["threads"] = s.package.threads;
    x["ranks"] = o.ranks;
    x["node_evaluations"] = r.node_evaluations;
    x["flit_hops"] = r.flit_hops;
    x["moved_hops"] = o.moved_hops;
    x["faults"] = s.package.faults.Names(s.package);
    if (!o.fault_routes.empty()) x["fault_routes"] = o.fault_routes;
    nlohmann::json links = nlohmann::json::object();
    for (const tb::LinkUse& l : r.links) links[l.name] = l.utilisation;
    x["link_utilisation"] = links;
    runs_json.push_back(x);
  }
  return j.dump(2);
}

namespace {

// sim.model = auto and sim.payload = auto resolved for the command; a payload the model or a
// packet log cannot work with refused.
void ResolveModelAndPayload(const PackageCommand& cmd, SimSettings& s) {
  // sim.model = auto: the Verilated RTL for one run, the fast model (the same cycles) for the
  // many runs of a sweep.
  s.model = ResolveModel(s.model, cmd.sweep ? RunScale::kMany : RunScale::kOne);
  // sim.payload = auto: the fast model moves a flit's header and packet id alone (the other
  // lanes are a function of the id; the cycles are the same), unless a packet log prints them
  // or the node set RunPackage takes has the collective engine (it reduces every lane).
  const bool logs_flits = !cmd.packet_log.empty() || cmd.trace_packet >= 0;
  if (s.payload == "auto") {
    bool id = s.model == "fast" && !logs_flits;
    if (id) {
      const hw::NodeParams* named = s.node == "auto" ? nullptr : sysc::ShippedParams(s.node);
      id = (named ? *named
                  : sysc::ShippedParamsFor(sysc::NodeUse::kPointToPoint,
                                           coll::RouterPorts(s.package.topology, s.package.k),
                                           s.package.local_ports))
               .CollEngine == 0;
    }
    s.payload = id ? "id" : "full";
  }
  if (s.payload == "id" && s.model == "rtl") {
    throw ConfigError(
        "sim.payload = id needs sim.model = fast or check (the rtl model moves every lane; "
        "allowed with it: auto, full)");
  }
  if (s.payload == "id" && logs_flits) {
    throw ConfigError(
        "--packet-log prints the flits' payload lanes: sim.payload = id moves the packet id "
        "alone (set sim.payload = full or auto)");
  }
}

// The waveform and flit log the command asks for (--trace-packet's nodes and cycles are found
// later: FindPacketPath).
TraceRequest TraceRequestOf(const PackageCommand& cmd) {
  TraceRequest tr;
  tr.file = cmd.trace_file;
  tr.nodes = ParseTraceNodes(cmd.trace_nodes);
  tr.timeline = cmd.timeline;
  tr.from = cmd.trace_from;
  tr.to = cmd.trace_to;
  tr.packet_log = cmd.packet_log;
  return tr;
}

// --packet-log and --trace-packet follow one run in one process and one thread (sim.threads =
// auto becomes 1); the nodes and cycles traced (CheckTraceWindow).
void CheckTraceOptions(const PackageCommand& cmd, const Config& cfg, sysc::Transport* net,
                       SimSettings& s) {
  if (!cmd.packet_log.empty() || cmd.trace_packet >= 0 || !cmd.timeline.empty()) {
    if (cmd.sweep || net) {
      throw ConfigError(
          "--packet-log, --trace-packet and --timeline follow the flits of one run in one process "
          "(aries run), not a sweep or ranks");
    }
    if (s.package.threads > 1) {
      if (cfg.Get("sim.threads") != "auto") {
        throw ConfigError(fmt::format(
            "--packet-log and --timeline observe every node in one thread: sim.threads = {} (set "
            "it to 1)",
            s.package.threads));
      }
      s.package.threads = 1;
    }
  }
  CheckTraceWindow(TraceRequestOf(cmd));
}

// Refuses --trace-packet without a waveform of the RTL, or with nodes or cycles of its own.
void CheckTracePacket(const PackageCommand& cmd, const SimSettings& s) {
  if (cmd.trace_file.empty()) {
    throw ConfigError("--trace-packet ID needs --trace FILE.fst: the waveform of its path");
  }
  if (s.model != "rtl") {
    throw ConfigError(fmt::format(
        "--trace-packet traces the RTL: sim.model = {} has no waveforms (use rtl)", s.model));
  }
  if (cmd.trace_nodes != "all" || cmd.trace_from != 0 || cmd.trace_to != ~uint64_t{0}) {
    throw ConfigError(
        "--trace-packet chooses the nodes and cycles itself (the packet's path): drop "
        "--trace-nodes, --trace-from and --trace-to");
  }
}

// The path of packet cmd.trace_packet ("packet N: inject at node0 (cycle c), ...") and the
// trace that records it, found by a first run without a waveform (the run is deterministic, so
// the traced second run repeats it cycle for cycle).
FollowedPath FindPacketPath(const PackageCommand& cmd, const SimSettings& s, sysc::Transport* net) {
  TraceRequest find;
  find.packet = cmd.trace_packet;
  const RunOutput first = RunPackage(s, find, false, false, net);
  const auto& path = first.packet_path;
  if (path.empty()) {
    throw ConfigError(fmt::format(
        "--trace-packet {}: no packet with that id was injected in this run ({} packets "
        "measured; ids count from 0 in the order the packets are made)",
        cmd.trace_packet, first.result.latency.packets));
  }
  FollowedPath p = PathOf(path, path.front().cycle, ~uint64_t{0});
  p.text = fmt::format("packet {}: {}", cmd.trace_packet, p.text);
  return p;
}

// Refuses what a package distributed over ranks cannot do (the SystemC kernel, a waveform, more
// ranks than rows); sim.threads = auto becomes a thread per rank.
void CheckRanks(const PackageCommand& cmd, const Config& cfg, sysc::Transport* net,
                SimSettings& s) {
  if (s.kernel != "loop") {
    throw ConfigError(
        fmt::format("sim.kernel = {}: ranks ({} under mpirun) step with sim.kernel = loop",
                    s.kernel, net->ranks()));
  }
  if (!cmd.trace_file.empty()) {
    throw ConfigError(
        "--trace: waveforms of a package distributed over ranks; trace it in one process");
  }
  if (net->ranks() > s.package.k) {
    throw ConfigError(fmt::format("{} ranks for package.k = {}: at most one rank per row of nodes",
                                  net->ranks(), s.package.k));
  }
  if (cfg.Get("sim.threads") == "auto") s.package.threads = 1;  // a rank per core
}

// A command's runs, each with its settings, and whether every one passed.
struct PackageRuns {
  std::vector<std::pair<SimSettings, RunOutput>> runs;
  bool ok = true;
};

// The sweep's heading: the package, traffic, node model and kernel, then the columns.
void PrintSweepHead(const SimSettings& s, const Config& cfg) {
  fmt::print(
      "ARIES-sim sweep: {}; {} traffic, {}-flit packets, seed {}; {} node model{}, loop kernel, "
      "{} thread{}\n",
      PackageLine(s, cfg), cfg.Get("traffic.pattern"), s.traffic.packet_len, s.seed, s.model,
      s.payload == "id" ? " (sim.payload = id: headers and packet ids)" : "", s.package.threads,
      s.package.threads == 1 ? "" : "s");
  fmt::print("{:>6} {:>9} {:>9} {:>9} {:>7} {:>7} {}\n", "rate", "offered", "accepted", "lat mean",
             "p99", "max", "");
}

// One load's line of the sweep table.
void PrintSweepRow(double rate, const tb::RunResult& r) {
  fmt::print("{:>6} {:>9.4f} {:>9.4f} {:>9.1f} {:>7.0f} {:>7.0f} {}\n", rate, r.offered, r.accepted,
             r.latency.mean, r.latency.p99, r.latency.max,
             r.stuck       ? "STUCK"
             : r.saturated ? "saturated"
                           : "");
}

// aries sweep: a run per load in `rates` up to the first saturated or stuck one, each line
// printed as its run ends. One SystemC elaboration per process: a sweep steps its packages
// with the plain loop (tests/sysc checks both kernels give the same cycles).
PackageRuns RunSweep(const SimSettings& s, const Config& cfg, const std::vector<double>& rates,
                     bool progress, sysc::Transport* net) {
  PackageRuns out;
  PrintSweepHead(s, cfg);
  for (double rate : rates) {
    SimSettings si = s;
    si.traffic.rate = rate;
    auto o = RunPackage(si, {}, false, progress, net);
    const auto& r = o.result;
    PrintSweepRow(rate, r);
    std::fflush(stdout);
    out.ok = out.ok && r.ok();
    const bool last = r.saturated || r.stuck;
    out.runs.emplace_back(si, o);
    if (last) break;
  }
  return out;
}

// Writes --json and --csv (rank 0 of a distributed run) and draws --plot.
void WriteRunFiles(const PackageCommand& cmd, const PackageRuns& runs, sysc::Transport* net) {
  const bool writes = !net || net->rank() == 0;  // rank 0 writes a distributed run's files
  if (writes && !cmd.json_file.empty()) {
    WriteOutputFile(cmd.json_file, ToJson(cmd.config, cmd.sweep ? "sweep" : "run", runs.runs),
                    "--json");
  }
  std::string rows = CsvHeader() + "\n";
  for (const auto& [si, o] : runs.runs) rows += CsvRow(si, o) + "\n";
  if (writes && !cmd.csv_file.empty()) {
    WriteOutputFile(cmd.csv_file, rows, "--csv");
    WriteCsvProvenance(cmd.csv_file, "--csv");
  }
  if (writes) PlotCsv("sweep", rows, cmd.plot_file);
}

}  // namespace

int RunPackageCommand(const PackageCommand& cmd, sysc::Transport* net) {
  const Config& cfg = cmd.config;
  SimSettings s = Validate(cfg);
  if (cmd.sweep && s.traffic.pattern == tb::Pattern::kTrace) {
    throw ConfigError(
        "aries sweep with traffic.pattern = trace: the trace's cycles set the load, so every "
        "rate would repeat one run (use aries run)");
  }
  const std::vector<double> rates = cmd.sweep ? SweepRates(cfg) : std::vector<double>{};
  if (!cmd.plot_file.empty() && !cmd.sweep) {
    throw ConfigError("--plot draws a sweep's latency and throughput curves: aries sweep --plot");
  }
  ResolveModelAndPayload(cmd, s);
  TraceRequest tr = TraceRequestOf(cmd);
  CheckTraceOptions(cmd, cfg, net, s);
  if (cmd.trace_packet >= 0) {
    CheckTracePacket(cmd, s);
    const FollowedPath path = FindPacketPath(cmd, s, net);
    fmt::print("  {}\n", path.text);
    tr.RecordAs(path.trace);  // its nodes, ports and cycles, markers at injection and ejection
  }
  if (net) CheckRanks(cmd, cfg, net, s);
  PackageRuns runs;
  if (cmd.sweep) {
    runs = RunSweep(s, cfg, rates, cmd.progress, net);
  } else {
    auto o = RunPackage(s, tr, s.kernel == "systemc", cmd.progress, net);
    PrintSummary(s, cfg, o);
    runs.ok = o.result.ok() && o.result.packets_outstanding == 0;
    runs.runs.emplace_back(s, o);
    if (!cmd.trace_file.empty()) {
      fmt::print("  trace: {} (open the .gtkw next to it)\n", cmd.trace_file);
    }
  }
  WriteRunFiles(cmd, runs, net);
  return runs.ok ? 0 : 1;
}

}  // namespace aries::sim
