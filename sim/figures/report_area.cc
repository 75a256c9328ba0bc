// aries area (the synthesis flows) and aries report (every figure in one directory).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "coll_run.h"
#include "energy.h"
#include "figures.h"
#include "files.h"
#include "node_models.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "tuner.h"

namespace aries::sim {

namespace {

// Runs `aries <args>` and returns its stdout; throws naming the command when it fails.
std::string RunSelf(const std::string& args, const std::string& out_dir) {
  const std::string tmp = out_dir + "/.section.txt";
  const std::string cmd = fmt::format("{} {} > {}", ShellQuote(SelfExe()), args, ShellQuote(tmp));
  fmt::print(stderr, "report: aries {}\n", args);
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("report: failed: aries " + args);
  std::ifstream f(tmp);
  std::stringstream ss;
  ss << f.rdbuf();
  std::remove(tmp.c_str());
  return ss.str();
}

// `name` in the --area folder: there, or in the folder router_area.py writes when given
// `--out DIR/router_area` (the README's command) for router_area.json; "" when neither exists.
std::string AreaFile(const std::string& dir, const std::string& name) {
  for (const std::string& p : {dir + "/" + name, dir + "/router_area/" + name}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

std::string ReadIfExists(const std::string& path) {
  std::ifstream f(path);
  if (!f) return "";
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The area files of --area (node_area.json, router_area.json; "" where absent).
struct AreaTexts {
  std::string node, router;
};

// Checks `aries report`'s request before anything runs (the package sizes, the area folder and
// its files, the output folder); returns the area files it pastes in.
AreaTexts CheckReportRequest(const ReportOptions& o) {
  ParsePaperKs(o.ks);
  ParsePaperKs(o.fig11_ks, "--fig11-k");
  if (!o.area.empty() && !std::filesystem::is_directory(o.area)) {
    throw std::invalid_argument(fmt::format(
        "--area {}: the folder does not exist (allowed the folder `aries area --out DIR` wrote)",
        o.area));
  }
  const char* const kAreaFiles[] = {"node_area.json", "router_area.json"};
  std::string area_text[2];
  for (int i = 0; i < 2 && !o.area.empty(); ++i) {
    area_text[i] = ReadIfExists(AreaFile(o.area, kAreaFiles[i]));
    if (!area_text[i].empty() && !nlohmann::json::accept(area_text[i])) {
      throw std::invalid_argument(
          fmt::format("--area {}: {} is not JSON (allowed the file `aries area` or synth_scripts/"
                      "node_area.py writes)",
                      o.area, kAreaFiles[i]));
    }
  }
  if (!o.area.empty() && area_text[0].empty() && area_text[1].empty()) {
    throw std::invalid_argument(fmt::format(
        "--area {}: holds neither node_area.json nor router_area.json (allowed the folder `aries "
        "area --out DIR` or synth_scripts/node_area.py --out DIR wrote)",
        o.area));
  }
  if (o.out.empty()) throw std::invalid_argument("--out: an output folder (empty given)");
  return {area_text[0], area_text[1]};
}

// The report's title, what made it, where its cycles come from and the preset's assumptions.
std::string ReportIntro(const Assumptions& as) {
  const bool paper = as.rank_baselines;
  const nlohmann::json prov = ProvenanceJson();
  return "# ARIES-sim: the ARIES evaluation reproduced\n\n" +
         fmt::format("Made by {} on {} with `{}`.\n\n", VersionText(),
                     prov["date"].get<std::string>(), prov["command"].get<std::string>()) +
         "Every section names the command that made it; the paper's figures are beside ours. "
         "Collective cycles come from verified cycle-accurate runs of the package "
         "(collectives/data/collective_costs.csv, `aries coll-sweep`; the RTL and the fast node "
         "model give the same cycles).\n\n" +
         PresetLine(as) +
         (paper ? "; `aries report` without `--preset paper` gives our assumptions.\n\n"
                : "; `aries report --preset paper` gives the paper's, with the decomposition of "
                  "its speedups and their ceiling.\n\n");
}

// CSV text (plain: a header and rows, no quoted fields) as a Markdown table folded under
// `summary`.
std::string FoldedCsvTable(const std::string& csv, const std::string& summary) {
  std::string table;
  std::istringstream lines(csv);
  bool head = true;
  for (std::string line; std::getline(lines, line); head = false) {
    std::string row = "|", rule = "|";
    for (size_t from = 0, to = 0; to != std::string::npos; from = to + 1) {
      to = line.find(',', from);
      std::string field = line.substr(from, to == std::string::npos ? to : to - from);
      for (size_t at = field.find('|'); at != std::string::npos; at = field.find('|', at + 2))
        field.replace(at, 1, "\\|");
      row += " " + field + " |";
      rule += "---|";
    }
    table += row + "\n" + (head ? rule + "\n" : "");
  }
  return "<details><summary>" + summary + "</summary>\n\n" + table + "\n</details>\n";
}

// One figure's section: `aries FIG -k KS --csv OUT/FIG.csv --plot OUT/FIG [--preset P]`, its
// output and its figure, then `after` (Table I is planning only: no preset); with
// `all_columns`, the columns its console tables leave to the CSV: the whole CSV, folded.
std::string FigureSection(const ReportOptions& o, const Assumptions& as, const std::string& title,
                          const char* fig, const std::string& ks, const std::string& after,
                          bool all_columns = false) {
  const std::string stem = o.out + "/" + fig;
  const bool preset = std::string(fig) != "table1";
  const bool runs = std::string(fig) == "fig11";  // the one section that simulates
  const std::string args =
      fmt::format("{} -k {} --csv {} --plot {}{}{}", fig, ShellQuote(ks), ShellQuote(stem + ".csv"),
                  ShellQuote(stem), preset ? " --preset " + std::string(as.name) : "",
                  runs && o.model != "auto" ? " --model " + o.model : "");
  std::string md = "## " + title + "\n\n`aries " + args + "`\n\n" + RunSelf(args, o.out) + "\n";
  md += "![" + title + "](" + std::string(fig) + ".svg)\n\n" + after + "\n";
  if (all_columns) {
    md += FoldedCsvTable(ReadIfExists(stem + ".csv"), fmt::format("All columns ({}.csv)", fig)) +
          "\n";
  }
  return md;
}

// The sections of Table I and Figs. 9-11 under `as`, each with what it shows beside the paper.
std::string FigureSections(const ReportOptions& o, const Assumptions& as) {
  const bool paper = as.rank_baselines;
  std::string md = FigureSection(
      o, as, "Table I: links, bandwidth per link, synchronization steps", "table1", o.ks,
      "Our rings and trees match the formulas where the algorithm is the table's; the double "
      "binary "
      "tree uses two trees (more links), the ARIES_LT step count follows section IV-A2's "
      "L(N^(1/L) - 1).\n");
  md += FigureSection(
      o, as, "Fig. 9: all-reduce throughput vs data size", "fig9", o.ks,
      std::string("The paper's Fig. 9 has no numbers in its text. It reports ARIES_LT best at "
                  "small sizes (the shipped measurements: yes), ARIES_BW best at large ones (") +
          (paper ? "yes: on two local ports it runs at twice the one-port rings' bandwidth"
                 : "a tie with the ring, because an endpoint injects one flit per cycle, like "
                   "one link; `--preset paper` gives ARIES the second port") +
          "), and ARIES ahead for the trees with size (ours: the double binary tree yes, " +
          (paper ? "the multi-tree on ARIES's two local ports ahead of the torus one, the "
                   "concentrated multi-tree ahead of the mesh one and level with or behind the "
                   "torus one).\n"
                 : "the concentrated multi-tree ahead of the mesh multi-tree but not of the torus "
                   "one).\n"));
  md += FigureSection(
      o, as, "Fig. 10: training-time speedup", "fig10", o.ks,
      "The iteration gains only what ARIES removes from the critical path of communication; "
      "with the "
      "reference batches compute hides most of it (`aries fig10 --batch 1` shows the "
      "communication-bound "
      "case). The paper does not state its batches." +
          std::string(paper ? " The ceiling after the decomposition takes ARIES's collectives "
                              "to their bandwidth bound: what the paper's figure has above "
                              "it is left to its baselines."
                            : "") +
          "\n",
      true);
  md += FigureSection(
      o, as, "Fig. 11: energy", "fig11", o.fig11_ks,
      "Per all-reduce, with DSENT router energies and 0.5 pJ/bit per pitch of interposer wire "
      "(sim/energy/dsent45.tech cites each figure; the per-pitch charge is an assumption). A "
      "bypass "
      "segment is charged like the hops it replaces, so against the mesh ARIES saves the "
      "routers it "
      "skips and the leakage of a shorter run; against the torus and the butterfly also their "
      "longer "
      "wires. The paper's averages (21.2-38.8%) are over whole applications.\n",
      true);
  return md;
}

// The area section: the synthesis results pasted in beside ARIES V-D, or how to make them.
std::string AreaSection(const AreaTexts& area) {
  std::string md = "## Area\n\n";
  if (area.node.empty() && area.router.empty()) {
    return md +
           "Not run here (Yosys takes minutes to an hour): `python3 synth_scripts/node_area.py "
           "--out "
           "synth_out` "
           "(the ARIES overhead) and `python3 synth_scripts/router_area.py --out synth_out` (the "
           "full "
           "router), "
           "then `aries report --area synth_out`.\n";
  }
  if (!area.node.empty()) md += "`synth_scripts/node_area.py`:\n\n```\n" + area.node + "\n```\n\n";
  if (!area.router.empty())
    md += "`synth_scripts/router_area.py`:\n\n```\n" + area.router + "\n```\n\n";
  return md +
         "ARIES V-D (45 nm): crossbar 17,806, switch allocator 4,589, VC allocator 9,066, buffers "
         "98,740 um^2; "
         "ARIES adds 0.3 mm^2 to 8.3 mm^2 of chiplet NoC.\n";
}

}  // namespace

int RunAreaCommand(const AreaOptions& o) {
  for (const auto& [name, v, lo, hi] :
       {std::tuple<const char*, unsigned, unsigned, unsigned>{"--lanes", o.lanes, 1, 16},
        {"--vcs", o.vcs, 1, 4},
        {"--depth", o.depth, 2, 64},
        {"--flows", o.flows, 1, 64},
        {"--tracks", o.tracks, 1, 4}}) {
    if (v < lo || v > hi)
      throw std::invalid_argument(fmt::format("{} {}: allowed {}..{}", name, v, lo, hi));
  }
  // (An empty name would write the netlists into the working directory.)
  if (o.out.empty()) throw std::invalid_argument("--out: an output folder (empty given)");
  CheckPlotter();  // area.svg is drawn at the end: a missing matplotlib is said first
  const std::string py = fmt::format(
      "python3 {} --out {} --lanes {} --vcs {} --depth {} --flows {} "
      "--tracks {}{}",
      ShellQuote(std::string(ARIES_SYNTH_DIR) + "/node_area.py"), ShellQuote(o.out), o.lanes, o.vcs,
      o.depth, o.flows, o.tracks, o.engine ? " --engine" : "");
  fmt::print(stderr, "area: {}\n", py);
  {
    Heartbeat beat(false, "area: Yosys");  // on a terminal: minutes of synthesis are not silence
    if (std::system(py.c_str()) != 0)
      throw std::runtime_error("area: node_area.py failed (its output says why)");
  }
  if (o.router) {
    const std::string r = fmt::format("python3 {} --out {} --lanes {} --vcs {} --flows {}",
                                      ShellQuote(std::string(ARIES_SYNTH_DIR) + "/router_area.py"),
                                      ShellQuote(o.out), o.lanes, o.vcs, o.flows);
    fmt::print(stderr, "area: {}\n", r);
    Heartbeat beat(false, "area: Yosys");
    if (std::system(r.c_str()) != 0) throw std::runtime_error("area: router_area.py failed");
  }
  if (!o.timing_liberty.empty()) {
    for (const char* node : {"mesh", "aries"}) {
      const std::string sta = fmt::format(
          "python3 {} {} --liberty {}", ShellQuote(std::string(ARIES_SYNTH_DIR) + "/sta.py"),
          ShellQuote(o.out + "/" + node), ShellQuote(o.timing_liberty));
      fmt::print(stderr, "area: {}\n", sta);
      Heartbeat beat(false, "area: OpenSTA");
      if (std::system(sta.c_str()) != 0) throw std::runtime_error("area: sta.py failed");
    }
  }
  // The per-block table and plot of the two nodes.
  std::ifstream jf(o.out + "/node_area.json");
  if (!jf)
    throw std::runtime_error(
        fmt::format("area: {}/node_area.json was not written (see node_area.py's output)", o.out));
  const nlohmann::json j = nlohmann::json::parse(jf);
  std::map<std::string, std::pair<double, double>> blocks;
  for (const auto& [name, um2] : j["blocks_mesh"].items()) blocks[name].first = um2.get<double>();
  for (const auto& [name, um2] : j["blocks_aries"].items()) blocks[name].second = um2.get<double>();
  std::string csv = "block,mesh_node_um2,aries_node_um2\n";
  for (const auto& [name, ab] : blocks) {
    csv += fmt::format("{},{:.1f},{:.1f}\n", name, ab.first, ab.second);
  }
  csv += fmt::format("total,{:.1f},{:.1f}\n", j["mesh_node_um2"].get<double>(),
                     j["aries_node_um2"].get<double>());
  csv += fmt::format(
      "bypass_switch_per_node,0,{:.1f}\n",
      j["bypass_switch_um2"].get<double>() * j["bypass_switches_per_node"].get<double>());
  WriteCsv(o.out + "/area.csv", csv, "--out", "csv");
  PlotCsv("area", csv, o.out + "/area", "--out");
  return 0;
}

int RunReportCommand(const ReportOptions& o) {
  const AreaTexts area = CheckReportRequest(o);
  CheckPlotter();  // every section draws its figure
  std::filesystem::create_directories(o.out);
  const Assumptions& as = PresetAssumptions(o.preset);
  std::string md = ReportIntro(as);
  md += FigureSections(o, as);
  md += AreaSection(area);
  WriteOutputFile(o.out + "/report.md", md, "--out");
  fmt::print("report: {}/report.md\n", o.out);
  return 0;
}

}  // namespace aries::sim
