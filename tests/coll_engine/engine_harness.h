// Test harness of aries_coll_engine (the Verilated model Vcoll_engine, parameters in
// tests/CMakeLists.txt): per port and class a credit-respecting sender with random gaps, per
// port and class a sink with random back-pressure that returns credits, the register bus,
// and a record of every flit that left with its cycle.
#ifndef ARIES_TESTS_COLL_ENGINE_HARNESS_H_
#define ARIES_TESTS_COLL_ENGINE_HARNESS_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "Vcoll_engine.h"
#include "aries_pkg.h"
#include "coll_engine_params.h"
#include "verilated.h"

namespace aries::test {

// Parameters of the Verilated engine (tests/CMakeLists.txt declares them; generated header).
inline constexpr unsigned kEngPorts = engine_params::NumPorts;
inline constexpr unsigned kEngLanes = engine_params::Lanes;
inline constexpr unsigned kEngIds = engine_params::NumIds;
inline constexpr unsigned kEngProg = engine_params::ProgDepth;
inline constexpr unsigned kEngQueue = engine_params::QueueDepth;
inline constexpr unsigned kEngCredits = engine_params::OutCredits;
inline constexpr unsigned kEngReqVc = engine_params::ReqVc;
inline constexpr unsigned kEngRspVc = engine_params::RspVc;
inline constexpr unsigned kEngWords = 1 + kEngLanes;

struct CollFlit {
  unsigned id = 0, op = 0, seq = 0, vc = kEngReqVc;
  std::vector<uint32_t> lanes = std::vector<uint32_t>(kEngLanes, 0);
};

struct Left {
  uint64_t cycle;
  unsigned port;
  CollFlit flit;
};

class EngineHarness {
 public:
  explicit EngineHarness(uint64_t seed);
  ~EngineHarness();

  // Register bus (steps the clock until the response).
  bool Write(uint32_t addr, uint32_t value);
  uint32_t Read(uint32_t addr);
  void WriteOk(uint32_t addr, uint32_t value);  // EXPECTs acceptance

  // Queue a flit to arrive on `port` (its class from its VC), in order per port and class.
  void Send(unsigned port, const CollFlit& f);

  // Probability per cycle that a sender offers its next flit / a sink frees a slot.
  void set_send_rate(double r) { send_rate_ = r; }
  void set_accept(double a) { accept_ = a; }

  void Step();
  // Steps until every queued flit was sent and `n` flits left, or `limit` cycles.
  bool RunUntil(size_t n, uint64_t limit = 100000);

  const std::vector<Left>& left() const { return left_; }
  uint64_t cycle() const { return cycle_; }
  Vcoll_engine& dut() { return *m_; }
  bool SendersEmpty() const;
  // Credits the harness's senders hold, per port and class (all home when idle).
  unsigned sender_credits(unsigned port, unsigned cls) const { return cred_[cls][port]; }

  static CollFlit Decode(const uint32_t* w);
  static void Encode(const CollFlit& f, uint32_t* w);

 private:
  void Edge();

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcoll_engine> m_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uni_{0.0, 1.0};
  double send_rate_ = 1.0, accept_ = 1.0;
  std::deque<CollFlit> src_[2][kEngPorts];
  unsigned cred_[2][kEngPorts];
  unsigned sink_fill_[2][kEngPorts] = {};
  unsigned next_cls_[kEngPorts] = {};
  std::vector<Left> left_;
  uint64_t cycle_ = 0;
};

}  // namespace aries::test

#endif  // ARIES_TESTS_COLL_ENGINE_HARNESS_H_
