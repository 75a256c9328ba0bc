#include "tuner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <tuple>

namespace aries::coll {

std::string Candidate::Label() const {
  const AlgorithmInfo* a = FindAlgorithm(algo);
  const AlgoVariant v = a ? a->variant : AlgoVariant::kNone;
  if (v == AlgoVariant::kLevels) return fmt::format("{} L={}", algo, levels);
  if (v == AlgoVariant::kEmbeddings && embeddings > 1)
    return fmt::format("{} E={}", algo, embeddings);
  return algo + ring.Suffix();
}

void Candidate::ApplyTo(Request& r) const {
  r.algo = algo;
  r.levels = levels;
  r.embeddings = embeddings;
  r.ring = ring;
}

namespace {

// The line through a and b at `bytes`: in the busiest node's flits where `flits` gives them
// and they differ at a and b, else in bytes.
double Interpolate(const CostPoint& a, const CostPoint& b, uint64_t bytes,
                   const std::function<uint64_t(uint64_t)>& flits) {
  double x0 = static_cast<double>(a.bytes), x1 = static_cast<double>(b.bytes);
  double x = static_cast<double>(bytes);
  if (flits) {
    const uint64_t f0 = flits(a.bytes), f1 = flits(b.bytes), f = flits(bytes);
    // Between the two sizes the flits must lie between theirs too (a planner whose busiest
    // node sent fewer flits for more bytes would put the line outside the measurements).
    const bool inside =
        bytes < a.bytes || bytes > b.bytes || (f >= std::min(f0, f1) && f <= std::max(f0, f1));
    if (f0 != 0 && f1 != 0 && f != 0 && f0 != f1 && inside) {
      x0 = static_cast<double>(f0);
      x1 = static_cast<double>(f1);
      x = static_cast<double>(f);
    }
  }
  return a.cycles + (b.cycles - a.cycles) * (x - x0) / (x1 - x0);
}

// CostModel::flits for `m`: its candidate planned at each size asked (once; PlanUnvalidated on
// the shipped node with the model's local ports), 0 where the planner refuses the size.
std::function<uint64_t(uint64_t)> PlannedFlits(const CostModel& m) {
  Request req;
  req.geom = m.Geom();
  req.collective = m.collective;
  m.cand.ApplyTo(req);
  if (m.groups != "all") req.groups = ParseGroups(m.groups, m.k);
  Hardware hw;
  hw.local_ports = m.local_ports;
  struct Cache {
    std::mutex mu;
    std::map<uint64_t, uint64_t> flits;  // bytes -> flits
  };
  auto cache = std::make_shared<Cache>();
  return [req, hw, cache](uint64_t bytes) -> uint64_t {
    {
      std::lock_guard<std::mutex> lock(cache->mu);
      auto it = cache->flits.find(bytes);
      if (it != cache->flits.end()) return it->second;
    }
    Request q = req;
    q.elements = ElementsOfBytes(bytes);
    uint64_t f = 0;
    try {
      f = BusiestNodeFlits(PlanUnvalidated(q, hw), hw.lanes);
    } catch (const PlanError&) {
      f = 0;  // a size this candidate does not plan: the line in bytes
    }
    std::lock_guard<std::mutex> lock(cache->mu);
    cache->flits[bytes] = f;
    return f;
  };
}

}  // namespace

double CostModel::Predict(uint64_t bytes) const {
  if (points.empty()) return 0;
  if (points.size() == 1) return points[0].cycles;
  size_t i = 1;
  while (i + 1 < points.size() && points[i].bytes < bytes) ++i;
  double floor = points[0].cycles;
  for (const CostPoint& q : points) floor = std::min(floor, q.cycles);
  const double p = std::max(floor, Interpolate(points[i - 1], points[i], bytes, flits));
  return cap ? std::min(p, cap->Predict(bytes)) : p;
}

double CostModel::LeaveOneOutError() const {
  double worst = 0;
  for (size_t i = 1; i + 1 < points.size(); ++i) {
    const double p = Interpolate(points[i - 1], points[i + 1], points[i].bytes, flits);
    worst = std::max(worst, std::abs(p - points[i].cycles) / points[i].cycles);
  }
  return worst;
}

CostModel CostModel::AtBound() const {
  CostModel m = *this;
  if (points.empty() || groups != "all") return m;
  double overhead = points[0].cycles - points[0].bound;
  for (const CostPoint& p : points) {
    if (p.bound <= 0) return m;
    overhead = std::min(overhead, p.cycles - p.bound);
  }
  overhead = std::max(0.0, overhead);
  const double latency = points[0].cycles;
  for (CostPoint& p : m.points)
    p.cycles = std::min(p.cycles, std::max(latency, p.bound + overhead));
  m.cap = std::make_shared<const CostModel>(*this);
  return m;
}

AlphaBeta FitAlphaBeta(const std::vector<CostPoint>& points) {
  AlphaBeta f;
  if (points.empty()) return f;
  if (points.size() == 1) {
    f.alpha = points[0].cycles;
    return f;
  }
  // Weighted normal equations for y = a + b x with w = 1 / y^2.
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const CostPoint& p : points) {
    const double x = static_cast<double>(p.bytes), y = p.cycles, w = 1.0 / (y * y);
    sw += w;
    sx += w * x;
    sy += w * y;
    sxx += w * x * x;
    sxy += w * x * y;
  }
  const double det = sw * sxx - sx * sx;
  f.beta = det != 0 ? (sw * sxy - sx * sy) / det : 0;
  f.alpha = (sy - f.beta * sx) / sw;
  for (const CostPoint& p : points) {
    const double pred = f.alpha + f.beta * static_cast<double>(p.bytes);
    f.max_rel_error = std::max(f.max_rel_error, std::abs(pred - p.cycles) / p.cycles);
  }
  return f;
}

