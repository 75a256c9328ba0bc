#include "cli.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench.h"
#include "cli_keys.h"
#include "coll_run.h"
#include "coll_sweep.h"
#include "config.h"
#include "figures.h"
#include "files.h"
#include "gtkw.h"
#include "mpi_transport.h"
#include "package_run.h"
#include "planners.h"
#include "plot.h"
#include "provenance.h"
#include "tour.h"
#include "train_run.h"

namespace aries::sim {

namespace {

// One subcommand: its CLI11 app, its keys, and how it runs once parsed (`outer`: the key
// options given before the subcommand).
struct Subcommand {
  CLI::App* app = nullptr;
  std::unique_ptr<KeyOptions> keys;
  std::function<int(const KeyOptions& outer)> run;
  bool distributed = false;  // may run as ranks under mpirun
};

// The run's outputs (run, sweep and the default run share them).
struct RunOutputs {
  std::string json, csv, plot, trace, trace_nodes = "all", packet_log, timeline;
  int64_t trace_packet = -1;
  uint64_t trace_from = 0, trace_to = ~uint64_t{0};
  bool progress = false;
  // `sweep`: the sweep's outputs (--plot draws its curves); otherwise one run's.
  void Add(CLI::App* a, bool sweep) {
    a->add_option("--json", json, "write results and configuration as JSON");
    a->add_option("--csv", csv, "write results as CSV");
    if (sweep) {
      a->add_option("--plot", plot,
                    "draw latency and throughput against load (matplotlib): STEM.svg, .pdf, .png");
    }
    a->add_option("--trace", trace,
                  "write a waveform, FILE.fst (or FILE.vcd), and FILE.gtkw, a GTKWave save file");
    a->add_option("--trace-nodes", trace_nodes, "nodes to trace: all, or ids like 0,5");
    a->add_option("--trace-from", trace_from,
                  sweep ? "first traced cycle" : "first cycle --trace and --timeline record");
    a->add_option(
         "--trace-to", trace_to,
         sweep ? "cycle after the last traced one" : "cycle after the last one they record")
        ->default_str("the end of the run");
    if (!sweep) {  // one run's flits in one process
      a->add_option(
          "--packet-log", packet_log,
          "write every flit's every hop as CSV: cycle (= ns on the waveform), node, link, "
          "next node, VC, decoded header, lanes (run)");
      a->add_option("--trace-packet", trace_packet,
                    "with --trace FILE.fst: trace only the nodes and cycles of this packet's path "
                    "(its id: lane 0 of its flits, the packet log's lane0)")
          ->check(CLI::NonNegativeNumber)
          ->default_str("none");
      a->add_option("--timeline", timeline,
                    "write the run's flits as trace-event JSON (Perfetto, chrome://tracing): a "
                    "track per link and per node port");
    }
    a->add_flag("--progress", progress,
                "progress on stderr about once a second (by itself on a terminal)");
  }
  bool Given() const {
    return !json.empty() || !csv.empty() || !plot.empty() || !trace.empty() ||
           !packet_log.empty() || trace_packet >= 0 || !timeline.empty();
  }
  PackageCommand Command(Config config, bool sweep) const {
    PackageCommand pc;
    pc.sweep = sweep;
    pc.config = std::move(config);
    pc.json_file = json;
    pc.csv_file = csv;
    pc.plot_file = plot;
    pc.packet_log = packet_log;
    pc.trace_packet = trace_packet;
    pc.trace_file = trace;
    pc.trace_nodes = trace_nodes;
    pc.trace_from = trace_from;
    pc.trace_to = trace_to;
    pc.timeline = timeline;
    pc.progress = progress;
    return pc;
  }
};

// `text` wrapped at spaces into lines of at most `width` columns (a word longer than that
// keeps its line).
std::string WrapText(const std::string& text, size_t width) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (!line.empty() && line.size() + 1 + w.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

// Help within 100 columns: option and subcommand descriptions wrapped beside their names.
class WrappingFormatter : public CLI::Formatter {
 public:
  WrappingFormatter() { column_width(32); }
  std::string make_option_desc(const CLI::Option* o) const override {
    return WrapText(CLI::Formatter::make_option_desc(o), kWidth - get_column_width());
  }
  std::string make_footer(const CLI::App* app) const override {
    std::string out;
    std::istringstream lines(CLI::Formatter::make_footer(app));
    for (std::string line; std::getline(lines, line);) {
      out += (line.size() > kWidth ? WrapText(line, kWidth) : line) + "\n";
    }
    return out;
  }
  std::string make_description(const CLI::App* app) const override {
    return WrapText(CLI::Formatter::make_description(app), kWidth) + "\n";
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             WrapText(sub->get_description(), kWidth - get_column_width()),
                             get_column_width());
    return out.str();
  }

 private:
  static constexpr size_t kWidth = 100;
};

// Each subcommand's help ends with examples of its own (docs/usage.md has them all).
const char* ExamplesOf(const std::string& name) {
  static const std::map<std::string, const char*> kExamples = {
      {"run",
       "Examples:\n  aries run -k 8 --topology mesh --rate 0.3\n"
       "  aries run --pattern transpose --rate 0.2 --json run.json --csv run.csv\n"
       "  aries run --trace run.fst --trace-nodes 0,5 --trace-from 1000 --trace-to 1200\n"
       "  aries run --trace-packet 42 --trace p42.fst"},
      {"sweep",
       "Examples:\n  aries sweep -k 8 --topology mesh --rates 0.1,0.2,0.3 --csv sweep.csv\n"
       "  aries sweep --pattern bitcomp --plot sweep   (sweep.svg, .pdf, .png)"},
      {"bench",
       "Examples:\n  aries bench --quick\n  aries bench --k 4,8 --links 10,1 --model fast"},
      {"keys", "Example:\n  aries keys"},
      {"coll",
       "Examples:\n  aries coll --algo dbt --size 64K\n"
       "  aries coll -k 8 --topology mesh --algo ring --size 2M --model fast\n"
       "  aries coll --collective alltoall --size 4K\n"
       "  aries coll --algo auto --size 1M --energy --json coll.json\n"
       "  aries coll --algo dbt --size 1K --trace d.fst --trace-op 5:0\n"
       "  aries coll --algo tree --size 1K --packet-log c.csv --timeline c.json"},
      {"coll-sweep",
       "Examples:\n  aries coll-sweep -k 4 --topologies mesh,aries --algos ring,dbt --sizes 1K,64K "
       "--csv costs.csv\n"
       "  aries coll-sweep -k 8 --jobs 2 --csv costs.csv\n"
       "  aries coll-sweep -k 8 --job-file jobs.txt   (then: parallel < jobs.txt; aries "
       "coll-merge)"},
      {"coll-merge", "Example:\n  aries coll-merge jobs.txt.parts/part-*.csv --csv costs.csv"},
      {"coll-models",
       "Examples:\n  aries coll-models\n  aries coll-models --costs costs.csv --collective "
       "allgather"},
      {"train",
       "Examples:\n  aries train --workload resnet50 --strategy ddp\n"
       "  aries train --workload transformer --timeline t.csv --plot t\n"
       "  aries train --workload gpt3 --search --memory 16G"},
      {"fig10",
       "Examples:\n  aries fig10\n  aries fig10 --preset paper --csv fig10.csv --plot fig10"},
      {"fig9", "Examples:\n  aries fig9\n  aries fig9 -k 4 --preset paper --plot fig9"},
      {"fig11", "Examples:\n  aries fig11\n  aries fig11 -k 4,8 --csv fig11.csv --plot fig11"},
      {"table1", "Examples:\n  aries table1\n  aries table1 -k 4,8,16 --csv table1.csv"},
      {"area", "Examples:\n  aries area --out synth_out\n  aries area --out synth_out --engine"},
      {"report", "Example:\n  aries report --out aries_report"},
  };
  const auto it = kExamples.find(name);
  return it == kExamples.end() ? "" : it->second;
}

Subcommand Make(CLI::App& app, const char* name, const char* help) {
  Subcommand s;
  s.app = app.add_subcommand(name, help);
  s.app->footer(ExamplesOf(name));
  s.keys = std::make_unique<KeyOptions>(s.app, name);
  return s;
}

// A subcommand that reads no keys: any given is refused by name (KeyOptions::Resolve), then it
// runs.
void RunsWithoutKeys(Subcommand* s, std::function<int()> run) {
  KeyOptions* keys = s->keys.get();
  s->run = [keys, run](const KeyOptions& outer) {
    keys->Resolve(&outer);
    return run();
  };
}

// The flags of the point-to-point runs, named as on the other subcommands (`-k`, `--topology`,
// `--model`, `--seed` as on coll); a sweep takes its loads (--rates), one run its load (--rate).
void PackageRunFlags(KeyOptions* k, bool sweep) {
  k->Alias("--topology", "package.topology");
  k->Alias("-k,--k", "package.k");
  k->Alias("--pattern", "traffic.pattern");
  if (sweep) {
    k->Alias("--rates", "sweep.rates");
  } else {
    k->Alias("--rate", "traffic.rate");
  }
  k->Alias("--packet-len", "traffic.packet_len");
  k->Alias("--measure", "sim.measure");
  k->Alias("--model", "sim.model");
  k->Alias("--seed", "sim.seed");
}

// run / sweep: the point-to-point package runs.
Subcommand PackageRuns(CLI::App& app, const char* name, const char* help, RunOutputs* out,
                       sysc::Transport** net) {
  Subcommand s = Make(app, name, help);
  const bool sweep = std::string(name) == "sweep";
  out->Add(s.app, sweep);
  PackageRunFlags(s.keys.get(), sweep);
  s.distributed = true;
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    return RunPackageCommand(out->Command(keys->Resolve(&outer), sweep), *net);
  };
  return s;
}

Subcommand Bench(CLI::App& app) {
  Subcommand s = Make(app, "bench", "simulation speed and peak memory");
  auto bo = std::make_shared<BenchOptions>();
  s.app->add_flag("--quick", bo->quick, "shorter runs");
  s.app
      ->add_option("--links", bo->links,
                   "wire cycles of a link (package.link_latency), comma-separated")
      ->delimiter(',')
      ->check(CLI::Range(1u, 1000u));
  s.app->add_option("--model", bo->models, "node models: rtl, fast (comma-separated)")
      ->delimiter(',')
      ->check(CLI::IsMember({"rtl", "fast"}));
  s.app->add_option("--k", bo->ks, "package sizes K (K x K mesh)")
      ->delimiter(',')
      ->check(CLI::Range(2u, 32u));
  RunsWithoutKeys(&s, [=] { return RunBenchCommand(*bo); });
  return s;
}

Subcommand Keys(CLI::App& app) {
  Subcommand s = Make(app, "keys", "list configuration keys");
  RunsWithoutKeys(&s, [=] { return PrintConfigKeys(); });
  return s;
}

Subcommand Coll(CLI::App& app) {
  Subcommand s = Make(app, "coll", "plan, validate and run one collective");
  KeyOptions& k = *s.keys;
  auto co = std::make_shared<CollOptions>();
  k.Alias("--topology", "package.topology");
  k.Alias("-k,--k", "package.k");
  k.Alias("--algo", "coll.algo",
          "algorithm: auto (cheapest by the measured costs) or " + coll::AlgorithmNames());
  k.Alias("--collective", "coll.collective", coll::CollectiveNames());
  k.Alias("--type", "coll.type", "int32 or fp32");
  k.Alias("--op", "coll.op",
          "the reduction: sum, prod, min, max (int32 signed, fp32 with the engine's rounding and "
          "special values), and, or, xor (int32)");
  k.Alias("--size", "coll.size", "bytes per node: 64, 4K, 2M");
  k.Alias("--root", "coll.root", "root of reduce and broadcast");
  k.Alias("--embeddings", "coll.embeddings");
  k.Alias("--levels", "coll.levels");
  k.Alias("--ring-map", "coll.ring_map");
  k.Alias("--ring-dirs", "coll.ring_dirs");
  k.Alias("--groups", "coll.groups");
  k.Alias("--counts", "coll.counts");
  k.Alias("--seed", "sim.seed", "input generator seed");
  k.Alias("--model", "sim.model",
          "node model: rtl (the Verilated RTL; what auto means for one run), fast (the "
          "cycle-equivalent C++ model, proven equal pin by pin), check (both in lockstep, every "
          "pin compared every cycle)");
  k.Switch("--verify", "coll.verify");
  k.Alias("--costs", "coll.costs", "--algo auto: measured cost file (aries coll-sweep --csv)");
  s.app->add_option("--inputs", co->inputs,
                    "per-node input files, {node} in the path: in/node{node}.npy (.npy or raw "
                    "little-endian); each holds the node's whole buffer (all-gather: the "
                    "gathered size, the node's shard in place; alltoallv: its send and "
                    "receive areas)");
  s.app->add_option("--outputs", co->outputs,
                    "per-node result files (the node's result region), {node} in the path");
  s.app->add_flag("--energy", co->energy,
                  "energy of the run from its activity (buffers, crossbar, allocators, links, "
                  "engine, leakage)");
  s.app->add_option("--tech", co->tech,
                    "technology file: dsent45 (default), dsent32 or a path (implies --energy)");
  s.app->add_option("--tech-set", co->tech_set,
                    "override a technology figure: key=value (repeatable; implies --energy)");
  s.app->add_option("--energy-csv", co->energy_csv,
                    "write the activity and energy per node and per link (implies --energy)");
  s.app->add_option("--json", co->json,
                    "write the measurement as JSON (request, results, energy, provenance)");
  s.app->add_flag("--progress", co->progress,
                  "progress on stderr about once a second (by itself on a terminal)");
  auto trace_nodes = std::make_shared<std::string>("all");
  s.app->add_option("--trace", co->trace.file,
                    "write a waveform of the RTL, FILE.fst (or FILE.vcd), and FILE.gtkw, a "
                    "GTKWave save file");
  s.app->add_option("--trace-nodes", *trace_nodes, "nodes to trace: all, or ids like 0,5");
  s.app->add_option("--trace-from", co->trace.from, "first cycle --trace and --timeline record");
  s.app->add_option("--trace-to", co->trace.to, "cycle after the last one they record")
      ->default_str("the end of the run");
  s.app
      ->add_option("--trace-op", co->trace_op,
                   "with --trace: follow one message, op OP of node NODE's program (a send): "
                   "trace only its path and cycles, with markers at its injection and ejection")
      ->type_name("NODE:OP");
  s.app->add_option("--packet-log", co->trace.packet_log,
                    "write every flit's every hop as CSV (collective flits: id, operation, "
                    "sequence)");
  s.app->add_option("--timeline", co->trace.timeline,
                    "write the run as trace-event JSON (Perfetto, chrome://tracing): each "
                    "node's ops, each flit's hops");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    CollOptions o = *co;
    o.trace.nodes = ParseTraceNodes(*trace_nodes);
    return RunCollectiveCommand(CollRequest(keys->Resolve(&outer), o));
  };
  return s;
}

