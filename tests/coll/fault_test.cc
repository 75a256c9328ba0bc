// Faults in the controller (collectives/faults, fault_routes, and the wiring, embedder, planners
// and validator around them): the description is parsed and refused by name, a program that
// uses a dead part is refused naming the fault, every planner embeds around one dead link and
// one dead bypass segment and around every dead port, a package the faults cut in parts is
// refused naming the cut, and the point-to-point routes around faults reach every pair
// without a cyclic channel dependency.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "aries_pkg.h"
#include "fault_routes.h"
#include "faults.h"
#include "planners.h"
#include "validate.h"
#include "wiring.h"

namespace {

using namespace aries::coll;
namespace hw = aries::hw;

Geometry Geom(Topology t, unsigned k) {
  Geometry g;
  g.topology = t;
  g.k = k;
  return g;
}

bool Has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

std::string RefusalOf(const std::string& text, const Geometry& g) {
  try {
    ParseFaults(text, g);
  } catch (const FaultError& e) {
    return e.what();
  }
  return "";
}

TEST(Faults, EveryFormParsesAndNamesItselfBack) {
  const Geometry g = Geom(Topology::kAries, 4);
  const FaultSet s = ParseFaults(
      "link:x(1,1), link:9-13@700, segment:xtrack1.2:0-3@5, switch:ytrack0.3:2, port:6.YM", g);
  ASSERT_EQ(s.faults.size(), 5u);
  EXPECT_EQ(s.faults[0].kind, FaultKind::kLink);
  EXPECT_EQ(s.faults[0].a, 5u);
  EXPECT_EQ(s.faults[0].b, 6u);
  EXPECT_EQ(s.faults[1].from, 700u);
  EXPECT_EQ(s.faults[2].kind, FaultKind::kSegment);
  EXPECT_EQ(s.faults[2].line, 2u);
  EXPECT_EQ(s.faults[2].track, 1u);
  EXPECT_EQ(s.faults[3].kind, FaultKind::kSwitch);
  EXPECT_EQ(s.faults[3].dim, 1u);
  EXPECT_EQ(s.faults[4].port, static_cast<unsigned>(hw::kPortYM));
  EXPECT_EQ(s.Names(g),
            "link:x(1,1), link:y(1,2)@700, segment:xtrack1.2:0-3@5, switch:ytrack0.3:2, port:6.YM");
  EXPECT_EQ(ParseFaults(s.Names(g), g), s);  // the names read back to the same faults
  EXPECT_TRUE(ParseFaults("none", g).empty());
  EXPECT_EQ(s.FromReset().Names(g), "link:x(1,1), switch:ytrack0.3:2, port:6.YM");
  // A file: one a line, comments.
  const FaultSet f = ParseFaultLines("# dead parts\nlink:0-1\n\n  port:3.XM # flaky\n", g, "f");
  EXPECT_EQ(f.Names(g), "link:x(0,0), port:3.XM");
}

TEST(Faults, BadDescriptionsAreRefusedNamingTheItem) {
  const Geometry g = Geom(Topology::kAries, 4);
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"link:0-5", "no aries link joins nodes 0 and 5"},
      {"link:x(3,0)", "no link of the aries 4x4 package is named 'x(3,0)'"},
      {"segment:xtrack2.0:0-1", "track 2 does not exist"},
      {"segment:xtrack0.4:0-1", "row 4 does not exist"},
      {"segment:xtrack0.1:2-2", "not a span"},
      {"switch:ytrack0.1:4", "not a switch position"},
      {"port:16.XP", "node 0 .. 15"},
      {"port:3.ZP", "'ZP' is not an interposer port"},
      {"wire:0-1", "unknown kind 'wire'"},
      {"link:0-1@-5", "is not a cycle"},
      {"link:0-1, link:x(0,0)@9", "given twice"},
      {"link:0-1,,link:1-2", "an empty fault"},
  };
  for (const Case& c : cases) {
    const std::string why = RefusalOf(c.text, g);
    EXPECT_TRUE(Has(why, c.says)) << c.text << ": " << why;
    EXPECT_TRUE(Has(why, "allowed")) << why;
  }
  EXPECT_TRUE(Has(RefusalOf("segment:xtrack0.0:0-1", Geom(Topology::kMesh, 4)),
                  "the mesh package has no bypass tracks"));
  try {
    ParseFaultLines("link:0-1\nlink:0-9\n", g, "faults.txt");
    ADD_FAILURE() << "a bad line was accepted";
  } catch (const FaultError& e) {
    EXPECT_TRUE(Has(e.what(), "faults.txt:2:")) << e.what();
  }
}

