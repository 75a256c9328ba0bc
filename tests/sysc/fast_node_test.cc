// The fast C++ node model against the Verilated node, cycle by cycle (sysc/fast_node.h):
// random register traffic (legal and illegal writes of every register, reads of every window),
// random packets on every link and the endpoint with the senders' credits kept and
// back-pressure from random receivers, pass-through circuits, multicast table routes, dynamic
// VCs, every topology, and a hostile mode that ignores credits and sends stray flits. Every
// output pin is compared every cycle (LockstepNode); the first difference fails the test with
// the seed, cycle, pin and both values. A last test proves the comparison can fail.
#include "fast_node.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aries_pkg.h"
#include "aries_regs.h"
#include "lockstep_node.h"
#include "node_models.h"
#include "test_seed.h"
#include "verilated.h"

namespace {

using aries::sysc::FastNode;
using aries::sysc::LockstepNode;
using aries::sysc::NodeIn;
using aries::sysc::NodeMismatch;
using aries::sysc::NodeModel;
using aries::sysc::NodeOut;
using aries::sysc::NodeShape;
using aries::sysc::NodeUse;
namespace hw = aries::hw;

struct Mode {
  unsigned ports = 5;        // 5: Varies_node_p2p; 15: Varies_node_fb (_l2 with 2 local ports)
  double load = 0.4;         // per link and cycle: a flit is offered
  double cfg_rate = 0.03;    // per cycle: a register request
  double accept = 0.5;       // per cycle and VC: a receiver returns one credit it owes
  bool hostile = false;      // ignore credits, stray links, random VCs
  bool engine = false;       // the node with the collective engine (Varies_node)
  unsigned local_ports = 1;  // 2, 4: Varies_node_l2, Varies_node_l4 (with the engine); 2 with 15
                             // ports: Varies_node_fb_l2
  // Lanes the fast model carries (0: every lane): 1 is sim.payload = id, where the RTL gets the
  // other lanes zero and must keep them zero (the shipped point-to-point node then takes the
  // fast model's fixed-dimension path).
  unsigned carried_lanes = 0;
};

// Drives one node's pins like its neighbours, its endpoint and its controller would.
class Stimulus {
 public:
  Stimulus(const NodeShape& s, const Mode& m, uint64_t seed, unsigned x, unsigned y)
      : s_(s), m_(m), rng_(seed), x_(x), y_(y) {
    const unsigned ch = s.num_links + s.local_ports;  // links, then the local ports
    credits_.assign(ch * s.num_link_vcs(), s.buffer_depth);
    open_.assign(ch * s.num_link_vcs(), 0);
    hdr_.assign(ch * s.num_link_vcs(), 0);
    owed_.assign(ch * s.num_link_vcs(), 0);
    in_.Size(s);
    grid_ = 4;
  }

