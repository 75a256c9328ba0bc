#include "embed.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "aries_pkg.h"
#include "wiring.h"

namespace aries::coll {

namespace hw = aries::hw;

std::string EmbedReport::Summary() const {
  return fmt::format(
      "{} links: {} mesh hops, {} bypass segments, {} dimension-order paths, {} "
      "table-routed over shared links; {} flow ids{}{}",
      links, mesh, segments, dor, routed, flows,
      detours ? fmt::format("; {} around dead links", detours) : "",
      dor_for_flows ? fmt::format("; {} ejected by their input port's local port, every flow "
                                  "taken",
                                  dor_for_flows)
                    : "");
}

namespace {

struct Link {
  unsigned from, to, lane, port;  // port: the local port it is injected on and ejected by
  bool operator<(const Link& o) const {
    return std::tie(from, to, lane, port) < std::tie(o.from, o.to, o.lane, o.port);
  }
};

class Embedder {
 public:
  Embedder(Program& p, const Hardware& hwp)
      : p_(p),
        hw_(hwp),
        k_(p.req.geom.k),
        n_(k_ * k_),
        aries_(p.req.geom.topology == Topology::kAries),
        w_(p.req.geom, hwp, p.nodes),
        faults_(p.req.geom, ~uint64_t{0}),
        ports_(RouterPorts(p.req.geom.topology, k_)),
        used_out_(n_ * ports_, false),
        used_in_(n_ * ports_, false),
        table_(n_) {}

  EmbedReport Run() {
    std::vector<Link> links;
    std::map<Link, int> flow_of;
    for (unsigned n = 0; n < n_; ++n) {
      for (const Op& o : p_.nodes[n].ops) {
        if (o.act != Act::kSend || o.flow >= 0) continue;
        const Link l{n, o.peer, o.lane, o.port};
        if (flow_of.emplace(l, -1).second) links.push_back(l);
      }
    }
    // A link left without a segment takes its dimension-order path if the segments left it
    // intact, else an x-then-y path over what is configured. When neither exists, the
    // allocation restarts with that link's dimension-order path reserved (kept mesh), so it
    // cannot be broken again: reservations only grow, at most one restart per link.
    const std::vector<NodeProgram> original = p_.nodes;
    std::set<Link> forced;
    for (;;) {
      p_.nodes = original;
      std::set<Link> no_path;
      Attempt(links, forced, &no_path, &flow_of);
      if (no_path.empty()) break;
      forced.insert(no_path.begin(), no_path.end());
    }
    for (unsigned n = 0; n < n_; ++n) {
      for (Op& o : p_.nodes[n].ops) {
        if (o.flow >= 0 || !(o.act == Act::kSend || o.IsRecv())) continue;
        const Link l =
            o.act == Act::kSend ? Link{n, o.peer, o.lane, o.port} : Link{o.peer, n, o.lane, o.port};
        const auto it = flow_of.find(l);  // a receive without its send: the validator names it
        if (it != flow_of.end()) o.flow = it->second;
        if (detour_.count(l)) o.vc = DetourVc();
      }
      auto& routes = p_.nodes[n].routes;
      routes.clear();
      for (const auto& [key, mask] : table_[n]) routes.push_back({key.first, key.second, mask});
    }
    r_.flows = static_cast<unsigned>(flows_used_.size());
    return r_;
  }

 private:
  // The links of one allocation sorted by how they are placed (stage 1 of Attempt).
  struct LinkClasses {
    std::vector<Link> rest;                            // to get a segment of their own
    std::vector<Link> fallback;                        // dimension order or a configured path
    std::vector<std::pair<Link, unsigned>> mesh_hops;  // table-routed (several local ports)
  };