Request Req(Topology t, unsigned k, const char* algo, const char* faults = "") {
  Request r;
  r.geom = Geom(t, k);
  r.geom.faults = ParseFaults(faults, r.geom);
  r.algo = algo;
  r.op = hw::kOpAddI32;
  r.elements = 4099;
  return r;
}

TEST(Faults, TheValidatorRefusesAProgramOnADeadLinkByName) {
  // The ring crosses 6 -> 5 (link x(1,1)); planned without the fault, validated with it.
  Program p = Plan(Req(Topology::kAries, 4, "ring"), Hardware{});
  p.req.geom.faults = ParseFaults("link:x(1,1)@1000", p.req.geom);
  const Validation v = Validate(p, Hardware{});
  EXPECT_FALSE(v.ok());
  EXPECT_TRUE(Has(v.error, "fault 'link:x(1,1)@1000'")) << v.error;
  // An in-network tree whose engine sends on a dead port.
  Program t = Plan(Req(Topology::kAries, 4, "tree"), Hardware{});
  t.req.geom.faults = ParseFaults("port:4.XP", t.req.geom);
  const Validation vt = Validate(t, Hardware{});
  EXPECT_TRUE(Has(vt.error, "engine id 0 sends on port XP")) << vt.error;
  EXPECT_TRUE(Has(vt.error, "fault 'port:4.XP'")) << vt.error;
  // A bypass segment over a dead switch.
  Program b = Plan(Req(Topology::kAries, 4, "aries_bw"), Hardware{});
  b.req.geom.faults = ParseFaults("switch:xtrack0.0:1", b.req.geom);
  EXPECT_TRUE(Has(Validate(b, Hardware{}).error, "fault 'switch:xtrack0.0:1'"));
}

// The faults of the README's table: one dead link in the middle of the package and one dead
// bypass wire span, on 4x4 and 8x8 ARIES.
struct FaultCase {
  unsigned k;
  const char* faults;
};
const FaultCase kCases[] = {
    {4, "link:x(1,1)"}, {4, "segment:xtrack0.1:1-2"}, {4, "port:5.XP"},
    {8, "link:x(3,3)"}, {8, "segment:xtrack0.3:3-4"}, {8, "link:y(3,3), link:x(5,6)"},
};

TEST(Faults, EveryPlannerEmbedsAroundADeadLinkAndADeadSegment) {
  for (const FaultCase& c : kCases) {
    for (const AlgorithmInfo& a : Algorithms()) {
      if (!a.Serves(Topology::kAries) || !a.Serves(Collective::kAllReduce)) continue;
      if (std::string(a.name) == "aries_lt" && c.k == 8) continue;  // L = 2 needs K = b^2
      const Request r = Req(Topology::kAries, c.k, a.name, c.faults);
      Validation v;
      if (std::string(a.name) == "aries_bw" && Has(c.faults, "port:")) {
        // Its second links need a second free port side at every node: a node with a dead port
        // has none left, and the refusal says so (the tuner takes another algorithm).
        try {
          Plan(r, Hardware{});
          ADD_FAILURE() << "aries_bw planned with a dead port";
        } catch (const PlanError& e) {
          EXPECT_TRUE(Has(e.what(), "no bypass segment for the second link")) << e.what();
        }
        continue;
      }
      // Plan validates (paths, engine ports, channel dependencies, symbolic execution) with
      // the faults in the wiring: a program that crossed a dead part would be refused.
      EXPECT_NO_THROW(Plan(r, Hardware{}, &v))
          << a.name << " on " << c.k << "x" << c.k << " around " << c.faults;
      EXPECT_TRUE(v.ok()) << a.name << ": " << v.error;
    }
  }
}

