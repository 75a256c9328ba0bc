#include "tour.h"

#include <fmt/format.h>

#include <chrono>

#include "coll_run.h"
#include "planners.h"
#include "run_util.h"

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

namespace {

// The fastest of `algos` on topology `t` of K x K at `bytes` per chiplet, every one run on the
// RTL and verified; `all_ok` is cleared by a run that did not finish verified.
CollMeasurement Fastest(unsigned k, coll::Topology t,
                        const std::vector<const coll::AlgorithmInfo*>& algos, uint64_t bytes,
                        unsigned* runs, bool* all_ok) {
  CollMeasurement best;
  for (const coll::AlgorithmInfo* a : algos) {
    if (!a->Serves(t)) continue;
    CollOptions o;
    o.geometry.topology = t;
    o.geometry.k = k;
    o.algo = a->name;
    o.bytes = bytes;
    o.levels = coll::AriesLtLevels(k).back();  // aries_lt: the most levels K allows (2 on 4x4)
    o.verify = true;
    o.model = "rtl";
    const CollMeasurement m = MeasureCollective(o, true);
    ++*runs;
    *all_ok = *all_ok && m.ok && m.verified;
    if (best.cycles == 0 || m.cycles < best.cycles) best = m;
  }
  return best;
}

// "1933 (99%)": cycles and the share of the bandwidth bound.
std::string Cell(const CollMeasurement& m) {
  return fmt::format("{} ({:.0f}%)", m.cycles, 100.0 * m.bound / static_cast<double>(m.cycles));
}

void PrintTourHead(unsigned k) {
  fmt::print(
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
}

void PrintTourRow(const TourRow& r) {
  fmt::print("| {} | {} | {} | {} | {} | {} | {} | {:.2f}x | {} |\n", SizeLabel(r.bytes), r.family,
             r.mesh.algorithm, Cell(r.mesh), r.aries.algorithm, Cell(r.aries),
             r.aries.segment_links,
             static_cast<double>(r.mesh.cycles) / static_cast<double>(r.aries.cycles),
             r.ok ? "yes" : "NO");
}

}  // namespace

Tour MeasureTour(unsigned k, const std::vector<uint64_t>& sizes,
                 const std::function<void(const TourRow&)>& each_row) {
  Tour tour;
  for (uint64_t bytes : sizes) {
    for (const Family& f : TourFamilies()) {
      TourRow r;
      r.bytes = bytes;
      r.family = f.name;
      r.mesh = Fastest(k, coll::Topology::kMesh, f.mesh, bytes, &tour.runs, &r.ok);
      r.aries = Fastest(k, coll::Topology::kAries, f.aries, bytes, &tour.runs, &r.ok);
      tour.ok = tour.ok && r.ok;
      if (each_row) each_row(r);
      tour.rows.push_back(std::move(r));
    }
  }
  return tour;
}

bool RunCollectiveTour(unsigned k, const std::vector<uint64_t>& sizes) {
  const auto start = std::chrono::steady_clock::now();
  PrintTourHead(k);
  const Tour tour = MeasureTour(k, sizes, PrintTourRow);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "\n  {} runs in {:.1f} s; every element of every run verified: {}.\n"
      "  The in-network tree runs on the collective engines, which both packages have. One local\n"
      "  port per chiplet injects and ejects one flit per cycle, which holds every endpoint\n"
      "  algorithm to the ring's bound at large sizes (docs/findings.md).\n"
      "  One row again: aries coll -k {} --topology aries --algo ALGO --size SIZE --verify;\n"
      "  the paper's figures: aries fig9, fig10, fig11, table1, report.\n\n",
      tour.runs, secs, tour.ok ? "yes" : "NO", k);
  return tour.ok;
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
