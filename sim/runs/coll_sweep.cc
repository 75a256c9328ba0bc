#include "coll_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>
#include <vector>

#include "coll_run.h"
#include "files.h"
#include "planners.h"
#include "provenance.h"
#include "tuner.h"

namespace aries::sim {

namespace {

std::vector<std::string> ReadCsvLines(const std::string& path) {
  std::ifstream f(CheckInputFile(path, "coll-merge", kLargeInputLimit));
  if (!f) throw std::invalid_argument(fmt::format("{}: cannot open", path));
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);  // (# lines: provenance)
  }
  if (lines.empty() || lines[0] != coll::CostCsvHeader()) {
    throw std::invalid_argument(fmt::format("{}: not a sweep CSV (header '{}'; expected '{}')",
                                            path, lines.empty() ? "" : Excerpt(lines[0]),
                                            coll::CostCsvHeader()));
  }
  return lines;
}

// The Markdown table of merged sweep rows: one row per (candidate, topology), one column per size.
void PrintTableFromCsv(const std::vector<std::string>& rows, const std::vector<uint64_t>& sizes) {
  std::vector<std::string> order;
  std::map<std::string, std::map<uint64_t, std::string>> cells;
  for (const std::string& line : rows) {
    const std::vector<std::string> c = coll::CostCells(line);
    if (c.size() != coll::kCostCsvFields || c[0] == "topology") continue;
    const coll::Candidate cand{c[2],
                               static_cast<unsigned>(std::stoul(c[3])),
                               static_cast<unsigned>(std::stoul(c[4])),
                               {coll::ParseRingMap(c[15]).value_or(coll::RingMap::kSnake),
                                static_cast<unsigned>(std::stoul(c[16]))}};
    const std::string key = fmt::format("| {} | {}{}{} |", cand.Label(), c[0],
                                        c[17] == "1" ? "" : fmt::format(", {} local ports", c[17]),
                                        c[18] == "all" ? "" : ", " + c[18]);
    if (!cells.count(key)) order.push_back(key);
    cells[key][std::stoull(c[7])] =
        fmt::format(" {} ({:.1f}, {:.0f}%){} |", c[8], std::stod(c[9]), 100 * std::stod(c[10]),
                    c[11] == "1" ? "" : " FAILED");
  }
  for (const std::string& key : order) {
    std::string row = key;
    for (const uint64_t s : sizes) {
      const auto it = cells[key].find(s);
      row += it == cells[key].end() ? " n/a |" : it->second;
    }
    fmt::print("{}\n", row);
  }
}

}  // namespace

int RunCollMerge(const std::vector<std::string>& parts, const std::string& out) {
  if (parts.empty()) throw std::invalid_argument("coll-merge: no part files given");
  if (out.empty()) throw std::invalid_argument("coll-merge: --csv OUT is required");
  std::string text = std::string(coll::CostCsvHeader()) + "\n";
  size_t rows = 0;
  // Every row's fields and numbers (a run measured twice is kept: the cost models average
  // repeated runs): the columns that hold numbers, bytes and cycles above zero.
  const std::vector<std::string> names = coll::CostCells(coll::CostCsvHeader());
  static const unsigned kNumbers[] = {1, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19};
  for (const std::string& p : parts) {
    const auto lines = ReadCsvLines(p);  // all files checked before anything is written
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::vector<std::string> c = coll::CostCells(lines[i]);
      const std::string where = fmt::format("{} data row {}", p, i);
      if (c.size() != coll::kCostCsvFields) {
        throw std::invalid_argument(fmt::format("{}: {} fields; expected {} ({})", where, c.size(),
                                                coll::kCostCsvFields, coll::CostCsvHeader()));
      }
      for (const unsigned j : kNumbers) {
        const std::string& v = c[j];
        size_t pos = 0;
        double x = -1;
        try {
          x = std::stod(v, &pos);
        } catch (const std::logic_error&) {
        }
        const bool positive = names[j] == "bytes" || names[j] == "cycles";
        if (pos != v.size() || !(positive ? x > 0 : x >= 0)) {
          throw std::invalid_argument(fmt::format("{}: {} '{}': allowed a number {}", where,
                                                  names[j], v, positive ? "> 0" : ">= 0"));
        }
      }
      text += lines[i] + "\n";
    }
    rows += lines.size() - 1;
  }
  WriteOutputFile(out, text, "--csv");
  WriteCsvProvenance(out, "--csv");
  fmt::print("coll-merge: {} rows from {} files into {}\n", rows, parts.size(), out);
  return 0;
}

