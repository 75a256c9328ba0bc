#include "plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace aries::sim {

namespace {

const char* kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                         "#59a14f", "#edc948", "#b07aa1", "#9c755f"};

std::string Esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else
      o += c;
  }
  return o;
}

// A round axis maximum and tick step covering `v`.
std::pair<double, double> NiceAxis(double v) {
  if (v <= 0) return {1, 0.2};
  const double mag = std::pow(10.0, std::floor(std::log10(v)));
  const std::pair<double, int> steps[] = {{1, 5}, {1.5, 6}, {2, 4}, {2.5, 5}, {3, 6},
                                          {4, 4}, {5, 5},   {6, 6}, {8, 4}};
  for (const auto& [m, div] : steps) {
    if (v <= m * mag) return {m * mag, m * mag / div};
  }
  return {10 * mag, 2 * mag};
}

}  // namespace

std::string BarChartsSvg(const std::vector<BarChart>& panels, unsigned columns) {
  size_t most_groups = 0;
  for (const BarChart& p : panels) most_groups = std::max(most_groups, p.groups.size());
  const double pw = std::max(420.0, 80.0 * most_groups), ph = 260, ml = 55, mr = 10, mt = 28,
               mb = 55;
  columns = std::max(1u, std::min<unsigned>(columns, static_cast<unsigned>(panels.size())));
  const unsigned rows = static_cast<unsigned>((panels.size() + columns - 1) / columns);
  size_t nseries = 0;
  for (const BarChart& p : panels) nseries = std::max(nseries, p.series.size());
  const double legend_h = 24;
  const double W = columns * pw, H = rows * ph + legend_h;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      W, H);
  // Legend (series of the first panel that has the most).
  for (const BarChart& p : panels) {
    if (p.series.size() != nseries) continue;
    for (size_t i = 0; i < nseries; ++i) {
      const double x = 10 + 130.0 * i;
      s += fmt::format(
          "<rect x=\"{:.0f}\" y=\"6\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{:.0f}\" "
          "y=\"16\">{}</text>\n",
          x, kColors[i % 8], x + 16, Esc(p.series[i]));
    }
    break;
  }
  for (size_t pi = 0; pi < panels.size(); ++pi) {
    const BarChart& p = panels[pi];
    const double ox = (pi % columns) * pw, oy = legend_h + (pi / columns) * ph;
    const double x0 = ox + ml, y0 = oy + mt, w = pw - ml - mr, h = ph - mt - mb;
    double vmax = p.reference;
    for (const auto& ser : p.values) {
      for (double v : ser) vmax = std::max(vmax, v);
    }
    const auto [top, step] = NiceAxis(vmax * 1.05);
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" font-weight=\"bold\">{}</text>\n", x0,
                     oy + 16, Esc(p.title));
    for (double t = 0; t <= top + step / 2; t += step) {
      const double y = y0 + h - h * t / top;
      s += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n",
          x0, y, x0 + w, y, x0 - 4, y + 4, t);
    }
    s += fmt::format(
        "<text transform=\"translate({:.0f},{:.0f}) rotate(-90)\" "
        "text-anchor=\"middle\">{}</text>\n",
        ox + 14, y0 + h / 2, Esc(p.y_label));
    const size_t ng = p.groups.size(), ns = p.series.size();
    const double gw = ng ? w / ng : w, bw = ns ? gw * 0.8 / ns : 0;
    for (size_t g = 0; g < ng; ++g) {
      for (size_t si = 0; si < ns; ++si) {
        const double v = g < p.values[si].size() ? p.values[si][g] : 0;
        const double bh = h * std::max(0.0, v) / top;
        const double x = x0 + g * gw + gw * 0.1 + si * bw;
        s += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
            "<title>{} {}: {:.3g}</title></rect>\n",
            x, y0 + h - bh, bw, bh, kColors[si % 8], Esc(p.groups[g]), Esc(p.series[si]), v);
      }
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
                       x0 + g * gw + gw / 2, y0 + h + 14, Esc(p.groups[g]));
    }
    if (p.reference > 0) {
      const double y = y0 + h - h * p.reference / top;
      s += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"black\" "
          "stroke-dasharray=\"4 3\"/>\n",
          x0, y, x0 + w, y);
    }
    s += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"black\"/>\n", x0,
        y0 + h, x0 + w, y0 + h);
  }
  s += "</svg>\n";
  return s;
}