std::vector<Candidate> SweepCandidates(const AlgorithmInfo& a, unsigned k, unsigned local_ports) {
  const std::string name = a.name;
  switch (a.variant) {
    case AlgoVariant::kLevels: {  // every L >= 2 with K = b^L
      std::vector<Candidate> v;
      for (unsigned l : AriesLtLevels(k)) {
        if (l >= 2) v.push_back({name, l, 1, {}});
      }
      return v;
    }
    case AlgoVariant::kEmbeddings:
      return {{name, 2, 1, {}}, {name, 2, 4, {}}};  // one tree, four
    case AlgoVariant::kNone:
      break;
  }
  if (a.ring_layout) {  // the snake, and the rank-order ring the baselines use in the paper
    std::vector<Candidate> v = {{name, 2, 1, {}}, {name, 2, 1, {RingMap::kRank, 1}}};
    if (local_ports > 1) {  // two directions, each on its own local port
      v.push_back({name, 2, 1, {RingMap::kSnake, 2}});
      v.push_back({name, 2, 1, {RingMap::kRank, 2}});
    }
    return v;
  }
  return {{name, 2, 1, {}}};
}

std::string CostCsvRow(const Geometry& g, const Candidate& c, Collective coll,
                       const std::string& type, uint64_t bytes, uint64_t cycles, double busbw,
                       double bound_fraction, bool ok, const std::string& groups,
                       uint64_t alone_cycles) {
  return fmt::format("{},{},{},{},{},{},{},{},{},{:.3f},{:.4f},{},{},{},{},{},{},{},{},{}",
                     TopologyName(g.topology), g.k, c.algo, c.levels, c.embeddings,
                     CollectiveName(coll), type, bytes, cycles, busbw, bound_fraction, ok ? 1 : 0,
                     g.tracks, g.link_latency, g.extra_per_pitch, RingMapName(c.ring.map),
                     c.ring.dirs, g.local_ports, groups, alone_cycles);
}

namespace {
// The headers before the geometry columns existed (rows measured on the default geometry),
// before the ring layout columns (rows of the snake ring in one direction) and before the
// local ports column (rows of one local port).
constexpr const char* kLegacyCostHeader =
    "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok";
constexpr const char* kGeometryCostHeader =
    "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
    "tracks,link_latency,extra_per_pitch";
constexpr const char* kRingCostHeader =
    "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
    "tracks,link_latency,extra_per_pitch,ring_map,ring_dirs";
constexpr const char* kPortsCostHeader =
    "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
    "tracks,link_latency,extra_per_pitch,ring_map,ring_dirs,local_ports";
}  // namespace

