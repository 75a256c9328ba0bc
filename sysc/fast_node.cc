#include "fast_node.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "aries_pkg.h"
#include "aries_regs.h"

// The stages of the hot path (CombT, EdgeT, OutputsT) are compiled into it whatever the
// compiler's inlining limits: each cycle runs them as one function, as before they were named.
#define ARIES_INLINE inline __attribute__((always_inline))

namespace aries::sysc {

namespace {

constexpr uint32_t kVcMask = (1u << hw::kVcIdW) - 1u;
constexpr uint32_t kCoordMask = (1u << hw::kCoordW) - 1u;
constexpr uint32_t kPortIdMask = (1u << hw::kPortIdW) - 1u;
constexpr uint32_t kFlowMask = (1u << hw::kFlowIdW) - 1u;

constexpr unsigned Clog2(unsigned n) {  // $clog2
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b;
}

// Flits of at most this many words (the header and packet id of point-to-point sweeps,
// sim.payload = id) are copied between pins and registers whether valid or not.
constexpr unsigned kShortFlit = 4;

inline unsigned Ctz(uint32_t v) { return static_cast<unsigned>(__builtin_ctz(v)); }

// c ? a : b as a mask, not a branch: for choices that go either way as the traffic comes (a
// mispredicted branch costs more here than the few instructions).
inline uint32_t Select(bool c, uint32_t a, uint32_t b) {
  const uint32_t m = 0u - static_cast<uint32_t>(c);
  return (a & m) | (b & ~m);
}

// aries_rr_arb: the first requester above `last` (wrapping) wins; valid = any request.
inline unsigned RrPick(uint32_t req, unsigned last) {
  const uint32_t above = req & ~((2u << last) - 1u);  // last <= 31: 2u << 31 wraps to 0
  return Ctz(Select(above != 0, above, req));
}

// Bit i set where byte i of x is nonzero (no branch: the credits of every link are registered
// each cycle, eight links to a word).
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "link bytes are read as words");
inline uint64_t NonzeroBytes(uint64_t x) {
  constexpr uint64_t k7f = 0x7F7F7F7F7F7F7F7Full;
  const uint64_t top = (((x & k7f) + k7f) | x) & ~k7f;  // bit 7 of each nonzero byte
  return ((top >> 7) * 0x0102040810204080ull) >> 56;    // bit 8i -> bit 56 + i
}

// The dimensions the hot path (EdgeT, CombT, OutputsT) is compiled for. AnyShape reads every
// one from the node's members; FixedP2p fixes those of the shipped point-to-point node
// (Varies_node_p2p: 5 ports, one local port, 4 VCs of 32 flits, 2 tracks, no engine) moving
// the header and the packet id (sim.payload = id), the node of every point-to-point sweep: its
// loops over ports and VCs unroll and its copies have a known size (FastNode::Tick picks it).
struct AnyShape {
  static constexpr unsigned kNp = 0, kLp = 0, kNv = 0, kDepth = 0, kW = 0, kNl = 0;
  static constexpr int kMuxed = -1, kEngine = -1;
};
struct FixedP2p {
  static constexpr const hw::NodeParams& kP = hw::kVaries_node_p2pParams;
  static constexpr unsigned kNp = kP.NumPorts + kP.LocalPorts - 1, kLp = kP.LocalPorts;
  static constexpr unsigned kNv = kP.NumVCs, kDepth = kP.BufferDepth, kW = 2;
  static constexpr unsigned kNl = kP.NumPorts - 1 + 4 * kP.NumTracks;
  static constexpr int kMuxed = kP.NumPorts == hw::kNumMeshPorts && kP.NumTracks > 0 ? 1 : 0;
  static constexpr int kEngine = kP.CollEngine != 0 ? 1 : 0;
};
static_assert(FixedP2p::kEngine == 0, "FixedP2p is the node without the engine");

// Index bits of an N-entry array (VcSelW, PortSelW, OwnW): RTL indexes truncate to them.
constexpr unsigned SelBits(unsigned n) { return n > 1 ? Clog2(n) : 1; }

// Bits 0-3 of x as the bytes of a word (bit i -> byte i = 1).
inline uint32_t Bytes4(uint32_t x) { return (x * 0x00204081u) & 0x01010101u; }

}  // namespace

namespace {

// Throws std::invalid_argument naming the first parameter of `shape` FastNode does not model.
void CheckShape(const NodeShape& shape) {
  constexpr unsigned kMaxPorts = FastNode::kMaxPorts;
  if (shape.num_ports < 2 || shape.num_ports > kMaxPorts) {
    throw std::invalid_argument(
        fmt::format("FastNode: {} router ports (allowed: 2 to {})", shape.num_ports, kMaxPorts));
  }
  if (shape.num_vcs < 1 || shape.num_link_vcs() > hw::kMaxVCs) {
    throw std::invalid_argument(
        fmt::format("FastNode: {} VCs{} (allowed: 1 to {} VCs on a link)", shape.num_vcs,
                    shape.coll_engine ? " and the engine's two" : "", hw::kMaxVCs));
  }
  if (shape.coll_engine &&
      (shape.coll_ids < 1 || shape.coll_ids > hw::kEngMaxIds || shape.coll_prog < 1 ||
       shape.coll_prog > hw::kEngMaxProg || shape.coll_depth < 1 || shape.coll_depth > 0xFFFF)) {
    throw std::invalid_argument(fmt::format(
        "FastNode: engine with {} ids, {} steps, queues of {} (allowed: 1 to {} ids, 1 to {} "
        "steps)",
        shape.coll_ids, shape.coll_prog, shape.coll_depth, hw::kEngMaxIds, hw::kEngMaxProg));
  }
  if (shape.buffer_depth < 1 || shape.buffer_depth > 255) {
    throw std::invalid_argument(
        fmt::format("FastNode: buffer depth {} (allowed: 1 to 255)", shape.buffer_depth));
  }
  if (shape.num_flows < 1 || shape.num_flows > (1u << hw::kFlowIdW)) {
    throw std::invalid_argument(
        fmt::format("FastNode: {} flows (allowed: 1 to {})", shape.num_flows, 1u << hw::kFlowIdW));
  }
  if (shape.carried_lanes < 1 || shape.carried_lanes > shape.lanes ||
      (shape.coll_engine && shape.carried_lanes != shape.lanes)) {
    throw std::invalid_argument(fmt::format(
        "FastNode: {} of {} lanes carried (allowed: 1 to {}, all {} with the collective engine, "
        "which reduces every lane)",
        shape.carried_lanes, shape.lanes, shape.lanes, shape.lanes));
  }
  const unsigned nn = shape.num_ports, lp = shape.local_ports;
  if (lp != 1 && lp != 2 && lp != 4) {
    throw std::invalid_argument(
        fmt::format("FastNode: {} local ports (allowed: 1, 2, 4)", shape.local_ports));
  }
  const unsigned np = nn + lp - 1;
  if (np > kMaxPorts) {
    throw std::invalid_argument(
        fmt::format("FastNode: {} router ports with the {} local ports (allowed: at most {})", np,
                    lp, kMaxPorts));
  }
  const unsigned nt = shape.num_tracks;
  const bool muxed = nn == hw::kNumMeshPorts && nt > 0;
  const unsigned nl = nn - 1 + (muxed ? 4 * nt : 0);
  if (nl != shape.num_links || nl > 64 || nt > hw::kMaxTracks) {
    throw std::invalid_argument(fmt::format(
        "FastNode: {} links with {} ports and {} tracks (aries_node has {}; at most 64 links "
        "and {} tracks)",
        shape.num_links, nn, nt, nl, hw::kMaxTracks));
  }
  const size_t slots = static_cast<size_t>(np) * shape.num_vcs * shape.buffer_depth;
  if (slots > 0x10000) {  // slot numbers are 16 bits (fifo_, free_)
    throw std::invalid_argument(fmt::format(
        "FastNode: {} ports x {} VCs x {} flits = {} buffer slots (allowed: at most 65,536)", np,
        shape.num_vcs, shape.buffer_depth, slots));
  }
}

// The collective engine's parameters in a node of this shape with nv router VCs.
FastEngine::Params EngineParams(const NodeShape& shape, unsigned nv) {
  FastEngine::Params ep;
  ep.ports = shape.num_ports;  // the engine meets the port side only (local port 0, the interposer)
  ep.lanes = shape.lanes;
  ep.ids = shape.coll_ids;
  ep.prog = shape.coll_prog;
  ep.depth = shape.coll_depth;
  ep.out_credits = shape.coll_depth;
  ep.req_vc = nv;
  ep.rsp_vc = nv + 1;
  return ep;
}

}  // namespace

FastNode::FastNode(const NodeShape& shape) : shape_(shape) {
  CheckShape(shape);
  nn_ = shape.num_ports;
  lp_ = shape.local_ports;
  np_ = nn_ + lp_ - 1;
  net_mask_ = nn_ >= 32 ? ~0u : (1u << nn_) - 1u;
  nv_ = shape.num_vcs;
  depth_ = shape.buffer_depth;
  w_ = shape.words();
  nt_ = shape.num_tracks;
  all_ports_ = np_ >= 32 ? ~0u : (1u << np_) - 1u;
  vc_sel_mask_ = (1u << SelBits(shape.num_vcs)) - 1u;
  port_sel_mask_ = (1u << SelBits(np_)) - 1u;
  muxed_ = nn_ == hw::kNumMeshPorts && nt_ > 0;
  nl_ = nn_ - 1 + (muxed_ ? 4 * nt_ : 0);
  LayOut(static_cast<size_t>(np_) * nv_ * depth_);
  if (shape.coll_engine) eng_ = std::make_unique<FastEngine>(EngineParams(shape, nv_));
  // The local ports' input pointers here, the interposer ports' in Owners().
  for (unsigned i = 0; i < lp_; ++i) c_.rin_flit[LocalPort(i)] = &ep_in_flit_q_[i * w_];
  fixed_p2p_ = np_ == FixedP2p::kNp && lp_ == FixedP2p::kLp && nv_ == FixedP2p::kNv &&
               depth_ == FixedP2p::kDepth && w_ == FixedP2p::kW && nl_ == FixedP2p::kNl &&
               muxed_ == (FixedP2p::kMuxed == 1) && !eng_;
  Reset(0, 0);
}

