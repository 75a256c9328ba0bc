#include "bench.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "aries_node_params.h"
#include "run_util.h"

namespace aries::sim {

namespace {

// One bench point in a child process (own SystemC elaboration, own peak memory).
nlohmann::json BenchPoint(const std::string& exe, const std::string& topo, unsigned k,
                          unsigned links, double rate, const std::string& kernel,
                          const std::string& threads, uint64_t measure, const std::string& model) {
  const std::string tmp = fmt::format("/tmp/aries_bench_{}_{}.json", getpid(), k);
  const std::string cmd = fmt::format(
      "{} run --set package.topology={} --set package.k={} --set package.link_latency={} "
      "--set traffic.rate={} --set sim.kernel={} --set sim.threads={} --set sim.warmup=500 "
      "--set sim.measure={} --set sim.model={} --json {} > /dev/null",
      ShellQuote(exe), topo, k, links, rate, kernel, threads, measure, model, ShellQuote(tmp));
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("bench point failed: " + cmd);
  std::ifstream f(tmp);
  nlohmann::json j = nlohmann::json::parse(f);
  std::remove(tmp.c_str());
  return j["result"]["runs"][0];
}

}  // namespace

int RunBenchCommand(const BenchOptions& o) {
  const uint64_t measure = o.quick ? 1000 : 5000;
  const auto& node = hw::kVaries_node_p2pParams;  // what point-to-point runs use
  fmt::print(
      "ARIES-sim bench: {} measured cycles + 500 warm-up per point, uniform traffic, "
      "4-flit packets, {} x 32-bit lanes (the fast model moves the header and the packet id "
      "lane: sim.payload = auto), {} VCs x {} flits\n",
      measure, node.Lanes, node.NumVCs, node.BufferDepth);
  fmt::print("{:<6} {:>5} {:<4} {:>6} {:<5} {:>9} {:>8} {:>12} {:>14} {:>8} {:>9}\n", "topo",
             "links", "K", "rate", "model", "kernel", "threads", "cycles/s", "node evals/cy",
             "peak MB", "accepted");
  const std::string self = SelfExe();
  for (unsigned links : o.links) {
    for (unsigned k : o.ks) {
      for (double rate : {0.02, 0.1, 0.3}) {
        for (const std::string& model : o.models) {
          // The SystemC kernel is serial; the loop kernel once serial, once on every core.
          for (auto [kernel, threads] :
               {std::pair{"systemc", "1"}, std::pair{"loop", "1"}, std::pair{"loop", "auto"}}) {
            const nlohmann::json r =
                BenchPoint(self, "mesh", k, links, rate, kernel, threads, measure, model);
            fmt::print(
                "{:<6} {:>5} {:<4} {:>6} {:<5} {:>9} {:>8} {:>12.0f} {:>14.1f} {:>8} {:>9.3f}\n",
                "mesh", links, k, rate, model, kernel, r["threads"].get<unsigned>(),
                r["cycles_per_second"].get<double>(),
                r["node_evaluations"].get<double>() / r["cycles"].get<double>(),
                r["maxrss_kb"].get<long>() / 1024, r["accepted"].get<double>());
            std::fflush(stdout);
          }
        }
      }
    }
  }
  return 0;
}

}  // namespace aries::sim
