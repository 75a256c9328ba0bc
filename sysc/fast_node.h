// FastNode: a cycle-equivalent C++ model of aries_node (the shapes of the shipped Verilated
// models: with or without the collective engine, 5 or 15 ports), behind the same NodeModel pins
// as the Verilated node.
//
// It mirrors the RTL register for register: the node's link and endpoint input registers, port
// muxes and node registers (rtl/node/aries_node.sv); the router's input VCs with their route
// computation, VC and switch allocation, multicast token, pass-through circuits, output
// registers, credit counters and register block (rtl/router/). It is written for speed, not
// structure: state sits in flat arrays, a flit's words are written once into its input slot and
// read from there, idle ports and VCs are skipped by bit masks, nothing is allocated per cycle.
//
// Timing. Everything on the node's pins except the register bus is registered before any logic
// (aries_node), so the combinational state of a cycle is a function of the registers alone. A
// Tick applies the register bus to the combinational state computed at the end of the previous
// Tick, takes the edge, and computes the combinational state of the next cycle (which gives the
// endpoint outputs, taken one cycle ahead); the pops of the input VCs that state selects are
// made with it, the next edge's work done early (nothing reads the input buffers, VC heads or VC
// pointers in between). tests/sysc/fast_node_test.cc steps this model and the
// Verilated node in lockstep and compares every output pin every cycle; `sim.model=check` does
// the same inside any package run.
//
// The collective engine (sysc/fast_engine.h) sits beside the router as in aries_node: flits of
// the two collective VCs go to it, its credits join the router's on the links, and its results
// take a port's output with priority (the router is held off that output the cycle before).
//
// Limitations: no waveform tracing (Trace throws: trace the Verilated node).
#ifndef ARIES_SYSC_FAST_NODE_H_
#define ARIES_SYSC_FAST_NODE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "arena.h"
#include "aries_pkg.h"
#include "fast_engine.h"
#include "node_model.h"

namespace aries::sysc {

class FastNode final : public NodeModel {
 public:
  static constexpr unsigned kMaxPorts = 32;  // router ports (bit masks of 32 bits)
  // Throws std::invalid_argument naming the unsupported parameter (more than 32 ports or 8 link
  // VCs, a buffer deeper than 255 flits, more than 64 links, more than 16 engine ids).
  explicit FastNode(const NodeShape& shape);
  const NodeShape& shape() const override { return shape_; }
  void Reset(unsigned x, unsigned y) override;
  void Tick(const NodeIn& in, NodeOut& out) override;
  void Trace(VerilatedFstC* fst) override;

 private:
  // The combinational state of one cycle (a function of the registers).
  struct Comb {
    uint32_t rin_valid = 0;           // router inputs with a flit
    Slice<const uint32_t*> rin_flit;  // per port: its flit's words
    Slice<uint8_t> rout_credit;       // per output: credits from downstream
    bool stray_flit = false, stray_credit = false;
    // Inputs.
    Slice<uint8_t> sel;  // per input: the selected VC
    uint32_t sel_valid = 0, mc_start = 0, pop_tail = 0;
    Slice<uint32_t> gnt;       // per input: outputs granted
    Slice<uint32_t> rem;       // per input: head_rem of the selected VC
    Slice<uint8_t> sel_ovc;    // per input: the output VC of the selected head
    Slice<uint16_t> sel_slot;  // per input: the slot of the selected VC's head
    uint32_t req_any = 0;      // outputs some input requests
    uint32_t mc_gate = 0;
    bool mc_win_valid = false;
    unsigned mc_win_idx = 0;
    // Outputs.
    uint32_t pt_out_en = 0, pt_out_valid = 0;
    Slice<uint8_t> pt_src;  // per output: the pass-through input
    uint32_t gnt_valid = 0, send = 0;
    Slice<uint8_t> gnt_idx;  // per output: the granted input
    uint32_t in_empty = 0;
    std::array<uint8_t, kMaxPorts> in_credit_d{};  // per input: credits upstream next cycle
    uint32_t in_credit_any = 0;                    // inputs with a nonzero in_credit_d
    uint32_t rout_credit_any = 0;                  // outputs with credits from downstream
  };

