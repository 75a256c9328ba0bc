#include "router_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "router_harness.h"

namespace aries::sim {
namespace {

using Clock = std::chrono::steady_clock;

// Times the model's clock edges: the rest of a run is testbench work.
class TimedDut final : public tb::RouterDut {
 public:
  explicit TimedDut(tb::RouterDut& inner) : in_(inner) {}
  const tb::RouterParams& params() const override { return in_.params(); }
  void SetNode(unsigned x, unsigned y) override { in_.SetNode(x, y); }
  void SetReset(bool a) override { in_.SetReset(a); }
  void SetIn(unsigned p, bool v, const uint32_t* w) override { in_.SetIn(p, v, w); }
  void SetOutCredit(unsigned p, unsigned v, bool c) override { in_.SetOutCredit(p, v, c); }
  void SetCfg(bool r, bool w, uint32_t a, uint32_t d) override { in_.SetCfg(r, w, a, d); }
  bool OutValid(unsigned p) const override { return in_.OutValid(p); }
  const uint32_t* OutWords(unsigned p) const override { return in_.OutWords(p); }
  bool InCredit(unsigned p, unsigned v) const override { return in_.InCredit(p, v); }
  bool CfgRsp() const override { return in_.CfgRsp(); }
  uint32_t CfgRdata() const override { return in_.CfgRdata(); }
  bool CfgErr() const override { return in_.CfgErr(); }
  bool Err() const override { return in_.Err(); }
  void Tick() override {
    const auto t0 = Clock::now();
    in_.Tick();
    tick_ += Clock::now() - t0;
  }
  uint64_t cycle() const override { return in_.cycle(); }
  void SetAssertionsOn(bool on) override { in_.SetAssertionsOn(on); }
  bool OpenTrace(const std::string& path) override { return in_.OpenTrace(path); }
  double tick_seconds() const { return std::chrono::duration<double>(tick_).count(); }

 private:
  tb::RouterDut& in_;
  Clock::duration tick_{};
};

// Destinations of a router at (1,1) of a 3x3 mesh, one per output port.
constexpr unsigned kDst[5][2] = {{1, 1}, {2, 1}, {0, 1}, {1, 2}, {1, 0}};

double Percentile(std::vector<uint64_t>& v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * double(v.size())));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return double(v[k]);
}

}  // namespace

RouterRunResult RunSingleRouter(tb::RouterDut& raw, const RouterRunConfig& cfg) {
  const auto wall0 = Clock::now();
  TimedDut dut(raw);
  tb::HarnessConfig hc;
  hc.link_latency = cfg.link_latency;
  hc.credit_latency = cfg.link_latency;
  hc.seed = cfg.seed;
  tb::RouterHarness h(dut, hc);
  const unsigned ports = raw.params().num_ports;
  const unsigned vcs = raw.params().num_vcs;
  RouterRunResult r;

  // Zero-load latency: one flit, idle router.
  h.Inject(hw::kPortXM, h.MakePacket(1, 0, false, 0, kDst[hw::kPortXP][0], kDst[hw::kPortXP][1]));
  h.RunUntilDrained(1000);
  if (!h.deliveries().empty())
    r.zero_load_latency = double(h.deliveries()[0].cycle - h.deliveries()[0].inject_cycle);
  h.ClearDeliveries();

  // Uniform random traffic: Bernoulli packet arrivals per input, uniform output, random VC.
  std::mt19937_64 rng(cfg.seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double p_packet = cfg.rate / cfg.packet_len;
  const uint64_t start = raw.cycle();
  const uint64_t win0 = start + cfg.warmup, win1 = win0 + cfg.measure;
  uint64_t delivered_in_window = 0, router_lat_sum = 0, router_lat_n = 0;
  std::vector<uint64_t> packet_lat;
  size_t seen = 0;
  auto account = [&](bool final_pass) {
    const auto& d = h.deliveries();
    for (; seen < d.size(); ++seen) {
      const tb::Delivery& x = d[seen];
      if (x.cycle >= win0 && x.cycle < win1) ++delivered_in_window;
      router_lat_sum += x.cycle - x.inject_cycle;
      ++router_lat_n;
      if (x.flit.tail && x.queue_cycle >= win0 && x.queue_cycle < win1)
        packet_lat.push_back(x.cycle - x.queue_cycle);
    }
    if (!final_pass && d.size() > 100000) {
      h.ClearDeliveries();
      seen = 0;
    }
  };
  while (raw.cycle() < win1) {
    for (unsigned in = 0; in < ports; ++in) {
      if (u(rng) >= p_packet) continue;
      const unsigned out = rng() % std::min(ports, 5u);
      h.Inject(in, h.MakePacket(cfg.packet_len, rng() % vcs, false, 0, kDst[out][0],
                                kDst[out][1]));
      r.flits += cfg.packet_len;
    }
    h.Step();
    account(false);
  }
  // Packets queued in the window must finish for their latency to count: drain everything.
  r.drained = h.RunUntilDrained(20 * (cfg.measure + cfg.warmup) + 100000);
  account(true);

  r.cycles = raw.cycle();
  r.offered = cfg.rate;
  r.accepted = double(delivered_in_window) / double(cfg.measure) / ports;
  r.saturated = r.accepted < 0.95 * r.offered;
  r.router_lat_mean = router_lat_n ? double(router_lat_sum) / double(router_lat_n) : 0;
  if (!packet_lat.empty()) {
    uint64_t sum = 0;
    for (auto l : packet_lat) sum += l;
    r.lat_mean = double(sum) / double(packet_lat.size());
    r.lat_max = double(*std::max_element(packet_lat.begin(), packet_lat.end()));
    r.lat_p50 = Percentile(packet_lat, 0.50);
    r.lat_p99 = Percentile(packet_lat, 0.99);
  }
  r.errors = h.errors().size();
  for (const auto& e : h.errors()) fmt::print(stderr, "scoreboard: {}\n", e);
  r.wall_s = std::chrono::duration<double>(Clock::now() - wall0).count();
  r.tick_s = dut.tick_seconds();
  return r;
}

}  // namespace aries::sim