std::vector<coll::Topology> ParseTopologyList(const std::string& list, const char* option) {
  std::vector<coll::Topology> out;
  for (const auto& t : SplitList(list, option)) {
    const auto topo = coll::ParseTopology(t);
    if (!topo) {
      throw std::invalid_argument(
          fmt::format("{} {}: '{}' unknown; allowed {}", option, list, t, coll::TopologyNames()));
    }
    out.push_back(*topo);
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("{}: no topology given", option));
  return out;
}

std::vector<uint64_t> ParseSizeList(const std::string& list, const char* option) {
  std::vector<uint64_t> out;
  for (const auto& s : SplitList(list, option)) {
    const uint64_t b = ParseElementBytes(s, option);
    if (std::find(out.begin(), out.end(), b) != out.end()) {
      throw std::invalid_argument(
          fmt::format("{} {}: {} bytes given twice (allowed: each size once)", option, list, b));
    }
    out.push_back(b);
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("{}: no size given", option));
  return out;
}

std::vector<std::string> ParseAlgoList(const std::string& list, const char* option) {
  const auto algos = SplitList(list, option);
  if (algos.size() == 1 && algos[0] == "all") return {};
  for (const auto& a : algos) {
    if (!coll::FindAlgorithm(a)) {
      throw std::invalid_argument(fmt::format("{} {}: '{}' unknown; allowed all or {}", option,
                                              list, a, coll::AlgorithmNames()));
    }
  }
  if (algos.empty()) throw std::invalid_argument(fmt::format("{}: no algorithm given", option));
  return algos;
}

CollSweepOptions CollSweepRequest(const Config& c, CollSweepOptions o) {
  o.geometry = GeometryOf(c, false);  // the topologies are the sweep's list
  if (o.geometry.k > 16) BadKey(c, "package.k", "2 .. 16 for a sweep");
  const auto col = coll::ParseCollective(c.Get("coll.collective"));
  if (!col || !coll::Swept(*col)) BadKey(c, "coll.collective", coll::SweptNames());
  o.collective = *col;
  o.type = KeyWord(c, "coll.type");
  o.seed = KeyUint(c, "sim.seed");
  o.model = KeyWord(c, "sim.model");  // auto: the fast model
  o.groups = c.Get("coll.groups");
  if (o.groups != "all") {
    // A named shape (the cost file names its rows' communicators), not a list of ids; a shape
    // that does not fit K is refused with the planner's reason.
    if (!coll::IsGroupShape(o.groups)) {
      BadKey(c, "coll.groups",
             fmt::format("all or a named shape for a sweep ({}; the cost file names its rows' "
                         "communicators)",
                         coll::GroupShapeNames()));
    }
    try {
      coll::ParseGroups(o.groups, o.geometry.k);
    } catch (const coll::PlanError& e) {
      BadKey(c, "coll.groups", e.what());
    }
  }
  return o;
}

