#include "wiring.h"

#include <fmt/format.h>

#include "aries_pkg.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

bool UpperTap(unsigned port) { return port == hw::kPortXP || port == hw::kPortYP; }

}  // namespace

Wiring::Wiring(const Geometry& g, const Hardware& hwp, const std::vector<NodeProgram>& nodes)
    : g_(g),
      hw_(hwp),
      nodes_(nodes),
      n_(g.k * g.k),
      ports_(RouterPorts(g.topology, g.k)),
      faults_(g_, ~uint64_t{0}) {
  fixed_.resize(static_cast<size_t>(n_) * ports_);
  for (const LinkSpec& l : FixedLinks(g)) {
    fixed_[l.a * ports_ + l.la + 1] = PortRef{l.b, l.lb + 1};
    fixed_[l.b * ports_ + l.lb + 1] = PortRef{l.a, l.la + 1};
  }
}

std::vector<unsigned> Wiring::Hops(unsigned from, bool both_ways) const {
  std::vector<unsigned> d(n_, kUnreachable);
  std::vector<unsigned> queue{from};
  d[from] = 0;
  for (size_t i = 0; i < queue.size(); ++i) {
    const unsigned u = queue[i];
    for (unsigned p = 1; p < ports_; ++p) {
      const auto to = Across(u, p, nullptr);
      if (!to || d[to->node] != kUnreachable) continue;
      if (both_ways && !Across(to->node, to->port, nullptr)) continue;
      d[to->node] = d[u] + 1;
      queue.push_back(to->node);
    }
  }
  return d;
}

std::string Wiring::NodeName(unsigned n) const {
  return fmt::format("node {} ({},{})", n, n % g_.k, n / g_.k);
}

std::string Wiring::PortName(unsigned port) const { return coll::PortName(port, ports_); }

std::optional<unsigned> Wiring::EngineFeeder(unsigned n, unsigned port, unsigned id,
                                             bool rsp) const {
  for (unsigned m = 0; m < n_; ++m) {
    const EngineId* e = nodes_[m].FindId(id);
    if (!e) continue;
    for (unsigned q = 1; q < ports_; ++q) {
      const bool sends = rsp ? ((e->rsp_out >> q) & 1u) : e->req_out == q;
      if (!sends) continue;
      const auto to = Across(m, q, nullptr);
      if (to && to->node == n && to->port == port) return m;
    }
  }
  return std::nullopt;
}

std::optional<PortRef> Wiring::Across(unsigned node, unsigned port, std::string* why) const {
  auto fail = [&](const std::string& s) -> std::optional<PortRef> {
    if (why) *why = fmt::format("{} port {}: {}", NodeName(node), PortName(port), s);
    return std::nullopt;
  };
  if (port == 0 || port >= ports_) return fail("not an interposer port");
  if (const Fault* f = faults_.Port(node, port)) {
    return fail(fmt::format("the port is dead (fault '{}')", faults_.Name(*f)));
  }
  auto arrive = [&](const PortRef& to) -> std::optional<PortRef> {
    if (const Fault* f = faults_.Port(to.node, to.port)) {
      return fail(fmt::format("it arrives at {} port {}, which is dead (fault '{}')",
                              NodeName(to.node), PortName(to.port), faults_.Name(*f)));
    }
    return to;
  };
  const unsigned sel = ports_ == 5 ? nodes_[node].portsel[port].out : 0;
  if (sel == 0) {
    const auto& to = fixed_[node * ports_ + port];
    if (!to) return fail("no link on this edge of the package");
    if (ports_ == 5 && nodes_[to->node].portsel[to->port].in != 0) {
      return fail(
          fmt::format("the mesh link arrives at {} port {}, whose input mux selects a "
                      "track",
                      NodeName(to->node), PortName(to->port)));
    }
    if (const Fault* f = faults_.Link(node, to->node)) {
      return fail(
          fmt::format("the link to {} is dead (fault '{}')", NodeName(to->node), faults_.Name(*f)));
    }
    return arrive(*to);
  }
  const unsigned T = hw_.tracks;
  const unsigned d = (sel - 1) / T, t = (sel - 1) % T;
  const unsigned x = node % g_.k, y = node / g_.k;
  const unsigned pos = d == 0 ? x : y, line = d == 0 ? y : x;
  auto at = [&](unsigned p) { return d == 0 ? line * g_.k + p : p * g_.k + line; };
  auto cut = [&](unsigned n) {
    return (nodes_[n].bypass >> ((d == 0 ? hw::kBypassXLsb : hw::kBypassYLsb) + t)) & 1u;
  };
  const char* dim = d == 0 ? "x" : "y";
  if (!cut(node))
    return fail(fmt::format("selects {}-track {}, which this node does not cut", dim, t));
  std::optional<unsigned> far;
  if (UpperTap(port)) {
    for (unsigned p = pos + 1; p < g_.k && !far; ++p) {
      if (cut(at(p))) far = at(p);
    }
  } else {
    for (unsigned p = pos; p-- > 0 && !far;) {
      if (cut(at(p))) far = at(p);
    }
  }
  if (!far) {
    return fail(fmt::format("{}-track {} has no cut {} this node: no segment", dim, t,
                            UpperTap(port) ? "after" : "before"));
  }
  const unsigned far_pos = d == 0 ? *far % g_.k : *far / g_.k;
  if (const Fault* f =
          faults_.Segment(d, line, t, std::min(pos, far_pos), std::max(pos, far_pos))) {
    return fail(fmt::format("the {}-track {} segment to {} is dead (fault '{}')", dim, t,
                            NodeName(*far), faults_.Name(*f)));
  }
  const unsigned lo = UpperTap(port) ? hw::kPortXM : hw::kPortXP;
  const unsigned hi = UpperTap(port) ? hw::kPortYM : hw::kPortYP;
  for (unsigned q : {lo, hi}) {
    if (nodes_[*far].portsel[q].in == sel) return arrive(PortRef{*far, q});
  }
  return fail(
      fmt::format("the {}-track {} segment reaches {}, where no port's input mux selects it", dim,
                  t, NodeName(*far)));
}