Subcommand CollSweep(CLI::App& app) {
  Subcommand s = Make(app, "coll-sweep",
                      "a collective (all-reduce by default) over algorithms x topologies x sizes, "
                      "verified; Markdown table and cost CSV");
  KeyOptions& k = *s.keys;
  auto cs = std::make_shared<CollSweepOptions>();
  struct Lists {
    std::string topologies = "mesh,torus,aries,fbfly", algos = "all", sizes = "1K,64K,2M";
  };
  auto lists = std::make_shared<Lists>();
  k.Alias("-k,--k", "package.k");
  s.app->add_option("--topologies", lists->topologies, "comma-separated: mesh,torus,aries,fbfly");
  s.app->add_option("--algos", lists->algos, "comma-separated algorithms or all");
  s.app->add_option("--sizes", lists->sizes, "comma-separated bytes per node: 1K,64K,2M");
  k.Alias("--type", "coll.type");
  k.Alias("--collective", "coll.collective", coll::SweptNames());
  k.Alias("--groups", "coll.groups",
          fmt::format("communicators all at once: all, or a named shape ({})",
                      coll::GroupShapeNames()));
  s.app->add_option("--csv", cs->csv,
                    "append the measurements to this CSV (the --algo auto cost file format)");
  k.Alias("--seed", "sim.seed", "input generator seed");
  k.Alias("--model", "sim.model",
          "node model of every run: auto (the fast C++ model, the same cycles), rtl, check");
  s.app
      ->add_option("--jobs", cs->jobs,
                   "run the sweep as one job per (algorithm, topology, size) on this many local "
                   "processes; parts merge into --csv")
      ->check(CLI::Range(1u, 256u));
  s.app->add_option("--job-file", cs->job_file,
                    "write the jobs' command lines to this file instead (GNU parallel, Slurm "
                    "array); merge with coll-merge");
  s.app->add_option("--job-dir", cs->job_dir,
                    "where the jobs write their part CSVs (default: <csv or job file>.parts)");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    CollSweepOptions o = CollSweepRequest(keys->Resolve(&outer), *cs);
    o.topologies = ParseTopologyList(lists->topologies, "--topologies");
    o.algos = ParseAlgoList(lists->algos, "--algos");
    o.sizes = ParseSizeList(lists->sizes, "--sizes");
    return RunCollSweep(o);
  };
  return s;
}

