// One simulation run of a package from validated settings: build, configure bypass, attach
// traffic, run, and report (summary table, JSON, CSV).
#ifndef ARIES_SIM_PACKAGE_RUN_H_
#define ARIES_SIM_PACKAGE_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "net_run.h"
#include "transport.h"

namespace aries::sim {

struct TraceRequest {
  std::string file;             // FST path; empty: no trace
  std::vector<unsigned> nodes;  // empty: every node
  uint64_t from = 0, to = ~uint64_t{0};
  // --packet-log: every flit's every hop as CSV (PacketLogHeader); empty: none.
  std::string packet_log;
  // --trace-packet: the packet (traffic id, lane 0) whose hops are collected into `path`.
  int64_t packet = -1;
};

// One hop of a packet's flits: where and when its head left each node.
struct PacketHop {
  uint64_t cycle = 0;
  std::string event;  // inject, hop, eject
  unsigned node = 0, to_node = 0;
};

// The packet log's columns: cycle (= ns on the waveform's time axis), event (inject: from the
// endpoint into the node; hop: out of the node on an interposer link; eject: out to the
// endpoint), node, link (the node's link of a hop), channel (its name), to_node, arrive_cycle
// (when it reaches the next node's input), vc, head, tail, src, dst (node numbers of a
// dimension-order packet), flow (a table-routed packet's flow, or a collective flit's id), op
// and seq (a collective flit's), lane0 (a traffic packet's id), lane1, header (the header word
// in hex, as the waveform shows it).
const char* PacketLogHeader();

struct RunOutput {
  tb::RunResult result;
  unsigned moved_hops = 0;             // package.bypass = random: mesh hops moved onto segments
  std::string fault_routes;            // package.faults: the routes around them (empty: none)
  std::vector<PacketHop> packet_path;  // TraceRequest::packet: its head flit's hops
  uint64_t packet_tail_eject = 0;      // and the cycle its tail flit was ejected
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
  bool progress = false;
};
// Validates the configuration (ConfigError names the offending key or option), runs, prints
// and writes the files; under ranks (`net`), rank 0 prints and writes. Returns the exit code.
int RunPackageCommand(const PackageCommand& cmd, sysc::Transport* net);

}  // namespace aries::sim

#endif  // ARIES_SIM_PACKAGE_RUN_H_