  // One allocation with the dimension-order paths of `forced` reserved; the links that found
  // no path go to *no_path.
  void Attempt(const std::vector<Link>& links, const std::set<Link>& forced,
               std::set<Link>* no_path, std::map<Link, int>* flow_of) {
    ResetAllocation(links, flow_of);
    LinkClasses c = ClassifyLinks(links, forced);
    PlaceSegments(&c.rest, flow_of, &c.fallback);
    // 3. Dimension order where it is intact, else the shortest x-then-y configured path.
    for (const auto& [l, port] : c.mesh_hops) (*flow_of)[l] = PortFlow(l, {Hop{l.from, port, 0}});
    for (const Link& l : c.fallback) RouteFallback(l, forced, no_path, flow_of);
  }

  // Clears what a previous allocation took: ports, segments, detours, flows and the routing
  // tables (back to the program's own entries); every link of `flow_of` on no flow.
  void ResetAllocation(const std::vector<Link>& links, std::map<Link, int>* flow_of) {
    r_ = EmbedReport{};
    r_.links = static_cast<unsigned>(links.size());
    std::fill(used_out_.begin(), used_out_.end(), false);
    std::fill(used_in_.begin(), used_in_.end(), false);
    intervals_.clear();
    detour_.clear();
    flows_used_.clear();
    pair_flows_.clear();
    pair_dor_.clear();
    for (unsigned n = 0; n < n_; ++n) {
      table_[n].clear();
      for (const RouteEntry& r : p_.nodes[n].routes) table_[n][{r.flow, r.in_port}] = r.mask;
    }
    for (auto& [l, f] : *flow_of) f = -1;
  }

  // 1. Mesh neighbours on lane 0 keep their mesh hop; forced links and links that share no
  //    row or column (no segment can serve them) reserve their dimension-order paths. Returns
  //    the links by how they go on.
  LinkClasses ClassifyLinks(const std::vector<Link>& links, const std::set<Link>& forced) {
    LinkClasses c;
    for (const Link& l : links) {
      const int port = MeshPort(l.from, l.to);
      // A dead mesh link (or port) is not a hop: the link looks for a segment or a path.
      if (l.lane == 0 && port > 0 && w_.Across(l.from, static_cast<unsigned>(port), nullptr)) {
        used_out_[l.from * ports_ + port] = used_in_[l.to * ports_ + hw::OppositePort(port)] = true;
        // With several local ports the hop is table-routed, so that it leaves by its own local
        // port (dimension order ejects by the input port).
        if (hw_.local_ports > 1) {
          c.mesh_hops.push_back({l, static_cast<unsigned>(port)});
        }
        ++r_.mesh;
      } else if (forced.count(l) || (l.lane == 0 && !Aligned(l))) {
        for (const Hop& h : w_.DorPath(l.from, l.to, 0, nullptr)) {
          used_out_[h.node * ports_ + h.port] = true;
          const auto to = w_.Across(h.node, h.port, nullptr);
          used_in_[to->node * ports_ + to->port] = true;
        }
        c.fallback.push_back(l);
      } else {
        c.rest.push_back(l);
      }
    }
    return c;
  }

  // 2. Segments: second links first, then the longest. A first link without one joins
  //    *fallback; a second link without one throws PlanError saying why.
  void PlaceSegments(std::vector<Link>* rest, std::map<Link, int>* flow_of,
                     std::vector<Link>* fallback) {
    std::stable_sort(rest->begin(), rest->end(), [&](const Link& a, const Link& b) {
      if (a.lane != b.lane) return a.lane > b.lane;
      return Distance(a) > Distance(b);
    });
    for (const Link& l : *rest) {
      if (l.lane > 1)
        throw PlanError(
            fmt::format("lane {} of {} -> {}: lanes 0 and 1 only", l.lane, l.from, l.to));
      std::optional<Hop> seg;
      if (aries_ && Aligned(l)) seg = TrySegment(l);
      if (seg) {
        (*flow_of)[l] = AssignFlow(l, {*seg});
        ++r_.segments;
      } else if (l.lane == 1) {
        const unsigned tracks = std::min(p_.req.geom.tracks, hw_.tracks);
        throw PlanError(fmt::format("no bypass segment for the second link {} -> {}: {}",
                                    w_.NodeName(l.from), w_.NodeName(l.to),
                                    !aries_ ? fmt::format("the {} package has no bypass tracks",
                                                          TopologyName(p_.req.geom.topology))
                                    : tracks == 0 ? std::string("the package has 0 bypass tracks")
                                    : !Aligned(l)
                                        ? std::string("the nodes share no row or column")
                                        : fmt::format("every one of the {} tracks over the span, "
                                                      "or every idle port at an end, is taken",
                                                      tracks)));
      } else {
        fallback->push_back(l);
      }
    }
  }

