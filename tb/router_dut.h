// RouterDut: the pin-level view of one ARIES router that drivers and monitors use, independent
// of the Verilated parameterisation behind it (see verilated_router.h).
#ifndef ARIES_TB_ROUTER_DUT_H_
#define ARIES_TB_ROUTER_DUT_H_

#include <cstdint>
#include <string>

namespace aries::tb {

struct RouterParams {
  unsigned num_ports = 5;
  unsigned num_vcs = 4;
  unsigned buffer_depth = 32;
  unsigned lanes = 16;
  unsigned num_flows = 64;
};

class RouterDut {
 public:
  virtual ~RouterDut() = default;
  virtual const RouterParams& params() const = 0;

  // Pins sampled at the next Tick(). Flit words: header, then `lanes` payload words.
  virtual void SetNode(unsigned x, unsigned y) = 0;
  virtual void SetReset(bool asserted) = 0;
  virtual void SetIn(unsigned port, bool valid, const uint32_t* words) = 0;
  virtual void SetOutCredit(unsigned port, unsigned vc, bool credit) = 0;
  virtual void SetCfg(bool req, bool we, uint32_t addr, uint32_t wdata) = 0;

  // Registered outputs, valid after Tick().
  virtual bool OutValid(unsigned port) const = 0;
  virtual const uint32_t* OutWords(unsigned port) const = 0;
  virtual bool InCredit(unsigned port, unsigned vc) const = 0;
  virtual bool CfgRsp() const = 0;
  virtual uint32_t CfgRdata() const = 0;
  virtual bool CfgErr() const = 0;
  virtual bool Err() const = 0;

  // One clock cycle (rising then falling edge).
  virtual void Tick() = 0;
  virtual uint64_t cycle() const = 0;

  // RTL assertions on (default) or off (to observe how the router reports a protocol error).
  virtual void SetAssertionsOn(bool on) = 0;

  // Waveform of this model into an FST file (only if the model was built with tracing).
  virtual bool OpenTrace(const std::string& path) = 0;
};

}  // namespace aries::tb

#endif  // ARIES_TB_ROUTER_DUT_H_
