#include "planners.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "aries_pkg.h"
#include "embed.h"
#include "plan_steps.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

using namespace steps;

using PlanFn = Program (*)(const Request&, const Hardware&);

struct Entry {
  AlgorithmInfo info;
  PlanFn fn;
};

// ARIES Table I's rows (the table's formulas; ARIES_LT's steps from IV-A2).
const TableIRow kRingRow{0,
                         "Ring",
                         Topology::kTorus,
                         "N",
                         "G/N",
                         "N-1",
                         [](double n, unsigned) { return n; },
                         [](double n, unsigned) { return 1.0 / n; },
                         [](double n, unsigned) { return n - 1; }};
const TableIRow k2dRingRow{1,
                           "2D Ring",
                           Topology::kTorus,
                           "2N",
                           "G/N",
                           "2(sqrt N - 1)",
                           [](double n, unsigned) { return 2 * n; },
                           [](double n, unsigned) { return 1.0 / n; },
                           [](double n, unsigned) { return 2 * (std::sqrt(n) - 1); }};
const TableIRow kDbtRow{2,
                        "Binary Tree (ours: double binary tree)",
                        Topology::kTorus,
                        "2(N-1)",
                        "G/2",
                        "sqrt N - 1",
                        [](double n, unsigned) { return 2 * (n - 1); },
                        [](double, unsigned) { return 0.5; },
                        [](double n, unsigned) { return std::sqrt(n) - 1; }};
const TableIRow kMtreeRow{3,
                          "Multi-Tree",
                          Topology::kTorus,
                          "4(N-1)",
                          "G/4",
                          "sqrt N - 1",
                          [](double n, unsigned) { return 4 * (n - 1); },
                          [](double, unsigned) { return 0.25; },
                          [](double n, unsigned) { return std::sqrt(n) - 1; }};
const TableIRow kAriesLtRow{
    4,
    "ARIES (ARIES_LT)",
    Topology::kAries,
    "8(sqrt N - 1) sqrt N",
    "G/N",
    "L(N^(1/L) - 1)",
    [](double n, unsigned) { return 8 * (std::sqrt(n) - 1) * std::sqrt(n); },
    [](double n, unsigned) { return 1.0 / n; },
    [](double n, unsigned levels) { return levels * (std::pow(n, 1.0 / levels) - 1); }};

