#include "tour.h"

#include <fmt/format.h>

#include <chrono>

#include "cli_util.h"
#include "coll_run.h"
#include "planners.h"

namespace aries::sim {

namespace {

struct Family {
  std::string name;
  std::vector<const coll::AlgorithmInfo*> mesh, aries;
};

// The paper's families (ARIES IV: the baseline algorithm on the mesh, ARIES's candidates on
// ARIES), then the in-network tree, which runs on the collective engine every node has (on
// either package).
std::vector<Family> TourFamilies() {
  std::vector<Family> v;
  for (const std::string& fam : coll::PaperFamilies()) {
    v.push_back({fam, {&coll::FamilyBaseline(fam)}, coll::AriesCandidates(fam)});
  }
  const coll::AlgorithmInfo* tree = coll::FindAlgorithm("tree");
  v.push_back({"in-network tree", {tree}, {tree}});
  return v;
}

}  // namespace

TourResult RunCollectiveTour(unsigned k, const std::vector<uint64_t>& sizes, bool quiet) {
  auto print = [&](auto&&... a) {
    if (!quiet) fmt::print(std::forward<decltype(a)>(a)...);
  };
  const auto start = std::chrono::steady_clock::now();
  TourResult res;
  res.ok = true;
  const auto levels = coll::AriesLtLevels(k);
  auto measure = [&](coll::Topology t, const coll::AlgorithmInfo& a, uint64_t bytes) {
    CollOptions o;
    o.geometry.topology = t;
    o.geometry.k = k;
    o.algo = a.name;
    o.bytes = bytes;
    o.levels = levels.back();  // aries_lt: the most levels K allows (2 on 4x4)
    o.verify = true;
    o.model = "rtl";
    const CollMeasurement m = MeasureCollective(o, true);
    ++res.runs;
    res.ok = res.ok && m.ok && m.verified;
    return m;
  };
  print(
      "ARIES-sim default run, part 1 of 2: all-reduce on a {k}x{k} ARIES package beside a {k}x{k} "
      "mesh\n"
      "  Each family's baseline algorithm on the mesh against the fastest of ARIES's algorithms "
      "of\n"
      "  the family on ARIES (ARIES IV), cycle-accurate on the Verilated RTL nodes; every element "
      "of\n"
      "  every chiplet checked against the golden reduction (int32 sum). Cycles (share of the\n"
      "  bandwidth bound); segments: links the ARIES plan wires onto bypass segments (one hop\n"
      "  across one or more chiplet pitches); speed-up = mesh cycles / ARIES cycles.\n\n"
      "| size | family | mesh | cycles | ARIES | cycles | segments | speed-up | verified |\n"
      "|---|---|---|---|---|---|---|---|---|\n",
      fmt::arg("k", k));
  for (uint64_t bytes : sizes) {
    for (const Family& f : TourFamilies()) {
      TourRow row;
      row.bytes = bytes;
      row.family = f.name;
      row.verified = true;
      auto best = [&](coll::Topology t, const std::vector<const coll::AlgorithmInfo*>& algos,
                      std::string* label, uint64_t* cycles, double* bound, unsigned* segments) {
        for (const coll::AlgorithmInfo* a : algos) {
          if (!a->Serves(t)) continue;
          const CollMeasurement m = measure(t, *a, bytes);
          row.verified = row.verified && m.verified;
          if (*cycles == 0 || m.cycles < *cycles) {
            *cycles = m.cycles;
            *label = m.algorithm;
            *bound = m.bound;
            *segments = m.segment_links;
          }
        }
      };
      unsigned mesh_segments = 0;  // none: the mesh has no tracks
      best(coll::Topology::kMesh, f.mesh, &row.mesh_algo, &row.mesh_cycles, &row.mesh_bound,
           &mesh_segments);
      best(coll::Topology::kAries, f.aries, &row.aries_algo, &row.aries_cycles, &row.aries_bound,
           &row.aries_segments);
      auto cell = [](uint64_t cycles, double bound) {
        return fmt::format("{} ({:.0f}%)", cycles, 100.0 * bound / static_cast<double>(cycles));
      };
      print("| {} | {} | {} | {} | {} | {} | {} | {:.2f}x | {} |\n", SizeLabel(bytes), row.family,
            row.mesh_algo, cell(row.mesh_cycles, row.mesh_bound), row.aries_algo,
            cell(row.aries_cycles, row.aries_bound), row.aries_segments,
            static_cast<double>(row.mesh_cycles) / static_cast<double>(row.aries_cycles),
            row.verified ? "yes" : "NO");
      res.rows.push_back(std::move(row));
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print(
      "\n  {} runs in {:.1f} s; every element of every run verified: {}.\n"
      "  The in-network tree runs on the collective engines, which both packages have. One local\n"
      "  port per chiplet injects and ejects one flit per cycle, which holds every endpoint\n"
      "  algorithm to the ring's bound at large sizes (README, Measured).\n"
      "  One row again: aries coll -k {} --topology aries --algo ALGO --size SIZE --verify;\n"
      "  the paper's figures: aries fig9, fig10, fig11, table1, report.\n\n",
      res.runs, secs, res.ok ? "yes" : "NO", k);
  return res;
}

void PrintPointToPointIntro() {
  fmt::print(
      "ARIES-sim default run, part 2 of 2: point-to-point traffic (aries run)\n"
      "  Uniform random packets on the same ARIES package, routed in dimension order over the\n"
      "  mesh links; the bypass segments, port muxes and collective engines stay idle, so these\n"
      "  latencies are a mesh's (package.topology=mesh prints the same). aries with any option\n"
      "  runs this part alone.\n\n");
}

}  // namespace aries::sim
