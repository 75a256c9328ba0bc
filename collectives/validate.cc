#include "validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "aries_pkg.h"
#include "wiring.h"

namespace aries::coll {

namespace hw = aries::hw;

uint64_t EngineFlits(const NodeProgram& np, unsigned id, bool response) {
  const EngineProgram& prog = response ? np.rsp : np.req;
  const EngineId* e = np.FindId(id);
  const uint64_t count = e ? e->count : 0;
  const auto uses = static_cast<uint64_t>(std::count(prog.steps.begin(), prog.steps.end(), id));
  return count * uses * prog.passes;
}

namespace {

class Validator {
 public:
  Validator(const Program& p, const Hardware& hwp)
      : p_(p),
        hw_(hwp),
        n_(p.req.geom.k * p.req.geom.k),
        ports_(RouterPorts(p.req.geom.topology, p.req.geom.k)) {}

  Validation Run() {
    if (!Shape() || !Muxes() || !Routes() || !Engine()) return v_;
    Wiring w(p_.req.geom, hw_, p_.nodes);
    if (!EngineLinks(w) || !Paths(w) || !Acyclic(w)) return v_;
    v_.symbolic = ExecuteSymbolically(p_, w);
    if (!v_.symbolic.error.empty()) v_.error = "symbolic execution: " + v_.symbolic.error;
    return v_;
  }

 private:
  bool Fail(const std::string& e) {
    v_.error = e;
    return false;
  }
  std::string Node(unsigned n) const {
    return fmt::format("node {} ({},{})", n, n % p_.req.geom.k, n / p_.req.geom.k);
  }
  std::string Port(unsigned port) const { return PortName(port, ports_); }

  bool Shape() {
    if (p_.nodes.size() != n_) {
      return Fail(fmt::format("the program has {} node programs; the {}x{} package has {} nodes",
                              p_.nodes.size(), p_.req.geom.k, p_.req.geom.k, n_));
    }
    for (unsigned n = 0; n < n_; ++n) {
      const auto& ops = p_.nodes[n].ops;
      for (size_t j = 0; j < ops.size(); ++j) {
        const Op& o = ops[j];
        const bool p2p = o.act == Act::kSend || o.IsRecv();
        if (p2p && (o.peer >= n_ || o.peer == n)) {
          return Fail(fmt::format("{} op {} ({}): peer {} is {}", Node(n), j, ActName(o.act),
                                  o.peer, o.peer == n ? "the node itself" : "not on the package"));
        }
      }
    }
    return true;
  }

