#include "coll_adapter.h"

#include <fmt/format.h>

#include <algorithm>

#include "aries_pkg.h"
#include "arith.h"
#include "channel.h"
#include "validate.h"

namespace aries::sysc {

namespace hw = aries::hw;
using coll::Act;

coll::Hardware HardwareOf(const NodeShape& s) {
  coll::Hardware h;
  h.lanes = s.lanes;
  h.num_vcs = s.num_vcs;
  h.num_flows = s.num_flows;
  h.tracks = s.num_tracks;
  h.engine = s.coll_engine;
  h.coll_ids = s.coll_ids;
  h.coll_prog = s.coll_prog;
  h.local_ports = s.local_ports;
  return h;
}

void AppendRouteWrites(std::vector<RegOp>& ops, unsigned node,
                       const std::vector<coll::RouteEntry>& routes, const coll::Geometry& g,
                       unsigned node_ports) {
  // The planner numbers a chiplet's extra local ports after its topology's router ports
  // (coll::RouterPorts); the node model after all of its own (a butterfly of K < 8 runs on the
  // 15-port node): route entries are renumbered to the model's ports.
  const unsigned planned = coll::RouterPorts(g.topology, g.k);
  if (node_ports < planned) {
    throw std::invalid_argument(
        fmt::format("a program for {}-port routers ({} {}x{}) on a node model with {} ports",
                    planned, coll::TopologyName(g.topology), g.k, g.k, node_ports));
  }
  auto model_port = [&](unsigned q) { return q < planned ? q : q - planned + node_ports; };
  for (const coll::RouteEntry& r : routes) {
    uint32_t mask = 0;
    for (uint32_t m = r.mask; m != 0; m &= m - 1)
      mask |= 1u << model_port(static_cast<unsigned>(__builtin_ctz(m)));
    ops.push_back({node, true, hw::RouteAddr(r.flow, model_port(r.in_port)), mask});
  }
}

std::vector<RegOp> RegisterWrites(const coll::Program& p, unsigned node_ports) {
  std::vector<RegOp> ops;
  for (unsigned n = 0; n < p.num_nodes(); ++n) {
    const coll::NodeProgram& np = p.nodes[n];
    auto w = [&](uint32_t addr, uint32_t v) { ops.push_back({n, true, addr, v}); };
    if (np.bypass) w(hw::kRegBypass, np.bypass);
    for (unsigned port = 1; port < np.portsel.size(); ++port) {
      const coll::PortSel s = np.portsel[port];
      if (s.in || s.out) w(hw::kRegPortSelBase + port, hw::PortSelValue(s.in, s.out));
    }
    AppendRouteWrites(ops, n, np.routes, p.req.geom, node_ports);
    for (const coll::EngineId& e : np.ids) {
      w(hw::EngIdReg(e.id, hw::kIdRegCfg), hw::IdCfgValue(e.op));
      w(hw::EngIdReg(e.id, hw::kIdRegCount), e.count);
      w(hw::EngIdReg(e.id, hw::kIdRegReqIn), e.req_in);
      w(hw::EngIdReg(e.id, hw::kIdRegReqOut), e.req_out);
      w(hw::EngIdReg(e.id, hw::kIdRegRspIn), e.rsp_in);
      w(hw::EngIdReg(e.id, hw::kIdRegRspOut), e.rsp_out);
    }
    uint32_t start = 0;
    for (int stage = 0; stage < 2; ++stage) {
      const coll::EngineProgram& prog = stage == 0 ? np.req : np.rsp;
      if (prog.steps.empty()) continue;
      const uint32_t base = stage == 0 ? hw::kRegEngReqProgBase : hw::kRegEngRspProgBase;
      for (size_t i = 0; i < prog.steps.size(); ++i)
        w(base + static_cast<uint32_t>(i), prog.steps[i]);
      w(stage == 0 ? hw::kRegEngReqLen : hw::kRegEngRspLen,
        hw::EngLenValue(static_cast<unsigned>(prog.steps.size()), prog.passes));
      start |= 1u << (stage == 0 ? hw::kEngCtrlReqBit : hw::kEngCtrlRspBit);
    }
    if (start) w(hw::kRegEngCtrl, start);
  }
  return ops;
}

ScheduleEndpoint::ScheduleEndpoint(const NodeShape& shape, unsigned k, unsigned node,
                                   const coll::Program& p, std::vector<uint32_t> input,
                                   unsigned reduce_flits)
    : shape_(shape),
      k_(k),
      node_(node),
      torus_(p.req.geom.topology == coll::Topology::kTorus),
      packet_flits_(std::max(1u, p.req.packet_flits)),
      reduce_flits_(reduce_flits),
      ops_(p.nodes[node].ops),
      st_(ops_.size()),
      spans_(ops_.size()),
      buf_(std::move(input)),
      op_code_(p.req.op),
      engine_(shape) {
  buf_.resize(p.elements, 0);
  for (size_t j = 0; j < ops_.size(); ++j) {
    const coll::Range a = ops_[j].region;
    for (size_t i = 0; i < j; ++i) {
      const coll::Range b = ops_[i].region;
      const bool overlap = a.off < b.end() && b.off < a.end();
      if (overlap && (ops_[i].IsWrite() || ops_[j].IsWrite())) st_[j].deps.push_back(i);
    }
    const coll::Op& o = ops_[j];
    if (o.act == Act::kSend) {
      const Key key = KeyOf(o.peer, o.flow, o.vc);
      if (!tx_.count(key)) tx_keys_.push_back(key);
      tx_[key].ops.push_back(j);
      tx_[key].port = o.port;
    } else if (o.IsRecv()) {
      rx_.try_emplace(KeyOf(o.peer, o.flow, o.vc), RxChannel{FlitQueue(shape.lanes), {}, 0, 0, {}})
          .first->second.ops.push_back(j);
    } else if (o.act == Act::kEngRecv) {
      const coll::EngineId* e = p.nodes[node].FindId(o.id);
      const bool rsp = !(e && coll::DeliversRequests(*e));
      EngRx& rx = eng_rx_.try_emplace(o.id, EngRx{0, 0, 0, FlitQueue(shape.lanes)}).first->second;
      rx.op = j;
      rx.total = coll::EngineFlits(p.nodes[node], o.id, rsp);
    }
  }
  ports_.resize(shape.local_ports);
  for (PortTx& pt : ports_) pt.credits.assign(shape.num_vcs, shape.buffer_depth);
  for (const Key& key : tx_keys_) {
    TxChannel& ch = tx_[key];
    if (ch.port >= ports_.size()) {
      errors_.push_back(fmt::format("sends to node {} on local port {}: the node has {}",
                                    std::get<0>(key), ch.port, ports_.size()));
      ch.port = 0;
    }
    ports_[ch.port].chans.push_back(tx_chans_.size());
    tx_chans_.push_back(&ch);
  }
  for (auto& [key, ch] : rx_) {
    ch.index = rx_chans_.size();
    rx_chans_.push_back(&ch);
  }
  rx_waiting_.assign((rx_chans_.size() + 63) / 64, 0);
  for (auto& [id, rx] : eng_rx_) eng_rx_list_.push_back({id, &rx});
  // Engine request flits in the order of the node's request program.
  const coll::NodeProgram& np = p.nodes[node];
  std::map<unsigned, size_t> send_op;
  for (size_t j = 0; j < ops_.size(); ++j) {
    if (ops_[j].act == Act::kEngSend) send_op[ops_[j].id] = j;
  }
  std::map<unsigned, uint64_t> next_index;
  for (unsigned pass = 0; pass < np.req.passes; ++pass) {
    for (unsigned id : np.req.steps) {
      auto it = send_op.find(id);
      if (it == send_op.end()) continue;
      const uint32_t count = np.FindId(id)->count;  // validated: configured
      for (uint32_t f = 0; f < count; ++f) eng_tx_.push_back({it->second, id, next_index[id]++});
    }
  }
  to_send_ = eng_tx_.size();
  for (const coll::Op& o : ops_) {
    const uint64_t flits = (o.region.len + shape.lanes - 1) / shape.lanes;
    if (o.act == Act::kSend) to_send_ += flits;
    if (o.IsRecv()) to_receive_ += flits;
  }
  for (const auto& [id, rx] : eng_rx_) to_receive_ += rx.total;
}

bool ScheduleEndpoint::Ready(size_t j, uint64_t from, uint64_t to) const {
  Blocked b;
  return Ready(b, j, from, to);
}

bool ScheduleEndpoint::Ready(Blocked& b, size_t j, uint64_t from, uint64_t to) const {
  if (b.op == j && b.from == from && st_[b.dep].progress < b.need) return false;
  for (size_t i : st_[j].deps) {
    const coll::Range r = ops_[i].region;
    const uint64_t lo = std::max(from, r.off), hi = std::min(to, r.end());
    if (lo < hi && r.off + st_[i].progress < hi) {
      b = {j, from, i, hi - r.off};
      return false;
    }
  }
  return true;
}

void ScheduleEndpoint::Advance(size_t j, uint64_t elements, uint64_t cycle) {
  const bool was_done = st_[j].progress >= ops_[j].region.len;
  if (st_[j].progress == 0) spans_[j].first = cycle;
  st_[j].progress += elements;
  if (!was_done && st_[j].progress >= ops_[j].region.len) {
    ++done_ops_;
    spans_[j].last = cycle;
  }
  done_cycle_ = cycle;
}

std::vector<ScheduleEndpoint::OpSpan> ScheduleEndpoint::OpSpans() const {
  std::vector<OpSpan> spans = spans_;
  for (size_t j = 0; j < st_.size(); ++j) {
    // (An op not finished: its span so far, to the endpoint's last activity.)
    if (st_[j].progress > 0 && st_[j].progress < ops_[j].region.len) spans[j].last = done_cycle_;
  }
  return spans;
}

std::string ScheduleEndpoint::Where() const {
  for (size_t j = 0; j < ops_.size(); ++j) {
    if (st_[j].progress < ops_[j].region.len) {
      const coll::Op& o = ops_[j];
      std::string more;  // a receive: the flits waiting for it in its channel
      if (o.IsRecv()) {
        const auto it = rx_.find(KeyOf(o.peer, o.flow, o.vc));
        if (it != rx_.end() && !it->second.flits.empty())
          more = fmt::format("; {} flits of it wait", it->second.flits.size());
      }
      return fmt::format("op {} ({} {} {}): {} of {} elements{}", j, coll::ActName(o.act),
                         o.act == Act::kEngSend || o.act == Act::kEngRecv ? "id" : "peer",
                         o.act == Act::kEngSend || o.act == Act::kEngRecv ? o.id : o.peer,
                         st_[j].progress, o.region.len, more);
    }
  }
  return eng_tx_next_ < eng_tx_.size() ? "engine padding flits" : "done";
}

namespace {
// A node's buffer streams through its sends and receives a flit (64 bytes) at a time, but the
// package steps every node between two flits of one stream, so the hardware prefetcher loses
// the streams (the copy from the buffer was 78% of InjectP2p's samples on an 8x8 ring all-reduce
// of 2 MB): ask for the line kAheadFlits flits on.
constexpr uint64_t kAheadFlits = 4;
inline void PrefetchAhead(const std::vector<uint32_t>& buf, uint64_t at, unsigned lanes) {
  const uint64_t ahead = at + kAheadFlits * lanes;
  if (ahead < buf.size()) __builtin_prefetch(buf.data() + ahead);
}
}  // namespace

bool ScheduleEndpoint::InjectEngine(uint64_t cycle, uint32_t* w) {
  if (eng_tx_next_ >= eng_tx_.size() || !engine_.CanSend()) return false;
  const EngFlit& f = eng_tx_[eng_tx_next_];
  const coll::Range r = ops_[f.op].region;
  const uint64_t from = r.off + f.index * shape_.lanes;
  const uint64_t to = std::min(from + shape_.lanes, r.end());
  if (from < to && !Ready(f.op, from, to)) return false;
  engine_.Send(f.id, op_code_, f.index, buf_.data() + (from < to ? from : 0),
               from < to ? to - from : 0, w);
  PrefetchAhead(buf_, from, shape_.lanes);
  if (from < to) Advance(f.op, to - from, cycle);
  ++eng_tx_next_;
  return true;
}

bool ScheduleEndpoint::InjectP2p(uint64_t cycle, PortTx& pt, uint32_t* w) {
  const unsigned lanes = shape_.lanes;
  if (!pt.in_packet) {
    const size_t nc = pt.chans.size();
    size_t at = pt.rr;  // (pt.rr + t) % nc: rr is always below nc (set only just below)
    for (size_t t = 0; t < nc && !pt.in_packet; ++t, at = at + 1 == nc ? 0 : at + 1) {
      const size_t c = pt.chans[at];
      TxChannel& ch = *tx_chans_[c];
      if (ch.next >= ch.ops.size()) continue;
      const size_t j = ch.ops[ch.next];
      const coll::Op& o = ops_[j];
      const uint64_t left = o.region.len - st_[j].progress;
      const uint64_t flits = std::min<uint64_t>(packet_flits_, (left + lanes - 1) / lanes);
      const uint64_t from = o.region.off + st_[j].progress;
      const uint64_t to = std::min(from + flits * lanes, o.region.end());
      if (pt.credits[o.vc] == 0 || !Ready(ch.blocked, j, from, to)) continue;
      pt.in_packet = true;
      pt.pkt_op = j;
      pt.pkt_chan = c;
      pt.pkt_flits = pt.pkt_left = static_cast<unsigned>(flits);
      pt.rr = at + 1 == nc ? 0 : at + 1;
    }
    if (!pt.in_packet) return false;
  }
  const size_t j = pt.pkt_op;
  const coll::Op& o = ops_[j];
  if (pt.credits[o.vc] == 0) return false;
  hw::Flit f;
  f.head = pt.pkt_left == pt.pkt_flits;
  f.tail = pt.pkt_left == 1;
  f.vc = o.vc;
  f.is_flow = o.flow >= 0;
  f.flow = o.flow >= 0 ? static_cast<unsigned>(o.flow) : 0u;
  f.dst_x = o.peer % k_;
  f.dst_y = o.peer / k_;
  f.src_x = node_ % k_;
  f.src_y = node_ / k_;
  w[0] = hw::PackHeader(f);
  const uint64_t from = o.region.off + st_[j].progress;
  const uint64_t n = std::min<uint64_t>(lanes, o.region.end() - from);
  CopyLanes(w + 1, buf_.data() + from, n);
  PrefetchAhead(buf_, from, lanes);
  for (uint64_t l = n; l < lanes; ++l) w[1 + l] = 0;
  Advance(j, n, cycle);
  --pt.credits[o.vc];
  if (--pt.pkt_left == 0) {
    pt.in_packet = false;
    if (st_[j].progress >= o.region.len) ++tx_chans_[pt.pkt_chan]->next;
  }
  return true;
}

bool ScheduleEndpoint::Inject(uint64_t cycle, unsigned port, uint32_t* w) {
  if (!started_) return false;
  const bool sent = (port == 0 && InjectEngine(cycle, w)) || InjectP2p(cycle, ports_[port], w);
  if (sent) ++flits_sent_;
  return sent;
}

uint8_t ScheduleEndpoint::EjectCredits(uint64_t, unsigned port) {
  const uint8_t m = free_next_[port];
  free_next_[port] = 0;
  return m;
}

void ScheduleEndpoint::AfterEdge(uint64_t cycle, const EndpointEdge& edge) {
  for (unsigned i = 0; i < edge.ports; ++i) {
    for (unsigned v = 0; v < shape_.num_vcs; ++v) {
      if ((edge.credits[i] >> v) & 1u) ++ports_[i].credits[v];
    }
    if (edge.ejected[i]) Eject(cycle, i, edge.ejected[i]);
  }
  engine_.Returned(edge.credits[0]);
  if (rx_pending_ > 0) Process(cycle);  // (nothing waiting: Process would change nothing)
}

void ScheduleEndpoint::Eject(uint64_t cycle, unsigned port, const uint32_t* ej) {
  ++flits_received_;
  const unsigned vc = (ej[0] >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u);
  free_next_[port] = static_cast<uint8_t>(free_next_[port] | (1u << vc));
  const uint32_t* const payload = ej + 1;
  if (engine_.IsEngineVc(vc)) {
    const auto h = hw::UnpackCollHeader(ej[0]);
    auto it = eng_rx_.find(h.id);
    if (it == eng_rx_.end()) {
      errors_.push_back(fmt::format("cycle {}: engine flit of id {} nobody expects", cycle, h.id));
    } else {
      it->second.flits.push(payload);
      ++rx_pending_;
    }
  } else {
    const hw::Flit f = hw::UnpackFlit(ej, 0);
    const Key key = KeyOf(f.src_y * k_ + f.src_x, f.is_flow ? static_cast<int>(f.flow) : -1, vc);
    if (last_rx_ == nullptr || key != last_rx_key_) {  // (a packet's flits come together)
      auto it = rx_.find(key);
      last_rx_ = it == rx_.end() ? nullptr : &it->second;
      last_rx_key_ = key;
    }
    if (last_rx_ == nullptr) {
      errors_.push_back(
          fmt::format("cycle {}: a flit from node {} (flow {}, VC {}) nobody "
                      "expects",
                      cycle, std::get<0>(key), std::get<1>(key), vc));
    } else {
      RxChannel& ch = *last_rx_;
      ch.flits.push(payload);
      rx_waiting_[ch.index / 64] |= uint64_t{1} << (ch.index % 64);
      ++rx_pending_;
    }
  }
}

void ScheduleEndpoint::Process(uint64_t cycle) {
  unsigned budget = reduce_flits_ * shape_.local_ports;
  const unsigned lanes = shape_.lanes;
  for (bool progress = true; progress && budget > 0;) {
    progress = false;
    // The channels in key order, those with flits only (rx_waiting_).
    for (size_t wi = 0; wi < rx_waiting_.size() && budget > 0; ++wi) {
      for (uint64_t m = rx_waiting_[wi]; m != 0 && budget > 0; m &= m - 1) {
        RxChannel& ch = *rx_chans_[wi * 64 + static_cast<size_t>(__builtin_ctzll(m))];
        if (ch.next >= ch.ops.size()) continue;
        const size_t j = ch.ops[ch.next];
        const coll::Op& o = ops_[j];
        const uint64_t from = o.region.off + st_[j].progress;
        const uint64_t n = std::min<uint64_t>(lanes, o.region.end() - from);
        if (!Ready(ch.blocked, j, from, from + n)) continue;
        const uint32_t* const in = ch.flits.front();
        uint32_t* const dst = buf_.data() + from;
        PrefetchAhead(buf_, from, lanes);
        if (o.act == Act::kRecvReduce) {
          coll::LaneOps(op_code_, dst, in, static_cast<unsigned>(n));
        } else {
          CopyLanes(dst, in, n);
        }
        ch.flits.pop();
        if (ch.flits.empty()) rx_waiting_[wi] &= ~(uint64_t{1} << (ch.index % 64));
        --rx_pending_;
        ++flits_processed_;
        Advance(j, n, cycle);
        if (st_[j].progress >= o.region.len) ++ch.next;
        --budget;
        progress = true;
      }
    }
    for (auto& [id, rxp] : eng_rx_list_) {
      EngRx& rx = *rxp;
      if (budget == 0) break;
      if (rx.flits.empty()) continue;
      const coll::Range r = ops_[rx.op].region;
      const uint64_t from = r.off + rx.count * lanes;
      const uint64_t to = std::min(from + lanes, r.end());
      if (from < to && !Ready(rx.op, from, to)) continue;
      if (from < to) CopyLanes(buf_.data() + from, rx.flits.front(), to - from);  // (padding: none)
      PrefetchAhead(buf_, from, lanes);
      rx.flits.pop();
      --rx_pending_;
      ++flits_processed_;
      if (from < to) Advance(rx.op, to - from, cycle);
      if (++rx.count > rx.total) {
        errors_.push_back(
            fmt::format("cycle {}: more than {} flits of id {}", cycle, rx.total, id));
      }
      --budget;
      progress = true;
    }
  }
}

namespace {

// Runs the started endpoints `eps` (attached to the package) until every one finished, `limit`
// cycles, or the watchdog finds them stuck; `name` names endpoint i in messages. The buffers
// are moved out of the endpoints into the result.
CollRunResult RunSchedules(Package& pkg, std::vector<std::unique_ptr<ScheduleEndpoint>>& eps,
                           const std::function<std::string(unsigned)>& name, uint64_t limit,
                           const std::function<void(uint64_t cycle)>& progress, uint64_t watchdog) {
  CollRunResult res;
  const auto n = static_cast<unsigned>(eps.size());
  res.out.reserve(n);
  const uint64_t start = pkg.endpoint_cycle();  // the endpoints' time (done_cycle)
  auto all_done = [&] {
    return std::all_of(eps.begin(), eps.end(), [](const auto& e) { return e->done(); });
  };
  // Windows of the package's lookahead (at most 32 cycles; the endpoints note the cycle they
  // finish in, so running a few cycles past it changes no result).
  const uint64_t window = std::min<uint64_t>(pkg.lookahead(), 32);
  if (watchdog == 0) watchdog = coll::DefaultWatchdog(pkg.config());
  // Endpoint flits sent, received and taken from the endpoints' queues so far (a backlog the
  // endpoints are still reducing is progress), and when they last changed.
  uint64_t moved = 0, last_move = start;
  while (!all_done() && pkg.endpoint_cycle() - start < limit) {
    pkg.Run(std::min(window, limit - (pkg.endpoint_cycle() - start)));
    if (progress) progress(pkg.endpoint_cycle() - start);
    uint64_t now = 0;
    for (const auto& e : eps) now += e->flits_sent() + e->flits_received() + e->flits_processed();
    if (now != moved) {
      moved = now;
      last_move = pkg.endpoint_cycle();
    } else if (pkg.endpoint_cycle() - last_move >= watchdog && !pkg.WiresBusy()) {
      res.stuck = true;
      res.stuck_cycle = pkg.endpoint_cycle() - start;
      res.lost = pkg.LostLinks();
      std::string why = fmt::format(
          "stuck at cycle {}: no endpoint sent, received or took in a flit for {} cycles and "
          "nothing is on the wires",
          res.stuck_cycle, pkg.endpoint_cycle() - last_move);
      for (const auto& l : res.lost) why += "\n    LOST: " + l.Describe(pkg);
      unsigned waiting = 0;  // where the unfinished endpoints wait (the first few)
      for (unsigned i = 0; i < n; ++i) {
        if (eps[i]->done()) continue;
        if (++waiting <= 8) why += fmt::format("\n    {} waits at {}", name(i), eps[i]->Where());
      }
      if (waiting > 8) why += fmt::format("\n    ... {} endpoints unfinished in all", waiting);
      res.errors.push_back(why);
      break;
    }
  }
  res.finished = all_done();
  // Drain what is still on its way. An endpoint is done when its ops are, and the engine's
  // padding flits of a response stream may still be coming: after a finished run the flit
  // accounting below counts them; an unfinished one is accounted where it stopped.
  auto drain = [&] {
    for (uint64_t c = 0; c < 10000 && !res.stuck && !pkg.Quiet(); ++c) pkg.Step();
  };
  if (res.finished) drain();
  uint64_t end = start;
  for (const auto& e : eps) {
    end = std::max(end, e->done_cycle());
    // A node with nothing to do (in no communicator) finished at the start.
    res.node_cycles.push_back(e->done_cycle() >= start ? e->done_cycle() + 1 - start : 0);
    res.flits_injected += e->flits_sent();
    res.flits_ejected += e->flits_received();
    res.flits_to_inject += e->flits_to_send();
    res.flits_to_eject += e->flits_to_receive();
    res.op_spans.push_back(e->OpSpans());
    for (const auto& s : e->errors()) res.errors.push_back(s);
  }
  if (!res.finished) drain();
  for (unsigned i = 0; i < n && !res.finished && !res.stuck; ++i) {
    if (!eps[i]->done()) {
      res.errors.push_back(fmt::format("did not finish in {} cycles: {} stops at {}", limit,
                                       name(i), eps[i]->Where()));
      break;
    }
  }
  if (pkg.AnyError()) res.errors.push_back("a node raised its error output (STATUS registers)");
  res.cycles = end + 1 - start;
  res.start_cycle = start;
  for (unsigned i = 0; i < n; ++i) {
    res.out.push_back(eps[i]->TakeBuffer());  // (a copy would write every page again)
  }
  return res;
}

void CheckInputs(const coll::Program& p, size_t inputs, unsigned nodes, const char* what) {
  if (p.num_nodes() != nodes || inputs != nodes) {
    throw std::invalid_argument(fmt::format("program for {} nodes, {} inputs, package of {} {}",
                                            p.num_nodes(), inputs, nodes, what));
  }
}

// One router's endpoint on the concentrated mesh: its local port q is chiplet q's endpoint
// (one port each), at the other end of `delay` cycles of wire each way (the chiplet's link to
// its group's router), modelled as two interposer channels: flits up with the router's
// injection credits back, ejected flits down with the chiplet's freed slots back.
class GroupEndpoint final : public Endpoint {
 public:
  GroupEndpoint(unsigned delay, unsigned words) : tmp_(words) {
    for (unsigned q = 0; q < coll::kConcentration; ++q) {
      // (latency `delay` with one input register: what is sent in cycle t arrives in t + delay)
      lines_.push_back({nullptr, Channel("up", delay, 1, words, 0, q, 0, q),
                        Channel("down", delay, 1, words, 0, q, 0, q)});
    }
  }
  void Set(unsigned q, ScheduleEndpoint* e) { lines_.at(q).chiplet = e; }
  bool Inject(uint64_t cycle, unsigned port, uint32_t* words) override {
    Line& l = lines_[port];
    if (l.chiplet != nullptr && l.chiplet->Inject(cycle, 0, tmp_.data()))
      l.up.SendFlit(cycle, tmp_.data());
    const uint32_t* f = l.up.FlitAt(cycle);
    if (f == nullptr) return false;
    std::copy(f, f + tmp_.size(), words);
    return true;
  }
  uint8_t EjectCredits(uint64_t cycle, unsigned port) override {
    Line& l = lines_[port];
    if (l.chiplet != nullptr) {
      const uint8_t freed = l.chiplet->EjectCredits(cycle, 0);
      if (freed != 0) l.down.SendCredit(cycle, freed);
    }
    return l.down.CreditAt(cycle);
  }
  void AfterEdge(uint64_t cycle, const EndpointEdge& edge) override {
    for (unsigned q = 0; q < lines_.size(); ++q) {
      Line& l = lines_[q];
      if (q < edge.ports) {
        if (edge.ejected[q] != nullptr) l.down.SendFlit(cycle, edge.ejected[q]);
        if (edge.credits[q] != 0) l.up.SendCredit(cycle, edge.credits[q]);
      }
      if (l.chiplet == nullptr) continue;
      EndpointEdge one;
      one.credits[0] = l.up.CreditAt(cycle);
      one.ejected[0] = l.down.FlitAt(cycle);
      l.chiplet->AfterEdge(cycle, one);
    }
  }

