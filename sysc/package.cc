#include "package.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "aries_pkg.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace aries::sysc {

namespace hw = aries::hw;

namespace {
const char* kPortNames[] = {"LOCAL", "XP", "XM", "YP", "YM"};

std::string PortName(unsigned p, unsigned num_ports) {
  if (num_ports == hw::kNumMeshPorts && p < 5) return kPortNames[p];
  return fmt::format("{}", p);
}

// Throws std::invalid_argument unless the package is one the simulator builds: not the
// concentrated mesh, K in range, 1 .. 64 threads and at most one of `ranks` per row of nodes.
void CheckPackageConfig(const PackageConfig& cfg, unsigned ranks) {
  if (cfg.topology == Topology::kCmesh) {
    throw std::invalid_argument(
        "package.topology = cmesh: the concentrated mesh runs collectives only (aries coll, "
        "coll-sweep and the figures build its mesh of routers, coll::CmeshRouters); its routers "
        "route point-to-point packets by dimension order to a router, not to one of its four "
        "chiplets; allowed here mesh, torus, fbfly, aries");
  }
  if (cfg.k < 2 || cfg.k > (1u << hw::kCoordW)) {
    throw std::invalid_argument(fmt::format("package.k = {}: allowed 2 .. {} ({}-bit coordinates)",
                                            cfg.k, 1u << hw::kCoordW, hw::kCoordW));
  }
  if (cfg.threads < 1 || cfg.threads > 64) {
    throw std::invalid_argument(fmt::format("threads = {}: allowed 1 .. 64", cfg.threads));
  }
  if (ranks > cfg.k) {
    throw std::invalid_argument(fmt::format(
        "{} ranks for package.k = {}: at most one rank per row of nodes", ranks, cfg.k));
  }
}
}  // namespace

Package::Package(const PackageConfig& cfg, const NodeModelFactory& factory, uint64_t seed,
                 Transport* transport, const Waveform* wave)
    : cfg_(cfg), ctx_(std::make_unique<VerilatedContext>()), transport_(transport) {
  if (transport_ && transport_->ranks() == 1) transport_ = nullptr;
  const unsigned ranks = transport_ ? transport_->ranks() : 1;
  const unsigned my_rank = transport_ ? transport_->rank() : 0;
  CheckPackageConfig(cfg, ranks);
  const unsigned want_ports = coll::RouterPorts(cfg.topology, cfg.k);
  ctx_->randReset(2);
  ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
  ctx_->traceEverOn(true);
  const std::vector<unsigned> parts_of_rank = BuildNodes(factory, ranks, my_rank, want_ports);
  ReadNodeShape(want_ports);
  BuildPartitions(parts_of_rank[my_rank], my_rank);
  const std::vector<LinkSpec> fixed_links = coll::FixedLinks(cfg_);
  SizeArrivalRings(fixed_links);
  ResetNodes();
  WireChannels(fixed_links);
  if (!cfg_.faults.empty() && transport_ && transport_->ranks() > 1) {
    throw std::invalid_argument(
        "package.faults: faults run in one process (threads allowed), not on MPI ranks");
  }
  ApplyFaults();
  if (wave) OpenTrace(wave->path, wave->nodes, wave->from, wave->to);
  ProgramCtrl();
  CheckShape();
  if (cfg_.count_toggles && shape_.carried_lanes != shape_.lanes) {
    throw std::invalid_argument(fmt::format(
        "the package counts data toggles (energy) on every lane; its nodes carry {} of {}",
        shape_.carried_lanes, shape_.lanes));
  }
}

std::vector<unsigned> Package::BuildNodes(const NodeModelFactory& factory, unsigned ranks,
                                          unsigned my_rank, unsigned want_ports) {
  nodes_.resize(num_nodes());
  // Rows to ranks, then each rank's rows to its threads: partitions of whole rows (a row's
  // nodes share most of their links), as even as the rows allow; threads beyond the rows stay
  // without a partition.
  // Rank r has the rows y with y * ranks / k == r.
  auto first_row = [&](unsigned r) { return (r * cfg_.k + ranks - 1) / ranks; };
  std::vector<unsigned> parts_of_rank(ranks);
  for (unsigned r = 0; r < ranks; ++r) {
    parts_of_rank[r] = std::min(cfg_.threads, first_row(r + 1) - first_row(r));
  }
  for (unsigned n = 0; n < num_nodes(); ++n) {
    const unsigned y = n / cfg_.k;
    Node& nd = nodes_[n];
    nd.rank = y * ranks / cfg_.k;
    const unsigned first = first_row(nd.rank), rows = first_row(nd.rank + 1) - first;
    nd.part = nd.rank * cfg_.threads + (y - first) * parts_of_rank[nd.rank] / rows;
    if (nd.rank == my_rank) {
      nd.model = factory(want_ports, cfg_.local_ports, ctx_.get(), NodeName(n));
    }
  }
  return parts_of_rank;
}

void Package::ReadNodeShape(unsigned want_ports) {
  const auto first_local = std::find_if(nodes_.begin(), nodes_.end(),
                                        [](const Node& nd) { return nd.model != nullptr; });
  shape_ = first_local->model->shape();
  if (shape_.local_ports != cfg_.local_ports) {
    throw std::invalid_argument(
        fmt::format("node.local_ports = {}: the node model has {} local ports", cfg_.local_ports,
                    shape_.local_ports));
  }
  if (shape_.num_ports < want_ports) {
    throw std::invalid_argument(fmt::format(
        "package.topology = {} with package.k = {} needs {}-port routers; the model has {}",
        coll::TopologyName(cfg_.topology), cfg_.k, want_ports, shape_.num_ports));
  }
  if (cfg_.topology == Topology::kAries && cfg_.tracks > shape_.num_tracks) {
    throw std::invalid_argument(fmt::format(
        "package.tracks = {}: allowed 0 .. {} (the node model, package.node, is built with "
        "NumTracks = {}; a node built with tracks, or package.tracks = {})",
        cfg_.tracks, shape_.num_tracks, shape_.num_tracks, shape_.num_tracks));
  }
  if (cfg_.link_latency < shape_.link_in_regs) {
    throw std::invalid_argument(fmt::format(
        "package.link_latency = {}: allowed {} or more (the node registers what arrives on a "
        "link, and that register is the last wire cycle of every link)",
        cfg_.link_latency, shape_.link_in_regs));
  }
  if (shape_.num_links > 64 || shape_.num_link_vcs() > 8) {
    throw std::invalid_argument("node model: at most 64 links and 8 link VCs");
  }
}

void Package::BuildPartitions(unsigned parts, unsigned my_rank) {
  parts_.resize(parts);
  for (unsigned n = 0; n < num_nodes(); ++n) {
    if (nodes_[n].rank == my_rank) parts_[nodes_[n].part - my_rank * cfg_.threads].push_back(n);
  }
  pool_ = std::make_unique<TickPool>(parts);
  part_error_.resize(parts);
  run_part_ = [this](unsigned p) {
    try {
      StepPartition(p);
    } catch (...) {
      part_error_[p] = std::current_exception();
    }
  };
}

