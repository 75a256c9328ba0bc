#include "embed.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "aries_pkg.h"
#include "wiring.h"

namespace aries::coll {

namespace hw = aries::hw;

std::string EmbedReport::Summary() const {
  return fmt::format("{} links: {} mesh hops, {} bypass segments, {} dimension-order paths, {} "
                     "table-routed over shared links; {} flow ids",
                     links, mesh, segments, dor, routed, flows);
}

namespace {

struct Link {
  unsigned from, to, lane;
  bool operator<(const Link& o) const {
    return std::tie(from, to, lane) < std::tie(o.from, o.to, o.lane);
  }
};

unsigned Opposite(unsigned port) {
  switch (port) {
    case hw::kPortXP: return hw::kPortXM;
    case hw::kPortXM: return hw::kPortXP;
    case hw::kPortYP: return hw::kPortYM;
    default: return hw::kPortYP;
  }
}

class Embedder {
 public:
  Embedder(Program& p, const Hardware& hwp)
      : p_(p), hw_(hwp), k_(p.req.geom.k), n_(k_ * k_),
        aries_(p.req.geom.topology == Topology::kAries && RouterPorts(p.req.geom.topology, k_) == 5),
        w_(p.req.geom, hwp, p.nodes), ports_(RouterPorts(p.req.geom.topology, k_)), used_out_(n_ * ports_, false), used_in_(n_ * ports_, false),
        table_(n_) {}

  EmbedReport Run() {
    std::vector<Link> links;
    std::map<Link, int> flow_of;
    for (unsigned n = 0; n < n_; ++n) {
      for (const Op& o : p_.nodes[n].ops) {
        if (o.act != Act::kSend || o.flow >= 0) continue;
        const Link l{n, o.peer, o.lane};
        if (flow_of.emplace(l, -1).second) links.push_back(l);
      }
    }
    // A link that gets no segment keeps its dimension-order path; the ports on that path must
    // then stay mesh, so the allocation restarts with those paths reserved until no new link
    // falls back (reservations only grow: at most one restart per link).
    const std::vector<NodeProgram> original = p_.nodes;
    std::set<Link> forced;
    for (;;) {
      p_.nodes = original;
      std::set<Link> failed;
      Attempt(links, forced, &failed, &flow_of);
      if (std::includes(forced.begin(), forced.end(), failed.begin(), failed.end()) &&
          failed.size() == forced.size()) {
        break;
      }
      forced.insert(failed.begin(), failed.end());
    }
    for (unsigned n = 0; n < n_; ++n) {
      for (Op& o : p_.nodes[n].ops) {
        if (o.flow >= 0 || !(o.act == Act::kSend || o.IsRecv())) continue;
        const Link l = o.act == Act::kSend ? Link{n, o.peer, o.lane} : Link{o.peer, n, o.lane};
        o.flow = flow_of.at(l);
      }
      auto& routes = p_.nodes[n].routes;
      routes.clear();
      for (const auto& [key, mask] : table_[n]) routes.push_back({key.first, key.second, mask});
    }
    r_.flows = static_cast<unsigned>(flows_used_.size());
    return r_;
  }