std::vector<Hop> Wiring::DorPath(unsigned src, unsigned dst, unsigned vc, std::string* why) const {
  std::vector<Hop> path;
  const unsigned k = g_.k;
  unsigned cur = src;
  unsigned v = vc;
  int last_dim = -1;
  for (unsigned guard = 0; cur != dst; ++guard) {
    if (guard > 4 * k) {
      if (why) *why = "dimension-order path does not converge";
      return {};
    }
    const unsigned x = cur % k, y = cur / k, dx = dst % k, dy = dst / k;
    unsigned port = 0, next = 0;
    int dim = 0;
    bool wrap = false;
    if (g_.topology == Topology::kFbfly) {
      if (x != dx) {
        port = 1 + (dx < x ? dx : dx - 1);
        next = y * k + dx;
      } else {
        port = k + (dy < y ? dy : dy - 1);
        next = dy * k + x;
        dim = 1;
      }
    } else {
      dim = x != dx ? 0 : 1;
      const unsigned a = dim == 0 ? x : y, b = dim == 0 ? dx : dy;
      bool plus = b > a;
      if (g_.topology == Topology::kTorus) {
        const unsigned fwd = (b + k - a) % k, back = (a + k - b) % k;
        plus = fwd <= back;
      }
      const unsigned na = plus ? (a + 1) % k : (a + k - 1) % k;
      wrap = plus ? a == k - 1 : a == 0;
      port = dim == 0 ? (plus ? hw::kPortXP : hw::kPortXM) : (plus ? hw::kPortYP : hw::kPortYM);
      next = dim == 0 ? y * k + na : na * k + x;
    }
    if (g_.topology == Topology::kTorus) {
      if (dim != last_dim) v &= ~1u;  // turning clears the dateline class
      if (wrap) v |= 1u;
    }
    last_dim = dim;
    std::string w;
    const auto to = Across(cur, port, &w);
    if (!to || to->node != next) {
      if (why) {
        *why = to ? fmt::format("dimension-order hop from {} by {} reaches {} instead of {}",
                                NodeName(cur), PortName(port), NodeName(to->node), NodeName(next))
                  : w;
      }
      return {};
    }
    // The torus sets the dateline bit on the wrap hop itself.
    path.push_back({cur, port, v});
    cur = next;
  }
  return path;
}

std::optional<unsigned> Wiring::Mask(unsigned node, unsigned flow, unsigned in_port) const {
  for (const RouteEntry& r : nodes_[node].routes) {
    if (r.flow == flow && r.in_port == in_port) return r.mask;
  }
  return std::nullopt;
}

std::vector<Hop> Wiring::FlowPath(unsigned src, unsigned dst, unsigned flow, unsigned vc,
                                  std::string* why, unsigned local) const {
  std::vector<Hop> path;
  unsigned cur = src, in = hw::LocalPort(local, ports_);
  for (unsigned guard = 0;; ++guard) {
    if (guard > 5 * n_) {
      if (why) *why = fmt::format("flow {} from {} loops", flow, NodeName(src));
      return {};
    }
    const auto m = Mask(cur, flow, in);
    if (!m || *m == 0) {
      if (why) {
        *why = fmt::format("flow {} from {} to {}: no ROUTE[flow {}][in {}] at {}", flow,
                           NodeName(src), NodeName(dst), flow, PortName(in), NodeName(cur));
      }
      return {};
    }
    if ((*m & (*m - 1)) != 0) {
      if (why) {
        *why = fmt::format(
            "flow {} at {}: ROUTE[flow {}][in {}] = {:#x} is multicast; a "
            "message needs one path",
            flow, NodeName(cur), flow, PortName(in), *m);
      }
      return {};
    }
    unsigned port = 0;
    while (!((*m >> port) & 1u)) ++port;
    if (const int li = hw::LocalIndex(port, ports_); li >= 0) {
      if (cur == dst && static_cast<unsigned>(li) == local) return path;
      if (why) {
        *why = cur != dst ? fmt::format("flow {} from {} is delivered at {}, not at {}", flow,
                                        NodeName(src), NodeName(cur), NodeName(dst))
                          : fmt::format("flow {} from {} is delivered by local port {}, not {}",
                                        flow, NodeName(src), li, local);
      }
      return {};
    }
    std::string w;
    const auto to = Across(cur, port, &w);
    if (!to) {
      if (why) *why = fmt::format("flow {}: {}", flow, w);
      return {};
    }
    path.push_back({cur, port, vc});
    cur = to->node;
    in = to->port;
  }
}

}  // namespace aries::coll