void Package::SizeArrivalRings(const std::vector<LinkSpec>& fixed_links) {
  // The arrival rings hold twice the longest link's lookahead (Channel): the fixed links', and
  // with bypass tracks a segment's across the package.
  unsigned longest = cfg_.topology == Topology::kAries && cfg_.tracks > 0
                         ? coll::LongestLinkLatency(cfg_)
                         : cfg_.link_latency;
  for (const LinkSpec& l : fixed_links)
    longest = std::max(longest, coll::LinkLatency(cfg_, l.pitches));
  arrival_ring_ = 1;
  while (arrival_ring_ < 2 * (longest - shape_.link_in_regs + 1)) arrival_ring_ *= 2;
  arrivals_.assign(static_cast<size_t>(num_nodes()) * arrival_ring_, 0);
  credit_arrivals_.assign(arrivals_.size(), 0);
}

void Package::ResetNodes() {
  const unsigned w = shape_.words();
  for (unsigned n = 0; n < num_nodes(); ++n) {
    Node& nd = nodes_[n];
    nd.in.Size(shape_);
    nd.out.Size(shape_);
    nd.in_ch.assign(shape_.num_links, nullptr);
    nd.out_ch.assign(shape_.num_links, nullptr);
    nd.out_pitches.assign(shape_.num_links, 0);
    nd.last_in.assign(shape_.num_links * w, 0);
    nd.last_out.assign(shape_.num_links * w, 0);
    nd.last_ep.assign(shape_.local_ports * w, 0);
    nd.counters.link_flits.assign(shape_.num_links, 0);
    nd.counters.link_toggles.assign(shape_.num_links, 0);
    nd.counters.link_flit_pitches.assign(shape_.num_links, 0);
    if (nd.model) nd.model->Reset(n % cfg_.k, n / cfg_.k);
  }
}

void Package::WireChannels(const std::vector<LinkSpec>& fixed_links) {
  for (const LinkSpec& l : fixed_links) Connect(l, fixed_);
  UpdateLookahead();
}

void Package::ProgramCtrl() {
  // Every router learns the topology and grid size.
  const hw::Topo topo = cfg_.topology == Topology::kTorus   ? hw::kTopoTorus
                        : cfg_.topology == Topology::kFbfly ? hw::kTopoFbfly
                                                            : hw::kTopoMesh;
  std::vector<RegOp> ops;
  for (unsigned n = 0; n < num_nodes(); ++n) {
    ops.push_back({n, true, hw::kRegCtrl, hw::CtrlValue(topo, cfg_.k, cfg_.k, cfg_.dynamic_vcs)});
  }
  Program(ops);
}

void Package::CheckShape() {
  // What the model says it is (NodeShape) against what every node's read-only registers say it
  // was built with: a model whose shape and parameters disagree is refused, naming both.
  struct Expect {
    uint32_t addr;
    uint32_t want;
    const char* field;
  };
  std::vector<Expect> ex = {
      {hw::kRegNumPorts, shape_.router_ports(), "num_ports + local_ports - 1"},
      {hw::kRegLocalPorts, shape_.local_ports, "local_ports"},
      {hw::kRegNumVcs, shape_.num_vcs, "num_vcs"},
      {hw::kRegBufferDepth, shape_.buffer_depth, "buffer_depth"},
      {hw::kRegNumFlows, shape_.num_flows, "num_flows"},
      {hw::kRegLanes, shape_.lanes, "lanes"},
      {hw::kRegNodeTracks, shape_.num_tracks, "num_tracks"},
      {hw::kRegNodeLinks, shape_.num_links, "num_links"},
      {hw::kRegEngId, hw::kEngIdValue, "coll_engine"},
      // (read on every model, so that every model's package starts in the
      // same cycle; refused without an engine)
      {hw::kRegEngParams,
       shape_.coll_ids | shape_.coll_prog << 8 | shape_.coll_depth << 16 | shape_.num_ports << 24,
       "coll_ids | coll_prog << 8 | coll_depth << 16 | num_ports << 24"}};
  std::vector<RegOp> ops;
  for (unsigned n = 0; n < num_nodes(); ++n) {
    for (const Expect& e : ex) ops.push_back({n, false, e.addr, 0});
  }
  const std::vector<RegResult> res = Access(ops);
  for (size_t i = 0; i < ops.size(); ++i) {
    const Expect& e = ex[i % ex.size()];
    const bool engine_id = e.addr == hw::kRegEngId;
    const bool engine_reg = (e.addr >> 8) == hw::kEngRegPage;
    const bool ok = engine_reg
                        ? res[i].ok == shape_.coll_engine && (!res[i].ok || res[i].rdata == e.want)
                        : res[i].ok && res[i].rdata == e.want;
    if (ok) continue;
    throw std::invalid_argument(fmt::format(
        "node model of {}: {}, but its shape says {} = {}", NodeName(ops[i].node),
        engine_id    ? (res[i].ok ? "it has a collective engine (ENG_ID answers)"
                                  : "it has no collective engine (ENG_ID refused)")
        : res[i].ok  ? fmt::format("register 0x{:04x} reads {}", e.addr, res[i].rdata)
        : engine_reg ? "it has no collective engine (ENG_PARAMS refused)"
                     : fmt::format("register 0x{:04x} is refused", e.addr),
        e.field, engine_id ? (shape_.coll_engine ? "true" : "false") : std::to_string(e.want)));
  }
  {  // refused ENG_ID reads (no engine) set the sticky CFG_ERR bits: clear them (on every model,
     // so that every model's package starts in the same cycle)
    ops.clear();
    for (unsigned n = 0; n < num_nodes(); ++n) {
      ops.push_back({n, true, hw::kRegStatus, 1u << hw::kStatusCfgErrBit});
      ops.push_back({n, true, hw::kRegNodeStatus, 1u << hw::kNodeStatusCfgErrBit});
    }
    Program(ops);
    if (AnyError()) throw std::logic_error("a node kept its error output after the shape check");
  }
}

Package::~Package() {
  CloseTrace();
  nodes_.clear();
}

std::string Package::NodeName(unsigned n) const {
  return fmt::format("node{}", n);  // numbered as everywhere else: y * K + x
}

void Package::AttachEndpoint(unsigned node, Endpoint* ep) { nodes_.at(node).ep = ep; }

void Package::Connect(const LinkSpec& l, std::vector<std::unique_ptr<Channel>>& into) {
  const unsigned lat = coll::LinkLatency(cfg_, l.pitches);
  if (2 * (lat - shape_.link_in_regs + 1) > arrival_ring_) {  // (the constructor sized it)
    throw std::logic_error(fmt::format("link {}: {} cycles, beyond the arrival rings of {}", l.name,
                                       lat, arrival_ring_));
  }
  const unsigned w = shape_.words();
  auto one = [&](unsigned s, unsigned sl, unsigned d, unsigned dl, const char* dir) {
    into.push_back(std::make_unique<Channel>(fmt::format("{}{}", l.name, dir), lat,
                                             shape_.link_in_regs, w, s, sl, d, dl));
    nodes_[s].out_ch[sl] = into.back().get();
    nodes_[s].out_links |= uint64_t{1} << sl;
    nodes_[s].out_pitches[sl] = l.pitches;
    nodes_[d].in_ch[dl] = into.back().get();
    nodes_[d].in_links |= uint64_t{1} << dl;
  };
  one(l.a, l.la, l.b, l.lb, "+");
  one(l.b, l.lb, l.a, l.la, "-");
}

