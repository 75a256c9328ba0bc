// Single-router simulation runs (until the package exists): the default `aries run` and the
// `aries bench` speed figures. Traffic is checked by the testbench scoreboard while it runs.
#ifndef ARIES_SIM_ROUTER_RUN_H_
#define ARIES_SIM_ROUTER_RUN_H_

#include <cstdint>
#include <string>

#include "router_dut.h"

namespace aries::sim {

struct RouterRunConfig {
  double rate = 0.3;         ///< offered load, flits per cycle per input port
  unsigned packet_len = 4;   ///< flits per packet
  uint64_t warmup = 2000;    ///< cycles before measuring
  uint64_t measure = 20000;  ///< measured cycles
  unsigned link_latency = 10;  ///< cycles per link and per credit return (ARIES Table II)
  uint64_t seed = 1;
};

struct RouterRunResult {
  double zero_load_latency = 0;  ///< cycles, one flit through an idle router
  double offered = 0;            ///< flits / cycle / port
  double accepted = 0;           ///< flits / cycle / port delivered in the window
  double lat_mean = 0, lat_p50 = 0, lat_p99 = 0, lat_max = 0;  ///< packet latency, cycles
  double router_lat_mean = 0;    ///< input to output of the router, cycles per flit
  uint64_t cycles = 0;           ///< simulated cycles in total
  uint64_t flits = 0;            ///< flits injected
  bool saturated = false;        ///< accepted < 95% of offered
  bool drained = false;          ///< every flit arrived after injection stopped
  size_t errors = 0;             ///< scoreboard errors
  double wall_s = 0;             ///< wall time of the whole run
  double tick_s = 0;             ///< of which inside the Verilated model
};

RouterRunResult RunSingleRouter(tb::RouterDut& dut, const RouterRunConfig& cfg);

}  // namespace aries::sim

#endif  // ARIES_SIM_ROUTER_RUN_H_
