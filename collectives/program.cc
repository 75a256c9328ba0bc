#include "program.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <random>

namespace aries::coll {

namespace {
constexpr Collective kAll[] = {Collective::kAllReduce, Collective::kReduceScatter,
                               Collective::kAllGather, Collective::kReduce,
                               Collective::kBroadcast, Collective::kBarrier,
                               Collective::kAllToAll,  Collective::kAllToAllV};
}

const char* CollectiveName(Collective c) {
  switch (c) {
    case Collective::kAllReduce:
      return "allreduce";
    case Collective::kReduceScatter:
      return "reducescatter";
    case Collective::kAllGather:
      return "allgather";
    case Collective::kReduce:
      return "reduce";
    case Collective::kBroadcast:
      return "broadcast";
    case Collective::kBarrier:
      return "barrier";
    case Collective::kAllToAll:
      return "alltoall";
    case Collective::kAllToAllV:
      return "alltoallv";
  }
  return "?";
}

std::optional<Collective> ParseCollective(std::string_view name) {
  for (Collective c : kAll) {
    if (name == CollectiveName(c)) return c;
  }
  return std::nullopt;
}

const char* CollectiveNames() {
  return "allreduce, reducescatter, allgather, reduce, broadcast, barrier, alltoall, alltoallv";
}

bool MovesElements(Collective c) {
  return c == Collective::kAllToAll || c == Collective::kAllToAllV;
}

bool Swept(Collective c) {
  return c == Collective::kAllReduce || c == Collective::kReduceScatter ||
         c == Collective::kAllGather || c == Collective::kAllToAll;
}

const char* SweptNames() { return "allreduce, reducescatter, allgather, alltoall"; }

const char* RingMapName(RingMap m) { return m == RingMap::kRank ? "rank" : "snake"; }

std::optional<RingMap> ParseRingMap(std::string_view name) {
  for (RingMap m : {RingMap::kSnake, RingMap::kRank}) {
    if (name == RingMapName(m)) return m;
  }
  return std::nullopt;
}

std::string RingLayout::Suffix() const {
  std::string s;
  if (map != RingMap::kSnake) s += fmt::format(" {}", RingMapName(map));
  if (dirs == 2) s += " bidir";
  return s;
}

const char* ActName(Act a) {
  switch (a) {
    case Act::kSend:
      return "send";
    case Act::kRecvReduce:
      return "recv-reduce";
    case Act::kRecvCopy:
      return "recv-copy";
    case Act::kEngSend:
      return "engine-send";
    case Act::kEngRecv:
      return "engine-recv";
  }
  return "?";
}

Range Shard(uint64_t elements, unsigned n, unsigned i) {
  const uint64_t base = elements / n, extra = elements % n;
  return {i * base + std::min<uint64_t>(i, extra), base + (i < extra ? 1 : 0)};
}

Range AllToAllBlock(uint64_t elements, unsigned n, unsigned i) {
  const uint64_t len = elements / n;
  return {i * len, len};
}

BlockSource AllToAllSource(uint64_t elements, unsigned n, unsigned rank, uint64_t e) {
  const uint64_t len = AllToAllBlock(elements, n, 0).len;
  return {static_cast<unsigned>(e / len), AllToAllBlock(elements, n, rank).off + e % len};
}

namespace {
// Link directions per row (per column) that cross the middle cut of K x K with a = floor(K/2)
// columns (rows) on one side and b = K - a on the other: 1 on the mesh, 2 on the torus (K > 2),
// a b on the flattened butterfly, 1 + tracks on ARIES (a track carries one segment across it at
// most), 1/2 on the concentrated mesh (one router link per two chiplet rows).
double CutWidth(const Geometry& g) {
  const double a = g.k / 2, b = g.k - g.k / 2;
  switch (g.topology) {
    case Topology::kMesh:
      return 1;
    case Topology::kTorus:
      return g.k > 2 ? 2 : 1;
    case Topology::kFbfly:
      return a * b;
    case Topology::kAries:
      return 1.0 + g.tracks;
    case Topology::kCmesh:
      return 0.5;
  }
  return 1;
}
// The column (row) cuts the bisection bounds take, a columns left of each: the middle, floor(K/2),
// and its mirror; on the concentrated mesh with K/2 odd the router boundaries beside the middle
// (a cut through a router's group is crossed by no link).
std::array<unsigned, 2> MiddleCuts(const Geometry& g) {
  const unsigned k = g.k;
  if (g.topology == Topology::kCmesh && (k / 2) % 2 == 1) return {k / 2 - 1, k / 2 + 1};
  return {k / 2, k - k / 2};
}
}  // namespace

double AllToAllBisection(const Geometry& g) {
  double most = 0;
  for (const unsigned a : MiddleCuts(g)) {
    most = std::max(most, static_cast<double>(a) * (g.k - a) / (CutWidth(g) * g.k));
  }
  return most;
}

AllToAllVLayout::AllToAllVLayout(const Request& req)
    : n_(req.geom.k * req.geom.k),
      send_(size_t{n_} * n_),
      recv_(size_t{n_} * n_),
      recv_len_(n_),
      sent_(n_),
      blocks_(n_) {
  for (const auto& members : Communicators(req)) {
    for (unsigned i : members) {
      uint64_t s = 0, r = 0;
      for (unsigned j : members) {
        const uint64_t out = req.counts[i][j], in = req.counts[j][i];
        send_[size_t{i} * n_ + j] = {s, out};
        s += out;
        if (j != i) {
          recv_[size_t{i} * n_ + j] = {r, in};
          r += in;
          sent_[i] += out;
        }
      }
      send_area_ = std::max(send_area_, s);
      recv_len_[i] = r;
    }
  }
  uint64_t longest = 0;
  for (unsigned i = 0; i < n_; ++i) {
    longest = std::max(longest, recv_len_[i]);
    for (unsigned j = 0; j < n_; ++j) {  // in rank order: ascending offsets
      Range& r = recv_[size_t{i} * n_ + j];
      r.off += send_area_;
      if (r.len) blocks_[i].push_back({r.end(), j});
    }
  }
  elements_ = send_area_ + longest;
}

std::optional<AllToAllVLayout::Source> AllToAllVLayout::SourceOf(unsigned at, uint64_t e) const {
  const auto& b = blocks_[at];
  const auto it = std::upper_bound(b.begin(), b.end(), e,
                                   [](uint64_t x, const auto& blk) { return x < blk.first; });
  if (it == b.end()) return std::nullopt;
  const Range r = Recv(at, it->second);
  if (e < r.off) return std::nullopt;
  return Source{it->second, Send(it->second, at).off + (e - r.off)};
}

void CheckCounts(const Request& req, uint64_t max_elements) {
  const unsigned n = req.geom.k * req.geom.k;
  if (req.counts.size() != n) {
    throw PlanError(fmt::format("coll.counts: {} rows, one per chiplet of {}x{}: allowed {}",
                                req.counts.size(), req.geom.k, req.geom.k, n));
  }
  std::vector<int> comm(n, -1);
  const auto comms = Communicators(req);
  for (unsigned c = 0; c < comms.size(); ++c) {
    for (unsigned m : comms[c]) comm[m] = static_cast<int>(c);
  }
  bool moves = false;
  std::vector<uint64_t> send(n, 0), recv(n, 0);
  for (unsigned i = 0; i < n; ++i) {
    if (req.counts[i].size() != n) {
      throw PlanError(fmt::format("coll.counts: row {} has {} counts: allowed {}, one per chiplet",
                                  i, req.counts[i].size(), n));
    }
    for (unsigned j = 0; j < n; ++j) {
      const uint64_t c = req.counts[i][j];
      if (c == 0) continue;
      if (comm[i] < 0 || comm[i] != comm[j]) {
        throw PlanError(fmt::format(
            "coll.counts: row {} column {} is {}, but {}: allowed 0 between chiplets that share "
            "no communicator",
            i, j, c,
            comm[i] < 0 ? fmt::format("chiplet {} is in no communicator", i)
            : comm[j] < 0
                ? fmt::format("chiplet {} is in no communicator", j)
                : fmt::format("chiplets {} and {} are in different communicators", i, j)));
      }
      if (c > max_elements) {
        throw PlanError(fmt::format("coll.counts: row {} column {} is {}: allowed 0 .. {}", i, j, c,
                                    max_elements));
      }
      send[i] += c;
      if (i != j) {
        recv[j] += c;
        moves = true;
      }
    }
  }
  if (!moves) {
    throw PlanError(
        "coll.counts: every count between two different chiplets is 0: allowed counts that move "
        "at least one element");
  }
  const uint64_t s = *std::max_element(send.begin(), send.end());
  const uint64_t r = *std::max_element(recv.begin(), recv.end());
  if (s + r > max_elements) {
    const auto si = std::max_element(send.begin(), send.end()) - send.begin();
    const auto ri = std::max_element(recv.begin(), recv.end()) - recv.begin();
    throw PlanError(fmt::format(
        "coll.counts: a buffer of {} elements (chiplet {} sends {}, chiplet {} receives {}): "
        "allowed at most {} per chiplet",
        s + r, si, s, ri, r, max_elements));
  }
}

std::vector<std::vector<uint64_t>> MakeCounts(const Request& req, const std::string& kind,
                                              uint64_t per_pair, uint64_t seed) {
  if (kind != "uniform" && kind != "random") {
    throw PlanError(fmt::format("coll.counts = {}: allowed uniform, random", kind));
  }
  const unsigned n = req.geom.k * req.geom.k;
  std::vector<std::vector<uint64_t>> c(n, std::vector<uint64_t>(n, 0));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> draw(0, 2 * per_pair);
  for (const auto& members : Communicators(req)) {
    for (unsigned i : members) {
      for (unsigned j : members) c[i][j] = kind == "uniform" ? per_pair : draw(rng);
    }
  }
  return c;
}

double AllToAllVBisection(const Geometry& g, const std::vector<std::vector<uint64_t>>& counts) {
  const unsigned k = g.k;
  if (k < 2) return 0;
  // Elements crossing a column cut (x < a to x >= a, and back) and a row cut, for the middle
  // cut a = floor(K/2) and, K odd, its mirror a = K - floor(K/2) (a pair's path crosses both;
  // MiddleCuts).
  uint64_t most = 0;
  for (const unsigned a : MiddleCuts(g)) {
    uint64_t cross[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < counts.size(); ++i) {
      for (unsigned j = 0; j < counts[i].size(); ++j) {
        const uint64_t c = counts[i][j];
        if (c == 0) continue;
        const bool xi = i % k < a, xj = j % k < a, yi = i / k < a, yj = j / k < a;
        if (xi && !xj) cross[0] += c;
        if (!xi && xj) cross[1] += c;
        if (yi && !yj) cross[2] += c;
        if (!yi && yj) cross[3] += c;
      }
    }
    most = std::max(most, *std::max_element(cross, cross + 4));
  }
  return static_cast<double>(most) / (CutWidth(g) * k);
}

unsigned ShardOf(uint64_t elements, unsigned n, uint64_t e) {
  const uint64_t base = elements / n, extra = elements % n;
  // The first `extra` shards hold base + 1 elements.
  if (e < extra * (base + 1)) return static_cast<unsigned>(e / (base + 1));
  return static_cast<unsigned>(extra + (e - extra * (base + 1)) / base);
}

std::vector<std::vector<unsigned>> Communicators(const Request& req) {
  if (req.groups.empty()) {
    std::vector<unsigned> all(req.geom.k * req.geom.k);
    for (unsigned i = 0; i < all.size(); ++i) all[i] = i;
    return {all};
  }
  std::vector<std::vector<unsigned>> g = req.groups;
  for (auto& members : g) std::sort(members.begin(), members.end());
  return g;
}

std::optional<CommRank> RankOf(const Request& req, unsigned node) {
  if (req.groups.empty()) return CommRank{0, node, req.geom.k * req.geom.k};
  for (unsigned c = 0; c < req.groups.size(); ++c) {
    const auto& g = req.groups[c];
    if (std::find(g.begin(), g.end(), node) == g.end()) continue;
    unsigned below = 0;  // the rank: members with a smaller id
    for (unsigned m : g) below += m < node ? 1 : 0;
    return CommRank{c, below, static_cast<unsigned>(g.size())};
  }
  return std::nullopt;
}

unsigned LargestCommunicator(const Request& req) {
  size_t most = 0;
  for (const auto& c : Communicators(req)) most = std::max(most, c.size());
  return static_cast<unsigned>(most);
}

void CheckGroups(const std::vector<std::vector<unsigned>>& groups, unsigned k) {
  const unsigned n = k * k;
  std::vector<bool> used(n, false);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].size() < 2) {
      throw PlanError(
          fmt::format("groups of at least two nodes (group {} has {})", g + 1, groups[g].size()));
    }
    for (unsigned v : groups[g]) {
      if (v >= n) {
        throw PlanError(fmt::format("node ids 0..{} on {}x{} ({} is not one)", n - 1, k, k, v));
      }
      if (used[v]) {
        throw PlanError(fmt::format("disjoint groups (node {} is in two, or twice in one)", v));
      }
      used[v] = true;
    }
  }
}

