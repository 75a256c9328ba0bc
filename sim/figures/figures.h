// Reproductions of the ARIES evaluation from measured sweeps: Fig. 9 (all-reduce throughput vs
// data size), Fig. 10 (fig10.cc), Fig. 11, Table I, the area figure and the report.
#ifndef ARIES_SIM_FIGURES_H_
#define ARIES_SIM_FIGURES_H_

#include <string>
#include <vector>

#include "aries_node_params.h"
#include "config.h"
#include "geometry.h"
#include "tuner.h"

namespace aries::sim {

// An assumption set of the evaluation (eval.preset). Ours ("default"): every ring the snake
// (ARIES II-C's ring), one local port per chiplet. The paper's ("paper"): the baselines' ring
// the rank-order ring ASTRA-sim lays onto Garnet's mesh (ARIES V: "we extended ASTRA-SIM"), and
// ARIES's chiplets with the two local ports its ARIES_BW needs (ARIES II-C: its two rings run
// at once, so each chiplet injects and ejects two flits per cycle); the baselines keep one.
// kRankBaselines is the step between them that fig10's decomposition measures.
//
// Two further steps, measured by fig10's decomposition only (no preset takes them): ARIES's
// bypass segments at a one-pitch link's latency whatever their length (the paper gives a hop 10
// ns, V, and a segment no latency of its own: a switch closes a wire, III-B2; ours adds a cycle
// per further pitch, package.extra_per_pitch; the baselines' wraps and butterfly links keep
// theirs: the step measures ARIES's segments alone), and ARIES without its concentrated algorithms
// (cmtree, IV-B2), which tells how much of a speedup concentration gives. And one step at ARIES's
// two local ports: ARIES's double binary tree with a link of its own for every tree edge (Fig.
// 7(c): "a dedicated connection for the double binary trees ... each link is allocated for a given
// route in the tree"), which our ARIES cannot build (an edge between rows, e.g. ranks 4 and 8 on
// 8x8, is no segment, and a port carries one link). It is measured on the package whose
// routers have a link to every node of their row and column, the flattened butterfly: the same
// trees (rank_tree), the same routers and one flit per cycle per link, every aligned tree edge
// its own link; ARIES takes those rows for its tree algorithms.
struct Assumptions {
  const char* name;
  bool rank_baselines;                 // the baselines' ring in rank order
  unsigned aries_ports;                // ARIES's node.local_ports
  unsigned aries_extra_per_pitch = 1;  // ARIES's package.extra_per_pitch (its segments)
  bool concentration = true;           // ARIES's concentrating algorithms are candidates
  bool dedicated_tree_links = false;   // ARIES's rank_tree algorithms on the butterfly's links
  // Costs at the bound (coll::CostModel::AtBound): ARIES's candidates, Adapt-NoC's sub-networks.
  bool aries_at_bound = false, adapt_at_bound = false;
};
inline constexpr Assumptions kOurAssumptions{"default", false, 1};
inline constexpr Assumptions kRankBaselines{"default + rank-order baselines", true, 1};
inline constexpr Assumptions kPaperAssumptions{"paper", true, 2};
inline constexpr Assumptions kPaperOneHopSegments{"paper + one-hop segments", true, 2, 0};
inline constexpr Assumptions kPaperUnconcentrated{"paper without concentration", true, 2, 1, false};
inline constexpr Assumptions kPaperDedicatedTreeLinks{
    "paper + dedicated tree links", true, 2, 1, true, true};
// The ceiling of fig10's decomposition: every step (one-hop segments, tree links), and
// ARIES's collectives at their bound.
inline constexpr Assumptions kPaperAriesAtBound{
    "paper + one-hop segments + dedicated tree links + ARIES at its bound",
    true,
    2,
    0,
    true,
    true,
    true};
// Adapt-NoC's floor: any sub-network of one local port per chiplet (its concentrated mesh
// too) at the bound of the family's baseline algorithm there.
inline constexpr Assumptions kPaperAdaptAtBound{
    "paper + dedicated tree links + Adapt-NoC at its bound", true, 2, 1, true, true, false, true};
// eval.preset "default" or "paper" (the key's table checks the value).
const Assumptions& PresetAssumptions(const std::string& preset);
// The package of topology `t` on K x K under `as` (the default geometry, ARIES's local ports).
coll::Geometry PresetPackage(coll::Topology t, unsigned k, const Assumptions& as);
// Where ARIES's rank-order trees run when `as` gives every tree edge a link of its own (Fig.
// 7(c)): the flattened butterfly's per-pair links on K x K, at ARIES's local ports.
coll::Geometry DedicatedTreeLinksPackage(unsigned k, const Assumptions& as);
// The ring layout `as` gives a baseline (not ARIES) package or ARIES: the snake, or the rank
// order on a baseline under the paper's; one direction.
coll::RingLayout PresetRing(const Assumptions& as, bool baseline);
// Whether `as` admits the measured candidate `c` there: an algorithm that lays out no ring, or
// the ring in PresetRing's layout; on ARIES no concentrating algorithm unless `as` has them.
bool PresetAdmits(const coll::Candidate& c, bool baseline, const Assumptions& as);
// Adapt-NoC (ARIES ref. [28]: Zheng, Wang and Louri, HPCA 2021), the baseline ARIES Figs. 10
// and 11 add to mesh, torus and the butterfly, as this model builds it. Adapt-NoC's adaptable
// routers and links form, per region of the chip, a mesh, concentrated-mesh, torus or tree
// sub-network, and its controller picks the topology that serves the application (the Adapt-NoC
// abstract); here the whole package is one region and takes, per collective, the cheapest of
// the sub-networks this package builds from the same RTL and interposer, each on one local port
// running the family's baseline algorithm (Adapt-NoC reconfigures links, not the algorithm; the
// ring in the preset's mapping). Built: the mesh, the torus, and its adaptable links: long links
// a switch joins to a router, which bridge a tree's non-adjacent neighbours (the tree
// sub-network; ARIES V-B: it "can adapt itself to fit the DB-Tree structure to some extent"),
// modelled as ARIES's tracks, switches and embedder (ARIES II-B: ARIES's link is "very similar
// to an adaptable link design but with a much lower cost"), re-embedded for every collective;
// and its concentrated mesh (kCmesh: 2x2 chiplets on the four local ports of one router of a
// K/2 x K/2 mesh, two-pitch router links; collectives/concentrate.h). Its adaptable links may
// make this Adapt-NoC faster than the real one (ARIES's embedder on them).
const std::vector<coll::Topology>& AdaptNocSubnetworks();
// The package a sub-network of Adapt-NoC runs on: topology `t` on K x K, one local port, the
// default geometry (kAries: its adaptable links).
coll::Geometry AdaptNocPackage(coll::Topology t, unsigned k);
// "mesh", "torus", "adaptable links" (kAries), "concentrated mesh" (kCmesh): the sub-network's
// name in the tables.
std::string AdaptNocSubnetworkName(coll::Topology t);
inline constexpr const char* kAdaptNoc = "adapt";  // its name in the figures' tables and CSVs

// The line under a console table that leaves columns to the CSV (the console's tables fit 100
// columns; the CSV has every row and column).
inline constexpr const char* kAllColumnsLine = "(all columns: --csv FILE)";

// A formatted figure that rounds to zero without its sign ("-0%" -> "0%", "-0.00" -> "0.00"):
// the tables would otherwise claim a loss that is not there.
std::string UnsignedZero(std::string formatted);

// One line saying what `as` assumes (printed under each figure's title).
std::string PresetLine(const Assumptions& as);

// "4,8" -> {4, 8}; the paper evaluates 4x4 and 8x8 only: anything else (or nothing) is
// refused naming the option it came from and the list.
std::vector<unsigned> ParsePaperKs(const std::string& ks, const char* option = "-k");

struct Fig10Options {
  std::vector<unsigned> ks = {4, 8};
  std::vector<std::string> workloads = {"resnet50", "vgg16", "dlrm", "transformer"};
  std::string costs, csv, plot;  // plot: STEM of STEM.svg, .pdf, .png
  unsigned batch = 0;            // 0: each workload's
  double utilization = 0.7;
  std::string preset = "default";  // eval.preset: default (ours) or paper (the paper's setup)
};
// `aries fig10`'s request: `o` with train.batch, train.utilization, coll.costs and eval.preset
// from `c`.
Fig10Options Fig10Request(const Config& c, Fig10Options o);
int RunFig10Command(const Fig10Options& o);

struct Fig9Options {
  std::vector<unsigned> ks = {4, 8};
  std::string costs;               // sweep CSV (default: the repository's measured costs)
  std::string preset = "default";  // eval.preset: default (ours) or paper (Assumptions)
  std::string csv, plot;           // plot: STEM of STEM.svg, .pdf, .png (plot.h)
};
// ARIES Fig. 9: algorithm bandwidth (GB/s at the 1 GHz clock) of ring (ring on mesh and torus,
// ARIES_LT and ARIES_BW on ARIES), double binary tree and multi-tree (concentrated on ARIES)
// all-reduce against the data size, per K, from the all-reduce rows of a sweep CSV, under the
// preset's assumptions (the paper's: rank-order baseline rings, ARIES on two local ports).
int RunFig9Command(const Fig9Options& o);

struct Fig11Options {
  std::vector<unsigned> ks = {4};
  uint64_t bytes = 64 * 1024;  // per node
  std::string model = "auto";  // sim.model (auto: fast)
  std::string tech = "dsent45";
  std::vector<std::string> tech_set;
  std::string preset = "default";  // eval.preset: default (ours) or paper (Assumptions)
  std::string csv, plot;           // plot: STEM of STEM.svg, .pdf, .png (plot.h)
};
// ARIES Fig. 11: the energy of one all-reduce per algorithm family (ring: ring on mesh, torus
// and the butterfly, the cheapest of ring/ARIES_LT/ARIES_BW on ARIES; DB tree; multi-tree: the
// concentrated one allowed on ARIES) and topology, run cycle-accurately with every element
// verified; ARIES's reduction beside the paper's V-C averages; under the preset's assumptions
// (the paper's: rank-order baseline rings, ARIES on two local ports, its routers charged for
// the extra port).
int RunFig11Command(const Fig11Options& o);

// ARIES Table I: for ring, 2D ring, the binary trees, multi-tree and ARIES_LT on N = K x K
// chiplets, the logical links a planned all-reduce uses, the largest message as a fraction of
// the gradient G, and its synchronization steps, measured on the controller's programs beside
// the table's formulas (torus; ARIES_LT on ARIES). Planning only: nothing is simulated.
int RunTable1Command(const std::vector<unsigned>& ks, const std::string& csv = "",
                     const std::string& plot = "");
// Table I's package sizes: "4,8,16" -> {4, 8, 16}; throws naming the option and what is allowed.
std::vector<unsigned> ParseTable1Ks(const std::string& ks);

struct AreaOptions {
  std::string out = "synth_out";
  // The shipped node's parameters (rtl/CMakeLists.txt), but 2-flit buffers: synthesis keeps
  // the buffers small and models the full depth as SRAM (synth_scripts/node_area.py).
  unsigned lanes = hw::kVaries_nodeParams.Lanes, vcs = hw::kVaries_nodeParams.NumVCs, depth = 2,
           flows = hw::kVaries_nodeParams.NumFlows, tracks = hw::kVaries_nodeParams.NumTracks;
  bool router = false;  // also the full-depth router (router_area.py: about 12 minutes)
  bool engine = false;  // also the collective engine (extrapolated in lanes)
  // A liberty with timing (NangateOpenCellLibrary_typical.lib): OpenSTA times the two nodes'
  // netlists at 1 GHz (synth_scripts/sta.py). Empty: no timing (the shipped liberty has none).
  std::string timing_liberty;
};
// Runs synth_scripts/node_area.py (and router_area.py with `router`): the mesh and ARIES nodes,
// the bypass switch, the overhead beside section V-D; writes <out>/area.csv and the area figure
// (area.svg, .pdf, .png: per block, mesh vs ARIES node); `aries report --area <out>` includes it.
int RunAreaCommand(const AreaOptions& o);

struct ReportOptions {
  std::string out = "aries_report";  // directory: report.md, the CSVs and figures
  std::string ks = "4,8";
  std::string fig11_ks = "4";  // the energy runs are cycle-accurate (fast model): 4x4 by default
  std::string area;            // directory of synth_scripts/node_area.py / router_area.py output
  std::string preset = "default";  // eval.preset of Figs. 9-11 (Assumptions)
  std::string model = "auto";      // sim.model of Fig. 11's runs (auto: fast)
};
// Runs table1, fig9, fig10 and fig11 (this executable, one process each) and gathers their
// tables, CSVs and plots, the area results when given, into <out>/report.md with the paper's
// figures beside ours and the differences explained; Figs. 9-11 under the preset's assumptions
// (fig10's paper preset adds the decomposition of the paper's speedups).
int RunReportCommand(const ReportOptions& o);

}  // namespace aries::sim

#endif  // ARIES_SIM_FIGURES_H_
