// Figures drawn by matplotlib (sim/tools/aries_plot.py, Debian's python3-matplotlib) from the
// CSV a command writes: `--plot STEM` gives STEM.svg, STEM.pdf and STEM.png (an extension on
// STEM is dropped). The CSV carries its provenance, which the figure prints small under it.
#ifndef ARIES_SIM_PLOT_H_
#define ARIES_SIM_PLOT_H_

#include <string>

namespace aries::sim {

// Draws figure `kind` (fig9, fig10, fig11, table1, area, timeline, sweep) from `header_and_rows`
// (the CSV without its provenance, which is added) into `stem` (nothing when `stem` is
// empty); prints "plot: STEM.{svg,pdf,png}". Throws std::invalid_argument naming `option`
// when the folder cannot take the files, std::runtime_error with the plotter's message when
// it fails (python3-matplotlib missing: the package to install).
void PlotCsv(const std::string& kind, const std::string& header_and_rows, const std::string& stem,
             const char* option = "--plot");

// Throws std::runtime_error naming the package to install when the plotting Python has no
// matplotlib: checked before a run, not after it.
void CheckPlotter();

// STEM without a .svg, .pdf or .png extension.
std::string PlotStem(const std::string& path);

}  // namespace aries::sim

#endif  // ARIES_SIM_PLOT_H_
