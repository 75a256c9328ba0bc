// FastEngine: the cycle-equivalent C++ model of aries_coll_engine (rtl/coll_engine/), a part of
// FastNode. Same registers, queues, credits, turn queue, issue rule, drops and step bookkeeping;
// the reduction tree is kept as a delay line of Levels stages whose first stage takes the
// reduced result at issue (collectives/arith's EngineTreeReduce order: the RTL tree's slot
// pairing), since only the root of the tree reaches a pin.
//
// Like the node, the engine's inputs are registers of the node, so a cycle's combinational
// state (Comb) is a function of the registers alone; Edge takes the clock edge.
#ifndef ARIES_SYSC_FAST_ENGINE_H_
#define ARIES_SYSC_FAST_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aries_node_params.h"

namespace aries::sysc {

class FastEngine {
 public:
  // Defaults: the shipped node's engine (rtl/CMakeLists.txt) and aries_coll_engine's TurnDepth.
  struct Params {
    unsigned ports = hw::kVaries_nodeParams.NumPorts, lanes = hw::kVaries_nodeParams.Lanes;
    unsigned ids = hw::kVaries_nodeParams.CollIds, prog = hw::kVaries_nodeParams.CollProg;
    unsigned depth = hw::kVaries_nodeParams.CollDepth;
    unsigned out_credits = hw::kVaries_nodeParams.CollDepth;
    unsigned turn_depth = 8;
    unsigned req_vc = hw::kVaries_nodeParams.NumVCs, rsp_vc = hw::kVaries_nodeParams.NumVCs + 1;
  };
  explicit FastEngine(const Params& p);
  void Reset();

  // The cycle's combinational state from the registers and the node's registered inputs:
  // in_valid per port (flits of the two collective VCs), their words, and the credits from
  // each port's receiver (request class, response class; bit per port).
  void Comb(uint32_t in_valid, const uint32_t* const* in_flit, uint32_t cr_req, uint32_t cr_rsp);
  // The clock edge, with this cycle's register request (already decoded for the engine page).
  void Edge(bool cfg_req, bool cfg_we, uint32_t cfg_addr, uint32_t cfg_wdata);

  // This cycle (after Comb): outputs the router must keep off, and what port 0 takes next.
  uint32_t claim() const { return claim_; }
  uint32_t loc_next_credit() const { return loc_next_credit_; }  // bit 0 request, 1 response
  void LocNextFlit(uint32_t* dst) const;                         // when claim() & 1
  // Registers.
  uint32_t out_valid() const { return out_v_; }
  const uint32_t* out_flit(unsigned p) const { return &out_f_[p * w_]; }
  uint32_t in_credit_req() const { return in_cr_req_; }
  uint32_t in_credit_rsp() const { return in_cr_rsp_; }
  bool cfg_rsp() const { return cfg_rsp_; }
  bool cfg_err() const { return cfg_err_; }
  uint32_t cfg_rdata() const { return cfg_rdata_; }
  bool err() const { return (status_ & kStatusMask) != 0; }
  // aries_coll_engine idle_o (after Comb of the same cycle).
  bool idle() const;

 private:
  static constexpr uint32_t kStatusMask = 0x1F;
  struct Id {
    unsigned op = 0;
    bool en = false;
    uint32_t count = 1, req_in = 0, req_out = 0, rsp_in = 0, rsp_out = 0;
    uint32_t req_done = 0, rsp_done = 0;
  };
  unsigned Cur(unsigned c) const { return prog_[c * pd_ + ptr_[c]]; }
  uint32_t* QSlot(unsigned q, unsigned i) {
    return &qmem_[(static_cast<size_t>(q) * depth_ + i) * w_];
  }
  const uint32_t* QHead(unsigned q) const {
    return &qmem_[(static_cast<size_t>(q) * depth_ + qrd_[q]) * w_];
  }
  void ReqFlit(uint32_t* dst) const;  // the tree's root as a flit
  bool CanStart(unsigned c) const;