 private:
  struct Line {
    ScheduleEndpoint* chiplet;
    Channel up, down;
  };
  std::vector<Line> lines_;
  std::vector<uint32_t> tmp_;  // a flit from a chiplet
};

}  // namespace

CollRunResult RunProgram(Package& pkg, const coll::Program& p,
                         const std::vector<std::vector<uint32_t>>& inputs, uint64_t limit,
                         const std::function<void(uint64_t cycle)>& progress, uint64_t watchdog) {
  const unsigned n = pkg.num_nodes();
  CheckInputs(p, inputs.size(), n, "nodes");
  pkg.Program(RegisterWrites(p, pkg.shape().num_ports));
  std::vector<std::unique_ptr<ScheduleEndpoint>> eps;
  for (unsigned i = 0; i < n; ++i) {
    eps.push_back(std::make_unique<ScheduleEndpoint>(pkg.shape(), pkg.k(), i, p, inputs[i]));
    pkg.AttachEndpoint(i, eps.back().get());
    eps.back()->Start();
  }
  CollRunResult res = RunSchedules(
      pkg, eps, [&](unsigned i) { return pkg.NodeName(i); }, limit, progress, watchdog);
  for (unsigned i = 0; i < n; ++i) pkg.AttachEndpoint(i, nullptr);
  return res;
}

CollRunResult RunConcentrated(Package& pkg, const coll::CmeshProgram& cp,
                              const std::vector<std::vector<uint32_t>>& inputs, uint64_t limit,
                              const std::function<void(uint64_t cycle)>& progress,
                              uint64_t watchdog) {
  const coll::Program& p = cp.chiplets;
  const unsigned k = p.req.geom.k, n = k * k;
  CheckInputs(p, inputs.size(), n, "chiplets");
  const coll::Geometry routers = coll::CmeshRouters(p.req.geom);
  if (pkg.k() != routers.k || pkg.config().topology != coll::Topology::kMesh ||
      pkg.shape().local_ports != coll::kConcentration || cp.routes.size() != pkg.num_nodes()) {
    throw std::invalid_argument(fmt::format(
        "a concentrated program for a {}x{} mesh of routers with {} local ports, on a {} {}x{} "
        "package with {}",
        routers.k, routers.k, coll::kConcentration, coll::TopologyName(pkg.config().topology),
        pkg.k(), pkg.k(), pkg.shape().local_ports));
  }
  std::vector<RegOp> writes;
  for (unsigned r = 0; r < pkg.num_nodes(); ++r)
    AppendRouteWrites(writes, r, cp.routes[r], routers, pkg.shape().num_ports);
  pkg.Program(writes);
  NodeShape one = pkg.shape();  // a chiplet's endpoint: one local port of its router
  one.local_ports = 1;
  std::vector<std::unique_ptr<ScheduleEndpoint>> eps;
  std::vector<GroupEndpoint> groups;  // (a channel is not copied: each made in place)
  groups.reserve(pkg.num_nodes());
  for (unsigned r = 0; r < pkg.num_nodes(); ++r)
    groups.emplace_back(coll::CmeshLocalLatency(p.req.geom), one.words());
  for (unsigned c = 0; c < n; ++c) {
    eps.push_back(std::make_unique<ScheduleEndpoint>(one, k, c, p, inputs[c]));
    const coll::CmeshPlace at = coll::CmeshPlaceOf(c, k);
    groups[at.router].Set(at.local_port, eps.back().get());
  }
  for (unsigned r = 0; r < pkg.num_nodes(); ++r) pkg.AttachEndpoint(r, &groups[r]);
  for (auto& e : eps) e->Start();
  CollRunResult res = RunSchedules(
      pkg, eps,
      [&](unsigned c) {
        const coll::CmeshPlace at = coll::CmeshPlaceOf(c, k);
        return fmt::format("chiplet {} (local port {} of {})", c, at.local_port,
                           pkg.NodeName(at.router));
      },
      limit, progress, watchdog);
  for (unsigned r = 0; r < pkg.num_nodes(); ++r) pkg.AttachEndpoint(r, nullptr);
  return res;
}

}  // namespace aries::sysc
