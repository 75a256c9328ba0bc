// RouterHarness: drives one router's ports and checks everything that comes out.
//
// * Sources (one per input port) hold queued packets per VC, inject at most one flit per cycle
//   per port, respect the router's credits, and stamp every flit with a unique tag in payload
//   lane 0.
// * Sinks (one per output port) model the downstream VC buffers of BufferDepth flits, free
//   slots at a random rate (back-pressure) and return credits over `credit_latency` cycles.
// * The scoreboard knows, from GoldenRouter, which outputs and output VC each flit must reach.
//   It checks content, per-flow order, wormhole contiguity per output VC, that no flit arrives
//   twice or where it should not, and that no sink buffer overflows (credit protocol).
// Register writes that the router accepts are mirrored into the golden model.
#ifndef ARIES_TB_ROUTER_HARNESS_H_
#define ARIES_TB_ROUTER_HARNESS_H_

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "aries_pkg.h"
#include "golden_router.h"
#include "router_dut.h"

namespace aries::tb {

struct HarnessConfig {
  unsigned link_latency = 0;    ///< cycles from the router's output register to the sink
  unsigned credit_latency = 0;  ///< cycles a credit travels (both directions)
  double sink_accept = 1.0;     ///< probability per cycle that a sink frees a slot of a VC
  uint64_t seed = 1;
};

struct CfgResult {
  bool err = false;
  uint32_t rdata = 0;
};

struct Delivery {
  uint64_t cycle;         ///< cycle the flit appeared on the router output
  uint64_t inject_cycle;  ///< cycle the flit was on the router input
  uint64_t queue_cycle;   ///< cycle the flit was queued at its source (Inject())
  unsigned out;
  unsigned inport;
  uint32_t tag;
  hw::Flit flit;
};

class RouterHarness {
 public:
  RouterHarness(RouterDut& dut, const HarnessConfig& cfg);

  void Reset(unsigned node_x = 1, unsigned node_y = 1);

  /// Queues a packet at an input port; flits must share one VC. Returns the first flit's tag.
  uint32_t Inject(unsigned inport, std::vector<hw::Flit> packet);
  /// Makes a packet of `len` flits with random payload.
  std::vector<hw::Flit> MakePacket(unsigned len, unsigned vc, bool is_flow, unsigned flow,
                                   unsigned dst_x, unsigned dst_y);

  void Step();
  /// Steps until every queued flit is delivered (or dropped as expected) and every credit is
  /// home. False on timeout.
  bool RunUntilDrained(uint64_t max_cycles);

  CfgResult Write(uint32_t addr, uint32_t data);
  CfgResult Read(uint32_t addr);

  GoldenRouter& golden() { return golden_; }
  RouterDut& dut() { return dut_; }
  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<Delivery>& deliveries() const { return deliveries_; }
  uint64_t cycle() const { return dut_.cycle(); }
  uint64_t injected_flits() const { return injected_; }
  uint64_t expected_drops() const { return expected_drops_; }
  /// Drops the delivery log (long runs keep their own statistics).
  void ClearDeliveries() { deliveries_.clear(); }
  /// Flits still expected somewhere (0 when everything arrived).
  size_t outstanding() const { return expected_.size(); }
  bool SourcesIdle() const;
  void set_sink_accept(double p) { cfg_.sink_accept = p; }
  /// A blocked sink VC frees no slot (its credits stop) until unblocked.
  void set_sink_blocked(unsigned out, unsigned vc, bool blocked) {
    sink_blocked_[out][vc] = blocked;
  }
  /// Per-input source credits currently held (BufferDepth when all are home).
  unsigned source_credits(unsigned port, unsigned vc) const { return src_credits_[port][vc]; }

 private:
  struct Pending {
    hw::Flit flit;
    uint32_t tag;
    uint64_t queue_cycle;
  };
  struct Expected {
    unsigned inport, in_vc;
    uint32_t ports_left;
    unsigned ovc;
    uint64_t inject_cycle, queue_cycle;
    hw::Flit flit;  // as injected (VC field is the input VC)
  };
  struct VcOwner {
    bool open = false;
    unsigned inport = 0, in_vc = 0;
  };

  void Fail(const std::string& msg);
  void Collect();
  void DriveInputs();
  void Check(unsigned out, const hw::Flit& f);

  RouterDut& dut_;
  HarnessConfig cfg_;
  RouterParams p_;
  GoldenRouter golden_;
  std::mt19937_64 rng_;
  std::vector<std::string> errors_;

  // Sources.
  std::vector<std::vector<std::deque<Pending>>> src_q_;  // [port][vc]
  std::vector<std::vector<unsigned>> src_credits_;       // [port][vc]
  std::vector<unsigned> src_rr_;
  std::deque<std::tuple<uint64_t, unsigned, unsigned>> credit_to_src_;  // (due, port, vc)

  // Sinks.
  std::deque<std::tuple<uint64_t, unsigned, hw::Flit>> link_to_sink_;   // (due, out, flit)
  std::vector<std::vector<unsigned>> sink_occ_;                         // [out][vc]
  std::vector<std::vector<bool>> sink_blocked_;                         // [out][vc]
  std::deque<std::tuple<uint64_t, unsigned, unsigned>> credit_to_dut_;  // (due, out, vc)

  // Scoreboard.
  std::map<uint32_t, Expected> expected_;
  std::map<std::tuple<unsigned, unsigned, unsigned>, uint32_t> last_tag_;  // (in, vc, out)
  std::vector<std::vector<VcOwner>> owner_;                                // [out][ovc]
  std::vector<Delivery> deliveries_;
  uint32_t next_tag_ = 1;
  uint64_t injected_ = 0;
  uint64_t expected_drops_ = 0;
  std::vector<uint32_t> words_;

  // Pending configuration access (applied on the next Step()).
  bool cfg_req_ = false, cfg_we_ = false;
  uint32_t cfg_addr_ = 0, cfg_wdata_ = 0;
};

}  // namespace aries::tb

#endif  // ARIES_TB_ROUTER_HARNESS_H_