  // 3. One link without a segment: its dimension-order path where it is intact, else the
  //    shortest x-then-y configured path, else (a forced link broken by a fault) a detour. A
  //    link with none of them goes to *no_path; a forced one throws PlanError.
  void RouteFallback(const Link& l, const std::set<Link>& forced, std::set<Link>* no_path,
                     std::map<Link, int>* flow_of) {
    std::string why;
    const auto dor = w_.DorPath(l.from, l.to, 0, &why);
    if (!dor.empty()) {
      ++(dor.size() == 1 ? r_.mesh : r_.dor);
      // A table route keeps its VC: on the torus routes going on past a wrap-around link
      // would close the ring the dateline VC opens (a cyclic channel dependency). Every path
      // of several hops over a wrap stays in dimension order (the simple, safe side) and is
      // ejected by its input port's local port; the receiver takes a message by source, flow
      // and VC on whichever port it comes.
      const bool dateline = dor.size() > 1 && std::any_of(dor.begin(), dor.end(), [](const Hop& h) {
                              return (h.vc & 1u) != 0;
                            });
      if (hw_.local_ports > 1) {
        if (dateline)
          KeepDor(l, "a path over a torus wrap-around link");
        else
          (*flow_of)[l] = PortFlow(l, dor);  // (as the mesh hops)
      }
      return;
    }
    auto path = Shortest(l.from, l.to);
    // A forced link's dimension-order path was reserved, so only a fault breaks it: it goes
    // around on the detour VC.
    const bool detour = path.empty() && forced.count(l) && faults_.any();
    if (detour) path = Detour(l.from, l.to);
    if (path.empty() && forced.count(l)) {
      throw PlanError(fmt::format("no path from {} to {} under the configured links ({})",
                                  w_.NodeName(l.from), w_.NodeName(l.to), why));
    }
    if (path.empty()) {
      no_path->insert(l);  // the next attempt reserves its dimension-order path
      return;
    }
    (*flow_of)[l] = AssignFlow(l, path);
    ++r_.routed;
    if (detour) {
      detour_.insert(l);
      ++r_.detours;
    }
  }

  unsigned X(unsigned n) const { return n % k_; }
  unsigned Y(unsigned n) const { return n / k_; }
  bool Aligned(const Link& l) const { return X(l.from) == X(l.to) || Y(l.from) == Y(l.to); }
  unsigned Distance(const Link& l) const {
    const int dx = static_cast<int>(X(l.from)) - static_cast<int>(X(l.to));
    const int dy = static_cast<int>(Y(l.from)) - static_cast<int>(Y(l.to));
    return static_cast<unsigned>(std::abs(dx) + std::abs(dy));
  }
  // The mesh port from u to a neighbour v, or 0. Only the grid's mesh links count (not the
  // torus wraps, which dimension order takes anyway, nor the butterfly's links).
  int MeshPort(unsigned u, unsigned v) const {
    if (p_.req.geom.topology == Topology::kFbfly) return 0;
    if (Y(u) == Y(v) && X(v) == X(u) + 1) return hw::kPortXP;
    if (Y(u) == Y(v) && X(u) == X(v) + 1) return hw::kPortXM;
    if (X(u) == X(v) && Y(v) == Y(u) + 1) return hw::kPortYP;
    if (X(u) == X(v) && Y(u) == Y(v) + 1) return hw::kPortYM;
    return 0;
  }