std::vector<std::vector<unsigned>> ParseGroups(const std::string& text, unsigned k) {
  std::vector<std::vector<unsigned>> g;
  if (text == "rows" || text == "cols") {
    for (unsigned a = 0; a < k; ++a) {
      std::vector<unsigned> m;
      for (unsigned b = 0; b < k; ++b) m.push_back(text == "rows" ? a * k + b : b * k + a);
      g.push_back(m);
    }
  } else if (text == "quadrants" || text == "qpeers" || text == "vpairs" || text == "hpairs") {
    if (k % 2 != 0) throw PlanError(fmt::format("{} with K even (K = {})", text, k));
    const unsigned h = k / 2;
    if (text == "quadrants") {
      for (unsigned q = 0; q < 4; ++q) {
        std::vector<unsigned> m;
        for (unsigned y = 0; y < h; ++y) {
          for (unsigned x = 0; x < h; ++x) m.push_back(((q / 2) * h + y) * k + (q % 2) * h + x);
        }
        g.push_back(m);
      }
    } else if (text == "qpeers") {  // the chiplets at one offset in each quadrant
      for (unsigned y = 0; y < h; ++y) {
        for (unsigned x = 0; x < h; ++x) {
          std::vector<unsigned> m;
          for (unsigned q = 0; q < 4; ++q) m.push_back(((q / 2) * h + y) * k + (q % 2) * h + x);
          g.push_back(m);
        }
      }
    } else {  // neighbour pairs: rows 2i and 2i+1 per column (vpairs), columns per row (hpairs)
      for (unsigned a = 0; a < h; ++a) {
        for (unsigned b = 0; b < k; ++b) {
          g.push_back(text == "vpairs" ? std::vector<unsigned>{2 * a * k + b, (2 * a + 1) * k + b}
                                       : std::vector<unsigned>{b * k + 2 * a, b * k + 2 * a + 1});
        }
      }
    }
  } else {
    // Lists: "a,b,c;d,e": the ids' spelling here, their range and the groups' shape below.
    for (size_t start = 0; start <= text.size();) {
      const size_t end = std::min(text.find(';', start), text.size());
      const std::string part = text.substr(start, end - start);
      std::vector<unsigned> m;
      for (size_t i = 0; i <= part.size();) {
        const size_t j = std::min(part.find(',', i), part.size());
        const std::string id = part.substr(i, j - i);
        if (id.empty() || id.size() > 6 ||
            id.find_first_not_of("0123456789") != std::string::npos) {
          throw PlanError(fmt::format(
              "node ids 0..{} on {}x{} ('{}' is not one), groups separated by ';', ids by ','; or "
              "{}",
              k * k - 1, k, k, id, GroupShapeNames()));
        }
        m.push_back(static_cast<unsigned>(std::stoul(id)));
        i = j + 1;
      }
      g.push_back(m);
      start = end + 1;
    }
  }
  CheckGroups(g, k);  // (quadrants of K = 2: groups of one)
  return g;
}