 private:
  // One allocation with the dimension-order paths of `forced` reserved; the links that got no
  // segment go to *failed.
  void Attempt(const std::vector<Link>& links, const std::set<Link>& forced, std::set<Link>* failed,
               std::map<Link, int>* flow_of) {
    r_ = EmbedReport{};
    r_.links = static_cast<unsigned>(links.size());
    std::fill(used_out_.begin(), used_out_.end(), false);
    std::fill(used_in_.begin(), used_in_.end(), false);
    intervals_.clear();
    flows_used_.clear();
    for (unsigned n = 0; n < n_; ++n) {
      table_[n].clear();
      for (const RouteEntry& r : p_.nodes[n].routes) table_[n][{r.flow, r.in_port}] = r.mask;
    }
    for (auto& [l, f] : *flow_of) f = -1;
    // 1. Mesh neighbours on lane 0 keep their mesh hop; forced links their dimension order.
    std::vector<Link> rest;
    for (const Link& l : links) {
      const int port = MeshPort(l.from, l.to);
      if (l.lane == 0 && port > 0) {
        used_out_[l.from * ports_ + port] = used_in_[l.to * ports_ + Opposite(port)] = true;
        ++r_.mesh;
      } else if (forced.count(l)) {
        for (const Hop& h : w_.DorPath(l.from, l.to, 0, nullptr)) {
          used_out_[h.node * ports_ + h.port] = true;
          const auto to = w_.Across(h.node, h.port, nullptr);
          used_in_[to->node * ports_ + to->port] = true;
        }
        failed->insert(l);
      } else {
        rest.push_back(l);
      }
    }
    // 2. Segments: second links first, then the longest.
    std::stable_sort(rest.begin(), rest.end(), [&](const Link& a, const Link& b) {
      if (a.lane != b.lane) return a.lane > b.lane;
      return Distance(a) > Distance(b);
    });
    for (const Link& l : rest) {
      if (l.lane > 1) throw PlanError(fmt::format("lane {} of {} -> {}: lanes 0 and 1 only", l.lane, l.from, l.to));
      std::optional<Hop> seg;
      if (aries_ && Aligned(l)) seg = TrySegment(l);
      if (seg) {
        (*flow_of)[l] = AssignFlow(l, {*seg});
        ++r_.segments;
      } else if (l.lane == 1) {
        throw PlanError(fmt::format(
            "no bypass segment left for the second link {} -> {}{}", w_.NodeName(l.from),
            w_.NodeName(l.to),
            aries_ ? (Aligned(l) ? ": every track over the span or every idle port is taken"
                                 : ": the nodes share no row or column")
                   : fmt::format(": the {} package has no bypass tracks", TopologyName(p_.req.geom.topology))));
      } else {
        failed->insert(l);
      }
    }
    // 3. Dimension order where it is intact, else the shortest configured path.
    for (const Link& l : *failed) {
      std::string why;
      const auto dor = w_.DorPath(l.from, l.to, 0, &why);
      if (!dor.empty()) {
        ++(dor.size() == 1 ? r_.mesh : r_.dor);
        continue;
      }
      const auto path = Shortest(l.from, l.to);
      if (path.empty() && !forced.count(l)) continue;  // the next attempt reserves its path
      if (path.empty()) {
        throw PlanError(fmt::format("no path from {} to {} under the configured links ({})",
                                    w_.NodeName(l.from), w_.NodeName(l.to), why));
      }
      (*flow_of)[l] = AssignFlow(l, path);
      ++r_.routed;
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
    const unsigned dep[2] = {up ? same_up : Opposite(same_up), up ? other_up : Opposite(other_up)};
    const unsigned arr[2] = {Opposite(dep[0]), Opposite(dep[1])};
    const unsigned tracks = std::min(p_.req.geom.tracks, hw_.tracks);
    for (unsigned t = 0; t < tracks; ++t) {
      auto& iv = intervals_[{d, line, t}];
      bool shared = false, clash = false;
      for (auto [s, e] : iv) {
        if (s == lo && e == hi) shared = true;
        else if (std::max(s, lo) < std::min(e, hi)) clash = true;
      }
      if (clash) continue;
      int dp = -1, ap = -1;
      for (unsigned q : dep) {
        if (dp < 0 && !used_out_[l.from * ports_ + q]) dp = static_cast<int>(q);
      }
      for (unsigned q : arr) {
        if (ap < 0 && !used_in_[l.to * ports_ + q]) ap = static_cast<int>(q);
      }
      if (dp < 0 || ap < 0) continue;
      if (!shared) iv.push_back({lo, hi});
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
  // row. Every such path is monotone per dimension, x before y, like the dimension-order paths
  // beside it, so the channels they hold cannot depend on each other in a cycle.
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

  // The smallest flow id whose table entries along `path` are free or equal.
  int AssignFlow(const Link& l, const std::vector<Hop>& path) {
    std::vector<std::tuple<unsigned, unsigned, uint32_t>> entries;  // node, in port, mask
    unsigned in = 0;
    for (const Hop& h : path) {
      entries.emplace_back(h.node, in, 1u << h.port);
      in = w_.Across(h.node, h.port, nullptr)->port;
    }
    entries.emplace_back(l.to, in, 1u);
    for (unsigned f = 0; f < hw_.num_flows; ++f) {
      const bool fits = std::all_of(entries.begin(), entries.end(), [&](const auto& e) {
        const auto it = table_[std::get<0>(e)].find({f, std::get<1>(e)});
        return it == table_[std::get<0>(e)].end() || it->second == std::get<2>(e);
      });
      if (!fits) continue;
      for (const auto& [node, port, mask] : entries) table_[node][{f, port}] = mask;
      flows_used_[f] = true;
      return static_cast<int>(f);
    }
    throw PlanError(fmt::format("the routing tables' {} flows are all taken at the link {} -> {}",
                                hw_.num_flows, w_.NodeName(l.from), w_.NodeName(l.to)));
  }

  Program& p_;
  const Hardware& hw_;
  unsigned k_, n_;
  bool aries_;
  Wiring w_;
  unsigned ports_;
  std::vector<bool> used_out_, used_in_;  // [node * ports_ + port]
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::vector<std::pair<unsigned, unsigned>>>
      intervals_;  // (dimension, line, track) -> segments
  std::vector<std::map<std::pair<unsigned, unsigned>, uint32_t>> table_;  // (flow, in) -> mask
  std::map<unsigned, bool> flows_used_;
  EmbedReport r_;
};

}  // namespace

EmbedReport Embed(Program& p, const Hardware& hw) { return Embedder(p, hw).Run(); }

}  // namespace aries::coll