void Package::UpdateLookahead() {
  lookahead_ = kNoLookahead;
  borders_.clear();
  unsigned least = kMaxWindow;
  // Nodes with a channel in from another partition: their arrival words are marked with atomic
  // operations (Channel::SetArrivals), the others' plainly (a locked operation costs the sender
  // a drain of its stores: most of a flit's send with two threads).
  // (Credits: the same for the node a channel's credits go back to, its sender.)
  std::vector<bool> shared(num_nodes(), false), shared_credits(num_nodes(), false);
  for (const Channel* ch : Channels()) {
    least = std::min(least, ch->lookahead());
    if (nodes_[ch->src()].part != nodes_[ch->dst()].part) {
      lookahead_ = std::min(lookahead_, ch->lookahead());
      shared[ch->dst()] = true;
      shared_credits[ch->src()] = true;
    }
    // Built in the same order on every rank (fixed links, then the segments all ranks resolve).
    if (nodes_[ch->src()].rank != nodes_[ch->dst()].rank) {
      borders_.push_back(const_cast<Channel*>(ch));
    }
  }
  node_block_ = std::max(1u, least);
  for (auto* channels : {&fixed_, &segments_}) {
    for (const std::unique_ptr<Channel>& ch : *channels) {
      ch->SetArrivals(&arrivals_[static_cast<size_t>(ch->dst()) * arrival_ring_], arrival_ring_ - 1,
                      shared[ch->dst()]);
      ch->SetCreditArrivals(&credit_arrivals_[static_cast<size_t>(ch->src()) * arrival_ring_],
                            arrival_ring_ - 1, shared_credits[ch->src()]);
    }
  }
}

void Package::RebuildSegments() {
  bool changed = false;
  for (const Node& nd : nodes_) changed = changed || nd.out.bypass != nd.bypass;
  if (!changed) return;
  std::string busy;
  for (const auto& ch : segments_) {
    if (busy.empty() && (IsLocal(ch->src()) || IsLocal(ch->dst())) &&
        ch->InFlight(cycle_ == 0 ? 0 : cycle_ - 1)) {
      busy = ch->name();
    }
  }
  if (transport_ ? transport_->Any(!busy.empty()) : !busy.empty()) {
    throw RegisterError(fmt::format(
        "bypass switches changed while segment {} carried traffic: reconfigure a drained "
        "package only",
        busy.empty() ? "(of another rank)" : busy));
  }
  for (Node& nd : nodes_) nd.bypass = nd.out.bypass;  // the switches the segments follow
  for (const auto& ch : segments_) {
    Node& src = nodes_[ch->src()];
    Node& dst = nodes_[ch->dst()];
    src.out_ch[ch->src_link()] = nullptr;
    src.out_links &= ~(uint64_t{1} << ch->src_link());
    src.in.link_credit[ch->src_link()] = 0;  // no wires, no credits (Gather skips the link)
    dst.in_ch[ch->dst_link()] = nullptr;
    dst.in_links &= ~(uint64_t{1} << ch->dst_link());
  }
  segments_.clear();
  segment_sites_.clear();
  const unsigned k = cfg_.k, tm = shape_.num_tracks;
  for (unsigned d = 0; d < 2; ++d) {
    for (unsigned line = 0; line < k; ++line) {
      for (unsigned t = 0; t < tm; ++t) {
        std::vector<bool> cut(k);
        for (unsigned i = 0; i < k; ++i) {
          const unsigned n = d == 0 ? NodeId(i, line) : NodeId(line, i);
          cut[i] = (nodes_[n].bypass >> ((d == 0 ? hw::kBypassXLsb : hw::kBypassYLsb) + t)) & 1u;
        }
        for (auto [a, b] : coll::ResolveSegments(cut)) {
          const unsigned na = d == 0 ? NodeId(a, line) : NodeId(line, a);
          const unsigned nb = d == 0 ? NodeId(b, line) : NodeId(line, b);
          Connect({na, coll::TapLink(tm, d, t, 1), nb, coll::TapLink(tm, d, t, 0), b - a,
                   fmt::format("{}track{}.{}:{}-{}", d == 0 ? "x" : "y", t, line, a, b)},
                  segments_);
          coll::Fault site;
          site.kind = coll::FaultKind::kSegment;
          site.dim = d;
          site.line = line;
          site.track = t;
          site.a = a;
          site.b = b;
          segment_sites_.push_back(site);
          segment_sites_.push_back(site);
        }
      }
    }
  }
  UpdateLookahead();
}

uint64_t Package::Toggles(std::vector<uint32_t>& last, size_t at, const uint32_t* flit) const {
  // Two words at a time (one 64-bit popcount each), then the odd word.
  const unsigned w = shape_.words();
  uint32_t* prev = &last[at];
  uint64_t t = 0;
  unsigned i = 0;
  for (; i + 1 < w; i += 2) {
    uint64_t a, b;
    std::memcpy(&a, prev + i, sizeof a);
    std::memcpy(&b, flit + i, sizeof b);
    t += static_cast<uint64_t>(__builtin_popcountll(a ^ b));
  }
  if (i < w) t += static_cast<uint64_t>(__builtin_popcount(prev[i] ^ flit[i]));
  CopyFlit(prev, flit, w);
  return t;
}

void Package::CountArrival(NodeCounters& k, const uint32_t* flit, std::vector<uint32_t>& last,
                           size_t at) const {
  const unsigned vc = (flit[0] >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u);
  if (vc < shape_.num_vcs) {
    ++k.buffer_writes;
    if (cfg_.count_toggles) k.buffer_toggles += Toggles(last, at, flit);
  } else if (vc == shape_.num_vcs) {
    ++k.engine_requests;
  } else {
    ++k.engine_responses;
  }
}

