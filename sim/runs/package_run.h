// One simulation run of a package from validated settings: build, configure bypass, attach
// traffic, run, and report (summary table, JSON, CSV).
#ifndef ARIES_SIM_PACKAGE_RUN_H_
#define ARIES_SIM_PACKAGE_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "net_run.h"
#include "trace_outputs.h"
#include "transport.h"

namespace aries::sim {

struct RunOutput {
  tb::RunResult result;
  unsigned moved_hops = 0;             // package.bypass = random: mesh hops moved onto segments
  std::string fault_routes;            // package.faults: the routes around them (empty: none)
  std::vector<PacketHop> packet_path;  // TraceRequest::packet: its flits' events (PathOf)
  long maxrss_kb = 0;                  // the largest over the ranks
  unsigned ranks = 1;                  // processes of a distributed run (mpirun)
};

// `use_systemc`: step through the SystemC scheduler (once per process). With `net`, this process
// is one rank of a distributed run (every rank calls this alike; the results are the package's).
RunOutput RunPackage(const SimSettings& s, const TraceRequest& trace, bool use_systemc,
                     bool progress, sysc::Transport* net = nullptr);

void PrintSummary(const SimSettings& s, const Config& c, const RunOutput& o);
std::string CsvHeader();
std::string CsvRow(const SimSettings& s, const RunOutput& o);
// JSON document of one or several runs with the configuration and seed.
// `command`: run or sweep (the keys it reads are the configuration written).
std::string ToJson(const Config& c, const std::string& command,
                   const std::vector<std::pair<SimSettings, RunOutput>>& runs);

// `aries [run]` and `aries sweep` as the command line gives them.
struct PackageCommand {
  bool sweep = false;
  Config config;                    // the keys (KeyOptions::Resolve: file, --set)
  std::string json_file, csv_file;  // --json, --csv
  std::string plot_file;            // --plot (sweep: latency and throughput against load)
  std::string packet_log;           // --packet-log FILE (run only)
  int64_t trace_packet = -1;        // --trace-packet ID (run only; with --trace FILE)
  std::string trace_file;           // --trace (run only)
  std::string trace_nodes = "all";  // --trace-nodes: all, or ids like 0,5
  uint64_t trace_from = 0, trace_to = ~uint64_t{0};
  std::string timeline;  // --timeline FILE.json (run only): trace-event JSON of its flits
  bool progress = false;
};
// Validates the configuration (ConfigError names the offending key or option), runs, prints
// and writes the files; under ranks (`net`), rank 0 prints and writes. Returns the exit code.
int RunPackageCommand(const PackageCommand& cmd, sysc::Transport* net);

}  // namespace aries::sim

#endif  // ARIES_SIM_PACKAGE_RUN_H_
