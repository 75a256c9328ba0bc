// aries: the one command-line entry point of ARIES-sim.
//
//   aries                 the default run (same as `aries run`)
//   aries run [opts]      single-router run: zero-load latency, then uniform random traffic
//   aries bench [opts]    simulated cycles per second at several loads, and synthesized area
//
// Until the package (interposer NoC) exists, runs use one router of the paper's configuration:
// 5 ports, 4 VCs, 32-flit VC buffers, 16 x 32-bit lanes, 10-cycle links (ARIES Table II).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "Varies_router.h"
#include "gtkw.h"
#include "router_run.h"
#include "verilated_router.h"

namespace {

using aries::sim::RouterRunConfig;
using aries::sim::RouterRunResult;

// Parameters of the verilated model linked into this program (rtl/CMakeLists.txt).
constexpr aries::tb::RouterParams kModel{5, 4, 32, 16, 64};

nlohmann::json ToJson(const RouterRunConfig& c, const RouterRunResult& r) {
  return {{"config",
           {{"rate", c.rate}, {"packet_len", c.packet_len}, {"warmup", c.warmup},
            {"measure", c.measure}, {"link_latency", c.link_latency}, {"seed", c.seed},
            {"router", {{"ports", kModel.num_ports}, {"vcs", kModel.num_vcs},
                        {"buffer_depth", kModel.buffer_depth}, {"lanes", kModel.lanes}}}}},
          {"result",
           {{"zero_load_latency", r.zero_load_latency}, {"offered", r.offered},
            {"accepted", r.accepted}, {"saturated", r.saturated},
            {"latency_mean", r.lat_mean}, {"latency_p50", r.lat_p50},
            {"latency_p99", r.lat_p99}, {"latency_max", r.lat_max},
            {"router_latency_mean", r.router_lat_mean}, {"cycles", r.cycles},
            {"flits", r.flits}, {"drained", r.drained}, {"errors", r.errors},
            {"wall_s", r.wall_s}, {"model_s", r.tick_s}}}};
}

int Run(const RouterRunConfig& cfg, const std::string& trace, const std::string& json_path) {
  aries::tb::VerilatedRouter<Varies_router> dut(kModel, cfg.seed);
  if (!trace.empty()) {
    if (!dut.OpenTrace(trace)) {
      fmt::print(stderr, "error: --trace {}: cannot open the file for writing\n", trace);
      return 2;
    }
    const std::string save = trace.substr(0, trace.rfind('.')) + ".gtkw";
    if (aries::sim::WriteRouterGtkw(save, trace, kModel) == 0) {
      fmt::print(stderr, "error: cannot write the GTKWave save file {}\n", save);
      return 2;
    }
    fmt::print(stderr, "aries: waveform {}, open with: gtkwave {}\n", trace, save);
  }
  fmt::print(stderr, "aries: single router, {} ports x {} VCs x {} flits, {} lanes; load {} "
                     "flits/cycle/port, {}-flit packets, {}-cycle links, seed {}\n",
             kModel.num_ports, kModel.num_vcs, kModel.buffer_depth, kModel.lanes, cfg.rate,
             cfg.packet_len, cfg.link_latency, cfg.seed);
  const RouterRunResult r = aries::sim::RunSingleRouter(dut, cfg);
  fmt::print("{:<34}{:>12}\n", "metric", "value");
  fmt::print("{:<34}{:>12.1f}\n", "zero-load router latency [cycles]", r.zero_load_latency);
  fmt::print("{:<34}{:>12.3f}\n", "offered [flits/cycle/port]", r.offered);
  fmt::print("{:<34}{:>12.3f}{}\n", "accepted [flits/cycle/port]", r.accepted,
             r.saturated ? "  (saturated)" : "");
  fmt::print("{:<34}{:>12.1f}\n", "packet latency mean [cycles]", r.lat_mean);
  fmt::print("{:<34}{:>12.0f}\n", "packet latency p50 [cycles]", r.lat_p50);
  fmt::print("{:<34}{:>12.0f}\n", "packet latency p99 [cycles]", r.lat_p99);
  fmt::print("{:<34}{:>12.0f}\n", "packet latency max [cycles]", r.lat_max);
  fmt::print("{:<34}{:>12.2f}\n", "router latency mean [cycles]", r.router_lat_mean);
  fmt::print("{:<34}{:>12}\n", "flits injected", r.flits);
  fmt::print("{:<34}{:>12}\n", "all flits delivered, checked", r.drained && r.errors == 0 ? "yes" : "NO");
  fmt::print("{:<34}{:>12.0f}\n", "simulated cycles / s", double(r.cycles) / r.wall_s);
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    if (!f) {
      fmt::print(stderr, "error: --json {}: cannot open the file for writing\n", json_path);
      return 2;
    }
    f << ToJson(cfg, r).dump(2) << "\n";
  }
  return (r.drained && r.errors == 0) ? 0 : 1;
}

