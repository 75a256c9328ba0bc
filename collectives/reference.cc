#include "reference.h"

#include <fmt/format.h>

#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "aries_pkg.h"
#include "arith.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

class Interpreter {
 public:
  Interpreter(const Program& p, const Wiring& w, const std::vector<std::vector<uint32_t>>& in)
      : p_(p), w_(w), n_(p.num_nodes()), buf_(in) {
    if (buf_.size() != n_) throw std::logic_error("reference: one input vector per node");
    for (auto& b : buf_) b.resize(p.elements, 0);
  }

  std::vector<std::vector<uint32_t>> Run() {
    std::vector<size_t> pc(n_, 0);
    for (bool progress = true; progress;) {
      progress = false;
      for (unsigned n = 0; n < n_; ++n) {
        const auto& ops = p_.nodes[n].ops;
        while (pc[n] < ops.size() && Exec(n, ops[pc[n]])) {
          ++pc[n];
          progress = true;
        }
      }
    }
    for (unsigned n = 0; n < n_; ++n) {
      if (pc[n] < p_.nodes[n].ops.size()) {
        throw std::logic_error(
            fmt::format("reference: {} op {} never completes", w_.NodeName(n), pc[n]));
      }
    }
    return std::move(buf_);
  }

 private:
  struct Message {
    Range region;
    std::vector<uint32_t> val;
  };

  std::vector<uint32_t> Read(unsigned n, Range r) const {
    return {buf_[n].begin() + static_cast<long>(r.off),
            buf_[n].begin() + static_cast<long>(r.end())};
  }

  bool Exec(unsigned n, const Op& o) {
    switch (o.act) {
      case Act::kSend:
        chan_[{n, o.peer, o.flow, o.vc}].push_back({o.region, Read(n, o.region)});
        return true;
      case Act::kRecvReduce:
      case Act::kRecvCopy: {
        auto& q = chan_[{o.peer, n, o.flow, o.vc}];
        if (q.empty()) return false;
        const Message m = std::move(q.front());
        q.pop_front();
        for (uint64_t i = 0; i < o.region.len; ++i) {
          uint32_t& x = buf_[n][o.region.off + i];
          x = o.act == Act::kRecvReduce ? LaneOp(p_.req.op, x, m.val[i]) : m.val[i];
        }
        return true;
      }
      case Act::kEngSend:
        eng_send_[o.id][n] = {o.region, Read(n, o.region)};
        return true;
      case Act::kEngRecv: {
        const std::optional<std::vector<uint32_t>> v = EngineResult(n, o);
        if (!v) return false;
        std::copy(v->begin(), v->end(), buf_[n].begin() + static_cast<long>(o.region.off));
        return true;
      }
    }
    return false;
  }

  // The request result of `id` at node n: its inputs (the local endpoint on slot 0, the
  // feeders' results on their ports) reduced through the engine's tree; nullopt until every
  // local send has happened.
  std::optional<std::vector<uint32_t>> ReqValue(unsigned n, unsigned id, Range region,
                                                unsigned depth) {
    if (depth > n_) throw std::logic_error("reference: engine requests form a cycle");
    const EngineId* e = p_.nodes[n].FindId(id);
    const unsigned ports = w_.num_ports();
    std::vector<std::vector<uint32_t>> in(ports);
    std::vector<bool> present(ports, false);
    for (unsigned port = 0; port < ports; ++port) {
      if (!((e->req_in >> port) & 1u)) continue;
      present[port] = true;
      if (port == 0) {
        const auto it = eng_send_[id].find(n);
        if (it == eng_send_[id].end()) return std::nullopt;
        in[port] = it->second.val;
      } else {
        const auto m = w_.EngineFeeder(n, port, id, false);
        if (!m) throw std::logic_error(fmt::format("reference: engine id {} has no feeder", id));
        auto v = ReqValue(*m, id, region, depth + 1);
        if (!v) return std::nullopt;
        in[port] = std::move(*v);
      }
    }
    std::vector<uint32_t> out(region.len), lane(ports, 0);
    for (uint64_t i = 0; i < region.len; ++i) {
      for (unsigned port = 0; port < ports; ++port) lane[port] = present[port] ? in[port][i] : 0;
      out[i] = EngineTreeReduce(p_.req.op, present, lane);
    }
    return out;
  }

  std::optional<std::vector<uint32_t>> EngineResult(unsigned n, const Op& o) {
    const EngineId* e = p_.nodes[n].FindId(o.id);
    if (!e) throw std::logic_error(fmt::format("reference: no engine id {}", o.id));
    if (DeliversRequests(*e)) return ReqValue(n, o.id, o.region, 0);
    unsigned cur = n;  // walk the responses up to their turn
    for (unsigned depth = 0; depth <= n_; ++depth) {
      const EngineId* c = p_.nodes[cur].FindId(o.id);
      if (c->rsp_in == hw::kEngTurn) return ReqValue(cur, o.id, o.region, 0);
      const auto m = w_.EngineFeeder(cur, c->rsp_in, o.id, true);
      if (!m) throw std::logic_error(fmt::format("reference: engine id {} has no response", o.id));
      cur = *m;
    }
    throw std::logic_error("reference: engine responses form a cycle");
  }

  const Program& p_;
  const Wiring& w_;
  unsigned n_;
  std::vector<std::vector<uint32_t>> buf_;
  std::map<std::tuple<unsigned, unsigned, int, unsigned>, std::deque<Message>> chan_;
  std::map<unsigned, std::map<unsigned, Message>> eng_send_;
};

}  // namespace

std::vector<std::vector<uint32_t>> ExecuteConcretely(
    const Program& p, const Wiring& w, const std::vector<std::vector<uint32_t>>& inputs) {
  return Interpreter(p, w, inputs).Run();
}

}  // namespace aries::coll