namespace {
constexpr const char* kGroupShapes[] = {"rows", "cols", "quadrants", "qpeers", "vpairs", "hpairs"};
}  // namespace

const char* GroupShapeNames() {
  static const std::string names = [] {
    std::string s;
    for (const char* n : kGroupShapes) s += std::string(s.empty() ? "" : ", ") + n;
    return s;
  }();
  return names.c_str();
}

bool IsGroupShape(const std::string& text) {
  return std::find(std::begin(kGroupShapes), std::end(kGroupShapes), text) !=
         std::end(kGroupShapes);
}

std::string GroupsLabel(const Request& req) {
  if (req.groups.empty()) return "";
  size_t lo = req.groups[0].size(), hi = lo;
  for (const auto& m : req.groups) {
    lo = std::min(lo, m.size());
    hi = std::max(hi, m.size());
  }
  return lo == hi ? fmt::format("{} communicators of {}", req.groups.size(), lo)
                  : fmt::format("{} communicators of {}..{}", req.groups.size(), lo, hi);
}

const EngineId* NodeProgram::FindId(unsigned id) const {
  for (const EngineId& e : ids) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

unsigned Program::SegmentLinks() const {
  unsigned n = 0;
  for (const NodeProgram& np : nodes) {
    for (const PortSel& ps : np.portsel) n += ps.out != 0 ? 1 : 0;
  }
  return n;
}

namespace {

// Node `node`'s result region; `v`: the all-to-all-v's layout (built once by the caller).
Range ResultOf(const Program& p, unsigned node, const AllToAllVLayout* v) {
  const auto r = RankOf(p.req, node);
  if (!r) return {0, 0};  // in no communicator
  switch (p.req.collective) {
    case Collective::kReduceScatter:
      return Shard(p.elements, r->size, r->rank);
    case Collective::kReduce:
      return node == p.req.root ? Range{0, p.elements} : Range{0, 0};
    case Collective::kAllToAll:
      return {0, AllToAllBlock(p.elements, r->size, 0).len * r->size};
    case Collective::kAllToAllV:
      return v->Received(node);
    default:
      return {0, p.elements};
  }
}

}  // namespace

Range Program::ResultRegion(unsigned node) const {
  if (req.collective != Collective::kAllToAllV) return ResultOf(*this, node, nullptr);
  const AllToAllVLayout v(req);
  return ResultOf(*this, node, &v);
}

std::vector<Range> Program::ResultRegions() const {
  std::optional<AllToAllVLayout> v;
  if (req.collective == Collective::kAllToAllV) v.emplace(req);
  std::vector<Range> r(num_nodes());
  for (unsigned n = 0; n < num_nodes(); ++n) r[n] = ResultOf(*this, n, v ? &*v : nullptr);
  return r;
}

}  // namespace aries::coll
