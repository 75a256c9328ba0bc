#include "figures.h"

#include "node_models.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cmath>
#include <set>
#include <tuple>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "aries_pkg.h"
#include "coll_adapter.h"
#include "coll_run.h"
#include "energy.h"
#include "plot.h"
#include "planners.h"
#include "tuner.h"

namespace aries::sim {

namespace {

struct Fig9Series {
  std::string family, algo, topology;
};

// Fig. 9's curves from the algorithm descriptors: each family's baseline algorithm on mesh and
// torus, then the family's ARIES candidates that Fig. 9 draws on ARIES.
std::vector<Fig9Series> Fig9Curves() {
  std::vector<Fig9Series> v;
  for (const std::string& fam : coll::PaperFamilies()) {
    const char* base = coll::FamilyBaseline(fam).name;
    v.push_back({fam, base, "mesh"});
    v.push_back({fam, base, "torus"});
    for (const coll::AlgorithmInfo* a : coll::AriesCandidates(fam)) {
      if (a->paper.fig9_aries) v.push_back({fam, a->name, "aries"});
    }
  }
  return v;
}

}  // namespace

std::vector<unsigned> ParsePaperKs(const std::string& ks) {
  std::vector<unsigned> v;
  for (const std::string& s : SplitList(ks)) {
    if (s != "4" && s != "8") throw std::invalid_argument(fmt::format("-k {}: allowed 4, 8 (the paper's)", ks));
    v.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (v.empty()) throw std::invalid_argument(fmt::format("-k '{}': allowed 4, 8 (the paper's)", ks));
  return v;
}

int RunFig9Command(const Fig9Options& o) {
  const std::vector<unsigned> ks = ParsePaperKs(o.ks);
  const std::string path = o.costs.empty() ? ARIES_COST_FILE : o.costs;
  const auto models = coll::LoadCostModels(path, "int32");
  fmt::print("ARIES Fig. 9: all-reduce algorithm bandwidth (GB/s = bytes per cycle at 1 GHz) against the data "
             "size, from the cycle-accurate runs in {} (every element verified when measured)\n",
             path);
  std::string csv = "k,family,algorithm,topology,bytes,cycles,algbw_gbps\n";
  std::vector<LineChart> panels;
  const std::vector<Fig9Series> curves = Fig9Curves();
  for (const std::string& fam : coll::PaperFamilies()) {
    for (unsigned k : ks) {
      LineChart chart;
      chart.title = fmt::format("{} all-reduce {}x{}", fam, k, k);
      chart.x_label = "bytes per node";
      chart.y_label = "algorithm bandwidth (GB/s)";
      std::vector<uint64_t> sizes;
      std::vector<std::pair<std::string, std::map<uint64_t, double>>> rows;
      for (const Fig9Series& f : curves) {
        if (f.family != fam) continue;
        for (const coll::CostModel& m : models) {
          coll::Geometry g;  // the paper's package: the default geometry
          g.topology = *coll::ParseTopology(f.topology);
          g.k = k;
          if (!m.On(g) || m.cand.algo != f.algo) continue;
          LineChart::Series ser;
          ser.name = fmt::format("{} on {}", m.cand.Label(), f.topology);
          std::map<uint64_t, double> bw;
          for (const coll::CostPoint& p : m.points) {
            const double gbps = static_cast<double>(p.bytes) / p.cycles;
            ser.points.push_back({static_cast<double>(p.bytes), gbps});
            bw[p.bytes] = gbps;
            if (std::find(sizes.begin(), sizes.end(), p.bytes) == sizes.end()) sizes.push_back(p.bytes);
            csv += fmt::format("{},{},{},{},{},{:.0f},{:.3f}\n", k, fam, m.cand.Label(), f.topology, p.bytes, p.cycles, gbps);
          }
          rows.push_back({ser.name, bw});
          chart.series.push_back(std::move(ser));
        }
      }
      std::sort(sizes.begin(), sizes.end());
      fmt::print("\n{} all-reduce on {}x{}, GB/s:\n\n| curve |", fam, k, k);
      std::string rule = "|---|";
      for (uint64_t s : sizes) {
        fmt::print(" {} |", s >= 1048576 ? fmt::format("{}M", s / 1048576) : s >= 1024 ? fmt::format("{}K", s / 1024) : std::to_string(s));
        rule += "---|";
      }
      fmt::print("\n{}\n", rule);
      for (const auto& [name, bw] : rows) {
        std::string line = "| " + name + " |";
        for (uint64_t s : sizes) {
          const auto it = bw.find(s);
          line += it == bw.end() ? " - |" : fmt::format(" {:.1f} |", it->second);
        }
        fmt::print("{}\n", line);
      }
      if (rows.empty()) fmt::print("| (no measurements of this family on {}x{} in {}) |\n", k, k, path);
      panels.push_back(std::move(chart));
    }
  }
  fmt::print("\n");
  WriteOutput(o.csv, csv, "--csv", "csv");
  if (!o.svg.empty()) WriteOutput(o.svg, LineChartsSvg(panels, static_cast<unsigned>(ks.size())), "--svg", "plot");
  return 0;
}

int RunTable1Command(const std::string& ks_arg, const std::string& csv_path, const std::string& svg_path) {
  std::vector<unsigned> ks;
  for (const std::string& s : SplitList(ks_arg)) {
    if (s != "4" && s != "8" && s != "16") throw std::invalid_argument(fmt::format("-k {}: allowed 4, 8, 16", ks_arg));
    ks.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (ks.empty()) throw std::invalid_argument(fmt::format("-k '{}': allowed 4, 8, 16", ks_arg));
  fmt::print("ARIES Table I: all-reduce of G bytes on N chiplets; the table's formulas (torus) beside the "
             "controller's planned programs (links: distinct directed sender -> receiver pairs that carry "
             "data; largest message: the biggest single send as a fraction of G; steps: the longest chain "
             "of dependent messages)\n");
  const coll::Hardware hardware = sysc::HardwareOf(sysc::ShippedShape());
  std::vector<BarChart> panels;
  std::string csv = "n,algorithm,topology,levels,links_formula,links,message_fraction_formula,largest_message_fraction,"
                    "sync_steps_formula,sync_steps\n";
  for (unsigned k : ks) {
    const double n = k * k;
    BarChart links_chart, steps_chart;
    links_chart.title = fmt::format("links, N = {}", k * k);
    steps_chart.title = fmt::format("synchronization steps, N = {}", k * k);
    links_chart.y_label = "links";
    steps_chart.y_label = "steps";
    links_chart.series = steps_chart.series = {"formula (Table I; ARIES_LT steps: IV-A2)", "measured"};
    links_chart.values.assign(2, {});
    steps_chart.values.assign(2, {});
    fmt::print("\nN = {} ({}x{}):\n\n| algorithm | links: formula | measured | bandwidth per link: formula | "
               "largest message | sync steps: formula | measured |\n|---|---|---|---|---|---|---|\n",
               k * k, k, k);
    for (const coll::AlgorithmInfo* a : coll::TableIAlgorithms()) {
      const coll::TableIRow& row = *a->table1;
      coll::Request req;
      req.geom.topology = row.topology;
      req.geom.k = k;
      req.algo = a->name;
      // ARIES_LT: two levels where K is a square (Table I v2's L = 2), else the most K allows.
      const auto lv = coll::AriesLtLevels(k);
      req.levels = std::find(lv.begin(), lv.end(), 2u) != lv.end() ? 2 : lv.back();
      req.op = aries::hw::kOpAddI32;
      req.elements = 1u << 16;
      const coll::Program p = coll::Plan(req, hardware, nullptr);
      std::set<std::tuple<unsigned, unsigned, unsigned>> links;
      uint64_t largest = 0;
      for (unsigned node = 0; node < p.num_nodes(); ++node) {
        for (const coll::Op& op : p.nodes[node].ops) {
          if (op.act != coll::Act::kSend) continue;
          links.insert({node, op.peer, op.lane});
          largest = std::max<uint64_t>(largest, op.region.len);
        }
      }
      const std::string algo(a->name);
      const bool leveled = a->variant == coll::AlgoVariant::kLevels;
      const double f_links = row.links(n, req.levels);
      const double f_sync = row.sync(n, req.levels);
      const double frac = static_cast<double>(largest) / static_cast<double>(p.elements);
      const std::string label = leveled ? fmt::format("{}, L = {}", row.label, req.levels) : row.label;
      const double f_frac = row.message(n, req.levels);
      links_chart.groups.push_back(algo);
      steps_chart.groups.push_back(algo);
      links_chart.values[0].push_back(f_links);
      links_chart.values[1].push_back(static_cast<double>(links.size()));
      steps_chart.values[0].push_back(f_sync);
      steps_chart.values[1].push_back(p.sync_steps);
      csv += fmt::format("{},{},{},{},{:.0f},{},{:.6f},{:.6f},{:.4g},{}\n", k * k, algo, coll::TopologyName(row.topology),
                         leveled ? req.levels : 0, f_links, links.size(), f_frac, frac, f_sync, p.sync_steps);
      fmt::print("| {} | {} = {:.0f} | {} | {} | G/{:.3g} | {} = {:.3g} | {} |\n", label, row.links_formula, f_links,
                 links.size(), row.message_formula, frac > 0 ? 1.0 / frac : 0.0, row.sync_formula, f_sync, p.sync_steps);
    }
    panels.push_back(std::move(links_chart));
    panels.push_back(std::move(steps_chart));
  }
  fmt::print("\nSteps are the planner's count of dependent message steps (`collectives/README.md` "
             "compares them with Table I row by row).\n");
  WriteOutput(csv_path, csv, "--csv", "csv");
  if (!svg_path.empty()) WriteOutput(svg_path, BarChartsSvg(panels, 2), "--svg", "plot");
  return 0;
}

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

std::string ReadIfExists(const std::string& path) {
  std::ifstream f(path);
  if (!f) return "";
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

int RunAreaCommand(const AreaOptions& o) {
  for (const auto& [name, v, lo, hi] : {std::tuple<const char*, unsigned, unsigned, unsigned>{"--lanes", o.lanes, 1, 16},
                                        {"--vcs", o.vcs, 1, 4}, {"--depth", o.depth, 2, 64},
                                        {"--flows", o.flows, 1, 64}, {"--tracks", o.tracks, 1, 4}}) {
    if (v < lo || v > hi) throw std::invalid_argument(fmt::format("{} {}: allowed {}..{}", name, v, lo, hi));
  }
  const std::string py = fmt::format("python3 {} --out {} --lanes {} --vcs {} --depth {} --flows {} "
                                     "--tracks {}{}",
                                     ShellQuote(std::string(ARIES_SYNTH_DIR) + "/node_area.py"), ShellQuote(o.out), o.lanes, o.vcs, o.depth, o.flows, o.tracks,
                                     o.engine ? " --engine" : "");
  fmt::print(stderr, "area: {}\n", py);
  if (std::system(py.c_str()) != 0) throw std::runtime_error("area: node_area.py failed (its output says why)");
  if (o.router) {
    const std::string r = fmt::format("python3 {} --out {} --lanes {} --vcs {} --flows {}",
                                      ShellQuote(std::string(ARIES_SYNTH_DIR) + "/router_area.py"), ShellQuote(o.out),
                                      o.lanes, o.vcs, o.flows);
    fmt::print(stderr, "area: {}\n", r);
    if (std::system(r.c_str()) != 0) throw std::runtime_error("area: router_area.py failed");
  }
  // The per-block table and plot of the two nodes.
  std::ifstream jf(o.out + "/node_area.json");
  if (!jf) throw std::runtime_error(fmt::format("area: {}/node_area.json was not written (see node_area.py's output)", o.out));
  const nlohmann::json j = nlohmann::json::parse(jf);
  std::map<std::string, std::pair<double, double>> blocks;
  for (const auto& [name, um2] : j["blocks_mesh"].items()) blocks[name].first = um2.get<double>();
  for (const auto& [name, um2] : j["blocks_aries"].items()) blocks[name].second = um2.get<double>();
  std::string csv = "block,mesh_node_um2,aries_node_um2\n";
  BarChart chart;
  chart.title = fmt::format("node area by block, {} lanes, depth {}", o.lanes, o.depth);
  chart.y_label = "um^2";
  chart.series = {"mesh node", "ARIES node"};
  chart.values.assign(2, {});
  for (const auto& [name, ab] : blocks) {
    csv += fmt::format("{},{:.1f},{:.1f}\n", name, ab.first, ab.second);
    chart.groups.push_back(name.rfind("aries_", 0) == 0 ? name.substr(6) : name);
    chart.values[0].push_back(ab.first);
    chart.values[1].push_back(ab.second);
  }
  csv += fmt::format("total,{:.1f},{:.1f}\n", j["mesh_node_um2"].get<double>(), j["aries_node_um2"].get<double>());
  csv += fmt::format("bypass_switch_per_node,0,{:.1f}\n",
                     j["bypass_switch_um2"].get<double>() * j["bypass_switches_per_node"].get<double>());
  WriteOutput(o.out + "/area.csv", csv, "--out", "csv");
  WriteOutput(o.out + "/area.svg", BarChartsSvg({chart}, 1), "--out", "plot");
  return 0;
}

int RunReportCommand(const ReportOptions& o) {
  ParsePaperKs(o.ks);
  ParsePaperKs(o.fig11_ks);
  std::filesystem::create_directories(o.out);
  std::string md = "# ARIES-sim: the ARIES evaluation reproduced\n\n"
                   "Every section names the command that made it; the paper's figures are beside ours. "
                   "Collective cycles come from verified cycle-accurate runs of the RTL package "
                   "(collectives/data/collective_costs.csv, `aries coll-sweep`).\n\n";
  auto section = [&](const std::string& title, const std::string& args, const std::string& image,
                     const std::string& after) {
    md += "## " + title + "\n\n`aries " + args + "`\n\n" + RunSelf(args, o.out) + "\n";
    if (!image.empty()) md += "![" + title + "](" + image + ")\n\n";
    md += after + "\n";
  };
  section("Table I: links, bandwidth per link, synchronization steps",
          fmt::format("table1 -k {} --csv {} --svg {}", ShellQuote(o.ks), ShellQuote(o.out + "/table1.csv"),
                      ShellQuote(o.out + "/table1.svg")), "table1.svg",
          "Our rings and trees match the formulas where the algorithm is the table's; the double binary "
          "tree uses two trees (more links), the ARIES_LT step count follows section IV-A2's L(N^(1/L) - 1).\n");
  section("Fig. 9: all-reduce throughput vs data size",
          fmt::format("fig9 -k {} --csv {} --svg {}", ShellQuote(o.ks), ShellQuote(o.out + "/fig9.csv"),
                      ShellQuote(o.out + "/fig9.svg")), "fig9.svg",
          "The paper's Fig. 9 has no numbers in its text. It reports ARIES_LT best at small sizes (the shipped "
          "measurements: yes), ARIES_BW best at large ones (a tie with the ring, because an endpoint injects one flit per "
          "cycle, like one link), and ARIES ahead for the trees with size (ours: the double binary tree yes, "
          "the concentrated multi-tree ahead of the mesh multi-tree but not of the torus one).\n");
  section("Fig. 10: training-time speedup",
          fmt::format("fig10 -k {} --csv {} --svg {}", ShellQuote(o.ks), ShellQuote(o.out + "/fig10.csv"),
                      ShellQuote(o.out + "/fig10.svg")), "fig10.svg",
          "The iteration gains only what ARIES removes from the critical path of communication; with the "
          "reference batches compute hides most of it (`aries fig10 --batch 1` shows the communication-bound "
          "case). The paper does not state its batches.\n");
  section("Fig. 11: energy",
          fmt::format("fig11 -k {} --csv {} --svg {}", ShellQuote(o.fig11_ks), ShellQuote(o.out + "/fig11.csv"),
                      ShellQuote(o.out + "/fig11.svg")), "fig11.svg",
          "Per all-reduce, with DSENT router energies and 0.5 pJ/bit per pitch of interposer wire "
          "(sim/energy/dsent45.tech cites each figure; the per-pitch charge is an assumption). A bypass "
          "segment is charged like the hops it replaces, so against the mesh ARIES saves the routers it "
          "skips and the leakage of a shorter run; against the torus and the butterfly also their longer "
          "wires. The paper's averages (21.2-38.8%) are over whole applications.\n");
  md += "## Area\n\n";
  const std::string node = o.area.empty() ? "" : ReadIfExists(o.area + "/node_area.json");
  const std::string router = o.area.empty() ? "" : ReadIfExists(o.area + "/router_area.json");
  if (node.empty() && router.empty()) {
    md += "Not run here (Yosys takes minutes to an hour): `python3 synth_scripts/node_area.py --out synth_out` "
          "(the ARIES overhead) and `python3 synth_scripts/router_area.py --out synth_out` (the full router), "
          "then `aries report --area synth_out`.\n";
  } else {
    if (!node.empty()) md += "`synth_scripts/node_area.py`:\n\n```\n" + node + "\n```\n\n";
    if (!router.empty()) md += "`synth_scripts/router_area.py`:\n\n```\n" + router + "\n```\n\n";
    md += "ARIES V-D (45 nm): crossbar 17,806, switch allocator 4,589, VC allocator 9,066, buffers 98,740 um^2; "
          "ARIES adds 0.3 mm^2 to 8.3 mm^2 of chiplet NoC.\n";
  }
  std::ofstream f(o.out + "/report.md");
  f << md;
  if (!f) throw std::invalid_argument(fmt::format("--out {}: cannot write report.md", o.out));
  fmt::print("report: {}/report.md\n", o.out);
  return 0;
}

namespace {

struct EnergyFamily {
  std::string name;
  std::vector<std::pair<std::string, unsigned>> baseline, aries;  // (algorithm, levels)
};

}  // namespace

int RunFig11Command(const Fig11Options& o) {
  const std::vector<unsigned> ks = ParsePaperKs(o.ks);
  ParseBytes(o.size, "--size");
  {  // refuse a bad technology before anything runs
    energy::Tech t = energy::LoadTech(energy::TechPath(o.tech));
    for (const auto& a : o.tech_set) energy::Override(t, a);
  }
  // Each paper family: its baseline algorithm, and ARIES's candidates (levels 0: the most
  // ARIES_LT allows for K, as the sweeps measure it; 2 for the others, whose level count is unused).
  std::vector<EnergyFamily> fams;
  for (const std::string& fam : coll::PaperFamilies()) {
    EnergyFamily f;
    f.name = fam;
    f.baseline = {{coll::FamilyBaseline(fam).name, 2}};
    for (const coll::AlgorithmInfo* a : coll::AriesCandidates(fam)) {
      f.aries.push_back({a->name, a->variant == coll::AlgoVariant::kLevels ? 0u : 2u});
    }
    fams.push_back(std::move(f));
  }
  const char* topos[] = {"mesh", "torus", "fbfly", "aries"};
  // ARIES V-C: average energy reduction of ARIES vs mesh, torus, flattened butterfly.
  auto paper = [](unsigned k, int i) {
    const double p4[] = {30.5, 28.9, 21.2}, p8[] = {38.8, 33.8, 29.2};
    return k == 4 ? p4[i] : p8[i];
  };
  fmt::print("ARIES Fig. 11: energy of one {} int32 all-reduce per node ({}), cycle-accurate runs, every element "
             "verified; ARIES reduction = 1 - ARIES / other\n",
             o.size, o.tech);
  std::string csv = "k,family,topology,algorithm,cycles,energy_nj,buffers_nj,crossbar_nj,allocators_nj,links_nj,"
                    "engine_nj,leakage_nj,aries_reduction\n";
  std::vector<BarChart> panels;
  for (unsigned k : ks) {
    BarChart chart;
    chart.title = fmt::format("all-reduce energy {}x{}, {}", k, k, o.size);
    chart.y_label = "energy (nJ)";
    chart.series = {"mesh", "torus", "fbfly", "aries"};
    chart.values.assign(4, {});
    fmt::print("\n{}x{}:\n\n| family | mesh nJ | torus nJ | fbfly nJ | ARIES nJ (algorithm) | ARIES reduction vs mesh / "
               "torus / fbfly | paper (V-C, average) |\n|---|---|---|---|---|---|---|\n",
               k, k);
    double sum_red[3] = {0, 0, 0};
    for (const EnergyFamily& f : fams) {
      std::vector<CollMeasurement> best(4);
      std::vector<std::string> label(4);
      for (int ti = 0; ti < 4; ++ti) {
        const auto& cands = ti == 3 ? f.aries : f.baseline;
        for (const auto& [algo, levels] : cands) {
          CollOptions co;
          co.topology = topos[ti];
          co.k = k;
          co.algo = algo;
          co.levels = levels ? levels : (k == 4 ? 2 : 3);
          co.bytes = ParseBytes(o.size, "--size");
          co.verify = true;
          co.energy = true;
          co.tech = o.tech;
          co.tech_set = o.tech_set;
          fmt::print(stderr, "  {}x{} {} {} on {}\n", k, k, f.name, algo, topos[ti]);
          const CollMeasurement m = MeasureCollective(co, true);
          if (!m.ok) throw std::runtime_error(fmt::format("{} on {} {}x{} failed verification", algo, topos[ti], k, k));
          if (label[ti].empty() || m.energy.total() < best[ti].energy.total()) {
            best[ti] = m;
            label[ti] = coll::Candidate{algo, co.levels, co.embeddings}.Label();
          }
        }
      }
      const double a = best[3].energy.total();
      std::string red;
      for (int i = 0; i < 3; ++i) {
        const double r = 100.0 * (1.0 - a / best[i].energy.total());
        sum_red[i] += r;
        red += fmt::format("{}{:.1f}%", i ? " / " : "", r);
      }
      fmt::print("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} ({}) | {} | |\n", f.name, best[0].energy.total() / 1e3,
                 best[1].energy.total() / 1e3, best[2].energy.total() / 1e3, a / 1e3, label[3], red);
      chart.groups.push_back(f.name);
      for (int ti = 0; ti < 4; ++ti) {
        const CollMeasurement& m = best[ti];
        chart.values[ti].push_back(m.energy.total() / 1e3);
        csv += fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{}\n", k, f.name, topos[ti],
                           label[ti], m.cycles, m.energy.total() / 1e3, m.energy.buffers / 1e3, m.energy.crossbar / 1e3,
                           m.energy.allocators / 1e3, m.energy.links / 1e3, m.energy.engine / 1e3, m.energy.leakage / 1e3,
                           ti == 3 ? "" : fmt::format("{:.4f}", 1.0 - a / m.energy.total()));
      }
    }
    fmt::print("| mean of the families | | | | | {:.1f}% / {:.1f}% / {:.1f}% | {:.1f}% / {:.1f}% / {:.1f}% |\n",
               sum_red[0] / 3, sum_red[1] / 3, sum_red[2] / 3, paper(k, 0), paper(k, 1), paper(k, 2));
    panels.push_back(std::move(chart));
  }
  fmt::print("\n");
  WriteOutput(o.csv, csv, "--csv", "csv");
  if (!o.svg.empty()) WriteOutput(o.svg, BarChartsSvg(panels, static_cast<unsigned>(ks.size())), "--svg", "plot");
  return 0;
}

}  // namespace aries::sim
