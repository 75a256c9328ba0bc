// GTKWave save files for the FST traces that `aries --trace` writes.
#ifndef ARIES_SIM_GTKW_H_
#define ARIES_SIM_GTKW_H_

#include <string>

#include "router_dut.h"

namespace aries::sim {

/// Writes a .gtkw that opens `fst_path` with the router's signals grouped: configuration bus,
/// then one group per input port (arrivals, route, VC buffer fill, allocation, credits) and
/// one per output port (grant, credits, VC ownership, departures). `scope` is the router's
/// hierarchical path in the trace. Returns the number of signals listed, 0 on a write error.
int WriteRouterGtkw(const std::string& path, const std::string& fst_path,
                    const tb::RouterParams& p, const std::string& scope = "router");

}  // namespace aries::sim

#endif  // ARIES_SIM_GTKW_H_