  bool Muxes() {
    const unsigned T = hw_.tracks, tracks = p_.req.geom.tracks;
    const bool muxed = p_.req.geom.topology == Topology::kAries && ports_ == 5;
    const uint32_t valid_cut = ((1u << tracks) - 1u) << hw::kBypassXLsb | ((1u << tracks) - 1u)
                                                                              << hw::kBypassYLsb;
    for (unsigned n = 0; n < n_; ++n) {
      const NodeProgram& np = p_.nodes[n];
      const bool any =
          np.bypass != 0 || std::any_of(np.portsel.begin(), np.portsel.end(),
                                        [](const PortSel& s) { return s.in != 0 || s.out != 0; });
      if (!muxed) {
        if (any) {
          return Fail(
              fmt::format("{}: PORTSEL/BYPASS set on a {} package; port muxes and "
                          "bypass tracks exist only on aries",
                          Node(n), TopologyName(p_.req.geom.topology)));
        }
        continue;
      }
      if (np.bypass & ~valid_cut) {
        return Fail(
            fmt::format("{}: BYPASS = {:#x} cuts a track the interposer does not have "
                        "(tracks 0..{} per dimension: bits [{}:0] and [{}:16])",
                        Node(n), np.bypass, tracks - 1, tracks - 1, 16 + tracks - 1));
      }
      auto cuts = [&](unsigned choice) {
        const unsigned d = (choice - 1) / T, t = (choice - 1) % T;
        return ((np.bypass >> ((d == 0 ? hw::kBypassXLsb : hw::kBypassYLsb) + t)) & 1u) != 0;
      };
      for (unsigned port = 1; port < 5; ++port) {
        for (int side = 0; side < 2; ++side) {
          const unsigned c = side == 0 ? np.portsel[port].in : np.portsel[port].out;
          if (c == 0) continue;
          const unsigned d = (c - 1) / T, t = (c - 1) % T;
          if (c > 2 * T || t >= tracks) {
            return Fail(
                fmt::format("{}: PORTSEL[{}] {} side selects choice {}; allowed 0 (mesh) "
                            "or 1..{} (x-tracks 1..{}, y-tracks {}..{}) for the {} "
                            "tracks of this package",
                            Node(n), Port(port), side == 0 ? "input" : "output", c, 2 * T, tracks,
                            T + 1, T + tracks, tracks));
          }
          if (!cuts(c)) {
            return Fail(fmt::format(
                "{}: PORTSEL[{}] {} side selects {}-track {}, which BYPASS "
                "does not cut here",
                Node(n), Port(port), side == 0 ? "input" : "output", d == 0 ? "x" : "y", t));
          }
        }
      }
      // One port per tap direction: XP/YP share the upper taps, XM/YM the lower.
      for (auto [a, b] :
           {std::pair{hw::kPortXP, hw::kPortYP}, std::pair{hw::kPortXM, hw::kPortYM}}) {
        for (int side = 0; side < 2; ++side) {
          const unsigned ca = side == 0 ? np.portsel[a].in : np.portsel[a].out;
          const unsigned cb = side == 0 ? np.portsel[b].in : np.portsel[b].out;
          if (ca != 0 && ca == cb) {
            return Fail(
                fmt::format("{}: PORTSEL[{}] and PORTSEL[{}] both take the {} side of "
                            "track choice {}; one port per tap direction",
                            Node(n), Port(a), Port(b), side == 0 ? "input" : "output", ca));
          }
        }
      }
    }
    return true;
  }

  bool Routes() {
    for (unsigned n = 0; n < n_; ++n) {
      std::set<std::pair<unsigned, unsigned>> seen;
      // The router's ports: the topology's and the extra local ports.
      const unsigned rports = ports_ + hw_.local_ports - 1;
      for (const RouteEntry& r : p_.nodes[n].routes) {
        if (r.flow >= hw_.num_flows || r.in_port >= rports || r.mask >= (1u << rports)) {
          return Fail(
              fmt::format("{}: ROUTE[flow {}][in {}] = {:#x} out of range (flows < {}, "
                          "ports < {}, mask < {:#x})",
                          Node(n), r.flow, r.in_port, r.mask, hw_.num_flows, rports, 1u << rports));
        }
        if (!seen.insert({r.flow, r.in_port}).second) {
          return Fail(fmt::format("{}: ROUTE[flow {}][in {}] written twice", Node(n), r.flow,
                                  Port(r.in_port)));
        }
      }
    }
    return true;
  }

  bool PortOk(uint32_t v) const { return v < ports_ || v == hw::kEngTurn; }