bool Package::Gather(unsigned n, uint64_t cycle) {
  Node& nd = nodes_[n];
  NodeIn& in = nd.in;
  NodeCounters& k = nd.counters;
  const unsigned w = shape_.words();
  in.link_valid = 0;
  // Only the links with a flit arriving (a link without wires has no channel to mark one).
  uint64_t& arriving =
      arrivals_[static_cast<size_t>(n) * arrival_ring_ + (cycle & (arrival_ring_ - 1))];
  const uint64_t marked = arriving & nd.in_links;
  arriving = 0;
  for (uint64_t m = marked; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (const uint32_t* f = nd.in_ch[l]->FlitAt(cycle)) {  // (a mark outlives a rebuilt link)
      CopyFlit(&in.link_flit[l * w], f, w);
      in.link_valid |= uint64_t{1} << l;
      CountArrival(k, f, nd.last_in, l * w);  // a node with an arriving flit is never skipped
    }
  }
  // Credits: only the links with one arriving (and those set last time cleared).
  for (uint64_t m = nd.credit_links; m != 0; m &= m - 1)
    in.link_credit[static_cast<unsigned>(__builtin_ctzll(m))] = 0;
  uint64_t& crediting =
      credit_arrivals_[static_cast<size_t>(n) * arrival_ring_ + (cycle & (arrival_ring_ - 1))];
  nd.credit_links = crediting & nd.out_links;
  crediting = 0;
  uint8_t credit_or = 0;
  for (uint64_t m = nd.credit_links; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    const uint8_t c = nd.out_ch[l]->CreditAt(cycle);
    in.link_credit[l] = c;
    credit_or |= c;
  }
  const bool credits = credit_or != 0;
  const uint64_t ep_cycle = cycle + shape_.ep_lead;
  in.ep_valid = 0;
  uint8_t ep_credit_or = 0;
  if (nd.ep) {
    // (The calls that would do nothing left out: Endpoint::may_inject, may_free.)
    const bool inject = nd.ep->may_inject(), free = nd.ep->may_free();
    for (unsigned i = 0; i < shape_.local_ports; ++i) {
      if (inject && nd.ep->Inject(ep_cycle, i, &in.ep_flit[i * w])) in.ep_valid |= 1u << i;
      in.ep_credit[i] = free ? nd.ep->EjectCredits(ep_cycle, i) : 0;
      ep_credit_or |= in.ep_credit[i];
    }
  }
  in.cfg_req = false;
  if (!nd.waiting && nd.next < nd.queue.size()) {
    const RegOp& op = (*ops_)[nd.queue[nd.next]];
    in.cfg_req = true;
    in.cfg_we = op.write;
    in.cfg_addr = op.addr;
    in.cfg_wdata = op.value;
    nd.waiting = true;
    nd.waiting_op = nd.queue[nd.next];
  }
  const bool quiet_inputs =
      in.link_valid == 0 && !credits && in.ep_valid == 0 && ep_credit_or == 0 && !in.cfg_req;
  if (cfg_.skip_idle && nd.out.idle && quiet_inputs && !trace_) {
    if (nd.ep && !nd.ep->quiet_edges()) {
      EndpointEdge e;
      e.ports = shape_.local_ports;
      nd.ep->AfterEdge(ep_cycle, e);
    }
    return false;
  }
  ++k.evaluated;
  for (unsigned m = in.ep_valid; m != 0; m &= m - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctz(m));
    ++k.injected;
    CountArrival(k, &in.ep_flit[i * w], nd.last_ep, i * w);
    if (flit_observer_) {
      flit_observer_({FlitEvent::kInject, cycle, n, i, nullptr, &in.ep_flit[i * w]});
    }
  }
  return true;
}

void Package::Scatter(unsigned n, uint64_t cycle) {
  Node& nd = nodes_[n];
  const NodeOut& out = nd.out;
  const unsigned w = shape_.words();
  NodeCounters& k = nd.counters;
  auto leave = [&](const uint32_t* f) {
    if (((f[0] >> hw::kHdrVcLsb) & ((1u << hw::kVcIdW) - 1u)) < shape_.num_vcs) {
      ++k.xbar_traversals;
      k.va_grants += (f[0] >> hw::kHdrHeadBit) & 1u;
    } else {
      ++k.engine_out;
    }
  };
  if (out.link_valid != 0) {
    for (uint64_t m = out.link_valid; m != 0; m &= m - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
      leave(&out.link_flit[l * w]);
      ++k.link_flits[l];
      if (cfg_.count_toggles)
        k.link_toggles[l] += Toggles(nd.last_out, l * w, &out.link_flit[l * w]);
      k.link_flit_pitches[l] += nd.out_pitches[l];  // the wire's length (LinkSpec::pitches)
      if (Channel* ch = nd.out_ch[l]) {
        ch->SendFlit(cycle, &out.link_flit[l * w]);
        if (flit_observer_) {
          flit_observer_({FlitEvent::kHop, cycle, n, l, ch, &out.link_flit[l * w]});
        }
      } else {
        throw std::runtime_error(fmt::format(
            "cycle {}: {} drove a flit onto link {}, which has no wires on this interposer", cycle,
            NodeName(n), l));
      }
    }
  }
  for (uint64_t m = out.link_credit_any; m != 0; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
    if (Channel* ch = nd.in_ch[l]) {
      ch->SendCredit(cycle, out.link_credit[l]);
    } else {
      throw std::runtime_error(fmt::format(
          "cycle {}: {} returned a credit on link {}, which has no wires on this interposer", cycle,
          NodeName(n), l));
    }
  }
  EndpointEdge edge;
  edge.ports = shape_.local_ports;
  uint8_t credit_or = 0;
  for (unsigned i = 0; i < shape_.local_ports; ++i) {
    edge.credits[i] = out.ep_credit[i];
    credit_or |= out.ep_credit[i];
    if (!((out.ep_valid >> i) & 1u)) continue;
    const uint32_t* f = &out.ep_flit[i * w];
    edge.ejected[i] = f;
    ++k.ejected;
    leave(f);
    if (flit_observer_) flit_observer_({FlitEvent::kEject, cycle, n, i, nullptr, f});
  }
  if (nd.ep && (out.ep_valid != 0 || credit_or != 0 || !nd.ep->quiet_edges()))
    nd.ep->AfterEdge(cycle + shape_.ep_lead, edge);
  if (out.cfg_rsp && nd.waiting) {
    const RegOp& op = (*ops_)[nd.waiting_op];
    if (op.write && !out.cfg_err) {  // an accepted write: count the muxes and switches it moved
      if (op.addr > hw::kRegPortSelBase && op.addr < hw::kRegPortSelBase + hw::kNumMeshPorts) {
        uint32_t& old = nd.portsel[op.addr - hw::kRegPortSelBase];
        const uint32_t diff = op.value ^ old;  // [3:0] input side, [11:8] output side
        k.portsel_changes += ((diff & 0xFu) != 0 ? 1 : 0) + ((diff & 0xF00u) != 0 ? 1 : 0);
        old = op.value;
      } else if (op.addr == hw::kRegBypass) {
        k.bypass_changes += static_cast<uint64_t>(__builtin_popcount(op.value ^ nd.bypass_reg));
        nd.bypass_reg = op.value;
      }
    }
    (*results_)[nd.waiting_op] = {!out.cfg_err, out.cfg_rdata};
    nd.waiting = false;
    ++nd.next;
  }
}

void Package::StepNodeAt(unsigned n, uint64_t cycle) {
  if (!Gather(n, cycle)) return;
  nodes_[n].model->Tick(nodes_[n].in, nodes_[n].out);
  Scatter(n, cycle);
}

void Package::StepNode(unsigned n) {
  if (transport_) {
    throw std::logic_error(
        "StepNode (the SystemC kernel) on a package distributed over ranks: "
        "ranks exchange their borders only in Run()");
  }
  if (observer_ && observed_to_ <= endpoint_cycle()) {  // the cycle's first node
    observer_->BeforeWindow(endpoint_cycle(), endpoint_cycle() + 1);
    observed_to_ = endpoint_cycle() + 1;
  }
  StepNodeAt(n, cycle_);
}

