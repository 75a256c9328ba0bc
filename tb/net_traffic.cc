#include "net_traffic.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "aries_pkg.h"

namespace aries::tb {

namespace hw = aries::hw;

const char* PatternName(Pattern p) {
  switch (p) {
    case Pattern::kUniform:
      return "uniform";
    case Pattern::kTranspose:
      return "transpose";
    case Pattern::kBitComplement:
      return "bitcomp";
    case Pattern::kHotspot:
      return "hotspot";
    case Pattern::kNeighbor:
      return "neighbor";
    case Pattern::kTrace:
      return "trace";
  }
  return "?";
}

const char* PatternNames() { return "uniform, transpose, bitcomp, hotspot, neighbor, trace"; }

std::optional<Pattern> ParsePattern(std::string_view s) {
  for (Pattern p : {Pattern::kUniform, Pattern::kTranspose, Pattern::kBitComplement,
                    Pattern::kHotspot, Pattern::kNeighbor, Pattern::kTrace}) {
    if (s == PatternName(p)) return p;
  }
  return std::nullopt;
}

// --- scoreboard --------------------------------------------------------------------------------

uint32_t NetScoreboard::Check(uint64_t id, unsigned idx, unsigned lane) {
  uint64_t h = (id * 0x9E3779B97F4A7C15ull) ^ (uint64_t{idx} << 20) ^ (uint64_t{lane} << 40);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return static_cast<uint32_t>(h ^ (h >> 32));
}

void NetScoreboard::Error(std::string e) {
  if (errors_.size() < 50) errors_.push_back(std::move(e));
}

NetScoreboard::Stream& NetScoreboard::StreamTable::operator[](uint64_t key) {
  if (2 * (used_ + 1) > entries_.size()) {  // grow to keep it at most half full
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 1024 : 2 * old.size(), Entry{});
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(entries_.size()));
    used_ = 0;
    for (const Entry& e : old) {
      if (e.key != kEmpty) (*this)[e.key] = e.s;
    }
  }
  const size_t mask = entries_.size() - 1;
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    Entry& e = entries_[i];
    if (e.key == key) return e.s;
    if (e.key == kEmpty) {
      e.key = key;
      ++used_;
      return e.s;
    }
  }
}

Packet& NetScoreboard::OnCreate(Packet p) {
  if (p.id < first_id_ + records_.size()) {
    throw std::logic_error(
        fmt::format("scoreboard: packet {} created after packet {} (ids must increase)", p.id,
                    first_id_ + records_.size() - 1));
  }
  if (records_.empty()) first_id_ = p.id;
  while (first_id_ + records_.size() < p.id) records_.push_back({Packet{}, false});
  flits_created_ += p.len;
  ++live_;
  records_.push_back({p, true});
  return records_.back().p;
}

Packet* NetScoreboard::Find(uint64_t id) {
  if (id < first_id_ || id - first_id_ >= records_.size()) return nullptr;
  Record& r = records_[id - first_id_];
  return r.live ? &r.p : nullptr;
}

Packet& NetScoreboard::Get(uint64_t id) {
  if (Packet* p = Find(id)) return *p;
  throw std::out_of_range(fmt::format("scoreboard: no open packet {}", id));
}

void NetScoreboard::Erase(uint64_t id) {
  if (id < first_id_ || id - first_id_ >= records_.size()) return;
  Record& r = records_[id - first_id_];
  if (!r.live) return;
  r.live = false;
  --live_;
  while (!records_.empty() && !records_.front().live) {
    records_.pop_front();
    ++first_id_;
  }
}

