// The planners against their own validator and symbolic execution: every algorithm x
// collective it implements x topology x size (one element, sizes N and the flit do not divide,
// large), and the synchronization steps against ARIES Table I.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "aries_pkg.h"
#include "planners.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

Request Req(Topology t, unsigned k, const char* algo, Collective c, uint64_t elements) {
  Request r;
  r.geom.topology = t;
  r.geom.k = k;
  r.algo = algo;
  r.collective = c;
  r.op = hw::kOpAddI32;
  r.elements = elements;
  r.root = k * k / 2 + 1 < k * k ? k * k / 2 + 1 : 0;
  return r;
}

Hardware Hw(Topology t) {
  Hardware h;
  h.engine = t != Topology::kFbfly;
  return h;
}

TEST(Plan, EveryAlgorithmCollectiveTopologyAndSizeValidates) {
  const Collective colls[] = {Collective::kAllReduce, Collective::kReduceScatter,
                              Collective::kAllGather, Collective::kReduce,
                              Collective::kBroadcast, Collective::kBarrier,
                              Collective::kAllToAll};
  unsigned planned = 0;
  for (const AlgorithmInfo& a : Algorithms()) {
    for (Collective c : colls) {
      if (!a.Serves(c)) continue;
      for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
        if ((a.engine && t == Topology::kFbfly) || !a.Serves(t)) continue;
        for (unsigned k : {2u, 4u, 8u}) {
          for (uint64_t m :
               {uint64_t{1}, uint64_t{k * k - 1}, uint64_t{1000003}, uint64_t{16u << 20}}) {
            SCOPED_TRACE(fmt::format("{} {} {} {}x{} {} elements", a.name, CollectiveName(c),
                                     TopologyName(t), k, k, m));
            Validation v;
            Request r = Req(t, k, a.name, c, m);
            r.levels = k == 2 ? 1 : k == 4 ? 2 : 3;         // aries_lt: 2x2 rings at every level
            if (c == Collective::kAllToAll && m < k * k) {  // fewer elements than blocks
              EXPECT_THROW(Plan(r, Hw(t)), PlanError);
              continue;
            }
            const Program p = Plan(r, Hw(t), &v);
            EXPECT_GT(v.symbolic.messages + v.symbolic.engine_ids, 0u);
            EXPECT_GT(p.sync_steps, 0u);
            ++planned;
          }
        }
      }
    }
  }
  EXPECT_GT(planned, 200u);
}

TEST(Plan, TreeWithSeveralEmbeddingsInterleavesIds) {
  Request r = Req(Topology::kMesh, 4, "tree", Collective::kAllReduce, 100000);
  r.embeddings = 4;
  const Program p = Plan(r, Hw(Topology::kMesh));
  EXPECT_EQ(p.nodes[0].req.steps.size(), 4u);
  EXPECT_EQ(p.nodes[0].ids.size(), 4u);
}

unsigned Steps(Topology t, unsigned k, const char* algo, unsigned levels = 2) {
  Request r = Req(t, k, algo, Collective::kAllReduce, 4096);
  r.levels = levels;
  return Plan(r, Hw(t)).sync_steps;
}