std::string LineChartsSvg(const std::vector<LineChart>& panels, unsigned columns) {
  const double pw = 480, ph = 300, ml = 55, mr = 150, mt = 28, mb = 45;
  columns = std::max(1u, std::min<unsigned>(columns, static_cast<unsigned>(panels.size())));
  const unsigned rows = static_cast<unsigned>((panels.size() + columns - 1) / columns);
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      columns * pw, rows * ph);
  for (size_t pi = 0; pi < panels.size(); ++pi) {
    const LineChart& p = panels[pi];
    const double ox = (pi % columns) * pw, oy = (pi / columns) * ph;
    const double x0 = ox + ml, y0 = oy + mt, w = pw - ml - mr, h = ph - mt - mb;
    double xmin = 0, xmax = 0, ymax = 0;
    for (const auto& ser : p.series) {
      for (const auto& [x, y] : ser.points) {
        xmin = xmin == 0 ? x : std::min(xmin, x);
        xmax = std::max(xmax, x);
        ymax = std::max(ymax, y);
      }
    }
    const double lx0 = std::log2(std::max(xmin, 1e-9)),
                 lx1 = std::max(lx0 + 1, std::log2(std::max(xmax, 1e-9)));
    const auto [top, step] = NiceAxis(ymax * 1.05);
    auto X = [&](double x) { return x0 + w * (std::log2(x) - lx0) / (lx1 - lx0); };
    auto Y = [&](double y) { return y0 + h - h * y / top; };
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" font-weight=\"bold\">{}</text>\n", x0,
                     oy + 16, Esc(p.title));
    for (double t = 0; t <= top + step / 2; t += step) {
      s += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n",
          x0, Y(t), x0 + w, Y(t), x0 - 4, Y(t) + 4, t);
    }
    const double every = std::max(1.0, std::ceil((lx1 - lx0) / 6));  // at most ~7 labels
    for (double e = std::ceil(lx0); e <= lx1 + 1e-9; e += every) {   // powers of two
      const double x = std::pow(2.0, e);
      const std::string lab = x >= 1048576 ? fmt::format("{:g}M", x / 1048576)
                              : x >= 1024  ? fmt::format("{:g}K", x / 1024)
                                           : fmt::format("{:g}", x);
      s += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#999\"/>"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
          X(x), y0 + h, X(x), y0 + h + 4, X(x), y0 + h + 16, lab);
    }
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n",
                     x0 + w / 2, y0 + h + 32, Esc(p.x_label));
    s += fmt::format(
        "<text transform=\"translate({:.0f},{:.0f}) rotate(-90)\" "
        "text-anchor=\"middle\">{}</text>\n",
        ox + 14, y0 + h / 2, Esc(p.y_label));
    for (size_t si = 0; si < p.series.size(); ++si) {
      const auto& ser = p.series[si];
      std::string pts;
      for (const auto& [x, y] : ser.points) pts += fmt::format("{:.1f},{:.1f} ", X(x), Y(y));
      s += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                       pts, kColors[si % 8]);
      for (const auto& [x, y] : ser.points) {
        s += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"><title>{} at {:g} B: "
            "{:.3g}</title></circle>\n",
            X(x), Y(y), kColors[si % 8], Esc(ser.name), x, y);
      }
      s += fmt::format(
          "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"10\" height=\"10\" fill=\"{}\"/><text "
          "x=\"{:.0f}\" y=\"{:.0f}\">{}</text>\n",
          x0 + w + 10, y0 + 16.0 * si, kColors[si % 8], x0 + w + 24, y0 + 16.0 * si + 9,
          Esc(ser.name));
    }
    s += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"black\"/>\n", x0,
        y0 + h, x0 + w, y0 + h);
  }
  s += "</svg>\n";
  return s;
}

std::string TimelineSvg(const std::string& title, const std::vector<std::string>& lanes,
                        const std::vector<TimelineBox>& boxes, const std::string& unit) {
  const double W = 1200, ml = 110, mr = 20, mt = 30, lane_h = 34, mb = 40;
  const double H = mt + lane_h * lanes.size() + mb, w = W - ml - mr;
  double tmax = 0;
  for (const TimelineBox& b : boxes) tmax = std::max(tmax, b.end);
  const auto [top, step] = NiceAxis(tmax);
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "font-family=\"sans-serif\" "
      "font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{:.0f}\" y=\"18\" font-weight=\"bold\">{}</text>\n",
      W, H, ml, Esc(title));
  for (size_t l = 0; l < lanes.size(); ++l) {
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", ml - 6,
                     mt + l * lane_h + lane_h / 2 + 4, Esc(lanes[l]));
  }
  for (const TimelineBox& b : boxes) {
    const double x = ml + w * b.start / top, bw = std::max(0.5, w * (b.end - b.start) / top);
    s += fmt::format(
        "<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\" "
        "stroke=\"white\" "
        "stroke-width=\"0.3\"><title>{} [{:.4g}, {:.4g}] {}</title></rect>\n",
        x, mt + b.lane * lane_h + 3, bw, lane_h - 6, kColors[b.color % 8], Esc(b.label), b.start,
        b.end, Esc(unit));
  }
  const double ya = mt + lanes.size() * lane_h;
  for (double t = 0; t <= top + step / 2; t += step) {
    const double x = ml + w * t / top;
    s += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#999\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g}</text>\n",
        x, ya, x, ya + 5, x, ya + 18, t);
  }
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n</svg>\n",
                   ml + w / 2, ya + 34, Esc(unit));
  return s;
}

}  // namespace aries::sim