std::optional<Packet> NetScoreboard::OnEject(unsigned node, uint64_t cycle, const uint32_t* w,
                                             unsigned port) {
  ++flits_ejected_;
  const hw::Flit f = hw::UnpackFlit(w, 0);
  if (f.vc >= ejected_by_vc_.size()) ejected_by_vc_.resize(f.vc + 1, 0);
  ++ejected_by_vc_[f.vc];
  const uint64_t id = w[1];
  Packet* pp = Find(id);
  if (!pp) {
    Error(fmt::format("cycle {}: node {} ejected a flit of unknown or finished packet {}", cycle,
                      node, id));
    return std::nullopt;
  }
  Packet& p = *pp;
  const unsigned idx = p.ejected;
  if (p.dst != node) {
    Error(
        fmt::format("cycle {}: packet {} for node {} ejected at node {}", cycle, id, p.dst, node));
  }
  if (f.head != (idx == 0) || f.tail != (idx + 1 == p.len)) {
    Error(fmt::format("cycle {}: packet {} flit {}: head/tail bits {}/{} wrong", cycle, id, idx,
                      f.head, f.tail));
  }
  for (unsigned l = 1; l < lanes_; ++l) {
    if (w[1 + l] != Check(id, idx, l)) {
      Error(fmt::format("cycle {}: packet {} flit {} lane {} corrupted", cycle, id, idx, l));
      break;
    }
  }
  static_assert((1u << hw::kVcIdW) <= hw::kMaxVCs, "a header VC indexes the open packets");
  const size_t oi = (size_t{node} * sysc::kMaxLocalPorts + port) * hw::kMaxVCs + f.vc;
  if (oi >= open_.size()) open_.resize(oi + 1, {0, 0});
  auto& open = open_[oi];
  if (idx == 0) {
    if (open.second != 0) {
      Error(fmt::format("cycle {}: node {} VC {}: packet {} starts inside packet {}", cycle, node,
                        f.vc, id, open.first));
    }
    if (ordered_) {
      Stream& st = streams_[StreamKey(p)];
      if (id < st.arrived_hi) {
        Error(fmt::format(
            "cycle {}: a later packet of {} -> {} on VC {} overtook packet {} (packet {} of that "
            "stream arrived before it)",
            cycle, p.src, p.dst, p.vc, id, st.arrived_hi - 1));
      }
      st.arrived_hi = std::max(st.arrived_hi, id + 1);
    }
    open = {id, 1};
  } else if (open.first != id || open.second == 0) {
    Error(fmt::format("cycle {}: node {}{} VC {}: flit {} of packet {} interleaved with packet {}",
                      cycle, node, port ? fmt::format(" local port {}", port) : std::string(), f.vc,
                      idx, id, open.first));
  }
  ++p.ejected;
  if (p.ejected == p.len) {
    open = {0, 0};
    p.tail_ejected = cycle;
    const Packet done = p;
    Erase(id);
    return done;
  }
  return std::nullopt;
}

// --- endpoint ----------------------------------------------------------------------------------

class TrafficEndpoint final : public sysc::Endpoint {
 public:
  TrafficEndpoint(NetTraffic& t, unsigned node)
      : t_(t),
        node_(node),
        k_(t.package().k()),
        lanes_(t.package().shape().carried_lanes),
        nv_(t.package().shape().num_vcs),
        ports_(t.package().shape().local_ports),
        credits_(ports_ * nv_, t.package().shape().buffer_depth),
        sink_fill_(ports_ * nv_, 0),
        vc_port_(nv_, 0),
        rng_(t.config().seed * 7919 + node),
        sink_rng_((t.config().seed * 7919 + node) ^ 0x5851F42D4C957F2Dull),
        queue_(ports_),
        cur_(ports_, nullptr),
        idx_(ports_, 0) {
    // (Endpoint: calls that would do nothing are left out; nothing is queued or held yet.)
    may_inject_ = may_free_ = false;
    quiet_edges_ = true;
    for (const TraceEntry& e : t.config().trace) {
      if (e.src == node) trace_.push_back(e);
    }
    for (unsigned v = 0; v < nv_; ++v) {
      if ((t.config().vc_mask >> v) & 1u) {
        // The usable VCs in turn over the local ports: a VC's packets all take one port, so
        // the packets of one source, destination and VC stay in order.
        vc_port_[v] = static_cast<unsigned>(vcs_.size()) % ports_;
        vcs_.push_back(v);
      }
    }
  }

  void Stall(bool s) { stalled_ = s; }