TEST(Plan, SynchronizationStepsFollowTableI) {
  // ARIES Table I (sqrt(N) x sqrt(N) torus): ring N - 1, 2D ring 2 (sqrt(N) - 1).
  for (unsigned k : {2u, 4u, 8u}) {
    const unsigned n = k * k;
    EXPECT_EQ(Steps(Topology::kTorus, k, "ring"), n - 1);
    EXPECT_EQ(Steps(Topology::kTorus, k, "2dring"), 2 * (k - 1));
    unsigned lg = 0;
    while ((1u << lg) < n) ++lg;
    EXPECT_EQ(Steps(Topology::kTorus, k, "rd"), lg);
    // Double binary tree: the in-order tree over N = 2^m ranks has height log2 N (Table I's
    // sqrt(N) - 1 counts torus hops, not tree levels).
    EXPECT_EQ(Steps(Topology::kTorus, k, "dbt"), lg);
    // Multi-tree: breadth-first trees are as high as the topology's eccentricity: K on a
    // torus with even K (Table I: sqrt(N) - 1), 2 (K - 1) on a mesh, 2 on the butterfly.
    EXPECT_EQ(Steps(Topology::kTorus, k, "mtree"), k == 2 ? 2 : k);
    EXPECT_EQ(Steps(Topology::kMesh, k, "mtree"), 2 * (k - 1));
    EXPECT_EQ(Steps(Topology::kFbfly, k, "mtree"), 2u);
    // Concentrated multi-tree: 3 ring steps in a 2x2 group + the (K/2)x(K/2) plane's height.
    EXPECT_EQ(Steps(Topology::kAries, k, "cmtree"), 3 + 2 * (k / 2 - 1));
  }
  // ARIES_LT (section IV-A2): L (N^(1/L) - 1). Table I prints L (sqrt(N) - 1) in v1 and
  // L (N^(1/4) - 1) in v2 for the same row; IV-A2 (both versions) is the one that counts the
  // rings' steps: L = 1 is the ring, L = 2 ties the 2D ring.
  EXPECT_EQ(Steps(Topology::kAries, 4, "aries_lt", 1), 15u);
  EXPECT_EQ(Steps(Topology::kAries, 4, "aries_lt", 2), 2u * (4 - 1));
  EXPECT_EQ(Steps(Topology::kAries, 8, "aries_lt", 1), 63u);
  EXPECT_EQ(Steps(Topology::kAries, 8, "aries_lt", 3), 3u * (4 - 1));
  EXPECT_EQ(Steps(Topology::kAries, 16, "aries_lt", 2), 2u * (16 - 1));
  EXPECT_EQ(Steps(Topology::kAries, 16, "aries_lt", 4), 4u * (4 - 1));
}

TEST(Plan, RingOrderIsAHamiltonianCycleForEvenK) {
  for (unsigned k : {2u, 4u, 6u, 8u, 16u}) {
    const auto r = RingOrder(k);
    ASSERT_EQ(r.size(), k * k);
    std::vector<bool> seen(k * k, false);
    for (size_t i = 0; i < r.size(); ++i) {
      EXPECT_FALSE(seen[r[i]]);
      seen[r[i]] = true;
      const unsigned a = r[i], b = r[(i + 1) % r.size()];
      const int dx = static_cast<int>(a % k) - static_cast<int>(b % k);
      const int dy = static_cast<int>(a / k) - static_cast<int>(b / k);
      EXPECT_EQ(std::abs(dx) + std::abs(dy), 1) << "k " << k << " step " << i;
    }
  }
}

TEST(Plan, RankOrderRingIsRowMajor) {
  const auto r = RingOrder(4, RingMap::kRank);
  ASSERT_EQ(r.size(), 16u);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(r[i], i);
}

// Every ring map and direction count of the ring, on every collective, topology and K, through
// the validator and the symbolic execution (every element exactly once, complete).
TEST(Plan, RingMapsAndDirectionsValidate) {
  const Collective colls[] = {Collective::kAllReduce, Collective::kReduceScatter,
                              Collective::kAllGather, Collective::kReduce,
                              Collective::kBroadcast, Collective::kBarrier};
  for (RingMap map : {RingMap::kSnake, RingMap::kRank}) {
    for (unsigned dirs : {1u, 2u}) {
      for (Collective c : colls) {
        for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries, Topology::kFbfly}) {
          for (unsigned k : {2u, 3u, 4u, 8u}) {
            for (uint64_t m : {uint64_t{1}, uint64_t{2 * k * k - 1}, uint64_t{1000003}}) {
              SCOPED_TRACE(fmt::format("{} {} dirs {} {} {}x{} {} elements", RingMapName(map), dirs,
                                       CollectiveName(c), TopologyName(t), k, k, m));
              Request r = Req(t, k, "ring", c, m);
              r.ring = {map, dirs};
              Validation v;
              const Program p = Plan(r, Hw(t), &v);
              EXPECT_EQ(p.sync_steps, k * k - 1);
              EXPECT_GT(v.symbolic.messages, 0u);
            }
          }
        }
      }
    }
  }
}