Subcommand CollMerge(CLI::App& app) {
  Subcommand s = Make(app, "coll-merge", "merge sweep part CSVs into one cost CSV");
  struct Args {
    std::vector<std::string> parts;
    std::string out;
  };
  auto a = std::make_shared<Args>();
  s.app->add_option("parts", a->parts, "part CSVs")->required();
  s.app->add_option("--csv", a->out, "the merged CSV")->required();
  RunsWithoutKeys(&s, [=] { return RunCollMerge(a->parts, a->out); });
  return s;
}

Subcommand CollModels(CLI::App& app) {
  Subcommand s =
      Make(app, "coll-models",
           "the cost models of a sweep CSV (one collective): alpha-beta fits and their errors");
  s.keys->Alias("--costs", "coll.costs", "sweep CSV");
  s.keys->Alias("--type", "coll.type");
  s.keys->Alias("--collective", "coll.collective", coll::SweptNames());
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    const Config c = keys->Resolve(&outer);
    const auto kind = coll::ParseCollective(c.Get("coll.collective"));
    if (!kind || !coll::Swept(*kind)) BadKey(c, "coll.collective", coll::SweptNames());
    return RunCollModels(c.Get("coll.costs"), KeyWord(c, "coll.type"), *kind);
  };
  return s;
}