const std::vector<Entry>& Registry() {  // NOLINT(readability-function-size): a data table
  using C = Collective;
  // PaperRole: {baseline, place among ARIES candidates, on ARIES in Fig. 9, family label}.
  const PaperRole none{};
  const std::vector<Topology> any = {Topology::kMesh, Topology::kTorus, Topology::kFbfly,
                                     Topology::kAries};
  static const std::vector<Entry> r = {
      {{"ring",
        "one ring (reduce-scatter + all-gather), ARIES II-C",
        false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kReduce, C::kBroadcast, C::kBarrier},
        any,
        "ring",
        AlgoVariant::kNone,
        {true, 0, false, "ring all-reduce (ARIES: ring, ARIES_LT or ARIES_BW)"},
        &kRingRow,
        true,
        true},
       PlanRing},
      {{"aries_bw",
        "ARIES_BW: the ring over the mesh link and a bypass segment beside it, ARIES IV-A1",
        false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kReduce, C::kBroadcast, C::kBarrier},
        {Topology::kAries},
        "ring",
        AlgoVariant::kNone,
        {false, 2, true}},
       PlanAriesBw},
      {{"aries_lt",
        "ARIES_LT: L-level hierarchical rings (coll.levels), ARIES IV-A2",
        false,
        {C::kAllReduce, C::kBarrier},
        any,
        "ring",
        AlgoVariant::kLevels,
        {false, 1, true},
        &kAriesLtRow},
       PlanAriesLt},
      {{"2dring",
        "rings along rows then columns, ARIES Table I",
        false,
        {C::kAllReduce, C::kBarrier},
        any,
        "2dring",
        AlgoVariant::kNone,
        none,
        &k2dRingRow},
       Plan2dRing},
      {{"dbt",
        "double binary tree (two complementary trees), ARIES IV-B1",
        false,
        {C::kAllReduce, C::kBarrier},
        any,
        "dbt",
        AlgoVariant::kNone,
        {true, 0, true, "double binary tree all-reduce"},
        &kDbtRow,
        false,
        true,
        false,
        true},
       PlanDoubleBinaryTree},
      {{"mtree",
        "multi-tree: a tree per node reducing its chunk, ARIES IV-B2 / Huang ISCA'21",
        false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kBarrier},
        any,
        "mtree",
        AlgoVariant::kNone,
        {true, 0, true, "multi-tree all-reduce (ARIES: multi-tree or concentrated)"},
        &kMtreeRow,
        false,
        true},
       PlanMultiTree},
      {{"cmtree",
        "concentrated multi-tree over 2x2 groups, ARIES IV-B2 Fig. 8",
        false,
        {C::kAllReduce, C::kBarrier},
        any,
        "mtree",
        AlgoVariant::kNone,
        {false, 1, true},
        nullptr,
        false,
        false,
        true},
       PlanConcentratedMultiTree},
      {{"tree",
        "in-network reduction tree on the collective engines (PIUMA)",
        true,
        {C::kAllReduce, C::kReduceScatter, C::kReduce, C::kBroadcast, C::kBarrier},
        any,
        "tree",
        AlgoVariant::kEmbeddings,
        none,
        nullptr,
        false,
        true},
       PlanTree},
      {{"rd",
        "recursive doubling, host-based baseline (PIUMA)",
        false,
        {C::kAllReduce, C::kBarrier},
        any,
        "rd"},
       PlanRecursiveDoubling},
      {{"rabenseifner",
        "recursive halving + doubling, host-based baseline (PIUMA)",
        false,
        {C::kAllReduce, C::kReduceScatter, C::kAllGather, C::kBarrier},
        any,
        "rabenseifner"},
       PlanRabenseifner},
      {{"direct",
        "all-to-all(-v): every block straight to its destination (on ARIES over bypass "
        "segments)",
        false,
        {C::kAllToAll, C::kAllToAllV},
        any,
        "direct",
        AlgoVariant::kNone,
        none,
        nullptr,
        false,
        true},
       PlanAllToAllDirect},
      {{"2phase",
        "all-to-all(-v): rows then columns, one dimension per message (communicators: grids)",
        false,
        {C::kAllToAll, C::kAllToAllV},
        any,
        "2phase",
        AlgoVariant::kNone,
        none,
        nullptr,
        false,
        true},
       PlanAllToAll2d},
  };
  return r;
}

}  // namespace

const std::vector<AlgorithmInfo>& Algorithms() {
  static const std::vector<AlgorithmInfo> a = [] {
    std::vector<AlgorithmInfo> v;
    for (const Entry& e : Registry()) v.push_back(e.info);
    return v;
  }();
  return a;
}

bool AlgorithmInfo::Serves(Collective c) const {
  return std::find(collectives.begin(), collectives.end(), c) != collectives.end();
}

bool AlgorithmInfo::Serves(Topology t) const {
  // The concentrated mesh runs a mesh's point-to-point program, re-routed (Concentrate).
  if (t == Topology::kCmesh) return !engine && Serves(Topology::kMesh);
  return std::find(topologies.begin(), topologies.end(), t) != topologies.end();
}

const AlgorithmInfo* FindAlgorithm(std::string_view name) {
  for (const AlgorithmInfo& a : Algorithms()) {
    if (name == a.name) return &a;
  }
  return nullptr;
}

std::vector<std::string> PaperFamilies() {
  std::vector<std::string> f;
  for (const AlgorithmInfo& a : Algorithms()) {
    if (a.paper.baseline) f.push_back(a.family);
  }
  return f;
}