void Package::EndCycle() {
  DumpTrace();
  ++cycle_;
  if (observer_) observer_->AfterWindow(true);
}

void Package::StepPartition(unsigned p) {
  // Node by node through blocks of node_block_ cycles: what a node sends in a block arrives
  // after it (every channel's lookahead is at least the block), so each node's cycles see the
  // same inputs as cycle by cycle, and its state stays in the cache for the block. The window
  // observer sorts what it sees by (cycle, node) as it does for threads; the flit log and the
  // trace see the cycles in order, so with one of them the package steps cycle by cycle.
  const unsigned b = flit_observer_ || trace_ ? 1u : node_block_;
  for (unsigned c0 = 0; c0 < window_; c0 += b) {
    const unsigned ce = std::min(window_, c0 + b);
    for (unsigned n : parts_[p]) {
      for (unsigned c = c0; c < ce; ++c) StepNodeAt(n, cycle_ + c);
    }
  }
}

void Package::RunWindow(unsigned w) {
  if (observer_) {
    observer_->BeforeWindow(endpoint_cycle(), endpoint_cycle() + w);
    observed_to_ = endpoint_cycle() + w;
  }
  window_ = w;
  std::exception_ptr error;
  if (parts_.size() == 1) {
    try {
      StepPartition(0);
    } catch (...) {
      error = std::current_exception();
    }
  } else {
    pool_->Run(num_partitions(), run_part_);
    for (std::exception_ptr& e : part_error_) {
      if (e && !error) error = e;
      e = nullptr;
    }
  }
  // Every rank learns whether any failed (the exchange carries it), so all stop together.
  const bool failed = transport_ ? ExchangeBorders(cycle_, w, error != nullptr) : error != nullptr;
  if (failed) {
    broken_ = true;  // partitions stopped at different cycles: nothing more can be trusted
    if (error) std::rethrow_exception(error);
    throw std::runtime_error(fmt::format("cycle {}: another rank of the package failed", cycle_));
  }
  DumpTrace();  // (w == 1 while a trace is open)
  cycle_ += w;
}

bool Package::ExchangeBorders(uint64_t from, unsigned w, bool failed) {
  // Per peer rank: a byte saying whether this rank failed in the window, then (border channel
  // index, 0 flit / 1 credit, arrival cycle, words or mask) records. A channel's flits are
  // written on its sender's rank, its credits on its receiver's.
  std::vector<Bytes> out(transport_->ranks(), Bytes{static_cast<uint8_t>(failed ? 1 : 0)});
  for (uint32_t i = 0; i < borders_.size(); ++i) {
    const Channel& ch = *borders_[i];
    const unsigned rs = nodes_[ch.src()].rank, rd = nodes_[ch.dst()].rank;
    if (rs == transport_->rank()) {
      ByteWriter bw(out[rd]);
      ch.ForEachFlitSent(from, from + w, [&](uint64_t at, const uint32_t* f) {
        bw.Put(i);
        bw.Put<uint8_t>(0);
        bw.Put(at);
        bw.PutWords(f, ch.words());
      });
    } else if (rd == transport_->rank()) {
      ByteWriter bw(out[rs]);
      ch.ForEachCreditSent(from, from + w, [&](uint64_t at, uint8_t c) {
        bw.Put(i);
        bw.Put<uint8_t>(1);
        bw.Put(at);
        bw.Put(c);
      });
    }
  }
  const std::vector<Bytes> in = transport_->Exchange(out);
  std::vector<uint32_t> words(shape_.words());
  bool any_failed = failed;
  for (unsigned r = 0; r < in.size(); ++r) {
    if (r == transport_->rank()) continue;
    ByteReader br(in[r]);
    any_failed = any_failed || br.Get<uint8_t>() != 0;
    if (any_failed) continue;
    while (!br.done()) {
      const auto i = br.Get<uint32_t>();
      const auto kind = br.Get<uint8_t>();
      const auto at = br.Get<uint64_t>();
      Channel& ch = *borders_.at(i);
      if (kind == 0) {
        br.Words(words.data(), shape_.words());
        ch.PutFlit(at, words.data());
      } else {
        ch.PutCredit(at, br.Get<uint8_t>());
      }
    }
  }
  return any_failed;
}

void Package::GatherCounters() {
  if (!transport_) return;
  // Every node's counters and every channel's flit count as one vector: each rank fills in
  // what it steps (zeros elsewhere), and the sum is everyone's.
  const unsigned nl = shape_.num_links;
  const size_t per_node = 12 + 3 * nl;
  const std::vector<const Channel*> chans = Channels();
  std::vector<uint64_t> v(num_nodes() * per_node + chans.size(), 0);
  for (unsigned n = 0; n < num_nodes(); ++n) {
    if (!IsLocal(n)) continue;
    const NodeCounters& k = nodes_[n].counters;
    uint64_t* o = &v[n * per_node];
    const uint64_t fixed[12] = {k.evaluated,      k.injected,        k.ejected,
                                k.buffer_writes,  k.xbar_traversals, k.va_grants,
                                k.buffer_toggles, k.engine_requests, k.engine_responses,
                                k.engine_out,     k.portsel_changes, k.bypass_changes};
    std::copy(fixed, fixed + 12, o);
    std::copy(k.link_flits.begin(), k.link_flits.end(), o + 12);
    std::copy(k.link_toggles.begin(), k.link_toggles.end(), o + 12 + nl);
    std::copy(k.link_flit_pitches.begin(), k.link_flit_pitches.end(), o + 12 + 2 * nl);
  }
  for (size_t i = 0; i < chans.size(); ++i) {
    if (IsLocal(chans[i]->src())) v[num_nodes() * per_node + i] = chans[i]->flits_sent();
  }
  transport_->AllReduce(v, Transport::Reduce::kSum);
  for (unsigned n = 0; n < num_nodes(); ++n) {
    if (IsLocal(n)) continue;
    NodeCounters& k = nodes_[n].counters;
    const uint64_t* o = &v[n * per_node];
    uint64_t* fixed[12] = {&k.evaluated,      &k.injected,        &k.ejected,
                           &k.buffer_writes,  &k.xbar_traversals, &k.va_grants,
                           &k.buffer_toggles, &k.engine_requests, &k.engine_responses,
                           &k.engine_out,     &k.portsel_changes, &k.bypass_changes};
    for (unsigned j = 0; j < 12; ++j) *fixed[j] = o[j];
    std::copy(o + 12, o + 12 + nl, k.link_flits.begin());
    std::copy(o + 12 + nl, o + 12 + 2 * nl, k.link_toggles.begin());
    std::copy(o + 12 + 2 * nl, o + 12 + 3 * nl, k.link_flit_pitches.begin());
  }
  for (size_t i = 0; i < chans.size(); ++i) {
    const_cast<Channel*>(chans[i])->set_flits_sent(v[num_nodes() * per_node + i]);
  }
}

