// The default run's collective part on its typed results (MeasureTour), not on its printed text:
// every run verified with every flit accounted, no run faster than its bandwidth bound, ARIES
// (which can configure itself as the mesh) never slower than the mesh, and the in-network tree
// (the same engines on both packages) equal on both.
#include "tour.h"

#include <gtest/gtest.h>

namespace aries::sim {
namespace {

TEST(DefaultRun, EveryRowVerifiedBoundedAndAriesNoSlowerThanTheMesh) {
  const Tour tour = MeasureTour(4, {1024, 64 * 1024});
  ASSERT_EQ(tour.rows.size(), 8u);  // 2 sizes x (3 paper families + the in-network tree)
  EXPECT_TRUE(tour.ok);
  for (const TourRow& r : tour.rows) {
    const std::string row = r.family + " at " + std::to_string(r.bytes) + " bytes";
    EXPECT_TRUE(r.ok) << row;
    for (const CollMeasurement* m : {&r.mesh, &r.aries}) {
      EXPECT_TRUE(m->verified) << row << ", " << m->algorithm;
      EXPECT_EQ(m->flits_injected, m->flits_ejected) << row << ", " << m->algorithm;
      EXPECT_GT(m->flits_injected, 0u) << row << ", " << m->algorithm;
      EXPECT_GE(static_cast<double>(m->cycles), m->bound) << row << ", " << m->algorithm;
    }
    EXPECT_LE(r.aries.cycles, r.mesh.cycles) << row;
    if (r.family == "in-network tree") {
      EXPECT_EQ(r.aries.cycles, r.mesh.cycles) << row;
      EXPECT_EQ(r.aries.segment_links, 0u) << row;
    }
  }
}

}  // namespace
}  // namespace aries::sim