const AlgorithmInfo& FamilyBaseline(const std::string& family) {
  for (const AlgorithmInfo& a : Algorithms()) {
    if (a.paper.baseline && family == a.family) return a;
  }
  throw std::invalid_argument(fmt::format("no paper family '{}'", family));
}

std::vector<const AlgorithmInfo*> AriesCandidates(const std::string& family) {
  std::vector<const AlgorithmInfo*> v;
  for (const AlgorithmInfo& a : Algorithms()) {
    if (a.paper.aries >= 0 && family == a.family) v.push_back(&a);
  }
  std::stable_sort(v.begin(), v.end(), [](const AlgorithmInfo* x, const AlgorithmInfo* y) {
    return x->paper.aries < y->paper.aries;
  });
  return v;
}

std::vector<const AlgorithmInfo*> TableIAlgorithms() {
  std::vector<const AlgorithmInfo*> v;
  for (const AlgorithmInfo& a : Algorithms()) {
    if (a.table1) v.push_back(&a);
  }
  std::stable_sort(v.begin(), v.end(), [](const AlgorithmInfo* x, const AlgorithmInfo* y) {
    return x->table1->order < y->table1->order;
  });
  return v;
}

std::string AlgorithmNames(const std::function<bool(const AlgorithmInfo&)>& which,
                           const char* sep) {
  std::string s;
  for (const Entry& e : Registry()) {
    if (!which || which(e.info)) s += std::string(s.empty() ? "" : sep) + e.info.name;
  }
  return s;
}

namespace {
// Communicators: an algorithm that plans them, a collective over each group's own members, and
// groups that are disjoint sets of at least two of the package's nodes (CheckGroups).
void CheckCommunicators(const Request& req, const AlgorithmInfo& info) {
  if (!info.communicators) {
    const std::string names =
        AlgorithmNames([](const AlgorithmInfo& a) { return a.communicators; });
    throw PlanError(
        fmt::format("coll.groups: algorithm {} plans the whole package only; "
                    "communicators are planned by: {}",
                    req.algo, names));
  }
  if (req.collective != Collective::kAllReduce && req.collective != Collective::kReduceScatter &&
      req.collective != Collective::kAllGather && req.collective != Collective::kAllToAll &&
      req.collective != Collective::kAllToAllV) {
    throw PlanError(fmt::format(
        "coll.groups with {}: allowed allreduce, reducescatter, allgather, alltoall, alltoallv",
        CollectiveName(req.collective)));
  }
  try {
    CheckGroups(req.groups, req.geom.k);
  } catch (const PlanError& e) {
    throw PlanError(fmt::format("coll.groups: allowed {}", e.what()));
  }
}

// The registry entry of the request's algorithm, once the request is one it can plan; throws
// PlanError naming what is not.
const Entry& CheckedEntry(const Request& req) {
  const Entry* entry = nullptr;
  for (const Entry& e : Registry()) {
    if (req.algo == e.info.name) entry = &e;
  }
  if (!entry) {
    throw PlanError(fmt::format("coll.algo = {}: unknown; allowed {}", req.algo, AlgorithmNames()));
  }
  if (!entry->info.Serves(req.collective)) {
    std::string names;
    for (Collective c : entry->info.collectives) {
      names += std::string(names.empty() ? "" : ", ") + CollectiveName(c);
    }
    throw PlanError(fmt::format("algorithm {} does not implement {}; it implements {}", req.algo,
                                CollectiveName(req.collective), names));
  }
  if (!entry->info.Serves(req.geom.topology)) {
    std::string names;
    for (Topology t : entry->info.topologies)
      names += std::string(names.empty() ? "" : ", ") + TopologyName(t);
    throw PlanError(fmt::format("algorithm {} does not apply to topology {}; it applies to {}",
                                req.algo, TopologyName(req.geom.topology), names));
  }
  if (req.ring.dirs < 1 || req.ring.dirs > 2) {
    throw PlanError(fmt::format("coll.ring_dirs = {}: allowed 1, 2", req.ring.dirs));
  }
  if (!entry->info.ring_layout && !req.ring.Plain()) {
    std::string names;
    for (const Entry& e : Registry()) {
      if (e.info.ring_layout) names += std::string(names.empty() ? "" : ", ") + e.info.name;
    }
    throw PlanError(fmt::format(
        "coll.ring_map = {}, coll.ring_dirs = {}: algorithm {} lays out its own links; a ring map "
        "other than snake and two directions apply to: {}",
        RingMapName(req.ring.map), req.ring.dirs, req.algo, names));
  }
  const unsigned n = req.geom.k * req.geom.k;
  if (!req.groups.empty()) CheckCommunicators(req, entry->info);
  if (req.collective == Collective::kAllToAllV) {
    CheckCounts(req);
  } else if (req.collective != Collective::kBarrier && req.elements == 0) {
    throw PlanError("coll.size: at least one element");
  }
  if ((req.collective == Collective::kReduce || req.collective == Collective::kBroadcast) &&
      req.root >= n) {
    throw PlanError(fmt::format("coll.root = {}: allowed 0..{}", req.root, n - 1));
  }
  if (req.op >= hw::kNumOps) {
    throw PlanError(fmt::format("operation {}: allowed 0..{}", req.op, hw::kNumOps - 1));
  }
  return *entry;
}

}  // namespace

