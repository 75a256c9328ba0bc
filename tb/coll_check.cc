#include "coll_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <utility>

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

namespace {

// The right value of every element of a collective's results on inputs `in`, and what a node
// keeps of its input.
class Golden {
 public:
  Golden(const coll::Program& p, const std::vector<std::vector<uint32_t>>& in)
      : p_(p),
        in_(in),
        op_(p.req.op),
        fp_assoc_(op_ == hw::kOpAddF32 || op_ == hw::kOpMulF32),
        v_(p.req.collective == coll::Collective::kAllToAllV),
        moves_(coll::MovesElements(p.req.collective)),
        reduction_(p.req.collective != coll::Collective::kAllGather &&
                   p.req.collective != coll::Collective::kBroadcast && !moves_) {
    if (reduction_ && fp_assoc_) ref_ = ExecuteInOrder();
    comms_ = coll::Communicators(p.req);
    if (reduction_ && !fp_assoc_) reduced_ = ReduceByDefinition();
    if (v_) layout_.emplace(p.req);
  }

  // Whether `got` is right for element e of `node` (of rank `rank`).
  bool Matches(unsigned node, const coll::CommRank& rank, uint64_t e, uint32_t got) const {
    switch (p_.req.collective) {
      case coll::Collective::kAllGather:
        return got == in_[Owner(rank, e)][e];
      case coll::Collective::kBroadcast:
        return got == in_[p_.req.root][e];
      case coll::Collective::kAllToAll:
      case coll::Collective::kAllToAllV: {
        const auto [from, at] = Sent(node, rank, e);
        return got == in_[from][at];
      }
      default:
        if (fp_assoc_) return got == ref_[node][e];
        return got == reduced_[rank.comm][e];
    }
  }

  // The right value of element e of `node` (of rank `rank`) and where it comes from, for a
  // report.
  std::string Want(unsigned node, const coll::CommRank& rank, uint64_t e) const {
    switch (p_.req.collective) {
      case coll::Collective::kAllGather: {
        const unsigned o = Owner(rank, e);
        return fmt::format("{:#010x} (node {}'s)", in_[o][e], o);
      }
      case coll::Collective::kBroadcast:
        return fmt::format("{:#010x} (the root's)", in_[p_.req.root][e]);
      case coll::Collective::kAllToAll:
      case coll::Collective::kAllToAllV: {
        const auto [from, at] = Sent(node, rank, e);
        return fmt::format("{:#010x} (node {}'s element {})", in_[from][at], from, at);
      }
      default:
        return fp_assoc_ ? fmt::format(
                               "{:#010x} = {} (the program's order, the engine's fp32 "
                               "rules)",
                               ref_[node][e], AsFloat(ref_[node][e]))
                         : fmt::format("{:#010x}", reduced_[rank.comm][e]);
    }
  }

  // Whether a node's elements outside its results must keep its input (in an all-to-all, or
  // on a node in no communicator).
  bool KeepsInput(bool in_comm) const { return moves_ || !in_comm; }
  // The elements of a node whose input stays (past them a member may stage relayed blocks).
  uint64_t Kept(bool in_comm) const { return v_ && in_comm ? layout_->elements() : p_.elements; }
  // Why element e of a node keeps its input, for a report.
  const char* WhyKept(bool in_comm, uint64_t e) const {
    return !in_comm ? "in no communicator"
           : v_     ? (e < layout_->send_area() ? "its send area" : "past its receive blocks")
                    : "past the all-to-all's blocks";
  }

 private:
  // fp32 add and mul depend on the association: their golden is the program executed on the
  // inputs with the engine's arithmetic in the hardware's order (coll::ExecuteConcretely),
  // compared bit for bit; subnormals, infinities and NaNs follow the engine's rules there.
  std::vector<std::vector<uint32_t>> ExecuteInOrder() const {
    coll::Hardware hwp;
    hwp.tracks = p_.req.geom.tracks;
    const coll::Wiring wiring(p_.req.geom, hwp, p_.nodes);
    return coll::ExecuteConcretely(p_, wiring, in_);
  }