  // Without hostile input the node lives in phases as under a controller: traffic (with
  // register reads), a drain (open packets finish, no new ones) until the node is idle, then a
  // burst of register requests (writes move selects, circuits, routes and CTRL only while no
  // packet is open, as the controller guarantees).
  const NodeIn& Next(const NodeOut& last) {
    Absorb(last);
    bool new_packets = true, regs = true, writes = true;
    if (!m_.hostile) {
      ++phase_cycle_;
      if (phase_ == 0 && phase_cycle_ > 1500) phase_ = 1, phase_cycle_ = 0;
      bool open = false;
      for (unsigned o : open_) open = open || o != 0;
      if (phase_ == 1 && ((!open && last.idle) || phase_cycle_ > 2000))
        phase_ = 2, phase_cycle_ = 0;
      if (phase_ == 2 && phase_cycle_ == 1 && s_.coll_engine && U() < 0.7) PlanEngineProgram();
      if (phase_ == 2 && phase_cycle_ > 40 && eng_writes_.empty()) phase_ = 0, phase_cycle_ = 0;
      new_packets = phase_ == 0;
      regs = phase_ != 1;
      writes = phase_ == 2;
    }
    // A register write the node accepted moves the input selects the senders believe in.
    if (pending_ && last.cfg_rsp && !last.cfg_err) {
      sel_in_[pending_port_ - 1] = pending_choice_;
    }
    pending_ = false;
    // A refused write of a planned engine program (the engine still ran) abandons it.
    if (eng_pending_ && last.cfg_rsp && last.cfg_err) {
      eng_writes_.clear();
      eng_feed_ = false;
    }
    if (eng_pending_ && last.cfg_rsp && !last.cfg_err && eng_last_write_) eng_feed_ = true;
    eng_pending_ = eng_last_write_ = false;
    const unsigned nvl = s_.num_link_vcs();
    in_.link_valid = 0;
    in_.ep_valid = 0;
    for (unsigned ch = 0; ch < s_.num_links + s_.local_ports; ++ch) {
      const unsigned lp = ch - s_.num_links;  // the local port of an endpoint channel
      uint32_t* f =
          ch < s_.num_links ? &in_.link_flit[ch * s_.words()] : &in_.ep_flit[lp * s_.words()];
      const bool listened = ch >= s_.num_links || m_.hostile || Selected(ch);
      bool sent = listened && phase_ != 2 && U() < m_.load && Flit(ch, f, new_packets);
      if (ch < s_.num_links) {
        if (sent) in_.link_valid |= uint64_t{1} << ch;
      } else if (sent) {
        in_.ep_valid |= static_cast<uint8_t>(1u << lp);
      }
      // Receivers return credits they owe.
      uint8_t cr = 0;
      for (unsigned v = 0; v < nvl; ++v) {
        unsigned& owe = owed_[ch * nvl + v];
        if (owe > 0 && (U() < m_.accept || (m_.hostile && U() < 0.05))) {
          --owe;
          cr |= static_cast<uint8_t>(1u << v);
        }
      }
      if (m_.hostile && U() < 0.002) cr |= static_cast<uint8_t>(1u << (rng_() % nvl));
      if (ch < s_.num_links)
        in_.link_credit[ch] = cr;
      else
        in_.ep_credit[lp] = cr;
    }
    if (writes && !eng_writes_.empty()) {  // the planned engine program, one write a cycle
      in_.cfg_req = in_.cfg_we = true;
      in_.cfg_addr = eng_writes_.front().first;
      in_.cfg_wdata = eng_writes_.front().second;
      eng_writes_.pop_front();
      eng_pending_ = true;
      eng_last_write_ = eng_writes_.empty();  // the CTRL start: feeding begins when accepted
      return in_;
    }
    in_.cfg_req = regs && U() < (writes ? 0.5 : m_.cfg_rate);
    if (in_.cfg_req) Register(writes);
    return in_;
  }

 private:
  // Link l feeds a router input under the selects the node accepted (aries_node link_of).
  bool Selected(unsigned l) const { return PortOf(l) >= 0; }
  // The router port a channel feeds under the accepted selects (the endpoint's local port i is
  // router port 0 or num_ports + i - 1), or -1.
  int PortOf(unsigned ch) const {
    if (ch >= s_.num_links) return static_cast<int>(hw::LocalPort(ch - s_.num_links, s_.num_ports));
    const bool muxed = s_.num_ports == hw::kNumMeshPorts && s_.num_tracks > 0;
    if (!muxed) return static_cast<int>(ch) + 1;
    const unsigned t = s_.num_tracks;
    for (unsigned p = 1; p <= 4; ++p) {
      const unsigned c = sel_in_[p - 1], side = (p == 1 || p == 3) ? 1 : 0;
      const unsigned link = c == 0   ? p - 1
                            : c <= t ? 4 + 2 * (c - 1) + side
                                     : 4 + 2 * t + 2 * (c - 1 - t) + side;
      if (link == ch) return static_cast<int>(p);
    }
    return -1;
  }

