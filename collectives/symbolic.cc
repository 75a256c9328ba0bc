#include "symbolic.h"

#include <fmt/format.h>

#include <algorithm>
#include <bitset>
#include <deque>
#include <map>
#include <tuple>

#include "aries_pkg.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

using Set = std::bitset<256>;  // K <= 16

struct Message {
  Range region;
  std::vector<Set> val;
};

class Executor {
 public:
  Executor(const Program& p, const Wiring& w)
      : p_(p), w_(w), n_(p.num_nodes()), comms_(Communicators(p.req)) {}

  SymbolicReport Run() {
    if (n_ > 256) return Fail("more than 256 nodes");
    BuildIntervals();
    rep_.intervals = bounds_.size() - 1;
    Init();
    std::vector<size_t> pc(n_, 0);
    for (bool progress = true; progress && rep_.error.empty();) {
      progress = false;
      for (unsigned n = 0; n < n_ && rep_.error.empty(); ++n) {
        const auto& ops = p_.nodes[n].ops;
        while (pc[n] < ops.size() && rep_.error.empty() && Exec(n, pc[n], ops[pc[n]])) {
          ++pc[n];
          progress = true;
        }
      }
    }
    if (!rep_.error.empty()) return rep_;
    for (unsigned n = 0; n < n_; ++n) {
      if (pc[n] < p_.nodes[n].ops.size()) {
        const Op& o = p_.nodes[n].ops[pc[n]];
        return Fail(fmt::format(
            "{} cannot finish: op {} ({} {} {}) waits for data that never comes (a missing send "
            "or a cycle of receives)",
            w_.NodeName(n), pc[n], ActName(o.act), o.act == Act::kEngRecv ? "id" : "from",
            o.act == Act::kEngRecv ? std::to_string(o.id) : w_.NodeName(o.peer)));
      }
    }
    for (const auto& [key, q] : chan_) {
      if (!q.empty()) {
        return Fail(fmt::format("{} message(s) from {} to {} are never received", q.size(),
                                w_.NodeName(std::get<0>(key)), w_.NodeName(std::get<1>(key))));
      }
    }
    CheckResult();
    return rep_;
  }

 private:
  SymbolicReport Fail(const std::string& e) {
    if (rep_.error.empty()) rep_.error = e;
    return rep_;
  }

  void BuildIntervals() {
    bounds_ = {0, p_.elements};
    for (const auto& members : Communicators(p_.req)) {  // every communicator's shards
      const auto m = static_cast<unsigned>(members.size());
      for (unsigned i = 0; i < m; ++i) bounds_.push_back(Shard(p_.elements, m, i).off);
    }
    for (const auto& np : p_.nodes) {
      for (const Op& o : np.ops) {
        bounds_.push_back(o.region.off);
        bounds_.push_back(o.region.end());
      }
    }
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
    while (!bounds_.empty() && bounds_.back() > p_.elements) bounds_.pop_back();
  }

  // Interval indices [lo, hi) of a region.
  std::pair<size_t, size_t> Span(Range r) const {
    const size_t lo = std::lower_bound(bounds_.begin(), bounds_.end(), r.off) - bounds_.begin();
    const size_t hi = std::lower_bound(bounds_.begin(), bounds_.end(), r.end()) - bounds_.begin();
    return {lo, hi};
  }

  void Init() {
    val_.assign(n_, std::vector<Set>(bounds_.size() - 1));
    for (unsigned n = 0; n < n_; ++n) {
      const auto rank = RankOf(p_.req, n);
      for (size_t i = 0; i + 1 < bounds_.size(); ++i) {
        switch (p_.req.collective) {
          case Collective::kAllGather:
            if (OwnerOf(rank, i) == static_cast<int>(n)) val_[n][i].set(n);
            break;
          case Collective::kBroadcast:
            if (n == p_.req.root) val_[n][i].set(n);
            break;
          default:
            val_[n][i].set(n);
        }
      }
    }
  }

  // The member of the communicator of rank `r` that owns interval `interval` (all-gather), -1
  // for a node in none.
  int OwnerOf(const std::optional<CommRank>& r, size_t interval) const {
    if (!r) return -1;
    const unsigned rank = ShardOf(p_.elements, r->size, bounds_[interval]);
    return static_cast<int>(comms_[r->comm][rank]);
  }

  bool CheckRegion(unsigned n, size_t j, const Op& o) {
    if (o.region.len == 0 || o.region.end() > p_.elements) {
      Fail(fmt::format(
          "{} op {} ({}): region [{}, {}) is empty or beyond the buffer of {} "
          "elements",
          w_.NodeName(n), j, ActName(o.act), o.region.off, o.region.end(), p_.elements));
      return false;
    }
    return true;
  }