const char* CostCsvHeader() {
  return "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
         "tracks,link_latency,extra_per_pitch,ring_map,ring_dirs,local_ports,groups,alone_cycles";
}

std::vector<std::string> CostCells(const std::string& line) {
  std::vector<std::string> c;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
  return c;
}

double CostModel::Slowdown() const {
  double sum = 0;
  unsigned n = 0;
  for (const CostPoint& a : alone) {
    for (const CostPoint& p : points) {
      if (p.bytes == a.bytes && a.cycles > 0) {
        sum += p.cycles / a.cycles;
        ++n;
      }
    }
  }
  return n ? sum / n : 1.0;
}

std::string GeometryLabel(const Geometry& g) {
  const Geometry d;
  std::string s = fmt::format("{} {}x{}", TopologyName(g.topology), g.k, g.k);
  if (g.tracks != d.tracks) s += fmt::format(", {} tracks", g.tracks);
  if (g.link_latency != d.link_latency) s += fmt::format(", {}-cycle links", g.link_latency);
  if (g.extra_per_pitch != d.extra_per_pitch) {
    s += fmt::format(", {} extra cycles per pitch", g.extra_per_pitch);
  }
  if (g.local_ports != d.local_ports) s += fmt::format(", {} local ports", g.local_ports);
  if (!g.faults.empty()) {
    s +=
        fmt::format(", {} fault{}", g.faults.faults.size(), g.faults.faults.size() == 1 ? "" : "s");
  }
  return s;
}

Geometry CostModel::Geom() const {
  Geometry g;
  g.topology = topology;
  g.k = k;
  g.tracks = tracks;
  g.link_latency = link_latency;
  g.extra_per_pitch = extra_per_pitch;
  g.local_ports = local_ports;
  return g;
}

std::string CostModel::Where() const {
  return GeometryLabel(Geom()) + (groups == "all" ? "" : ", " + groups);
}