TEST(Faults, TreesAvoidTheDeadLink) {
  // mtree's trees and the in-network tree use mesh links only: none may be the dead one.
  for (const char* algo : {"mtree", "tree"}) {
    const Request r = Req(Topology::kMesh, 4, algo, "link:x(1,1), link:y(2,1)");
    const Program p = Plan(r, Hardware{});
    const Wiring w(r.geom, Hardware{}, p.nodes);
    for (unsigned n = 0; n < 16; ++n) {
      for (const Op& o : p.nodes[n].ops) {
        if (o.act != Act::kSend) continue;
        const bool dead = (n == 5 && o.peer == 6) || (n == 6 && o.peer == 5) ||
                          (n == 6 && o.peer == 10) || (n == 10 && o.peer == 6);
        EXPECT_FALSE(dead) << algo << ": node " << n << " sends to " << o.peer;
      }
      for (const EngineId& e : p.nodes[n].ids) {
        if (e.req_out != 0 && e.req_out < 5) {
          EXPECT_TRUE(w.Across(n, e.req_out, nullptr).has_value()) << algo << " node " << n;
        }
      }
    }
  }
}

TEST(Faults, ALinkWithNoWayAroundIsRefusedByName) {
  // Node 0's two links dead: nothing reaches it, and the refusal names the cut.
  try {
    Plan(Req(Topology::kMesh, 4, "ring", "link:x(0,0), link:y(0,0)"), Hardware{});
    ADD_FAILURE() << "planned around a node cut off";
  } catch (const PlanError& e) {
    EXPECT_TRUE(Has(e.what(),
                    "partitioned: the faults link:x(0,0), link:y(0,0) cut node 0 (0,0) "
                    "off from the other 15 nodes"))
        << e.what();
  }
  // On ARIES the same two links leave node 0 its bypass segments; its two upper ports do not.
  EXPECT_NO_THROW(Plan(Req(Topology::kAries, 4, "ring", "link:x(0,0), link:y(0,0)"), Hardware{}));
  try {
    Plan(Req(Topology::kAries, 4, "cmtree", "port:0.XP, port:0.YP"), Hardware{});
    ADD_FAILURE() << "planned around a node whose ports are all dead";
  } catch (const PlanError& e) {
    EXPECT_TRUE(Has(e.what(), "partitioned: the faults port:0.XP, port:0.YP cut node 0 (0,0) off"))
        << e.what();
  }
  // Communicators that do not span the cut are planned.
  Request rows =
      Req(Topology::kMesh, 4, "ring", "link:y(0,0), link:y(1,0), link:y(2,0), link:y(3,0)");
  rows.groups = ParseGroups("rows", 4);
  EXPECT_NO_THROW(Plan(rows, Hardware{}));
  try {
    RouteAroundFaults(Req(Topology::kMesh, 4, "ring", "port:0.XP, port:0.YP").geom, Hardware{});
    ADD_FAILURE() << "routed to a node cut off";
  } catch (const PlanError& e) {
    EXPECT_TRUE(Has(e.what(), "cut node 0 (0,0) off")) << e.what();
  }
}