  bool Engine() {
    for (unsigned n = 0; n < n_; ++n) {
      const NodeProgram& np = p_.nodes[n];
      if (!hw_.engine && (!np.ids.empty() || !np.req.steps.empty() || !np.rsp.steps.empty())) {
        return Fail(
            fmt::format("{}: engine registers programmed, but the node model has no "
                        "collective engine",
                        Node(n)));
      }
      std::set<unsigned> ids;
      for (const EngineId& e : np.ids) {
        const std::string reg = fmt::format("{}: engine id {}", Node(n), e.id);
        if (e.id >= hw_.coll_ids) {
          return Fail(fmt::format("{}: too many collective ids (the engine has ids 0..{})", reg,
                                  hw_.coll_ids - 1));
        }
        if (!ids.insert(e.id).second) return Fail(reg + " configured twice");
        if (e.op >= hw::kNumOps) {
          return Fail(
              fmt::format("{}: ID_CFG operation {} (allowed 0..{})", reg, e.op, hw::kNumOps - 1));
        }
        if (e.count == 0 || e.count > 0xFFFF) {
          return Fail(fmt::format("{}: ID_COUNT {} (allowed 1..65535)", reg, e.count));
        }
        const uint32_t pm = (1u << ports_) - 1u;
        if ((e.req_in & ~pm) || (e.rsp_out & ~pm)) {
          return Fail(fmt::format("{}: ID_REQ_IN {:#x} / ID_RSP_OUT {:#x} name ports >= {}", reg,
                                  e.req_in, e.rsp_out, ports_));
        }
        if (!PortOk(e.req_out) || !PortOk(e.rsp_in)) {
          return Fail(
              fmt::format("{}: ID_REQ_OUT {} / ID_RSP_IN {} (allowed a port < {} or 31 = "
                          "turn)",
                          reg, e.req_out, e.rsp_in, ports_));
        }
        if (e.op != p_.req.op) {
          return Fail(fmt::format("{}: ID_CFG operation {} differs from the program's {}", reg,
                                  e.op, p_.req.op));
        }
      }
      for (int stage = 0; stage < 2; ++stage) {
        const EngineProgram& prog = stage == 0 ? np.req : np.rsp;
        const char* name = stage == 0 ? "ENG_REQ" : "ENG_RSP";
        if (prog.steps.size() > hw_.coll_prog) {
          return Fail(fmt::format("{}: {} program of {} steps (the engine has {})", Node(n), name,
                                  prog.steps.size(), hw_.coll_prog));
        }
        if (!prog.steps.empty() && (prog.passes == 0 || prog.passes > 0xFFFF)) {
          return Fail(
              fmt::format("{}: {}_LEN passes {} (allowed 1..65535)", Node(n), name, prog.passes));
        }
        for (unsigned id : prog.steps) {
          if (!ids.count(id)) {
            return Fail(
                fmt::format("{}: {}_PROG names id {}, which is not configured", Node(n), name, id));
          }
        }
      }
      for (size_t j = 0; j < np.ops.size(); ++j) {
        const Op& o = np.ops[j];
        if (o.act != Act::kEngSend && o.act != Act::kEngRecv) continue;
        const EngineId* e = np.FindId(o.id);
        if (!e) {
          return Fail(fmt::format("{} op {} ({}): id {} is not configured on this node", Node(n), j,
                                  ActName(o.act), o.id));
        }
        const bool rsp = o.act == Act::kEngRecv && !DeliversRequests(*e);
        const uint64_t need = (o.region.len + hw_.lanes - 1) / hw_.lanes;
        const uint64_t have = EngineFlits(np, o.id, rsp);
        if (have < need || have > need + e->count) {
          return Fail(fmt::format(
              "{} op {} ({}) moves {} flits of id {}; the engine's {} program "
              "moves {} (ID_COUNT x steps x passes must cover it, padding "
              "less than one count)",
              Node(n), j, ActName(o.act), need, o.id, rsp ? "response" : "request", have));
        }
      }
    }
    return true;
  }

  // Every port an engine id sends on reaches a node (a dead link, segment or port does not:
  // Across names the fault).
  bool EngineLinks(const Wiring& w) {
    for (unsigned n = 0; n < n_; ++n) {
      for (const EngineId& e : p_.nodes[n].ids) {
        uint32_t out = e.rsp_out;
        if (e.req_out != 0 && e.req_out < ports_) out |= 1u << e.req_out;
        for (unsigned q = 1; q < ports_; ++q) {
          std::string why;
          if (((out >> q) & 1u) && !w.Across(n, q, &why)) {
            return Fail(fmt::format("{} engine id {} sends on port {}: {}", Node(n), e.id,
                                    w.PortName(q), why));
          }
        }
      }
    }
    return true;
  }

