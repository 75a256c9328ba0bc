// All-to-all (issue 20): every member sends a block to every other member, in place
// (program.h: AllToAllBlock). Two algorithms:
// * direct: each member sends each block straight to its destination (dimension-order routed on
//   mesh, torus and flattened butterfly; on ARIES the embedder gives row and column peers that
//   are not neighbours bypass segments of their own, embed.h), one step;
// * 2phase: dimension-ordered: along the rows each node hands a row peer the K blocks bound for
//   the peer's column, then along the columns each node hands a column peer the K blocks bound
//   for it; every message is one dimension, K - 1 peers per phase instead of N - 1.
//   Communicators that are grids (every crossing of their members' rows and columns a member:
//   rows, quadrants, the peers across quadrants) run it over their own rows and columns.
// Both serve all-to-all-v (program.h: AllToAllVLayout). direct: the same messages from the
// send area into the receive area, of the counts' sizes (an empty block sends nothing). 2phase:
// a member hands each row peer its blocks for the peer's column; the peer keeps the one for
// itself in its receive area and the others in a staging area past the layout's buffer (per
// destination row, the row's senders in rank order), then sends each column peer what its row
// sent that peer, in at most three messages (the senders before it from staging, its own block
// from its send area, the senders after it), which land as one run in the receiver's receive
// area: the receive blocks are in rank order and a grid's ranks are row-major.
// The all-to-alls are exchanges: what a node sends to a peer and what it receives from that
// peer occupy the same region of its buffer, so the receive waits (per element, the endpoint's
// program order) until the send has read it. In each phase every node's sends come before its
// receives; the all-to-all-v's second phase reads the staging its first phase's receives wrote.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "plan_steps.h"