namespace {

// Whether the sweep runs algorithm `a`: named in --algos (or all of them), and with --groups one
// that plans communicators.
bool Selected(const CollSweepOptions& o, const coll::AlgorithmInfo& a) {
  if (o.groups != "all" && !a.communicators) return false;
  return o.algos.empty() ||
         std::find(o.algos.begin(), o.algos.end(), std::string(a.name)) != o.algos.end();
}

// Refuses an algorithm named in --algos that would make no row of the sweep, instead of leaving
// it out of the table without a word (all: each serves where it can).
void RefuseAlgosWithoutRows(const CollSweepOptions& o) {
  const bool grouped = o.groups != "all";
  for (const std::string& name : o.algos) {
    const coll::AlgorithmInfo& a = *coll::FindAlgorithm(name);
    std::string why;
    if (!a.Serves(o.collective)) {
      why = fmt::format("it does not implement {}", coll::CollectiveName(o.collective));
    } else if (grouped && !a.communicators) {
      why = fmt::format("it plans no communicators (--groups {})", o.groups);
    } else if (std::none_of(o.topologies.begin(), o.topologies.end(),
                            [&](coll::Topology t) { return a.Serves(t); })) {
      std::string where;
      for (coll::Topology t : a.topologies)
        where += std::string(where.empty() ? "" : ", ") + coll::TopologyName(t);
      why = fmt::format("it applies to none of the topologies swept (it applies to {})", where);
    }
    if (!why.empty()) {
      throw std::invalid_argument(
          fmt::format("--algos: {} makes no row of this sweep: {}", name, why));
    }
  }
}

// The Markdown table's heading: algorithm, topology, then a column per size.
void PrintTableHead(const std::vector<uint64_t>& sizes) {
  std::string head = "| algorithm | topology |", rule = "|---|---|";
  for (const uint64_t s : sizes) {
    head += fmt::format(" {} |", SizeLabel(s));
    rule += "---|";
  }
  fmt::print("{}\n{}\n", head, rule);
}

// The sweep as jobs, one per (algorithm, topology, size): each an `aries coll-sweep` command
// line, the part CSV it writes under `dir`, and its rough work.
struct SweepJobs {
  std::string dir;  // absolute: jobs may run elsewhere
  std::vector<std::string> commands, parts;
  std::vector<double> cost;  // bytes, times 3 on the 15-port butterfly
};

// The jobs of sweep `o` run by the executable `exe`; creates their folder.
SweepJobs MakeJobs(const CollSweepOptions& o, const std::string& exe) {
  SweepJobs jobs;
  jobs.dir = !o.job_dir.empty() ? o.job_dir : (o.job_file.empty() ? o.csv : o.job_file) + ".parts";
  std::filesystem::create_directories(jobs.dir);
  jobs.dir = std::filesystem::absolute(jobs.dir).lexically_normal().string();
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    if (!a.Serves(o.collective)) continue;
    if (!Selected(o, a)) continue;
    for (const coll::Topology t : o.topologies) {
      if (!a.Serves(t)) continue;
      for (const uint64_t sz : o.sizes) {
        const std::string part = fmt::format("{}/part-{:05}.csv", jobs.dir, jobs.commands.size());
        jobs.parts.push_back(part);
        jobs.cost.push_back(static_cast<double>(sz) * (t == coll::Topology::kFbfly ? 3.0 : 1.0));
        // Every value was checked against its allowed set above (names, sizes, numbers), so
        // none carries shell syntax; the paths are quoted (ShellQuote).
        jobs.commands.push_back(fmt::format(
            "{} coll-sweep -k {} --collective {} --type {} --seed {} --model {} "
            "--set package.tracks={} --set package.link_latency={} "
            "--set package.extra_per_pitch={} --set node.local_ports={} --set coll.groups={} "
            "--algos {} --topologies {} --sizes {} --csv {} > {} 2>&1",
            ShellQuote(exe), o.geometry.k, coll::CollectiveName(o.collective), o.type, o.seed,
            o.model, o.geometry.tracks, o.geometry.link_latency, o.geometry.extra_per_pitch,
            o.geometry.local_ports, o.groups, a.name, coll::TopologyName(t), SizeLabel(sz),
            ShellQuote(part), ShellQuote(part + ".log")));
      }
    }
  }
  return jobs;
}