Subcommand Train(CLI::App& app) {
  Subcommand s = Make(app, "train",
                      "one training iteration: compute and communication streams, collective "
                      "times from the fitted cost models");
  KeyOptions& k = *s.keys;
  auto to = std::make_shared<TrainOptions>();
  k.Alias("--workload", "train.workload");
  k.Alias("--strategy", "train.strategy");
  k.Alias("--topology", "package.topology");
  k.Alias("-k,--k", "package.k");
  k.Alias("--algo", "coll.algo", "collective algorithm (its measured cost model)");
  k.Alias("--levels", "coll.levels");
  k.Alias("--embeddings", "coll.embeddings");
  k.Alias("--batch", "train.batch");
  k.Alias("--bucket", "train.bucket");
  k.Alias("--utilization", "train.utilization");
  k.Alias("--costs", "coll.costs");
  s.app->add_option("--timeline", to->timeline,
                    "write the iteration's operations: FILE.json as trace-event JSON (Perfetto, "
                    "chrome://tracing), another name as CSV");
  s.app->add_option("--plot", to->plot,
                    "draw the iteration's timeline (matplotlib): STEM.svg, STEM.pdf, STEM.png");
  s.app->add_flag("--check", to->check,
                  "re-run every collective of the iteration up to --check-max cycle-accurately "
                  "and print the model's error");
  k.Alias("--check-max", "train.check_max");
  k.Alias("--model", "sim.model", "node model of --check's runs (auto: fast)");
  k.Alias("--microbatches", "train.microbatches");
  k.Alias("--memory", "train.memory");
  s.app->add_flag("--search", to->search,
                  "enumerate flat, nested and pipelined strategies on each of --topologies, "
                  "prune those over --memory, print the best against fsdp (--check: run the "
                  "collectives of the --top best cycle-accurately)");
  auto topologies = std::make_shared<std::string>("aries,mesh,torus");
  CLI::Option* topologies_opt =
      s.app->add_option("--topologies", *topologies, "--search: comma-separated packages");
  CLI::Option* top_opt =
      s.app->add_option("--top", to->top, "--search: strategies printed per package");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    TrainOptions o = TrainRequest(keys->Resolve(&outer), *to);
    // The search's own options without it, one run's outputs with it: refused, not ignored.
    for (const CLI::Option* opt : {topologies_opt, top_opt}) {
      if (!o.search && opt->count() > 0) {
        throw ConfigError(opt->get_name() + ": only with --search (its packages and table)");
      }
    }
    if (o.search && !(o.timeline.empty() && o.plot.empty())) {
      throw ConfigError(std::string(o.timeline.empty() ? "--plot" : "--timeline") +
                        ": only without --search (one iteration's timeline; the search prints "
                        "a table of strategies)");
    }
    o.search_topologies = ParseTopologyList(*topologies, "--topologies");
    return RunTrainCommand(o);
  };
  return s;
}