TEST(Faults, PartitionsOverLinksAndEveryPossibleSegment) {
  Geometry g = Geom(Topology::kAries, 4);
  EXPECT_EQ(PartitionOf(g, 2).parts, 1u);
  // A node's mesh links dead: its segments still join it (and with no tracks they do not).
  g.faults = ParseFaults("link:x(1,1), link:x(0,1), link:y(1,0), link:y(1,1)", g);
  EXPECT_EQ(PartitionOf(g, 2).parts, 1u);
  const Partition alone = PartitionOf(g, 0);
  EXPECT_EQ(alone.parts, 2u);
  EXPECT_EQ(alone.Nodes(alone.part[5], g, false), "node 5 (1,1)");
  EXPECT_EQ(alone.cut.size(), 4u);
  // Its two lower ports dead leave it the upper ones; all four cut it off, and only they are named.
  g.faults = ParseFaults("port:5.XM, port:5.YM", g);
  EXPECT_EQ(PartitionOf(g, 2).parts, 1u);
  g.faults = ParseFaults("port:5.XM, port:5.YM, port:5.XP, port:5.YP, link:x(2,3)", g);
  const Partition cut = PartitionOf(g, 2);
  ASSERT_EQ(cut.parts, 2u);
  std::string names;
  for (const Fault* f : cut.cut) names += f->Name(g) + ";";
  EXPECT_EQ(names, "port:5.XM;port:5.YM;port:5.XP;port:5.YP;");
  // On the mesh a column of dead links cuts the package in halves.
  Geometry m = Geom(Topology::kMesh, 4);
  m.faults = ParseFaults("link:x(1,0), link:x(1,1), link:x(1,2), link:x(1,3)", m);
  const Partition half = PartitionOf(m, 0);
  EXPECT_EQ(half.parts, 2u);
  EXPECT_EQ(half.Nodes(half.part[0], m, false), "nodes 0, 1, 4, 5, 8, 9, 12, 13");
}

TEST(Faults, EveryPlannerPlansAroundEveryDeadPort) {
  // What the controller learns when a port dies mid-run (the port, with all it carries) is what
  // it knows of a port dead from reset: every planner plans around every port of 4x4 ARIES (and
  // around the one whose detours on 8x8 used to depend on each other in a cycle), validated.
  for (const AlgorithmInfo& a : Algorithms()) {
    if (!a.Serves(Topology::kAries) || !a.Serves(Collective::kAllReduce)) continue;
    if (std::string(a.name) == "aries_bw") continue;  // needs both port sides (above)
    for (unsigned n = 0; n < 16; ++n) {
      for (const char* port : {"XP", "XM", "YP", "YM"}) {
        const std::string f = fmt::format("port:{}.{}", n, port);
        Validation v;
        EXPECT_NO_THROW(Plan(Req(Topology::kAries, 4, a.name, f.c_str()), Hardware{}, &v))
            << a.name << " around " << f;
        EXPECT_TRUE(v.ok()) << a.name << " around " << f << ": " << v.error;
      }
    }
  }
  Validation v;
  const Program p = Plan(Req(Topology::kAries, 8, "dbt", "port:8.YP"), Hardware{}, &v);
  EXPECT_TRUE(v.ok()) << v.error;
  EXPECT_TRUE(Has(p.summary, "the mesh links only")) << p.summary;
}

TEST(FaultRoutes, MinimalWithoutFaultsAndAroundThemWithoutCycles) {
  for (Topology t : {Topology::kMesh, Topology::kAries, Topology::kTorus}) {
    const FaultRoutes none = RouteAroundFaults(Geom(t, 4), Hardware{});
    if (t != Topology::kTorus) {
      EXPECT_EQ(none.longer, 0u) << TopologyName(t);  // negative-first: minimal
    }
  }
  for (const char* f : {"link:x(3,3)", "link:x(3,3), link:y(4,2), port:20.YP", "link:y(0,0)"}) {
    Geometry g = Geom(Topology::kAries, 8);
    g.faults = ParseFaults(f, g);
    const FaultRoutes r = RouteAroundFaults(g, Hardware{});  // throws on a cycle or a loop
    EXPECT_GT(r.longer, 0u) << f;
    // No entry sends a packet onto a dead link or port.
    const std::vector<NodeProgram> plain(64);
    const Wiring w(g, Hardware{}, plain);
    for (unsigned n = 0; n < 64; ++n) {
      for (const RouteEntry& e : r.tables[n]) {
        if (e.mask == 1u) continue;
        unsigned port = 0;
        while (!((e.mask >> port) & 1u)) ++port;
        EXPECT_TRUE(w.Across(n, port, nullptr).has_value()) << f << ": node " << n;
      }
    }
  }
  Geometry big = Geom(Topology::kMesh, 9);
  big.faults = ParseFaults("link:0-1", big);
  EXPECT_THROW(RouteAroundFaults(big, Hardware{}), PlanError);  // 81 nodes, 64 flows
}

}  // namespace