  // A coherent engine program for ids 0 and 1 (ARIES-style: every input port of a request
  // step sends the step's flits in program order with the sequence numbers the engine
  // expects), written in the next config phase and fed in the traffic phases after it.
  void PlanEngineProgram() {
    const unsigned np = s_.num_ports;
    eng_writes_.clear();
    eng_feed_ = false;
    unsigned count[2], req_in[2];
    bool turn[2];
    unsigned rsp_src[2];
    for (unsigned id = 0; id < 2; ++id) {
      eng_op_[id] = R(hw::kNumOps);
      count[id] = 1 + R(3);
      req_in[id] = 1 + R((1u << np) - 1);
      turn[id] = U() < 0.5;
      const unsigned req_out = turn[id] ? hw::kEngTurn : R(np);
      rsp_src[id] = turn[id] ? hw::kEngTurn : R(np);
      const unsigned rsp_out = 1 + R((1u << np) - 1);
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegCfg), hw::IdCfgValue(eng_op_[id])});
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegCount), count[id]});
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegReqIn), req_in[id]});
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegReqOut), req_out});
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegRspIn), rsp_src[id]});
      eng_writes_.push_back({hw::EngIdReg(id, hw::kIdRegRspOut), rsp_out});
    }
    const unsigned passes = 1 + R(2);
    for (unsigned i = 0; i < 2; ++i) {
      eng_writes_.push_back({hw::kRegEngReqProgBase + i, i});
      eng_writes_.push_back({hw::kRegEngRspProgBase + i, i});
    }
    eng_writes_.push_back({hw::kRegEngReqLen, hw::EngLenValue(2, passes)});
    eng_writes_.push_back({hw::kRegEngRspLen, hw::EngLenValue(2, passes)});
    eng_writes_.push_back({hw::kRegEngCtrl, 3});
    // The streams each port sends: requests of the ids it feeds, responses of the ids whose
    // response source it is, in program order, numbered per id.
    for (unsigned c = 0; c < 2; ++c) {
      for (unsigned p = 0; p < 5 && p < np; ++p) {
        feed_[c][p].clear();
        feed_next_[c][p] = 0;
      }
    }
    unsigned seq[2] = {0, 0};
    for (unsigned pass = 0; pass < passes; ++pass) {
      for (unsigned id = 0; id < 2; ++id) {
        for (unsigned k = 0; k < count[id]; ++k, ++seq[id]) {
          for (unsigned p = 0; p < np && p < 5; ++p) {
            if ((req_in[id] >> p) & 1u) feed_[0][p].push_back({id, seq[id]});
            if (!turn[id] && rsp_src[id] == p) feed_[1][p].push_back({id, seq[id]});
          }
        }
      }
    }
  }

  double U() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  unsigned R(unsigned n) { return static_cast<unsigned>(rng_() % n); }

  // What the node drove: flits owe credits to the senders downstream, credits return ours.
  void Absorb(const NodeOut& o) {
    const unsigned nvl = s_.num_link_vcs();
    auto take = [&](unsigned ch, const uint32_t* f) {
      const unsigned vc = (f[0] >> hw::kHdrVcLsb) & 7u;
      if (vc < nvl) ++owed_[ch * nvl + vc];
    };
    for (unsigned l = 0; l < s_.num_links; ++l) {
      if ((o.link_valid >> l) & 1u) take(l, &o.link_flit[l * s_.words()]);
      for (unsigned v = 0; v < nvl; ++v) {
        if ((o.link_credit[l] >> v) & 1u) ++credits_[l * nvl + v];
      }
    }
    for (unsigned i = 0; i < s_.local_ports; ++i) {
      if ((o.ep_valid >> i) & 1u) take(s_.num_links + i, &o.ep_flit[i * s_.words()]);
      for (unsigned v = 0; v < nvl; ++v) {
        if ((o.ep_credit[i] >> v) & 1u) ++credits_[(s_.num_links + i) * nvl + v];
      }
    }
  }

  // One flit on channel ch (a link, or the endpoint), false if nothing may be sent.
  bool Flit(unsigned ch, uint32_t* f, bool new_packets) {
    const unsigned nvl = s_.num_link_vcs();
    const unsigned nv = s_.num_vcs;
    unsigned vc = R(m_.hostile ? 8 : nv);
    // A collective flit (not on an extra local port, which the engine does not serve).
    if (s_.coll_engine && U() < 0.4 && (m_.hostile || ch <= s_.num_links)) vc = nv + R(2);
    if (eng_feed_ && vc >= nv && vc < nvl) {
      // Under a planned program: the port's next flit of its program stream, or nothing.
      const int port = PortOf(ch);
      if (port < 0) return false;
      auto& stream = feed_[vc - nv][port];
      size_t& next = feed_next_[vc - nv][port];
      const unsigned q = ch * nvl + vc;
      if (next >= stream.size() || credits_[q] == 0 || !new_packets) return false;
      --credits_[q];
      const auto [id, seq] = stream[next++];
      f[0] = 3u | (vc << hw::kHdrVcLsb) | (1u << hw::kHdrIsFlowBit) | (id << hw::kHdrFlowLsb) |
             (eng_op_[id] << hw::kCollHdrOpLsb) | ((seq & 0xFFFu) << hw::kCollHdrSeqLsb);
      for (unsigned i = 1; i < s_.words(); ++i) f[i] = static_cast<uint32_t>(rng_());
      return true;
    }
    const unsigned q = ch * nvl + (vc < nvl ? vc : 0);
    if (!m_.hostile && credits_[q] == 0) return false;
    if (!new_packets && (vc >= nvl || open_[q] == 0)) return false;
    if (vc < nvl && credits_[q] > 0) --credits_[q];
    uint32_t h;
    if (vc >= nv && vc < nvl) {  // collective flits: single-flit packets, id, op, sequence
      h = 3u | (1u << hw::kHdrIsFlowBit) | (R(U() < 0.9 ? 4 : 64) << hw::kHdrFlowLsb) |
          (R(U() < 0.9 ? 2 : 16) << hw::kCollHdrOpLsb) | (R(4) << hw::kCollHdrSeqLsb);
      h = (h & ~(7u << hw::kHdrVcLsb)) | (vc << hw::kHdrVcLsb);
      f[0] = h;
      for (unsigned i = 1; i < s_.words(); ++i) f[i] = static_cast<uint32_t>(rng_());
      return true;
    }
    if (vc < nvl && open_[q] > 0) {  // a body flit of the open packet
      h = (hdr_[q] & ~3u) | ((open_[q] == 1) ? 2u : 0u);
      --open_[q];
    } else {
      const unsigned len = U() < 0.5 ? 1 : 1 + R(5);
      const bool flow = U() < 0.35;
      const unsigned g = U() < 0.03 ? 32 : grid_;
      h = 1u | (len == 1 ? 2u : 0u) | (flow ? 1u << hw::kHdrIsFlowBit : 0u) |
          ((flow && U() < 0.9 ? R(8) : R(64)) << hw::kHdrFlowLsb) | (R(g) << hw::kHdrDstXLsb) |
          (R(g) << hw::kHdrDstYLsb) | (R(32) << hw::kHdrSrcXLsb) | (R(32) << hw::kHdrSrcYLsb);
      if (vc < nvl) {
        open_[q] = len - 1;
        hdr_[q] = h;
      }
    }
    h = (h & ~(7u << hw::kHdrVcLsb)) | (vc << hw::kHdrVcLsb);
    f[0] = h;
    for (unsigned i = 1; i < s_.words(); ++i) f[i] = static_cast<uint32_t>(rng_());
    return true;
  }

  void Register(bool writes) {
    const unsigned np = s_.router_ports();
    in_.cfg_we = writes && U() < 0.7;
    uint32_t a = 0, v = static_cast<uint32_t>(rng_());
    switch (R(s_.coll_engine ? 14 : 10)) {
      case 0: {  // CTRL: mostly legal
        a = hw::kRegCtrl;
        const unsigned topo = U() < 0.9 ? R(3) : R(4);
        grid_ = s_.num_ports > 5 ? 1 + R((s_.num_ports - 1) / 2) : 1 + R(8);
        if (grid_ <= std::max(x_, y_)) grid_ = std::max(x_, y_) + 1;
        if (U() < 0.1) grid_ = 1 + R(32);
        v = U() < 0.9 ? hw::CtrlValue(static_cast<hw::Topo>(topo), grid_, grid_, U() < 0.5) : v;
        break;
      }
      case 1:  // PASSTHRU
        a = hw::kRegPassthruBase + R(np + 1);
        v = U() < 0.9 ? hw::PassthruValue(U() < 0.6, R(np + 1)) : v;
        break;
      case 2:
      case 3:  // ROUTE: unicast or multicast masks, now and then out of range
        a = hw::RouteAddr(R(U() < 0.9 ? 8 : 70), R(np + 1));
        v = U() < 0.9 ? (U() < 0.6 ? 1u << R(np) : static_cast<uint32_t>(rng_()) & ((1u << np) - 1))
                      : v;
        break;
      case 4:  // PORTSEL
        a = hw::kRegPortSelBase + R(6);
        v = U() < 0.9 ? hw::PortSelValue(R(1 + 2 * s_.num_tracks + 1), R(1 + 2 * s_.num_tracks + 1))
                      : v;
        if (in_.cfg_we && a > hw::kRegPortSelBase && a < hw::kRegPortSelBase + 5) {
          pending_ = true;
          pending_port_ = a - hw::kRegPortSelBase;
          pending_choice_ = (v >> hw::kPortSelInLsb) & 0xFu;
        }
        break;
      case 5:  // BYPASS
        a = hw::kRegBypass;
        v = U() < 0.9 ? hw::BypassValue(R(1u << s_.num_tracks), R(1u << s_.num_tracks)) : v;
        break;
      case 6:  // STATUS and NODE_STATUS: write 1 to clear
        a = U() < 0.5 ? hw::kRegStatus : hw::kRegNodeStatus;
        v = U() < 0.8 ? R(16) : v;
        break;
      case 7:  // counters and the read-only windows
        a = (U() < 0.5 ? hw::kRegInFlitsBase : hw::kRegOutFlitsBase) + R(32);
        break;
      case 8: {
        static const uint32_t kRo[] = {
            hw::kRegId,        hw::kRegNumPorts, hw::kRegNumVcs,  hw::kRegBufferDepth,
            hw::kRegNumFlows,  hw::kRegLanes,    hw::kRegErrInfo, hw::kRegMissCount,
            hw::kRegOutIdle,   hw::kRegInEmpty,  hw::kRegNodeId,  hw::kRegNodeTracks,
            hw::kRegNodeLinks, hw::kRegEngId,    hw::kRegCtrl,    hw::kRegLocalPorts};
        a = kRo[R(sizeof(kRo) / sizeof(kRo[0]))];
        break;
      }
      case 10:  // engine per-id registers
        a = hw::EngIdReg(R(U() < 0.9 ? 4 : 9), R(8));
        v = U() < 0.8 ? (U() < 0.5 ? R(1u << np) : (U() < 0.5 ? R(np) : hw::kEngTurn)) |
                            (U() < 0.5 ? 1u << hw::kIdCfgEnBit : 0u)
                      : v;
        break;
      case 11:  // engine programs and lengths
        a = U() < 0.5 ? (U() < 0.5 ? hw::kRegEngReqProgBase : hw::kRegEngRspProgBase) + R(9)
                      : (U() < 0.5 ? hw::kRegEngReqLen : hw::kRegEngRspLen);
        v = U() < 0.8 ? (a >= hw::kRegEngReqProgBase ? R(5) : hw::EngLenValue(R(4), R(3))) : v;
        break;
      case 12:  // engine control and status
        a = U() < 0.7 ? hw::kRegEngCtrl : hw::kRegEngStatus;
        v = U() < 0.8 ? R(4) : v;
        break;
      case 13:  // anywhere on the engine page
        a = 0x0200 + R(0x100);
        break;
      default:  // anywhere
        a = R(0x10000);
        break;
    }
    in_.cfg_addr = a;
    in_.cfg_wdata = v;
  }

  NodeShape s_;
  Mode m_;
  std::mt19937_64 rng_;
  unsigned x_, y_, grid_;
  std::vector<unsigned> credits_, open_, owed_;
  std::vector<uint32_t> hdr_;
  NodeIn in_;
  unsigned sel_in_[4] = {0, 0, 0, 0};
  bool pending_ = false;
  unsigned phase_ = 0, phase_cycle_ = 0;
  // A planned engine program: its writes, and per class and port the (id, seq) stream to feed.
  std::deque<std::pair<uint32_t, uint32_t>> eng_writes_;
  bool eng_pending_ = false, eng_last_write_ = false, eng_feed_ = false;
  unsigned eng_op_[2] = {0, 0};
  std::vector<std::pair<unsigned, unsigned>> feed_[2][5];
  size_t feed_next_[2][5] = {};
  unsigned pending_port_ = 0, pending_choice_ = 0;
};