// --job-file: writes the jobs' command lines, one a line, and prints how to run and merge them.
void WriteJobFile(const std::string& job_file, const SweepJobs& jobs, const std::string& exe) {
  std::string text;
  for (const auto& j : jobs.commands) text += j + "\n";
  WriteOutputFile(job_file, text, "--job-file");
  fmt::print(
      "{} jobs written to {} (one command per line; each writes {}/part-NNNNN.csv)\n"
      "  local or over ssh:  parallel -j 2 < {}\n"
      "  Slurm job array:    sbatch --array=1-{} --wrap 'sed -n \"${{SLURM_ARRAY_TASK_ID}}p\" "
      "{} | bash'\n"
      "  then merge:         {} coll-merge {}/part-*.csv --csv merged.csv\n",
      jobs.commands.size(), job_file, jobs.dir, job_file, jobs.commands.size(), job_file, exe,
      jobs.dir);
}

// Runs the jobs on `processes` local processes, longest first (so that the last jobs are short
// and no process idles long at the end), each line of progress on stderr; returns how many
// exited non-zero.
int RunJobs(const SweepJobs& jobs, unsigned processes) {
  const std::vector<std::string>& commands = jobs.commands;
  std::vector<size_t> order(commands.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs.cost[a] > jobs.cost[b]; });
  std::atomic<size_t> next{0}, done{0};
  std::atomic<int> failed{0};
  std::mutex print_mu;
  auto worker = [&] {
    for (size_t j; (j = next++) < commands.size();) {
      const size_t i = order[j];
      const int rc = std::system(commands[i].c_str());
      if (rc != 0) ++failed;
      std::lock_guard<std::mutex> lock(print_mu);
      fmt::print(stderr, "  job {}/{} {}{}\n", ++done, commands.size(), jobs.parts[i],
                 rc ? " FAILED (see its .log)" : "");
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 0; i < std::min<size_t>(processes, commands.size()); ++i)
    pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return failed.load();
}

// The rows of the part files, in the table's order (a job that applied nowhere, n/a, writes no
// part).
std::vector<std::string> ReadPartRows(const std::vector<std::string>& parts) {
  std::vector<std::string> rows;
  for (const auto& p : parts) {
    if (!std::ifstream(p).good()) continue;
    const auto lines = ReadCsvLines(p);
    rows.insert(rows.end(), lines.begin() + 1, lines.end());
  }
  return rows;
}

// --csv opened to append the sweep's rows (the header when the file is new; an existing file
// must have this version's columns); null without --csv. The rows go into place, with the
// provenance beside them, at CommitSweepCsv.
std::unique_ptr<OutputFile> OpenSweepCsv(const std::string& path) {
  if (path.empty()) return nullptr;
  std::error_code ec;
  const bool fresh = !std::filesystem::exists(path, ec);
  if (!fresh) {  // rows are appended: the file must have this version's columns
    std::ifstream in(CheckInputFile(path, "--csv", kLargeInputLimit));
    std::string first;
    while (std::getline(in, first) && !first.empty() && first[0] == '#') {
    }
    if (!first.empty() && first != coll::CostCsvHeader()) {
      throw std::invalid_argument(fmt::format(
          "--csv {}: its header '{}' is not this version's '{}' (the geometry, ring and "
          "local-port columns); write the sweep to a new file",
          path, Excerpt(first), coll::CostCsvHeader()));
    }
  }
  auto csv = std::make_unique<OutputFile>(path, "--csv", OutputFile::Mode::kAppend);
  if (fresh) csv->stream() << coll::CostCsvHeader() << "\n";
  return csv;
}

// Puts the sweep's CSV in place and its provenance beside it (appended to when it was there).
void CommitSweepCsv(OutputFile* csv) {
  if (!csv) return;
  std::error_code ec;
  const bool existed = std::filesystem::exists(csv->path(), ec);
  csv->Commit();
  WriteCsvProvenance(csv->path(), "--csv", existed);
}