namespace aries::coll::steps {

namespace {

// A send (act kSend) or a receive (kRecvCopy) of `r` at node `at` with `peer` on local port
// `port` and VC `vc` (nothing if empty).
void Put(Program& p, Act act, unsigned at, unsigned peer, Range r, uint8_t port, unsigned vc = 0) {
  if (r.len == 0) return;
  Op o{act, peer, r};
  o.port = port;
  o.vc = vc;
  p.nodes[at].ops.push_back(o);
}

// The VCs the direct messages take in turn. Every message of a node shares its dimension-order
// paths with the node's other messages; on one VC a blocked packet holds up the ones behind it
// at every input it waits at. VC 0 and 1 on the mesh, ARIES and the butterfly; on the torus a
// message's class is VC bit 0 (the dateline), so VC 0 and 2. Without faults only: the detours
// around a fault take VC 2 of their own (embed.h). (Measured, 2 MB direct: 8x8 mesh 97,149
// cycles on VC 0 alone, 88,079 on 0 and 1, 88,739 on all four; 8x8 torus 87,199 -> 77,914.)
std::vector<unsigned> DirectVcs(const Request& req, const Hardware& hwp) {
  const bool torus = req.geom.topology == Topology::kTorus;
  if (!req.geom.faults.empty()) return {0};
  if (torus) return hwp.num_vcs >= 4 ? std::vector<unsigned>{0, 2} : std::vector<unsigned>{0};
  return hwp.num_vcs >= 2 ? std::vector<unsigned>{0, 1} : std::vector<unsigned>{0};
}

void RequireBlocks(const Request& req) {
  if (req.collective == Collective::kAllToAllV) return;  // the counts say (CheckCounts)
  const uint64_t g = LargestCommunicator(req);
  if (req.elements < g) {
    throw PlanError(
        fmt::format("coll.size: all-to-all over {} members needs at least {} elements (one per "
                    "block), the buffer has {}",
                    g, g, req.elements));
  }
}

// A communicator as a grid: its members' columns (w of them) and rows (h), every crossing a
// member; ranks (ascending ids) are then row-major: (c, r) is rank r w + c. Throws PlanError
// naming group `gi` (index from 0, named from 1) and the first crossing that is no member.
struct Grid {
  unsigned w = 0, h = 0;
  const std::vector<unsigned>* members = nullptr;
  unsigned Node(unsigned c, unsigned r) const { return (*members)[r * w + c]; }
};

Grid GridOf(const std::vector<unsigned>& members, unsigned k, size_t gi) {
  std::vector<unsigned> xs, ys;
  for (unsigned m : members) {
    xs.push_back(m % k);
    ys.push_back(m / k);
  }
  for (auto* v : {&xs, &ys}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  const auto w = static_cast<unsigned>(xs.size()), h = static_cast<unsigned>(ys.size());
  if (static_cast<size_t>(w) * h != members.size()) {
    unsigned missing = 0;  // the first crossing that is no member
    for (unsigned y : ys) {
      for (unsigned x : xs) {
        if (missing == 0 && !std::binary_search(members.begin(), members.end(), y * k + x))
          missing = y * k + x + 1;
      }
    }
    throw PlanError(fmt::format(
        "2phase over communicators: group {} is not a grid (its {} members lie in {} columns "
        "and {} rows, and node {} ({},{}) where one of them crosses one is not a member); "
        "allowed are groups holding every crossing of their members' rows and columns (rows, "
        "cols, quadrants, qpeers, vpairs, hpairs, rectangles)",
        gi + 1, members.size(), w, h, missing - 1, (missing - 1) % k, (missing - 1) / k));
  }
  return {w, h, &members};
}

// One message of the two phases: member `me` at (c, r) sends to (act kRecvCopy: receives from)
// member `peer` at (pc, pr) on local port `port`.
struct TwoPhaseMessage {
  int phase;
  Act act;
  unsigned me, peer, c, r, pc, pr;
  uint8_t port;
};

// The messages of the two phases over grid `g`, in program order, each to fn(TwoPhaseMessage).
// Phase 0 pairs (c, r) with every other member of its row, phase 1 with every other of its
// column, step s reaching the member s places on (receiving from the one s places back).
template <typename Fn>
void TwoPhaseMessages(const Grid& g, unsigned ports, Fn fn) {
  const unsigned w = g.w, h = g.h;
  for (int phase = 0; phase < 2; ++phase) {
    for (int recv = 0; recv < 2; ++recv) {
      for (unsigned r = 0; r < h; ++r) {
        for (unsigned c = 0; c < w; ++c) {
          for (unsigned s = 1; s < (phase == 0 ? w : h); ++s) {
            const unsigned pc = phase == 0 ? (c + (recv ? w - s : s)) % w : c;
            const unsigned pr = phase == 0 ? r : (r + (recv ? h - s : s)) % h;
            fn(TwoPhaseMessage{phase, recv ? Act::kRecvCopy : Act::kSend, g.Node(c, r),
                               g.Node(pc, pr), c, r, pc, pr, static_cast<uint8_t>(s % ports)});
          }
        }
      }
    }
  }
}

// The all-to-all-v's two phases over grid `g` (see the file's head), its staging areas from
// offset `stage_base`; returns the longest staging area of its members.
uint64_t TwoPhaseV(Program& p, const AllToAllVLayout& lay, const Grid& g, uint64_t stage_base,
                   unsigned ports) {
  const auto& cnt = p.req.counts;
  const unsigned w = g.w, h = g.h;
  // stage[(cp, r) as r w + cp][rr][c]: what (c, r) sent (cp, r) for (cp, rr); rr != r, c != cp.
  std::vector<std::vector<std::vector<Range>>> stage(
      size_t{w} * h, std::vector<std::vector<Range>>(h, std::vector<Range>(w)));
  uint64_t longest = 0;
  for (unsigned r = 0; r < h; ++r) {
    for (unsigned cp = 0; cp < w; ++cp) {
      uint64_t off = stage_base;
      for (unsigned rr = 0; rr < h; ++rr) {
        if (rr == r) continue;
        for (unsigned c = 0; c < w; ++c) {
          if (c == cp) continue;
          const uint64_t len = cnt[g.Node(c, r)][g.Node(cp, rr)];
          stage[r * w + cp][rr][c] = {off, len};
          off += len;
        }
      }
      longest = std::max(longest, off - stage_base);
    }
  }
  // The staged blocks of senders c0 .. c1 - 1 of row r for (cp, rr), held at (cp, r): one run.
  auto staged = [&](unsigned cp, unsigned r, unsigned rr, unsigned c0, unsigned c1) {
    const auto& v = stage[r * w + cp][rr];
    uint64_t len = 0;
    for (unsigned c = c0; c < c1; ++c) len += v[c].len;
    return Range{c0 < c1 ? v[c0].off : 0, len};
  };
  // The blocks from senders c0 .. c1 - 1 of row r in the receive area of `at` (in another
  // row): one run, the receive blocks being in rank order.
  auto received = [&](unsigned at, unsigned r, unsigned c0, unsigned c1) {
    uint64_t len = 0;
    for (unsigned c = c0; c < c1; ++c) len += lay.Recv(at, g.Node(c, r)).len;
    return Range{c0 < c1 ? lay.Recv(at, g.Node(c0, r)).off : 0, len};
  };
  TwoPhaseMessages(g, ports, [&](const TwoPhaseMessage& m) {
    const auto [phase, act, me, peer, c, r, pc, pr, port] = m;
    const bool recv = act == Act::kRecvCopy;
    if (phase == 0) {
      // (c, r) sends (pc, r) its blocks for column pc, row by row; (c, r) receives from (pc, r)
      // the blocks for (c, rr): its own into the receive area, the rest staged.
      for (unsigned rr = 0; rr < h; ++rr) {
        if (!recv) {
          Put(p, act, me, peer, lay.Send(me, g.Node(pc, rr)), port);
        } else {
          Put(p, act, me, peer, rr == r ? lay.Recv(me, peer) : stage[r * w + c][rr][pc], port);
        }
      }
    } else if (!recv) {
      // (c, r) sends (c, pr) what row r has for it: staged, its own, staged.
      Put(p, act, me, peer, staged(c, r, pr, 0, c), port);
      Put(p, act, me, peer, lay.Send(me, peer), port);
      Put(p, act, me, peer, staged(c, r, pr, c + 1, w), port);
    } else {
      // (c, r) receives from (c, pr) row pr's blocks for it, in the same three runs.
      Put(p, act, me, peer, received(me, pr, 0, c), port);
      Put(p, act, me, peer, lay.Recv(me, peer), port);
      Put(p, act, me, peer, received(me, pr, c + 1, w), port);
    }
  });
  return longest;
}

}  // namespace

Program PlanAllToAllDirect(const Request& req, const Hardware& hwp) {
  RequireBlocks(req);
  Program p = Empty(req);
  const unsigned ports = std::max(1u, hwp.local_ports);
  const std::vector<unsigned> vcs = DirectVcs(req, hwp);
  const bool v = req.collective == Collective::kAllToAllV;
  std::optional<AllToAllVLayout> layout;
  if (v) layout.emplace(req);
  // The block member i sends member j, and the one member i keeps member j's in.
  auto out = [&](const std::vector<unsigned>& m, unsigned g, unsigned i, unsigned j) {
    return v ? layout->Send(m[i], m[j]) : AllToAllBlock(p.elements, g, j);
  };
  auto in = [&](const std::vector<unsigned>& m, unsigned g, unsigned i, unsigned j) {
    return v ? layout->Recv(m[i], m[j]) : AllToAllBlock(p.elements, g, j);
  };
  for (const auto& members : Communicators(req)) {
    const auto g = static_cast<unsigned>(members.size());
    // Member i's s-th send goes to member i + s: in each step every member is the destination
    // of one sender (the messages start at once; the order matters only for who waits first).
    // Step s takes local port s mod ports on both ends.
    for (unsigned i = 0; i < g; ++i) {
      for (unsigned s = 1; s < g; ++s) {
        const unsigned j = (i + s) % g;
        Put(p, Act::kSend, members[i], members[j], out(members, g, i, j),
            static_cast<uint8_t>(s % ports), vcs[s % vcs.size()]);
      }
    }
    for (unsigned i = 0; i < g; ++i) {
      for (unsigned s = 1; s < g; ++s) {
        const unsigned j = (i + g - s) % g;  // the member whose step s reaches i
        Put(p, Act::kRecvCopy, members[i], members[j], in(members, g, i, j),
            static_cast<uint8_t>(s % ports), vcs[s % vcs.size()]);
      }
    }
  }
  p.sync_steps = 1;
  p.summary = v ? "direct all-to-all-v: every member sends its block for member j straight to j, "
                  "into j's receive area"
                : "direct all-to-all: every member sends block j straight to member j";
  return p;
}

Program PlanAllToAll2d(const Request& req, const Hardware& hwp) {
  RequireBlocks(req);
  Program p = Empty(req);
  const unsigned k = req.geom.k;
  const unsigned ports = std::max(1u, hwp.local_ports);
  unsigned most = 0;  // peers per phase, the largest
  const auto comms = Communicators(req);
  const bool v = req.collective == Collective::kAllToAllV;
  std::optional<AllToAllVLayout> layout;
  if (v) layout.emplace(req);
  uint64_t staging = 0;  // the longest staging area (all-to-all-v)
  for (size_t gi = 0; gi < comms.size(); ++gi) {
    const auto& members = comms[gi];
    const Grid grid = GridOf(members, k, gi);
    const unsigned w = grid.w, h = grid.h;
    most = std::max(most, (w - 1) + (h - 1));
    if (v) {
      staging = std::max(staging, TwoPhaseV(p, *layout, grid, layout->elements(), ports));
      continue;
    }
    const auto g = static_cast<unsigned>(members.size());
    auto block = [&](unsigned c, unsigned r) { return AllToAllBlock(p.elements, g, r * w + c); };
    // Block (c, r) is the one bound for the member at (c, r) at the start.
    // Phase 1, rows: members (c, r) and (c', r) swap column c' of (c, r)'s blocks (what it has
    // for (c', r'') for every r'') for column c of (c', r)'s blocks, each keeping what it gets
    // in the blocks it gave (so (c, r) keeps them as its column c'). Afterwards block (c', r'')
    // of (c, r) holds what (c', r) has for (c, r'').
    // Phase 2, columns: members (c, r) and (c, r') swap row r' of (c, r)'s blocks (what the row
    // of (c, r) has for (c, r')) for row r of (c, r')'s blocks, each keeping what it gets in the
    // blocks it gave. Afterwards block (c'', r') of (c, r) holds what (c'', r') sent it.
    TwoPhaseMessages(grid, ports, [&](const TwoPhaseMessage& m) {
      if (m.phase == 0) {
        for (unsigned rr = 0; rr < h; ++rr) Put(p, m.act, m.me, m.peer, block(m.pc, rr), m.port);
      } else {
        Put(p, m.act, m.me, m.peer, Range{block(0, m.pr).off, block(0, m.pr).len * w}, m.port);
      }
    });
  }
  p.sync_steps = 2;
  if (v && layout->elements() + staging > kMaxAllToAllVElements) {
    throw PlanError(fmt::format(
        "2phase alltoallv: a buffer of {} elements per chiplet (send and receive areas {} + "
        "the staging of what a chiplet relays {}); allowed at most {} (direct needs no staging)",
        layout->elements() + staging, layout->elements(), staging, kMaxAllToAllVElements));
  }
  p.elements += staging;
  const std::string what =
      v ? fmt::format("all-to-all-v (through a staging area of {} elements)", staging)
        : "all-to-all";
  if (!req.groups.empty()) {
    p.summary = fmt::format(
        "2-phase {} over each of {} at once: along the group's rows then its columns, every "
        "message one dimension, at most {} peers in all",
        what, GroupsLabel(req), most);
    return p;
  }
  p.summary = fmt::format(
      "2-phase {}: rows then columns, K - 1 = {} peers per phase, every message one dimension",
      what, k - 1);
  return p;
}

}  // namespace aries::coll::steps