// Steps the RTL and the fast model of one node in lockstep for `cycles`; "" if they agree.
std::string RunLockstep(const Mode& m, uint64_t seed, uint64_t cycles, uint64_t* activity,
                        uint64_t* engine_out) {
  VerilatedContext ctx;
  const NodeUse use = m.engine ? NodeUse::kAny : NodeUse::kPointToPoint;
  auto rtl = aries::sysc::ShippedNodeModels(use)(m.ports, m.local_ports, &ctx, "rtl");
  NodeShape fast = rtl->shape();
  if (m.carried_lanes != 0) fast.carried_lanes = m.carried_lanes;
  LockstepNode node(std::move(rtl), std::make_unique<FastNode>(fast), "node");
  const NodeShape shape = node.shape();  // the words the pins carry: the fast model's
  std::mt19937_64 pick(seed);
  const unsigned x = static_cast<unsigned>(pick() % 3), y = static_cast<unsigned>(pick() % 3);
  node.Reset(x, y);
  Stimulus stim(shape, m, seed, x, y);
  NodeOut out;
  out.Size(shape);
  try {
    for (uint64_t c = 0; c < cycles; ++c) {
      node.Tick(stim.Next(out), out);
      *activity += static_cast<uint64_t>(__builtin_popcountll(out.link_valid)) +
                   static_cast<uint64_t>(__builtin_popcount(out.ep_valid));
      for (unsigned l = 0; l < shape.num_links; ++l) {  // results of the collective engine
        if (((out.link_valid >> l) & 1u) &&
            ((out.link_flit[l * shape.words()] >> hw::kHdrVcLsb) & 7u) >= shape.num_vcs) {
          ++*engine_out;
        }
      }
      if ((out.ep_valid & 1u) && ((out.ep_flit[0] >> hw::kHdrVcLsb) & 7u) >= shape.num_vcs) {
        ++*engine_out;
      }
    }
  } catch (const NodeMismatch& e) {
    return fmt::format("seed {}: {}", seed, e.what());
  }
  return "";
}