// The runs among sweep CSV rows that failed: their `ok` column (12th of CostCsvHeader) not 1.
int CountFailedRows(const std::vector<std::string>& rows) {
  int bad = 0;
  for (const auto& r : rows) {
    const std::vector<std::string> c = coll::CostCells(r);
    bad += c.size() == coll::kCostCsvFields && c[11] == "1" ? 0 : 1;
  }
  return bad;
}

// Removes the parts (CSV, provenance, log), and their folder when nothing else is in it.
void RemoveParts(const SweepJobs& jobs) {
  for (const auto& p : jobs.parts) {
    for (const char* ext : {"", ".provenance.json", ".log"}) std::remove((p + ext).c_str());
  }
  std::error_code ec;
  std::filesystem::remove(jobs.dir, ec);  // (only when empty)
}

// --jobs N and --job-file: the sweep split into jobs, written out for another machine to run
// (--job-file), or run on N local processes, merged into --csv and printed as the table.
int RunSweepJobs(const CollSweepOptions& o) {
  if (o.jobs > 1 && o.csv.empty())
    throw std::invalid_argument("--jobs: give --csv, where the parts merge");
  const std::string exe = SelfExe();
  const SweepJobs jobs = MakeJobs(o, exe);
  if (!o.job_file.empty()) {
    WriteJobFile(o.job_file, jobs, exe);
    return 0;
  }
  auto csv = OpenSweepCsv(o.csv);  // its columns checked before the jobs run
  for (const auto& p : jobs.parts) std::remove(p.c_str());  // a rerun starts clean
  const int failed = RunJobs(jobs, o.jobs);
  const std::vector<std::string> rows = ReadPartRows(jobs.parts);
  for (const auto& r : rows) csv->stream() << r << "\n";
  CommitSweepCsv(csv.get());
  fmt::print(
      "{} {} on {}x{}: {} jobs on {} local processes, {} rows merged into {} (node model "
      "{})\n\n",
      coll::CollectiveName(o.collective), o.type, o.geometry.k, o.geometry.k, jobs.commands.size(),
      o.jobs, rows.size(), o.csv, ResolveModel(o.model, RunScale::kMany));
  PrintTableHead(o.sizes);
  PrintTableFromCsv(rows, o.sizes);
  const int bad_runs = CountFailedRows(rows);
  if (failed > 0) fmt::print("\n{} jobs exited non-zero (their .log files say why)\n", failed);
  if (bad_runs > 0) fmt::print("\n{} runs FAILED\n", bad_runs);
  if (failed > 0 || bad_runs > 0) return 1;  // the parts and logs stay, to look into
  // Merged and every run verified: the parts go.
  RemoveParts(jobs);
  return 0;
}

// " (T tracks, L-cycle links, E extra cycles per pitch, P local ports)" for a geometry other
// than the default, else "".
std::string GeometryNote(const coll::Geometry& g) {
  const coll::Geometry def;
  if (g.tracks == def.tracks && g.link_latency == def.link_latency &&
      g.extra_per_pitch == def.extra_per_pitch && g.local_ports == def.local_ports) {
    return "";
  }
  return fmt::format(" ({} tracks, {}-cycle links, {} extra cycles per pitch, {} local port{})",
                     g.tracks, g.link_latency, g.extra_per_pitch, g.local_ports,
                     g.local_ports == 1 ? "" : "s");
}

// The sweep's heading: the collective, package and communicators, what each cell holds, and
// the table's head.
void PrintSweepHeading(const CollSweepOptions& o) {
  const unsigned k = o.geometry.k;
  fmt::print(
      "{} {} on {}x{}{}{}: cycles, bus bandwidth (B/cycle) and % of the bound "
      "({} M/{} point to point{}); every element verified; node model {}\n\n",
      coll::CollectiveName(o.collective), o.type, k, k, GeometryNote(o.geometry),
      o.groups != "all"
          ? fmt::format(", communicators {} all at once (N: a group's members)", o.groups)
          : "",
      o.collective == coll::Collective::kAllReduce ? "2(N-1)/N" : "(N-1)/N",
      o.geometry.local_ports == 1 ? "B" : fmt::format("({}B)", o.geometry.local_ports),
      o.collective == coll::Collective::kAllToAll ? ", or the bisection's where larger"
                                                  : ", M/B in-network",
      ResolveModel(o.model, RunScale::kMany));
  PrintTableHead(o.sizes);
}

