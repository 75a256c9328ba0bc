// The cost models behind --algo auto (collectives/tuner): interpolation and extrapolation by
// hand, the leave-one-out error, the choice and its ranking, and refusals of a bad cost file.
#include "tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

namespace {

using namespace aries::coll;

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "tuner_" + name;
  std::ofstream(path) << text;
  return path;
}

// The cost file's header before the geometry columns: its rows are the default geometry's.
const std::string kLegacyHeader =
    "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok";

Geometry At(Topology t, unsigned k, unsigned link_latency = Geometry{}.link_latency) {
  Geometry g;
  g.topology = t;
  g.k = k;
  g.link_latency = link_latency;
  return g;
}

std::string Refusal(const std::string& path) {
  try {
    LoadCostModels(path);
  } catch (const PlanError& e) {
    return e.what();
  }
  return "";
}

TEST(Tuner, PiecewiseLinearBetweenMeasuredSizes) {
  CostModel m;
  m.points = {{1000, 100}, {2000, 150}, {4000, 350}};
  EXPECT_DOUBLE_EQ(m.Predict(1000), 100);
  EXPECT_DOUBLE_EQ(m.Predict(1500), 125);  // halfway between the first two
  EXPECT_DOUBLE_EQ(m.Predict(3000), 250);  // halfway between the last two
  EXPECT_DOUBLE_EQ(m.Predict(8000), 750);  // the last slope (0.1 cycle/byte) beyond
  EXPECT_DOUBLE_EQ(m.Predict(500), 100);   // below the first size: not below its cycles
  EXPECT_DOUBLE_EQ(m.Predict(1), 100);
  // The middle point from its neighbours: 100 + (350 - 100) / 3 = 183.3 vs 150 measured.
  EXPECT_NEAR(m.LeaveOneOutError(), (100 + 250.0 / 3 - 150) / 150, 1e-12);
}