// Returns the flits the collective engine sent (its reductions and responses).
uint64_t Check(const Mode& m, unsigned seeds, uint64_t cycles, unsigned min_flits_per_100 = 5) {
  uint64_t activity = 0, engine_out = 0;
  for (unsigned i = 0; i < seeds; ++i) {
    const uint64_t seed = aries::test::TestSeed(1) + i;
    const std::string err = RunLockstep(m, seed, cycles, &activity, &engine_out);
    EXPECT_EQ(err, "");
    if (!err.empty()) return engine_out;  // the first mismatch is the finding
  }
  // The stimulus made the node move flits (a test that never sends proves nothing).
  EXPECT_GT(activity, seeds * cycles * min_flits_per_100 / 100);
  // What was compared (sim/tools/lockstep_soak.sh adds these up).
  std::printf("lockstep node-cycles: %llu\n", static_cast<unsigned long long>(seeds * cycles));
  return engine_out;
}

TEST(FastNode, EqualsRtlOnRandomTrafficAndRegisters) { Check(Mode{}, 6, 20000); }

TEST(FastNode, EqualsRtlUnderHeavyBackPressure) {
  Mode m;
  m.load = 0.9;
  m.accept = 0.05;
  m.cfg_rate = 0.01;
  Check(m, 4, 20000);
}