namespace {

// A cost model's identity in the file: topology (as written), K, algorithm, levels,
// embeddings, tracks, link latency, extra cycles per pitch, ring map, ring directions, local
// ports and groups.
using CostKey = std::tuple<std::string, unsigned, std::string, unsigned, unsigned, unsigned,
                           unsigned, unsigned, std::string, unsigned, unsigned, std::string>;

// One measured run of the cost file: its model (no points yet), the topology as written, its
// point and its cycles alone (0: not measured).
struct CostRow {
  CostModel m;
  std::string topology;
  CostPoint pt;
  uint64_t alone = 0;
};

// The fields per row the cost file's header line `line` (line `ln` of `path`) announces.
// Throws PlanError for a header none of the known ones.
size_t CostFileFields(const std::string& path, unsigned ln, const std::string& line) {
  if (line == kLegacyCostHeader) return 12;
  if (line == kGeometryCostHeader) return 15;
  if (line == kRingCostHeader) return 17;
  if (line == kPortsCostHeader) return 18;
  if (line != CostCsvHeader()) {
    throw PlanError(
        fmt::format("{}:{}: header '{}'; expected '{}'", path, ln, line, CostCsvHeader()));
  }
  return kCostCsvFields;
}

// The model fields of the row's cells `c` from K to local_ports, as far as a file of `fields`
// columns has them. Throws PlanError for a field out of its allowed set and std::logic_error
// for a number that does not parse.
CostModel ModelFields(const std::string& path, unsigned ln, const std::vector<std::string>& c,
                      size_t fields, Collective coll, Topology topo) {
  CostModel m;
  m.collective = coll;
  m.topology = topo;
  m.k = static_cast<unsigned>(std::stoul(c[1]));
  m.cand = {
      c[2], static_cast<unsigned>(std::stoul(c[3])), static_cast<unsigned>(std::stoul(c[4])), {}};
  if (fields >= 15) {
    m.tracks = static_cast<unsigned>(std::stoul(c[12]));
    m.link_latency = static_cast<unsigned>(std::stoul(c[13]));
    m.extra_per_pitch = static_cast<unsigned>(std::stoul(c[14]));
  }
  if (fields >= 17) {
    const auto map = ParseRingMap(c[15]);
    if (!map) {
      throw PlanError(fmt::format("{}:{}: ring_map '{}': allowed snake, rank", path, ln, c[15]));
    }
    m.cand.ring = {*map, static_cast<unsigned>(std::stoul(c[16]))};
    if (m.cand.ring.dirs != 1 && m.cand.ring.dirs != 2) {
      throw PlanError(fmt::format("{}:{}: ring_dirs '{}': allowed 1, 2", path, ln, c[16]));
    }
  }
  if (fields >= 18) {
    m.local_ports = static_cast<unsigned>(std::stoul(c[17]));
    if (!LocalPortsSupported(m.local_ports)) {
      throw PlanError(fmt::format("{}:{}: local_ports '{}': allowed 1, 2, 4", path, ln, c[17]));
    }
  }
  return m;
}

// The run of row `line` (line `ln` of `path`, `fields` columns), or nullopt when it is not a
// passed run of `coll` on `type` over `groups` ("*": any). Throws PlanError naming a field
// out of its allowed set or a number field that does not parse.
std::optional<CostRow> ParseCostRow(const std::string& path, unsigned ln, const std::string& line,
                                    size_t fields, const std::string& type, Collective coll,
                                    const std::string& groups) {
  const std::vector<std::string> c = CostCells(line);
  if (c.size() != fields) {
    throw PlanError(fmt::format("{}:{}: {} fields; expected {}", path, ln, c.size(), fields));
  }
  const auto topo = ParseTopology(c[0]);
  if (!topo)
    throw PlanError(
        fmt::format("{}:{}: topology '{}': allowed {}", path, ln, c[0], TopologyNames()));
  const auto run_coll = ParseCollective(c[5]);
  if (!run_coll) {
    throw PlanError(
        fmt::format("{}:{}: collective '{}': allowed {}", path, ln, c[5], CollectiveNames()));
  }
  if (*run_coll != coll || c[6] != type || c[11] != "1") return std::nullopt;  // passed runs
  if (!FindAlgorithm(c[2])) {
    throw PlanError(
        fmt::format("{}:{}: algorithm '{}': allowed {}", path, ln, c[2], AlgorithmNames()));
  }
  try {
    CostRow row;
    row.m = ModelFields(path, ln, c, fields, coll, *topo);
    row.topology = c[0];
    if (fields >= 20) {
      row.m.groups = c[18];
      if (row.m.groups != "all") {
        try {
          ParseGroups(row.m.groups, row.m.k);
        } catch (const PlanError& e) {
          throw PlanError(fmt::format("{}:{}: groups '{}': allowed all or {} ({})", path, ln, c[18],
                                      GroupShapeNames(), e.what()));
        }
      }
      row.alone = std::stoull(c[19]);
    }
    if (groups != "*" && row.m.groups != groups) return std::nullopt;
    const double cycles = std::stod(c[8]);
    if (!(cycles > 0)) {  // (NaN too)
      throw PlanError(fmt::format("{}:{}: cycles '{}': allowed > 0", path, ln, c[8]));
    }
    row.pt = CostPoint{std::stoull(c[7]), cycles, cycles * std::stod(c[10])};
    return row;
  } catch (const PlanError&) {
    throw;  // a field out of its allowed set, named above
  } catch (const std::logic_error&) {
    throw PlanError(fmt::format("{}:{}: a number field does not parse: '{}'", path, ln, line));
  }
}

// The key of `row`'s model.
CostKey KeyOf(const CostRow& row) {
  const CostModel& m = row.m;
  return {row.topology,
          m.k,
          m.cand.algo,
          m.cand.levels,
          m.cand.embeddings,
          m.tracks,
          m.link_latency,
          m.extra_per_pitch,
          RingMapName(m.cand.ring.map),
          m.cand.ring.dirs,
          m.local_ports,
          m.groups};
}

// `pts` with one point per size: the mean of its runs, by increasing size.
void MeanPerSize(std::vector<CostPoint>& pts) {
  std::sort(pts.begin(), pts.end(),
            [](const CostPoint& a, const CostPoint& b) { return a.bytes < b.bytes; });
  std::vector<CostPoint> merged;
  for (size_t i = 0; i < pts.size();) {
    size_t j = i;
    double sum = 0, bound = 0;
    for (; j < pts.size() && pts[j].bytes == pts[i].bytes; ++j) {
      sum += pts[j].cycles;
      bound += pts[j].bound;
    }
    const double n = static_cast<double>(j - i);
    merged.push_back({pts[i].bytes, sum / n, bound / n});
    i = j;
  }
  pts = std::move(merged);
}

}  // namespace