void Package::SyncBypass() {
  if (!transport_) return;
  std::vector<uint64_t> v(num_nodes(), 0);
  for (unsigned n = 0; n < num_nodes(); ++n) {
    if (IsLocal(n)) v[n] = nodes_[n].out.bypass;
  }
  transport_->AllReduce(v, Transport::Reduce::kOr);
  for (unsigned n = 0; n < num_nodes(); ++n) nodes_[n].out.bypass = static_cast<uint32_t>(v[n]);
}

void Package::Run(uint64_t cycles) {
  if (broken_) {
    throw std::logic_error(
        "this package stopped on an error in the middle of a window; build a "
        "new one");
  }
  // Windows of at most kMaxWindow cycles even without a partition border: the traffic makes a
  // window's packets before it starts.
  const uint64_t most = trace_ ? 1 : std::min(lookahead_, kMaxWindow);
  while (cycles > 0) {
    const unsigned w = static_cast<unsigned>(std::min(cycles, most));
    RunWindow(w);
    cycles -= w;
    if (observer_) observer_->AfterWindow(cycles == 0);
  }
}

std::vector<RegResult> Package::Access(const std::vector<RegOp>& ops) {
  std::vector<RegResult> res(ops.size(), RegResult{false, 0});
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].node >= num_nodes()) {
      throw RegisterError(fmt::format("register access to node {}: the package has nodes 0 .. {}",
                                      ops[i].node, num_nodes() - 1));
    }
  }
  for (Node& nd : nodes_) {
    nd.queue.clear();
    nd.next = 0;
    nd.waiting = false;
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    if (IsLocal(ops[i].node)) nodes_[ops[i].node].queue.push_back(i);
  }
  results_ = &res;
  ops_ = &ops;
  struct Unwind {  // an exception leaves no pointer to this call's locals behind
    Package* p;
    ~Unwind() {
      for (Node& nd : p->nodes_) {
        nd.queue.clear();
        nd.waiting = false;
      }
      p->results_ = nullptr;
      p->ops_ = nullptr;
    }
  } unwind{this};
  const uint64_t limit = cycle_ + 4 * ops.size() + 16;
  auto pending = [this] {
    bool any = false;
    for (const Node& nd : nodes_) any = any || nd.waiting || nd.next < nd.queue.size();
    return transport_ ? transport_->Any(any) : any;
  };
  while (pending()) {
    if (cycle_ > limit) throw std::runtime_error("register bus: a response never came");
    Step();
  }
  if (transport_) {  // each op was answered on the rank of its node
    std::vector<uint64_t> v(2 * ops.size(), 0);
    for (size_t i = 0; i < ops.size(); ++i) {
      if (!IsLocal(ops[i].node)) continue;
      v[2 * i] = res[i].ok ? 1 : 0;
      v[2 * i + 1] = res[i].rdata;
    }
    transport_->AllReduce(v, Transport::Reduce::kOr);
    for (size_t i = 0; i < ops.size(); ++i) {
      res[i] = {v[2 * i] != 0, static_cast<uint32_t>(v[2 * i + 1])};
    }
  }
  SyncBypass();
  RebuildSegments();
  ApplyFaults();
  return res;
}

unsigned Package::LinkPort(unsigned node, unsigned link, bool out) const {
  for (unsigned p = 1; p < shape_.num_ports; ++p)
    if (PortLink(node, p, out) == link) return p;
  return ~0u;
}

unsigned Package::PortLink(unsigned node, unsigned port, bool out) const {
  if (port == 0 || port >= shape_.num_ports) return ~0u;
  if (shape_.num_ports != 5 || shape_.num_tracks == 0) return port - 1;  // fixed: link p - 1
  const uint32_t v = nodes_[node].portsel[port];
  const unsigned c =
      (v >> (out ? hw::kPortSelOutLsb : hw::kPortSelInLsb)) & ((1u << hw::kPortSelChoiceW) - 1);
  if (c == 0) return port - 1;
  const unsigned T = shape_.num_tracks, d = (c - 1) / T, t = (c - 1) % T;
  const bool upper = port == hw::kPortXP || port == hw::kPortYP;
  return coll::TapLink(T, d, t, upper ? 1 : 0);
}

void Package::ApplyFaults() {
  if (cfg_.faults.empty()) return;
  std::vector<Channel*> all;
  for (const auto& c : fixed_) all.push_back(c.get());
  for (const auto& c : segments_) all.push_back(c.get());
  for (Channel* c : all) c->SetDeadFrom(Channel::kAlive);
  fault_of_.clear();
  size_t cause = 0;  // the fault being applied (its index)
  auto kill = [this, &cause](Channel* c, uint64_t from) {
    if (c && from < c->dead_from()) {
      c->SetDeadFrom(from);
      fault_of_[c] = cause;
    }
  };
  for (; cause < cfg_.faults.faults.size(); ++cause) {
    const coll::Fault& f = cfg_.faults.faults[cause];
    switch (f.kind) {
      case coll::FaultKind::kLink:
        for (const auto& c : fixed_) {
          if (std::min(c->src(), c->dst()) == f.a && std::max(c->src(), c->dst()) == f.b) {
            kill(c.get(), f.from);
          }
        }
        break;
      case coll::FaultKind::kSegment:
      case coll::FaultKind::kSwitch:
        for (size_t i = 0; i < segments_.size(); ++i) {
          const coll::Fault& s = segment_sites_[i];
          if (s.dim != f.dim || s.line != f.line || s.track != f.track) continue;
          const bool hit = f.kind == coll::FaultKind::kSegment
                               ? std::max(f.a, s.a) < std::min(f.b, s.b)
                               : f.a >= s.a && f.a <= s.b;
          if (hit) kill(segments_[i].get(), f.from);
        }
        break;
      case coll::FaultKind::kPort: {
        if (!IsLocal(f.node)) break;
        const unsigned lo = PortLink(f.node, f.port, true), li = PortLink(f.node, f.port, false);
        if (lo < shape_.num_links) kill(nodes_[f.node].out_ch[lo], f.from);
        if (li < shape_.num_links) kill(nodes_[f.node].in_ch[li], f.from);
        break;
      }
    }
  }
}

std::vector<Package::LostLink> Package::LostLinks() const {
  std::vector<LostLink> v;
  // The fault that killed channel c, from reset; `seen` (its link or span) if none is known.
  auto cause = [this](const Channel* c, coll::Fault seen) {
    if (const auto it = fault_of_.find(c); it != fault_of_.end()) {
      seen = cfg_.faults.faults[it->second];
      seen.from = 0;
    }
    return seen;
  };
  for (const auto& c : fixed_) {
    if (c->flits_lost() == 0 && c->credits_lost() == 0) continue;
    coll::Fault f;
    f.a = std::min(c->src(), c->dst());
    f.b = std::max(c->src(), c->dst());
    v.push_back({c.get(), cause(c.get(), f)});
  }
  for (size_t i = 0; i < segments_.size(); ++i) {
    const Channel* c = segments_[i].get();
    if (c->flits_lost() != 0 || c->credits_lost() != 0) {
      v.push_back({c, cause(c, segment_sites_[i])});
    }
  }
  return v;
}