// Between measured sizes the model follows the busiest node's flits: the steps of whole flits
// a line in bytes cuts across.
TEST(Tuner, InterpolatesInTheBusiestNodesFlits) {
  // The 4x4 ring all-reduce sends 2 (N - 1) = 30 chunks of 1/16 of the buffer from every node:
  // 64 elements (4 flits) at 4 KB, 65 (5 flits) at 4,160 bytes, 128 (8 flits) at 8 KB.
  Request q;
  q.geom.topology = Topology::kMesh;
  q.geom.k = 4;
  const Hardware hw;
  for (const auto& [bytes, flits] :
       std::vector<std::pair<uint64_t, uint64_t>>{{4096, 120}, {4160, 150}, {8192, 240}}) {
    q.elements = bytes / 4;
    EXPECT_EQ(BusiestNodeFlits(PlanUnvalidated(q, hw), hw.lanes), flits) << bytes;
  }
  // A communicator's program: rows of 8x8 (8 members), chunks of 1/8: 14 x 1 flit at 512 B.
  q.geom.k = 8;
  q.groups = ParseGroups("rows", 8);
  q.elements = 128;
  EXPECT_EQ(BusiestNodeFlits(PlanUnvalidated(q, hw), hw.lanes), 14u);
  // An engine tree's stream: every element once, in flits of 16.
  q.groups.clear();
  q.algo = "tree";
  q.elements = 1000;
  EXPECT_EQ(BusiestNodeFlits(PlanUnvalidated(q, hw), hw.lanes), 63u);

  const std::string path = Write("flits.csv", std::string(CostCsvHeader()) +
                                                  "\n"
                                                  "mesh,4,ring,2,1,allreduce,int32,4096,400,1,0.1,"
                                                  "1,2,10,1,snake,1,1,all,0\n"
                                                  "mesh,4,ring,2,1,allreduce,int32,8192,800,1,0.1,"
                                                  "1,2,10,1,snake,1,1,all,0\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 1u);
  ASSERT_TRUE(models[0].flits);
  EXPECT_DOUBLE_EQ(models[0].Predict(4160), 500);  // a quarter of the way in flits (30 of 120)
  EXPECT_DOUBLE_EQ(models[0].Predict(6144), 600);  // 6 flits a chunk: halfway
  // Beyond: the last slope in flits (chunks of 129 elements, 9 flits: 1.25 steps of 4 flits
  // past 4 KB, where bytes say 1.016).
  EXPECT_DOUBLE_EQ(models[0].Predict(8256), 900);
  CostModel bytes_only = models[0];
  bytes_only.flits = nullptr;
  EXPECT_DOUBLE_EQ(bytes_only.Predict(4160), 406.25);  // in bytes: 64 of 4,096
  EXPECT_EQ(models[0].flits(0), 0u);                   // no element: the planner refuses

  // The line in bytes where the flits cannot say: the two sizes send the same flits, the
  // planner refuses the size, or the flits fall outside the two sizes' (a busiest node sending
  // less for more bytes).
  CostModel m;
  m.points = {{1000, 100}, {2000, 200}, {4000, 400}};
  m.flits = [](uint64_t b) -> uint64_t { return b <= 2000 ? 5 : b == 3000 ? 0 : 9; };
  EXPECT_DOUBLE_EQ(m.Predict(1500), 150);  // 5 flits at both ends
  EXPECT_DOUBLE_EQ(m.Predict(3000), 300);  // refused
  m.flits = [](uint64_t b) -> uint64_t { return b == 3000 ? 20 : b <= 2000 ? 5 : 9; };
  EXPECT_DOUBLE_EQ(m.Predict(3000), 300);  // 20 flits: outside 5 .. 9
  m.flits = [](uint64_t b) -> uint64_t { return b == 3000 ? 8 : b <= 2000 ? 5 : 9; };
  EXPECT_DOUBLE_EQ(m.Predict(3000), 350);  // in flits: 3 of 4
  // The leave-one-out error in flits: the middle point from its neighbours at 1, 3 and 5
  // flits: 100 + 250 x 2 / 4 = 225 against 150 measured (in bytes 183.3).
  CostModel l;
  l.points = {{1000, 100}, {2000, 150}, {4000, 350}};
  l.flits = [](uint64_t b) -> uint64_t { return b / 1000 + (b > 1000 ? 1 : 0); };
  EXPECT_NEAR(l.LeaveOneOutError(), (225.0 - 150) / 150, 1e-12);
}

TEST(Tuner, AlphaBetaFit) {
  // On a line: exact.
  const AlphaBeta line = FitAlphaBeta({{1000, 150}, {2000, 250}, {8000, 850}});
  EXPECT_NEAR(line.alpha, 50, 1e-9);
  EXPECT_NEAR(line.beta, 0.1, 1e-12);
  EXPECT_NEAR(line.max_rel_error, 0, 1e-12);
  // Off a line: the returned fit minimises the summed squared relative error (any nudge of
  // alpha or beta makes it worse) and reports its largest relative error.
  const std::vector<CostPoint> pts = {{1024, 420}, {65536, 1933}, {2097152, 61453}};
  const AlphaBeta f = FitAlphaBeta(pts);
  auto cost = [&](double a, double b) {
    double c = 0;
    for (const CostPoint& p : pts) c += std::pow((a + b * p.bytes - p.cycles) / p.cycles, 2);
    return c;
  };
  const double best = cost(f.alpha, f.beta);
  for (double da : {-1.0, 1.0}) EXPECT_GT(cost(f.alpha + da, f.beta), best);
  for (double db : {-1e-5, 1e-5}) EXPECT_GT(cost(f.alpha, f.beta + db), best);
  double worst = 0;
  for (const CostPoint& p : pts)
    worst = std::max(worst, std::abs(f.alpha + f.beta * p.bytes - p.cycles) / p.cycles);
  EXPECT_DOUBLE_EQ(f.max_rel_error, worst);
  EXPECT_GT(f.max_rel_error, 0.01);  // a ring is not one line from 1 KB to 2 MB
}

TEST(Tuner, ChoosesTheCheapestAndRanksTheRest) {
  const std::string path =
      Write("costs.csv",
            kLegacyHeader +
                "\n"
                "mesh,4,ring,2,1,allreduce,int32,1024,400,1,0.1,1\n"
                "mesh,4,ring,2,1,allreduce,int32,65536,2000,1,0.9,1\n"
                "mesh,4,aries_lt,2,1,allreduce,int32,1024,250,1,0.1,1\n"
                "mesh,4,aries_lt,2,1,allreduce,int32,65536,2300,1,0.8,1\n"
                "mesh,4,dbt,2,1,allreduce,int32,1024,10,1,0.1,0\n"       // a failed run: ignored
                "mesh,4,tree,2,4,reducescatter,int32,1024,10,1,0.1,1\n"  // not all-reduce: ignored
                "torus,8,ring,2,1,allreduce,int32,1024,900,1,0.1,1\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 3u);
  const Choice small = ChooseAlgorithm(models, At(Topology::kMesh, 4), 1024);
  EXPECT_EQ(small.best.Label(), "aries_lt L=2");
  EXPECT_DOUBLE_EQ(small.predicted, 250);
  ASSERT_EQ(small.ranking.size(), 2u);
  EXPECT_EQ(small.ranking[1].first, "ring");
  const Choice large = ChooseAlgorithm(models, At(Topology::kMesh, 4), 65536);
  EXPECT_EQ(large.best.algo, "ring");
  try {
    ChooseAlgorithm(models, At(Topology::kAries, 4), 1024);
    FAIL();
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "no measured costs for aries 4x4; the cost file has mesh 4x4; torus 8x8"),
              std::string::npos)
        << e.what();
  }
}

