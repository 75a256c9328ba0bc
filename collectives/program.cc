#include "program.h"

#include <fmt/format.h>

#include <algorithm>

namespace aries::coll {

namespace {
constexpr Collective kAll[] = {
    Collective::kAllReduce, Collective::kReduceScatter, Collective::kAllGather, Collective::kReduce,
    Collective::kBroadcast, Collective::kBarrier,       Collective::kAllToAll};
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
  return "allreduce, reducescatter, allgather, reduce, broadcast, barrier, alltoall";
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

double AllToAllBisection(const Geometry& g) {
  const double a = g.k / 2, b = g.k - g.k / 2;
  double w = 1;
  switch (g.topology) {
    case Topology::kMesh:
      w = 1;
      break;
    case Topology::kTorus:
      w = g.k > 2 ? 2 : 1;
      break;
    case Topology::kFbfly:
      w = a * b;
      break;
    case Topology::kAries:
      w = 1.0 + g.tracks;
      break;
  }
  return a * b / (w * g.k);
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
  } else if (text == "quadrants") {
    if (k % 2 != 0) throw PlanError(fmt::format("quadrants with K even (K = {})", k));
    const unsigned h = k / 2;
    for (unsigned q = 0; q < 4; ++q) {
      std::vector<unsigned> m;
      for (unsigned y = 0; y < h; ++y) {
        for (unsigned x = 0; x < h; ++x) m.push_back(((q / 2) * h + y) * k + (q % 2) * h + x);
      }
      g.push_back(m);
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
              "rows, cols, quadrants",
              k * k - 1, k, k, id));
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

Range Program::ResultRegion(unsigned node) const {
  const auto r = RankOf(req, node);
  if (!r) return {0, 0};  // in no communicator
  switch (req.collective) {
    case Collective::kReduceScatter:
      return Shard(elements, r->size, r->rank);
    case Collective::kReduce:
      return node == req.root ? Range{0, elements} : Range{0, 0};
    case Collective::kAllToAll:
      return {0, AllToAllBlock(elements, r->size, 0).len * r->size};
    default:
      return {0, elements};
  }
}

}  // namespace aries::coll