  // The golden value of a reduced element is the same on every node of a communicator that
  // holds it: reduced[comm][e], computed once per (communicator, element) (and its text only
  // for a reported mismatch). The order-free operations (integer, bitwise, min, max): the
  // definition, the reduction of every member's input, member by member in rank order ((in0 op
  // in1) op in2 ..., coll::ReduceInOrder's order, so the same bits), streaming through each
  // input once; lane by lane with coll::LaneOp, not the endpoints' block reduction
  // (coll::LaneOps).
  std::vector<std::vector<uint32_t>> ReduceByDefinition() const {
    std::vector<std::vector<uint32_t>> reduced(comms_.size());
    for (size_t c = 0; c < comms_.size(); ++c) {
      std::vector<uint32_t>& acc = reduced[c];
      acc = in_[comms_[c][0]];
      for (size_t m = 1; m < comms_[c].size(); ++m) {
        const std::vector<uint32_t>& x = in_[comms_[c][m]];
        for (uint64_t e = 0; e < p_.elements; ++e) acc[e] = coll::LaneOp(op_, acc[e], x[e]);
      }
    }
    return reduced;
  }

  // All-gather: element e of a node of communicator `r` is its owner's input.
  unsigned Owner(const coll::CommRank& r, uint64_t e) const {
    return comms_[r.comm][coll::ShardOf(p_.elements, r.size, e)];
  }

  // All-to-all(-v): the sender and its element of a received element
  // (coll::AllToAllSource, AllToAllVLayout::SourceOf: every result element is in a block).
  std::pair<unsigned, uint64_t> Sent(unsigned node, const coll::CommRank& r, uint64_t e) const {
    if (v_) {
      const auto s = layout_->SourceOf(node, e);
      return std::pair{s->from, s->offset};
    }
    const coll::BlockSource b = coll::AllToAllSource(p_.elements, r.size, r.rank, e);
    return std::pair{comms_[r.comm][b.rank], b.offset};
  }

  const coll::Program& p_;
  const std::vector<std::vector<uint32_t>>& in_;
  unsigned op_;
  bool fp_assoc_, v_, moves_, reduction_;
  std::vector<std::vector<uint32_t>> ref_, reduced_;
  std::vector<std::vector<unsigned>> comms_;
  std::optional<coll::AllToAllVLayout> layout_;
};

// Mismatches found so far: the first `max` reported, all counted.
struct Mismatches {
  size_t max;
  size_t count = 0;
  std::vector<std::string> bad;
};

// Checks the result region `r` of `node` (its output `out`) against the golden.
void CheckResults(const Golden& golden, unsigned node, const std::optional<coll::CommRank>& rank,
                  coll::Range r, const std::vector<uint32_t>& out, Mismatches* m) {
  for (uint64_t e = r.off; e < r.end(); ++e) {
    const uint32_t got = out[e];
    const bool ok = golden.Matches(node, *rank, e, got);
    if (!ok && m->count++ < m->max) {
      const std::string want = golden.Want(node, *rank, e);
      m->bad.push_back(
          fmt::format("node {} element {}: got {:#010x}, want {}", node, e, got, want));
    }
  }
}

// What no message may write keeps the input: the tail past an all-to-all's G blocks, an
// all-to-all-v's send area and the rest of its receive area, and the whole buffer of a node
// in no communicator. Past the all-to-all-v's layout a program may stage blocks it relays
// (2phase): a member's scratch. Checks those elements of `node` outside its result region `r`.
void CheckKeptInput(const Golden& golden, unsigned node, bool in_comm, coll::Range r,
                    const std::vector<uint32_t>& in, const std::vector<uint32_t>& out,
                    Mismatches* m) {
  if (!golden.KeepsInput(in_comm)) return;
  const uint64_t kept = golden.Kept(in_comm);
  for (uint64_t e = 0; e < kept; ++e) {
    if (e >= r.off && e < r.end()) continue;
    if (out[e] != in[e] && m->count++ < m->max) {
      m->bad.push_back(
          fmt::format("node {} element {}: got {:#010x}, want {:#010x} (its input: {})", node, e,
                      out[e], in[e], golden.WhyKept(in_comm, e)));
    }
  }
}

}  // namespace

std::vector<std::string> CheckCollective(const coll::Program& p,
                                         const std::vector<std::vector<uint32_t>>& in,
                                         const std::vector<std::vector<uint32_t>>& out,
                                         size_t max_report) {
  const Golden golden(p, in);
  Mismatches m{max_report};
  const std::vector<coll::Range> regions = p.ResultRegions();
  for (unsigned node = 0; node < p.num_nodes(); ++node) {
    const auto rank = coll::RankOf(p.req, node);
    CheckResults(golden, node, rank, regions[node], out[node], &m);
    CheckKeptInput(golden, node, rank.has_value(), regions[node], in[node], out[node], &m);
  }
  if (m.count > max_report) m.bad.push_back(fmt::format("... {} wrong elements in all", m.count));
  return m.bad;
}

}  // namespace aries::tb
