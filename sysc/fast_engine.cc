#include "fast_engine.h"

#include <cstring>

#include "aries_pkg.h"
#include "aries_regs.h"
#include "arith.h"
#include "node_model.h"

// Edge's stages are compiled into it whatever the compiler's inlining limits: each cycle runs
// them as one function, as before they were named.
#define ARIES_INLINE inline __attribute__((always_inline))

namespace aries::sysc {

namespace {
constexpr unsigned kSeqMask = (1u << hw::kCollSeqW) - 1u;
constexpr unsigned kOpMask = (1u << hw::kOpW) - 1u;
constexpr unsigned kFlowMask = (1u << hw::kFlowIdW) - 1u;
unsigned Clog2(unsigned n) {
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b;
}
inline unsigned Ctz(uint32_t v) { return static_cast<unsigned>(__builtin_ctz(v)); }
// Side word of a reduction: seq [11:0], op [15:12], id [21:16], dst [26:22], to_turn [27].
constexpr uint32_t Side(bool turn, unsigned dst, unsigned id, unsigned op, unsigned seq) {
  return (seq & kSeqMask) | ((op & kOpMask) << 12) | ((id & kFlowMask) << 16) |
         ((dst & 31u) << 22) | (uint32_t{turn} << 27);
}
}  // namespace

FastEngine::FastEngine(const Params& p) : p_(p) {
  np_ = p.ports;
  w_ = 1 + p.lanes;
  nq_ = 2 * np_;
  nid_ = p.ids;
  pd_ = p.prog;
  depth_ = p.depth;
  levels_ = np_ > 1 ? Clog2(np_) : 1;
  idw_mask_ = (1u << (nid_ > 1 ? Clog2(nid_) : 1)) - 1u;
  id_.resize(nid_);
  prog_.assign(2 * pd_, 0);
  qmem_.assign(static_cast<size_t>(nq_) * depth_ * w_, 0);
  qrd_.assign(nq_, 0);
  qwr_.assign(nq_, 0);
  qcnt_.assign(nq_, 0);
  credits_.assign(nq_, 0);
  turn_mem_.assign(static_cast<size_t>(p.turn_depth) * w_, 0);
  st_data_.assign(static_cast<size_t>(levels_) * p.lanes, 0);
  st_side_.assign(levels_, 0);
  rd_flit_.assign(static_cast<size_t>(levels_) * w_, 0);
  rd_outs_.assign(levels_, 0);
  out_f_.assign(static_cast<size_t>(np_) * w_, 0);
  h_why_.assign(nq_, 0);
  lane_scratch_.assign(2u << levels_, 0);
  Reset();
}

void FastEngine::Reset() {
  for (Id& i : id_) i = Id{};
  std::fill(prog_.begin(), prog_.end(), 0);
  for (unsigned c = 0; c < 2; ++c) {
    len_[c] = passes_[c] = ptr_[c] = pass_left_[c] = left_[c] = 0;
    run_[c] = false;
  }
  status_ = dropped_ = err_info_ = 0;
  cfg_rsp_ = cfg_err_ = false;
  cfg_rdata_ = 0;
  std::fill(qrd_.begin(), qrd_.end(), 0);
  std::fill(qwr_.begin(), qwr_.end(), 0);
  std::fill(qcnt_.begin(), qcnt_.end(), 0);
  qvalid_ = 0;
  std::fill(credits_.begin(), credits_.end(), static_cast<uint16_t>(p_.out_credits));
  cr_avail_ = nq_ >= 32 ? ~0u : (1u << nq_) - 1u;
  turn_rd_ = turn_wr_ = turn_cnt_ = 0;
  turn_space_ = p_.turn_depth;
  st_mask_ = rd_mask_ = 0;
  st_pos_ = rd_pos_ = 0;
  out_v_ = 0;
  in_cr_req_ = in_cr_rsp_ = 0;
}

bool FastEngine::CanStart(unsigned c) const {
  if (run_[c] || len_[c] == 0 || passes_[c] == 0) return false;
  for (unsigned i = 0; i < len_[c] && i < pd_; ++i) {
    const Id& d = id_[prog_[c * pd_ + i]];
    if (!d.en) return false;
    if (c == 0 && d.req_in == 0) return false;
    if (c == 1 && d.rsp_out == 0) return false;
  }
  return true;
}

void FastEngine::Comb(uint32_t in_valid, const uint32_t* const* in_flit, uint32_t cr_req,
                      uint32_t cr_rsp) {
  in_valid_ = in_valid;
  in_flit_ = in_flit;
  cr_give_req_ = cr_req;
  cr_give_rsp_ = cr_rsp;
  const uint32_t port_mask = (1u << np_) - 1u;
  const unsigned cur[2] = {Cur(0), Cur(1)};
  const unsigned exp_seq[2] = {id_[cur[0]].req_done & kSeqMask, id_[cur[1]].rsp_done & kSeqMask};
  // Heads.
  h_good_ = h_bad_ = 0;
  for (uint32_t m = qvalid_; m != 0; m &= m - 1) {
    const unsigned q = Ctz(m);
    const unsigned c = q / np_;
    const uint32_t hdr = QHead(q)[0];
    const unsigned hid = (hdr >> hw::kHdrFlowLsb) & kFlowMask;
    uint8_t why = 0;
    if (hid >= nid_ || !id_[hid].en) {
      why = 1u << hw::kEngStatusUnknownIdBit;
    } else if (!run_[c]) {
      why = 1u << hw::kEngStatusIdleBit;
    } else if ((hid & idw_mask_) == cur[c]) {
      if (((hdr >> hw::kCollHdrOpLsb) & kOpMask) != id_[cur[c]].op) {
        why = 1u << hw::kEngStatusOpBit;
      } else if (((hdr >> hw::kCollHdrSeqLsb) & kSeqMask) != exp_seq[c]) {
        why = 1u << hw::kEngStatusSeqBit;
      } else {
        h_good_ |= 1u << q;
      }
    }
    h_why_[q] = why;
    if (why != 0) h_bad_ |= 1u << q;
  }
  bool turn_good = false;
  if (turn_cnt_ > 0 && run_[1]) {
    const uint32_t th = turn_mem_[turn_rd_ * w_];
    turn_good = (((th >> hw::kHdrFlowLsb) & kFlowMask) & idw_mask_) == cur[1] &&
                ((th >> hw::kCollHdrSeqLsb) & kSeqMask) == exp_seq[1];
  }
  // Issue: the response stage first (it has priority on a port both want).
  const Id& rid = id_[cur[1]];
  rsp_src_ = rid.rsp_in;
  rsp_outs_ = rid.rsp_out;
  rsp_from_turn_ = rsp_src_ == hw::kEngTurn;
  rsp_issue_ =
      run_[1] &&
      (rsp_from_turn_ ? turn_good : (rsp_src_ < np_ && ((h_good_ >> (np_ + rsp_src_)) & 1u)));
  if ((rsp_outs_ & ~(cr_avail_ >> np_) & port_mask) != 0) rsp_issue_ = false;
  const Id& qid = id_[cur[0]];
  req_ins_ = qid.req_in;
  req_dst_ = qid.req_out;
  req_to_turn_ = req_dst_ == hw::kEngTurn;
  req_issue_ = run_[0] && req_ins_ != 0 && (req_ins_ & ~h_good_ & port_mask) == 0;
  if (req_to_turn_) {
    if (turn_space_ == 0) req_issue_ = false;
  } else if (req_dst_ >= np_ || !((cr_avail_ >> req_dst_) & 1u) ||
             (rsp_issue_ && ((rsp_outs_ >> req_dst_) & 1u))) {
    req_issue_ = false;
  }
  // Pops: the issues' inputs, and the lowest bad head.
  q_pop_ = 0;
  if (req_issue_) q_pop_ |= req_ins_ & port_mask;
  if (rsp_issue_ && !rsp_from_turn_) q_pop_ |= 1u << (np_ + rsp_src_);
  drop_ = h_bad_ != 0;
  drop_q_ = drop_ ? Ctz(h_bad_) : 0;
  if (drop_) q_pop_ |= 1u << drop_q_;
  // The tree's root and the response line's last stage leave next cycle.
  const unsigned last = levels_ - 1;
  tree_v_ = (st_mask_ >> last) & 1u;
  const uint32_t side = st_side_[(st_pos_ + last) % levels_];
  tree_turn_ = (side >> 27) & 1u;
  tree_dst_ = (side >> 22) & 31u;
  claim_ = ((rd_mask_ >> last) & 1u) ? rd_outs_[(rd_pos_ + last) % levels_] : 0;
  if (tree_v_ && !tree_turn_) claim_ |= 1u << tree_dst_;
  loc_next_credit_ = (q_pop_ & 1u) | (((q_pop_ >> np_) & 1u) << 1);
}

void FastEngine::ReqFlit(uint32_t* dst) const {
  const unsigned slot = (st_pos_ + levels_ - 1) % levels_;
  const uint32_t side = st_side_[slot];
  const bool turn = (side >> 27) & 1u;
  dst[0] = (1u << hw::kHdrHeadBit) | (1u << hw::kHdrTailBit) |
           ((turn ? p_.rsp_vc : p_.req_vc) << hw::kHdrVcLsb) | (1u << hw::kHdrIsFlowBit) |
           (((side >> 16) & kFlowMask) << hw::kHdrFlowLsb) |
           (((side >> 12) & kOpMask) << hw::kCollHdrOpLsb) |
           ((side & kSeqMask) << hw::kCollHdrSeqLsb);
  std::memcpy(dst + 1, &st_data_[static_cast<size_t>(slot) * p_.lanes],
              p_.lanes * sizeof(uint32_t));
}

void FastEngine::LocNextFlit(uint32_t* dst) const {
  const unsigned last = levels_ - 1;
  const unsigned rs = (rd_pos_ + last) % levels_;
  if (((rd_mask_ >> last) & 1u) && (rd_outs_[rs] & 1u)) {
    CopyFlit(dst, &rd_flit_[rs * w_], w_);
  } else {
    ReqFlit(dst);
  }
}

bool FastEngine::idle() const {
  return qvalid_ == 0 && turn_cnt_ == 0 && !rsp_issue_ && rd_mask_ == 0 && st_mask_ == 0 &&
         out_v_ == 0 && in_cr_req_ == 0 && in_cr_rsp_ == 0 && !cfg_rsp_;
}

// aries_coll_engine_regs p_decode: which register address cfg_addr names.
ARIES_INLINE FastEngine::Decoded FastEngine::Decode(uint32_t cfg_addr) const {
  Decoded r;
  const unsigned a = cfg_addr & 0xFFFFu;
  r.a = a;
  r.is_id = a >= hw::kRegEngIdBase && a < hw::kRegEngIdBase + hw::kEngIdStride * nid_;
  r.a_id = ((a - hw::kRegEngIdBase) / hw::kEngIdStride) & idw_mask_;
  r.a_r = (a - hw::kRegEngIdBase) % hw::kEngIdStride;
  r.is_prog = (a >= hw::kRegEngReqProgBase && a < hw::kRegEngReqProgBase + pd_) ||
              (a >= hw::kRegEngRspProgBase && a < hw::kRegEngRspProgBase + pd_);
  r.a_cls = a >= hw::kRegEngRspProgBase ? 1 : 0;
  r.a_step = a - (r.a_cls ? hw::kRegEngRspProgBase : hw::kRegEngReqProgBase);
  return r;
}

// The per-id register r names, as read.
uint32_t FastEngine::IdRegister(const Decoded& r) const {
  const Id& d = id_[r.a_id];
  switch (r.a_r) {
    case hw::kIdRegCfg:
      return (uint32_t{d.en} << hw::kIdCfgEnBit) | d.op;
    case hw::kIdRegCount:
      return d.count;
    case hw::kIdRegReqIn:
      return d.req_in;
    case hw::kIdRegReqOut:
      return d.req_out;
    case hw::kIdRegRspIn:
      return d.rsp_in;
    case hw::kIdRegRspOut:
      return d.rsp_out;
    case hw::kIdRegReqDone:
      return d.req_done;
    default:
      return d.rsp_done;
  }
}

// aries_coll_engine_regs p_access for a read: the register's value (refused off the map).
FastEngine::Answer FastEngine::ReadAccess(const Decoded& r) const {
  Answer ans;
  ans.ok = true;
  switch (r.a) {
    case hw::kRegEngId:
      ans.rdata = hw::kEngIdValue;
      break;
    case hw::kRegEngParams:
      ans.rdata =
          ((np_ & 31u) << 24) | ((depth_ & 0xFFu) << 16) | ((pd_ & 0xFFu) << 8) | (nid_ & 0xFFu);
      break;
    case hw::kRegEngCtrl:
      ans.rdata = (run_[0] ? 1u : 0u) | (run_[1] ? 2u : 0u);
      break;
    case hw::kRegEngStatus:
      ans.rdata = status_;
      break;
    case hw::kRegEngErrInfo:
      ans.rdata = err_info_;
      break;
    case hw::kRegEngReqLen:
      ans.rdata = (passes_[0] << 16) | len_[0];
      break;
    case hw::kRegEngRspLen:
      ans.rdata = (passes_[1] << 16) | len_[1];
      break;
    case hw::kRegEngDropped:
      ans.rdata = dropped_;
      break;
    default:
      if (r.is_prog) {
        ans.rdata = prog_[r.a_cls * pd_ + r.a_step];
      } else if (r.is_id) {
        ans.rdata = IdRegister(r);
      } else {
        ans.ok = false;
      }
  }
  return ans;
}

// Whether the per-id register r names takes the value wd (in range; the engine not running is
// checked by the caller).
bool FastEngine::IdWriteOk(const Decoded& r, uint32_t wd) const {
  switch (r.a_r) {
    case hw::kIdRegCfg:
      return (wd & ~hw::kIdCfgMask) == 0 && (wd & 0xFu) < hw::kNumOps;
    case hw::kIdRegCount:
      return wd >= 1 && wd <= 0xFFFFu;
    case hw::kIdRegReqIn:
    case hw::kIdRegRspOut:
      return (wd >> np_) == 0;
    case hw::kIdRegReqOut:
    case hw::kIdRegRspIn:
      return wd < np_ || wd == hw::kEngTurn;
    default:
      return false;
  }
}

// aries_coll_engine_regs p_access for a write of wd: accepted or refused (p_can_start for a
// CTRL write; programs and ids change only while nothing runs), and the programs it starts.
FastEngine::Answer FastEngine::WriteAccess(const Decoded& r, uint32_t wd, bool running) const {
  Answer ans;
  switch (r.a) {
    case hw::kRegEngCtrl:
      ans.ok = (wd & ~3u) == 0 && wd != 0 && (!((wd >> hw::kEngCtrlReqBit) & 1u) || CanStart(0)) &&
               (!((wd >> hw::kEngCtrlRspBit) & 1u) || CanStart(1));
      ans.start = wd & 3u;
      break;
    case hw::kRegEngStatus:
      ans.ok = (wd & ~hw::kEngStatusMask) == 0;
      break;
    case hw::kRegEngReqLen:
    case hw::kRegEngRspLen:
      ans.ok = !running && ((wd >> 8) & 0xFFu) == 0 && (wd & 0xFFu) <= pd_ &&
               ((wd & 0xFFu) == 0 || (wd >> 16) != 0);
      break;
    default:
      if (r.is_prog) {
        ans.ok = !running && wd < nid_;
      } else if (r.is_id) {
        ans.ok = IdWriteOk(r, wd) && !running;
      }
  }
  return ans;
}

// aries_coll_engine p_out_v, p_out_f and p_in_credit: the output registers take what the
// claims send (the response line's last stage, else the tree's root), the input credits the
// pops.
ARIES_INLINE void FastEngine::OutputRegisters() {
  const uint32_t port_mask = (1u << np_) - 1u;
  const unsigned last = levels_ - 1;
  const unsigned rs = (rd_pos_ + last) % levels_;
  const bool rd_last = (rd_mask_ >> last) & 1u;
  for (uint32_t m = claim_; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    if (rd_last && ((rd_outs_[rs] >> p) & 1u)) {
      CopyFlit(&out_f_[p * w_], &rd_flit_[rs * w_], w_);
    } else {
      ReqFlit(&out_f_[p * w_]);
    }
  }
  out_v_ = claim_;
  in_cr_req_ = q_pop_ & port_mask;
  in_cr_rsp_ = (q_pop_ >> np_) & port_mask;
}

// The turn queue's push: the tree's root, when it turns into this engine's response.
ARIES_INLINE void FastEngine::TurnPush() {
  if (tree_v_ && tree_turn_ && turn_cnt_ < p_.turn_depth) {
    ReqFlit(&turn_mem_[turn_wr_ * w_]);
    turn_wr_ = turn_wr_ + 1 == p_.turn_depth ? 0 : turn_wr_ + 1;
    ++turn_cnt_;
  }
}

// aries_coll_engine p_rd_v and p_rd_d: the response delay line shifts, its first stage taking
// the issued response (from the turn queue or a response queue).
ARIES_INLINE void FastEngine::ResponseLine() {
  const unsigned new_rd = (rd_pos_ + levels_ - 1) % levels_;
  if (rsp_issue_) {
    const uint32_t* src = rsp_from_turn_ ? &turn_mem_[turn_rd_ * w_] : QHead(np_ + rsp_src_);
    CopyFlit(&rd_flit_[new_rd * w_], src, w_);
    rd_outs_[new_rd] = rsp_outs_;
  }
  rd_mask_ = ((rd_mask_ << 1) | (rsp_issue_ ? 1u : 0u)) & ((1u << levels_) - 1u);
  rd_pos_ = new_rd;
}

// aries_coll_tree for lane k of the issued request: the request queues' heads reduced with op
// in the tree's slot pairing (p_level0 padded, then level by level). Returns the root.
ARIES_INLINE uint32_t FastEngine::ReduceLane(unsigned k, unsigned op) {
  const uint32_t port_mask = (1u << np_) - 1u;
  const unsigned pad = 1u << levels_;
  uint32_t* v = lane_scratch_.data();
  uint32_t present = req_ins_ & port_mask;
  for (uint32_t m = present; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    v[p] = QHead(p)[1 + k];
  }
  for (unsigned n = pad; n > 1; n /= 2) {
    uint32_t next = 0;
    for (unsigned s = 0; s < n / 2; ++s) {
      const bool a2 = (present >> (2 * s)) & 1u, b2 = (present >> (2 * s + 1)) & 1u;
      if (a2 && b2)
        v[s] = coll::LaneOp(op, v[2 * s], v[2 * s + 1]);
      else if (a2)
        v[s] = v[2 * s];
      else if (b2)
        v[s] = v[2 * s + 1];
      if (a2 || b2) next |= 1u << s;
    }
    present = next;
  }
  return v[0];
}

// aries_coll_engine p_tree_in: the tree's delay line shifts, its first stage taking the issued
// request's reduced payload and side word.
ARIES_INLINE void FastEngine::RequestTree() {
  const unsigned new_st = (st_pos_ + levels_ - 1) % levels_;
  if (req_issue_) {
    const unsigned cur0 = Cur(0);
    const unsigned op = id_[cur0].op;
    for (unsigned k = 0; k < p_.lanes; ++k)
      st_data_[static_cast<size_t>(new_st) * p_.lanes + k] = ReduceLane(k, op);
    st_side_[new_st] = Side(req_to_turn_, req_dst_, cur0, op, id_[cur0].req_done & kSeqMask);
  }
  st_mask_ = ((st_mask_ << 1) | (req_issue_ ? 1u : 0u)) & ((1u << levels_) - 1u);
  st_pos_ = new_st;
}

// The turn queue's pop (the response stage took its head) and aries_coll_engine p_turn_space:
// space reserved at a request's issue to the turn queue, freed by the pop.
ARIES_INLINE void FastEngine::TurnPop() {
  const bool turn_pop = rsp_issue_ && rsp_from_turn_;
  if (turn_pop && turn_cnt_ > 0) {
    turn_rd_ = turn_rd_ + 1 == p_.turn_depth ? 0 : turn_rd_ + 1;
    --turn_cnt_;
  }
  if (req_issue_ && req_to_turn_ && !turn_pop)
    --turn_space_;
  else if (turn_pop && !(req_issue_ && req_to_turn_))
    ++turn_space_;
}

// The output credits per port and class: taken at issue (p_take), returned by the receivers.
ARIES_INLINE void FastEngine::OutputCredits() {
  const uint32_t port_mask = (1u << np_) - 1u;
  uint32_t take = 0;
  if (req_issue_ && !req_to_turn_) take |= 1u << req_dst_;
  if (rsp_issue_) take |= (rsp_outs_ & port_mask) << np_;
  const uint32_t give = (cr_give_req_ & port_mask) | ((cr_give_rsp_ & port_mask) << np_);
  for (uint32_t m = take ^ give; m != 0; m &= m - 1) {
    const unsigned q = Ctz(m);
    uint16_t& c = credits_[q];
    if ((take >> q) & 1u) {
      if (c != 0) --c;
    } else if (c != p_.out_credits) {
      ++c;
    }
    if (c != 0)
      cr_avail_ |= 1u << q;
    else
      cr_avail_ &= ~(1u << q);
  }
}

// aries_coll_engine p_push and p_pop: the input queues' pushes (readiness from the counts
// before this edge), then their pops.
ARIES_INLINE void FastEngine::QueuePushPop() {
  for (uint32_t m = in_valid_; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    const uint32_t* f = in_flit_[p];
    const unsigned vc = (f[0] >> hw::kHdrVcLsb) & 7u;
    unsigned q;
    if (vc == p_.rsp_vc)
      q = np_ + p;
    else if (vc == p_.req_vc)
      q = p;
    else
      continue;
    if (qcnt_[q] == depth_) continue;
    CopyFlit(QSlot(q, qwr_[q]), f, w_);
    qwr_[q] = static_cast<uint16_t>(qwr_[q] + 1u == depth_ ? 0 : qwr_[q] + 1u);
    ++qcnt_[q];
  }
  for (uint32_t m = q_pop_ & qvalid_; m != 0; m &= m - 1) {
    const unsigned q = Ctz(m);
    qrd_[q] = static_cast<uint16_t>(qrd_[q] + 1u == depth_ ? 0 : qrd_[q] + 1u);
    --qcnt_[q];
  }
  qvalid_ = 0;
  for (unsigned q = 0; q < nq_; ++q) {
    if (qcnt_[q] != 0) qvalid_ |= 1u << q;
  }
}

// aries_coll_seq p_state for both classes: an issue counts its step's operations done, then
// moves to the next step, the next pass, or stops the program.
ARIES_INLINE void FastEngine::Sequencers() {
  const bool issue[2] = {req_issue_, rsp_issue_};
  for (unsigned c = 0; c < 2; ++c) {
    if (!issue[c]) continue;
    Id& d = id_[Cur(c)];
    if (c == 0)
      d.req_done = (d.req_done + 1) & 0xFFFFu;
    else
      d.rsp_done = (d.rsp_done + 1) & 0xFFFFu;
    if (left_[c] > 1) {
      --left_[c];
    } else if (ptr_[c] + 1 < len_[c]) {
      left_[c] = id_[prog_[c * pd_ + ptr_[c] + 1]].count;
      ++ptr_[c];
    } else if (pass_left_[c] > 1) {
      ptr_[c] = 0;
      --pass_left_[c];
      left_[c] = id_[prog_[c * pd_]].count;
    } else {
      run_[c] = false;
      ptr_[c] = 0;
    }
  }
}

// aries_coll_engine_regs p_regs: an accepted write of wd to the register r names (CTRL starts
// programs; STATUS clears the bits written of old_status, keeping this cycle's drop).
void FastEngine::RegisterWrite(const Decoded& r, const Answer& ans, uint32_t wd,
                               uint32_t old_status) {
  const uint32_t port_mask = (1u << np_) - 1u;
  switch (r.a) {
    case hw::kRegEngCtrl:
      for (unsigned c = 0; c < 2; ++c) {
        if ((ans.start >> c) & 1u) {
          run_[c] = true;
          ptr_[c] = 0;
          pass_left_[c] = passes_[c];
          left_[c] = id_[prog_[c * pd_]].count;
        }
      }
      break;
    case hw::kRegEngStatus:
      status_ = (old_status & ~wd) | (drop_ ? h_why_[drop_q_] : 0u);
      break;
    case hw::kRegEngReqLen:
    case hw::kRegEngRspLen: {
      const unsigned c = r.a == hw::kRegEngRspLen ? 1 : 0;
      len_[c] = wd & 0xFFu;
      passes_[c] = wd >> 16;
      break;
    }
    default:
      if (r.is_prog) {
        prog_[r.a_cls * pd_ + r.a_step] = wd & idw_mask_;
      } else if (r.is_id) {
        Id& d = id_[r.a_id];
        switch (r.a_r) {
          case hw::kIdRegCfg:
            d.op = wd & kOpMask;
            d.en = (wd >> hw::kIdCfgEnBit) & 1u;
            d.req_done = d.rsp_done = 0;
            break;
          case hw::kIdRegCount:
            d.count = wd & 0xFFFFu;
            break;
          case hw::kIdRegReqIn:
            d.req_in = wd & port_mask;
            break;
          case hw::kIdRegReqOut:
            d.req_out = wd & 31u;
            break;
          case hw::kIdRegRspIn:
            d.rsp_in = wd & 31u;
            break;
          case hw::kIdRegRspOut:
            d.rsp_out = wd & port_mask;
            break;
          default:
            break;
        }
      }
  }
}

void FastEngine::Edge(bool cfg_req, bool we, uint32_t cfg_addr, uint32_t wd) {
  const bool running = run_[0] || run_[1];
  // Register decode (aries_coll_engine p_decode, p_access).
  const Decoded r = Decode(cfg_addr);
  Answer ans;
  if (cfg_req) {
    ans = we ? WriteAccess(r, wd, running) : ReadAccess(r);
    if (!ans.ok) ans.start = 0;
  }
  // Output registers, then the turn queue's push (both read the tree's last stage).
  OutputRegisters();
  TurnPush();
  // The response line and the tree take their new first stage (the old last stage's slot).
  ResponseLine();
  RequestTree();
  TurnPop();
  // Output credits.
  OutputCredits();
  // Queues: pushes (readiness from the counts before this edge), then pops.
  const uint32_t drop_hid = drop_ ? (QHead(drop_q_)[0] >> hw::kHdrFlowLsb) & kFlowMask : 0;
  QueuePushPop();
  // Registers.
  const uint32_t old_status = status_;
  cfg_rsp_ = cfg_req;
  cfg_rdata_ = cfg_req && ans.ok ? ans.rdata : 0;
  cfg_err_ = cfg_req && !ans.ok;
  if (drop_) {
    ++dropped_;
    status_ |= h_why_[drop_q_];
    err_info_ = ((drop_q_ / np_) << 24) | ((drop_q_ % np_) << 16) | drop_hid;
  }
  if (cfg_req && !ans.ok) status_ |= 1u << hw::kEngStatusCfgErrBit;
  Sequencers();
  if (cfg_req && we && ans.ok) RegisterWrite(r, ans, wd, old_status);
}

}  // namespace aries::sysc