Subcommand Fig10(CLI::App& app) {
  Subcommand s = Make(app, "fig10",
                      "ARIES Fig. 10: training-time speedup of ARIES over mesh, torus, flattened "
                      "butterfly (ring, DB tree, multi-tree)");
  auto fo = std::make_shared<Fig10Options>();
  auto ks = std::make_shared<std::string>("4,8");
  auto workloads = std::make_shared<std::string>("resnet50,vgg16,dlrm,transformer");
  s.app->add_option("-k,--k", *ks, "comma-separated: 4,8");
  s.app->add_option("--workloads", *workloads, "comma-separated workloads");
  s.keys->Alias("--batch", "train.batch");
  s.keys->Alias("--utilization", "train.utilization");
  s.keys->Alias("--costs", "coll.costs");
  s.keys->Alias("--preset", "eval.preset");
  s.app->add_option("--csv", fo->csv, "write every iteration as CSV");
  s.app->add_option("--plot", fo->plot,
                    "draw the speedups (matplotlib): STEM.svg, STEM.pdf, STEM.png");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    Fig10Options o = Fig10Request(keys->Resolve(&outer), *fo);
    o.ks = ParsePaperKs(*ks);
    o.workloads = SplitList(*workloads, "--workloads");
    return RunFig10Command(o);
  };
  return s;
}

Subcommand Fig9(CLI::App& app) {
  Subcommand s = Make(app, "fig9",
                      "ARIES Fig. 9: all-reduce throughput vs data size (ring/ARIES_LT/ARIES_BW, "
                      "DB tree, multi-tree) from a sweep CSV");
  auto f9 = std::make_shared<Fig9Options>();
  auto ks = std::make_shared<std::string>("4,8");
  s.app->add_option("-k,--k", *ks, "comma-separated: 4,8");
  s.keys->Alias("--costs", "coll.costs");
  s.keys->Alias("--preset", "eval.preset");
  s.app->add_option("--csv", f9->csv, "write the curves as CSV");
  s.app->add_option("--plot", f9->plot,
                    "draw the curves (matplotlib): STEM.svg, STEM.pdf, STEM.png");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    Fig9Options o = *f9;
    const Config c = keys->Resolve(&outer);
    o.costs = c.Get("coll.costs");
    o.preset = KeyWord(c, "eval.preset");
    o.ks = ParsePaperKs(*ks);
    return RunFig9Command(o);
  };
  return s;
}