Program PlanUnvalidated(const Request& req, const Hardware& hw) {
  return CheckedEntry(req).fn(req, hw);
}

uint64_t BusiestNodeFlits(const Program& p, unsigned lanes) {
  uint64_t most = 0;
  for (const NodeProgram& np : p.nodes) {
    uint64_t flits = 0;
    for (const Op& o : np.ops) {
      // An engine stream is its id's count in every step of the request program, padding
      // included (what the endpoint injects, ScheduleEndpoint); a message its region's flits.
      if (o.act == Act::kSend) flits += (o.region.len + lanes - 1) / lanes;
      if (o.act == Act::kEngSend) flits += EngineFlits(np, o.id, false);
    }
    most = std::max(most, flits);
  }
  return most;
}

namespace {

// Embeds `*p` for `embed_hw` and validates it for `hw` (its validation in *v): the embedder's
// or the validator's refusal, empty when *p is ready to run.
std::string EmbedAndValidate(Program* p, const Hardware& embed_hw, const Hardware& hw,
                             Validation* v) {
  try {
    const EmbedReport embedding = Embed(*p, embed_hw);
    if (embedding.links) p->summary += "; embedding: " + embedding.Summary();
  } catch (const PlanError& e) {
    return e.what();
  }
  *v = Validate(*p, hw);
  return v->error;
}

std::string NodeLabel(const Geometry& g, unsigned n) {
  return fmt::format("node {} ({},{})", n, n % g.k, n / g.k);
}

// Whether the faults cut the package in parts with members of one communicator on two of
// them (no plan can join them under any port-mux and bypass setting): the refusal naming the
// cut, or empty.
std::string Partitioned(const Request& req, const Hardware& hw) {
  const Geometry& g = req.geom;
  const Partition pt = PartitionOf(g, std::min(g.tracks, hw.tracks));
  if (pt.parts == 1) return {};
  for (const auto& members : Communicators(req)) {
    const unsigned a = members.front();
    for (unsigned m : members) {
      if (pt.part[m] == pt.part[a]) continue;
      std::string cut;
      for (const Fault* f : pt.cut) cut += (cut.empty() ? "" : ", ") + f->Name(g);
      std::string parts;
      if (pt.parts == 2) {
        const auto in0 = std::count(pt.part.begin(), pt.part.end(), 0u);
        const unsigned small = in0 * 2 <= static_cast<long>(pt.part.size()) ? 0 : 1;
        parts = fmt::format("cut {} off from {}", pt.Nodes(small, g, false),
                            pt.Nodes(1 - small, g, true));
      } else {
        for (unsigned i = 0; i < pt.parts; ++i) parts += (i ? "; " : "") + pt.Nodes(i, g, false);
        parts = fmt::format("cut the package into {} parts ({})", pt.parts, parts);
      }
      const bool segments = g.topology == Topology::kAries && std::min(g.tracks, hw.tracks) > 0;
      return fmt::format(
          "partitioned: the faults {} {}; no link{} joins the parts, so no plan joins {} and {} "
          "of one communicator",
          cut, parts, segments ? " or bypass segment (under any port-mux setting)" : "",
          NodeLabel(g, a), NodeLabel(g, m));
    }
  }
  return {};
}

}  // namespace

