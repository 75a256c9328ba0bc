// VerilatedRouter<V>: RouterDut over one Verilated parameterisation of aries_router.
//
// A template only because each Verilator PREFIX is its own class; the bodies are a few lines
// of bit packing. Flits are 32-bit aligned (HdrW and the lanes are multiples of 32), so a flit
// is copied word by word into the packed port bus.
#ifndef ARIES_TB_VERILATED_ROUTER_H_
#define ARIES_TB_VERILATED_ROUTER_H_

#include <memory>
#include <string>
#include <type_traits>

#include "aries_pkg.h"
#include "router_dut.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace aries::tb {

namespace bits {
template <typename T>
inline bool Get(const T& sig, unsigned i) {
  if constexpr (std::is_integral_v<T>) {
    return (sig >> i) & 1u;
  } else {
    return (sig[i / 32] >> (i % 32)) & 1u;
  }
}
template <typename T>
inline void Set(T& sig, unsigned i, bool v) {
  if constexpr (std::is_integral_v<T>) {
    const T m = static_cast<T>(T{1} << i);
    sig = v ? (sig | m) : (sig & static_cast<T>(~m));
  } else {
    const uint32_t m = 1u << (i % 32);
    sig[i / 32] = v ? (sig[i / 32] | m) : (sig[i / 32] & ~m);
  }
}
}  // namespace bits

template <class V>
class VerilatedRouter final : public RouterDut {
 public:
  // `seed` feeds Verilator's random initial values (+verilator+rand+reset+2).
  VerilatedRouter(const RouterParams& p, uint64_t seed) : params_(p), ctx_(new VerilatedContext) {
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
    ctx_->traceEverOn(true);
    m_ = std::make_unique<V>(ctx_.get(), "router");
    words_ = 1 + p.lanes;
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->out_hold_i = 0;  // no collective engine beside a router under test
    m_->eval();
  }
  ~VerilatedRouter() override {
    if (trace_) trace_->close();
    m_->final();
  }

  const RouterParams& params() const override { return params_; }
  void SetNode(unsigned x, unsigned y) override {
    m_->node_x_i = x;
    m_->node_y_i = y;
  }
  void SetReset(bool asserted) override { m_->rst_ni = asserted ? 0 : 1; }
  void SetIn(unsigned port, bool valid, const uint32_t* words) override {
    bits::Set(m_->in_valid_i, port, valid);
    if (valid) {
      for (unsigned k = 0; k < words_; ++k) m_->in_flit_i[port * words_ + k] = words[k];
    }
  }
  void SetOutCredit(unsigned port, unsigned vc, bool credit) override {
    bits::Set(m_->out_credit_i, port * params_.num_vcs + vc, credit);
  }
  void SetCfg(bool req, bool we, uint32_t addr, uint32_t wdata) override {
    m_->cfg_req_i = req;
    m_->cfg_we_i = we;
    m_->cfg_addr_i = addr;
    m_->cfg_wdata_i = wdata;
  }
  bool OutValid(unsigned port) const override { return bits::Get(m_->out_valid_o, port); }
  const uint32_t* OutWords(unsigned port) const override { return &m_->out_flit_o[port * words_]; }
  bool InCredit(unsigned port, unsigned vc) const override {
    return bits::Get(m_->in_credit_o, port * params_.num_vcs + vc);
  }
  bool CfgRsp() const override { return m_->cfg_rsp_o; }
  uint32_t CfgRdata() const override { return m_->cfg_rdata_o; }
  bool CfgErr() const override { return m_->cfg_err_o; }
  bool Err() const override { return m_->err_o; }

  // The low phase settles the inputs set since the last edge, so that assertions (which
  // sample values before the edge) see them; then the rising edge. Outputs read after Tick()
  // are the registered values of the new cycle.
  void Tick() override {
    m_->clk_i = 0;
    m_->eval();
    if (trace_) trace_->dump(2 * cycle_);
    m_->clk_i = 1;
    m_->eval();
    if (trace_) trace_->dump(2 * cycle_ + 1);
    ++cycle_;
  }
  uint64_t cycle() const override { return cycle_; }

  void SetAssertionsOn(bool on) override { ctx_->assertOn(on); }

  bool OpenTrace(const std::string& path) override {
    trace_ = std::make_unique<VerilatedFstC>();
    m_->trace(trace_.get(), 99);
    trace_->open(path.c_str());
    return trace_->isOpen();
  }

 private:
  RouterParams params_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> m_;
  std::unique_ptr<VerilatedFstC> trace_;
  unsigned words_ = 0;
  uint64_t cycle_ = 0;
};

}  // namespace aries::tb

#endif  // ARIES_TB_VERILATED_ROUTER_H_