std::string Package::LostLink::Describe(const Package& p) const {
  return fmt::format(
      "link {} ({} link {} -> {} link {}): {} flits sent and never received, {} credits sent "
      "back and never received: the wires are dead (plan around '{}')",
      channel->name(), p.NodeName(channel->src()), channel->src_link(), p.NodeName(channel->dst()),
      channel->dst_link(), channel->flits_lost(), channel->credits_lost(), fault.Name(p.config()));
}

void Package::Program(const std::vector<RegOp>& ops) {
  const std::vector<RegResult> res = Access(ops);
  std::string msg;
  unsigned bad = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (res[i].ok) continue;
    ++bad;
    const RegOp& op = ops[i];
    msg += fmt::format("\n  {}: {} {}{}: {}", NodeName(op.node), op.write ? "write" : "read",
                       RegName(op.addr), op.write ? fmt::format(" = 0x{:08x}", op.value) : "",
                       ExplainRefusal(op));
  }
  if (bad != 0) {
    throw RegisterError(fmt::format("{} of {} register accesses refused:{}", bad, ops.size(), msg));
  }
}

void Package::Write(unsigned node, uint32_t addr, uint32_t value) {
  Program({{node, true, addr, value}});
}

uint32_t Package::Read(unsigned node, uint32_t addr) {
  const std::vector<RegOp> ops{{node, false, addr, 0}};
  const auto res = Access(ops);
  if (!res[0].ok) {
    throw RegisterError(
        fmt::format("{}: read {}: {}", NodeName(node), RegName(addr), ExplainRefusal(ops[0])));
  }
  return res[0].rdata;
}

const hw::RegDesc* Package::FindReg(uint32_t a, unsigned* index) const {
  const unsigned np = shape_.num_ports;
  for (const hw::RegDesc& r : hw::kRegisters) {
    if (std::string_view(r.block) == "engine" && !shape_.coll_engine) continue;
    unsigned i = 0;
    bool hit = false;
    switch (r.window) {
      case hw::RegWindow::kSingle:
        hit = a == r.addr;
        break;
      case hw::RegWindow::kPerPort:
        hit = a >= r.addr && a < r.addr + np;
        i = a - r.addr;
        break;
      case hw::RegWindow::kPerMeshPort:  // every node decodes them (a node without muxes refuses)
        hit = a > r.addr && a < r.addr + hw::kNumMeshPorts;
        i = a - r.addr;
        break;
      case hw::RegWindow::kPerStep:
        hit = a >= r.addr && a < r.addr + shape_.coll_prog;
        i = a - r.addr;
        break;
      case hw::RegWindow::kPerId:
        hit = a >= r.addr && a < r.addr + hw::kEngIdStride * shape_.coll_ids &&
              (a - r.addr) % hw::kEngIdStride == r.offset;
        i = (a - r.addr) / hw::kEngIdStride;
        break;
      case hw::RegWindow::kRoute:
        i = a - r.addr;
        hit = a >= r.addr && (i >> hw::kRouteFlowLsb) < shape_.num_flows &&
              (i & ((1u << hw::kRouteFlowLsb) - 1)) < np;
        break;
    }
    if (hit) {
      if (index) *index = i;
      return &r;
    }
  }
  return nullptr;
}

std::string Package::RegName(uint32_t a) const {
  unsigned i = 0;
  const hw::RegDesc* r = FindReg(a, &i);
  if (!r) return fmt::format("0x{:04x} (unmapped)", a);
  switch (r->window) {
    case hw::RegWindow::kSingle:
      return r->name;
    case hw::RegWindow::kPerPort:
      return fmt::format("{}[{}]", r->name, PortName(i, shape_.num_ports));
    case hw::RegWindow::kPerMeshPort:
      return fmt::format("{}[{}]", r->name, kPortNames[i]);
    case hw::RegWindow::kPerStep:
      return fmt::format("{}[{}]", r->name, i);
    case hw::RegWindow::kPerId:
      return fmt::format("{}[id {}]", r->name, i);
    case hw::RegWindow::kRoute:
      return fmt::format("{}[flow {}][in {}]", r->name, i >> hw::kRouteFlowLsb,
                         PortName(i & ((1u << hw::kRouteFlowLsb) - 1), shape_.num_ports));
  }
  return r->name;
}

// The map in a line, from the register table: "router 0x0000-0x0005, 0x0008-0x000D, ...".
std::string Package::RegMapSummary() const {
  std::string out;
  const char* block = "";
  uint32_t run_from = 0, run_to = 0;
  bool in_run = false;
  auto close_run = [&] {
    if (!in_run) return;
    out += run_from == run_to ? fmt::format(" 0x{:04X},", run_from)
                              : fmt::format(" 0x{:04X}-0x{:04X},", run_from, run_to);
    in_run = false;
  };
  for (const hw::RegDesc& r : hw::kRegisters) {
    if (std::string_view(r.block) == "engine" && !shape_.coll_engine) continue;
    if (std::string_view(r.block) != block) {
      close_run();
      if (!out.empty()) out.back() = ';';
      out += fmt::format("{}{}", out.empty() ? "" : " ", r.block);
      block = r.block;
    }
    if (r.window == hw::RegWindow::kSingle) {
      if (in_run && r.addr == run_to + 1) {
        run_to = r.addr;
      } else {
        close_run();
        run_from = run_to = r.addr;
        in_run = true;
      }
      continue;
    }
    close_run();
    switch (r.window) {
      case hw::RegWindow::kPerPort:
        out += fmt::format(" 0x{:04X} + port (< {}),", r.addr, shape_.num_ports);
        break;
      case hw::RegWindow::kPerMeshPort:
        out += fmt::format(" 0x{:04X} + port (1..4),", r.addr);
        break;
      case hw::RegWindow::kPerStep:
        out += fmt::format(" 0x{:04X} + step (< {}),", r.addr, shape_.coll_prog);
        break;
      case hw::RegWindow::kPerId:
        if (r.offset == 0) {
          out += fmt::format(" 0x{:04X} + {}*id + 0..{} (id < {}),", r.addr, hw::kEngIdStride,
                             hw::kEngIdStride - 1, shape_.coll_ids);
        }
        break;
      case hw::RegWindow::kRoute:
        out += fmt::format(" 0x{:04X} + (flow << {}) + port (flow < {}),", r.addr,
                           hw::kRouteFlowLsb, shape_.num_flows);
        break;
      case hw::RegWindow::kSingle:
        break;
    }
  }
  close_run();
  if (!out.empty() && out.back() == ',') out.pop_back();
  return out;
}