  // A segment of its own for l on a free track, with an idle port side at each end.
  std::optional<Hop> TrySegment(const Link& l) {
    const unsigned d = Y(l.from) == Y(l.to) ? 0 : 1;
    const unsigned line = d == 0 ? Y(l.from) : X(l.from);
    const unsigned a = d == 0 ? X(l.from) : Y(l.from), b = d == 0 ? X(l.to) : Y(l.to);
    const bool up = b > a;
    const unsigned lo = std::min(a, b), hi = std::max(a, b);
    const unsigned same_up = d == 0 ? hw::kPortXP : hw::kPortYP;
    const unsigned other_up = d == 0 ? hw::kPortYP : hw::kPortXP;
    const unsigned dep[2] = {up ? same_up : hw::OppositePort(same_up),
                             up ? other_up : hw::OppositePort(other_up)};
    const unsigned arr[2] = {hw::OppositePort(dep[0]), hw::OppositePort(dep[1])};
    const unsigned tracks = std::min(p_.req.geom.tracks, hw_.tracks);
    for (unsigned t = 0; t < tracks; ++t) {
      if (faults_.Segment(d, line, t, lo, hi)) continue;  // a dead wire or switch on the span
      auto& iv = intervals_[{d, line, t}];
      // A segment carries one direction each way: the same span is shared only by the
      // opposite direction.
      bool shared = false, clash = false;
      for (const Interval& i : iv) {
        if (i.lo == lo && i.hi == hi) {
          shared = true;
          clash = clash || (up ? i.up : i.down);
        } else if (std::max(i.lo, lo) < std::min(i.hi, hi)) {
          clash = true;
        }
      }
      if (clash) continue;
      int dp = -1, ap = -1;
      for (unsigned q : dep) {
        if (dp < 0 && !used_out_[l.from * ports_ + q] && !faults_.Port(l.from, q))
          dp = static_cast<int>(q);
      }
      for (unsigned q : arr) {
        if (ap < 0 && !used_in_[l.to * ports_ + q] && !faults_.Port(l.to, q))
          ap = static_cast<int>(q);
      }
      if (dp < 0 || ap < 0) continue;
      if (!shared) iv.push_back({lo, hi, false, false});
      for (Interval& i : iv) {
        if (i.lo == lo && i.hi == hi) (up ? i.up : i.down) = true;
      }
      const uint32_t cut = 1u << ((d == 0 ? hw::kBypassXLsb : hw::kBypassYLsb) + t);
      p_.nodes[l.from].bypass |= cut;
      p_.nodes[l.to].bypass |= cut;
      const auto choice = static_cast<uint8_t>(1 + d * hw_.tracks + t);
      p_.nodes[l.from].portsel[dp].out = choice;
      p_.nodes[l.to].portsel[ap].in = choice;
      used_out_[l.from * ports_ + dp] = used_in_[l.to * ports_ + ap] = true;
      return Hop{l.from, static_cast<unsigned>(dp), 0};
    }
    return std::nullopt;
  }

  // Fewest hops from u to v over the links the current settings make, in dimension order: x
  // links (mesh or x-segments) towards v's column without passing it, then y links towards v's
  // row. On the ARIES package (a mesh plus tracks; only it gets here) every such path is
  // monotone per dimension, x before y, like the dimension-order paths and single hops beside
  // it, and a muxed port carries one dimension's traffic, so the channels can be ordered and
  // cannot depend on each other in a cycle.
  std::vector<Hop> Shortest(unsigned u, unsigned v) const {
    const unsigned ports = w_.num_ports();
    std::vector<std::optional<Hop>> via(n_);
    std::vector<bool> seen(n_, false);
    std::deque<unsigned> q{u};
    seen[u] = true;
    auto between = [](unsigned from, unsigned to, unsigned target) {
      return from < target ? (to > from && to <= target) : (to < from && to >= target);
    };
    while (!q.empty() && !seen[v]) {
      const unsigned c = q.front();
      q.pop_front();
      for (unsigned port = 1; port < ports; ++port) {
        const auto to = w_.Across(c, port, nullptr);
        if (!to || seen[to->node]) continue;
        const unsigned a = to->node;
        const bool ok = X(c) != X(v) ? Y(a) == Y(c) && between(X(c), X(a), X(v))
                                     : X(a) == X(c) && between(Y(c), Y(a), Y(v));
        if (!ok) continue;
        seen[a] = true;
        via[a] = Hop{c, port, 0};
        q.push_back(a);
      }
    }
    if (!seen[v]) return {};
    std::vector<Hop> path;
    for (unsigned c = v; c != u; c = via[c]->node) path.push_back(*via[c]);
    std::reverse(path.begin(), path.end());
    return path;
  }

