// VerilatedNode<V>: NodeModel over one Verilated parameterisation of aries_node.
//
// A template only because each Verilator PREFIX is its own class; include it only in the .cc
// file that instantiates it for one model (sysc/node_models.cc, the tests' model file).
//
// Clocking. The checked models (assertions on, tests) take each rising edge as two evaluations,
// clock low then high. The speed models (kOneEval, the shipped models) take one: aries_node has
// no logic on the falling edge and none that depends on the clock level, and every input it
// has except the configuration bus is registered, so the low-phase evaluation computes nothing
// the high one does not compute again; the model's edge detector is told the clock was low
// instead (its previous-value field, which needs the model's root header: include
// <V>___024root.h before this file). tests/sysc runs the same traffic both ways and compares.
#ifndef ARIES_SYSC_VERILATED_NODE_H_
#define ARIES_SYSC_VERILATED_NODE_H_

#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "node_model.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace aries::sysc {

// Whether the model was verilated with tracing (it then has trace(VerilatedFstC*, int)).
template <class V, class = void>
struct HasFstTrace : std::false_type {};
template <class V>
struct HasFstTrace<
    V, std::void_t<decltype(std::declval<V&>().trace(std::declval<VerilatedFstC*>(), 0))>>
    : std::true_type {};

template <class V, bool kOneEval = false>
class VerilatedNode final : public NodeModel {
 public:
  VerilatedNode(const NodeShape& shape, VerilatedContext* ctx, const std::string& name)
      : shape_(shape), m_(std::make_unique<V>(ctx, name.c_str())) {
    if (shape.carried_lanes != shape.lanes) {  // the RTL's pins carry every lane
      throw std::invalid_argument(
          fmt::format("{}: the Verilated node carries all {} lanes (asked: {})", name, shape.lanes,
                      shape.carried_lanes));
    }
    m_->clk_i = 0;
    m_->rst_ni = 1;
    // A model built with --x-initial unique starts its inputs random too: nothing arrives
    // until the package drives the pins.
    SetBits(m_->lnk_in_valid_i, 0);
    SetBits(m_->lnk_out_credit_i, 0);
    m_->ep_in_valid_i = 0;
    m_->ep_out_credit_i = 0;  // (at most 4 ports x 6 VCs: an integer)
    m_->cfg_req_i = 0;
    m_->cfg_we_i = 0;
    m_->eval();
  }
  ~VerilatedNode() override { m_->final(); }

  const NodeShape& shape() const override { return shape_; }

  void Reset(unsigned x, unsigned y) override {
    m_->node_x_i = x;
    m_->node_y_i = y;
    m_->rst_ni = 0;
    Edge();
    Edge();
    m_->rst_ni = 1;
    Edge();
  }

  void Tick(const NodeIn& in, NodeOut& out) override {
    const unsigned w = shape_.words();
    const unsigned nl = shape_.num_links;
    // Inputs.
    SetBits(m_->lnk_in_valid_i, in.link_valid);
    CopyValid(&m_->lnk_in_flit_i[0], in.link_flit.data(), in.link_valid, nl, w);
    SetFields(m_->lnk_out_credit_i, in.link_credit.data(), nl, shape_.num_link_vcs());
    const unsigned lp = shape_.local_ports;
    m_->ep_in_valid_i = in.ep_valid;
    CopyValid(&m_->ep_in_flit_i[0], in.ep_flit.data(), in.ep_valid, lp, w);
    SetFields(m_->ep_out_credit_i, in.ep_credit.data(), lp, shape_.num_link_vcs());
    m_->cfg_req_i = in.cfg_req;
    m_->cfg_we_i = in.cfg_we;
    m_->cfg_addr_i = in.cfg_addr;
    m_->cfg_wdata_i = in.cfg_wdata;
    Edge();
    // Outputs.
    out.link_valid = GetBits(m_->lnk_out_valid_o);
    CopyValid(out.link_flit.data(), &m_->lnk_out_flit_o[0], out.link_valid, nl, w);
    GetFields(m_->lnk_in_credit_o, out.link_credit.data(), nl, shape_.num_link_vcs());
    out.link_credit_any = 0;
    for (unsigned l = 0; l < nl; ++l) out.link_credit_any |= uint64_t{out.link_credit[l] != 0} << l;
    out.ep_valid = static_cast<uint8_t>(m_->ep_out_valid_o);
    CopyValid(out.ep_flit.data(), &m_->ep_out_flit_o[0], out.ep_valid, lp, w);
    GetFields(m_->ep_in_credit_o, out.ep_credit.data(), lp, shape_.num_link_vcs());
    out.cfg_rsp = m_->cfg_rsp_o;
    out.cfg_err = m_->cfg_err_o;
    out.cfg_rdata = m_->cfg_rdata_o;
    out.err = m_->err_o;
    out.idle = m_->idle_o;
    out.bypass = m_->bypass_o;
  }