std::vector<CostModel> LoadCostModels(const std::string& path, const std::string& type,
                                      Collective coll, const std::string& groups) {
  std::ifstream f(path);
  if (!f)
    throw PlanError(
        fmt::format("{}: cannot open the cost file (write one with aries coll-sweep --csv)", path));
  std::string line;
  std::map<CostKey, CostModel> by_key;
  size_t fields = kCostCsvFields;
  bool header = true;
  for (unsigned ln = 1; std::getline(f, line); ++ln) {
    if (!line.empty() && line[0] == '#') continue;  // provenance comments (sim/runs/provenance.h)
    if (header) {
      header = false;
      fields = CostFileFields(path, ln, line);
      continue;
    }
    if (line.empty()) continue;
    const std::optional<CostRow> row = ParseCostRow(path, ln, line, fields, type, coll, groups);
    if (!row) continue;
    auto [it, fresh] = by_key.try_emplace(KeyOf(*row), row->m);
    it->second.points.push_back(row->pt);
    if (row->alone > 0) {
      it->second.alone.push_back({row->pt.bytes, static_cast<double>(row->alone)});
    }
  }
  std::vector<CostModel> out;
  for (auto& [key, m] : by_key) {
    MeanPerSize(m.points);
    MeanPerSize(m.alone);
    m.flits = PlannedFlits(m);
    out.push_back(std::move(m));
  }
  return out;
}

Choice ChooseAlgorithm(const std::vector<CostModel>& models, const Geometry& g, uint64_t bytes,
                       const std::function<std::string(const Candidate&)>& refuse) {
  Choice c;
  std::vector<std::string> have;
  for (const CostModel& m : models) {
    if (!m.On(g)) {
      const std::string s = m.Where();
      if (std::find(have.begin(), have.end(), s) == have.end()) have.push_back(s);
      continue;
    }
    if (refuse) {
      const std::string why = refuse(m.cand);
      if (!why.empty()) {
        c.refused.push_back({m.cand.Label(), why});
        continue;
      }
    }
    c.ranking.push_back({m.cand.Label(), m.Predict(bytes)});
    if (c.ranking.size() == 1 || c.ranking.back().second < c.predicted) {
      c.best = m.cand;
      c.predicted = c.ranking.back().second;
      c.fit_error = m.LeaveOneOutError();
    }
  }
  if (c.ranking.empty() && !c.refused.empty()) {
    std::string why;
    for (const auto& [label, reason] : c.refused) {
      why += fmt::format("{}{}: {}", why.empty() ? "" : "; ", label, reason);
    }
    throw PlanError(
        fmt::format("--algo auto: no measured candidate on {} can be planned around the faults: {}",
                    GeometryLabel(g), why));
  }
  if (c.ranking.empty()) {
    std::string list;
    for (const std::string& h : have) list += (list.empty() ? "" : "; ") + h;
    throw PlanError(fmt::format("--algo auto: no measured costs for {}; the cost file has {}",
                                GeometryLabel(g), list.empty() ? "none" : list));
  }
  std::stable_sort(c.ranking.begin(), c.ranking.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });
  return c;
}

}  // namespace aries::coll
