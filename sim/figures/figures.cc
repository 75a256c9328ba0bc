// What the figures share: the paper's package sizes and the evaluation's assumption sets.
#include "figures.h"

#include <fmt/format.h>

#include <stdexcept>

#include "planners.h"
#include "run_util.h"

namespace aries::sim {

std::vector<unsigned> ParsePaperKs(const std::string& ks, const char* option) {
  std::vector<unsigned> v;
  for (const std::string& s : SplitList(ks, option)) {
    if (s != "4" && s != "8")
      throw std::invalid_argument(fmt::format("{} {}: allowed 4, 8 (the paper's)", option, ks));
    v.push_back(static_cast<unsigned>(std::stoul(s)));
  }
  if (v.empty())
    throw std::invalid_argument(fmt::format("{} '{}': allowed 4, 8 (the paper's)", option, ks));
  return v;
}

const Assumptions& PresetAssumptions(const std::string& preset) {
  return preset == "paper" ? kPaperAssumptions : kOurAssumptions;
}

coll::Geometry PresetPackage(coll::Topology t, unsigned k, const Assumptions& as) {
  coll::Geometry g;
  g.topology = t;
  g.k = k;
  g.local_ports = t == coll::Topology::kAries ? as.aries_ports : 1;
  if (t == coll::Topology::kAries) g.extra_per_pitch = as.aries_extra_per_pitch;
  return g;
}

coll::Geometry DedicatedTreeLinksPackage(unsigned k, const Assumptions& as) {
  coll::Geometry g = PresetPackage(coll::Topology::kFbfly, k, as);
  g.local_ports = as.aries_ports;
  return g;
}

coll::RingLayout PresetRing(const Assumptions& as, bool baseline) {
  return {baseline && as.rank_baselines ? coll::RingMap::kRank : coll::RingMap::kSnake, 1};
}

bool PresetAdmits(const coll::Candidate& c, bool baseline, const Assumptions& as) {
  const coll::AlgorithmInfo* a = coll::FindAlgorithm(c.algo);
  if (a && a->concentrates && !baseline && !as.concentration) return false;
  if (!a || !a->ring_layout) return true;
  const coll::RingLayout want = PresetRing(as, baseline);
  return c.ring.map == want.map && c.ring.dirs == want.dirs;
}

const std::vector<coll::Topology>& AdaptNocSubnetworks() {
  static const std::vector<coll::Topology> v = {coll::Topology::kMesh, coll::Topology::kTorus,
                                                coll::Topology::kAries, coll::Topology::kCmesh};
  return v;
}

coll::Geometry AdaptNocPackage(coll::Topology t, unsigned k) {
  coll::Geometry g;
  g.topology = t;
  g.k = k;
  return g;
}

std::string AdaptNocSubnetworkName(coll::Topology t) {
  return t == coll::Topology::kAries   ? "adaptable links"
         : t == coll::Topology::kCmesh ? "concentrated mesh"
                                       : coll::TopologyName(t);
}

std::string UnsignedZero(std::string formatted) {
  if (!formatted.empty() && formatted[0] == '-' &&
      formatted.find_first_of("123456789") == std::string::npos)
    formatted.erase(0, 1);
  return formatted;
}

std::string PresetLine(const Assumptions& as) {
  const std::string rings =
      as.rank_baselines
          ? "baseline rings in rank order 0, 1, .., N-1 (ASTRA-sim's ring on Garnet's mesh), "
            "ARIES's ring the snake"
          : "every ring the snake, a Hamiltonian cycle of neighbours (ARIES II-C)";
  const std::string ports =
      as.aries_ports > 1
          ? fmt::format(
                "one local port per chiplet on the baselines; ARIES's chiplets with the {} local "
                "ports its ARIES_BW needs (II-C: two rings at once; node.local_ports = {})",
                as.aries_ports, as.aries_ports)
          : "one local port per chiplet (one flit per cycle in and out; --preset paper gives "
            "ARIES two)";
  return fmt::format("Assumptions ({} preset): {}; {}", as.name, rings, ports);
}

}  // namespace aries::sim
