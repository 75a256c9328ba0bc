#include "coll_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "aries_pkg.h"
#include "arith.h"
#include "reference.h"
#include "wiring.h"

namespace aries::tb {

namespace hw = aries::hw;

using coll::AsBits;
using coll::AsFloat;

std::vector<std::vector<uint32_t>> MakeCollInputs(const coll::Program& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  // All-to-all(-v) moves elements: any bits (a narrow range would let a misplaced element pass).
  const bool moves = coll::MovesElements(p.req.collective);
  // Each buffer allocated on its own (copies of one template would write every page twice).
  std::vector<std::vector<uint32_t>> in;
  in.reserve(p.num_nodes());
  for (unsigned i = 0; i < p.num_nodes(); ++i) in.emplace_back(p.elements);
  // Every element in node order, one draw each; the operation picks the distribution once.
  auto fill = [&](auto draw) {
    for (auto& v : in) {
      for (auto& x : v) x = draw();
    }
  };
  auto uniform = [&](float lo, float hi) {
    std::uniform_real_distribution<float> d(lo, hi);
    fill([&] { return AsBits(d(rng)); });
  };
  if (moves) {
    fill([&] { return static_cast<uint32_t>(rng()); });
    return in;
  }
  switch (p.req.op) {
    case hw::kOpAddF32:
      uniform(-1, 1);
      break;
    case hw::kOpMulF32:
      uniform(0.95f, 1.05f);
      break;
    case hw::kOpMinF32:
    case hw::kOpMaxF32:
      uniform(-100, 100);
      break;
    case hw::kOpMulI32:
      fill([&] { return static_cast<uint32_t>(static_cast<int>(rng() % 5) - 2); });
      break;
    default:
      fill([&] { return static_cast<uint32_t>(rng()); });
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
  const bool v = p.req.collective == coll::Collective::kAllToAllV;
  const bool moves = coll::MovesElements(p.req.collective);
  const bool reduction = p.req.collective != coll::Collective::kAllGather &&
                         p.req.collective != coll::Collective::kBroadcast && !moves;
  // fp32 add and mul depend on the association: their golden is the program executed on the
  // inputs with the engine's arithmetic in the hardware's order (coll::ExecuteConcretely),
  // compared bit for bit; subnormals, infinities and NaNs follow the engine's rules there.
  std::vector<std::vector<uint32_t>> ref;
  if (reduction && fp_assoc) {
    coll::Hardware hwp;
    hwp.tracks = p.req.geom.tracks;
    const coll::Wiring wiring(p.req.geom, hwp, p.nodes);
    ref = coll::ExecuteConcretely(p, wiring, in);
  }
  // The golden value of a reduced element is the same on every node of a communicator that
  // holds it: reduced[comm][e], computed once per (communicator, element) (and its text only for a
  // reported mismatch). The order-free operations (integer, bitwise, min, max): the definition,
  // the reduction of every member's input, member by member in rank order ((in0 op in1) op in2
  // ..., coll::ReduceInOrder's order, so the same bits), streaming through each input once; lane
  // by lane with coll::LaneOp, not the endpoints' block reduction (coll::LaneOps).
  const auto comms = coll::Communicators(p.req);
  std::vector<std::vector<uint32_t>> reduced;
  if (reduction && !fp_assoc) {
    reduced.resize(comms.size());
    for (size_t c = 0; c < comms.size(); ++c) {
      std::vector<uint32_t>& acc = reduced[c];
      acc = in[comms[c][0]];
      for (size_t m = 1; m < comms[c].size(); ++m) {
        const std::vector<uint32_t>& x = in[comms[c][m]];
        for (uint64_t e = 0; e < p.elements; ++e) acc[e] = coll::LaneOp(op, acc[e], x[e]);
      }
    }
  }
  // All-gather: element e of a node of communicator `r` is its owner's input.
  auto owner = [&](const coll::CommRank& r, uint64_t e) {
    return comms[r.comm][coll::ShardOf(p.elements, r.size, e)];
  };
  // All-to-all(-v): the sender and its element of a received element
  // (coll::AllToAllSource, AllToAllVLayout::SourceOf: every result element is in a block).
  std::optional<coll::AllToAllVLayout> layout;
  if (v) layout.emplace(p.req);
  auto sent = [&](unsigned node, const coll::CommRank& r, uint64_t e) {
    if (v) {
      const auto s = layout->SourceOf(node, e);
      return std::pair{s->from, s->offset};
    }
    const coll::BlockSource b = coll::AllToAllSource(p.elements, r.size, r.rank, e);
    return std::pair{comms[r.comm][b.rank], b.offset};
  };
  const std::vector<coll::Range> regions = p.ResultRegions();
  for (unsigned node = 0; node < n; ++node) {
    const coll::Range r = regions[node];
    const auto rank = coll::RankOf(p.req, node);
    for (uint64_t e = r.off; e < r.end(); ++e) {
      const uint32_t got = out[node][e];
      bool ok = true;
      switch (p.req.collective) {
        case coll::Collective::kAllGather:
          ok = got == in[owner(*rank, e)][e];
          break;
        case coll::Collective::kBroadcast:
          ok = got == in[p.req.root][e];
          break;
        case coll::Collective::kAllToAll:
        case coll::Collective::kAllToAllV: {
          const auto [from, at] = sent(node, *rank, e);
          ok = got == in[from][at];
          break;
        }
        default:
          if (fp_assoc) {
            ok = got == ref[node][e];
          } else {
            ok = got == reduced[rank->comm][e];
          }
      }
      if (!ok && count++ < max_report) {
        std::string want;
        switch (p.req.collective) {
          case coll::Collective::kAllGather: {
            const unsigned o = owner(*rank, e);
            want = fmt::format("{:#010x} (node {}'s)", in[o][e], o);
            break;
          }
          case coll::Collective::kBroadcast:
            want = fmt::format("{:#010x} (the root's)", in[p.req.root][e]);
            break;
          case coll::Collective::kAllToAll:
          case coll::Collective::kAllToAllV: {
            const auto [from, at] = sent(node, *rank, e);
            want = fmt::format("{:#010x} (node {}'s element {})", in[from][at], from, at);
            break;
          }
          default:
            want = fp_assoc ? fmt::format(
                                  "{:#010x} = {} (the program's order, the engine's fp32 "
                                  "rules)",
                                  ref[node][e], AsFloat(ref[node][e]))
                            : fmt::format("{:#010x}", reduced[rank->comm][e]);
        }
        bad.push_back(fmt::format("node {} element {}: got {:#010x}, want {}", node, e, got, want));
      }
    }
    // What no message may write keeps the input: the tail past an all-to-all's G blocks, an
    // all-to-all-v's send area and the rest of its receive area, and the whole buffer of a node
    // in no communicator. Past the all-to-all-v's layout a program may stage blocks it relays
    // (2phase): a member's scratch.
    if (!moves && rank) continue;
    const uint64_t kept = v && rank ? layout->elements() : p.elements;
    for (uint64_t e = 0; e < kept; ++e) {
      if (e >= r.off && e < r.end()) continue;
      if (out[node][e] != in[node][e] && count++ < max_report) {
        bad.push_back(fmt::format(
            "node {} element {}: got {:#010x}, want {:#010x} (its input: {})", node, e,
            out[node][e], in[node][e],
            !rank ? "in no communicator"
            : v   ? (e < layout->send_area() ? "its send area" : "past its receive blocks")
                  : "past the all-to-all's blocks"));
      }
    }
  }
  if (count > max_report) bad.push_back(fmt::format("... {} wrong elements in all", count));
  return bad;
}

}  // namespace aries::tb
