#include "symbolic.h"

#include <fmt/format.h>

#include <algorithm>
#include <bitset>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "aries_pkg.h"

namespace aries::coll {

namespace hw = aries::hw;

namespace {

using Set = std::bitset<256>;  // K <= 16

// A point-to-point channel: sender, receiver, flow (-1: dimension order), VC.
using ChannelKey = std::tuple<unsigned, unsigned, int, unsigned>;

// What a message carries, per interval of its region: whose inputs, and from which offset of
// their buffers (the origin of the interval's first element).
struct Message {
  Range region;
  std::vector<Set> val;
  std::vector<uint64_t> org;
};

class Executor {
 public:
  Executor(const Program& p, const Wiring& w)
      : p_(p), w_(w), n_(p.num_nodes()), comms_(Communicators(p.req)) {}

  SymbolicReport Run() {
    if (n_ > kMaxSymbolicNodes) return Fail(fmt::format("more than {} nodes", kMaxSymbolicNodes));
    if (p_.req.collective == Collective::kAllToAllV) {
      try {
        CheckCounts(p_.req);
      } catch (const PlanError& e) {
        return Fail(e.what());
      }
      layout_.emplace(p_.req);
    }
    if (!BuildIntervals()) return rep_;
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

  static constexpr size_t kMaxIntervals = size_t{1} << 20;

  bool BuildIntervals() {
    std::set<uint64_t> b = {0, p_.elements};
    for (const auto& members : Communicators(p_.req)) {  // every communicator's shards
      const auto m = static_cast<unsigned>(members.size());
      for (unsigned i = 0; i < m; ++i) {
        if (layout_) {  // the send and receive areas' blocks
          const unsigned me = members[i];
          for (unsigned peer : members) {
            for (const Range r : {layout_->Send(me, peer), layout_->Recv(me, peer)}) {
              b.insert(r.off);
              b.insert(r.end());
            }
          }
          b.insert(layout_->Received(me).end());
        } else if (p_.req.collective == Collective::kAllToAll) {  // blocks, not shards
          b.insert(AllToAllBlock(p_.elements, m, i).off);
          b.insert(AllToAllBlock(p_.elements, m, i).end());
        } else {
          b.insert(Shard(p_.elements, m, i).off);
        }
      }
    }
    // Every message's send and receive, paired in channel order (the k-th send on a channel
    // is its k-th receive).
    std::map<ChannelKey, std::pair<std::vector<Range>, std::vector<Range>>> pairs;
    for (unsigned n = 0; n < n_; ++n) {
      for (const Op& o : p_.nodes[n].ops) {
        b.insert(o.region.off);
        b.insert(o.region.end());
        if (o.act == Act::kSend) pairs[{n, o.peer, o.flow, o.vc}].first.push_back(o.region);
        if (o.IsRecv()) pairs[{o.peer, n, o.flow, o.vc}].second.push_back(o.region);
      }
    }
    // A message received at another offset than it was sent from: the intervals inside one
    // end must be intervals inside the other, shifted. Refine both until they are (a bound
    // only ever splits an interval, so this ends).
    std::vector<std::pair<Range, Range>> moved;
    for (const auto& [key, q] : pairs) {
      for (size_t i = 0; i < std::min(q.first.size(), q.second.size()); ++i) {
        if (q.first[i].off != q.second[i].off && q.first[i].len == q.second[i].len)
          moved.push_back({q.first[i], q.second[i]});
      }
    }
    for (bool grew = !moved.empty(); grew;) {
      grew = false;
      for (const auto& [from, to] : moved) {
        for (int dir = 0; dir < 2; ++dir) {
          const Range a = dir ? to : from, z = dir ? from : to;
          for (auto it = b.upper_bound(a.off); it != b.end() && *it < a.end(); ++it) {
            grew |= b.insert(*it - a.off + z.off).second;
          }
        }
      }
      // A message moved by less than its length onto itself cuts every element apart.
      if (b.size() > kMaxIntervals) {
        Fail(fmt::format(
            "the messages received elsewhere than they were sent from cut the buffer into more "
            "than {} intervals",
            kMaxIntervals));
        rep_.capacity = true;
        return false;
      }
    }
    bounds_.assign(b.begin(), b.end());
    while (!bounds_.empty() && bounds_.back() > p_.elements) bounds_.pop_back();
    return true;
  }

  // The offsets of a region's intervals (where their elements are at home).
  std::vector<uint64_t> Home(Range r) const {
    const auto [lo, hi] = Span(r);
    return {bounds_.begin() + static_cast<long>(lo), bounds_.begin() + static_cast<long>(hi)};
  }

  // Interval indices [lo, hi) of a region.
  std::pair<size_t, size_t> Span(Range r) const {
    const size_t lo = std::lower_bound(bounds_.begin(), bounds_.end(), r.off) - bounds_.begin();
    const size_t hi = std::lower_bound(bounds_.begin(), bounds_.end(), r.end()) - bounds_.begin();
    return {lo, hi};
  }

  void Init() {
    val_.assign(n_, std::vector<Set>(bounds_.size() - 1));
    org_.assign(n_, std::vector<uint64_t>(bounds_.begin(), bounds_.end() - 1));
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

  Message Read(unsigned n, size_t j, const Op& o) {
    const auto [lo, hi] = Span(o.region);
    Message m{o.region,
              {val_[n].begin() + static_cast<long>(lo), val_[n].begin() + static_cast<long>(hi)},
              {org_[n].begin() + static_cast<long>(lo), org_[n].begin() + static_cast<long>(hi)}};
    for (size_t i = 0; i < m.val.size(); ++i) {
      if (m.val[i].none()) {
        Fail(fmt::format("{} op {} ({}) reads elements [{}, {}) that hold no data yet",
                         w_.NodeName(n), j, ActName(o.act), bounds_[lo + i], bounds_[lo + i + 1]));
      }
    }
    return m;
  }

  // The message's intervals are the receiving region's, shifted: BuildIntervals refined both
  // ends alike, so anything else is a bug here.
  void Lands(unsigned n, size_t j, const Op& o, const Message& m) const {
    const auto [lo, hi] = Span(o.region);
    const auto [mlo, mhi] = Span(m.region);
    bool same = hi - lo == mhi - mlo;
    for (size_t i = 0; same && i < hi - lo; ++i) {
      same = bounds_[lo + i] - o.region.off == bounds_[mlo + i] - m.region.off;
    }
    if (!same) {
      throw std::logic_error(
          fmt::format("symbolic execution: {} op {}: the message's intervals do not line up with "
                      "[{}, {})",
                      w_.NodeName(n), j, o.region.off, o.region.end()));
    }
  }

  bool Write(unsigned n, size_t j, const Op& o, const Message& m, bool reduce) {
    const auto [lo, hi] = Span(o.region);
    for (size_t i = lo; i < hi; ++i) {
      const Set& in = m.val[i - lo];
      const uint64_t from = m.org[i - lo];
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
        if (from != org_[n][i]) {
          Fail(fmt::format(
              "{} op {} ({}) reduces elements [{}, {}), from offset {} of their inputs, with "
              "elements from offset {}",
              w_.NodeName(n), j, ActName(o.act), bounds_[i], bounds_[i + 1], org_[n][i], from));
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
        org_[n][i] = from;
      }
    }
    return true;
  }

  bool Exec(unsigned n, size_t j, const Op& o) {
    if (!CheckRegion(n, j, o)) return false;
    switch (o.act) {
      case Act::kSend: {
        Message m = Read(n, j, o);
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
        if (m.region.len != o.region.len) {
          Fail(fmt::format(
              "{} op {} ({} from {}) expects {} elements at [{}, {}) but the message "
              "carries {} from [{}, {})",
              w_.NodeName(n), j, ActName(o.act), w_.NodeName(o.peer), o.region.len, o.region.off,
              o.region.end(), m.region.len, m.region.off, m.region.end()));
          return false;
        }
        Lands(n, j, o, m);
        ++rep_.messages;
        return Write(n, j, o, m, o.act == Act::kRecvReduce);
      }
      case Act::kEngSend: {
        auto& s = eng_send_[o.id];
        if (s.count(n)) {
          Fail(fmt::format("{} op {}: a second engine send of id {}", w_.NodeName(n), j, o.id));
          return false;
        }
        s[n] = Read(n, j, o);
        return rep_.error.empty();
      }
      case Act::kEngRecv: {
        std::optional<Message> m = EngineResult(n, j, o);
        if (!m) return false;
        return Write(n, j, o, *m, false);
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
        for (size_t i = lo; i < hi; ++i) {
          if (it->second.org[i - lo] != bounds_[i]) {
            Fail(fmt::format(
                "engine id {}: {} sends elements [{}, {}) holding offset {} of their inputs; the "
                "engine reduces elements at their own offsets",
                id, w_.NodeName(n), bounds_[i], bounds_[i + 1], it->second.org[i - lo]));
            return std::nullopt;
          }
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
      return Message{o.region, std::move(*v), Home(o.region)};
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
        return Message{o.region, std::move(*v), Home(o.region)};
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
    const std::vector<Range> regions = p_.ResultRegions();
    for (unsigned n = 0; n < n_; ++n) {
      const auto [lo, hi] = Span(regions[n]);
      const auto rank = RankOf(p_.req, n);
      Set all;  // the members of n's communicator
      if (rank) {
        for (unsigned m : comms_[rank->comm]) all.set(m);
      }
      for (size_t i = lo; i < hi; ++i) {
        Set want;
        uint64_t want_org = bounds_[i];  // every collective but all-to-all: in place
        switch (p_.req.collective) {
          case Collective::kAllGather:
            want.set(static_cast<size_t>(OwnerOf(rank, i)));
            break;
          case Collective::kBroadcast:
            want.set(p_.req.root);
            break;
          case Collective::kAllToAll: {
            const BlockSource b = AllToAllSource(p_.elements, rank->size, rank->rank, bounds_[i]);
            want.set(comms_[rank->comm][b.rank]);
            want_org = b.offset;
            break;
          }
          case Collective::kAllToAllV:  // the block of the member whose receive block holds it
            if (const auto src = layout_->SourceOf(n, bounds_[i])) {
              want.set(src->from);
              want_org = src->offset;
            }
            break;
          default:
            want = all;
        }
        if (val_[n][i] == want && org_[n][i] != want_org) {
          Fail(fmt::format(
              "{} ends with elements [{}, {}) holding offset {} of their input where offset {} "
              "belongs",
              w_.NodeName(n), bounds_[i], bounds_[i + 1], org_[n][i], want_org));
          return;
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
  std::optional<AllToAllVLayout> layout_;     // all-to-all-v
  SymbolicReport rep_;
  std::vector<uint64_t> bounds_;
  std::vector<std::vector<Set>> val_;
  std::vector<std::vector<uint64_t>> org_;  // per node and interval: Message::org
  std::map<ChannelKey, std::deque<Message>> chan_;
  std::map<unsigned, std::map<unsigned, Message>> eng_send_;
};

}  // namespace

SymbolicReport ExecuteSymbolically(const Program& p, const Wiring& w) {
  return Executor(p, w).Run();
}

}  // namespace aries::coll