TEST(FastNode, EqualsRtlUnderHostileInput) {
  Mode m;
  m.hostile = true;
  m.cfg_rate = 0.05;
  Check(m, 40, 1000, 1);  // lost flits stall a hostile run soon: many short runs
}

TEST(FastNode, EqualsRtlOnTheFlattenedButterflyNode) {
  Mode m;
  m.ports = 15;
  Check(m, 3, 10000);
  m.hostile = true;
  Check(m, 20, 1000, 1);
}

// The butterfly's node with 2 local ports (Varies_node_fb_l2): the second local port is the
// router's port 15.
TEST(FastNode, EqualsRtlOnTheFlattenedButterflyNodeWithTwoLocalPorts) {
  Mode m;
  m.ports = 15;
  m.local_ports = 2;
  Check(m, 3, 10000);
  m.hostile = true;
  Check(m, 15, 1000, 1);
}

TEST(FastNode, EqualsRtlWithTheCollectiveEngine) {
  Mode m;
  m.engine = true;
  m.cfg_rate = 0.05;
  // Planned programs are fed with the flits they expect: the engine reduces and answers.
  EXPECT_GT(Check(m, 6, 20000), 100u);
  m.hostile = true;
  Check(m, 30, 1000, 1);
}

// node.local_ports = 2 and 4: the extra local ports inject and eject beside port 0 (random
// traffic, register writes, engine programs on port 0 and the interposer ports).
TEST(FastNode, EqualsRtlWithTwoAndFourLocalPorts) {
  for (unsigned lp : {2u, 4u}) {
    Mode m;
    m.engine = true;
    m.local_ports = lp;
    m.cfg_rate = 0.05;
    EXPECT_GT(Check(m, 3, 20000), 50u) << lp << " local ports";
    m.hostile = true;
    Check(m, 15, 1000, 1);
  }
}