void FastNode::LayOut(size_t slots) {
  // The arrays of a cycle, widest elements first (no padding between them), then the buffers
  // and tables, which a cycle reads a few lines of.
  Arena& a = arena_;
  const size_t pv = static_cast<size_t>(np_) * nv_;  // per (port, VC)
  a.Add(c_.rin_flit, np_);
  a.Add(head_, pv);
  a.AddEach(np_, c_.gnt, c_.rem);
  a.Add(own_by_, pv);
  a.AddEach(nv_, avail_, owned_vc_);
  a.AddEach(np_, owned_, nonempty_, in_cnt_, out_sent_);
  a.Add(req_by_out_, np_ + 1);  // and a spare entry, written for an input requesting nothing
  a.Add(lnk_in_flit_q_, static_cast<size_t>(nl_) * w_);
  a.Add(ep_in_flit_q_, static_cast<size_t>(lp_) * w_);
  a.Add(out_flit_q_, static_cast<size_t>(np_) * w_);
  a.Add(c_.sel_slot, np_);
  a.AddEach(np_, c_.rout_credit, c_.sel, c_.sel_ovc, c_.gnt_idx, c_.pt_src);
  a.AddEach(pv, count_, rd_, wr_, pkt_ovc_, credits_, owner_);
  a.AddEach(np_, vc_last_, sw_last_, pt_open_, pt_out_);
  a.AddEach(nl_, lnk_out_credit_q_, in_owner_, out_owner_);
  a.NewLine();
  a.AddEach(slots, free_, fifo_, slot_);
  a.Add(slot_flit_, slots * w_);
  a.Add(dor_, size_t{1} << (2 * hw::kCoordW));
  a.Add(table_, static_cast<size_t>(shape_.num_flows) * np_);
  a.Commit();  // every array zero (a null rin_flit, an empty head_ and slot_)
}

void FastNode::Trace(VerilatedFstC*) {
  throw std::logic_error(
      "the fast node model has no waveform: trace a run on the Verilated node (sim.model=rtl)");
}

void FastNode::Reset(unsigned x, unsigned y) {
  x_ = x & kCoordMask;
  y_ = y & kCoordMask;
  lnk_in_valid_q_ = 0;
  std::fill(lnk_out_credit_q_.begin(), lnk_out_credit_q_.end(), 0);
  lnk_out_credit_any_ = 0;
  ep_in_valid_q_ = 0;
  ep_out_credit_q_.fill(0);
  ep_out_credit_any_ = 0;
  for (unsigned q = 0; q < 4; ++q) sel_in_q_[q] = sel_out_q_[q] = 0;
  cut_x_q_ = cut_y_q_ = 0;
  nstatus_q_ = 0;
  nd_rsp_q_ = nd_err_q_ = false;
  nd_rdata_q_ = 0;
  std::fill(table_.begin(), table_.end(), 0);
  topo_ = hw::kTopoMesh;
  dyn_vc_ = false;
  size_x_m1_ = size_y_m1_ = kCoordMask;
  status_ = err_info_ = miss_cnt_ = 0;
  pt_en_ = 0;
  std::fill(pt_out_.begin(), pt_out_.end(), 0);
  std::fill(in_cnt_.begin(), in_cnt_.end(), 0);
  std::fill(out_sent_.begin(), out_sent_.end(), 0);
  rtr_rsp_ = rtr_err_ = false;
  rtr_rdata_ = 0;
  std::fill(count_.begin(), count_.end(), 0);
  nfree_ = static_cast<unsigned>(free_.size());
  for (unsigned i = 0; i < nfree_; ++i) free_[i] = static_cast<uint16_t>(nfree_ - 1 - i);
  std::fill(rd_.begin(), rd_.end(), 0);
  std::fill(wr_.begin(), wr_.end(), 0);
  std::fill(nonempty_.begin(), nonempty_.end(), 0);
  ne_ports_ = 0;
  std::fill(head_.begin(), head_.end(), VcHead{0, 0, 0, 0});
  std::fill(pkt_ovc_.begin(), pkt_ovc_.end(), 0);
  std::fill(vc_last_.begin(), vc_last_.end(), static_cast<uint8_t>(nv_ - 1));
  mc_busy_ = false;
  mc_port_ = mc_vc_ = 0;
  mc_last_ = np_ - 1;
  in_credit_q_.fill(0);
  in_credit_any_ = 0;
  std::fill(pt_open_.begin(), pt_open_.end(), 0);
  std::fill(sw_last_.begin(), sw_last_.end(), static_cast<uint8_t>(np_ - 1));
  std::fill(credits_.begin(), credits_.end(), static_cast<uint8_t>(depth_));
  const uint32_t all_out = np_ >= 32 ? ~0u : (1u << np_) - 1u;
  std::fill(avail_.begin(), avail_.end(), all_out);
  std::fill(owned_.begin(), owned_.end(), 0);
  std::fill(owned_vc_.begin(), owned_vc_.end(), 0);
  std::fill(own_by_.begin(), own_by_.end(), 0);
  owned_any_ = 0;
  std::fill(owner_.begin(), owner_.end(), 0);
  out_valid_q_ = 0;
  if (eng_) eng_->Reset();
  DorTable();
  Owners();
  ComputeComb();
}

void FastNode::DorTable() {
  // For every destination (dy, dx) of the header's coordinate fields, what aries_route_compute
  // gives for a dimension-order routed flit at this node under the CTRL register: the output
  // (kPortLocal when it has arrived), and whether the destination is off the grid or the port
  // missing (bad), the hop wraps around a torus and leaves in X or in Y (the dateline VC).
  const unsigned kx = size_x_m1_ + 1, ky = size_y_m1_ + 1;
  for (unsigned dy = 0; dy <= kCoordMask; ++dy) {
    for (unsigned dx = 0; dx <= kCoordMask; ++dx) {
      bool bad = dx > size_x_m1_ || dy > size_y_m1_;
      unsigned port = hw::kPortLocal;
      bool wrap = false, out_x = false, out_y = false;
      if (topo_ == hw::kTopoTorus) {
        const unsigned dxp = dx >= x_ ? dx - x_ : dx + kx - x_;
        const unsigned dyp = dy >= y_ ? dy - y_ : dy + ky - y_;
        if (dx != x_) {
          out_x = true;
          if (2 * dxp <= kx) {
            port = hw::kPortXP;
            wrap = x_ == size_x_m1_;
          } else {
            port = hw::kPortXM;
            wrap = x_ == 0;
          }
        } else if (dy != y_) {
          out_y = true;
          if (2 * dyp <= ky) {
            port = hw::kPortYP;
            wrap = y_ == size_y_m1_;
          } else {
            port = hw::kPortYM;
            wrap = y_ == 0;
          }
        }
      } else if (topo_ == hw::kTopoFbfly) {
        const unsigned fb_col = (dx < x_ ? dx : dx - 1) & kCoordMask;
        const unsigned fb_row = (dy < y_ ? dy : dy - 1) & kCoordMask;
        if (dx != x_)
          port = (1 + fb_col) & kPortIdMask;
        else if (dy != y_)
          port = (1 + size_x_m1_ + fb_row) & kPortIdMask;
      } else {
        if (dx > x_)
          port = hw::kPortXP;
        else if (dx < x_)
          port = hw::kPortXM;
        else if (dy > y_)
          port = hw::kPortYP;
        else if (dy < y_)
          port = hw::kPortYM;
      }
      if (port >= nn_) bad = true;
      dor_[(dy << hw::kCoordW) | dx] =
          static_cast<uint16_t>(port | (bad ? kDorBad : 0u) | (wrap ? kDorWrap : 0u) |
                                (out_x ? kDorOutX : 0u) | (out_y ? kDorOutY : 0u));
    }
  }
}

unsigned FastNode::LinkOf(unsigned p, unsigned c) const {
  const unsigned side = (p == hw::kPortXP || p == hw::kPortYP) ? 1 : 0;
  if (c == 0) return p - 1;
  if (c <= nt_) return 4 + 2 * (c - 1) + side;
  return 4 + 2 * nt_ + 2 * (c - 1 - nt_) + side;
}

void FastNode::Owners() {
  std::fill(in_owner_.begin(), in_owner_.end(), 0);
  std::fill(out_owner_.begin(), out_owner_.end(), 0);
  const uint64_t all = nl_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << nl_) - 1;
  if (!muxed_) {  // fixed wiring: port p on link p - 1
    in_owned_ = out_owned_ = all;
    for (unsigned p = 1; p < nn_; ++p) c_.rin_flit[p] = &lnk_in_flit_q_[(p - 1) * w_];
    return;
  }
  for (unsigned p = 1; p <= 4; ++p) {
    in_link_[p] = static_cast<uint8_t>(LinkOf(p, sel_in_q_[p - 1]));
    out_link_[p] = static_cast<uint8_t>(LinkOf(p, sel_out_q_[p - 1]));
    in_owner_[in_link_[p]] = static_cast<uint8_t>(p);
    out_owner_[out_link_[p]] = static_cast<uint8_t>(p);
  }
  in_owned_ = out_owned_ = 0;
  for (unsigned l = 0; l < nl_; ++l) {
    if (in_owner_[l] != 0) in_owned_ |= uint64_t{1} << l;
    if (out_owner_[l] != 0) out_owned_ |= uint64_t{1} << l;
  }
  // What the cycle reads through the muxes, fixed until the muxes or cuts change again.
  port_owns_in_ = port_owns_out_ = 0;
  direct_ = true;
  for (unsigned p = 1; p <= 4; ++p) {
    c_.rin_flit[p] = &lnk_in_flit_q_[in_link_[p] * w_];
    port_owns_in_ |= uint32_t{in_owner_[in_link_[p]] == p} << p;
    port_owns_out_ |= uint32_t{out_owner_[out_link_[p]] == p} << p;
    direct_ = direct_ && in_link_[p] == p - 1 && out_link_[p] == p - 1;
  }
  direct_ = direct_ && port_owns_in_ == 0x1Eu && port_owns_out_ == 0x1Eu;
}