  // The packets this source makes in `cycle` (between windows; see NetTraffic).
  void Generate(uint64_t cycle) {
    const TrafficConfig& c = t_.config();
    if (c.pattern == Pattern::kTrace) {
      while (next_trace_ < trace_.size() && trace_[next_trace_].cycle <= cycle) {
        const TraceEntry& e = trace_[next_trace_++];
        Create(cycle, e.dst, e.flits);
      }
    } else if (uni_(rng_) < c.rate / c.packet_len) {
      const unsigned dst = t_.Destination(node_);
      if (dst != node_) Create(cycle, dst, c.packet_len);
    }
  }

  bool Inject(uint64_t cycle, unsigned port, uint32_t* w) override {
    Packet*& cur = cur_[port];
    unsigned& idx = idx_[port];
    std::deque<Packet*>& queue = queue_[port];
    if (!cur && !queue.empty() && queue.front()->created <= cycle) {
      cur = queue.front();
      queue.pop_front();
      idx = 0;
    }
    if (!cur) return false;
    Packet& p = *cur;  // its scoreboard record: erased only when the tail has arrived
    unsigned& credits = credits_[port * nv_ + p.vc];
    if (credits == 0) return false;
    hw::Flit f;
    f.head = idx == 0;
    f.tail = idx + 1 == p.len;
    f.vc = p.vc;
    f.is_flow = t_.config().flow_routed;
    f.flow = f.is_flow ? p.dst : 0;
    f.dst_x = p.dst % k_;
    f.dst_y = p.dst / k_;
    f.src_x = p.src % k_;
    f.src_y = p.src / k_;
    w[0] = hw::PackHeader(f);
    w[1] = static_cast<uint32_t>(p.id);
    for (unsigned l = 1; l < lanes_; ++l) w[1 + l] = NetScoreboard::Check(p.id, idx, l);
    --credits;
    if (idx == 0) p.head_injected = cycle;
    if (++idx == p.len) {
      if (!t_.package().IsLocal(p.dst)) sent_away_.push_back(cur);
      cur = nullptr;
      may_inject_ = queued() != 0;
    }
    return true;
  }

  uint8_t EjectCredits(uint64_t, unsigned port) override {
    uint32_t& fill_mask = fill_mask_[port];
    if (stalled_ || fill_mask == 0) return 0;
    const double acc = t_.config().sink_accept;
    uint8_t m = 0;
    for (uint32_t f = fill_mask; f != 0; f &= f - 1) {  // the VCs holding flits, in order
      const unsigned v = static_cast<unsigned>(__builtin_ctz(f));
      if (acc >= 1.0 || uni_(sink_rng_) < acc) {
        if (--sink_fill_[port * nv_ + v] == 0) fill_mask &= ~(1u << v);
        m |= static_cast<uint8_t>(1u << v);
      }
    }
    if (fill_mask == 0) {
      uint32_t held = 0;
      for (unsigned i = 0; i < ports_; ++i) held |= fill_mask_[i];
      may_free_ = held != 0;
    }
    return m;
  }

  void AfterEdge(uint64_t cycle, const sysc::EndpointEdge& edge) override {
    for (unsigned i = 0; i < ports_; ++i) {
      for (uint8_t c = edge.credits[i], v = 0; c != 0; ++v, c >>= 1)
        credits_[i * nv_ + v] += c & 1u;
      const uint32_t* ej = edge.ejected[i];
      if (!ej) continue;
      const unsigned vc = (ej[0] >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1);
      if (vc >= nv_) {  // the router ejects on its own VCs only
        throw std::logic_error(fmt::format(
            "cycle {}: node {} ejected a flit on VC {} (the sink has {})", cycle, node_, vc, nv_));
      }
      ++sink_fill_[i * nv_ + vc];
      fill_mask_[i] |= 1u << vc;
      may_free_ = true;
      ejected_.push_back(cycle + 1);
      ejected_ports_.push_back(i);
      ejected_words_.insert(ejected_words_.end(), ej, ej + words_);
    }
  }

  size_t queued() const {
    size_t n = 0;
    for (unsigned i = 0; i < ports_; ++i) n += queue_[i].size() + (cur_[i] ? 1 : 0);
    return n;
  }

