// GTKWave save files for the FST traces that `aries --trace` writes.
#ifndef ARIES_SIM_GTKW_H_
#define ARIES_SIM_GTKW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "files.h"
#include "node_model.h"

namespace aries::sim {

/// FILE.gtkw, the save file next to the waveform FILE.fst (FILE.gtkw for a FILE without .fst).
std::string GtkwPathOf(const std::string& fst);
/// The flit decoder WritePackageGtkw writes next to the save file `gtkw_path`.
std::string FlitFilterPath(const std::string& gtkw_path);

/// Writes a .gtkw (`save`) that opens `fst_path` with the signals of every traced node (`scopes`,
/// the nodes' names in the trace) grouped per node: the node's configuration bus and errors, then
/// one group per router input port (arrivals, route, VC buffer fill, allocation, credits) and
/// one per output port (grant, credits, VC ownership, departures). The clock is listed; the
/// flits arriving and leaving at each port are decoded by sim/tools/flit_filter.py (head/tail,
/// VC, source and destination node or flow, collective id, operation and sequence, the first
/// lanes; `filter`, the save file's FlitFilterPath, is a wrapper that passes it the VCs and `k`);
/// the VC fill levels are named per VC. The view starts at `start_cycle` (1 ns per cycle).
/// Returns the number of signals listed; the caller commits both files.
int WritePackageGtkw(OutputFile& save, OutputFile& filter, const std::string& fst_path,
                     const sysc::NodeShape& p, const std::vector<std::string>& scopes, unsigned k,
                     uint64_t start_cycle = 0);

}  // namespace aries::sim

#endif  // ARIES_SIM_GTKW_H_