Program Plan(const Request& req, const Hardware& hw, Validation* validation) {
  if (req.geom.topology == Topology::kCmesh) {
    CheckedEntry(req);  // (refuses what the concentrated mesh does not serve, naming it)
    Request mesh = req;
    mesh.geom.topology = Topology::kMesh;
    Hardware chiplet = hw;  // a chiplet: one local port of its group's router, no engine
    chiplet.local_ports = 1;
    chiplet.engine = false;
    return Plan(mesh, chiplet, validation);
  }
  const bool faults = !req.geom.faults.empty();
  if (faults) {
    CheckedEntry(req);  // (what cannot be planned at all is refused as such first)
    if (const std::string cut = Partitioned(req, hw); !cut.empty()) throw PlanError(cut);
  }
  Program p = PlanUnvalidated(req, hw);
  if (SpreadOverPorts(p, hw.local_ports))
    p.summary += fmt::format("; messages over {} local ports", hw.local_ports);
  Validation v;
  if (!faults) {
    const EmbedReport embedding = Embed(p, hw);
    if (embedding.links) p.summary += "; embedding: " + embedding.Summary();
    v = Validate(p, hw);
  } else {
    // Around faults the embedder may find no detour under the port muxes its segments have
    // set (it searches the links those settings leave, embed.cc RouteFallback), or detours
    // the validator finds depending on each other in a cycle (Detour's last resort, a path in
    // any order over links live one way only). Those are limits of that embedding, not of
    // the user's plan: the links then go over the mesh links alone (no bypass segment), live
    // the same both ways, where an up*/down* detour joins any two connected nodes and the
    // detours cannot depend on each other in a cycle.
    Program with_tracks = p;
    const std::string refused = EmbedAndValidate(&with_tracks, hw, hw, &v);
    if (refused.empty()) {
      p = std::move(with_tracks);
    } else {
      Hardware mesh_only = hw;
      mesh_only.tracks = 0;
      const bool tracks = req.geom.topology == Topology::kAries && hw.tracks > 0;
      const std::string again = tracks ? EmbedAndValidate(&p, mesh_only, hw, &v) : refused;
      if (!again.empty()) {
        const bool cycle = refused.find("cyclic channel dependency") != std::string::npos;
        throw PlanError(fmt::format(
            "{} cannot be planned around the faults ({}): {}", req.algo,
            req.geom.faults.Names(req.geom),
            !cycle ? refused
                   : fmt::format("its detours around them would depend on each other in a cycle "
                                 "(a possible deadlock), and over the mesh links alone: {}",
                                 again)));
      }
      p.summary +=
          "; the mesh links only (no deadlock-free embedding with bypass segments "
          "around the faults)";
    }
  }
  if (!v.ok() && v.symbolic.capacity) {
    throw PlanError(fmt::format(
        "{} {}: the validator cannot prove this program ({}); allowed: fewer or more aligned "
        "elements (all-to-all-v with random counts is proven up to about 1M per chiplet)",
        req.algo, CollectiveName(req.collective), v.error));
  }
  if (!v.ok()) {
    throw std::logic_error(
        fmt::format("planner {} produced a program its validator refuses: {}", req.algo, v.error));
  }
  if (validation) *validation = std::move(v);
  return p;
}

}  // namespace aries::coll
