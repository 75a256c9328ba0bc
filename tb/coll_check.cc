#include "coll_check.h"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "aries_pkg.h"
#include "arith.h"

namespace aries::tb {

namespace hw = aries::hw;

using coll::AsBits;
using coll::AsFloat;

std::vector<std::vector<uint32_t>> MakeCollInputs(const coll::Program& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned op = p.req.op;
  std::vector<std::vector<uint32_t>> in(p.num_nodes(), std::vector<uint32_t>(p.elements));
  for (auto& v : in) {
    for (auto& x : v) {
      switch (op) {
        case hw::kOpAddF32:
          x = AsBits(std::uniform_real_distribution<float>(-1, 1)(rng));
          break;
        case hw::kOpMulF32:
          x = AsBits(std::uniform_real_distribution<float>(0.95f, 1.05f)(rng));
          break;
        case hw::kOpMinF32:
        case hw::kOpMaxF32:
          x = AsBits(std::uniform_real_distribution<float>(-100, 100)(rng));
          break;
        case hw::kOpMulI32:
          x = static_cast<uint32_t>(static_cast<int>(rng() % 5) - 2);
          break;
        default:
          x = static_cast<uint32_t>(rng());
      }
    }
  }
  return in;
}

std::vector<std::string> CheckCollective(const coll::Program& p,
                                         const std::vector<std::vector<uint32_t>>& in,
                                         const std::vector<std::vector<uint32_t>>& out,
                                         size_t max_report) {
  std::vector<std::string> bad;
  size_t count = 0;
  const unsigned n = p.num_nodes(), op = p.req.op;
  const bool fp_assoc = op == hw::kOpAddF32 || op == hw::kOpMulF32;
  const bool reduction = p.req.collective != coll::Collective::kAllGather &&
                         p.req.collective != coll::Collective::kBroadcast;
  // The golden value of a reduced element is the same on every node that holds it: computed
  // once per element (and its text only for a reported mismatch).
  std::vector<uint32_t> want_bits;
  std::vector<double> want_ref, want_tol;
  std::vector<char> known;
  if (reduction) {
    known.assign(p.elements, 0);
    if (fp_assoc) {
      want_ref.assign(p.elements, 0);
      want_tol.assign(p.elements, 0);
    } else {
      want_bits.assign(p.elements, 0);
    }
  }
  std::vector<uint32_t> vals(n);
  auto golden = [&](uint64_t e) {
    if (known[e]) return;
    known[e] = 1;
    if (fp_assoc) {
      double ref = op == hw::kOpAddF32 ? 0.0 : 1.0, mag = 0.0;
      for (unsigned i = 0; i < n; ++i) {
        const double x = AsFloat(in[i][e]);
        if (op == hw::kOpAddF32)
          ref += x;
        else
          ref *= x;
        mag += std::fabs(x);
      }
      want_ref[e] = ref;
      want_tol[e] =
          op == hw::kOpAddF32 ? n * std::ldexp(mag, -22) : n * std::ldexp(std::fabs(ref), -22);
    } else {
      for (unsigned i = 0; i < n; ++i) vals[i] = in[i][e];
      want_bits[e] = coll::ReduceInOrder(op, vals);
    }
  };
  for (unsigned node = 0; node < n; ++node) {
    const coll::Range r = p.ResultRegion(node);
    for (uint64_t e = r.off; e < r.end(); ++e) {
      const uint32_t got = out[node][e];
      bool ok = true;
      switch (p.req.collective) {
        case coll::Collective::kAllGather:
          ok = got == in[coll::ShardOf(p.elements, n, e)][e];
          break;
        case coll::Collective::kBroadcast:
          ok = got == in[p.req.root][e];
          break;
        default:
          golden(e);
          ok = fp_assoc ? std::fabs(static_cast<double>(AsFloat(got)) - want_ref[e]) <= want_tol[e]
                        : got == want_bits[e];
      }
      if (!ok && count++ < max_report) {
        std::string want;
        switch (p.req.collective) {
          case coll::Collective::kAllGather: {
            const unsigned owner = coll::ShardOf(p.elements, n, e);
            want = fmt::format("{:#010x} (node {}'s)", in[owner][e], owner);
            break;
          }
          case coll::Collective::kBroadcast:
            want = fmt::format("{:#010x} (the root's)", in[p.req.root][e]);
            break;
          default:
            want = fp_assoc ? fmt::format("{} (+- {})", want_ref[e], want_tol[e])
                            : fmt::format("{:#010x}", want_bits[e]);
        }
        bad.push_back(fmt::format("node {} element {}: got {:#010x}, want {}", node, e, got, want));
      }
    }
  }
  if (count > max_report) bad.push_back(fmt::format("... {} wrong elements in all", count));
  return bad;
}

}  // namespace aries::tb
