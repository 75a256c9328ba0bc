#include "program.h"

#include <fmt/format.h>

namespace aries::coll {

namespace {
constexpr Collective kAll[] = {Collective::kAllReduce, Collective::kReduceScatter,
                               Collective::kAllGather, Collective::kReduce,
                               Collective::kBroadcast, Collective::kBarrier};
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
  return "allreduce, reducescatter, allgather, reduce, broadcast, barrier";
}

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

unsigned ShardOf(uint64_t elements, unsigned n, uint64_t e) {
  const uint64_t base = elements / n, extra = elements % n;
  // The first `extra` shards hold base + 1 elements.
  if (e < extra * (base + 1)) return static_cast<unsigned>(e / (base + 1));
  return static_cast<unsigned>(extra + (e - extra * (base + 1)) / base);
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
  switch (req.collective) {
    case Collective::kReduceScatter:
      return Shard(elements, num_nodes(), node);
    case Collective::kReduce:
      return node == req.root ? Range{0, elements} : Range{0, 0};
    default:
      return {0, elements};
  }
}

}  // namespace aries::coll