// The run of one cell: candidate `cand` of algorithm `a` on topology `t` at `bytes` per node,
// every element verified; with communicators `groups`, the first group also alone.
CollOptions CellRun(const CollSweepOptions& o, const coll::AlgorithmInfo& a,
                    const coll::Candidate& cand, coll::Topology t, uint64_t bytes,
                    const std::vector<std::vector<unsigned>>& groups) {
  CollOptions co;
  co.geometry = o.geometry;
  co.geometry.topology = t;
  co.algo = a.name;
  co.collective = o.collective;
  co.levels = cand.levels;
  co.embeddings = cand.embeddings;
  co.ring = cand.ring;
  co.type = o.type;
  co.bytes = bytes;
  co.seed = o.seed;
  co.model = o.model;
  co.verify = true;
  co.groups = groups;
  co.alone_first_only = o.groups != "all";
  return co;
}

// One row of the table: its text and the runs in it that failed.
struct SweepRow {
  std::string text;
  int failures = 0;
};

// The row of candidate `cand` of algorithm `a` on topology `t`: each size measured (its CSV
// row appended to `csv` when open); all n/a when the candidate does not apply there (the
// reason on stderr).
SweepRow MeasureRow(const CollSweepOptions& o, const coll::AlgorithmInfo& a,
                    const coll::Candidate& cand, coll::Topology t,
                    const std::vector<std::vector<unsigned>>& groups, OutputFile* csv) {
  const std::string where =
      std::string(coll::TopologyName(t)) + (o.groups != "all" ? ", " + o.groups : "");
  SweepRow row{fmt::format("| {} | {} |", cand.Label(), where)};
  for (const uint64_t s : o.sizes) {
    const CollOptions co = CellRun(o, a, cand, t, s, groups);
    CollMeasurement m;
    try {
      m = MeasureCollective(co, true);
    } catch (const coll::PlanError& e) {  // not applicable here (no engine, ...)
      fmt::print(stderr, "  {} on {}: {}\n", cand.Label(), coll::TopologyName(t), e.what());
      row.text = fmt::format("| {} | {} |", cand.Label(), where);
      for (size_t i = 0; i < o.sizes.size(); ++i) row.text += " n/a |";
      return row;
    } catch (const std::exception& e) {  // a bug: report it, keep sweeping
      row.text += " ERROR |";
      ++row.failures;
      fmt::print(stderr, "  {} on {} at {}: {}\n", cand.Label(), coll::TopologyName(t),
                 SizeLabel(s), e.what());
      continue;
    }
    row.failures += m.ok ? 0 : 1;
    row.text += fmt::format(" {} ({:.1f}, {:.0f}%){} |", m.cycles, m.busbw,
                            100.0 * m.bound / static_cast<double>(m.cycles), m.ok ? "" : " FAILED");
    if (csv) {
      csv->stream() << coll::CostCsvRow(co.geometry, cand, o.collective, o.type, m.bytes, m.cycles,
                                        m.busbw, m.bound / static_cast<double>(m.cycles), m.ok,
                                        o.groups, m.groups.empty() ? 0 : m.groups[0].alone)
                    << "\n";
    }
  }
  return row;
}