// Two directions: every node sends to both ring neighbours, each direction carrying half of
// every shard, so each neighbour pair's links carry the same traffic both ways.
TEST(Plan, TwoRingDirectionsSplitEveryShard) {
  Request r = Req(Topology::kMesh, 4, "ring", Collective::kAllReduce, 16 * 64);
  r.ring = {RingMap::kRank, 2};
  const Program p = Plan(r, Hw(Topology::kMesh));
  for (unsigned n = 0; n < 16; ++n) {
    uint64_t to_next = 0, to_prev = 0;
    for (const Op& o : p.nodes[n].ops) {
      if (o.act != Act::kSend) continue;
      ASSERT_TRUE(o.peer == (n + 1) % 16 || o.peer == (n + 15) % 16) << n << " -> " << o.peer;
      (o.peer == (n + 1) % 16 ? to_next : to_prev) += o.region.len;
    }
    // 2 (N-1) chunks of a 32-element half shard in each direction.
    EXPECT_EQ(to_next, 2u * 15 * 32) << n;
    EXPECT_EQ(to_prev, 2u * 15 * 32) << n;
  }
}

// On the torus with several local ports a table route would keep its VC over a wrap-around
// link and close the ring the dateline VC opens: every all-reduce planner's program is
// accepted, the paths that cross a dateline stay in dimension order and the rest are
// table-routed (recursive doubling on 4x4 pairs 2 with 0 over the wrap: 2 -> 3 -> 0).
TEST(Plan, TorusWithSeveralLocalPortsKeepsDatelinePathsInDimensionOrder) {
  for (const char* algo : {"ring", "dbt", "mtree", "cmtree", "rd", "rabenseifner"}) {
    for (unsigned ports : {2u, 4u}) {
      Request r = Req(Topology::kTorus, 4, algo, Collective::kAllReduce, 16 * 64 * 3 + 5);
      r.geom.local_ports = ports;
      Hardware h = Hw(Topology::kTorus);
      h.local_ports = ports;
      Program p;
      ASSERT_NO_THROW(p = Plan(r, h)) << algo << " on " << ports << " ports";
      if (std::string(algo) != "rd") continue;
      unsigned dor = 0, table = 0;
      for (unsigned n = 0; n < 16; ++n) {
        for (const Op& o : p.nodes[n].ops) {
          if (o.act != Act::kSend) continue;
          const unsigned x = n % 4, px = o.peer % 4, y = n / 4, py = o.peer / 4;
          const bool wraps =
              (y == py && (x + 2) % 4 == px && x >= 2) || (x == px && (y + 2) % 4 == py && y >= 2);
          if (wraps) {
            EXPECT_LT(o.flow, 0) << "node " << n << " to " << o.peer;
          }
          (o.flow < 0 ? dor : table) += 1;
        }
      }
      EXPECT_GT(dor, 0u);
      EXPECT_GT(table, 0u);
    }
  }
}

// With several local ports a message is table-routed to leave by its own local port; when
// every flow is taken along its path (the direct all-to-all's 4,032 messages on 8x8) it stays
// in dimension order instead of refusing the plan, at most one such link per pair of nodes.
TEST(Plan, LocalPortRoutesLeftInDimensionOrderWhenTheFlowsRunOut) {
  for (const Topology t : {Topology::kMesh, Topology::kTorus, Topology::kAries}) {
    Request r = Req(t, 8, "direct", Collective::kAllToAll, 64 * 64);
    r.geom.local_ports = 2;
    Hardware h = Hw(t);
    h.local_ports = 2;
    Program p;
    ASSERT_NO_THROW(p = Plan(r, h)) << TopologyName(t);
    unsigned dor = 0, table = 0;
    std::set<std::pair<unsigned, unsigned>> dor_pairs;
    for (unsigned n = 0; n < 64; ++n) {
      for (const Op& o : p.nodes[n].ops) {
        if (o.act != Act::kSend) continue;
        (o.flow < 0 ? dor : table) += 1;
        if (o.flow < 0) {
          EXPECT_TRUE(dor_pairs.insert({n, o.peer}).second) << n << " -> " << o.peer;
        }
      }
    }
    EXPECT_GT(dor, 0u) << TopologyName(t);
    EXPECT_GT(table, 0u) << TopologyName(t);
    EXPECT_NE(p.summary.find("ejected by their input port's local port, every flow taken"),
              std::string::npos)
        << p.summary;
  }
}