// A model at its bound: the file's bound (cycles x bound_fraction, the mean over repeated
// runs), and at every size the bound plus the least overhead paid at any size, never below the
// smallest size's cycles, where that is less than measured; a model with a point of unknown
// bound comes back unchanged.
TEST(Tuner, CostModelAtItsBound) {
  const std::string path =
      Write("bound.csv", kLegacyHeader +
                             "\n"
                             "mesh,4,mtree,2,1,allreduce,int32,1024,400,1,0.25,1\n"  // bound 100
                             "mesh,4,mtree,2,1,allreduce,int32,65536,3000,1,0.5,1\n"
                             "mesh,4,mtree,2,1,allreduce,int32,65536,5000,1,0.3,1\n"
                             "mesh,4,mtree,2,1,allreduce,int32,2097152,50000,1,0.8,1\n"
                             "mesh,4,ring,2,1,allreduce,int32,1024,420,1,0,1\n"
                             "mesh,4,ring,2,1,allreduce,int32,65536,2000,1,0.9,1\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 2u);
  const CostModel& mt = models[0].cand.algo == "mtree" ? models[0] : models[1];
  const CostModel& ring = models[0].cand.algo == "mtree" ? models[1] : models[0];
  ASSERT_EQ(mt.points.size(), 3u);
  EXPECT_DOUBLE_EQ(mt.points[0].bound, 100);
  EXPECT_DOUBLE_EQ(mt.points[1].cycles, 4000);                // the mean of the two runs
  EXPECT_DOUBLE_EQ(mt.points[1].bound, (1500.0 + 1500) / 2);  // 3000 x 0.5, 5000 x 0.3
  EXPECT_DOUBLE_EQ(mt.points[2].bound, 40000);
  // Overheads 300, 2500, 10000: the least is 300.
  const CostModel ideal = mt.AtBound();
  ASSERT_EQ(ideal.points.size(), 3u);
  EXPECT_DOUBLE_EQ(ideal.points[0].cycles, 400);  // its own overhead: as measured
  EXPECT_DOUBLE_EQ(ideal.points[1].cycles, 1800);
  EXPECT_DOUBLE_EQ(ideal.points[2].cycles, 40300);
  EXPECT_EQ(ideal.cand.Label(), mt.cand.Label());
  EXPECT_LE(ideal.Predict(300000), mt.Predict(300000));
  // A ring at its bound at 64 KB (overhead 10) keeps its 1 KB latency at 8 KB: 420, not 325.
  const std::string streams =
      Write("streams.csv", kLegacyHeader +
                               "\n"
                               "mesh,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1\n"
                               "mesh,4,ring,2,1,allreduce,int32,8192,630,1,0.5,1\n"
                               "mesh,4,ring,2,1,allreduce,int32,65536,2000,1,0.995,1\n");
  const CostModel r = LoadCostModels(streams).at(0).AtBound();
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_DOUBLE_EQ(r.points[0].cycles, 420);
  EXPECT_DOUBLE_EQ(r.points[1].cycles, 420);
  EXPECT_DOUBLE_EQ(r.points[2].cycles, 2000);
  // Past 64 KB its last segment (420 -> 2000) is steeper than the measured one (630 -> 2000):
  // the measured model caps the prediction there.
  const CostModel measured = LoadCostModels(streams).at(0);
  CostModel uncapped = r;
  uncapped.cap.reset();
  EXPECT_GT(uncapped.Predict(262144), measured.Predict(262144));
  EXPECT_DOUBLE_EQ(r.Predict(262144), measured.Predict(262144));
  EXPECT_LT(r.Predict(8192), measured.Predict(8192));
  // The ring's 1 KB row has no bound: nothing to take it to.
  const CostModel same = ring.AtBound();
  ASSERT_EQ(same.points.size(), ring.points.size());
  for (size_t i = 0; i < same.points.size(); ++i)
    EXPECT_DOUBLE_EQ(same.points[i].cycles, ring.points[i].cycles);
}

// The geometry is part of a cost model: rows of another link latency are another model, and a
// package of a geometry the file lacks is refused, naming the geometries it has.
TEST(Tuner, CostModelsBelongToTheirGeometry) {
  const Candidate ring{"ring", 2, 1, {}};
  const std::string path =
      Write("geom.csv", std::string(CostCsvHeader()) + "\n" +
                            CostCsvRow(At(Topology::kMesh, 4), ring, Collective::kAllReduce,
                                       "int32", 1024, 420, 1, 0.1, true) +
                            "\n" +
                            CostCsvRow(At(Topology::kMesh, 4, 20), ring, Collective::kAllReduce,
                                       "int32", 1024, 620, 1, 0.1, true) +
                            "\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_DOUBLE_EQ(ChooseAlgorithm(models, At(Topology::kMesh, 4), 1024).predicted, 420);
  EXPECT_DOUBLE_EQ(ChooseAlgorithm(models, At(Topology::kMesh, 4, 20), 1024).predicted, 620);
  try {
    ChooseAlgorithm(models, At(Topology::kMesh, 4, 5), 1024);
    FAIL() << "a cost model of another link latency was used";
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("no measured costs for mesh 4x4, 5-cycle links; the cost "
                                         "file has mesh 4x4; mesh 4x4, 20-cycle links"),
              std::string::npos)
        << e.what();
  }
  // A legacy file (no geometry columns) was measured on the default geometry.
  const std::string legacy =
      Write("legacy.csv", kLegacyHeader + "\nmesh,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1\n");
  EXPECT_TRUE(LoadCostModels(legacy).at(0).On(At(Topology::kMesh, 4)));
  EXPECT_FALSE(LoadCostModels(legacy).at(0).On(At(Topology::kMesh, 4, 20)));
}

// The local ports are part of a cost model: a package of two ports takes the two-port rows, a
// package of a port count the file lacks is refused naming what it has, a file of the column
// set before local_ports was measured with one port, and a port count the node is not built
// with is refused naming the line.
TEST(Tuner, CostModelsBelongToTheirLocalPorts) {
  const Candidate ring{"ring", 2, 1, {}};
  Geometry two = At(Topology::kAries, 4);
  two.local_ports = 2;
  const std::string path = Write(
      "ports.csv",
      std::string(CostCsvHeader()) + "\n" +
          CostCsvRow(At(Topology::kAries, 4), ring, Collective::kAllReduce, "int32", 2048, 600, 1,
                     0.1, true) +
          "\n" + CostCsvRow(two, ring, Collective::kAllReduce, "int32", 2048, 330, 1, 0.1, true) +
          "\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_DOUBLE_EQ(ChooseAlgorithm(models, At(Topology::kAries, 4), 2048).predicted, 600);
  EXPECT_DOUBLE_EQ(ChooseAlgorithm(models, two, 2048).predicted, 330);
  Geometry four = two;
  four.local_ports = 4;
  try {
    ChooseAlgorithm(models, four, 2048);
    FAIL() << "a cost model of another local-port count was used";
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("no measured costs for aries 4x4, 4 local ports; the "
                                         "cost file has aries 4x4; aries 4x4, 2 local ports"),
              std::string::npos)
        << e.what();
  }
  const std::string ring_header =
      "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
      "tracks,link_latency,extra_per_pitch,ring_map,ring_dirs\n";
  const auto old = LoadCostModels(
      Write("ring.csv", ring_header + "aries,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,10,1,"
                                      "rank,1\n"));
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].local_ports, 1u);
  EXPECT_EQ(old[0].cand.ring.map, RingMap::kRank);
  EXPECT_FALSE(old[0].On(two));
  EXPECT_NE(Refusal(Write("p3.csv", std::string(CostCsvHeader()) +
                                        "\naries,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,10,"
                                        "1,snake,1,3,all,0\n"))
                .find("tuner_p3.csv:2: local_ports '3': allowed 1, 2, 4"),
            std::string::npos);
  EXPECT_NE(Refusal(Write("map.csv", std::string(CostCsvHeader()) +
                                         "\naries,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,"
                                         "10,1,spiral,1,1,all,0\n"))
                .find("tuner_map.csv:2: ring_map 'spiral': allowed snake, rank"),
            std::string::npos);
  EXPECT_NE(Refusal(Write("dirs.csv", std::string(CostCsvHeader()) +
                                          "\naries,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,"
                                          "10,1,snake,3,1,all,0\n"))
                .find("tuner_dirs.csv:2: ring_dirs '3': allowed 1, 2"),
            std::string::npos);
  // A sweep on two ports also measures each ring in two directions; on one port it does not.
  const AlgorithmInfo& r = *FindAlgorithm("ring");
  EXPECT_EQ(SweepCandidates(r, 4, 1).size(), 2u);
  ASSERT_EQ(SweepCandidates(r, 4, 2).size(), 4u);
  EXPECT_EQ(SweepCandidates(r, 4, 2)[2].Label(), "ring bidir");
  EXPECT_EQ(SweepCandidates(r, 4, 2)[3].Label(), "ring rank bidir");
}

