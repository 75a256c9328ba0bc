// GTKWave save files for the FST traces that `aries --trace` writes.
#ifndef ARIES_SIM_GTKW_H_
#define ARIES_SIM_GTKW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "files.h"
#include "node_model.h"

namespace aries::sim {

/// FILE.gtkw, the save file next to the waveform FILE.fst or FILE.vcd (FILE.gtkw for another FILE).
std::string GtkwPathOf(const std::string& fst);
/// The flit decoder WritePackageGtkw writes next to the save file `gtkw_path`.
std::string FlitFilterPath(const std::string& gtkw_path);

/// What the save file opens on: the cycles the view spans (`to` == 0: from `from` at GTKWave's
/// default zoom), named markers (A, B, ... at cycles: a packet's injection and ejection), and per
/// traced node the router ports shown (bit p of a mask: port p; no masks: every port); and the
/// engine program's steps the flit decoder names a collective flit's step by.
struct GtkwView {
  uint64_t from = 0, to = 0;
  std::vector<uint64_t> markers;
  std::vector<uint32_t> in_ports, out_ports;  // per scope, in the order of the scopes
  // Per collective id: its place in the engine program's steps, their number and the flits of
  // one step (flit_filter.py --steps ID:POS:STEPS:COUNT,...).
  struct EngineStep {
    unsigned id, pos, steps, count;
  };
  std::vector<EngineStep> engine_steps;
};

/// Writes a .gtkw (`save`) that opens `fst_path` with the signals of every traced node (`scopes`,
/// the nodes' names in the trace) grouped per node: the node's configuration bus and errors, then
/// one group per router input port (arrivals, route, VC buffer fill, allocation, credits) and
/// one per output port (grant, credits, VC ownership, departures). The clock is listed; the
/// flits arriving and leaving at each port are decoded by sim/tools/flit_filter.py (head/tail,
/// VC, source and destination node or flow, collective id, operation and sequence, the first
/// lanes; `filter`, the save file's FlitFilterPath, is a wrapper that passes it the VCs and `k`);
/// the VC fill levels are named per VC. A decoded flit is the port's valid bit joined to the
/// flit's header and first two lanes, so the decoder shows it only while valid is high. The
/// window opens at 1600 x 1000 pixels on `view` (1 ns per cycle).
/// Returns the number of signals listed; the caller commits both files.
int WritePackageGtkw(OutputFile& save, OutputFile& filter, const std::string& fst_path,
                     const sysc::NodeShape& p, const std::vector<std::string>& scopes, unsigned k,
                     const GtkwView& view = {});

}  // namespace aries::sim

#endif  // ARIES_SIM_GTKW_H_