Subcommand Fig11(CLI::App& app) {
  Subcommand s = Make(app, "fig11",
                      "ARIES Fig. 11: all-reduce energy per algorithm family and topology "
                      "(cycle-accurate runs, verified)");
  auto f11 = std::make_shared<Fig11Options>();
  auto ks = std::make_shared<std::string>("4");
  auto size = std::make_shared<std::string>("64K");
  s.app->add_option("-k,--k", *ks, "comma-separated: 4,8");
  s.app->add_option("--size", *size, "bytes per node: 64K");
  s.keys->Alias("--model", "sim.model", "node model of the runs (auto: fast)");
  s.keys->Alias("--preset", "eval.preset");
  s.app->add_option("--tech", f11->tech, "technology file: dsent45, dsent32 or a path");
  s.app->add_option("--tech-set", f11->tech_set,
                    "override a technology figure: key=value (repeatable)");
  s.app->add_option("--csv", f11->csv, "write the energies as CSV");
  s.app->add_option("--plot", f11->plot,
                    "draw the energies (matplotlib): STEM.svg, STEM.pdf, STEM.png");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    Fig11Options o = *f11;
    const Config c = keys->Resolve(&outer);
    o.model = KeyWord(c, "sim.model");
    o.preset = KeyWord(c, "eval.preset");
    o.ks = ParsePaperKs(*ks);
    o.bytes = ParseElementBytes(*size, "--size");
    return RunFig11Command(o);
  };
  return s;
}

Subcommand Table1(CLI::App& app) {
  Subcommand s = Make(app, "table1",
                      "ARIES Table I: links, bandwidth per link and synchronization steps of the "
                      "planned all-reduces beside the formulas");
  struct Args {
    std::string ks = "4,8", csv, plot;
  };
  auto a = std::make_shared<Args>();
  s.app->add_option("-k,--k", a->ks, "comma-separated: 4,8,16");
  s.app->add_option("--csv", a->csv, "write the table as CSV");
  s.app->add_option("--plot", a->plot,
                    "draw links and steps, formula vs planned (matplotlib): STEM.svg, .pdf, .png");
  RunsWithoutKeys(&s, [=] { return RunTable1Command(ParseTable1Ks(a->ks), a->csv, a->plot); });
  return s;
}

Subcommand Area(CLI::App& app) {
  Subcommand s = Make(app, "area",
                      "synthesize the mesh-baseline and ARIES nodes (Yosys) and report the ARIES "
                      "area overhead; --router adds the full router");
  auto ao = std::make_shared<AreaOptions>();
  s.app->add_option("--out", ao->out, "output directory (netlists, area JSON)");
  s.app->add_option("--lanes", ao->lanes, "32-bit lanes per flit (16: the 544-bit flit)");
  s.app->add_option("--vcs", ao->vcs, "router VCs");
  s.app->add_option("--depth", ao->depth,
                    "buffer depth of the node runs (the overhead does not depend on it)");
  s.app->add_option("--flows", ao->flows, "routing-table flows");
  s.app->add_option("--tracks", ao->tracks, "bypass tracks per row and column (ARIES node)");
  s.app->add_flag("--router", ao->router,
                  "also the full-depth router per sub-block (router_area.py, ~12 min)");
  s.app->add_flag("--engine", ao->engine,
                  "also the collective engine (synthesized at 1 and 2 lanes, extrapolated)");
  s.app
      ->add_option("--timing-liberty", ao->timing_liberty,
                   "a liberty with timing (NangateOpenCellLibrary_typical.lib): OpenSTA times "
                   "both nodes at 1 GHz (synth_scripts/sta.py)")
      ->check(CLI::ExistingFile);
  RunsWithoutKeys(&s, [=] { return RunAreaCommand(*ao); });
  return s;
}

Subcommand Report(CLI::App& app) {
  Subcommand s = Make(app, "report",
                      "reproduce the ARIES evaluation (Table I, Figs. 9-11, area) into one "
                      "Markdown report with plots");
  auto ro = std::make_shared<ReportOptions>();
  s.app->add_option("--out", ro->out, "output directory (report.md, CSVs, figures)");
  s.app->add_option("-k,--k", ro->ks, "K for Table I, Figs. 9 and 10: 4,8");
  s.app->add_option("--fig11-k", ro->fig11_ks, "K for the energy runs (cycle-accurate): 4 or 4,8");
  s.app->add_option("--area", ro->area,
                    "directory with node_area.json / router_area.json from synth_scripts");
  s.keys->Alias("--preset", "eval.preset");
  s.keys->Alias("--model", "sim.model", "node model of Fig. 11's energy runs (auto: fast)");
  KeyOptions* keys = s.keys.get();
  s.run = [=](const KeyOptions& outer) {
    ReportOptions o = *ro;
    const Config& c = keys->Resolve(&outer);
    o.preset = KeyWord(c, "eval.preset");
    o.model = KeyWord(c, "sim.model");
    return RunReportCommand(o);
  };
  return s;
}

