// The reference interpreter (collectives/reference.h) against the collectives' definitions:
// for the order-free operations every algorithm x collective x topology gives exactly the
// reduction of every node's input (all-gather: the owner's shard; broadcast: the root's), and
// for fp32 add its value depends on the program's association (ring and tree differ) while
// every element stays within the rounding bound of the exact sum.
#include "reference.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "aries_pkg.h"
#include "arith.h"
#include "planners.h"
#include "wiring.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

std::vector<std::vector<uint32_t>> Execute(const Program& p, const Hardware& h,
                                           const std::vector<std::vector<uint32_t>>& in) {
  const Wiring w(p.req.geom, h, p.nodes);
  return ExecuteConcretely(p, w, in);
}

TEST(Reference, OrderFreeOperationsGiveTheDefinitionForEveryAlgorithm) {
  std::mt19937_64 rng(7);
  unsigned checked = 0;
  for (const AlgorithmInfo& a : Algorithms()) {
    for (Collective c : {Collective::kAllReduce, Collective::kReduceScatter, Collective::kAllGather,
                         Collective::kReduce, Collective::kBroadcast}) {
      if (!a.Serves(c)) continue;
      for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
        if ((a.engine && t == Topology::kFbfly) || !a.Serves(t)) continue;
        for (unsigned op : {hw::kOpAddI32, hw::kOpMaxI32, hw::kOpXor}) {
          SCOPED_TRACE(
              fmt::format("{} {} {} {}", a.name, CollectiveName(c), TopologyName(t), OpName(op)));
          Request r;
          r.geom.topology = t;
          r.geom.k = 4;
          r.algo = a.name;
          r.collective = c;
          r.op = op;
          r.elements = 1009;  // no flit or node count divides it
          r.root = 5;
          Hardware h;
          h.engine = t != Topology::kFbfly;
          const Program p = Plan(r, h);
          const unsigned n = p.num_nodes();
          std::vector<std::vector<uint32_t>> in(n, std::vector<uint32_t>(p.elements));
          for (auto& v : in)
            for (auto& x : v) x = static_cast<uint32_t>(rng());
          const auto out = Execute(p, h, in);
          std::vector<uint32_t> vals(n);
          const std::vector<Range> regions = p.ResultRegions();
          for (unsigned node = 0; node < n; ++node) {
            const Range rr = regions[node];
            for (uint64_t e = rr.off; e < rr.end(); ++e) {
              uint32_t want;
              if (c == Collective::kAllGather) {
                want = in[ShardOf(p.elements, n, e)][e];
              } else if (c == Collective::kBroadcast) {
                want = in[r.root][e];
              } else {
                for (unsigned i = 0; i < n; ++i) vals[i] = in[i][e];
                want = ReduceInOrder(op, vals);
              }
              ASSERT_EQ(out[node][e], want) << "node " << node << " element " << e;
            }
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 60u);
}

TEST(Reference, Fp32AddFollowsTheProgramsAssociation) {
  std::mt19937_64 rng(3);
  const unsigned n = 16;
  std::vector<std::vector<uint32_t>> in(n, std::vector<uint32_t>(4096));
  for (auto& v : in)
    for (auto& x : v) x = AsBits(std::uniform_real_distribution<float>(-1e3f, 1e3f)(rng));
  std::vector<std::vector<uint32_t>> out[2];
  const char* algos[] = {"ring", "tree"};
  for (int i = 0; i < 2; ++i) {
    Request r;
    r.geom.topology = Topology::kMesh;
    r.geom.k = 4;
    r.algo = algos[i];
    r.op = hw::kOpAddF32;
    r.elements = 4096;
    const Hardware h;
    out[i] = Execute(Plan(r, h), h, in);
  }
  unsigned differ = 0;
  for (uint64_t e = 0; e < 4096; ++e) {
    double exact = 0, mag = 0;
    for (unsigned i = 0; i < n; ++i) {
      exact += AsFloat(in[i][e]);
      mag += std::fabs(AsFloat(in[i][e]));
    }
    for (int i = 0; i < 2; ++i) {
      // n - 1 roundings of at most 2^-24 of a partial sum each: within n 2^-24 of the magnitudes.
      EXPECT_LE(std::fabs(AsFloat(out[i][0][e]) - exact), n * std::ldexp(mag, -24)) << e;
    }
    differ += out[0][0][e] != out[1][0][e];
  }
  EXPECT_GT(differ, 0u) << "ring and tree associate differently: some sums must differ";
}

}  // namespace