  // Flits ejected in the window, for the scoreboard (between windows): their cycles and words.
  const std::vector<uint64_t>& ejected() const { return ejected_; }
  const uint32_t* ejected_words(size_t i) const { return &ejected_words_[i * words_]; }
  unsigned ejected_port(size_t i) const { return ejected_ports_[i]; }
  void ClearEjected() {
    ejected_ports_.clear();
    ejected_.clear();
    ejected_words_.clear();
  }
  // Distributed: packets for another rank whose tails left in the window.
  std::vector<Packet*>& sent_away() { return sent_away_; }

 private:
  void Create(uint64_t cycle, unsigned dst, unsigned len) {
    Packet p{};
    p.id = t_.NextId();
    p.src = node_;
    p.dst = dst;
    p.vc = vcs_[next_vc_++ % vcs_.size()];
    p.len = len;
    p.created = cycle;
    Packet* rec = t_.Created(p);
    if (rec && t_.package().IsLocal(node_)) {
      queue_[vc_port_[p.vc]].push_back(rec);
      may_inject_ = true;
    }
  }

  NetTraffic& t_;
  unsigned node_, k_, lanes_, nv_, ports_, words_ = t_.package().shape().words();
  // Per local port and VC ([port * nv_ + v]): injection credits, sink slots taken.
  std::vector<unsigned> credits_, sink_fill_, vcs_;
  std::vector<unsigned> vc_port_;                           // the local port a VC's packets take
  std::array<uint32_t, sysc::kMaxLocalPorts> fill_mask_{};  // per port: VCs holding sink flits
  // The source's stream (packets are made between windows) and the sink's (slots freed in the
  // node's step): two streams, so that neither depends on how cycles are grouped into windows.
  std::mt19937_64 rng_, sink_rng_;
  std::uniform_real_distribution<double> uni_{0.0, 1.0};
  // Per local port: packets made and not yet fully injected (records in the scoreboard, which
  // do not move), in the order made (those made later in the window wait for their cycle), the
  // packet being injected and its next flit.
  std::vector<std::deque<Packet*>> queue_;
  std::vector<Packet*> cur_;
  std::vector<unsigned> idx_;
  std::vector<uint64_t> ejected_;
  std::vector<unsigned> ejected_ports_;
  std::vector<uint32_t> ejected_words_;
  std::vector<Packet*> sent_away_;
  unsigned next_vc_ = 0;
  std::vector<TraceEntry> trace_;
  size_t next_trace_ = 0;
  bool stalled_ = false;
};

// --- traffic -----------------------------------------------------------------------------------

NetTraffic::NetTraffic(sysc::Package& pkg, const TrafficConfig& cfg)
    : pkg_(pkg),
      cfg_(cfg),
      sb_(pkg.shape().carried_lanes, !pkg.config().dynamic_vcs),
      rng_(cfg.seed) {
  if (cfg.packet_len == 0) throw std::invalid_argument("traffic.packet_len: must be >= 1");
  if (cfg.rate < 0 || cfg.rate > 1) {
    throw std::invalid_argument(fmt::format("traffic.rate = {}: allowed 0 .. 1", cfg.rate));
  }
  if (cfg.hotspot >= pkg.num_nodes()) {
    throw std::invalid_argument(fmt::format("traffic.hotspot = {}: node ids are 0 .. {}",
                                            cfg.hotspot, pkg.num_nodes() - 1));
  }
  // Torus packets start in dateline class 0: VC bit 0 clear (rtl/router/README.md).
  if (pkg.config().topology == coll::Topology::kTorus) cfg_.vc_mask &= 0x55;
  if ((cfg_.vc_mask & ((1u << pkg.shape().num_vcs) - 1)) == 0) {
    throw std::invalid_argument("traffic: no usable VC");
  }
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    eps_.push_back(std::make_unique<TrafficEndpoint>(*this, n));
    pkg.AttachEndpoint(n, eps_.back().get());
  }
  pkg.SetWindowObserver(this);
}

NetTraffic::~NetTraffic() {
  pkg_.SetWindowObserver(nullptr);
  for (unsigned n = 0; n < pkg_.num_nodes(); ++n) pkg_.AttachEndpoint(n, nullptr);
}

void NetTraffic::BeforeWindow(uint64_t from, uint64_t to) {
  cycles_unchecked_ += to - from;
  if (!injecting_) return;
  for (uint64_t c = from; c < to; ++c) {
    for (auto& ep : eps_) ep->Generate(c);
  }
}

