#include "plot.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "files.h"
#include "provenance.h"
#include "run_util.h"

namespace aries::sim {

std::string PlotStem(const std::string& path) {
  for (const char* ext : {".svg", ".pdf", ".png"}) {
    const std::string e = ext;
    if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0) {
      return path.substr(0, path.size() - e.size());
    }
  }
  return path;
}

void CheckPlotter() {
  static int ok = -1;  // checked once per process
  if (ok < 0) {
    const std::string cmd =
        fmt::format("{} -c 'import matplotlib' 2> /dev/null", ShellQuote(ARIES_PLOT_PYTHON));
    ok = std::system(cmd.c_str()) == 0 ? 1 : 0;
  }
  if (!ok) {
    throw std::runtime_error(
        fmt::format("{} has no matplotlib: install python3-matplotlib (bash cmake/setup-debian.sh)",
                    ARIES_PLOT_PYTHON));
  }
}

void PlotCsv(const std::string& kind, const std::string& header_and_rows,
             const std::string& stem_in, const char* option) {
  if (stem_in.empty()) return;
  const std::string stem = PlotStem(stem_in);
  // The plotter writes the three temporaries (one stem: ".aries-PID-NAME"), renamed when done.
  std::vector<std::unique_ptr<OutputFile>> outs;
  for (const char* ext : {".svg", ".pdf", ".png"})
    outs.push_back(std::make_unique<OutputFile>(stem + ext, option));
  for (auto& out : outs) out->HandOver();
  const std::string& svg_temp = outs.front()->temp();
  const std::string temp_stem = svg_temp.substr(0, svg_temp.size() - 4);
  char tmpl[] = "/tmp/aries_plot_XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd < 0) throw std::runtime_error("plot: cannot create a temporary CSV in /tmp");
  close(fd);
  const std::string csv_path = tmpl;
  {
    std::ofstream f(csv_path);
    f << ProvenanceCsvLines() << header_and_rows;
  }
  const std::string err_path = csv_path + ".err";
  const std::string cmd = fmt::format("{} {} {} {} {} 2> {}", ShellQuote(ARIES_PLOT_PYTHON),
                                      ShellQuote(ARIES_PLOT_SCRIPT), kind, ShellQuote(csv_path),
                                      ShellQuote(temp_stem), ShellQuote(err_path));
  const int rc = std::system(cmd.c_str());
  std::string err;
  {
    std::ifstream e(err_path);
    err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
  }
  std::remove(csv_path.c_str());
  std::remove(err_path.c_str());
  if (rc != 0) {
    if (err.find("No module named 'matplotlib'") != std::string::npos) {
      throw std::runtime_error(fmt::format(
          "{} {}: {} has no matplotlib; install python3-matplotlib (bash cmake/setup-debian.sh)",
          option, stem_in, ARIES_PLOT_PYTHON));
    }
    throw std::runtime_error(
        fmt::format("{} {}: the plotter ({}) failed: {}", option, stem_in, ARIES_PLOT_SCRIPT, err));
  }
  for (auto& out : outs) out->Commit();
  fmt::print("plot: {}.svg, {}.pdf, {}.png\n", stem, stem, stem);
}

}  // namespace aries::sim