TEST(Tuner, RepeatedSizesAreAveragedAndTypesKeptApart) {
  const std::string path =
      Write("rep.csv", kLegacyHeader +
                           "\n"
                           "mesh,4,ring,2,1,allreduce,int32,1024,400,1,0.1,1\n"
                           "mesh,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1\n"
                           "mesh,4,ring,2,1,allreduce,int32,2048,500,1,0.1,1\n"
                           "mesh,4,ring,2,1,allreduce,fp32,1024,9999,1,0.1,1\n");
  const auto models = LoadCostModels(path);
  ASSERT_EQ(models.size(), 1u);
  ASSERT_EQ(models[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(models[0].points[0].cycles, 410);
  // In bytes the line gives 455 at 1.5 KB; the 4x4 ring's chunks of 24 elements take two flits
  // there as 2 KB's 32 do (1 KB's 16 one), so the model stands at 2 KB's cycles.
  EXPECT_DOUBLE_EQ(models[0].Predict(1536), 500);
  CostModel bytes_only = models[0];
  bytes_only.flits = nullptr;
  EXPECT_DOUBLE_EQ(bytes_only.Predict(1536), 455);
  const auto fp = LoadCostModels(path, "fp32");
  ASSERT_EQ(fp.size(), 1u);
  EXPECT_DOUBLE_EQ(fp[0].Predict(1024), 9999);
}

TEST(Tuner, CollectivesAreKeptApartAndRowsRoundTrip) {
  const Candidate ring{"ring", 2, 1, {}};
  const std::string path =
      Write("coll.csv", std::string(CostCsvHeader()) + "\n" +
                            CostCsvRow(At(Topology::kMesh, 4), ring, Collective::kAllReduce,
                                       "int32", 1024, 400, 1, 0.1, true) +
                            "\n" +
                            CostCsvRow(At(Topology::kMesh, 4), ring, Collective::kReduceScatter,
                                       "int32", 1024, 210, 1, 0.1, true) +
                            "\n" +
                            CostCsvRow(At(Topology::kMesh, 4), ring, Collective::kAllGather,
                                       "int32", 1024, 205, 1, 0.1, false) +
                            "\n");
  const auto rs = LoadCostModels(path, "int32", Collective::kReduceScatter);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].collective, Collective::kReduceScatter);
  EXPECT_DOUBLE_EQ(rs[0].Predict(1024), 210);
  EXPECT_DOUBLE_EQ(LoadCostModels(path)[0].Predict(1024), 400);
  EXPECT_TRUE(LoadCostModels(path, "int32", Collective::kAllGather).empty());  // the run failed
  const std::string h = kLegacyHeader + "\n";
  EXPECT_NE(Refusal(Write("c.csv", h + "mesh,4,ring,2,1,gather,int32,1,1,1,1,1\n"))
                .find("tuner_c.csv:2: collective 'gather': allowed allreduce"),
            std::string::npos);
}