std::string Package::ExplainRefusal(const RegOp& op) const {
  const unsigned np = shape_.num_ports;
  const uint32_t a = op.addr, v = op.value;
  const hw::RegDesc* reg = FindReg(a, nullptr);
  if (!reg) return fmt::format("no register at this address ({})", RegMapSummary());
  if (!op.write) return "refused by the hardware";
  if (reg->access == hw::RegAccess::kReadOnly) return "read-only register";
  if (reg->access == hw::RegAccess::kWriteOneToClear) {
    const std::string_view b = reg->block;
    return fmt::format("write 1 to clear bits of 0x{:x} only", b == "router" ? hw::kStatusMask
                                                               : b == "node" ? hw::kNodeStatusMask
                                                                             : hw::kEngStatusMask);
  }
  if (*reg->allowed != '\0') {  // the register's own text (rtl/regs/aries_regs.json)
    return fmt::format(
        fmt::runtime(reg->allowed), fmt::arg("ports_max", np - 1), fmt::arg("port_limit", 1u << np),
        fmt::arg("topos_max", hw::kNumTopos - 1), fmt::arg("dyn_vc_bit", hw::kCtrlDynVcBit),
        fmt::arg("x_hi", hw::kCtrlSizeXLsb + hw::kCoordW - 1), fmt::arg("x_lo", hw::kCtrlSizeXLsb),
        fmt::arg("y_hi", hw::kCtrlSizeYLsb + hw::kCoordW - 1), fmt::arg("y_lo", hw::kCtrlSizeYLsb),
        fmt::arg("ctrl_mask", hw::kCtrlMask), fmt::arg("steps", shape_.coll_prog),
        fmt::arg("ids_max", shape_.coll_ids - 1), fmt::arg("ops_max", hw::kNumOps - 1),
        fmt::arg("turn", hw::kEngTurn),
        fmt::arg("running",
                 "a program is running: programs, lengths and per-id registers change "
                 "only between collectives"));
  }
  // BYPASS and PORTSEL: the reason depends on the node's state.
  const unsigned tm = shape_.num_tracks;
  if (a == hw::kRegBypass) {
    if (np != hw::kNumMeshPorts || tm == 0) return "this node has no bypass switches";
    const uint32_t legal = ((1u << tm) - 1) << hw::kBypassXLsb | ((1u << tm) - 1)
                                                                     << hw::kBypassYLsb;
    if (v & ~legal) return fmt::format("allowed bits 0x{:08x} ({} tracks)", legal, tm);
    return "a port of this node uses a track whose cut bit the write changes: return the port "
           "to its mesh link first";
  }
  if (a > hw::kRegPortSelBase && a <= hw::kRegPortSelBase + 4) {
    if (np != hw::kNumMeshPorts || tm == 0) return "this node has no port muxes";
    const unsigned choices = 1 + 2 * tm;
    if (v & ~hw::kPortSelMask)
      return fmt::format("reserved bits set (mask 0x{:04x})", hw::kPortSelMask);
    const unsigned ci = (v >> hw::kPortSelInLsb) & 0xF, co = (v >> hw::kPortSelOutLsb) & 0xF;
    if (ci >= choices || co >= choices) {
      return fmt::format("choices 0 (mesh), 1 .. {} (x-track), {} .. {} (y-track) allowed", tm,
                         tm + 1, 2 * tm);
    }
    const uint32_t byp = nodes_[op.node].bypass;
    for (unsigned c : {ci, co}) {
      if (c >= 1 && c <= tm && !((byp >> (hw::kBypassXLsb + c - 1)) & 1u)) {
        return fmt::format("x-track {} is not cut at this node (BYPASS = 0x{:08x})", c - 1, byp);
      }
      if (c > tm && !((byp >> (hw::kBypassYLsb + c - 1 - tm)) & 1u)) {
        return fmt::format("y-track {} is not cut at this node (BYPASS = 0x{:08x})", c - 1 - tm,
                           byp);
      }
    }
    return "the link direction is owned by another port (XP and YP share the upper taps, XM and "
           "YM the lower ones), or the port is not quiet (input: nothing buffered, arriving or "
           "open; output: no VC owned, every credit home)";
  }
  return "refused by the hardware";
}

std::vector<const Channel*> Package::Channels() const {
  std::vector<const Channel*> v;
  for (const auto& c : fixed_) v.push_back(c.get());
  for (const auto& c : segments_) v.push_back(c.get());
  return v;
}

// A rank sees the wires of its own nodes (its copy of a border channel has what either end
// sent that is still on the wires).
bool Package::LocalWiresBusy() const {
  for (const Channel* c : Channels()) {
    if ((IsLocal(c->src()) || IsLocal(c->dst())) && c->InFlight(cycle_ == 0 ? 0 : cycle_ - 1)) {
      return true;
    }
  }
  return false;
}

bool Package::WiresBusy() const {
  const bool busy = LocalWiresBusy();
  return transport_ ? transport_->Any(busy) : busy;
}

bool Package::Quiet() const {
  bool quiet = true;
  for (const Node& nd : nodes_) quiet = quiet && nd.out.idle;  // other ranks' nodes stay idle
  quiet = quiet && !LocalWiresBusy();
  return transport_ ? !transport_->Any(!quiet) : quiet;
}

bool Package::AnyError() const {
  bool err = false;
  for (const Node& nd : nodes_) err = err || nd.out.err;
  return transport_ ? transport_->Any(err) : err;
}

void Package::OpenTrace(const std::string& path, const std::vector<unsigned>& nodes, uint64_t from,
                        uint64_t to) {
  if (transport_) {
    throw std::invalid_argument(
        "waveforms of a package distributed over ranks: trace it in one "
        "process");
  }
  // Built aside and kept only once open: a model without tracing or a bad path changes nothing.
  auto fst = std::make_unique<VerilatedFstC>();
  std::vector<unsigned> traced;
  for (unsigned n = 0; n < num_nodes(); ++n) {
    if (nodes.empty() || std::find(nodes.begin(), nodes.end(), n) != nodes.end()) {
      nodes_[n].model->Trace(fst.get());
      traced.push_back(n);
    }
  }
  fst->open(path.c_str());
  if (!fst->isOpen()) throw std::runtime_error("cannot open trace file " + path);
  trace_ = std::move(fst);
  trace_path_ = path;
  traced_ = std::move(traced);
  trace_from_ = from;
  trace_to_ = to;
}

// One nanosecond per cycle (the 1 GHz of ARIES Table II; the models' time precision is 1 ps):
// the state after the rising edge of cycle c at c ns, the clock's low phase half a cycle later.
void Package::DumpTrace() {
  if (!trace_ || cycle_ < trace_from_ || cycle_ >= trace_to_) return;
  trace_->dump(cycle_ * 1000);
  for (unsigned n : traced_) nodes_[n].model->TraceClockLow();
  trace_->dump(cycle_ * 1000 + 500);
}

void Package::SetFlitObserver(FlitObserver f) {
  if (f && parts_.size() > 1) {
    throw std::invalid_argument(
        "a packet log observes every node in one thread: set sim.threads = 1 (it has " +
        std::to_string(parts_.size()) + " partitions)");
  }
  flit_observer_ = std::move(f);
}

bool Package::CloseTrace() {
  if (!trace_) return true;
  trace_->close();
  trace_.reset();
  // The FST writer reports no write error: the file is read back instead (a full disk leaves a
  // truncated file that does not open).
  void* reader = fstReaderOpen(trace_path_.c_str());
  if (!reader) return false;
  fstReaderClose(reader);
  return true;
}

}  // namespace aries::sysc