// A fast node whose outputs a test tampers with after each edge: the comparison can fail.
class Tampered final : public NodeModel {
 public:
  using Tamper = std::function<void(const NodeShape&, NodeOut&)>;
  Tampered(const NodeShape& s, Tamper tamper) : inner_(s), tamper_(std::move(tamper)) {}
  const NodeShape& shape() const override { return inner_.shape(); }
  void Reset(unsigned x, unsigned y) override { inner_.Reset(x, y); }
  void Tick(const NodeIn& in, NodeOut& out) override {
    inner_.Tick(in, out);
    tamper_(inner_.shape(), out);
  }
  void Trace(VerilatedFstC*) override {}

 private:
  FastNode inner_;
  Tamper tamper_;
};

// Steps a lockstep pair at (x, y) for 1,000 cycles of random traffic without register requests;
// the first mismatch's message ("" if none).
std::string FirstMismatch(LockstepNode& node, unsigned x, unsigned y, uint64_t seed) {
  const NodeShape& shape = node.shape();
  node.Reset(x, y);
  Mode m;
  m.cfg_rate = 0;
  Stimulus stim(shape, m, seed, x, y);
  NodeOut out;
  out.Size(shape);
  try {
    for (int c = 0; c < 1000; ++c) node.Tick(stim.Next(out), out);
  } catch (const NodeMismatch& e) {
    return e.what();
  }
  return "";
}

// sim.payload = id: the fast model carries the header and the packet id lane alone (on the
// shipped point-to-point node, its fixed-dimension path), the RTL every lane, the others zero.
TEST(FastNode, EqualsRtlCarryingThePacketIdAlone) {
  Mode m;
  m.carried_lanes = 1;
  Check(m, 4, 20000);
  m.load = 0.9;
  m.accept = 0.05;
  m.cfg_rate = 0.01;
  Check(m, 2, 20000);
  m = Mode{};
  m.carried_lanes = 1;
  m.hostile = true;
  m.cfg_rate = 0.05;
  Check(m, 30, 1000, 1);
  m.ports = 15;  // the flattened butterfly's node (no fixed path: every dimension read)
  Check(m, 10, 1000, 1);
}