TEST(Tuner, BadCostFilesNameTheLine) {
  EXPECT_NE(Refusal(Write("h.csv", "topology,k\n"))
                .find("tuner_h.csv:1: header 'topology,k'; expected 'topology,k,algo"),
            std::string::npos);
  const std::string h = kLegacyHeader + "\n";
  EXPECT_NE(
      Refusal(Write("f.csv", h + "mesh,4,ring\n")).find("tuner_f.csv:2: 3 fields; expected 12"),
      std::string::npos);
  EXPECT_NE(Refusal(Write("g.csv", std::string(CostCsvHeader()) +
                                       "\nmesh,4,ring,2,1,allreduce,int32,1,1,1,1,1\n"))
                .find("tuner_g.csv:2: 12 fields; expected 20"),
            std::string::npos);
  EXPECT_NE(Refusal(Write("t.csv", h + "ring,4,ring,2,1,allreduce,int32,1,1,1,1,1\n"))
                .find("tuner_t.csv:2: topology 'ring': allowed mesh"),
            std::string::npos);
  EXPECT_NE(Refusal(Write("n.csv", h + "mesh,four,ring,2,1,allreduce,int32,1,1,1,1,1\n"))
                .find("tuner_n.csv:2: a number field does not parse"),
            std::string::npos);
  EXPECT_NE(Refusal("/nonexistent/costs.csv").find("cannot open the cost file"), std::string::npos);
  EXPECT_NE(Refusal(Write("a.csv", h + "mesh,4,nccl,2,1,allreduce,int32,1,1,1,1,1\n"))
                .find("tuner_a.csv:2: algorithm 'nccl': allowed ring"),
            std::string::npos);
}

}  // namespace

