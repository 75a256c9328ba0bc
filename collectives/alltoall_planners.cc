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
// direct also serves all-to-all-v (program.h: AllToAllVLayout): the same messages from the
// send area into the receive area, of the counts' sizes (an empty block sends nothing).
// Both are exchanges: what a node sends to a peer and what it receives from that peer occupy
// the same region of its buffer, so the receive waits (per element, the endpoint's program
// order) until the send has read it. In each phase every node's sends come before its
// receives.
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
  for (size_t gi = 0; gi < comms.size(); ++gi) {
    const auto& members = comms[gi];
    // The group as a grid: its members' columns (w of them) and rows (h), every crossing a
    // member; ranks (ascending ids) are then row-major: (c, r) is rank r w + c.
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
    most = std::max(most, (w - 1) + (h - 1));
    const auto g = static_cast<unsigned>(members.size());
    auto node = [&](unsigned c, unsigned r) { return members[r * w + c]; };
    auto block = [&](unsigned c, unsigned r) { return AllToAllBlock(p.elements, g, r * w + c); };
    // Block (c, r) is the one bound for the member at (c, r) at the start.
    // Phase 1, rows: members (c, r) and (c', r) swap column c' of (c, r)'s blocks (what it has
    // for (c', r'') for every r'') for column c of (c', r)'s blocks, each keeping what it gets
    // in the blocks it gave (so (c, r) keeps them as its column c'). Afterwards block (c', r'')
    // of (c, r) holds what (c', r) has for (c, r'').
    // Phase 2, columns: members (c, r) and (c, r') swap row r' of (c, r)'s blocks (what the row
    // of (c, r) has for (c, r')) for row r of (c, r')'s blocks, each keeping what it gets in the
    // blocks it gave. Afterwards block (c'', r') of (c, r) holds what (c'', r') sent it.
    for (int phase = 0; phase < 2; ++phase) {
      for (int recv = 0; recv < 2; ++recv) {
        const Act act = recv ? Act::kRecvCopy : Act::kSend;
        for (unsigned r = 0; r < h; ++r) {
          for (unsigned c = 0; c < w; ++c) {
            const unsigned me = node(c, r);
            for (unsigned s = 1; s < (phase == 0 ? w : h); ++s) {
              const auto port = static_cast<uint8_t>(s % ports);
              if (phase == 0) {
                const unsigned pc = (c + (recv ? w - s : s)) % w;
                for (unsigned rr = 0; rr < h; ++rr)
                  Put(p, act, me, node(pc, r), block(pc, rr), port);
              } else {
                const unsigned pr = (r + (recv ? h - s : s)) % h;
                const Range row{block(0, pr).off, block(0, pr).len * w};
                Put(p, act, me, node(c, pr), row, port);
              }
            }
          }
        }
      }
    }
  }
  p.sync_steps = 2;
  if (!req.groups.empty()) {
    p.summary = fmt::format(
        "2-phase all-to-all over each of {} at once: along the group's rows then its columns, "
        "every message one dimension, at most {} peers in all",
        GroupsLabel(req), most);
    return p;
  }
  p.summary = fmt::format(
      "2-phase all-to-all: rows then columns, K - 1 = {} peers per phase, every message one "
      "dimension",
      k - 1);
  return p;
}

}  // namespace aries::coll::steps