// Planners that leave every message on local port 0 get them spread over the node's local
// ports (SpreadOverPorts): each channel on one port, the sends' and receives' ports agree, and
// every node's sending and receiving are both spread (below). A program that chose its ports
// (ARIES_BW) and one local port are left alone.
TEST(Plan, MessagesSpreadOverTheLocalPorts) {
  for (const char* algo : {"dbt", "mtree", "cmtree", "rd", "aries_lt"}) {
    for (unsigned ports : {2u, 4u}) {
      Request r = Req(Topology::kAries, 4, algo, Collective::kAllReduce, 16 * 64 * 3 + 5);
      r.geom.local_ports = ports;
      Hardware h = Hw(Topology::kAries);
      h.local_ports = ports;
      const Program p = Plan(r, h);
      const Program one =
          Plan(Req(Topology::kAries, 4, algo, Collective::kAllReduce, 16 * 64 * 3 + 5),
               Hw(Topology::kAries));
      ASSERT_EQ(p.nodes.size(), one.nodes.size());
      std::map<std::tuple<unsigned, unsigned, int, unsigned>, unsigned> port_of;
      std::vector<unsigned> used(ports, 0);
      // Per node, port and direction (0 out, 1 in): elements; per node and direction: the
      // channels' elements.
      std::vector<uint64_t> load(16 * ports * 2, 0);
      std::map<std::tuple<unsigned, unsigned, int, unsigned>, uint64_t> chan;
      for (unsigned n = 0; n < 16; ++n) {
        ASSERT_EQ(p.nodes[n].ops.size(), one.nodes[n].ops.size()) << algo;
        for (size_t j = 0; j < p.nodes[n].ops.size(); ++j) {
          const Op& o = p.nodes[n].ops[j];
          EXPECT_EQ(one.nodes[n].ops[j].port, 0u) << algo;
          ASSERT_LT(o.port, ports) << algo;
          if (o.act != Act::kSend) continue;
          const auto key = std::make_tuple(n, o.peer, o.flow, o.vc);
          const auto [it, fresh] = port_of.emplace(key, o.port);
          EXPECT_EQ(it->second, o.port) << algo << ": node " << n << " to " << o.peer;
          load[(n * ports + o.port) * 2] += o.region.len;
          load[(o.peer * ports + o.port) * 2 + 1] += o.region.len;
          chan[key] += o.region.len;
          ++used[o.port];
        }
      }
      // Both ends of every channel count: at each node, in each direction, no port carries more
      // than an even share of the node's elements plus its largest channel there (a tree's
      // leaves send one channel each, which a sender-only spread would land on one port of
      // their parent).
      for (unsigned n = 0; n < 16; ++n) {
        for (unsigned d = 0; d < 2; ++d) {
          uint64_t total = 0, largest = 0, busiest = 0;
          for (const auto& [key, len] : chan) {
            if ((d == 0 ? std::get<0>(key) : std::get<1>(key)) != n) continue;
            total += len;
            largest = std::max(largest, len);
          }
          for (unsigned q = 0; q < ports; ++q)
            busiest = std::max(busiest, load[(n * ports + q) * 2 + d]);
          EXPECT_LE(busiest, (total + ports - 1) / ports + largest)
              << algo << " node " << n << (d == 0 ? " out" : " in") << ", " << ports << " ports";
        }
      }
      for (unsigned n = 0; n < 16; ++n) {  // a receive takes its channel's port
        for (const Op& o : p.nodes[n].ops) {
          if (!o.IsRecv()) continue;
          const auto it = port_of.find(std::make_tuple(o.peer, n, o.flow, o.vc));
          ASSERT_NE(it, port_of.end()) << algo;
          EXPECT_EQ(it->second, o.port) << algo << ": node " << n << " from " << o.peer;
        }
      }
      EXPECT_GT(used[1], 0u) << algo;
      EXPECT_NE(p.summary.find(fmt::format("over {} local ports", ports)), std::string::npos)
          << p.summary;
    }
  }
  // ARIES_BW puts its second lane on port 1 itself: nothing is moved.
  Request bw = Req(Topology::kAries, 4, "aries_bw", Collective::kAllReduce, 4096);
  bw.geom.local_ports = 2;
  Hardware h2 = Hw(Topology::kAries);
  h2.local_ports = 2;
  const Program b = Plan(bw, h2);
  EXPECT_EQ(b.summary.find("local ports"), std::string::npos) << b.summary;
}