  // The VC of the detours: apart from the monotone paths on VC 0 (even, so a torus keeps its
  // dateline classes apart). A node model with fewer than 3 VCs puts them on its last VC (1:
  // odd, which only table-routed packets may use on a torus; 0 with one VC, shared with the
  // monotone paths), and the validator's cycle check decides.
  unsigned DetourVc() const { return hw_.num_vcs >= 3 ? 2 : hw_.num_vcs - 1; }

  // The way around a dead part when no monotone path is left: the fewest-hop up*/down* path
  // over the live links under the current settings (up: towards the node fewer hops from node
  // 0, ties to the lower id; never up after down; fault_routes.h). Every
  // detour follows the same order on its own VC, so detours cannot depend on each other in a
  // cycle, nor on the monotone paths of VC 0; the validator's check confirms it.
  std::vector<Hop> Detour(unsigned u, unsigned v) const {
    const unsigned ports = w_.num_ports();
    // (Credits return on the wires a flit came by, so one live direction is enough; a muxed
    // port's output may lead elsewhere than its input comes from.)
    auto live = [&](unsigned a, unsigned port) { return w_.Across(a, port, nullptr); };
    const std::vector<unsigned> d0 = w_.Hops(0, false);
    auto up = [&](unsigned a, unsigned b) {  // the hop a -> b goes up
      return d0[b] != d0[a] ? d0[b] < d0[a] : b < a;
    };
    // Breadth-first over (node, phase): phase 0 may still go up, phase 1 only down.
    std::vector<std::optional<std::pair<unsigned, Hop>>> via(2 * n_);  // state -> (prev, hop)
    std::vector<bool> seen(2 * n_, false);
    std::deque<unsigned> sq{u};
    seen[u] = true;
    int found = -1;
    while (!sq.empty() && found < 0) {
      const unsigned st = sq.front();
      sq.pop_front();
      const unsigned c = st % n_, phase = st / n_;
      for (unsigned port = 1; port < ports && found < 0; ++port) {
        const auto to = live(c, port);
        if (!to) continue;
        const bool is_up = up(c, to->node);
        if (phase == 1 && is_up) continue;
        const unsigned ns = to->node + (is_up ? phase : 1) * n_;
        if (seen[ns]) continue;
        seen[ns] = true;
        via[ns] = std::make_pair(st, Hop{c, port, 0});
        if (to->node == v) found = static_cast<int>(ns);
        sq.push_back(ns);
      }
    }
    if (found < 0) {
      // The muxes may leave the live links one-way (a port's output on a segment, its input
      // on the mesh): without an up*/down* path, the fewest hops in any order, and the
      // validator's check decides.
      for (unsigned st = 0; st < 2 * n_; ++st) seen[st] = false;
      sq = {u};
      seen[u] = true;
      while (!sq.empty() && found < 0) {
        const unsigned c = sq.front();
        sq.pop_front();
        for (unsigned port = 1; port < ports && found < 0; ++port) {
          const auto to = live(c, port);
          if (!to || seen[to->node]) continue;
          seen[to->node] = true;
          via[to->node] = std::make_pair(c, Hop{c, port, 0});
          if (to->node == v) found = static_cast<int>(to->node);
          sq.push_back(to->node);
        }
      }
    }
    if (found < 0) {
      return {};
    }
    std::vector<Hop> path;
    for (unsigned st = static_cast<unsigned>(found); st != u; st = via[st]->first) {
      path.push_back(via[st]->second);
    }
    std::reverse(path.begin(), path.end());
    return path;
  }