  std::vector<Set> Read(unsigned n, size_t j, const Op& o) {
    const auto [lo, hi] = Span(o.region);
    std::vector<Set> v(val_[n].begin() + static_cast<long>(lo),
                       val_[n].begin() + static_cast<long>(hi));
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].none()) {
        Fail(fmt::format("{} op {} ({}) reads elements [{}, {}) that hold no data yet",
                         w_.NodeName(n), j, ActName(o.act), bounds_[lo + i], bounds_[lo + i + 1]));
      }
    }
    return v;
  }

  bool Write(unsigned n, size_t j, const Op& o, const std::vector<Set>& v, bool reduce) {
    const auto [lo, hi] = Span(o.region);
    for (size_t i = lo; i < hi; ++i) {
      const Set& in = v[i - lo];
      if (in.none()) {
        Fail(fmt::format("{} op {} ({}) receives elements [{}, {}) without data", w_.NodeName(n), j,
                         ActName(o.act), bounds_[i], bounds_[i + 1]));
        return false;
      }
      if (reduce) {
        const Set both = val_[n][i] & in;
        if (val_[n][i].none()) {
          Fail(fmt::format("{} op {} ({}) reduces into elements [{}, {}) that hold no data",
                           w_.NodeName(n), j, ActName(o.act), bounds_[i], bounds_[i + 1]));
          return false;
        }
        if (both.any()) {
          unsigned dup = 0;
          while (!both.test(dup)) ++dup;
          Fail(fmt::format("{} op {} ({}) counts the input of node {} twice in elements [{}, {})",
                           w_.NodeName(n), j, ActName(o.act), dup, bounds_[i], bounds_[i + 1]));
          return false;
        }
        val_[n][i] |= in;
      } else {
        val_[n][i] = in;
      }
    }
    return true;
  }

  bool Exec(unsigned n, size_t j, const Op& o) {
    if (!CheckRegion(n, j, o)) return false;
    switch (o.act) {
      case Act::kSend: {
        Message m{o.region, Read(n, j, o)};
        if (!rep_.error.empty()) return false;
        chan_[{n, o.peer, o.flow, o.vc}].push_back(std::move(m));
        return true;
      }
      case Act::kRecvReduce:
      case Act::kRecvCopy: {
        auto& q = chan_[{o.peer, n, o.flow, o.vc}];
        if (q.empty()) return false;
        Message m = std::move(q.front());
        q.pop_front();
        if (m.region.off != o.region.off || m.region.len != o.region.len) {
          Fail(
              fmt::format("{} op {} ({} from {}) expects [{}, {}) but the message carries "
                          "[{}, {})",
                          w_.NodeName(n), j, ActName(o.act), w_.NodeName(o.peer), o.region.off,
                          o.region.end(), m.region.off, m.region.end()));
          return false;
        }
        ++rep_.messages;
        return Write(n, j, o, m.val, o.act == Act::kRecvReduce);
      }
      case Act::kEngSend: {
        auto& s = eng_send_[o.id];
        if (s.count(n)) {
          Fail(fmt::format("{} op {}: a second engine send of id {}", w_.NodeName(n), j, o.id));
          return false;
        }
        s[n] = Message{o.region, Read(n, j, o)};
        return rep_.error.empty();
      }
      case Act::kEngRecv: {
        std::optional<Message> m = EngineResult(n, j, o);
        if (!m) return false;
        return Write(n, j, o, m->val, false);
      }
    }
    return false;
  }

  // Request result of id at node n (nullopt: not computable yet, or an error was recorded).
  std::optional<std::vector<Set>> ReqValue(unsigned n, unsigned id, const Range& region,
                                           unsigned depth) {
    if (depth > n_) {
      Fail(fmt::format("engine id {}: the request inputs form a cycle through {}", id,
                       w_.NodeName(n)));
      return std::nullopt;
    }
    const EngineId* e = p_.nodes[n].FindId(id);
    const auto [lo, hi] = Span(region);
    std::vector<Set> acc(hi - lo);
    for (unsigned port = 0; port < w_.num_ports(); ++port) {
      if (!((e->req_in >> port) & 1u)) continue;
      std::vector<Set> in;
      if (port == 0) {
        auto it = eng_send_[id].find(n);
        if (it == eng_send_[id].end()) return std::nullopt;  // not sent yet
        if (it->second.region.off != region.off || it->second.region.len != region.len) {
          Fail(fmt::format("engine id {}: {} sends [{}, {}) but the id's region is [{}, {})", id,
                           w_.NodeName(n), it->second.region.off, it->second.region.end(),
                           region.off, region.end()));
          return std::nullopt;
        }
        in = it->second.val;
      } else {
        const auto m = w_.EngineFeeder(n, port, id, false);
        if (!m) {
          Fail(
              fmt::format("engine id {}: {} reduces port {}, but no node sends id {} requests "
                          "there",
                          id, w_.NodeName(n), w_.PortName(port), id));
          return std::nullopt;
        }
        auto v = ReqValue(*m, id, region, depth + 1);
        if (!v) return std::nullopt;
        in = std::move(*v);
      }
      for (size_t i = 0; i < acc.size(); ++i) {
        if ((acc[i] & in[i]).any()) {
          Fail(fmt::format("engine id {}: {} counts a node's input twice", id, w_.NodeName(n)));
          return std::nullopt;
        }
        acc[i] |= in[i];
      }
    }
    return acc;
  }

  std::optional<Message> EngineResult(unsigned n, size_t j, const Op& o) {
    const EngineId* e = p_.nodes[n].FindId(o.id);
    if (!e) {
      Fail(
          fmt::format("{} op {}: engine receive of id {}, which this node's engine does not "
                      "have",
                      w_.NodeName(n), j, o.id));
      return std::nullopt;
    }
    ++rep_.engine_ids;
    if (DeliversRequests(*e)) {
      auto v = ReqValue(n, o.id, o.region, 0);
      if (!v) return std::nullopt;
      return Message{o.region, std::move(*v)};
    }
    if (!(e->rsp_out & 1u)) {
      Fail(
          fmt::format("{} op {}: engine receive of id {}, but the id delivers nothing to the "
                      "local endpoint (ID_RSP_OUT bit 0 clear, ID_REQ_OUT not 0)",
                      w_.NodeName(n), j, o.id));
      return std::nullopt;
    }
    // Walk the response up to its turn.
    unsigned cur = n;
    for (unsigned depth = 0;; ++depth) {
      const EngineId* c = p_.nodes[cur].FindId(o.id);
      if (depth > n_) {
        Fail(fmt::format("engine id {}: the responses form a cycle", o.id));
        return std::nullopt;
      }
      if (c->rsp_in == hw::kEngTurn) {
        if (c->req_out != hw::kEngTurn) {
          Fail(
              fmt::format("engine id {}: {} turns responses, but its requests do not end in the "
                          "turn (ID_REQ_OUT = {})",
                          o.id, w_.NodeName(cur), c->req_out));
          return std::nullopt;
        }
        auto v = ReqValue(cur, o.id, o.region, 0);
        if (!v) return std::nullopt;
        return Message{o.region, std::move(*v)};
      }
      const auto m = w_.EngineFeeder(cur, c->rsp_in, o.id, true);
      if (!m) {
        Fail(
            fmt::format("engine id {}: {} takes responses from port {}, but no node copies id "
                        "{} responses there",
                        o.id, w_.NodeName(cur), w_.PortName(c->rsp_in), o.id));
        return std::nullopt;
      }
      cur = *m;
    }
  }

  void CheckResult() {
    for (unsigned n = 0; n < n_; ++n) {
      const auto [lo, hi] = Span(p_.ResultRegion(n));
      const auto rank = RankOf(p_.req, n);
      Set all;  // the members of n's communicator
      if (rank) {
        for (unsigned m : comms_[rank->comm]) all.set(m);
      }
      for (size_t i = lo; i < hi; ++i) {
        Set want;
        switch (p_.req.collective) {
          case Collective::kAllGather:
            want.set(static_cast<size_t>(OwnerOf(rank, i)));
            break;
          case Collective::kBroadcast:
            want.set(p_.req.root);
            break;
          default:
            want = all;
        }
        if (val_[n][i] != want) {
          const Set missing = want & ~val_[n][i], extra = val_[n][i] & ~want;
          unsigned a = 0;
          const Set& show = missing.any() ? missing : extra;
          while (a < n_ && !show.test(a)) ++a;
          Fail(fmt::format(
              "{} ends with elements [{}, {}) {} the input of node {} ({} of {} "
              "inputs present)",
              w_.NodeName(n), bounds_[i], bounds_[i + 1],
              missing.any() ? "missing" : "wrongly holding", a, val_[n][i].count(), want.count()));
          return;
        }
      }
    }
  }

  const Program& p_;
  const Wiring& w_;
  unsigned n_;
  std::vector<std::vector<unsigned>> comms_;  // Communicators(p_.req)
  SymbolicReport rep_;
  std::vector<uint64_t> bounds_;
  std::vector<std::vector<Set>> val_;
  std::map<std::tuple<unsigned, unsigned, int, unsigned>, std::deque<Message>> chan_;
  std::map<unsigned, std::map<unsigned, Message>> eng_send_;
};

}  // namespace

SymbolicReport ExecuteSymbolically(const Program& p, const Wiring& w) {
  return Executor(p, w).Run();
}

}  // namespace aries::coll
