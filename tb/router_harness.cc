#include "router_harness.h"

#include <fmt/format.h>

namespace aries::tb {

RouterHarness::RouterHarness(RouterDut& dut, const HarnessConfig& cfg)
    : dut_(dut),
      cfg_(cfg),
      p_(dut.params()),
      golden_(p_.num_ports, p_.num_flows),
      rng_(cfg.seed),
      words_(1 + p_.lanes) {
  Reset();
}

void RouterHarness::Reset(unsigned node_x, unsigned node_y) {
  dut_.SetNode(node_x, node_y);
  golden_ = GoldenRouter(p_.num_ports, p_.num_flows);
  golden_.SetNode(node_x, node_y);
  for (unsigned port = 0; port < p_.num_ports; ++port) {
    dut_.SetIn(port, false, words_.data());
    for (unsigned v = 0; v < p_.num_vcs; ++v) dut_.SetOutCredit(port, v, false);
  }
  dut_.SetCfg(false, false, 0, 0);
  dut_.SetReset(true);
  for (int i = 0; i < 3; ++i) dut_.Tick();
  dut_.SetReset(false);
  dut_.Tick();

  src_q_.assign(p_.num_ports, std::vector<std::deque<Pending>>(p_.num_vcs));
  src_credits_.assign(p_.num_ports, std::vector<unsigned>(p_.num_vcs, p_.buffer_depth));
  src_rr_.assign(p_.num_ports, 0);
  sink_occ_.assign(p_.num_ports, std::vector<unsigned>(p_.num_vcs, 0));
  sink_blocked_.assign(p_.num_ports, std::vector<bool>(p_.num_vcs, false));
  owner_.assign(p_.num_ports, std::vector<VcOwner>(hw::kMaxVCs));
  credit_to_src_.clear();
  credit_to_dut_.clear();
  link_to_sink_.clear();
  expected_.clear();
  last_tag_.clear();
  deliveries_.clear();
  errors_.clear();
  injected_ = 0;
  expected_drops_ = 0;
}

void RouterHarness::Fail(const std::string& msg) {
  if (errors_.size() < 50) errors_.push_back(fmt::format("cycle {}: {}", dut_.cycle(), msg));
}

std::vector<hw::Flit> RouterHarness::MakePacket(unsigned len, unsigned vc, bool is_flow,
                                                unsigned flow, unsigned dst_x, unsigned dst_y) {
  std::vector<hw::Flit> pkt(len);
  for (unsigned i = 0; i < len; ++i) {
    hw::Flit& f = pkt[i];
    f.head = (i == 0);
    f.tail = (i + 1 == len);
    f.vc = vc;
    f.is_flow = is_flow;
    f.flow = flow;
    f.dst_x = dst_x;
    f.dst_y = dst_y;
    f.payload.resize(p_.lanes);
    for (auto& w : f.payload) w = static_cast<uint32_t>(rng_());
  }
  return pkt;
}

uint32_t RouterHarness::Inject(unsigned inport, std::vector<hw::Flit> packet) {
  const uint32_t first = next_tag_;
  for (auto& f : packet) {
    if (inport >= p_.num_ports || f.vc >= p_.num_vcs) {
      Fail(fmt::format("Inject: port {} VC {} outside the router ({} ports, {} VCs)", inport, f.vc,
                       p_.num_ports, p_.num_vcs));
      return first;
    }
    f.src_x = inport & 0xF;  // bookkeeping only: the router does not route on it
    f.src_y = 0;
    f.payload.resize(p_.lanes);
    f.payload[0] = next_tag_;
    src_q_[inport][f.vc].push_back({f, next_tag_++, dut_.cycle()});
  }
  return first;
}

bool RouterHarness::SourcesIdle() const {
  for (const auto& port : src_q_)
    for (const auto& q : port)
      if (!q.empty()) return false;
  return true;
}

void RouterHarness::Check(unsigned out, const hw::Flit& f) {
  const uint32_t tag = f.payload.empty() ? 0 : f.payload[0];
  auto it = expected_.find(tag);
  if (it == expected_.end()) {
    Fail(fmt::format("output {}: flit with tag {} was not expected (duplicate or unknown)", out,
                     tag));
    return;
  }
  Expected& e = it->second;
  if (!(e.ports_left & (1u << out))) {
    Fail(
        fmt::format("output {}: flit {} from input {} should not come out here (ports left "
                    "{:#x})",
                    out, tag, e.inport, e.ports_left));
    return;
  }
  hw::Flit as_sent = f;
  as_sent.vc = e.in_vc;
  if (!(as_sent == e.flit)) Fail(fmt::format("output {}: flit {} content changed", out, tag));
  if (f.vc != e.ovc)
    Fail(fmt::format("output {}: flit {} on VC {}, expected VC {}", out, tag, f.vc, e.ovc));
  auto key = std::make_tuple(e.inport, e.in_vc, out);
  auto lt = last_tag_.find(key);
  if (lt != last_tag_.end() && lt->second >= tag)
    Fail(fmt::format("output {}: flit {} overtook flit {} of the same flow", out, tag, lt->second));
  last_tag_[key] = tag;

  VcOwner& ow = owner_[out][f.vc];
  if (f.head) {
    if (ow.open)
      Fail(fmt::format("output {} VC {}: head {} interleaves an open packet from input {}", out,
                       f.vc, tag, ow.inport));
    if (!f.tail) ow = {true, e.inport, e.in_vc};
  } else {
    if (!ow.open || ow.inport != e.inport || ow.in_vc != e.in_vc)
      Fail(fmt::format("output {} VC {}: body flit {} without its packet open", out, f.vc, tag));
    if (f.tail) ow.open = false;
  }
  deliveries_.push_back({dut_.cycle(), e.inject_cycle, e.queue_cycle, out, e.inport, tag, f});
  e.ports_left &= ~(1u << out);
  if (e.ports_left == 0) expected_.erase(it);
}

void RouterHarness::Collect() {
  const uint64_t now = dut_.cycle();
  for (unsigned o = 0; o < p_.num_ports; ++o) {
    if (!dut_.OutValid(o)) continue;
    hw::Flit f = hw::UnpackFlit(dut_.OutWords(o), p_.lanes);
    Check(o, f);
    link_to_sink_.emplace_back(now + cfg_.link_latency, o, f);
  }
  for (unsigned port = 0; port < p_.num_ports; ++port)
    for (unsigned v = 0; v < p_.num_vcs; ++v)
      if (dut_.InCredit(port, v)) credit_to_src_.emplace_back(now + cfg_.credit_latency, port, v);
}

void RouterHarness::DriveInputs() {
  const uint64_t now = dut_.cycle();
  for (unsigned port = 0; port < p_.num_ports; ++port) {
    bool sent = false;
    for (unsigned k = 0; k < p_.num_vcs && !sent; ++k) {
      const unsigned v = (src_rr_[port] + k) % p_.num_vcs;
      auto& q = src_q_[port][v];
      if (q.empty() || src_credits_[port][v] == 0) continue;
      const Pending pend = q.front();
      q.pop_front();
      --src_credits_[port][v];
      src_rr_[port] = (v + 1) % p_.num_vcs;
      hw::PackFlit(pend.flit, p_.lanes, words_.data());
      dut_.SetIn(port, true, words_.data());
      const RouteResult r = golden_.Route(pend.flit, port);
      if (r.ports == 0) {
        ++expected_drops_;
      } else {
        expected_[pend.tag] = {port, v, r.ports, r.ovc, now, pend.queue_cycle, pend.flit};
      }
      ++injected_;
      sent = true;
    }
    if (!sent) dut_.SetIn(port, false, words_.data());
  }
}

void RouterHarness::Step() {
  const uint64_t now = dut_.cycle();
  Collect();

  // Sinks: arrivals, then back-pressure-limited draining.
  while (!link_to_sink_.empty() && std::get<0>(link_to_sink_.front()) <= now) {
    auto [due, o, f] = link_to_sink_.front();
    link_to_sink_.pop_front();
    if (f.vc >= p_.num_vcs) {
      Fail(fmt::format("output {}: flit on VC {} >= NumVCs", o, f.vc));
      continue;
    }
    if (++sink_occ_[o][f.vc] > p_.buffer_depth)
      Fail(fmt::format("output {} VC {}: receiver buffer overflow (router ignored credits)", o,
                       f.vc));
  }
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (unsigned o = 0; o < p_.num_ports; ++o)
    for (unsigned v = 0; v < p_.num_vcs; ++v)
      if (sink_occ_[o][v] > 0 && !sink_blocked_[o][v] &&
          (cfg_.sink_accept >= 1.0 || u(rng_) < cfg_.sink_accept)) {
        --sink_occ_[o][v];
        credit_to_dut_.emplace_back(now + cfg_.credit_latency, o, v);
      }

  // Credits back to the sources.
  while (!credit_to_src_.empty() && std::get<0>(credit_to_src_.front()) <= now) {
    auto [due, port, v] = credit_to_src_.front();
    credit_to_src_.pop_front();
    if (++src_credits_[port][v] > p_.buffer_depth)
      Fail(fmt::format("input {} VC {}: router returned more credits than buffer slots", port, v));
  }
  // Credits into the router.
  for (unsigned o = 0; o < p_.num_ports; ++o)
    for (unsigned v = 0; v < p_.num_vcs; ++v) dut_.SetOutCredit(o, v, false);
  while (!credit_to_dut_.empty() && std::get<0>(credit_to_dut_.front()) <= now) {
    auto [due, o, v] = credit_to_dut_.front();
    credit_to_dut_.pop_front();
    dut_.SetOutCredit(o, v, true);
  }

  DriveInputs();
  dut_.SetCfg(cfg_req_, cfg_we_, cfg_addr_, cfg_wdata_);
  cfg_req_ = false;
  dut_.Tick();
}

bool RouterHarness::RunUntilDrained(uint64_t max_cycles) {
  const uint64_t end = dut_.cycle() + max_cycles;
  auto credits_home = [this] {
    for (unsigned port = 0; port < p_.num_ports; ++port)
      for (unsigned v = 0; v < p_.num_vcs; ++v)
        if (src_credits_[port][v] != p_.buffer_depth || sink_occ_[port][v] != 0) return false;
    return true;
  };
  auto quiet = [&] {
    return SourcesIdle() && expected_.empty() && link_to_sink_.empty() && credit_to_src_.empty() &&
           credit_to_dut_.empty() && credits_home();
  };
  while (dut_.cycle() < end) {
    if (!quiet()) {
      Step();
      continue;
    }
    // Nothing is expected any more. Watch a full credit loop for stray flits (Check() flags
    // any), then ask the router itself: every output VC free with all credits home, every
    // input buffer empty. A credit the router lost or invented shows up here.
    const size_t errors_before = errors_.size();
    for (unsigned i = 0; i < 2 * (cfg_.link_latency + cfg_.credit_latency) + 8; ++i) Step();
    const uint32_t all = static_cast<uint32_t>((uint64_t{1} << p_.num_ports) - 1);
    const uint32_t out_idle = Read(hw::kRegOutIdle).rdata;
    const uint32_t in_empty = Read(hw::kRegInEmpty).rdata;
    if (out_idle != all || in_empty != all) {
      Fail(
          fmt::format("drained by the testbench but not by the router: OUT_IDLE {:#x}, "
                      "IN_EMPTY {:#x} (expected {:#x})",
                      out_idle, in_empty, all));
      return false;
    }
    return quiet() && errors_.size() == errors_before;
  }
  return false;
}

CfgResult RouterHarness::Write(uint32_t addr, uint32_t data) {
  cfg_req_ = true, cfg_we_ = true, cfg_addr_ = addr, cfg_wdata_ = data;
  Step();
  CfgResult r{dut_.CfgErr(), dut_.CfgRdata()};
  if (!dut_.CfgRsp()) Fail(fmt::format("no response to write of {:#x}", addr));
  if (!r.err) {
    if (addr == hw::kRegCtrl) {
      golden_.SetTopology(static_cast<hw::Topo>((data >> hw::kCtrlTopoLsb) & 3u),
                          ((data >> hw::kCtrlSizeXLsb) & 0xFu) + 1,
                          ((data >> hw::kCtrlSizeYLsb) & 0xFu) + 1);
    } else if (addr >= hw::kRegPassthruBase && addr < hw::kRegPassthruBase + hw::kMaxPorts) {
      golden_.SetPassthru(addr - hw::kRegPassthruBase, (data >> hw::kPassEnBit) & 1u,
                          (data >> hw::kPassOutLsb) & 0x1Fu);
    } else if (addr & hw::kRegRouteBase) {
      golden_.SetRoute((addr >> hw::kRouteFlowLsb) & ((1u << hw::kFlowIdW) - 1),
                       (addr >> hw::kRouteInportLsb) & 0x1Fu, data);
    }
  }
  return r;
}

CfgResult RouterHarness::Read(uint32_t addr) {
  cfg_req_ = true, cfg_we_ = false, cfg_addr_ = addr, cfg_wdata_ = 0;
  Step();
  if (!dut_.CfgRsp()) Fail(fmt::format("no response to read of {:#x}", addr));
  return {dut_.CfgErr(), dut_.CfgRdata()};
}

}  // namespace aries::tb