int Bench(uint64_t cycles, bool synth, const std::string& synth_out) {
  fmt::print("router speed: {} ports x {} VCs x {} flits, {} lanes, assertions off, one thread\n",
             kModel.num_ports, kModel.num_vcs, kModel.buffer_depth, kModel.lanes);
  fmt::print("{:>8}{:>10}{:>14}{:>16}{:>12}\n", "load", "accepted", "cycles/s", "model cycles/s",
             "model share");
  for (double load : {0.02, 0.1, 0.3, 1.0}) {
    RouterRunConfig cfg;
    cfg.rate = load;
    cfg.warmup = cycles / 10;
    cfg.measure = cycles;
    aries::tb::VerilatedRouter<Varies_router> dut(kModel, 1);
    const RouterRunResult r = aries::sim::RunSingleRouter(dut, cfg);
    fmt::print("{:>8.2f}{:>10.3f}{:>14.0f}{:>16.0f}{:>11.0f}%\n", load, r.accepted,
               double(r.cycles) / r.wall_s, double(r.cycles) / r.tick_s,
               100.0 * r.tick_s / r.wall_s);
    std::fflush(stdout);
  }
  if (!synth) return 0;
  // Area: synthesize the paper's router at BufferDepth 2 and 4 (a flat 32-deep synthesis holds
  // ~350k flip-flops and takes very long) and extrapolate the buffers linearly to 32.
  fmt::print("\nsynthesized area (Yosys, Nangate45 cell areas); buffers extrapolated to depth "
             "{}:\n", kModel.buffer_depth);
  const std::string script = std::string(ARIES_SOURCE_DIR) + "/synth_scripts/router_area.py";
  const std::string cmd = fmt::format("python3 {} --out {} --lanes {} --vcs {} --ports {} "
                                      "--depth {} --flows {}",
                                      script, synth_out, kModel.lanes, kModel.num_vcs,
                                      kModel.num_ports, kModel.buffer_depth, kModel.num_flows);
  fmt::print(stderr, "$ {}\n", cmd);
  std::fflush(stdout);
  return std::system(cmd.c_str()) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ARIES-sim: cycle-accurate chiplet interposer NoC model (single-router stage)"};
  app.require_subcommand(0, 1);
  RouterRunConfig cfg;
  std::string trace, json_path;
  auto add_run_opts = [&](CLI::App* a) {
    a->add_option("--rate", cfg.rate, "offered load, flits/cycle/port")
        ->check(CLI::Range(0.0, 1.0))->capture_default_str();
    a->add_option("--packet-len", cfg.packet_len, "flits per packet")
        ->check(CLI::Range(1, 64))->capture_default_str();
    a->add_option("--warmup", cfg.warmup, "cycles before measuring")->capture_default_str();
    a->add_option("--cycles", cfg.measure, "measured cycles")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40))->capture_default_str();
    a->add_option("--link-latency", cfg.link_latency, "cycles per link and credit return")
        ->check(CLI::Range(0, 1000))->capture_default_str();
    a->add_option("--seed", cfg.seed, "random seed")->capture_default_str();
    a->add_option("--trace", trace,
                  "write an FST waveform and a GTKWave save file (same name, .gtkw)");
    a->add_option("--json", json_path, "write the config and results as JSON");
  };
  add_run_opts(&app);
  CLI::App* run = app.add_subcommand("run", "single-router run (the default)");
  add_run_opts(run);
  CLI::App* bench = app.add_subcommand("bench", "router simulation speed and synthesized area");
  uint64_t bench_cycles = 100000;
  bool no_synth = false;
  std::string synth_out = "synth_out/router_area";
  bench->add_option("--cycles", bench_cycles, "measured cycles per load point")
      ->check(CLI::Range(uint64_t{1000}, uint64_t{1} << 40))->capture_default_str();
  bench->add_flag("--no-synth", no_synth, "skip the Yosys area report");
  bench->add_option("--synth-out", synth_out, "directory for the synthesis results")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (bench->parsed()) return Bench(bench_cycles, !no_synth, synth_out);
  return Run(cfg, trace, json_path);
}
