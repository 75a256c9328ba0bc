// Plots as standalone SVG (no plotting library on the machine): grouped bar charts laid out
// in panels, and a two-lane timeline. Browsers and GTKWave's neighbours open them; each chart
// embeds its numbers as <title> tooltips.
#ifndef ARIES_SIM_PLOT_H_
#define ARIES_SIM_PLOT_H_

#include <string>
#include <vector>

namespace aries::sim {

struct BarChart {
  std::string title, y_label;
  std::vector<std::string> groups;          // x axis
  std::vector<std::string> series;          // one bar per series in each group
  std::vector<std::vector<double>> values;  // [series][group]
  double reference = 0;                     // a dashed horizontal line at this value (0: none)
};

// Panels of bar charts, `columns` per row, one legend.
std::string BarChartsSvg(const std::vector<BarChart>& panels, unsigned columns);

struct LineChart {
  std::string title, x_label, y_label;
  struct Series {
    std::string name;
    std::vector<std::pair<double, double>> points;  // (x, y), x > 0
  };
  std::vector<Series> series;
};

// Panels of line charts over a log2 x axis, `columns` per row, a legend per panel.
std::string LineChartsSvg(const std::vector<LineChart>& panels, unsigned columns);

struct TimelineBox {
  unsigned lane = 0;  // row
  double start = 0, end = 0;
  std::string label;
  unsigned color = 0;  // palette index (one per kind of box)
};

// Boxes on lanes over a time axis (`unit` names it, e.g. "us").
std::string TimelineSvg(const std::string& title, const std::vector<std::string>& lanes,
                        const std::vector<TimelineBox>& boxes, const std::string& unit);

}  // namespace aries::sim

#endif  // ARIES_SIM_PLOT_H_