// Communicator rows are their own models: the whole-package lookups never see them, a shape is
// loaded by name (or every shape with "*"), the first group's cycles alone give the slowdown of
// running at once, an 18-column file is the whole package's, and a shape ParseGroups does not
// name is refused naming the line.
TEST(Tuner, CommunicatorCostsAreKeptApartFromTheWholePackage) {
  const Candidate ring{"ring", 2, 1, {}};
  const Geometry mesh = At(Topology::kMesh, 4);
  const std::string path = Write(
      "groups.csv",
      std::string(CostCsvHeader()) + "\n" +
          CostCsvRow(mesh, ring, Collective::kAllReduce, "int32", 1024, 420, 1, 0.1, true) + "\n" +
          CostCsvRow(mesh, ring, Collective::kAllReduce, "int32", 1024, 300, 1, 0.1, true, "rows",
                     250) +
          "\n" +
          CostCsvRow(mesh, ring, Collective::kAllReduce, "int32", 2048, 440, 1, 0.1, true, "rows",
                     400) +
          "\n" +
          CostCsvRow(mesh, ring, Collective::kAllReduce, "int32", 1024, 290, 1, 0.1, true, "cols") +
          "\n");
  const auto all = LoadCostModels(path);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].groups, "all");
  EXPECT_DOUBLE_EQ(ChooseAlgorithm(all, mesh, 1024).predicted, 420);
  EXPECT_DOUBLE_EQ(all[0].Slowdown(), 1.0);
  const auto rows = LoadCostModels(path, "int32", Collective::kAllReduce, "rows");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].Where(), "mesh 4x4, rows");
  EXPECT_DOUBLE_EQ(rows[0].Predict(1024), 300);
  EXPECT_DOUBLE_EQ(rows[0].Slowdown(), (300.0 / 250 + 440.0 / 400) / 2);
  EXPECT_EQ(LoadCostModels(path, "int32", Collective::kAllReduce, "*").size(), 3u);
  EXPECT_TRUE(LoadCostModels(path, "int32", Collective::kAllReduce, "quadrants").empty());
  const std::string ports_header =
      "topology,k,algo,levels,embeddings,collective,type,bytes,cycles,busbw,bound_fraction,ok,"
      "tracks,link_latency,extra_per_pitch,ring_map,ring_dirs,local_ports\n";
  const auto old = LoadCostModels(
      Write("ports18.csv", ports_header + "mesh,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,10,1,"
                                          "snake,1,1\n"));
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].groups, "all");
  EXPECT_NE(Refusal(Write("shape.csv", std::string(CostCsvHeader()) +
                                           "\nmesh,4,ring,2,1,allreduce,int32,1024,420,1,0.1,1,2,"
                                           "10,1,snake,1,1,diagonals,0\n"))
                .find("tuner_shape.csv:2: groups 'diagonals': allowed all or rows, cols"),
            std::string::npos);
}