  // A dimension-order path table-routed only to leave by its link's local port: with every
  // flow taken along it, it stays in dimension order (flow -1, ejected by its input port's
  // local port), unless another link between the same two nodes already does (the receiver
  // tells messages apart by source, flow and VC).
  int PortFlow(const Link& l, const std::vector<Hop>& path) {
    const int f = AssignFlow(l, path, false);
    if (f >= 0) return f;
    KeepDor(l, "every flow id is taken along its path");
    ++r_.dor_for_flows;
    return -1;
  }
  // A link left in dimension order while others are table-routed: one per pair of nodes.
  void KeepDor(const Link& l, const char* why) {
    if (pair_dor_.insert({l.from, l.to}).second) return;
    throw PlanError(
        fmt::format("two links {} -> {} in dimension order ({}): the receiver could not tell their "
                    "messages apart on one VC",
                    w_.NodeName(l.from), w_.NodeName(l.to), why));
  }

  // The smallest flow id whose table entries along `path` are free or equal, from and to the
  // link's local port, and that no other link between the same two nodes uses (the receiver
  // tells messages apart by source, flow and VC); -1 when none is left and not `must`.
  int AssignFlow(const Link& l, const std::vector<Hop>& path, bool must = true) {
    std::vector<std::tuple<unsigned, unsigned, uint32_t>> entries;  // node, in port, mask
    const unsigned local = hw::LocalPort(l.port, ports_);
    unsigned in = local;
    for (const Hop& h : path) {
      entries.emplace_back(h.node, in, 1u << h.port);
      in = w_.Across(h.node, h.port, nullptr)->port;
    }
    entries.emplace_back(l.to, in, 1u << local);
    std::set<unsigned>& pair_flows = pair_flows_[{l.from, l.to}];
    for (unsigned f = 0; f < hw_.num_flows; ++f) {
      if (pair_flows.count(f)) continue;
      const bool fits = std::all_of(entries.begin(), entries.end(), [&](const auto& e) {
        const auto it = table_[std::get<0>(e)].find({f, std::get<1>(e)});
        return it == table_[std::get<0>(e)].end() || it->second == std::get<2>(e);
      });
      if (!fits) continue;
      for (const auto& [node, port, mask] : entries) table_[node][{f, port}] = mask;
      flows_used_.insert(f);
      pair_flows.insert(f);
      return static_cast<int>(f);
    }
    if (!must) return -1;
    throw PlanError(fmt::format("the routing tables' {} flows are all taken at the link {} -> {}",
                                hw_.num_flows, w_.NodeName(l.from), w_.NodeName(l.to)));
  }

  Program& p_;
  const Hardware& hw_;
  unsigned k_, n_;
  bool aries_;
  Wiring w_;
  FaultView faults_;  // what is dead: no hop, segment or port of a plan may use it
  unsigned ports_;
  std::vector<bool> used_out_, used_in_;  // [node * ports_ + port]
  struct Interval {
    unsigned lo, hi;
    bool up, down;  // directions in use
  };
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::vector<Interval>>
      intervals_;  // (dimension, line, track) -> segments
  std::vector<std::map<std::pair<unsigned, unsigned>, uint32_t>> table_;  // (flow, in) -> mask
  std::set<unsigned> flows_used_;
  std::map<std::pair<unsigned, unsigned>, std::set<unsigned>> pair_flows_;  // (from, to) -> flows
  std::set<std::pair<unsigned, unsigned>> pair_dor_;  // (from, to) with a PortFlow left in DOR
  std::set<Link> detour_;                             // links routed around a fault, on DetourVc()
  EmbedReport r_;
};

}  // namespace

EmbedReport Embed(Program& p, const Hardware& hw) { return Embedder(p, hw).Run(); }

}  // namespace aries::coll
