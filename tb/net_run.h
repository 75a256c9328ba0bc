// Runs point-to-point traffic on a package: warm-up, a measurement window, drain, with a
// watchdog that turns a stall into a report of the stuck packets and where they wait.
#ifndef ARIES_TB_NET_RUN_H_
#define ARIES_TB_NET_RUN_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "net_traffic.h"
#include "package.h"

namespace aries::tb {

struct RunConfig {
  uint64_t warmup = 1000;        // cycles before the measurement window
  uint64_t measure = 5000;       // cycles of the measurement window
  uint64_t drain_limit = 20000;  // cycles allowed for measured packets to arrive afterwards
  uint64_t watchdog = 5000;      // cycles without any ejection (with packets outstanding) = stuck
};

struct LinkUse {
  std::string name;
  double utilisation;  // flits per cycle over the whole run
};

struct RunResult {
  LatencyStats latency;
  double offered = 0;          // flits/node/cycle created in the window
  double accepted = 0;         // flits/node/cycle ejected in the window
  bool saturated = false;      // accepted < 95% of offered, or the measured packets did not drain
                               // within drain_limit (when drain_limit > 0)
  bool stuck = false;          // the watchdog fired
  bool drain_limited = false;  // stopped by drain_limit with measured packets still in flight
  std::string stuck_report;
  uint64_t cycles = 0;
  double seconds = 0;
  uint64_t flits_created = 0, flits_ejected = 0, packets_outstanding = 0;
  std::vector<std::string> errors;  // scoreboard and hardware errors
  std::vector<LinkUse> links;
  double link_util_mean = 0, link_util_max = 0;
  uint64_t node_evaluations = 0;  // model steps (skip_idle leaves quiet nodes out)
  uint64_t flit_hops = 0;         // flits sent over interposer links during the run
  bool ok() const { return errors.empty() && !stuck; }
};

// Advances the package by a number of cycles (the plain loop, or the SystemC scheduler).
using Advance = std::function<void(uint64_t cycles)>;
// Called after every step of the run (every 100 cycles or so) with the current cycle; the
// caller decides when to print (sim's ProgressMeter: about once a second).
using Progress = std::function<void(uint64_t cycle)>;

RunResult RunTraffic(sysc::Package& pkg, NetTraffic& traffic, const RunConfig& cfg,
                     const Advance& advance = nullptr, const Progress& progress = nullptr);

// Where packets wait: outstanding packets, nodes with non-empty inputs or busy outputs (read
// through the register bus), channels with flits on their wires.
std::string StuckReport(sysc::Package& pkg, const NetTraffic& traffic);

// Random ARIES bypass configuration that keeps dimension-order routing correct: random cut
// bits on every track, and for random adjacent cut pairs the mesh hop of one or both
// directions moved onto the segment (the + port of the lower node and the - port of the upper
// node). Returns the BYPASS writes then the PORTSEL writes; `uses` counts the moved hops.
struct BypassPlan {
  std::vector<sysc::RegOp> bypass, portsel;
  unsigned moved_hops = 0;
};
BypassPlan RandomBypassPlan(const sysc::Package& pkg, std::mt19937_64& rng);
// Makes a random plan and programs it through the register API (BYPASS first, then PORTSEL);
// returns the number of moved hops.
unsigned ApplyRandomBypass(sysc::Package& pkg, std::mt19937_64& rng);

}  // namespace aries::tb

#endif  // ARIES_TB_NET_RUN_H_