TEST(FastNode, LockstepCatchesALaneTheCandidateDoesNotCarry) {
  const NodeShape wide = aries::sysc::ShippedShape(NodeUse::kPointToPoint);
  NodeShape narrow = wide;
  narrow.carried_lanes = 1;
  // A reference that drives lane 1 (word 2, after the header and the packet id) of every flit
  // to a link, or of every flit to the endpoint.
  auto lane1_links = [](const NodeShape& s, NodeOut& out) {
    for (unsigned l = 0; l < s.num_links; ++l) {
      if ((out.link_valid >> l) & 1u) out.link_flit[l * s.words() + 2] ^= 0x100u;
    }
  };
  auto lane1_endpoint = [](const NodeShape&, NodeOut& out) {
    if (out.ep_valid & 1u) out.ep_flit[2] ^= 0x100u;
  };
  for (const auto& [tamper, pin] :
       {std::pair<Tampered::Tamper, const char*>{lane1_links, "lnk_out_flit_o[link "},
        std::pair<Tampered::Tamper, const char*>{lane1_endpoint, "ep_out_flit_o[local port 0]"}}) {
    LockstepNode node(std::make_unique<Tampered>(wide, tamper), std::make_unique<FastNode>(narrow),
                      "node (2,1)");
    EXPECT_EQ(node.shape().words(), 2u);
    const std::string what = FirstMismatch(node, 2, 1, 11);
    EXPECT_NE(what.find("node (2,1)"), std::string::npos) << what;
    EXPECT_NE(what.find(pin), std::string::npos) << what;
    EXPECT_NE(what.find("in lanes 1 .. 15, which the fast model does not carry (it carries 1)"),
              std::string::npos)
        << what;
  }
  // A candidate wider than the reference, or with other pins, is refused.
  EXPECT_THROW(
      LockstepNode(std::make_unique<FastNode>(narrow), std::make_unique<FastNode>(wide), "node"),
      std::invalid_argument);
  NodeShape two = wide;
  two.local_ports = 2;
  EXPECT_THROW(
      LockstepNode(std::make_unique<FastNode>(wide), std::make_unique<FastNode>(two), "node"),
      std::invalid_argument);
}

TEST(FastNode, LockstepNamesTheFirstDifferingPin) {
  VerilatedContext ctx;
  auto rtl = aries::sysc::ShippedNodeModels(NodeUse::kPointToPoint)(5, 1, &ctx, "rtl");
  const NodeShape shape = rtl->shape();
  // A model whose endpoint credits come back one cycle late.
  auto late = [held = uint8_t{0}](const NodeShape&, NodeOut& out) mutable {
    std::swap(held, out.ep_credit[0]);
  };
  LockstepNode node(std::move(rtl), std::make_unique<Tampered>(shape, late), "node (1,1)");
  const std::string what = FirstMismatch(node, 1, 1, 7);
  EXPECT_NE(what.find("node (1,1)"), std::string::npos) << what;
  EXPECT_NE(what.find("ep_in_credit_o"), std::string::npos) << what;
}

TEST(FastNode, RefusesAShapeItDoesNotModel) {
  NodeShape s = aries::sysc::ShippedShape(NodeUse::kAny);
  s.num_vcs = 7;  // 9 VCs on a link with the engine's two: the header has 3 VC bits
  try {
    FastNode n(s);
    FAIL() << "a shape with 9 link VCs was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("7 VCs and the engine's two"), std::string::npos)
        << e.what();
  }
  // 31 ports and 4 local ports: a radix of 34, beyond the model's 32-bit port masks.
  NodeShape wide = aries::sysc::ShippedShape(NodeUse::kPointToPoint);
  wide.num_ports = 31;
  wide.num_tracks = 0;
  wide.num_links = 30;  // fixed wiring: a link per interposer port
  wide.local_ports = 4;
  try {
    FastNode n(wide);
    FAIL() << "a radix of 34 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("34 router ports with the 4 local ports"),
              std::string::npos)
        << e.what();
  }
  wide.local_ports = 2;  // 32: the widest it models
  EXPECT_NO_THROW(FastNode n(wide));
  wide.num_ports = 32;  // 32 ports on the port side, one local port
  wide.num_links = 31;
  wide.local_ports = 1;
  EXPECT_NO_THROW(FastNode n(wide));
}

}  // namespace