// `pattern` for every node of a K x K package when it holds "{node}", else itself.
std::vector<std::string> PerNode(const std::string& pattern, const Config& c) {
  const size_t at = pattern.find("{node}");
  if (at == std::string::npos) return {pattern};
  std::vector<std::string> paths;
  const unsigned k = static_cast<unsigned>(std::stoul(c.Get("package.k")));
  for (unsigned n = 0; n < k * k; ++n)
    paths.push_back(std::string(pattern).replace(at, 6, std::to_string(n)));
  return paths;
}

// The files `a`'s given options name: its outputs (a plot's three files, a waveform's three)
// into `outputs`, its inputs into `inputs`.
void OptionFiles(const CLI::App* a, const Config& c, std::vector<RunFile>* inputs,
                 std::vector<RunFile>* outputs) {
  static const char* const kOutputs[] = {"--json",     "--csv",        "--plot",
                                         "--timeline", "--energy-csv", "--job-file",
                                         "--trace",    "--packet-log", "--outputs"};
  static const char* const kInputs[] = {"--config", "--inputs", "--tech"};
  for (const CLI::Option* opt : a->get_options()) {
    if (opt->count() == 0) continue;
    for (const std::string& v : opt->results()) {
      if (opt->get_name() == "parts") inputs->push_back({"coll-merge", v});  // its part CSVs
      for (const char* name : kInputs) {
        if (!opt->check_lname(name + 2)) continue;
        for (const std::string& p : PerNode(v, c)) inputs->push_back({name, p});
      }
      for (const char* name : kOutputs) {
        if (!opt->check_lname(name + 2)) continue;
        std::vector<std::string> paths = PerNode(v, c);
        if (std::string(name) == "--plot") {
          const std::string stem = PlotStem(v);
          paths = {stem + ".svg", stem + ".pdf", stem + ".png"};
          CheckPlotter();
        } else if (std::string(name) == "--trace") {
          paths = {v, GtkwPathOf(v), FlitFilterPath(GtkwPathOf(v))};
        }
        for (const std::string& p : paths) {
          CheckOutputPath(p, name);
          outputs->push_back({name, p});
        }
      }
    }
  }
}

// The files the run reads through its keys (trace, faults, costs, counts, workload).
void KeyFiles(const Config& c, std::vector<RunFile>* inputs) {
  for (const char* key :
       {"traffic.trace", "package.fault_file", "coll.costs", "coll.counts", "train.workload"}) {
    std::error_code ec;
    const std::string& v = c.Get(key);
    if (!v.empty() && std::filesystem::exists(v, ec)) inputs->push_back({key, v});
  }
}

// Before the parsed command runs: every output can be written where it is named, and no output
// is an input of the run or another output (both named).
void CheckRunFiles(const CLI::App& top, const CLI::App* sub, const Config& c) {
  std::vector<RunFile> inputs, outputs;
  OptionFiles(&top, c, &inputs, &outputs);
  if (sub) OptionFiles(sub, c, &inputs, &outputs);
  KeyFiles(c, &inputs);
  CheckDistinct(inputs, outputs);
}

// "; did you mean 'coll'?" when `e` refuses a word that is near a subcommand or an option of
// any subcommand; "" otherwise.
std::string Nearest(const CLI::ParseError& e, const CLI::App& app) {
  const std::string what = e.what();
  const auto colon = what.find("expected: ");
  if (colon == std::string::npos) return "";
  std::vector<std::string> names = Subcommands();
  auto options = [&names](const CLI::App* a) {
    for (const CLI::Option* o : a->get_options()) {
      for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
    }
  };
  options(&app);
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) options(s);
  std::istringstream words(what.substr(colon + 10));  // the words not expected
  for (std::string word; words >> word;) {
    // An option of other subcommands, given where it does not act: name where it does.
    std::string owners;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
      for (const CLI::Option* o : s->get_options()) {
        if (word.rfind("--", 0) == 0 && o->check_lname(word.substr(2))) {
          owners += (owners.empty() ? "" : ", ") + s->get_name();
        }
      }
    }
    if (!owners.empty()) return fmt::format("; {} acts on aries {} only", word, owners);
    const std::string hint = DidYouMean(word, names);
    if (!hint.empty()) return fmt::format("; '{}':{}", word, hint.substr(1));
  }
  return "";
}

}  // namespace

