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
  CLI::App app{"ARIES-sim: cycle-accurate chiplet interposer NoC (Verilated RTL in SystemC)"};
  app.require_subcommand(0, 1);
  std::string config_file, json_file, csv_file, trace_file, trace_nodes = "all";
  std::vector<std::string> sets;
  uint64_t trace_from = 0, trace_to = ~uint64_t{0};
  bool progress = false;
  auto add_common = [&](CLI::App* a) {
    a->add_option("--config", config_file, "configuration file (key = value lines)")
        ->check(CLI::ExistingFile);
    a->add_option("--set", sets, "override a key: --set traffic.rate=0.3 (repeatable)");
    a->add_option("--json", json_file, "write results and configuration as JSON");
    a->add_option("--csv", csv_file, "write results as CSV");
    a->add_option("--trace", trace_file, "write an FST waveform (and a .gtkw save file)");
    a->add_option("--trace-nodes", trace_nodes, "nodes to trace: all, or ids like 0,5");
    a->add_option("--trace-from", trace_from, "first traced cycle");
    a->add_option("--trace-to", trace_to, "cycle after the last traced one");
    a->add_flag("--progress", progress, "progress on stderr every 10k cycles");
  };
  add_common(&app);
  CLI::App* run = app.add_subcommand("run", "one simulation run (the default)");
  add_common(run);
  CLI::App* sweep = app.add_subcommand("sweep", "injection-rate sweep over sweep.rates");
  add_common(sweep);
  CLI::App* bench = app.add_subcommand("bench", "simulation speed and peak memory");
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
  CLI::App* coll = app.add_subcommand("coll", "plan, validate and run one collective");
  aries::sim::CollOptions co;
  coll->add_option("--topology", co.topology, "mesh, torus, fbfly, aries");
  coll->add_option("-k,--k", co.k, "K x K chiplets");
  coll->add_option(
      "--algo", co.algo,
      "algorithm: auto (cheapest by the measured costs) or " + aries::coll::AlgorithmNames());
  coll->add_option("--collective", co.collective, aries::coll::CollectiveNames());
  coll->add_option("--type", co.type, "int32 or fp32 (sum)");
  std::string coll_size = "64K";  // parsed into co.bytes at the boundary (ParseBytes)
  coll->add_option("--size", coll_size, "bytes per node: 64, 4K, 2M");
  coll->add_option("--root", co.root, "root of reduce and broadcast");
  coll->add_option("--embeddings", co.embeddings, "in-network tree: trees over disjoint segments");
  coll->add_option("--levels", co.levels, "aries_lt: ring levels L (K = b^L)");
  coll->add_option("--inputs", co.inputs,
                   "per-node input files, {node} in the path: in/node{node}.npy (.npy or raw "
                   "little-endian); each holds the node's whole buffer (all-gather: the gathered "
                   "size, the node's shard in place)");
  coll->add_option("--outputs", co.outputs,
                   "per-node result files (the node's result region), {node} in the path");
  coll->add_option("--seed", co.seed, "input generator seed");
  coll->add_option("--set", sets,
                   "the package geometry: --set package.link_latency=20 (package.tracks, "
                   "package.link_latency, package.extra_per_pitch; repeatable)");
  co.model = "rtl";  // the command's default: the Verilated RTL (library callers take auto)
  coll->add_option("--model", co.model,
                   "node model: rtl (default: the Verilated RTL), fast (the cycle-equivalent C++ "
                   "model, proven equal pin by pin), check (both in lockstep, every pin compared "
                   "every cycle) or auto (= fast)")
      ->check(CLI::IsMember({"rtl", "fast", "check", "auto"}));
  coll->add_flag("--verify", co.verify, "compare every element with the golden reduction");
  coll->add_option("--costs", co.costs, "--algo auto: measured cost file (aries coll-sweep --csv)");
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
  aries::sim::CollSweepOptions cs;
  csweep->add_option("-k,--k", cs.k, "K x K chiplets");
  csweep->add_option("--topologies", cs.topologies, "comma-separated: mesh,torus,aries,fbfly");
  csweep->add_option("--algos", cs.algos, "comma-separated algorithms or all");
  csweep->add_option("--sizes", cs.sizes, "comma-separated bytes per node: 1K,64K,2M");
  csweep->add_option("--type", cs.type, "int32 or fp32");
  csweep->add_option("--collective", cs.collective, "allreduce, reducescatter or allgather");
  csweep->add_option("--csv", cs.csv,
                     "append the measurements to this CSV (the --algo auto cost file format)");
  csweep->add_option("--seed", cs.seed, "input generator seed");
  csweep->add_option(
      "--set", sets,
      "the package geometry of every run, recorded in the CSV: --set package.link_latency=20 "
      "(package.tracks, package.link_latency, package.extra_per_pitch)");
  csweep
      ->add_option("--model", cs.model,
                   "node model of every run: auto (default: the fast C++ model, the same cycles), "
                   "rtl, check")
      ->check(CLI::IsMember({"rtl", "fast", "check", "auto"}));
  csweep->add_option("--jobs", cs.jobs,
                     "run the sweep as one job per (algorithm, topology, size) on this many local "
                     "processes; parts merge into --csv");
  csweep->add_option("--job-file", cs.job_file,
                     "write the jobs' command lines to this file instead (GNU parallel, Slurm "
                     "array); merge with coll-merge");
  csweep->add_option("--job-dir", cs.job_dir,
                     "where the jobs write their part CSVs (default: <csv or job file>.parts)");
  CLI::App* cmerge = app.add_subcommand("coll-merge", "merge sweep part CSVs into one cost CSV");
  std::vector<std::string> merge_parts;
  std::string merge_out;
  cmerge->add_option("parts", merge_parts, "part CSVs")->required();
  cmerge->add_option("--csv", merge_out, "the merged CSV")->required();
  CLI::App* cmodels = app.add_subcommand(
      "coll-models",
      "the cost models of a sweep CSV (one collective): alpha-beta fits and their errors");
  std::string cm_costs, cm_type = "int32";
  cmodels->add_option("--costs", cm_costs,
                      "sweep CSV (default: collectives/data/collective_costs.csv)");
  cmodels->add_option("--type", cm_type, "int32 or fp32");
  std::string cm_coll = "allreduce";
  cmodels->add_option("--collective", cm_coll, "allreduce, reducescatter or allgather");
  CLI::App* train = app.add_subcommand("train",
                                       "one training iteration: compute and communication streams, "
                                       "collective times from the fitted cost models");
  aries::sim::TrainOptions to;
  train->add_option("--workload", to.workload,
                    "resnet50, vgg16, dlrm, transformer, gpt3 or a workload CSV");
  train->add_option("--strategy", to.strategy,
                    "ddp (all-reduce per layer or bucket), fsdp (all-gather + reduce-scatter), tp "
                    "(all-reduce of partial outputs)");
  train->add_option("--topology", to.topology, "mesh, torus, fbfly, aries");
  train->add_option("-k,--k", to.k, "K x K chiplets");
  train->add_option("--algo", to.algo, "collective algorithm (its measured cost model)");
  train->add_option("--levels", to.levels, "aries_lt: ring levels");
  train->add_option("--embeddings", to.embeddings, "tree: embeddings");
  train->add_option("--batch", to.batch, "samples per chiplet (0: the workload's)");
  train->add_option(
      "--bucket", to.bucket,
      "ddp: gradient bucket bytes, 25M like PyTorch DDP (0: one all-reduce per layer)");
  train->add_option("--utilization", to.utilization,
                    "compute utilization in (0, 1] (MAD Max 4.2: ~0.7)");
  train->add_option("--costs", to.costs,
                    "cost CSV (default: collectives/data/collective_costs.csv)");
  train->add_option("--timeline", to.timeline, "write the iteration's operations as CSV");
  train->add_option("--svg", to.svg, "plot the iteration's timeline (SVG)");
  train->add_flag("--check", to.check,
                  "re-run every collective of the iteration up to --check-max cycle-accurately and "
                  "print the model's error");
  train->add_option("--check-max", to.check_max, "largest collective --check runs (bytes: 2M)");
  CLI::App* fig10 = app.add_subcommand("fig10",
                                       "ARIES Fig. 10: training-time speedup of ARIES over mesh, "
                                       "torus, flattened butterfly (ring, DB tree, multi-tree)");
  aries::sim::Fig10Options fo;
  fig10->add_option("-k,--k", fo.ks, "comma-separated: 4,8");
  fig10->add_option("--workloads", fo.workloads, "comma-separated workloads");
  fig10->add_option("--batch", fo.batch, "samples per chiplet (0: each workload's)");
  fig10->add_option("--utilization", fo.utilization, "compute utilization in (0, 1]");
  fig10->add_option("--costs", fo.costs, "cost CSV");
  fig10->add_option("--csv", fo.csv, "write every iteration as CSV");
  fig10->add_option("--svg", fo.svg, "plot the speedups (SVG)");
  CLI::App* fig9 =
      app.add_subcommand("fig9",
                         "ARIES Fig. 9: all-reduce throughput vs data size "
                         "(ring/ARIES_LT/ARIES_BW, DB tree, multi-tree) from a sweep CSV");
  aries::sim::Fig9Options f9;
  fig9->add_option("-k,--k", f9.ks, "comma-separated: 4,8");
  fig9->add_option("--costs", f9.costs,
                   "sweep CSV (default: collectives/data/collective_costs.csv)");
  fig9->add_option("--csv", f9.csv, "write the curves as CSV");
  fig9->add_option("--svg", f9.svg, "plot the curves (SVG)");
  CLI::App* fig11 = app.add_subcommand("fig11",
                                       "ARIES Fig. 11: all-reduce energy per algorithm family and "
                                       "topology (cycle-accurate runs, verified)");
  aries::sim::Fig11Options f11;
  fig11->add_option("-k,--k", f11.ks, "comma-separated: 4,8");
  fig11->add_option("--size", f11.size, "bytes per node: 64K");
  fig11->add_option("--tech", f11.tech, "technology file: dsent45, dsent32 or a path");
  fig11->add_option("--tech-set", f11.tech_set,
                    "override a technology figure: key=value (repeatable)");
  fig11->add_option("--csv", f11.csv, "write the energies as CSV");
  fig11->add_option("--svg", f11.svg, "plot the energies (SVG)");
  CLI::App* table1 =
      app.add_subcommand("table1",
                         "ARIES Table I: links, bandwidth per link and synchronization steps of "
                         "the planned all-reduces beside the formulas");
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
    // The configuration keys and the run's outputs belong to run and sweep; another subcommand
    // given them would ignore them without a word. coll and coll-sweep take the package
    // geometry's keys (their own --set), and refuse every other key.
    const bool run_options =
        !config_file.empty() || !json_file.empty() || !csv_file.empty() || !trace_file.empty();
    const bool geometry_sub = coll->parsed() || csweep->parsed();
    for (const CLI::App* sub : app.get_subcommands()) {
      if ((run_options || (!sets.empty() && !geometry_sub)) && sub != run && sub != sweep) {
        throw ConfigError(fmt::format(
            "aries {}: --set, --config, --json, --csv and --trace apply to run and sweep only; "
            "give {} its own options (aries {} --help)",
            sub->get_name(), sub->get_name(), sub->get_name()));
      }
      if (net && sub != run && sub != sweep) {
        throw ConfigError(fmt::format(
            "aries {} under mpirun ({} ranks): only `run` and `sweep` run distributed; start it "
            "as one process",
            sub->get_name(), net->ranks()));
      }
    }
    if (coll->parsed()) {
      co.geometry = aries::sim::GeometryKeys(sets, "coll");
    }
    if (csweep->parsed()) {
      cs.geometry = aries::sim::GeometryKeys(sets, "coll-sweep");
    }
    if (coll->parsed()) {
      co.bytes = aries::sim::ParseBytes(coll_size, "--size");
      return aries::sim::RunCollectiveCommand(co);
    }
    if (csweep->parsed()) return aries::sim::RunCollSweep(cs);
    if (cmerge->parsed()) return aries::sim::RunCollMerge(merge_parts, merge_out);
    if (cmodels->parsed()) return aries::sim::RunCollModels(cm_costs, cm_type, cm_coll);
    if (train->parsed()) return aries::sim::RunTrainCommand(to);
    if (fig10->parsed()) return aries::sim::RunFig10Command(fo);
    if (fig9->parsed()) return aries::sim::RunFig9Command(f9);
    if (fig11->parsed()) return aries::sim::RunFig11Command(f11);
    if (table1->parsed()) return aries::sim::RunTable1Command(t1_ks, t1_csv, t1_svg);
    if (report->parsed()) return aries::sim::RunReportCommand(ro);
    if (area->parsed()) return aries::sim::RunAreaCommand(ao);
    if (keys->parsed()) return aries::sim::PrintConfigKeys();
    if (bench->parsed()) return aries::sim::RunBenchCommand(bo);
    aries::sim::PackageCommand pc;
    pc.sweep = sweep->parsed();
    pc.config_file = config_file;
    pc.sets = sets;
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