// ARIES_BW's summary says which messages it halved: a message of one flit is not split.
TEST(Plan, AriesBwSummaryNamesTheMessagesItHalved) {
  const Hardware h = Hw(Topology::kAries);
  const uint64_t lanes = h.lanes, nodes = 16;
  auto summary = [&](uint64_t elements) {
    return Plan(Req(Topology::kAries, 4, "aries_bw", Collective::kAllReduce, elements), h).summary;
  };
  EXPECT_NE(summary(nodes * lanes * 4).find("every message halved"), std::string::npos);
  const std::string none = summary(nodes);  // one element a message
  EXPECT_NE(none.find("no message halved (none of the 480 reaches two flits)"), std::string::npos)
      << none;
  EXPECT_EQ(none.find("beside it"), std::string::npos) << none;
  // Half the chunks one element past a flit (two flits), half exactly one flit.
  const std::string some = summary(nodes * lanes + nodes / 2);
  // 16 nodes x 15 steps x 2 phases = 480 messages, half of them of two flits.
  EXPECT_NE(some.find("240 of 480 messages (those of two flits or more) halved"), std::string::npos)
      << some;
  EXPECT_EQ(some.find("every message"), std::string::npos) << some;
}

TEST(Plan, BadRequestsNameTheItem) {
  auto err = [](Request r, Hardware h = Hardware{}) -> std::string {
    try {
      Plan(r, h);
    } catch (const PlanError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(err(Req(Topology::kMesh, 4, "nccl", Collective::kAllReduce, 10))
                .find("coll.algo = nccl: unknown; allowed ring"),
            std::string::npos);
  EXPECT_NE(err(Req(Topology::kMesh, 4, "rd", Collective::kBroadcast, 10))
                .find("rd does not implement broadcast"),
            std::string::npos);
  EXPECT_NE(err(Req(Topology::kMesh, 4, "ring", Collective::kAllReduce, 0)).find("coll.size"),
            std::string::npos);
  Request r = Req(Topology::kMesh, 4, "ring", Collective::kReduce, 10);
  r.root = 16;
  EXPECT_NE(err(r).find("coll.root = 16: allowed 0..15"), std::string::npos);
  Hardware none;
  none.engine = false;
  EXPECT_NE(err(Req(Topology::kMesh, 4, "tree", Collective::kAllReduce, 10), none)
                .find("needs the collective engine"),
            std::string::npos);
  Request e = Req(Topology::kMesh, 4, "tree", Collective::kAllReduce, 10);
  e.embeddings = 9;
  EXPECT_NE(err(e).find("coll.embeddings = 9: allowed 1..8"), std::string::npos);
  EXPECT_NE(err(Req(Topology::kMesh, 4, "aries_bw", Collective::kAllReduce, 10))
                .find("algorithm aries_bw does not apply to topology mesh; it applies to aries"),
            std::string::npos);
  Request lt = Req(Topology::kAries, 4, "aries_lt", Collective::kAllReduce, 10);
  lt.levels = 3;
  EXPECT_NE(err(lt).find("coll.levels = 3: K = 4 must be b^levels for an integer b >= 2; allowed "
                         "levels for K = 4: 1, 2"),
            std::string::npos);
  Request dirs = Req(Topology::kMesh, 4, "ring", Collective::kAllReduce, 10);
  dirs.ring.dirs = 3;
  EXPECT_NE(err(dirs).find("coll.ring_dirs = 3: allowed 1, 2"), std::string::npos);
  Request lay = Req(Topology::kMesh, 4, "dbt", Collective::kAllReduce, 10);
  lay.ring.map = RingMap::kRank;
  EXPECT_NE(
      err(lay).find("coll.ring_map = rank, coll.ring_dirs = 1: algorithm dbt lays out its "
                    "own links; a ring map other than snake and two directions apply to: ring"),
      std::string::npos);
  EXPECT_NE(err(Req(Topology::kMesh, 3, "cmtree", Collective::kAllReduce, 10))
                .find("cmtree concentrates 2x2 groups: K even; K = 3"),
            std::string::npos);
}

}  // namespace
