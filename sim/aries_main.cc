// aries: the ARIES-sim command line.
//
//   aries                       the default run: a 4x4 ARIES package, uniform traffic at 0.1
//   aries [run] [options]       one run; --config FILE, --set key=value, --json, --csv, --trace
//   mpirun -n R aries run ...   the same run with the package's rows split over R processes
//   aries sweep [options]       injection-rate sweep (sweep.rates), one CSV row per rate
//   aries bench [--quick] [--k 4,8,16] [--links 10,1] [--model rtl,fast]  simulation speed and
//                                            peak memory (mesh)
//   aries keys                  the configuration keys with defaults and allowed values
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "bench.h"
#include "cli_keys.h"
#include "coll_run.h"
#include "coll_sweep.h"
#include "config.h"
#include "figures.h"
#include "mpi_transport.h"
#include "package_run.h"
#include "planners.h"
#include "train_run.h"

using aries::sim::Config;
using aries::sim::ConfigError;

namespace {

// SystemC's library owns main() and calls sc_main(); keep its banner off stdout.
const int kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  using aries::sim::KeyOptions;
  CLI::App app{"ARIES-sim: cycle-accurate chiplet interposer NoC (Verilated RTL in SystemC)"};
  app.require_subcommand(0, 1);
  // Every subcommand reads the one key table (aries keys): --config FILE, --set key=value, and
  // its own flags as aliases of keys. The options before a subcommand apply to it too.
  KeyOptions top_keys(&app, "run");
  std::string json_file, csv_file, trace_file, trace_nodes = "all";
  uint64_t trace_from = 0, trace_to = ~uint64_t{0};
  bool progress = false;
  auto add_outputs = [&](CLI::App* a) {
    a->add_option("--json", json_file, "write results and configuration as JSON");
    a->add_option("--csv", csv_file, "write results as CSV");
    a->add_option("--trace", trace_file, "write an FST waveform (and a .gtkw save file)");
    a->add_option("--trace-nodes", trace_nodes, "nodes to trace: all, or ids like 0,5");
    a->add_option("--trace-from", trace_from, "first traced cycle");
    a->add_option("--trace-to", trace_to, "cycle after the last traced one");
    a->add_flag("--progress", progress, "progress on stderr every 10k cycles");
  };
  add_outputs(&app);
  CLI::App* run = app.add_subcommand("run", "one simulation run (the default)");
  KeyOptions run_keys(run, "run");
  add_outputs(run);
  CLI::App* sweep = app.add_subcommand("sweep", "injection-rate sweep over sweep.rates");
  KeyOptions sweep_keys(sweep, "sweep");
  add_outputs(sweep);
  CLI::App* bench = app.add_subcommand("bench", "simulation speed and peak memory");
  KeyOptions bench_keys(bench, "bench");
  aries::sim::BenchOptions bo;
  bench->add_flag("--quick", bo.quick, "shorter runs");
  bench
      ->add_option("--links", bo.links,
                   "wire cycles of a link (package.link_latency), comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1000u));
  bench->add_option("--model", bo.models, "node models: rtl, fast (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"rtl", "fast"}));
  bench->add_option("--k", bo.ks, "package sizes K (K x K mesh)")
      ->delimiter(',')
      ->check(CLI::Range(2u, 32u));
  CLI::App* keys = app.add_subcommand("keys", "list configuration keys");
  KeyOptions keys_keys(keys, "keys");
  CLI::App* coll = app.add_subcommand("coll", "plan, validate and run one collective");
  KeyOptions coll_keys(coll, "coll");
  aries::sim::CollOptions co;
  coll_keys.Alias("--topology", "package.topology");
  coll_keys.Alias("-k,--k", "package.k");
  coll_keys.Alias(
      "--algo", "coll.algo",
      "algorithm: auto (cheapest by the measured costs) or " + aries::coll::AlgorithmNames());
  coll_keys.Alias("--collective", "coll.collective", aries::coll::CollectiveNames());
  coll_keys.Alias("--type", "coll.type", "int32 or fp32 (sum)");
  coll_keys.Alias("--size", "coll.size", "bytes per node: 64, 4K, 2M");
  coll_keys.Alias("--root", "coll.root", "root of reduce and broadcast");
  coll_keys.Alias("--embeddings", "coll.embeddings");
  coll_keys.Alias("--levels", "coll.levels");
  coll_keys.Alias("--seed", "sim.seed", "input generator seed");
  coll_keys.Alias("--model", "sim.model",
                  "node model: rtl (the Verilated RTL; what auto means for one run), fast (the "
                  "cycle-equivalent C++ model, proven equal pin by pin), check (both in lockstep, "
                  "every pin compared every cycle)");
  coll_keys.Switch("--verify", "coll.verify");
  coll_keys.Alias("--costs", "coll.costs",
                  "--algo auto: measured cost file (aries coll-sweep --csv)");
  coll->add_option("--inputs", co.inputs,
                   "per-node input files, {node} in the path: in/node{node}.npy (.npy or raw "
                   "little-endian); each holds the node's whole buffer (all-gather: the gathered "
                   "size, the node's shard in place)");
  coll->add_option("--outputs", co.outputs,
                   "per-node result files (the node's result region), {node} in the path");
  coll->add_flag("--energy", co.energy,
                 "energy of the run from its activity (buffers, crossbar, allocators, links, "
                 "engine, leakage)");
  coll->add_option("--tech", co.tech,
                   "technology file: dsent45 (default), dsent32 or a path (implies --energy)");
  coll->add_option("--tech-set", co.tech_set,
                   "override a technology figure: key=value (repeatable; implies --energy)");
  coll->add_option("--energy-csv", co.energy_csv,
                   "write the activity and energy per node and per link (implies --energy)");
  CLI::App* csweep =
      app.add_subcommand("coll-sweep",
                         "a collective (all-reduce by default) over algorithms x topologies x "
                         "sizes, verified; Markdown table and cost CSV");
  KeyOptions csweep_keys(csweep, "coll-sweep");
  aries::sim::CollSweepOptions cs;
  std::string cs_topologies = "mesh,torus,aries,fbfly", cs_algos = "all", cs_sizes = "1K,64K,2M";
  csweep_keys.Alias("-k,--k", "package.k");
  csweep->add_option("--topologies", cs_topologies, "comma-separated: mesh,torus,aries,fbfly");
  csweep->add_option("--algos", cs_algos, "comma-separated algorithms or all");
  csweep->add_option("--sizes", cs_sizes, "comma-separated bytes per node: 1K,64K,2M");
  csweep_keys.Alias("--type", "coll.type");
  csweep_keys.Alias("--collective", "coll.collective", "allreduce, reducescatter or allgather");
  csweep->add_option("--csv", cs.csv,
                     "append the measurements to this CSV (the --algo auto cost file format)");
  csweep_keys.Alias("--seed", "sim.seed", "input generator seed");
  csweep_keys.Alias("--model", "sim.model",
                    "node model of every run: auto (the fast C++ model, the same cycles), rtl, "
                    "check");
  csweep->add_option("--jobs", cs.jobs,
                     "run the sweep as one job per (algorithm, topology, size) on this many local "
                     "processes; parts merge into --csv");
  csweep->add_option("--job-file", cs.job_file,
                     "write the jobs' command lines to this file instead (GNU parallel, Slurm "
                     "array); merge with coll-merge");
  csweep->add_option("--job-dir", cs.job_dir,
                     "where the jobs write their part CSVs (default: <csv or job file>.parts)");
  CLI::App* cmerge = app.add_subcommand("coll-merge", "merge sweep part CSVs into one cost CSV");
  KeyOptions cmerge_keys(cmerge, "coll-merge");
  std::vector<std::string> merge_parts;
  std::string merge_out;
  cmerge->add_option("parts", merge_parts, "part CSVs")->required();
  cmerge->add_option("--csv", merge_out, "the merged CSV")->required();
  CLI::App* cmodels = app.add_subcommand(
      "coll-models",
      "the cost models of a sweep CSV (one collective): alpha-beta fits and their errors");
  KeyOptions cmodels_keys(cmodels, "coll-models");
  cmodels_keys.Alias("--costs", "coll.costs", "sweep CSV");
  cmodels_keys.Alias("--type", "coll.type");
  cmodels_keys.Alias("--collective", "coll.collective", "allreduce, reducescatter or allgather");
  CLI::App* train = app.add_subcommand("train",
                                       "one training iteration: compute and communication streams, "
                                       "collective times from the fitted cost models");
  KeyOptions train_keys(train, "train");
  aries::sim::TrainOptions to;
  train_keys.Alias("--workload", "train.workload");
  train_keys.Alias("--strategy", "train.strategy");
  train_keys.Alias("--topology", "package.topology");
  train_keys.Alias("-k,--k", "package.k");
  train_keys.Alias("--algo", "coll.algo", "collective algorithm (its measured cost model)");
  train_keys.Alias("--levels", "coll.levels");
  train_keys.Alias("--embeddings", "coll.embeddings");
  train_keys.Alias("--batch", "train.batch");
  train_keys.Alias("--bucket", "train.bucket");
  train_keys.Alias("--utilization", "train.utilization");
  train_keys.Alias("--costs", "coll.costs");
  train->add_option("--timeline", to.timeline, "write the iteration's operations as CSV");
  train->add_option("--svg", to.svg, "plot the iteration's timeline (SVG)");
  train->add_flag("--check", to.check,
                  "re-run every collective of the iteration up to --check-max cycle-accurately and "
                  "print the model's error");
  train_keys.Alias("--check-max", "train.check_max");
  train_keys.Alias("--model", "sim.model", "node model of --check's runs (auto: fast)");
  CLI::App* fig10 = app.add_subcommand("fig10",
                                       "ARIES Fig. 10: training-time speedup of ARIES over mesh, "
                                       "torus, flattened butterfly (ring, DB tree, multi-tree)");
  KeyOptions fig10_keys(fig10, "fig10");
  aries::sim::Fig10Options fo;
  std::string f10_ks = "4,8", f10_workloads = "resnet50,vgg16,dlrm,transformer";
  fig10->add_option("-k,--k", f10_ks, "comma-separated: 4,8");
  fig10->add_option("--workloads", f10_workloads, "comma-separated workloads");
  fig10_keys.Alias("--batch", "train.batch");
  fig10_keys.Alias("--utilization", "train.utilization");
  fig10_keys.Alias("--costs", "coll.costs");
  fig10->add_option("--csv", fo.csv, "write every iteration as CSV");
  fig10->add_option("--svg", fo.svg, "plot the speedups (SVG)");
  CLI::App* fig9 =
      app.add_subcommand("fig9",
                         "ARIES Fig. 9: all-reduce throughput vs data size "
                         "(ring/ARIES_LT/ARIES_BW, DB tree, multi-tree) from a sweep CSV");
  KeyOptions fig9_keys(fig9, "fig9");
  aries::sim::Fig9Options f9;
  std::string f9_ks = "4,8";
  fig9->add_option("-k,--k", f9_ks, "comma-separated: 4,8");
  fig9_keys.Alias("--costs", "coll.costs");
  fig9->add_option("--csv", f9.csv, "write the curves as CSV");
  fig9->add_option("--svg", f9.svg, "plot the curves (SVG)");
  CLI::App* fig11 = app.add_subcommand("fig11",
                                       "ARIES Fig. 11: all-reduce energy per algorithm family and "
                                       "topology (cycle-accurate runs, verified)");
  KeyOptions fig11_keys(fig11, "fig11");
  aries::sim::Fig11Options f11;
  std::string f11_ks = "4", f11_size = "64K";
  fig11->add_option("-k,--k", f11_ks, "comma-separated: 4,8");
  fig11->add_option("--size", f11_size, "bytes per node: 64K");
  fig11_keys.Alias("--model", "sim.model", "node model of the runs (auto: fast)");
  fig11->add_option("--tech", f11.tech, "technology file: dsent45, dsent32 or a path");
  fig11->add_option("--tech-set", f11.tech_set,
                    "override a technology figure: key=value (repeatable)");
  fig11->add_option("--csv", f11.csv, "write the energies as CSV");
  fig11->add_option("--svg", f11.svg, "plot the energies (SVG)");
  CLI::App* table1 =
      app.add_subcommand("table1",
                         "ARIES Table I: links, bandwidth per link and synchronization steps of "
                         "the planned all-reduces beside the formulas");
  KeyOptions table1_keys(table1, "table1");
  std::string t1_ks = "4,8";
  table1->add_option("-k,--k", t1_ks, "comma-separated: 4,8,16");
  std::string t1_csv;
  table1->add_option("--csv", t1_csv, "write the table as CSV");
  std::string t1_svg;
  table1->add_option("--svg", t1_svg, "plot links and steps, formula vs measured (SVG)");
  CLI::App* area =
      app.add_subcommand("area",
                         "synthesize the mesh-baseline and ARIES nodes (Yosys) and report the "
                         "ARIES area overhead; --router adds the full router");
  KeyOptions area_keys(area, "area");
  aries::sim::AreaOptions ao;
  area->add_option("--out", ao.out, "output directory (netlists, area JSON)");
  area->add_option("--lanes", ao.lanes, "32-bit lanes per flit (16: the 544-bit flit)");
  area->add_option("--vcs", ao.vcs, "router VCs");
  area->add_option("--depth", ao.depth,
                   "buffer depth of the node runs (the overhead does not depend on it)");
  area->add_option("--flows", ao.flows, "routing-table flows");
  area->add_option("--tracks", ao.tracks, "bypass tracks per row and column (ARIES node)");
  area->add_flag("--router", ao.router,
                 "also the full-depth router per sub-block (router_area.py, ~12 min)");
  area->add_flag("--engine", ao.engine,
                 "also the collective engine (synthesized at 1 and 2 lanes, extrapolated)");
  CLI::App* report = app.add_subcommand("report",
                                        "reproduce the ARIES evaluation (Table I, Figs. 9-11, "
                                        "area) into one Markdown report with plots");
  KeyOptions report_keys(report, "report");
  aries::sim::ReportOptions ro;
  report->add_option("--out", ro.out, "output directory (report.md, CSVs, SVGs)");
  report->add_option("-k,--k", ro.ks, "K for Table I, Figs. 9 and 10: 4,8");
  report->add_option("--fig11-k", ro.fig11_ks, "K for the energy runs (cycle-accurate): 4 or 4,8");
  report->add_option("--area", ro.area,
                     "directory with node_area.json / router_area.json from synth_scripts");
  CLI11_PARSE(app, argc, argv);

  // Under mpirun every process is one rank of the package (run and sweep only); rank 0 prints
  // and writes the files.
  std::unique_ptr<aries::sim::MpiSession> mpi;
  try {
    mpi = aries::sim::StartMpiIfLaunched(&argc, &argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }
  aries::sysc::Transport* net = mpi ? &mpi->transport() : nullptr;
  if (net && net->rank() != 0 && !std::freopen("/dev/null", "w", stdout)) return 2;
  auto fail = [&](int code) {
    std::fflush(stdout);
    if (mpi) mpi->Abort(code);  // the other ranks would wait for this one
    return code;
  };

  try {
    // The run's outputs belong to run and sweep; another subcommand given them would ignore
    // them without a word.
    const bool run_outputs = !json_file.empty() || !csv_file.empty() || !trace_file.empty();
    for (const CLI::App* sub : app.get_subcommands()) {
      if (run_outputs && sub != run && sub != sweep) {
        throw ConfigError(fmt::format(
            "aries {}: --json, --csv and --trace before the subcommand apply to run and sweep "
            "only; give {} its own options (aries {} --help)",
            sub->get_name(), sub->get_name(), sub->get_name()));
      }
      if (net && sub != run && sub != sweep) {
        throw ConfigError(fmt::format(
            "aries {} under mpirun ({} ranks): only `run` and `sweep` run distributed; start it "
            "as one process",
            sub->get_name(), net->ranks()));
      }
    }
    // Each subcommand resolves its keys (the options before it first) into its typed request
    // and calls its library function; a key it does not read is refused by name.
    if (coll->parsed()) {
      return aries::sim::RunCollectiveCommand(
          aries::sim::CollRequest(coll_keys.Resolve(&top_keys), co));
    }
    if (csweep->parsed()) {
      cs = aries::sim::CollSweepRequest(csweep_keys.Resolve(&top_keys), cs);
      cs.topologies = aries::sim::ParseTopologyList(cs_topologies, "--topologies");
      cs.algos = aries::sim::ParseAlgoList(cs_algos, "--algos");
      cs.sizes = aries::sim::ParseSizeList(cs_sizes, "--sizes");
      return aries::sim::RunCollSweep(cs);
    }
    if (cmerge->parsed()) {
      cmerge_keys.Resolve(&top_keys);
      return aries::sim::RunCollMerge(merge_parts, merge_out);
    }
    if (cmodels->parsed()) {
      const Config c = cmodels_keys.Resolve(&top_keys);
      const auto kind = aries::coll::ParseCollective(c.Get("coll.collective"));
      if (!kind) aries::sim::BadKey(c, "coll.collective", aries::coll::CollectiveNames());
      return aries::sim::RunCollModels(c.Get("coll.costs"), aries::sim::KeyWord(c, "coll.type"),
                                       *kind);
    }
    if (train->parsed()) {
      return aries::sim::RunTrainCommand(
          aries::sim::TrainRequest(train_keys.Resolve(&top_keys), to));
    }
    if (fig10->parsed()) {
      fo = aries::sim::Fig10Request(fig10_keys.Resolve(&top_keys), fo);
      fo.ks = aries::sim::ParsePaperKs(f10_ks);
      fo.workloads = aries::sim::SplitList(f10_workloads);
      return aries::sim::RunFig10Command(fo);
    }
    if (fig9->parsed()) {
      f9.costs = fig9_keys.Resolve(&top_keys).Get("coll.costs");
      f9.ks = aries::sim::ParsePaperKs(f9_ks);
      return aries::sim::RunFig9Command(f9);
    }
    if (fig11->parsed()) {
      f11.model = aries::sim::KeyWord(fig11_keys.Resolve(&top_keys), "sim.model");
      f11.ks = aries::sim::ParsePaperKs(f11_ks);
      f11.bytes = aries::sim::ParseBytes(f11_size, "--size", uint64_t{64} << 20);
      return aries::sim::RunFig11Command(f11);
    }
    if (table1->parsed()) {
      table1_keys.Resolve(&top_keys);
      return aries::sim::RunTable1Command(aries::sim::ParseTable1Ks(t1_ks), t1_csv, t1_svg);
    }
    if (report->parsed()) {
      report_keys.Resolve(&top_keys);
      return aries::sim::RunReportCommand(ro);
    }
    if (area->parsed()) {
      area_keys.Resolve(&top_keys);
      return aries::sim::RunAreaCommand(ao);
    }
    if (keys->parsed()) {
      keys_keys.Resolve(&top_keys);
      return aries::sim::PrintConfigKeys();
    }
    if (bench->parsed()) {
      bench_keys.Resolve(&top_keys);
      return aries::sim::RunBenchCommand(bo);
    }
    aries::sim::PackageCommand pc;
    pc.sweep = sweep->parsed();
    pc.config = (pc.sweep        ? sweep_keys
                 : run->parsed() ? run_keys
                                 : top_keys)
                    .Resolve(run->parsed() || pc.sweep ? &top_keys : nullptr);
    pc.json_file = json_file;
    pc.csv_file = csv_file;
    pc.trace_file = trace_file;
    pc.trace_nodes = trace_nodes;
    pc.trace_from = trace_from;
    pc.trace_to = trace_to;
    pc.progress = progress;
    return aries::sim::RunPackageCommand(pc, net);
  } catch (const ConfigError& e) {  // every rank refuses the same input: they all end here
    if (!net || net->rank() == 0) fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return fail(2);
  }
}