  // Edge's stages (fast_engine.cc).
  // A register request decoded (aries_coll_engine_regs p_decode): its address, whether it is a
  // per-id register (of id a_id, register a_r) or a program step (class a_cls, step a_step).
  struct Decoded {
    unsigned a;
    bool is_id, is_prog;
    unsigned a_id, a_r, a_cls, a_step;
  };
  // Its answer (p_access): accepted, the data read, the programs a CTRL write starts.
  struct Answer {
    bool ok = false;
    uint32_t rdata = 0;
    unsigned start = 0;
  };
  Decoded Decode(uint32_t cfg_addr) const;
  Answer ReadAccess(const Decoded& r) const;
  uint32_t IdRegister(const Decoded& r) const;
  Answer WriteAccess(const Decoded& r, uint32_t wd, bool running) const;
  bool IdWriteOk(const Decoded& r, uint32_t wd) const;
  void OutputRegisters();
  void TurnPush();
  void ResponseLine();
  void RequestTree();
  uint32_t ReduceLane(unsigned k, unsigned op);
  void TurnPop();
  void OutputCredits();
  void QueuePushPop();
  void Sequencers();
  void RegisterWrite(const Decoded& r, const Answer& ans, uint32_t wd, uint32_t old_status);

  Params p_;
  unsigned np_, w_, nq_, nid_, pd_, depth_, levels_, idw_mask_;
  // Configuration and program state.
  std::vector<Id> id_;
  std::vector<unsigned> prog_;
  unsigned len_[2] = {0, 0}, passes_[2] = {0, 0};
  bool run_[2] = {false, false};
  unsigned ptr_[2] = {0, 0}, pass_left_[2] = {0, 0}, left_[2] = {0, 0};
  uint32_t status_ = 0, dropped_ = 0, err_info_ = 0;
  bool cfg_rsp_ = false, cfg_err_ = false;
  uint32_t cfg_rdata_ = 0;
  // Queues (q = class * ports + port).
  std::vector<uint32_t> qmem_;
  std::vector<uint16_t> qrd_, qwr_, qcnt_;
  uint32_t qvalid_ = 0;  // queues holding a flit
  // Output credits per queue index, turn queue.
  std::vector<uint16_t> credits_;
  uint32_t cr_avail_ = 0;
  std::vector<uint32_t> turn_mem_;
  unsigned turn_rd_ = 0, turn_wr_ = 0, turn_cnt_ = 0, turn_space_ = 0;
  // Tree and response delay lines: stage l (1..Levels) at ring slot (pos + l - 1) % Levels.
  uint32_t st_mask_ = 0, rd_mask_ = 0;
  unsigned st_pos_ = 0, rd_pos_ = 0;
  std::vector<uint32_t> st_data_;  // Levels x (lanes) words: the reduced payload
  std::vector<uint32_t> st_side_;  // Levels x {to_turn, dst, id, op, seq} packed
  std::vector<uint32_t> rd_flit_;  // Levels x w words
  std::vector<uint32_t> rd_outs_;  // Levels
  // Output and credit registers.
  uint32_t out_v_ = 0;
  std::vector<uint32_t> out_f_;
  uint32_t in_cr_req_ = 0, in_cr_rsp_ = 0;

  // Combinational state of the cycle.
  uint32_t in_valid_ = 0;
  const uint32_t* const* in_flit_ = nullptr;
  uint32_t cr_give_req_ = 0, cr_give_rsp_ = 0;
  uint32_t h_good_ = 0, h_bad_ = 0;
  std::vector<uint8_t> h_why_;
  bool rsp_issue_ = false, req_issue_ = false, rsp_from_turn_ = false, req_to_turn_ = false;
  uint32_t rsp_outs_ = 0, req_ins_ = 0;
  unsigned rsp_src_ = 0, req_dst_ = 0;
  uint32_t q_pop_ = 0;
  bool drop_ = false;
  unsigned drop_q_ = 0;
  uint32_t claim_ = 0, loc_next_credit_ = 0;
  bool tree_v_ = false, tree_turn_ = false;
  unsigned tree_dst_ = 0;
  std::vector<uint32_t> lane_scratch_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_FAST_ENGINE_H_