  bool Paths(const Wiring& w) {
    for (unsigned n = 0; n < n_; ++n) {
      const auto& ops = p_.nodes[n].ops;
      for (size_t j = 0; j < ops.size(); ++j) {
        const Op& o = ops[j];
        if (o.act != Act::kSend) continue;
        if (o.vc >= hw_.num_vcs ||
            (p_.req.geom.topology == Topology::kTorus && o.flow < 0 && (o.vc & 1u))) {
          return Fail(fmt::format("{} op {} (send to {}): VC {} (allowed 0..{}{})", Node(n), j,
                                  Node(o.peer), o.vc, hw_.num_vcs - 1,
                                  p_.req.geom.topology == Topology::kTorus
                                      ? ", even: odd VCs are the torus dateline class"
                                      : ""));
        }
        if (o.flow >= static_cast<int>(hw_.num_flows)) {
          return Fail(fmt::format("{} op {}: flow {} (allowed 0..{})", Node(n), j, o.flow,
                                  hw_.num_flows - 1));
        }
        if (o.port >= hw_.local_ports) {
          return Fail(fmt::format("{} op {} (send to {}): local port {} (the node has {})", Node(n),
                                  j, Node(o.peer), o.port, hw_.local_ports));
        }
        const auto key = std::make_tuple(n, o.peer, o.flow, o.vc);
        if (const auto it = ports_of_.find(key); it != ports_of_.end() && it->second != o.port) {
          return Fail(fmt::format(
              "{} op {} (send to {}): local port {}, but an earlier send of its channel "
              "(flow {}, VC {}) takes port {}: a channel's messages keep their order on one port",
              Node(n), j, Node(o.peer), o.port, o.flow, o.vc, it->second));
        }
        ports_of_[key] = o.port;
        if (paths_.count(key)) continue;
        std::string why;
        auto path = o.flow < 0
                        ? w.DorPath(n, o.peer, o.vc, &why)
                        : w.FlowPath(n, o.peer, static_cast<unsigned>(o.flow), o.vc, &why, o.port);
        if (path.empty()) {
          return Fail(
              fmt::format("{} op {} (send to {}): no route: {}", Node(n), j, Node(o.peer), why));
        }
        v_.max_hops = std::max<uint64_t>(v_.max_hops, path.size());
        paths_[key] = std::move(path);
      }
    }
    return true;
  }

  bool Acyclic(const Wiring& w) {
    // Channel dependency graph: channel (node, port, vc) -> the next channel of some path.
    std::map<std::tuple<unsigned, unsigned, unsigned>,
             std::set<std::tuple<unsigned, unsigned, unsigned>>>
        g;
    for (const auto& [key, path] : paths_) {
      for (size_t i = 0; i < path.size(); ++i) {
        const auto a = std::make_tuple(path[i].node, path[i].port, path[i].vc);
        auto& out = g[a];
        if (i + 1 < path.size()) out.insert({path[i + 1].node, path[i + 1].port, path[i + 1].vc});
      }
    }
    v_.channels = g.size();
    std::map<std::tuple<unsigned, unsigned, unsigned>, int> state;  // 1 on stack, 2 done
    std::vector<std::tuple<unsigned, unsigned, unsigned>> stack;
    std::string cycle;
    std::function<bool(const std::tuple<unsigned, unsigned, unsigned>&)> dfs =
        [&](const auto& c) -> bool {
      state[c] = 1;
      stack.push_back(c);
      for (const auto& nx : g[c]) {
        if (state[nx] == 1) {
          auto it = std::find(stack.begin(), stack.end(), nx);
          for (; it != stack.end(); ++it) {
            cycle += fmt::format("{} {} vc {} -> ", w.NodeName(std::get<0>(*it)),
                                 w.PortName(std::get<1>(*it)), std::get<2>(*it));
          }
          cycle += "back";
          return false;
        }
        if (state[nx] == 0 && !dfs(nx)) return false;
      }
      stack.pop_back();
      state[c] = 2;
      return true;
    };
    for (const auto& [c, out] : g) {
      if (state[c] == 0 && !dfs(c)) {
        return Fail(
            "cyclic channel dependency among the message paths (a deadlock is "
            "possible): " +
            cycle);
      }
    }
    return true;
  }

  const Program& p_;
  Hardware hw_;
  unsigned n_, ports_;
  Validation v_;
  std::map<std::tuple<unsigned, unsigned, int, unsigned>, std::vector<Hop>> paths_;
  std::map<std::tuple<unsigned, unsigned, int, unsigned>, unsigned> ports_of_;  // local port
};

}  // namespace

Validation Validate(const Program& p, const Hardware& hw) { return Validator(p, hw).Run(); }

}  // namespace aries::coll