void NetTraffic::SendHeadCycles() {
  sysc::Transport& net = *pkg_.transport();
  std::vector<sysc::Bytes> out(net.ranks());
  for (auto& ep : eps_) {
    for (Packet* p : ep->sent_away()) {
      sysc::ByteWriter bw(out[pkg_.RankOf(p->dst)]);
      bw.Put(p->id);
      bw.Put(p->head_injected);
      sb_.Erase(p->id);  // the destination's rank keeps the record
    }
    ep->sent_away().clear();
  }
  for (const sysc::Bytes& b : net.Exchange(out)) {
    sysc::ByteReader br(b);
    while (!br.done()) {
      const auto id = br.Get<uint64_t>();
      sb_.Get(id).head_injected = br.Get<uint64_t>();
    }
  }
}

void NetTraffic::AfterWindow(bool last) {
  // The ejections are checked in batches of at least 64 cycles (nothing in a window depends on
  // the check), at the latest when the caller looks: on a distributed package one exchange per
  // batch, not per cycle.
  if (!last && cycles_unchecked_ < 64) return;
  cycles_unchecked_ = 0;
  // A tail leaves before it arrives: the head cycles of the windows come first.
  if (pkg_.transport()) SendHeadCycles();
  // In (cycle, node) order, as a serial run checks them: each sink's list is in cycle order, so
  // a counting sort by cycle over the sinks in node order gives it.
  uint64_t lo = ~uint64_t{0}, hi = 0;
  size_t total = 0;
  for (const auto& ep : eps_) {
    for (uint64_t c : ep->ejected()) {
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
    total += ep->ejected().size();
  }
  if (total != 0) {
    std::vector<size_t>& at = sort_start_;
    at.assign(hi - lo + 2, 0);
    for (const auto& ep : eps_) {
      for (uint64_t c : ep->ejected()) ++at[c - lo + 1];
    }
    for (size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
    std::vector<std::pair<unsigned, size_t>>& order = sort_order_;  // (node, index in its list)
    order.resize(total);
    for (unsigned n = 0; n < eps_.size(); ++n) {
      const auto& ej = eps_[n]->ejected();
      for (size_t i = 0; i < ej.size(); ++i) order[at[ej[i] - lo]++] = {n, i};
    }
    for (const auto& [n, i] : order) {
      Ejected(n, eps_[n]->ejected()[i], eps_[n]->ejected_words(i), eps_[n]->ejected_port(i));
    }
  }
  for (auto& ep : eps_) ep->ClearEjected();
}

void NetTraffic::SetSinkStalled(unsigned node, bool stalled) { eps_.at(node)->Stall(stalled); }

unsigned NetTraffic::Destination(unsigned src) {
  const unsigned k = pkg_.k(), n = pkg_.num_nodes();
  const unsigned x = src % k, y = src / k;
  switch (cfg_.pattern) {
    case Pattern::kUniform: {
      std::uniform_int_distribution<unsigned> d(0, n - 2);
      const unsigned r = d(rng_);
      return r >= src ? r + 1 : r;
    }
    case Pattern::kTranspose:
      return x * k + y;
    case Pattern::kBitComplement:
      return (k - 1 - y) * k + (k - 1 - x);
    case Pattern::kNeighbor:
      return y * k + (x + 1) % k;
    case Pattern::kHotspot: {
      std::uniform_real_distribution<double> u(0, 1);
      if (u(rng_) < cfg_.hotspot_share) return cfg_.hotspot;
      std::uniform_int_distribution<unsigned> d(0, n - 2);
      const unsigned r = d(rng_);
      return r >= src ? r + 1 : r;
    }
    case Pattern::kTrace:
      break;
  }
  return src;
}

Packet* NetTraffic::Created(const Packet& p0) {
  Packet p = p0;
  p.measured = p.created >= win_from_ && p.created < win_to_;
  if (p.measured) win_created_ += p.len;
  flits_created_ += p.len;
  if (!pkg_.IsLocal(p.src) && !pkg_.IsLocal(p.dst)) return nullptr;
  if (pkg_.IsLocal(p.dst)) {
    ++local_live_;
    measured_live_ += p.measured ? 1 : 0;
  }
  return &sb_.OnCreate(p);
}

void NetTraffic::Ejected(unsigned node, uint64_t cycle, const uint32_t* w, unsigned port) {
  last_eject_ = cycle;
  if (cycle >= win_from_ && cycle < win_to_) ++win_ejected_;
  if (const std::optional<Packet> p = sb_.OnEject(node, cycle, w, port)) {
    --local_live_;  // its tail arrived here, at its destination
    measured_live_ -= p->measured ? 1 : 0;
    if (p->measured) {
      lat_.push_back(static_cast<double>(p->tail_ejected - p->created));
      net_lat_.push_back(static_cast<double>(p->tail_ejected - p->head_injected));
    }
  }
}

uint64_t NetTraffic::outstanding() const {
  sysc::Transport* net = pkg_.transport();
  return net ? net->Sum(local_live_) : local_live_;
}

uint64_t NetTraffic::measured_outstanding() const {
  sysc::Transport* net = pkg_.transport();
  return net ? net->Sum(measured_live_) : measured_live_;
}

uint64_t NetTraffic::last_ejection() const {
  sysc::Transport* net = pkg_.transport();
  return net ? net->Max(last_eject_) : last_eject_;
}

void NetTraffic::GatherResults() {
  sysc::Transport* net = pkg_.transport();
  if (!net) {
    errors_ = sb_.errors();
    return;
  }
  if (gathered_) {
    throw std::logic_error(
        "NetTraffic on a distributed package: one run per NetTraffic (its "
        "figures are gathered once)");
  }
  gathered_ = true;
  errors_ = sb_.errors();
  sysc::Bytes mine;
  sysc::ByteWriter bw(mine);
  bw.Put<uint64_t>(lat_.size());
  for (size_t i = 0; i < lat_.size(); ++i) {
    bw.Put(lat_[i]);
    bw.Put(net_lat_[i]);
  }
  bw.Put<uint64_t>(errors_.size());
  for (const std::string& e : errors_) bw.PutString(e);
  bw.Put(sb_.flits_ejected());
  bw.Put(win_ejected_);
  const std::vector<sysc::Bytes> all = net->AllGather(mine);
  lat_.clear();
  net_lat_.clear();
  errors_.clear();
  win_ejected_ = 0;
  other_ejected_ = 0;
  for (unsigned r = 0; r < all.size(); ++r) {
    sysc::ByteReader br(all[r]);
    const auto n = br.Get<uint64_t>();
    for (uint64_t i = 0; i < n; ++i) {
      lat_.push_back(br.Get<double>());
      net_lat_.push_back(br.Get<double>());
    }
    const auto ne = br.Get<uint64_t>();
    for (uint64_t i = 0; i < ne; ++i) errors_.push_back(br.GetString());
    if (r + 1 == all.size()) {
      // In cycle order ("cycle N: ..."), as one process lists them, and as many.
      auto cycle_of = [](const std::string& e) {
        return e.rfind("cycle ", 0) == 0 ? std::strtoull(e.c_str() + 6, nullptr, 10) : 0ull;
      };
      std::stable_sort(
          errors_.begin(), errors_.end(),
          [&](const std::string& a, const std::string& b) { return cycle_of(a) < cycle_of(b); });
      if (errors_.size() > 50) errors_.resize(50);
    }
    const auto ejected = br.Get<uint64_t>();
    if (r != net->rank()) other_ejected_ += ejected;
    win_ejected_ += br.Get<uint64_t>();
  }
}

LatencyStats NetTraffic::Latency() const {
  LatencyStats s;
  if (lat_.empty()) return s;
  std::vector<double> v = lat_;
  std::sort(v.begin(), v.end());
  s.packets = v.size();
  double sum = 0, nsum = 0;
  for (double d : v) sum += d;
  for (double d : net_lat_) nsum += d;
  s.mean = sum / v.size();
  s.net_mean = nsum / net_lat_.size();
  s.p50 = v[v.size() / 2];
  s.p99 = v[std::min(v.size() - 1, static_cast<size_t>(v.size() * 0.99))];
  s.max = v.back();
  return s;
}

}  // namespace aries::tb