  // The cycle's three steps (Tick), compiled twice: for the dimensions D fixes at compile time
  // (the shipped point-to-point node, FixedP2p in fast_node.cc) and for any shape (every
  // dimension read from the members). ComputeComb picks the one this node was built for.
  void ComputeComb();
  // The node's dimensions as the hot path reads them: D's constants where it fixes them, the
  // members otherwise.
  struct Dims {
    unsigned np, nn, lp, nv, depth, w, nl;
    bool muxed, has_eng;
  };
  template <class D>
  Dims DimsOf() const;
  template <class D>
  void EdgeT(const NodeIn& in);
  template <class D>
  void CombT();
  template <class D>
  void OutputsT(NodeOut& out);
  // The flit leaving output o this cycle (its VC rewritten for a switched flit) into dst.
  template <class D>
  void SendFlitT(unsigned o, uint32_t* dst) const;

  // --- CombT's stages (fast_node.cc; each inlined into CombT) ---
  // The head of an input VC: its slot, flags, remaining outputs, effective output VC and the
  // outputs it may take now (ok).
  struct Head {
    unsigned slot, flags, eff;
    uint32_t rem, ok;
  };
  // What VC selection leaves for the allocators and the pops: the selected heads that are
  // dropped (no route), are heads, are tails; the outputs requested; per input the outputs its
  // selected head may take.
  struct Selection {
    uint32_t drop = 0, is_head = 0, tail = 0, req_any = 0;
    uint32_t ok[kMaxPorts];  // (only the selected inputs' are written)
  };
  template <class D>
  uint32_t PortSideT(const Dims& d);
  template <class D>
  uint32_t EngineSplitT(const Dims& d, uint32_t rca);
  template <class D>
  void PassThroughSourcesT(const Dims& d);
  template <class D>
  Head HeadOfT(const Dims& d, unsigned p, unsigned v, uint32_t blocked, bool torus) const;
  template <class D>
  Selection VcSelectionT(const Dims& d);
  template <class D>
  void McTokenArbitrationT(const Dims& d, Selection& s);
  template <class D>
  void SwitchAllocationT(uint32_t req_any);
  template <class D>
  void InputPopsT(const Dims& d, const Selection& s);
  template <class D>
  void PassThroughCreditsT(const Dims& d);

  // --- EdgeT's stages ---
  // The node's register access (aries_node p_access) and the router's (aries_router_regs).
  struct NodeAcc {
    bool ok = false;
    uint32_t rdata = 0;
    bool wr_portsel = false, wr_bypass = false, wr_status = false;
    unsigned ps_p = 0, cin = 0, cout = 0;
  };
  struct RouterAcc {
    bool ok = false;
    uint32_t rdata = 0;
    int wr = 0;  // 0 none, 1 CTRL, 2 STATUS, 3 PASSTHRU, 4 ROUTE
  };
  // This cycle's register request, decoded against this cycle's combinational state.
  struct Bus {
    bool nd_req, rtr_req, eng_sel;
    NodeAcc nd;
    RouterAcc rtr;
  };
  // What aries_route_compute gives an arriving flit.
  struct Route {
    uint32_t route;  // output mask
    unsigned ovc;    // output VC
    bool miss;       // no route
  };
  // The events of stage 1 that STATUS records.
  struct InputEvents {
    bool overflow = false, any_miss = false;
  };
  template <class D>
  Bus RegisterBusT(const Dims& d, const NodeIn& in);
  template <class D>
  bool RouterOutputsT(const Dims& d);
  template <class D>
  uint32_t OutputRegisterT(const Dims& d, unsigned o, uint32_t vc_sel_mask);
  template <class D>
  void VcOwnershipT(const Dims& d, unsigned o, unsigned vi, uint32_t hdr);
  template <class D>
  bool CreditCountersT(const Dims& d, unsigned o, uint32_t take, uint32_t give);
  template <class D>
  void McTokenT(const Dims& d);
  template <class D>
  InputEvents InputStage1T(const Dims& d);
  void PassThroughOpen(unsigned p, uint32_t hdr, unsigned nv);
  template <class D>
  Route RouteComputeT(const Dims& d, unsigned p, uint32_t hdr, bool torus) const;
  template <class D>
  bool BufferWriteT(const Dims& d, unsigned p, unsigned vc, const uint32_t* f, const Route& r);
  template <class D>
  void RouterRegistersT(const Dims& d, const NodeIn& in, const Bus& bus, InputEvents ev,
                        bool credit_err);
  bool NodeRegisters(const NodeIn& in, const Bus& bus);
  template <class D>
  void LinkInputRegistersT(const Dims& d, const NodeIn& in, uint8_t cmask);
  template <class D>
  void EndpointInputRegistersT(const Dims& d, const NodeIn& in, uint8_t cmask);