// The sweep in this process: a row per (candidate, topology), printed as it is measured.
int RunSequentialSweep(const CollSweepOptions& o,
                       const std::vector<std::vector<unsigned>>& groups) {
  auto csv = OpenSweepCsv(o.csv);
  PrintSweepHeading(o);
  int failures = 0;
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    if (!a.Serves(o.collective)) continue;
    if (!Selected(o, a)) continue;
    for (const coll::Candidate& cand :
         coll::SweepCandidates(a, o.geometry.k, o.geometry.local_ports)) {
      // Communicators: the snake's order restricted to each group's members (the rows the
      // training model's subgroup collectives read); the rank map is the whole package's.
      if (o.groups != "all" && cand.ring.map != coll::RingMap::kSnake) continue;
      for (const coll::Topology t : o.topologies) {
        if (!a.Serves(t)) continue;
        const SweepRow row = MeasureRow(o, a, cand, t, groups, csv.get());
        failures += row.failures;
        fmt::print("{}\n", row.text);
        std::fflush(stdout);
      }
    }
  }
  CommitSweepCsv(csv.get());
  if (failures) fmt::print("\n{} runs FAILED\n", failures);
  return failures ? 1 : 0;
}

// Where model `m` was measured, as coll-models prints it: the package with every geometry field
// that is not the default, the extra cycles per pitch last and short ("+N cycles/pitch").
std::string ModelPackage(const coll::CostModel& m) {
  coll::Geometry g = m.Geom();
  const unsigned pitch = g.extra_per_pitch;
  g.extra_per_pitch = coll::Geometry{}.extra_per_pitch;
  std::string s = coll::GeometryLabel(g);
  if (pitch != g.extra_per_pitch) s += fmt::format(", +{} cycles/pitch", pitch);
  return s + (m.groups == "all" ? "" : ", " + m.groups);
}

}  // namespace

int RunCollSweep(const CollSweepOptions& o) {
  RequireElementType(o.type);
  const auto groups = o.groups != "all" ? coll::ParseGroups(o.groups, o.geometry.k)
                                        : std::vector<std::vector<unsigned>>{};
  if (o.jobs == 0) throw std::invalid_argument("--jobs 0: allowed 1 or more");
  RefuseAlgosWithoutRows(o);
  if (o.jobs > 1 || !o.job_file.empty()) return RunSweepJobs(o);
  return RunSequentialSweep(o, groups);
}

int RunCollModels(const std::string& costs, const std::string& type, coll::Collective c) {
  const std::string path = CostPath(costs);
  const char* collective = coll::CollectiveName(c);
  RequireElementType(type);
  const auto models = coll::LoadCostModels(path, type, c);
  if (models.empty()) {  // (an empty table would read as a file without such runs by design)
    throw std::invalid_argument(
        fmt::format("{}: no {} {} rows to fit (--type and --collective "
                    "choose them)",
                    path, type, collective));
  }
  fmt::print(
      "{} cost models from {} ({}): alpha + beta * bytes fitted on the relative "
      "error (max error: its largest over the sizes), and the piecewise-linear model "
      "--algo auto and aries train use (piecewise error: its leave-one-out error); +N "
      "cycles/pitch: N wire cycles added per further pitch a link spans "
      "(package.extra_per_pitch; default {})\n\n",
      collective, CostFileLabel(path), type, coll::Geometry{}.extra_per_pitch);
  fmt::print(
      "| package | algorithm | sizes | alpha (cycles) | beta (cycles/KB) | max error | "
      "piecewise error |\n|---|---|---|---|---|---|---|\n");
  // The package with every geometry field that is not the default (local ports, links, ...):
  // models of one topology and K measured on other geometries are other rows.
  for (const coll::CostModel& m : models) {
    const coll::AlphaBeta f = coll::FitAlphaBeta(m.points);
    fmt::print("| {} | {} | {} | {:.0f} | {:.2f} | {:.1f}% | {:.1f}% |\n", ModelPackage(m),
               m.cand.Label(), m.points.size(), f.alpha, f.beta * 1024, 100 * f.max_rel_error,
               100 * m.LeaveOneOutError());
  }
  return 0;
}

}  // namespace aries::sim