namespace {

// The top-level app: its description, version flag, footer and help layout.
void ConfigureTop(CLI::App* app) {
  app->formatter(std::make_shared<WrappingFormatter>());
  app->set_version_flag("--version", VersionText(), "print the version, commit and tool versions");
  app->require_subcommand(0, 1);
  app->footer(
      "With no arguments: all-reduce on 4x4 ARIES beside a 4x4 mesh (every element verified), "
      "then the point-to-point run. Options without a subcommand: the point-to-point run (aries "
      "run).\n\nExamples:\n  aries\n  aries run -k 8 --topology mesh --rate 0.3\n"
      "  aries coll --algo dbt --size 64K --verify\n  aries report --out report");
  // --help shows every option's default (the key aliases say theirs in their text).
  app->option_defaults()->always_capture_default();
}

// Every subcommand, in the order --help lists them.
std::vector<Subcommand> AddSubcommands(CLI::App& app, RunOutputs* outputs, sysc::Transport** net) {
  std::vector<Subcommand> subs;
  subs.push_back(PackageRuns(app, "run", "one simulation run (the default)", outputs, net));
  subs.push_back(PackageRuns(app, "sweep", "injection-rate sweep over sweep.rates", outputs, net));
  subs.push_back(Bench(app));
  subs.push_back(Keys(app));
  subs.push_back(Coll(app));
  subs.push_back(CollSweep(app));
  subs.push_back(CollMerge(app));
  subs.push_back(CollModels(app));
  subs.push_back(Train(app));
  subs.push_back(Fig10(app));
  subs.push_back(Fig9(app));
  subs.push_back(Fig11(app));
  subs.push_back(Table1(app));
  subs.push_back(Area(app));
  subs.push_back(Report(app));
  return subs;
}

// Refuses what the parsed subcommand `s` would ignore: the run's outputs given before another
// subcommand, and any subcommand but run and sweep under mpirun.
void RefuseMisplaced(const Subcommand& s, const RunOutputs& outputs, const sysc::Transport* net) {
  const std::string name = s.app->get_name();
  if (outputs.Given() && !s.distributed) {
    throw ConfigError(fmt::format(
        "aries {}: --json, --csv and --trace before the subcommand apply to run and sweep "
        "only; give {} its own options (aries {} --help)",
        name, name, name));
  }
  if (net && !s.distributed) {
    throw ConfigError(fmt::format(
        "aries {} under mpirun ({} ranks): only `run` and `sweep` run distributed; start it "
        "as one process",
        name, net->ranks()));
  }
}

// Runs what was parsed: the subcommand, or without one the default run (no arguments at all:
// the collective tour, then the point-to-point run) or the point-to-point run alone.
int Dispatch(const CLI::App& app, const std::vector<Subcommand>& subs, const KeyOptions& top_keys,
             const RunOutputs& outputs, sysc::Transport* net, int argc) {
  for (const Subcommand& s : subs) {
    if (!s.app->parsed()) continue;
    RefuseMisplaced(s, outputs, net);
    CheckRunFiles(app, s.app, s.keys->Resolve(&top_keys));
    return s.run(top_keys);
  }
  CheckRunFiles(app, nullptr, top_keys.Resolve());
  if (argc == 1 && !net) {
    const bool tour_ok = RunCollectiveTour(4, {1024, 64 * 1024});
    PrintPointToPointIntro();
    const int rc = RunPackageCommand(outputs.Command(top_keys.Resolve(), false), net);
    return tour_ok ? rc : 1;
  }
  return RunPackageCommand(outputs.Command(top_keys.Resolve(), false), net);
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  RecordInvocation(argc, argv);
  CLI::App app{"ARIES-sim: cycle-accurate chiplet interposer NoC (Verilated RTL in SystemC)",
               "aries"};
  ConfigureTop(&app);
  // Every subcommand reads the one key table (aries keys): --config FILE, --set key=value, and
  // its own flags as aliases of keys. The options before a subcommand apply to it too; alone
  // they are the default run's.
  KeyOptions top_keys(&app, "run");
  PackageRunFlags(&top_keys, false);
  RunOutputs outputs;
  outputs.Add(&app, false);
  sysc::Transport* net = nullptr;
  const std::vector<Subcommand> subs = AddSubcommands(app, &outputs, &net);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // The command line's own errors (an unknown option or subcommand, a value that is not a
    // number) as every other refusal: "error: ..." on stderr and status 2, with where to look
    // and, for a misspelt word, the nearest subcommand or option.
    fmt::print(stderr,
               "error: {}{} (aries --help lists the subcommands and options; aries "
               "SUBCOMMAND --help, a subcommand's)\n",
               e.what(), Nearest(e, app));
    return 2;
  }
  // Under mpirun every process is one rank of the package (run and sweep only); rank 0 prints
  // and writes the files.
  std::unique_ptr<MpiSession> mpi;
  try {
    mpi = StartMpiIfLaunched(&argc, &argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  }
  net = mpi ? &mpi->transport() : nullptr;
  if (net && net->rank() != 0 && !std::freopen("/dev/null", "w", stdout)) return 2;
  try {
    return Dispatch(app, subs, top_keys, outputs, net, argc);
  } catch (const ConfigError& e) {  // every rank refuses the same input: they all end here
    if (!net || net->rank() == 0) fmt::print(stderr, "error: {}\n", Printable(e.what()));
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", Printable(e.what()));
    std::fflush(stdout);
    if (mpi) mpi->Abort(2);  // the other ranks would wait for this one
    return 2;
  }
}

}  // namespace aries::sim