  // --- OutputsT's stages ---
  template <class D>
  const uint32_t* PortOutFlitT(const Dims& d, unsigned p) const;
  template <class D>
  uint8_t PortCreditT(const Dims& d, unsigned p) const;
  template <class D>
  void LinkOutputsT(const Dims& d, NodeOut& out) const;
  template <class D>
  void EndpointOutputsT(const Dims& d, NodeOut& out) const;
  template <class D>
  void BusOutputsT(const Dims& d, NodeOut& out) const;

  // --- Register accesses (cold: only with a request) ---
  NodeAcc NodeAccess(const NodeIn& in) const;
  RouterAcc RouterAccess(const NodeIn& in) const;
  RouterAcc RouteTableAccess(uint32_t addr, bool we, uint32_t wd) const;
  RouterAcc PassthruAccess(unsigned reg_port, bool we, uint32_t wd) const;
  RouterAcc CtrlAccess(bool we, uint32_t wd) const;
  RouterAcc RouterRegisterAccess(uint32_t addr, bool we, uint32_t wd) const;
  // The constructor's layout of every Slice in the arena.
  void LayOut(size_t slots);
  uint32_t InQuiet() const;
  uint32_t OutIdle() const;
  uint32_t OutQuiet() const;
  unsigned LinkOf(unsigned p, unsigned c) const;
  void DorTable();  // dor_ from the node's coordinates and the CTRL register
  void Owners();
  bool ChoiceOk(unsigned p, unsigned c, const Slice<uint8_t>& owners) const;
  // Router port of local port i (hw::LocalPort).
  unsigned LocalPort(unsigned i) const { return hw::LocalPort(i, nn_); }

  NodeShape shape_;
  // Every Slice below, in one allocation (sysc/arena.h): the per-port and per-VC arrays the
  // cycle reads first, together in a few cache lines, the buffers and tables after them.
  Arena arena_;
  // np_: the router's radix; nn_: its ports without the extra local ports (the port side: the
  // endpoint's port 0 and the interposer ports, the engine's ports); lp_: local ports.
  unsigned np_, nn_, lp_, nv_, depth_, w_, nl_, nt_;
  uint32_t net_mask_ = 0;  // ports 0 .. nn_-1
  bool muxed_;
  uint32_t all_ports_;
  uint32_t vc_sel_mask_, port_sel_mask_;  // an RTL index truncated to $clog2(N) bits
  unsigned x_ = 0, y_ = 0;

  // --- node registers ---
  uint64_t lnk_in_valid_q_ = 0;
  Slice<uint32_t> lnk_in_flit_q_;                          // nl * w
  Slice<uint8_t> lnk_out_credit_q_;                        // nl
  uint64_t lnk_out_credit_any_ = 0;                        // links with a nonzero lnk_out_credit_q_
  uint32_t ep_in_valid_q_ = 0;                             // bit per local port
  Slice<uint32_t> ep_in_flit_q_;                           // lp * w
  std::array<uint8_t, kMaxLocalPorts> ep_out_credit_q_{};  // per local port: link VC mask
  uint32_t ep_out_credit_any_ = 0;                         // local ports with credits
  uint8_t sel_in_q_[4] = {0, 0, 0, 0}, sel_out_q_[4] = {0, 0, 0, 0};
  uint32_t cut_x_q_ = 0, cut_y_q_ = 0;
  uint32_t nstatus_q_ = 0;
  bool nd_rsp_q_ = false, nd_err_q_ = false;
  uint32_t nd_rdata_q_ = 0;
  // Owners of each link direction (0: none, 1..4: port), from the selects.
  Slice<uint8_t> in_owner_, out_owner_;
  uint8_t in_link_[5] = {0, 0, 0, 0, 0}, out_link_[5] = {0, 0, 0, 0, 0};  // per muxed port
  uint64_t in_owned_ = 0, out_owned_ = 0;
  // Muxed ports whose selected input (output) link they own (Owners(): bit p for port p).
  uint32_t port_owns_in_ = 0, port_owns_out_ = 0;
  // Every muxed port p on its own link p - 1 both ways (the muxes' reset selects: a mesh, or an
  // ARIES node that bypasses nothing): the port side is read and driven without the link maps.
  bool direct_ = false;

