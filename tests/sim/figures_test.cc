// The evaluation's assumption sets: what each gives the packages and which measured candidates it
// admits (fig9, fig10 and its decomposition, fig11 and the report read them).
#include "figures.h"

#include <gtest/gtest.h>

#include <string>

#include "planners.h"

namespace aries::sim {
namespace {

coll::Candidate Cand(const char* algo, coll::RingMap map = coll::RingMap::kSnake) {
  coll::Candidate c;
  c.algo = algo;
  c.ring.map = map;
  return c;
}

TEST(Presets, PackagesTakeThePresetsPortsAndSegmentLatency) {
  using coll::Topology;
  const coll::Geometry def = PresetPackage(Topology::kAries, 8, kOurAssumptions);
  EXPECT_EQ(def.local_ports, 1u);
  EXPECT_EQ(def.extra_per_pitch, coll::Geometry{}.extra_per_pitch);
  const coll::Geometry paper = PresetPackage(Topology::kAries, 8, kPaperAssumptions);
  EXPECT_EQ(paper.local_ports, 2u);
  EXPECT_EQ(paper.extra_per_pitch, 1u);
  // One-hop segments: ARIES's segments only; the baselines' long links keep theirs.
  EXPECT_EQ(PresetPackage(Topology::kAries, 4, kPaperOneHopSegments).extra_per_pitch, 0u);
  EXPECT_EQ(PresetPackage(Topology::kAries, 4, kPaperOneHopSegments).local_ports, 2u);
  for (Topology t : {Topology::kMesh, Topology::kTorus, Topology::kFbfly}) {
    const coll::Geometry g = PresetPackage(t, 4, kPaperOneHopSegments);
    EXPECT_EQ(g.extra_per_pitch, 1u) << coll::TopologyName(t);
    EXPECT_EQ(g.local_ports, 1u) << coll::TopologyName(t);
  }
}

TEST(Presets, AdmitTheirRingsAndConcentrationOnlyWhereTheyHaveIt) {
  ASSERT_TRUE(coll::FindAlgorithm("cmtree")->concentrates);
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    if (std::string(a.name) != "cmtree") {
      EXPECT_FALSE(a.concentrates) << a.name;
    }
  }
  // ARIES (baseline = false): the concentrated multi-tree unless the set leaves it out.
  EXPECT_TRUE(PresetAdmits(Cand("cmtree"), false, kPaperAssumptions));
  EXPECT_TRUE(PresetAdmits(Cand("cmtree"), false, kOurAssumptions));
  EXPECT_FALSE(PresetAdmits(Cand("cmtree"), false, kPaperUnconcentrated));
  EXPECT_TRUE(PresetAdmits(Cand("mtree"), false, kPaperUnconcentrated));
  EXPECT_TRUE(PresetAdmits(Cand("dbt"), false, kPaperUnconcentrated));
  // Rings: the snake on ARIES, the rank order on the paper's baselines.
  EXPECT_TRUE(PresetAdmits(Cand("ring"), false, kPaperAssumptions));
  EXPECT_FALSE(PresetAdmits(Cand("ring", coll::RingMap::kRank), false, kPaperAssumptions));
  EXPECT_TRUE(PresetAdmits(Cand("ring", coll::RingMap::kRank), true, kPaperAssumptions));
  EXPECT_FALSE(PresetAdmits(Cand("ring"), true, kPaperAssumptions));
  EXPECT_TRUE(PresetAdmits(Cand("ring"), true, kOurAssumptions));
}

// The dedicated-link step swaps ARIES's rank-order trees (the double binary tree, the only one
// whose tree edges do not depend on the links) for their rows on the butterfly, at ARIES's two
// ports; the baselines' butterfly keeps one.
TEST(Presets, DedicatedTreeLinksStepTakesTheRankTreeOnly) {
  for (const coll::AlgorithmInfo& a : coll::Algorithms()) {
    EXPECT_EQ(a.rank_tree, std::string(a.name) == "dbt") << a.name;
  }
  EXPECT_TRUE(kPaperDedicatedTreeLinks.dedicated_tree_links);
  EXPECT_FALSE(kPaperAssumptions.dedicated_tree_links);
  EXPECT_FALSE(kRankBaselines.dedicated_tree_links);
  // Otherwise the paper preset it is measured against: the same rings, ports and segments.
  EXPECT_EQ(kPaperDedicatedTreeLinks.rank_baselines, kPaperAssumptions.rank_baselines);
  EXPECT_EQ(kPaperDedicatedTreeLinks.aries_ports, kPaperAssumptions.aries_ports);
  EXPECT_EQ(kPaperDedicatedTreeLinks.aries_extra_per_pitch,
            kPaperAssumptions.aries_extra_per_pitch);
  EXPECT_EQ(kPaperDedicatedTreeLinks.concentration, kPaperAssumptions.concentration);
  const coll::Geometry g = DedicatedTreeLinksPackage(8, kPaperDedicatedTreeLinks);
  EXPECT_EQ(g.topology, coll::Topology::kFbfly);
  EXPECT_EQ(g.k, 8u);
  EXPECT_EQ(g.local_ports, 2u);
  EXPECT_EQ(PresetPackage(coll::Topology::kFbfly, 8, kPaperDedicatedTreeLinks).local_ports, 1u);
}

// Adapt-NoC's sub-networks are baselines: one local port and the default segments whatever the
// preset gives ARIES; its adaptable links are ARIES's tracks, named as Adapt-NoC's, and its
// concentrated mesh groups the chiplets of the same K x K (one local port each).
TEST(Presets, AdaptNocSubnetworksRunOnOnePortWithTheirOwnNames) {
  const auto& subs = AdaptNocSubnetworks();
  ASSERT_EQ(subs.size(), 4u);
  EXPECT_EQ(subs[2], coll::Topology::kAries);
  EXPECT_EQ(subs[3], coll::Topology::kCmesh);
  for (const coll::Topology t : subs) {
    const coll::Geometry g = AdaptNocPackage(t, 8);
    EXPECT_EQ(g.topology, t);
    EXPECT_EQ(g.k, 8u);
    EXPECT_EQ(g.local_ports, 1u);
    EXPECT_EQ(g.extra_per_pitch, coll::Geometry{}.extra_per_pitch);
    EXPECT_EQ(g.tracks, coll::Geometry{}.tracks);
  }
  EXPECT_NE(PresetPackage(coll::Topology::kAries, 8, kPaperAssumptions).local_ports,
            AdaptNocPackage(coll::Topology::kAries, 8).local_ports);
  EXPECT_EQ(AdaptNocSubnetworkName(coll::Topology::kAries), "adaptable links");
  EXPECT_EQ(AdaptNocSubnetworkName(coll::Topology::kTorus), "torus");
  EXPECT_EQ(AdaptNocSubnetworkName(coll::Topology::kCmesh), "concentrated mesh");
}

}  // namespace
}  // namespace aries::sim