bool FastNode::ChoiceOk(unsigned p, unsigned c, const Slice<uint8_t>& owners) const {
  if (c >= 1 + 2 * nt_) return false;
  const unsigned own = owners[LinkOf(p, c)];
  if (own != 0 && own != p) return false;
  if (c >= 1 && c <= nt_ && !((cut_x_q_ >> (c - 1)) & 1u)) return false;
  if (c > nt_ && !((cut_y_q_ >> (c - 1 - nt_)) & 1u)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The combinational state of the cycle, from the registers.
// ---------------------------------------------------------------------------------------------
template <class D>
FastNode::Dims FastNode::DimsOf() const {
  Dims d;
  d.np = D::kNp != 0 ? D::kNp : np_;
  d.nn = D::kNp != 0 ? D::kNp - D::kLp + 1 : nn_;
  d.lp = D::kLp != 0 ? D::kLp : lp_;
  d.nv = D::kNv != 0 ? D::kNv : nv_;
  d.depth = D::kDepth != 0 ? D::kDepth : depth_;
  d.w = D::kW != 0 ? D::kW : w_;
  d.nl = D::kNl != 0 ? D::kNl : nl_;
  d.muxed = D::kMuxed >= 0 ? D::kMuxed == 1 : muxed_;
  d.has_eng = D::kEngine == 0 ? false : eng_ != nullptr;  // (a constant for FixedP2p)
  return d;
}

void FastNode::ComputeComb() {
  if (fixed_p2p_)
    CombT<FixedP2p>();
  else
    CombT<AnyShape>();
}

// The router's pins from the port side (aries_node p_rtr_pins): the endpoint's registers, then
// the port muxes' (or the fixed wiring's) link registers. Returns the outputs with credits.
template <class D>
ARIES_INLINE uint32_t FastNode::PortSideT(const Dims& d) {
  Comb& c = c_;
  // (rin_flit: set by the constructor and Owners())
  c.rin_valid = ep_in_valid_q_ & 1u;
  c.rout_credit[0] = ep_out_credit_q_[0];
  uint32_t rca = ep_out_credit_q_[0] != 0 ? 1u : 0u;
  for (unsigned i = 1; i < d.lp; ++i) {  // extra local ports: router VCs only, no engine
    const unsigned p = hw::LocalPort(i, d.nn);
    c.rin_valid |= ((ep_in_valid_q_ >> i) & 1u) << p;
    const auto cr = static_cast<uint8_t>(ep_out_credit_q_[i] & ((1u << d.nv) - 1u));
    c.rout_credit[p] = cr;
    rca |= uint32_t{cr != 0} << p;
  }
  if (d.muxed && direct_) {  // port p on link p - 1 both ways (Owners)
    c.rin_valid |= static_cast<uint32_t>(lnk_in_valid_q_ & 0xFu) << 1;
    uint32_t cr4;
    std::memcpy(&cr4, lnk_out_credit_q_.data(), 4);
    std::memcpy(&c.rout_credit[1], &cr4, 4);
    rca |= static_cast<uint32_t>(NonzeroBytes(cr4)) << 1;
  } else if (d.muxed) {
    uint32_t valid = 0;
    if (lnk_in_valid_q_ != 0) {
      for (unsigned p = 1; p <= 4; ++p)
        valid |= static_cast<uint32_t>((lnk_in_valid_q_ >> in_link_[p]) & 1u) << p;
    }
    if (lnk_out_credit_any_ != 0) {
      for (unsigned p = 1; p <= 4; ++p) {
        const uint8_t cr = (port_owns_out_ >> p) & 1u ? lnk_out_credit_q_[out_link_[p]] : 0;
        c.rout_credit[p] = cr;
        rca |= uint32_t{cr != 0} << p;
      }
    } else {
      std::memset(&c.rout_credit[1], 0, 4);
    }
    c.rin_valid |= valid & port_owns_in_;
  } else {
    // The input flits' words stay where Owners() pointed rin_flit (one link per port).
    c.rin_valid |= static_cast<uint32_t>(lnk_in_valid_q_ << 1);
    for (unsigned p = 1; p < d.nn; ++p) {
      const uint8_t cr = lnk_out_credit_q_[p - 1];
      c.rout_credit[p] = cr;
      rca |= uint32_t{cr != 0} << p;
    }
  }
  return rca;
}

// aries_node p_split: by VC, the router's VCs to the router, the two collective VCs to the
// engine; credits of the collective VCs to the engine (whose Comb it runs). Returns rca without
// the outputs left with no router credit.
template <class D>
ARIES_INLINE uint32_t FastNode::EngineSplitT(const Dims& d, uint32_t rca) {
  Comb& c = c_;
  eng_in_ = eng_cr_req_ = eng_cr_rsp_ = 0;
  for (uint32_t m = c.rin_valid & net_mask_; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    if (((c.rin_flit[p][0] >> hw::kHdrVcLsb) & kVcMask) >= d.nv) eng_in_ |= 1u << p;
  }
  c.rin_valid &= ~eng_in_;
  for (unsigned p = 0; p < d.nn; ++p) {
    const uint8_t cr = c.rout_credit[p];
    eng_cr_req_ |= ((cr >> d.nv) & 1u) << p;
    eng_cr_rsp_ |= ((cr >> (d.nv + 1)) & 1u) << p;
    c.rout_credit[p] = cr & static_cast<uint8_t>((1u << d.nv) - 1u);
    if (c.rout_credit[p] == 0) rca &= ~(1u << p);
  }
  eng_->Comb(eng_in_, c.rin_flit.data(), eng_cr_req_, eng_cr_rsp_);
  return rca;
}

// aries_router p_passthru: the pass-through circuits seen from the outputs (the outputs they
// hold, their sources, those with a flit passing).
template <class D>
ARIES_INLINE void FastNode::PassThroughSourcesT(const Dims& d) {
  Comb& c = c_;
  c.pt_out_en = 0;
  c.pt_out_valid = 0;
  for (uint32_t m = pt_en_; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    const unsigned o = pt_out_[p];
    if (o < d.np) {
      c.pt_out_en |= 1u << o;
      c.pt_src[o] = static_cast<uint8_t>(p);
    }
  }
  for (uint32_t m = c.pt_out_en; m != 0; m &= m - 1) {
    const unsigned o = Ctz(m);
    if ((c.rin_valid >> c.pt_src[o]) & 1u) c.pt_out_valid |= 1u << o;
  }
}

// aries_router_input p_heads for VC v of input p: its head with the output VC it takes (the
// dynamic VC allocation of a DOR head) and the outputs it may take now, not held by `blocked`.
template <class D>
ARIES_INLINE FastNode::Head FastNode::HeadOfT(const Dims& d, unsigned p, unsigned v,
                                              uint32_t blocked, bool torus) const {
  Head h;
  const unsigned q = p * d.nv + v;
  const VcHead hv = head_[q];
  h.slot = hv.slot;
  h.flags = hv.flags;
  h.rem = hv.rem;
  const bool is_head = hv.flags & kHead;
  h.eff = Select(is_head, hv.ovc, pkt_ovc_[q]);
  if (dyn_vc_ && (hv.flags & kDynCand)) {
    // (A DOR head is unicast: nothing of its route is served while it waits, rem = route.)
    for (unsigned wv = 0; wv < d.nv; ++wv) {
      if ((!torus || (wv & 1u) == (hv.ovc & 1u)) && (hv.rem & avail_[wv] & ~owned_vc_[wv]) != 0) {
        h.eff = wv;
        break;
      }
    }
  }
  h.ok = 0;
  if (h.eff < d.nv) {
    const uint32_t vcm = Select(is_head, ~owned_vc_[h.eff], own_by_[p * d.nv + h.eff]);
    h.ok = avail_[h.eff] & ~blocked & vcm;
  }
  return h;
}

// aries_router_input stage 2 (which VC heads can move, VC selection, requests) for every input
// holding a flit, and aries_router p_transpose: the requests by output (req_by_out_).
template <class D>
ARIES_INLINE FastNode::Selection FastNode::VcSelectionT(const Dims& d) {
  Comb& c = c_;
  Selection s;
  const bool torus = topo_ == hw::kTopoTorus;
  const bool mc_free = !mc_busy_;
  const uint32_t blocked = c.pt_out_en | (d.has_eng ? eng_->claim() : 0u);  // out_hold_i
  c.sel_valid = c.mc_start = c.pop_tail = 0;
  uint32_t* req_by_out = req_by_out_.data();  // the outputs' entries all zero between cycles
  // Only the inputs holding flits (sel, gnt and rem of the others are never read).
  c.in_empty = all_ports_ & ~ne_ports_;
  for (uint32_t pm = ne_ports_; pm != 0; pm &= pm - 1) {
    const unsigned p = Ctz(pm);
    uint32_t vc_req = 0;
    for (uint32_t m = nonempty_[p]; m != 0; m &= m - 1) {
      const unsigned v = Ctz(m);
      const Head h = HeadOfT<D>(d, p, v, blocked, torus);
      const bool mc_ok = !(h.flags & kMcHead) || mc_free || (mc_port_ == p && mc_vc_ == v);
      if ((h.rem == 0 || (h.rem & h.ok) != 0) && mc_ok) vc_req |= 1u << v;
    }
    if (vc_req == 0) continue;
    // The selected VC's head again (the same state: the same answer).
    const unsigned sel = RrPick(vc_req, vc_last_[p]);
    const Head h = HeadOfT<D>(d, p, sel, blocked, torus);
    c.gnt[p] = 0;
    c.sel[p] = static_cast<uint8_t>(sel);
    c.sel_valid |= 1u << p;
    c.rem[p] = h.rem;
    c.sel_ovc[p] = static_cast<uint8_t>(h.eff);
    c.sel_slot[p] = static_cast<uint16_t>(h.slot);
    s.ok[p] = h.ok;
    if (h.rem == 0) s.drop |= 1u << p;
    if (h.flags & kHead) s.is_head |= 1u << p;
    if (h.flags & kTail) s.tail |= 1u << p;
    if ((h.flags & kMcHead) && mc_free) c.mc_start |= 1u << p;
    // Its requests (taken back below from a multicast head that loses the token).
    const uint32_t r = h.rem & h.ok;
    s.req_any |= r;
    if (d.np < 32 && (r & (r - 1u)) == 0) {  // one output or none (the spare entry past them)
      req_by_out[Ctz(r | (1u << (d.np & 31u)))] |= 1u << p;
    } else {
      for (uint32_t n = r; n != 0; n &= n - 1) req_by_out[Ctz(n)] |= 1u << p;
    }
  }
  return s;
}

// aries_router p_mc_token: the multicast token's arbitration among the inputs starting a
// multicast packet; the requests of those that lose it are taken back.
template <class D>
ARIES_INLINE void FastNode::McTokenArbitrationT(const Dims& d, Selection& s) {
  Comb& c = c_;
  uint32_t* req_by_out = req_by_out_.data();
  c.mc_win_valid = c.mc_start != 0;
  c.mc_gate = 0;
  c.mc_win_idx = 0;
  if (c.mc_win_valid) {
    c.mc_win_idx = RrPick(c.mc_start, mc_last_);
    c.mc_gate = 1u << c.mc_win_idx;
  }
  if (const uint32_t lost = c.mc_start & ~c.mc_gate; lost != 0) {
    for (uint32_t m = lost; m != 0; m &= m - 1) {
      const unsigned p = Ctz(m);
      for (uint32_t n = c.rem[p] & s.ok[p]; n != 0; n &= n - 1) req_by_out[Ctz(n)] &= ~(1u << p);
    }
    s.req_any = 0;
    for (unsigned o = 0; o < d.np; ++o) s.req_any |= uint32_t{req_by_out[o] != 0} << o;
  }
  c.req_any = s.req_any;
}

// aries_router_output switch allocation: each requested output not held by a circuit grants one
// input (round robin); the circuits' outputs send too. Leaves req_by_out_ all zero.
template <class D>
ARIES_INLINE void FastNode::SwitchAllocationT(uint32_t req_any) {
  Comb& c = c_;
  uint32_t* req_by_out = req_by_out_.data();
  c.gnt_valid = 0;
  c.send = c.pt_out_valid;
  for (uint32_t m = req_any & ~c.pt_out_en; m != 0; m &= m - 1) {
    const unsigned o = Ctz(m);
    const unsigned p = RrPick(req_by_out[o], sw_last_[o]);
    req_by_out[o] = 0;
    c.gnt_idx[o] = static_cast<uint8_t>(p);
    c.gnt_valid |= 1u << o;
    c.send |= 1u << o;
    c.gnt[p] |= 1u << o;
  }
  for (uint32_t m = req_any & c.pt_out_en; m != 0; m &= m - 1) req_by_out[Ctz(m)] = 0;
}

// aries_router_input p_served and aries_router p_credit: the selected VCs done pop (a credit
// upstream), the others keep the outputs served.
template <class D>
ARIES_INLINE void FastNode::InputPopsT(const Dims& d, const Selection& s) {
  Comb& c = c_;
  c.in_credit_d.fill(0);
  c.in_credit_any = 0;
  // The selected VCs' pops and progress are the next clock edge's, made here: between this and
  // that edge nothing reads the input buffers, the VC heads or the VC pointers (the edge sends
  // the popped flits from their slots before it writes any slot; the register reads look at
  // this cycle's combinational state, the ownership and the circuits).
  for (uint32_t m = c.sel_valid; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    const unsigned v = c.sel[p];
    const unsigned q = p * d.nv + v;
    const bool drop = (s.drop >> p) & 1u;
    if (drop || (c.rem[p] & ~c.gnt[p]) == 0) {
      c.pop_tail |= s.tail & (1u << p);
      c.in_credit_d[p] = static_cast<uint8_t>(1u << v);
      c.in_credit_any |= 1u << p;
      free_[nfree_++] = c.sel_slot[p];
      rd_[q] = static_cast<uint8_t>(rd_[q] + 1u == d.depth ? 0 : rd_[q] + 1u);
      const unsigned left = --count_[q];
      nonempty_[p] &= ~(uint32_t{left == 0} << v);
      ne_ports_ &= ~(uint32_t{nonempty_[p] == 0} << p);
      if (left != 0) {  // the next flit is the head, nothing of its route served
        const unsigned sl = fifo_[q * d.depth + rd_[q]];
        head_[q] = VcHead::Of(slot_[sl], sl);
      }
      // A head sets its packet's output VC.
      const bool is_head = (s.is_head >> p) & 1u;
      pkt_ovc_[q] = static_cast<uint8_t>(Select(is_head, c.sel_ovc[p], pkt_ovc_[q]));
    } else {
      head_[q].rem &= ~c.gnt[p];  // the outputs served stay served
    }
    if (c.gnt[p] != 0 || drop) vc_last_[p] = static_cast<uint8_t>(v);
  }
}

// aries_router p_credit for the pass-through inputs: the downstream's credits of their output.
template <class D>
ARIES_INLINE void FastNode::PassThroughCreditsT(const Dims& d) {
  Comb& c = c_;
  for (uint32_t m = pt_en_; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    const uint8_t cr = pt_out_[p] < d.np ? c.rout_credit[pt_out_[p]] : 0;
    c.in_credit_d[p] = cr;
    if (cr != 0)
      c.in_credit_any |= 1u << p;
    else
      c.in_credit_any &= ~(1u << p);
  }
}

template <class D>
void FastNode::CombT() {
  const Dims d = DimsOf<D>();
  Comb& c = c_;
  // Port side: the endpoint, then the muxes (or fixed wiring).
  uint32_t rca = PortSideT<D>(d);
  if (d.has_eng) rca = EngineSplitT<D>(d, rca);
  c.rout_credit_any = rca;
  c.stray_flit = (lnk_in_valid_q_ & ~in_owned_) != 0;
  c.stray_credit = (lnk_out_credit_any_ & ~out_owned_) != 0;
  // Pass-through circuits seen from the outputs.
  PassThroughSourcesT<D>(d);
  // Inputs: heads, VC selection, requests (stage 2).
  Selection s = VcSelectionT<D>(d);
  // Multicast token arbitration, then the requests.
  McTokenArbitrationT<D>(d, s);
  // Outputs: switch allocation.
  SwitchAllocationT<D>(s.req_any);
  // Inputs: done, pops, credits upstream.
  InputPopsT<D>(d, s);
  PassThroughCreditsT<D>(d);
}

uint32_t FastNode::InQuiet() const {
  uint32_t open = 0;
  for (unsigned o = 0; o < np_; ++o) {
    for (uint32_t m = owned_[o]; m != 0; m &= m - 1) open |= 1u << owner_[o * nv_ + Ctz(m)];
  }
  for (unsigned p = 0; p < np_; ++p) {
    if (pt_open_[p] != 0 || (mc_busy_ && mc_port_ == p)) open |= 1u << p;
  }
  return c_.in_empty & ~c_.rin_valid & ~open;
}

uint32_t FastNode::OutIdle() const {
  // Outputs with no VC owned and every credit home (read by register accesses only: made from
  // the counters when asked, not kept up to date with every credit).
  uint32_t idle = all_ports_ & ~owned_any_;
  for (unsigned o = 0; o < np_; ++o) {
    for (unsigned v = 0; v < nv_; ++v) {
      if (credits_[o * nv_ + v] != depth_) idle &= ~(1u << o);
    }
  }
  return idle;
}

uint32_t FastNode::OutQuiet() const { return OutIdle() & ~c_.req_any & ~c_.pt_out_valid; }

template <class D>
void FastNode::SendFlitT(unsigned o, uint32_t* dst) const {
  const Dims d = DimsOf<D>();
  if ((c_.pt_out_en >> o) & 1u) {
    CopyFlit(dst, c_.rin_flit[c_.pt_src[o]], d.w);
    return;
  }
  const unsigned p = c_.gnt_idx[o];
  CopyFlit(dst, &slot_flit_[size_t{c_.sel_slot[p]} * d.w], d.w);
  dst[0] = (dst[0] & ~(kVcMask << hw::kHdrVcLsb)) | (uint32_t{c_.sel_ovc[p]} << hw::kHdrVcLsb);
}

// ---------------------------------------------------------------------------------------------
// Register accesses (the decode of aries_node p_access and aries_router_regs p_access).
// ---------------------------------------------------------------------------------------------
FastNode::NodeAcc FastNode::NodeAccess(const NodeIn& in) const {
  const uint32_t addr = in.cfg_addr & 0xFFFFu;
  const uint32_t wd = in.cfg_wdata;
  const bool we = in.cfg_we;
  NodeAcc r;
  r.ps_p = (addr - hw::kRegPortSelBase) & 7u;
  r.cin = (wd >> hw::kPortSelInLsb) & 0xFu;
  r.cout = (wd >> hw::kPortSelOutLsb) & 0xFu;
  const unsigned cin = r.cin, cout = r.cout;
  uint32_t legal = 0;
  for (unsigned t = 0; t < nt_; ++t)
    legal |= (1u << (hw::kBypassXLsb + t)) | (1u << (hw::kBypassYLsb + t));
  const uint32_t bypass_val = (cut_x_q_ << hw::kBypassXLsb) | (cut_y_q_ << hw::kBypassYLsb);
  auto uses_track = [&](unsigned d, unsigned t) {
    for (unsigned q = 0; q < 4; ++q) {
      if (sel_in_q_[q] == 1 + d * nt_ + t || sel_out_q_[q] == 1 + d * nt_ + t) return true;
    }
    return false;
  };
  if (addr == hw::kRegNodeId) {
    r.ok = !we;
    r.rdata = hw::kNodeIdValue;
  } else if (addr == hw::kRegNodeTracks) {
    r.ok = !we;
    r.rdata = nt_;
  } else if (addr == hw::kRegNodeLinks) {
    r.ok = !we;
    r.rdata = nl_;
  } else if (addr >= hw::kRegPortSelBase + 1 && addr <= hw::kRegPortSelBase + 4) {
    const unsigned p = r.ps_p;
    r.rdata = (uint32_t{sel_out_q_[p - 1]} << 8) | sel_in_q_[p - 1];
    if (!we) {
      r.ok = true;
    } else {
      bool k = muxed_ && (wd & ~hw::kPortSelMask) == 0;
      const uint32_t iq = InQuiet(), oq = OutQuiet();
      if (k && cin != sel_in_q_[p - 1]) k = ChoiceOk(p, cin, in_owner_) && ((iq >> p) & 1u);
      if (k && cout != sel_out_q_[p - 1]) k = ChoiceOk(p, cout, out_owner_) && ((oq >> p) & 1u);
      r.ok = k;
      r.wr_portsel = k;
    }
  } else if (addr == hw::kRegBypass) {
    r.rdata = bypass_val;
    if (!we) {
      r.ok = true;
    } else {
      bool k = (wd & ~legal) == 0;
      for (unsigned t = 0; t < nt_; ++t) {
        if (((wd >> (hw::kBypassXLsb + t)) & 1u) != ((cut_x_q_ >> t) & 1u) && uses_track(0, t))
          k = false;
        if (((wd >> (hw::kBypassYLsb + t)) & 1u) != ((cut_y_q_ >> t) & 1u) && uses_track(1, t))
          k = false;
      }
      r.ok = k;
      r.wr_bypass = k;
    }
  } else if (addr == hw::kRegNodeStatus) {
    r.rdata = nstatus_q_;
    r.ok = !we || (wd & ~hw::kNodeStatusMask) == 0;
    r.wr_status = we && r.ok;
  }
  return r;
}

// The routing table's entries (address bit 15): a write's legality (only router ports) or the
// entry read.
FastNode::RouterAcc FastNode::RouteTableAccess(uint32_t addr, bool we, uint32_t wd) const {
  RouterAcc r;
  const uint32_t port_mask = np_ >= 32 ? ~0u : (1u << np_) - 1u;
  const unsigned flow = (addr >> hw::kRouteFlowLsb) & ((1u << hw::kRouteFlowW) - 1u);
  const unsigned port = (addr >> hw::kRouteInportLsb) & kPortIdMask;
  if (flow < shape_.num_flows && port < np_) {
    if (we) {
      r.ok = (wd & ~port_mask) == 0;
      if (r.ok) r.wr = 4;
    } else {
      r.ok = true;
      r.rdata = table_[flow * np_ + port];
    }
  }
  return r;
}

// aries_router_regs p_pt_ok: a PASSTHRU write's legality (one circuit per output, changed only
// while its input and outputs are quiet), or the register read.
FastNode::RouterAcc FastNode::PassthruAccess(unsigned reg_port, bool we, uint32_t wd) const {
  RouterAcc r;
  if (!we) {
    r.ok = true;
    r.rdata = (uint32_t{pt_out_[reg_port]} << hw::kPassOutLsb) | ((pt_en_ >> reg_port) & 1u);
    return r;
  }
  const bool en = (wd >> hw::kPassEnBit) & 1u;
  const unsigned to = (wd >> hw::kPassOutLsb) & kPortIdMask;
  bool k = (wd & ~hw::kPassMask) == 0 && to < np_ && (!en || to != reg_port);
  for (unsigned q = 0; q < np_; ++q) {
    if (en && ((pt_en_ >> q) & 1u) && q != reg_port && pt_out_[q] == to) k = false;
  }
  const bool cur_en = (pt_en_ >> reg_port) & 1u;
  if (k && (en != cur_en || (en && to != pt_out_[reg_port]))) {
    const uint32_t iq = InQuiet(), oq = OutQuiet();
    if (!((iq >> reg_port) & 1u)) k = false;
    if (cur_en && !((oq >> pt_out_[reg_port]) & 1u)) k = false;
    if (en && !((oq >> to) & 1u)) k = false;
  }
  r.ok = k;
  if (k) r.wr = 3;
  return r;
}

// aries_router_regs p_ctrl_ok: a CTRL write's legality (a topology the radix and this node's
// coordinates allow), or the register read.
FastNode::RouterAcc FastNode::CtrlAccess(bool we, uint32_t wd) const {
  RouterAcc r;
  if (!we) {
    r.ok = true;
    r.rdata = (topo_ << hw::kCtrlTopoLsb) | (uint32_t{dyn_vc_} << hw::kCtrlDynVcBit) |
              (size_x_m1_ << hw::kCtrlSizeXLsb) | (size_y_m1_ << hw::kCtrlSizeYLsb);
    return r;
  }
  const unsigned topo = (wd >> hw::kCtrlTopoLsb) & ((1u << hw::kCtrlTopoW) - 1u);
  const unsigned sx = (wd >> hw::kCtrlSizeXLsb) & kCoordMask;
  const unsigned sy = (wd >> hw::kCtrlSizeYLsb) & kCoordMask;
  bool k = (wd & ~hw::kCtrlMask) == 0 && topo < hw::kNumTopos && x_ <= sx && y_ <= sy;
  if (topo == hw::kTopoMesh) {
    k = k && nn_ >= hw::kNumMeshPorts;
  } else if (topo == hw::kTopoTorus) {
    k = k && nn_ >= hw::kNumMeshPorts && nv_ >= 2 && nv_ % 2 == 0;
  } else if (topo == hw::kTopoFbfly) {
    k = k && 1 + sx + sy <= nn_;
  } else {
    k = false;
  }
  r.ok = k;
  if (k) r.wr = 1;
  return r;
}

// The router's registers at a fixed address (the identification, CTRL, STATUS, the error
// registers, OUT_IDLE, IN_EMPTY).
FastNode::RouterAcc FastNode::RouterRegisterAccess(uint32_t addr, bool we, uint32_t wd) const {
  RouterAcc r;
  switch (addr) {
    case hw::kRegId:
      r.rdata = hw::kRouterIdValue;
      break;
    case hw::kRegNumPorts:
      r.rdata = np_;
      break;
    case hw::kRegNumVcs:
      r.rdata = nv_;
      break;
    case hw::kRegBufferDepth:
      r.rdata = depth_;
      break;
    case hw::kRegNumFlows:
      r.rdata = shape_.num_flows;
      break;
    case hw::kRegLanes:
      r.rdata = shape_.lanes;
      break;
    case hw::kRegLocalPorts:
      r.rdata = lp_;
      break;
    case hw::kRegCtrl:
      return CtrlAccess(we, wd);
    case hw::kRegStatus:
      r.ok = !we || (wd & ~hw::kStatusMask) == 0;
      if (we && r.ok) r.wr = 2;
      r.rdata = we ? 0 : status_;
      return r;
    case hw::kRegErrInfo:
      r.rdata = err_info_;
      break;
    case hw::kRegMissCount:
      r.rdata = miss_cnt_;
      break;
    case hw::kRegOutIdle:
      r.rdata = OutIdle();
      break;
    case hw::kRegInEmpty:
      r.rdata = c_.in_empty;
      break;
    default:
      return r;  // not a register: refused
  }
  r.ok = !we;  // the read-only registers
  return r;
}

// aries_router_regs p_access: the request's answer and the register it writes.
FastNode::RouterAcc FastNode::RouterAccess(const NodeIn& in) const {
  const uint32_t addr = in.cfg_addr & 0xFFFFu;
  const uint32_t wd = in.cfg_wdata;
  const bool we = in.cfg_we;
  RouterAcc r;
  if ((addr >> 15) & 1u) {
    r = RouteTableAccess(addr, we, wd);
  } else {
    const unsigned reg_port = addr & kPortIdMask;
    // Address bits [CfgAddrW-2 : PortIdW]: the register group below the routing table (the
    // RTL's cfg_addr_i[AW-2:PW]).
    const unsigned hi = (addr >> hw::kPortIdW) & ((1u << (hw::kCfgAddrW - 1 - hw::kPortIdW)) - 1u);
    const bool in_range = reg_port < np_;
    if (hi == (hw::kRegPassthruBase >> hw::kPortIdW) && in_range) {
      r = PassthruAccess(reg_port, we, wd);
    } else if ((hi == (hw::kRegInFlitsBase >> hw::kPortIdW) ||
                hi == (hw::kRegOutFlitsBase >> hw::kPortIdW)) &&
               in_range) {
      r.ok = !we;
      // OUT_FLITS counts the cycles its output register held a flit, up to this edge: every
      // send but the one still in the register.
      r.rdata = hi == (hw::kRegInFlitsBase >> hw::kPortIdW)
                    ? in_cnt_[reg_port]
                    : out_sent_[reg_port] - ((out_valid_q_ >> reg_port) & 1u);
    } else {
      r = RouterRegisterAccess(addr, we, wd);
    }
  }
  if (!r.ok || we) r.rdata = 0;
  return r;
}

// ---------------------------------------------------------------------------------------------
// The clock edge.
// ---------------------------------------------------------------------------------------------
// The register bus: which block this cycle's request is for (the node's page, the engine's, the
// router's) and the node's and router's answers, decoded against this cycle's combinational
// state.
template <class D>
ARIES_INLINE FastNode::Bus FastNode::RegisterBusT(const Dims& d, const NodeIn& in) {
  Bus bus;
  const bool nd_sel = ((in.cfg_addr >> 8) & 0xFFu) == hw::kNodeRegPage;
  bus.eng_sel = d.has_eng && ((in.cfg_addr >> 8) & 0xFFu) == hw::kEngRegPage;
  bus.nd_req = in.cfg_req && nd_sel;
  bus.rtr_req = in.cfg_req && !nd_sel && !bus.eng_sel;
  if (bus.nd_req) bus.nd = NodeAccess(in);
  if (bus.rtr_req) bus.rtr = RouterAccess(in);
  return bus;
}

// aries_router_output p_owner: the VC ownership output o's flit (header hdr, on output VC vi)
// changes, for a granted flit (not a circuit's): a tail lets the output VC go, a head (of more
// than one flit) takes it for its input and lets any earlier owner go; without a branch on
// which kind of flit it is.
template <class D>
ARIES_INLINE void FastNode::VcOwnershipT(const Dims& d, unsigned o, unsigned vi, uint32_t hdr) {
  const Comb& c = c_;
  const uint32_t gv = (c.gnt_valid >> o) & 1u;
  const uint32_t tail = (hdr >> hw::kHdrTailBit) & gv;
  const uint32_t head = (hdr >> hw::kHdrHeadBit) & gv & ~tail & 1u;
  const uint32_t release = tail | head;
  const unsigned qo = o * d.nv + vi;
  own_by_[owner_[qo] * d.nv + vi] &= ~((release & (owned_[o] >> vi)) << o);
  owned_[o] = (owned_[o] & ~(release << vi)) | (head << vi);
  owned_vc_[vi] = (owned_vc_[vi] & ~(release << o)) | (head << o);
  owned_any_ = (owned_any_ & ~(1u << o)) | (uint32_t{owned_[o] != 0} << o);
  owner_[qo] = static_cast<uint8_t>(Select(head != 0, c.gnt_idx[o], owner_[qo]));
  own_by_[c.gnt_idx[o] * d.nv + vi] |= head << o;
}

// aries_router_output p_out_flit: output o sends (its output register, its switch arbiter, its
// VC ownership). Returns the VC mask of the credit it takes.
template <class D>
ARIES_INLINE uint32_t FastNode::OutputRegisterT(const Dims& d, unsigned o, uint32_t vc_sel_mask) {
  const Comb& c = c_;
  ++out_sent_[o];
  uint32_t* dst = &out_flit_q_[o * d.w];
  SendFlitT<D>(o, dst);
  sw_last_[o] = static_cast<uint8_t>(Select((c.gnt_valid >> o) & 1u, c.gnt_idx[o], sw_last_[o]));
  const unsigned vi = ((dst[0] >> hw::kHdrVcLsb) & kVcMask) & vc_sel_mask;
  if (vi >= d.nv) return 0;
  VcOwnershipT<D>(d, o, vi, dst[0]);
  return 1u << vi;
}

// aries_router_output p_take: output o's credit counters take `take` and get `give` back (VC
// masks). Returns whether a count went past its range (taken at 0, returned at the depth: it
// stays).
template <class D>
ARIES_INLINE bool FastNode::CreditCountersT(const Dims& d, unsigned o, uint32_t take,
                                            uint32_t give) {
  bool credit_err = false;
  if constexpr (D::kNv == 4) {
    // The output's four counters as the bytes of one word, moved together: a count past its
    // range (taken at 0, returned at the depth) stays and flags the error; avail_ changes
    // only where a count reaches or leaves 0.
    uint32_t dn = take & ~give, up = give & ~take;
    uint32_t cnt;
    std::memcpy(&cnt, &credits_[o * 4], 4);
    const uint32_t nz = static_cast<uint32_t>(NonzeroBytes(cnt));
    const uint32_t full = ~static_cast<uint32_t>(NonzeroBytes(cnt ^ (d.depth * 0x01010101u)));
    const uint32_t stuck = (dn & ~nz) | (up & full);
    if (stuck != 0) {
      credit_err = true;
      dn &= ~stuck;
      up &= ~stuck;
    }
    const uint32_t nxt = cnt + Bytes4(up) - Bytes4(dn);
    std::memcpy(&credits_[o * 4], &nxt, 4);
    for (uint32_t m = (nz ^ static_cast<uint32_t>(NonzeroBytes(nxt))) & 0xFu; m != 0; m &= m - 1)
      avail_[Ctz(m)] ^= 1u << o;
  } else {
    // Credits taken and returned, counted without branches (which way a count moves goes
    // either way).
    for (uint32_t m = take ^ give; m != 0; m &= m - 1) {
      const unsigned v = Ctz(m);
      uint8_t& cnt = credits_[o * d.nv + v];
      const unsigned down = (take >> v) & 1u;  // else up
      const unsigned cur = cnt;
      const bool stuck = Select(down, cur == 0, cur == d.depth);  // a count past its range
      credit_err |= stuck;
      const unsigned nxt = Select(stuck, cur, cur + 1u - 2u * down);
      cnt = static_cast<uint8_t>(nxt);
      avail_[v] = (avail_[v] & ~(1u << o)) | (uint32_t{nxt != 0} << o);
    }
  }
  return credit_err;
}

// The router's outputs (aries_router_output): output registers, credit counters, VC ownership.
// Returns whether a credit counter went past its range.
template <class D>
ARIES_INLINE bool FastNode::RouterOutputsT(const Dims& d) {
  const Comb& c = c_;
  // (A VC index truncated to its select bits: a constant for the fixed shape.)
  const uint32_t vc_sel_mask = D::kNv != 0 ? (1u << SelBits(D::kNv)) - 1u : vc_sel_mask_;
  bool credit_err = false;
  // Only outputs that send or get a credit change (an output doing neither keeps its state;
  // its arbiter moves only with a grant, which is a send).
  for (uint32_t active = c.send | c.rout_credit_any; active != 0; active &= active - 1) {
    const unsigned o = Ctz(active);
    const uint32_t take = (c.send >> o) & 1u ? OutputRegisterT<D>(d, o, vc_sel_mask) : 0u;
    const uint32_t give = c.rout_credit[o] & ((1u << d.nv) - 1u);
    credit_err |= CreditCountersT<D>(d, o, take, give);
  }
  out_valid_q_ = c.send;
  return credit_err;
}

// aries_router p_mc_token_q: the multicast token is taken by the arbitration's winner when
// granted, given back when its holder's tail leaves.
template <class D>
ARIES_INLINE void FastNode::McTokenT(const Dims& d) {
  const Comb& c = c_;
  const bool win_granted = c.mc_win_valid && c.gnt[c.mc_win_idx] != 0;
  if (mc_busy_) {
    const unsigned mp = mc_port_ & port_sel_mask_;
    if (mp < d.np && ((c.pop_tail >> mp) & 1u) && c.sel[mp] == mc_vc_) mc_busy_ = false;
  } else if (win_granted) {
    mc_busy_ = true;
    mc_port_ = c.mc_win_idx;
    mc_vc_ = c.sel[c.mc_win_idx];
  }
  if (win_granted) mc_last_ = c.mc_win_idx;
}

// aries_router p_pt_open: on a pass-through input, a head that is not a tail opens its VC, the
// tail closes it.
ARIES_INLINE void FastNode::PassThroughOpen(unsigned p, uint32_t hdr, unsigned nv) {
  const unsigned vc = (hdr >> hw::kHdrVcLsb) & kVcMask;
  if (vc < nv) {
    if ((hdr >> hw::kHdrTailBit) & 1u)
      pt_open_[p] &= ~(1u << vc);
    else if ((hdr >> hw::kHdrHeadBit) & 1u)
      pt_open_[p] |= 1u << vc;
  }
}

// aries_route_compute for a flit with header hdr arriving on input p: its route (a table entry
// for a flow, dimension-order routing otherwise), its output VC (the torus's dateline class)
// and whether it has no route.
template <class D>
ARIES_INLINE FastNode::Route FastNode::RouteComputeT(const Dims& d, unsigned p, uint32_t hdr,
                                                     bool torus) const {
  const unsigned vc = (hdr >> hw::kHdrVcLsb) & kVcMask;
  Route r{0, vc, false};
  if ((hdr >> hw::kHdrIsFlowBit) & 1u) {
    const unsigned flow = (hdr >> hw::kHdrFlowLsb) & kFlowMask;
    r.route = flow < shape_.num_flows ? table_[flow * d.np + p] : 0;
    r.miss = r.route == 0;
    return r;
  }
  // aries_route_compute's dimension-order routing, one lookup (DorTable).
  const unsigned dx = (hdr >> hw::kHdrDstXLsb) & kCoordMask;
  const unsigned dy = (hdr >> hw::kHdrDstYLsb) & kCoordMask;
  const unsigned e = dor_[(dy << hw::kCoordW) | dx];
  unsigned port = e & kDorPort;
  const bool bad = (e & kDorBad) != 0;
  const bool wrap = (e & kDorWrap) != 0, out_x = (e & kDorOutX) != 0;
  const bool out_y = (e & kDorOutY) != 0;
  // Arrived: the local port of this input (hw::DorLocalIndex).
  if (port == hw::kPortLocal) port = hw::LocalPort(hw::DorLocalIndex(p, d.lp), d.nn);
  if (bad) {
    r.miss = true;
  } else {
    r.route = 1u << port;
    if (torus && (out_x || out_y)) {
      const bool in_x = p == hw::kPortXP || p == hw::kPortXM;
      const bool in_y = p == hw::kPortYP || p == hw::kPortYM;
      const bool dateline =
          (out_x && (wrap || (in_x && (vc & 1u)))) || (out_y && (wrap || (in_y && (vc & 1u))));
      r.ovc = (vc & ~1u) | (dateline ? 1u : 0u);
    }
  }
  return r;
}

// aries_router_input p_push: flit f (on VC vc) of input p written into its VC's buffer with
// what route computation gave it. Returns false when it is lost (VC full or out of range).
template <class D>
ARIES_INLINE bool FastNode::BufferWriteT(const Dims& d, unsigned p, unsigned vc, const uint32_t* f,
                                         const Route& r) {
  if (vc >= d.nv) return false;
  const unsigned q = p * d.nv + vc;
  if (count_[q] == d.depth) return false;
  const uint32_t hdr = f[0];
  const size_t s = free_[--nfree_];
  fifo_[q * d.depth + wr_[q]] = static_cast<uint16_t>(s);
  CopyFlit(&slot_flit_[s * d.w], f, d.w);
  const unsigned head = (hdr >> hw::kHdrHeadBit) & 1u, tail = (hdr >> hw::kHdrTailBit) & 1u;
  const unsigned multi = (r.route & (r.route - 1u)) != 0;
  const unsigned dor = ~(hdr >> hw::kHdrIsFlowBit) & 1u;
  static_assert(kHead == 1 && kTail == 2 && kMcHead == 4 && kDynCand == 8, "flag bits");
  slot_[s] = SlotInfo{
      r.route, static_cast<uint8_t>(r.ovc),
      static_cast<uint8_t>(head | tail << 1 | (head & ~tail & multi) << 2 | (head & dor) << 3)};
  if (count_[q] == 0) head_[q] = VcHead::Of(slot_[s], s);  // an empty VC: the flit is its head
  wr_[q] = static_cast<uint8_t>(wr_[q] + 1u == d.depth ? 0 : wr_[q] + 1u);
  ++count_[q];
  nonempty_[p] |= 1u << vc;
  ne_ports_ |= 1u << p;
  return true;
}

// aries_router_input stage 1 for every arriving flit: route computation and buffer write (a
// pass-through input opens and closes its circuit instead). Returns the events STATUS records.
template <class D>
ARIES_INLINE FastNode::InputEvents FastNode::InputStage1T(const Dims& d) {
  const Comb& c = c_;
  InputEvents ev;
  const bool torus = topo_ == hw::kTopoTorus;
  for (uint32_t m = c.rin_valid; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    ++in_cnt_[p];
    const uint32_t* f = c.rin_flit[p];
    const uint32_t hdr = f[0];
    if ((pt_en_ >> p) & 1u) {
      PassThroughOpen(p, hdr, d.nv);
      continue;
    }
    const Route r = RouteComputeT<D>(d, p, hdr, torus);
    if (r.miss) {
      ev.any_miss = true;
      const unsigned flow = (hdr >> hw::kHdrFlowLsb) & kFlowMask;
      err_info_ = (flow << hw::kErrInfoFlowLsb) | (p << hw::kErrInfoPortLsb);
      ++miss_cnt_;
    }
    const unsigned vc = (hdr >> hw::kHdrVcLsb) & kVcMask;
    if (!BufferWriteT<D>(d, p, vc, f, r)) ev.overflow = true;
  }
  return ev;
}

// aries_router_regs p_regs and p_status: the register written (CTRL, STATUS, PASSTHRU, a route),
// then STATUS takes this cycle's events; the bus response.
template <class D>
ARIES_INLINE void FastNode::RouterRegistersT(const Dims& d, const NodeIn& in, const Bus& bus,
                                             InputEvents ev, bool credit_err) {
  const int rtr_wr = bus.rtr.wr;
  if (bus.rtr_req && rtr_wr != 0) {
    const uint32_t wd = in.cfg_wdata;
    if (rtr_wr == 1) {
      topo_ = (wd >> hw::kCtrlTopoLsb) & ((1u << hw::kCtrlTopoW) - 1u);
      dyn_vc_ = (wd >> hw::kCtrlDynVcBit) & 1u;
      size_x_m1_ = (wd >> hw::kCtrlSizeXLsb) & kCoordMask;
      size_y_m1_ = (wd >> hw::kCtrlSizeYLsb) & kCoordMask;
      DorTable();
    } else if (rtr_wr == 2) {
      status_ &= ~wd;
    } else if (rtr_wr == 3) {
      const unsigned rp = in.cfg_addr & kPortIdMask;
      if ((wd >> hw::kPassEnBit) & 1u)
        pt_en_ |= 1u << rp;
      else
        pt_en_ &= ~(1u << rp);
      pt_out_[rp] = static_cast<uint8_t>((wd >> hw::kPassOutLsb) & kPortIdMask);
    } else if (rtr_wr == 4) {
      const unsigned flow = (in.cfg_addr >> hw::kRouteFlowLsb) & ((1u << hw::kRouteFlowW) - 1u);
      const unsigned port = (in.cfg_addr >> hw::kRouteInportLsb) & kPortIdMask;
      table_[flow * d.np + port] = wd & (d.np >= 32 ? ~0u : (1u << d.np) - 1u);
    }
  }
  // STATUS: the write-1-to-clear (above) first, then this cycle's events.
  const bool rtr_ok = bus.rtr.ok;
  if (bus.rtr_req && !rtr_ok) status_ |= 1u << hw::kStatusCfgErrBit;
  if (ev.overflow) status_ |= 1u << hw::kStatusOverflowBit;
  if (ev.any_miss) status_ |= 1u << hw::kStatusMissBit;
  if (credit_err) status_ |= 1u << hw::kStatusCreditErrBit;
  rtr_rsp_ = bus.rtr_req;
  rtr_rdata_ = bus.rtr.rdata;
  rtr_err_ = bus.rtr_req && !rtr_ok;
}

// aries_node p_regs: PORTSEL, BYPASS and NODE_STATUS written, NODE_STATUS takes this cycle's
// events; the bus response. Returns whether the muxes' selects changed (Owners() to redo).
ARIES_INLINE bool FastNode::NodeRegisters(const NodeIn& in, const Bus& bus) {
  const Comb& c = c_;
  const bool nd_req = bus.nd_req;
  const NodeAcc& nd = bus.nd;
  bool owners_changed = false;
  if (nd_req && nd.wr_portsel) {
    sel_in_q_[nd.ps_p - 1] = static_cast<uint8_t>(nd.cin);
    sel_out_q_[nd.ps_p - 1] = static_cast<uint8_t>(nd.cout);
    owners_changed = true;
  }
  if (nd_req && nd.wr_bypass) {
    const uint32_t tm = (1u << nt_) - 1u;
    cut_x_q_ = (in.cfg_wdata >> hw::kBypassXLsb) & tm;
    cut_y_q_ = (in.cfg_wdata >> hw::kBypassYLsb) & tm;
  }
  if (nd_req && nd.wr_status) nstatus_q_ &= ~in.cfg_wdata;
  if (c.stray_flit) nstatus_q_ |= 1u << hw::kNodeStatusStrayFlitBit;
  if (c.stray_credit) nstatus_q_ |= 1u << hw::kNodeStatusStrayCreditBit;
  if (nd_req && !nd.ok) nstatus_q_ |= 1u << hw::kNodeStatusCfgErrBit;
  nd_rsp_q_ = nd_req;
  nd_err_q_ = nd_req && !nd.ok;
  nd_rdata_q_ = (nd_req && nd.ok && !in.cfg_we) ? nd.rdata : 0;
  return owners_changed;
}

// aries_node p_lnk_in and p_lnk_flit: the link input registers take this cycle's link pins
// (flits, and credits masked to the link's VCs).
template <class D>
ARIES_INLINE void FastNode::LinkInputRegistersT(const Dims& d, const NodeIn& in, uint8_t cmask) {
  const uint64_t lmask = d.nl >= 64 ? ~uint64_t{0} : (uint64_t{1} << d.nl) - 1;
  lnk_in_valid_q_ = in.link_valid & lmask;
  uint64_t copy = lnk_in_valid_q_;
  if (d.muxed && direct_ && d.w <= kShortFlit) {
    // Short flits on the four direct links: copied whether valid or not (a few moves, where a
    // loop over the valid ones mispredicts its exit; an invalid flit's words are never read).
    std::memcpy(&lnk_in_flit_q_[0], &in.link_flit[0], 4 * d.w * sizeof(uint32_t));
    copy &= ~uint64_t{0xF};
  }
  for (uint64_t m = copy; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    CopyFlit(&lnk_in_flit_q_[l * d.w], &in.link_flit[l * d.w], d.w);
  }
  uint8_t* q = lnk_out_credit_q_.data();
  const uint8_t* lc = in.link_credit.data();
  const uint64_t cmask8 = uint64_t{cmask} * 0x0101010101010101ull;
  uint64_t credit_any = 0;
  unsigned l = 0;
  for (; l + 8 <= d.nl; l += 8) {
    uint64_t x;
    std::memcpy(&x, lc + l, 8);
    x &= cmask8;
    std::memcpy(q + l, &x, 8);
    credit_any |= NonzeroBytes(x) << l;
  }
  if (l + 4 <= d.nl) {  // four more (the shipped node's 12 links)
    uint32_t x;
    std::memcpy(&x, lc + l, 4);
    x &= static_cast<uint32_t>(cmask8);
    std::memcpy(q + l, &x, 4);
    credit_any |= NonzeroBytes(x) << l;
    l += 4;
  }
  for (; l < d.nl; ++l) {
    const uint8_t cr = lc[l] & cmask;
    q[l] = cr;
    credit_any |= uint64_t{cr != 0} << l;
  }
  lnk_out_credit_any_ = credit_any;
}

// aries_node p_ep_in and p_ep_flit: the endpoint input registers take this cycle's local pins.
template <class D>
ARIES_INLINE void FastNode::EndpointInputRegistersT(const Dims& d, const NodeIn& in,
                                                    uint8_t cmask) {
  ep_in_valid_q_ = in.ep_valid & ((1u << d.lp) - 1u);
  for (uint32_t m = ep_in_valid_q_; m != 0; m &= m - 1) {
    const unsigned i = Ctz(m);
    CopyFlit(&ep_in_flit_q_[i * d.w], &in.ep_flit[i * d.w], d.w);
  }
  ep_out_credit_any_ = 0;
  for (unsigned i = 0; i < d.lp; ++i) {
    ep_out_credit_q_[i] = in.ep_credit[i] & cmask;
    ep_out_credit_any_ |= uint32_t{ep_out_credit_q_[i] != 0} << i;
  }
}

template <class D>
void FastNode::EdgeT(const NodeIn& in) {
  const Dims d = DimsOf<D>();
  const Comb& c = c_;
  // Register bus (decoded against this cycle's combinational state).
  const Bus bus = RegisterBusT<D>(d, in);
  // Router outputs: output registers, credit counters, VC ownership.
  const bool credit_err = RouterOutputsT<D>(d);
  // Multicast token.
  McTokenT<D>(d);
  // Inputs: stage 1 (route computation and buffer write), circuits.
  const InputEvents ev = InputStage1T<D>(d);
  in_credit_q_ = c.in_credit_d;
  in_credit_any_ = c.in_credit_any;
  if (d.has_eng) eng_->Edge(in.cfg_req && bus.eng_sel, in.cfg_we, in.cfg_addr, in.cfg_wdata);
  // Router registers.
  RouterRegistersT<D>(d, in, bus, ev, credit_err);
  // Node registers.
  const bool owners_changed = NodeRegisters(in, bus);
  // The node's input registers take this cycle's pins.
  const uint8_t cmask = static_cast<uint8_t>((1u << shape_.num_link_vcs()) - 1u);  // link VCs
  LinkInputRegistersT<D>(d, in, cmask);
  EndpointInputRegistersT<D>(d, in, cmask);
  if (owners_changed) Owners();
}

// A port's output flit: the engine's when it drives the port, else the router's register.
template <class D>
ARIES_INLINE const uint32_t* FastNode::PortOutFlitT(const Dims& d, unsigned p) const {
  return d.has_eng && ((eng_->out_valid() >> p) & 1u) ? eng_->out_flit(p) : &out_flit_q_[p * d.w];
}

// A port's credits upstream: the router's VCs', then the engine's two collective VCs'.
template <class D>
ARIES_INLINE uint8_t FastNode::PortCreditT(const Dims& d, unsigned p) const {
  uint8_t cr = in_credit_q_[p];
  if (d.has_eng) {
    cr |= static_cast<uint8_t>(((eng_->in_credit_req() >> p) & 1u) << d.nv);
    cr |= static_cast<uint8_t>(((eng_->in_credit_rsp() >> p) & 1u) << (d.nv + 1));
  }
  return cr;
}

// aries_node p_links and p_out_flit: the link pins driven through the port muxes (or the fixed
// wiring): each port's output flit on its output link, its credits on its input link.
template <class D>
ARIES_INLINE void FastNode::LinkOutputsT(const Dims& d, NodeOut& out) const {
  uint64_t lv = 0;
  const uint32_t port_valid = out_valid_q_ | (d.has_eng ? eng_->out_valid() : 0u);
  uint64_t ca = 0;
  if (d.muxed && direct_) {  // port p on link p - 1 both ways (Owners)
    std::memset(out.link_credit.data() + 4, 0, d.nl - 4);
    if (d.has_eng) {
      for (unsigned p = 1; p <= 4; ++p) {
        const uint8_t cr = PortCreditT<D>(d, p);
        out.link_credit[p - 1] = cr;
        ca |= uint64_t{cr != 0} << (p - 1);
      }
    } else {
      uint32_t cr4;
      std::memcpy(&cr4, &in_credit_q_[1], 4);
      std::memcpy(out.link_credit.data(), &cr4, 4);
      ca = NonzeroBytes(cr4);
    }
    lv = (port_valid >> 1) & 0xFu;
    if (!d.has_eng && d.w <= kShortFlit) {  // (as the input registers take them)
      std::memcpy(&out.link_flit[0], &out_flit_q_[d.w], 4 * d.w * sizeof(uint32_t));
    } else {
      for (uint64_t m = lv; m != 0; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
        CopyFlit(&out.link_flit[l * d.w], PortOutFlitT<D>(d, l + 1), d.w);
      }
    }
  } else if (d.muxed) {
    std::memset(out.link_credit.data(), 0, d.nl);
    if ((port_valid & 0x1Eu) != 0) {
      for (unsigned p = 1; p <= 4; ++p) lv |= uint64_t{(port_valid >> p) & 1u} << out_link_[p];
    }
    // Credits upstream: none on a cycle without a pop, a circuit's credit or the engine's.
    if ((in_credit_any_ & 0x1Eu) != 0 || d.has_eng) {
      for (unsigned p = 1; p <= 4; ++p) {
        const uint8_t cr = PortCreditT<D>(d, p);
        out.link_credit[in_link_[p]] |= cr;
        ca |= uint64_t{cr != 0} << in_link_[p];
      }
    }
    for (uint64_t m = lv; m != 0; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      CopyFlit(&out.link_flit[l * d.w], PortOutFlitT<D>(d, out_owner_[l]), d.w);
    }
  } else {
    for (unsigned l = 0; l < d.nl; ++l) {
      const uint8_t cr = PortCreditT<D>(d, l + 1);
      out.link_credit[l] = cr;
      ca |= uint64_t{cr != 0} << l;
      if ((port_valid >> (l + 1)) & 1u) {
        lv |= uint64_t{1} << l;
        CopyFlit(&out.link_flit[l * d.w], PortOutFlitT<D>(d, l + 1), d.w);
      }
    }
  }
  out.link_valid = lv;
  out.link_credit_any = ca;
}

// aries_router gen_loc_next and gen_loc_credit: what the local ports take one cycle ahead (the
// engine's flit on port 0 before the router's) and their credits upstream.
template <class D>
ARIES_INLINE void FastNode::EndpointOutputsT(const Dims& d, NodeOut& out) const {
  const bool eng_ep = d.has_eng && (eng_->claim() & 1u);
  out.ep_valid = ((c_.send & 1u) || eng_ep) ? 1u : 0u;
  if (eng_ep)
    eng_->LocNextFlit(out.ep_flit.data());
  else if (out.ep_valid)
    SendFlitT<D>(0, out.ep_flit.data());
  out.ep_credit[0] = c_.in_credit_d[0];
  for (unsigned i = 1; i < d.lp; ++i) {  // extra local ports: the router's alone
    const unsigned p = hw::LocalPort(i, d.nn);
    if ((c_.send >> p) & 1u) {
      out.ep_valid |= static_cast<uint8_t>(1u << i);
      SendFlitT<D>(p, &out.ep_flit[i * d.w]);
    }
    out.ep_credit[i] = c_.in_credit_d[p];
  }
  if (d.has_eng) out.ep_credit[0] |= static_cast<uint8_t>(eng_->loc_next_credit() << d.nv);
}

// The node's bus response (its registers', the router's, the engine's), err, idle and bypass
// pins.
template <class D>
ARIES_INLINE void FastNode::BusOutputsT(const Dims& d, NodeOut& out) const {
  out.cfg_rsp = nd_rsp_q_ || rtr_rsp_;
  out.cfg_err = nd_err_q_ || rtr_err_;
  out.cfg_rdata = nd_rdata_q_ | rtr_rdata_;
  out.err = status_ != 0 || nstatus_q_ != 0;
  if (d.has_eng) {
    out.cfg_rsp = out.cfg_rsp || eng_->cfg_rsp();
    out.cfg_err = out.cfg_err || eng_->cfg_err();
    out.cfg_rdata |= eng_->cfg_rdata();
    out.err = out.err || eng_->err();
  }
  out.idle = c_.in_empty == all_ports_ && out_valid_q_ == 0 && in_credit_any_ == 0 &&
             !out.cfg_rsp && lnk_in_valid_q_ == 0 && lnk_out_credit_any_ == 0 &&
             ep_in_valid_q_ == 0 && ep_out_credit_any_ == 0 && (!d.has_eng || eng_->idle());
  out.bypass = (cut_x_q_ << hw::kBypassXLsb) | (cut_y_q_ << hw::kBypassYLsb);
}

template <class D>
void FastNode::OutputsT(NodeOut& out) {
  const Dims d = DimsOf<D>();
  LinkOutputsT<D>(d, out);
  EndpointOutputsT<D>(d, out);
  BusOutputsT<D>(d, out);
}

void FastNode::Tick(const NodeIn& in, NodeOut& out) {
  if (fixed_p2p_) {
    EdgeT<FixedP2p>(in);
    CombT<FixedP2p>();
    OutputsT<FixedP2p>(out);
  } else {
    EdgeT<AnyShape>(in);
    CombT<AnyShape>();
    OutputsT<AnyShape>(out);
  }
}

}  // namespace aries::sysc