  // --- router registers ---
  Slice<uint32_t> table_;  // flow * np + inport -> output mask
  unsigned topo_ = 0;
  bool dyn_vc_ = false;
  unsigned size_x_m1_ = 31, size_y_m1_ = 31;
  // Dimension-order routing per destination, (dy << kCoordW) | dx: the output port (kDorPort
  // bits) and the kDor* flags (DorTable).
  static constexpr unsigned kDorPort = 0x1F, kDorBad = 0x20, kDorWrap = 0x40, kDorOutX = 0x80,
                            kDorOutY = 0x100;
  Slice<uint16_t> dor_;  // 1 << (2 kCoordW) entries
  static_assert((1u << hw::kPortIdW) - 1u <= kDorPort, "a port id fits the kDorPort bits");
  uint32_t status_ = 0, err_info_ = 0, miss_cnt_ = 0;
  uint32_t pt_en_ = 0;
  Slice<uint8_t> pt_out_;
  Slice<uint32_t> in_cnt_;    // IN_FLITS
  Slice<uint32_t> out_sent_;  // flits each output sent (OUT_FLITS counts one cycle later)
  bool rtr_rsp_ = false, rtr_err_ = false;
  uint32_t rtr_rdata_ = 0;
  // Inputs: per (port, VC) FIFO of slots.
  Slice<uint8_t> count_, rd_, wr_;  // np * nv
  Slice<uint32_t> nonempty_;        // per port: VCs holding a flit
  uint32_t ne_ports_ = 0;           // ports whose nonempty_ is not 0
  // np * nv: the output VC its packet's head took (the RTL's pkt_dyn_q beside it feeds only an
  // assertion: not mirrored)
  Slice<uint8_t> pkt_ovc_;
  Slice<uint8_t> vc_last_;  // per port: VC round-robin pointer
  // Per slot: what route computation gave its flit and the header bits the allocators read.
  enum : uint8_t { kHead = 1, kTail = 2, kMcHead = 4, kDynCand = 8 };
  struct SlotInfo {
    uint32_t route;  // output mask
    uint8_t ovc;     // output VC of a head
    uint8_t flags;   // kHead, kTail, kMcHead (a multicast head), kDynCand (a DOR head)
  };
  Slice<SlotInfo> slot_;
  // Per (input, VC) holding a flit: its head's slot and SlotInfo, the outputs of its route not
  // yet served (a multicast flit is served output by output), read each cycle without going
  // through the FIFO (set when a flit becomes the head: written into an empty VC, or the one
  // before it popped).
  struct VcHead {
    uint32_t rem;
    uint16_t slot;
    uint8_t ovc, flags;
    // The head that slot s holds, its route not yet served.
    static VcHead Of(const SlotInfo& si, unsigned s) {
      return VcHead{si.route, static_cast<uint16_t>(s), si.ovc, si.flags};
    }
  };
  Slice<VcHead> head_;         // np * nv
  Slice<uint32_t> slot_flit_;  // per slot: w words (header as it arrived)
  // Slots are not tied to a FIFO position: a flit written takes the slot freed last, so the
  // flits in the buffers keep to a few cache lines instead of rotating through every position.
  Slice<uint16_t> fifo_;  // per (input, VC) and position: the slot there
  Slice<uint16_t> free_;  // free slots, the last freed on top
  unsigned nfree_ = 0;
  // Multicast token.
  bool mc_busy_ = false;
  unsigned mc_port_ = 0, mc_vc_ = 0, mc_last_ = 0;
  // Credits upstream, circuits open.
  // Per input (a fixed array: copied and cleared whole, a few vector moves).
  std::array<uint8_t, kMaxPorts> in_credit_q_{};
  uint32_t in_credit_any_ = 0;  // inputs with a nonzero in_credit_q_
  Slice<uint8_t> pt_open_;      // per input: VC mask
  // Outputs.
  Slice<uint8_t> sw_last_;    // per output
  Slice<uint8_t> credits_;    // np * nv
  Slice<uint32_t> avail_;     // per VC w: outputs with a credit (VC-major)
  Slice<uint32_t> owned_;     // per output: VC mask
  Slice<uint32_t> owned_vc_;  // per VC: outputs where it is owned (VC-major)
  Slice<uint32_t> own_by_;    // per (input, VC): outputs whose VC it owns
  uint32_t owned_any_ = 0;    // outputs with some VC owned
  Slice<uint8_t> owner_;      // np * nv
  uint32_t out_valid_q_ = 0;
  Slice<uint32_t> out_flit_q_;  // np * w

  std::unique_ptr<FastEngine> eng_;                        // with shape.coll_engine
  uint32_t eng_in_ = 0, eng_cr_req_ = 0, eng_cr_rsp_ = 0;  // this cycle's engine inputs
  bool fixed_p2p_ = false;  // the shape FixedP2p compiles for (Tick takes that path)
  Comb c_;
  Slice<uint32_t> req_by_out_;  // per output: requesting inputs (scratch; a spare entry last)
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_FAST_NODE_H_