  void TraceClockLow() override {
    if constexpr (HasFstTrace<V>::value) {
      m_->clk_i = 0;
      m_->eval();
    }
  }

  void Trace(VerilatedFstC* fst) override {
    if constexpr (HasFstTrace<V>::value) {
      m_->trace(fst, 99);
    } else {
      (void)fst;
      throw std::invalid_argument(
          std::string(m_->name()) +
          ": this node model was built without tracing (rtl/CMakeLists.txt: waveforms come from "
          "the nodes of one local port, node.local_ports = 1; the concentrated mesh's routers "
          "and the nodes of 2 or 4 local ports have none)");
    }
  }

 private:
  // One rising clock edge (see the clocking note at the top). Reset uses it too: the reset is
  // asynchronous, and the model's edge detector sees rst_ni fall when it is evaluated.
  void Edge() {
    if constexpr (kOneEval) {
      m_->rootp->__Vtrigrprev__TOP__clk_i = 0;  // the clock was low (not evaluated)
      m_->clk_i = 1;
      m_->eval();
    } else {
      m_->clk_i = 0;
      m_->eval();
      m_->clk_i = 1;
      m_->eval();
    }
  }
  // The flits of the channels set in `valid` (n channels of w words, channel i at i * w).
  static void CopyValid(uint32_t* dst, const uint32_t* src, uint64_t valid, unsigned n,
                        unsigned w) {
    for (unsigned i = 0; i < n; ++i) {
      if ((valid >> i) & 1u) std::memcpy(dst + i * w, src + i * w, w * sizeof(uint32_t));
    }
  }
  // Port buses up to 64 bits are integers; wider ones (credits of many links) are VlWide.
  template <typename T>
  static void SetBits(T& sig, uint64_t v) {
    if constexpr (std::is_integral_v<T>) {
      sig = static_cast<T>(v);
    } else {
      for (size_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        sig[i] = i < 2 ? static_cast<uint32_t>(v >> (32 * i)) : 0u;
      }
    }
  }
  template <typename T>
  static uint64_t GetBits(const T& sig) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<uint64_t>(sig);
    } else {
      return uint64_t{sig[0]} | (uint64_t{sig[1]} << 32);
    }
  }
  // n fields of `width` (<= 8) bits, field l at bit l * width (one per link or local port): a
  // word-wise read-modify of the bus, no per-bit loop (it runs every cycle of every node).
  template <typename T>
  static void SetFields(T& sig, const uint8_t* f, unsigned n, unsigned width) {
    if constexpr (std::is_integral_v<T>) {
      uint64_t v = 0;
      for (unsigned l = 0; l < n; ++l) v |= uint64_t{f[l]} << (l * width);
      sig = static_cast<T>(v);
    } else {
      constexpr size_t kWords = sizeof(T) / sizeof(uint32_t);
      for (size_t i = 0; i < kWords; ++i) sig[i] = 0;
      for (unsigned l = 0; l < n; ++l) {
        const unsigned bit = l * width;
        const uint64_t v = uint64_t{f[l]} << (bit % 32);
        sig[bit / 32] |= static_cast<uint32_t>(v);
        if (bit / 32 + 1 < kWords) sig[bit / 32 + 1] |= static_cast<uint32_t>(v >> 32);
      }
    }
  }
  template <typename T>
  static void GetFields(const T& sig, uint8_t* f, unsigned n, unsigned width) {
    const uint32_t mask = (1u << width) - 1u;
    if constexpr (std::is_integral_v<T>) {
      const uint64_t v = static_cast<uint64_t>(sig);
      for (unsigned l = 0; l < n; ++l) f[l] = static_cast<uint8_t>((v >> (l * width)) & mask);
    } else {
      constexpr size_t kWords = sizeof(T) / sizeof(uint32_t);
      for (unsigned l = 0; l < n; ++l) {
        const unsigned bit = l * width;
        uint64_t v = sig[bit / 32];
        if (bit / 32 + 1 < kWords) v |= uint64_t{sig[bit / 32 + 1]} << 32;
        f[l] = static_cast<uint8_t>((v >> (bit % 32)) & mask);
      }
    }
  }

  NodeShape shape_;
  std::unique_ptr<V> m_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_VERILATED_NODE_H_
