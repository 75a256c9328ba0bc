// The training-time model: iteration schedules computed by hand (serialized and overlapped,
// per strategy), workload files and their refusals, the shipped workloads against their
// papers' totals, cost lookup.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "costs.h"
#include "streams.h"
#include "workload.h"

namespace aries::train {
namespace {

using coll::Collective;

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// One FLOP per ns: 2 x 1 PE x 1x1 array x 1 GHz x 0.5.
Chiplet UnitChiplet() {
  Chiplet c;
  c.pes = 1;
  c.array = 1;
  c.utilization = 0.5;
  return c;
}

// A (10 params, 100 FLOPs, 5 outputs), B (20, 50, 10), C (30, 10, 15), a chain (each layer's
// input gradient is the previous one's output; A's input needs none); 4-byte elements.
Workload ThreeLayers() {
  Workload w;
  w.name = "abc";
  w.batch = 1;
  w.layers = {
      {"A", 10, 100, 5, 0, false}, {"B", 20, 50, 10, 5, false}, {"C", 30, 10, 15, 10, false}};
  return w;
}

// Every collective costs 1 ns per byte.
double ByteCost(Collective, uint64_t bytes) { return static_cast<double>(bytes); }

const Op& Find(const Iteration& it, const std::string& name) {
  for (const Op& op : it.ops) {
    if (op.name == name) return op;
  }
  ADD_FAILURE() << "no op " << name;
  static Op none;
  return none;
}

TEST(Streams, DdpPerLayerOverlapsTheBackwardPass) {
  IterationOptions o;
  o.chiplets = 16;
  const Iteration it = RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost);
  // Compute: fwd A 0-100, B 100-150, C 150-160; bwd C 160-180, B 180-280, A 280-480.
  // Comm: AR C (120 B) 180-300, AR B (80 B) 300-380 (waits for the stream), AR A (40 B) 480-520.
  EXPECT_DOUBLE_EQ(Find(it, "bwd A").end, 480);
  EXPECT_DOUBLE_EQ(Find(it, "allreduce C").start, 180);
  EXPECT_DOUBLE_EQ(Find(it, "allreduce B").start, 300);
  EXPECT_DOUBLE_EQ(Find(it, "allreduce A").start, 480);
  EXPECT_DOUBLE_EQ(it.time, 520);
  EXPECT_DOUBLE_EQ(it.compute_busy, 480);
  EXPECT_DOUBLE_EQ(it.comm_busy, 240);
  EXPECT_DOUBLE_EQ(it.exposed_comm, 40);
  EXPECT_EQ(it.collectives, 3u);
  o.overlap = false;
  const Iteration ser = RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost);
  EXPECT_DOUBLE_EQ(ser.time, 720);  // 480 compute + 240 communication
  EXPECT_DOUBLE_EQ(ser.exposed_comm, 240);
}

TEST(Streams, DdpBucketsGatherLayersInBackwardOrder) {
  IterationOptions o;
  o.bucket_bytes = 100;
  const Iteration it = RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost);
  // C alone fills a bucket (120 B >= 100); B (80 B) waits for A: one 120-byte all-reduce
  // after bwd A (480), 480-600.
  EXPECT_EQ(it.collectives, 2u);
  EXPECT_DOUBLE_EQ(Find(it, "allreduce C").end, 300);
  EXPECT_EQ(Find(it, "allreduce B+A").bytes, 120u);
  EXPECT_DOUBLE_EQ(it.time, 600);
}

TEST(Streams, FsdpGathersAheadAndReduceScattersAfterEachLayer) {
  IterationOptions o;
  o.par.inner = Strategy::kFsdp;
  const Iteration it = RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost);
  // Forward: AG A 0-40, AG B 40-120, fwd A 40-140, AG C waits for fwd A (two layers held):
  // 140-260, fwd B 140-190, fwd C 260-270.
  EXPECT_DOUBLE_EQ(Find(it, "allgather C").start, 140);
  EXPECT_DOUBLE_EQ(Find(it, "fwd C").end, 270);
  // Backward: the first two gathers wait for the forward pass (the parameters were freed):
  // AGb C 270-390, AGb B 390-470, bwd C 390-410, AGb A 470-510 (after bwd C: two held),
  // RS C 510-630, bwd B 470-570, RS B 630-710, bwd A 570-770, RS A 770-810.
  EXPECT_DOUBLE_EQ(Find(it, "allgather(bwd) C").start, 270);
  EXPECT_DOUBLE_EQ(Find(it, "allgather(bwd) A").start, 470);
  EXPECT_DOUBLE_EQ(Find(it, "reducescatter C").start, 510);
  EXPECT_DOUBLE_EQ(Find(it, "bwd A").start, 570);
  EXPECT_DOUBLE_EQ(it.time, 810);
  EXPECT_DOUBLE_EQ(it.exposed_comm, 330);
  EXPECT_EQ(it.collectives, 9u);
  o.overlap = false;
  EXPECT_DOUBLE_EQ(RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost).time,
                   1200);  // 480 + 3 x 240
}

TEST(Streams, TensorParallelAllReducesBlockEveryLayer) {
  IterationOptions o;
  o.par.inner = Strategy::kTp;
  o.chiplets = 2;
  const Iteration it = RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost);
  // Half of each layer's work: fwd A 0-50, AR 20 B 50-70, fwd B 70-95, AR 40 B 95-135, fwd C
  // 135-140, AR 60 B 140-200; bwd C 200-210, AR (B's output) 40 B 210-250, bwd B 250-300,
  // AR 20 B 300-320, bwd A 320-420 (the input needs no gradient).
  EXPECT_DOUBLE_EQ(Find(it, "allreduce(grad) C").bytes, 40);
  EXPECT_DOUBLE_EQ(Find(it, "bwd A").start, 320);
  EXPECT_DOUBLE_EQ(it.time, 420);
  EXPECT_DOUBLE_EQ(it.compute_busy, 240);
  EXPECT_EQ(it.collectives, 5u);
  o.overlap = false;  // every collective blocks: serialized = overlapped
  EXPECT_DOUBLE_EQ(RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost).time, 420);
}

TEST(Streams, BatchScalesComputeAndShardedTablesHaveNoCollective) {
  Workload w = ThreeLayers();
  w.layers[1].sharded = true;
  w.batch = 3;
  IterationOptions o;
  const Iteration it = RunIteration(w, UnitChiplet(), o, ByteCost);
  EXPECT_EQ(it.collectives, 2u);
  EXPECT_DOUBLE_EQ(it.compute_busy, 3 * 480);
  o.batch = 1;  // the option overrides the workload's batch
  EXPECT_DOUBLE_EQ(RunIteration(w, UnitChiplet(), o, ByteCost).compute_busy, 480);
}

TEST(Streams, DdpLastBucketClosesWithTheLastGradient) {
  // A costly sharded table in front (no gradient collective): the partial bucket B+A must not
  // wait for the table's backward.
  Workload w = ThreeLayers();
  w.layers.insert(w.layers.begin(), Layer{"T", 1000, 1000, 0, 0, true});
  IterationOptions o;
  o.bucket_bytes = 1000;
  const Iteration it = RunIteration(w, UnitChiplet(), o, ByteCost);
  // fwd T 0-1000, A 1000-1100, B -1150, C -1160; bwd C -1180, B -1280, A -1480, T -3480.
  // One bucket C+B+A (240 B) after bwd A: 1480-1720.
  EXPECT_EQ(it.collectives, 1u);
  EXPECT_DOUBLE_EQ(Find(it, "allreduce C+B+A").start, 1480);
  EXPECT_DOUBLE_EQ(it.time, 3480);
}

TEST(Streams, TensorParallelUsesTheWorkloadsAllReduceSizes) {
  // A replicated middle layer (no all-reduce) and a first layer with one: only the listed
  // collectives run.
  Workload w = ThreeLayers();
  w.layers[0].tp_bwd = 7;
  w.layers[1].tp_fwd = 0;
  w.layers[1].tp_bwd = 0;
  IterationOptions o;
  o.par.inner = Strategy::kTp;
  o.chiplets = 2;
  o.batch = 2;
  const Iteration it = RunIteration(w, UnitChiplet(), o, ByteCost);
  EXPECT_EQ(it.collectives, 4u);                        // A out, C out, C grad, A grad
  EXPECT_EQ(Find(it, "allreduce(grad) A").bytes, 56u);  // 7 elements x batch 2 x 4 B
  EXPECT_EQ(Find(it, "allreduce(out) C").bytes, 120u);
}

TEST(Streams, ChipletRateIsAriesTableII) {
  // 16 PEs x 32 x 32 multipliers x 2 FLOPs x 1 GHz x 0.7 = 22,937.6 FLOPs per ns.
  EXPECT_DOUBLE_EQ(Chiplet().FlopsPerNs(), 22937.6);
}

TEST(Streams, ScheduleRefusesACycle) {
  std::vector<Op> ops(2);
  ops[0].name = "x";
  ops[0].deps = {1};
  ops[1].name = "y";
  ops[1].stream = Stream::kComm;
  ops[1].deps = {0};
  try {
    Schedule(ops, true);
    FAIL() << "a cycle was scheduled";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
  }
}

TEST(Streams, StrategyNamesAndRefusals) {
  EXPECT_EQ(ParseStrategy("fsdp"), Strategy::kFsdp);
  try {
    ParseStrategy("zero3");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("allowed ddp, fsdp, tp"), std::string::npos);
  }
  IterationOptions o;
  o.chiplets = 0;
  EXPECT_THROW(RunIteration(ThreeLayers(), UnitChiplet(), o, ByteCost), std::invalid_argument);
}

const char* kHead = "layer,params,fwd_flops,tp_fwd,tp_bwd,sync\n";

TEST(Workload, ReadsHeaderCommentsAndRows) {
  const Workload w =
      LoadWorkload(Write("w.csv", std::string("# workload: tiny\n# source: a paper\n"
                                              "# sample: one thing\n# batch: 7\n") +
                                      kHead + "a,10,100,5,0,dp\nb,20,0,3,5,sharded\n"));
  EXPECT_EQ(w.name, "tiny");
  EXPECT_EQ(w.batch, 7u);
  ASSERT_EQ(w.layers.size(), 2u);
  EXPECT_TRUE(w.layers[1].sharded);
  EXPECT_EQ(w.Params(), 30u);
  EXPECT_DOUBLE_EQ(w.FwdFlops(), 100);
}

TEST(Workload, TimesGivenDirectlyReplaceTheFlopsBasedOnes) {
  const Workload w = LoadWorkload(
      Write("timed.csv", std::string("# batch: 2\n") +
                             "layer,params,fwd_flops,tp_fwd,tp_bwd,sync,fwd_ns,bwd_ns\n"
                             "a,10,100,0,0,dp,7,0\nb,20,50,0,0,dp,0,9.5\n"));
  IterationOptions o;
  const Iteration it = RunIteration(w, UnitChiplet(), o, ByteCost);
  // a: 7 ns x 2 forward, twice that backward; b: 50 FLOPs x 2 forward, 9.5 ns x 2 backward.
  EXPECT_DOUBLE_EQ(Find(it, "fwd a").duration, 14);
  EXPECT_DOUBLE_EQ(Find(it, "bwd a").duration, 28);
  EXPECT_DOUBLE_EQ(Find(it, "fwd b").duration, 100);
  EXPECT_DOUBLE_EQ(Find(it, "bwd b").duration, 19);
}

void ExpectRefused(const std::string& text, const std::string& what) {
  const std::string path = Write("bad.csv", text);
  try {
    LoadWorkload(path);
    FAIL() << "accepted: " << text;
  } catch (const WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(Workload, RefusesBadFilesNamingLineAndColumn) {
  ExpectRefused("layer,params\n", "bad.csv:1: header");
  ExpectRefused(std::string(kHead) + "a,-3,100,5,0,dp\n", "bad.csv:2: params '-3'");
  ExpectRefused(std::string(kHead) + "a,3,1e9,5,0,dp\n", "fwd_flops '1e9'");
  ExpectRefused(std::string(kHead) + "a,2199023255553,1,5,0,dp\n",
                "params '2199023255553': expected an integer in 0..2^40");
  ExpectRefused(std::string(kHead) + "a,3,100,5,0,ddp\n", "sync 'ddp': allowed dp, sharded");
  ExpectRefused(std::string(kHead) + "a,3,100,5,0,dp\na,1,1,1,0,dp\n", "layer 'a' appears twice");
  ExpectRefused(std::string(kHead) + "a,3,100,dp\n", "4 fields; expected 6");
  ExpectRefused(std::string("# batch: 0\n") + kHead + "a,3,100,5,0,dp\n",
                "batch 0: allowed 1..1000000");
  ExpectRefused(kHead, "no layers");
  // A missing batch line would default every layer's compute to one sample.
  ExpectRefused(std::string(kHead) + "a,3,100,5,0,dp\n", "no '# batch: N' line");
  ExpectRefused(std::string("# batch: 1000001\n") + kHead + "a,3,100,5,0,dp\n",
                "batch '1000001': expected an integer in 0..1000000");
  ExpectRefused("layer,params,fwd_flops,tp_fwd,tp_bwd,sync,fwd_ns,bwd_ns\na,1,1,0,0,dp,-1,0\n",
                "fwd_ns '-1': expected ns per sample");
  ExpectRefused("layer,params,fwd_flops,tp_fwd,tp_bwd,sync,fwd_ns,bwd_ns\na,1,1,0,0,dp\n",
                "6 fields; expected 8");
  const std::string act = "layer,params,fwd_flops,tp_fwd,tp_bwd,sync,act\n";
  ExpectRefused(act + "a,1,1,0,0,dp\n", "6 fields; expected 7");
  ExpectRefused(act + "a,1,1,0,0,dp,x\n", "act 'x'");
  ExpectRefused("layer,params,fwd_flops,tp_fwd,tp_bwd,sync,fwd_ns,bwd_ns,act\n",
                "optionally + ',act', then optionally + ',fwd_ns,bwd_ns'");
  ExpectRefused(std::string("# embeddings_to: t\n") + kHead + "t,3,0,0,0,sharded\n",
                "embeddings_to 't': allowed the name of a layer that is not sharded");
  // The act column, with and without the times after it.
  const Workload a =
      LoadWorkload(Write("act.csv",
                         "# batch: 1\n"
                         "layer,params,fwd_flops,tp_fwd,tp_bwd,sync,act,fwd_ns,bwd_ns\n"
                         "a,3,100,5,0,dp,7,2,0\n"));
  EXPECT_EQ(a.layers[0].act, 7u);
  EXPECT_DOUBLE_EQ(a.layers[0].fwd_ns, 2);
  EXPECT_TRUE(a.HasActivations());
  EXPECT_THROW(LoadWorkload("/nonexistent/w.csv"), WorkloadError);
}

// The shipped workloads against the totals their papers (and frameworks) publish.
TEST(Workload, ShippedModelsMatchTheirPapers) {
  const Workload r = LoadWorkload(WorkloadPath("resnet50"));
  EXPECT_EQ(r.Params(), 25'557'032u);            // torchvision resnet50; He et al.: 25.6M
  EXPECT_NEAR(r.FwdFlops() / 2, 3.8e9, 0.15e9);  // He et al. Table 1: 3.8e9 multiply-adds
  EXPECT_EQ(r.layers.size(), 54u);               // 53 convolutions + fc
  const Workload v = LoadWorkload(WorkloadPath("vgg16"));
  EXPECT_EQ(v.Params(), 138'357'544u);  // VGG configuration D (Table 2: 138M)
  EXPECT_NEAR(v.FwdFlops() / 2, 15.5e9, 0.1e9);
  const Workload t = LoadWorkload(WorkloadPath("transformer"));
  EXPECT_NEAR(static_cast<double>(t.Params()), 65e6, 0.05 * 65e6);  // Vaswani Table 3: 65M
  const Workload g = LoadWorkload(WorkloadPath("gpt3"));
  EXPECT_NEAR(static_cast<double>(g.Params()), 175e9, 0.01 * 175e9);  // MAD Max Table 2
  EXPECT_NEAR(g.FwdFlops() / 2048, 350e9, 0.05 * 350e9);              // 350 GFLOPs per token
  const Workload d = LoadWorkload(WorkloadPath("dlrm"));
  unsigned tables = 0;
  for (const Layer& l : d.layers) tables += l.sharded ? 1 : 0;
  EXPECT_EQ(tables, 26u);  // Criteo's 26 categorical features
  // Each table pools one 16-wide vector per sample (--arch-sparse-feature-size=16), read by the
  // interaction: 26 x 16 elements exchanged per sample.
  uint64_t pooled = 0;
  for (const Layer& l : d.layers) pooled += l.sharded ? l.act : 0;
  EXPECT_EQ(pooled, 26u * 16);
  EXPECT_EQ(d.embeddings_to, "interaction");
  EXPECT_EQ(r.layers[0].act, 112u * 112 * 64);  // conv1's output
}

TEST(Costs, LooksUpModelsAndNamesWhatIsMissing) {
  const std::string path = Write(
      "costs.csv", std::string(coll::CostCsvHeader()) +
                       "\n"
                       "mesh,4,ring,2,1,allreduce,int32,4096,400,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,ring,2,1,allreduce,int32,8192,600,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,ring,2,1,allgather,int32,1024,100,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,ring,2,1,allgather,int32,2048,150,1,0.1,1,2,10,1,snake,1,1,all,0\n");
  const CostTable table(path);
  Chiplet chip;
  chip.clock_ghz = 2.0;
  const CommCost c = table.Cost(PackageOf(coll::Topology::kMesh, 4), {"ring", 2, 1}, chip,
                                {Collective::kAllReduce, Collective::kAllGather});
  // 6 KB: chunks of 6 flits, between 4 KB's 4 and 8 KB's 8: 500 cycles at 2 GHz.
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 6144), 250);
  EXPECT_DOUBLE_EQ(c(Collective::kAllGather, 4096), 125);  // extrapolated: 250 cycles
  try {
    table.Cost(PackageOf(coll::Topology::kMesh, 4), {"ring", 2, 1}, chip,
               {Collective::kReduceScatter});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no measured reducescatter costs for ring on mesh 4x4"),
              std::string::npos)
        << e.what();
  }
  try {
    table.Find(Collective::kAllReduce, PackageOf(coll::Topology::kMesh, 4), {"dbt", 2, 1});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("measured there: ring"), std::string::npos) << e.what();
  }
  EXPECT_EQ(CollectivesOf(Strategy::kFsdp).size(), 2u);
}

TEST(Costs, CheapestOfTakesTheCheaperPerSizeAndTiesToTheFirst) {
  // ring: 400 cycles at 4 KB, 600 at 8 KB; tree: 300, 700 (crossing at 6 KB, halfway in both
  // candidates' flits: both 500).
  const std::string path = Write(
      "cheap.csv", std::string(coll::CostCsvHeader()) +
                       "\n"
                       "mesh,4,ring,2,1,allreduce,int32,4096,400,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,ring,2,1,allreduce,int32,8192,600,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,tree,2,1,allreduce,int32,4096,300,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                       "mesh,4,tree,2,1,allreduce,int32,8192,700,1,0.1,1,2,10,1,snake,1,1,all,0\n");
  const CostTable table(path);
  auto used = std::make_shared<std::map<std::string, unsigned>>();
  const CommCost c =
      table.CheapestOf(PackageOf(coll::Topology::kMesh, 4), {{"ring", 2, 1}, {"tree", 2, 1}},
                       Chiplet(), {Collective::kAllReduce}, used);
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 4096), 300);  // tree
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 8192), 600);  // ring
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 6144), 500);  // a tie: the first listed, ring
  EXPECT_EQ((*used)["tree"], 1u);
  EXPECT_EQ((*used)["ring"], 2u);
  EXPECT_THROW(table.CheapestOf(PackageOf(coll::Topology::kMesh, 4), {}, Chiplet(),
                                {Collective::kAllReduce}),
               std::invalid_argument);
}

// A collective over communicators takes, per size, the cheapest algorithm measured for its
// shape (whatever the candidates given for the whole package); a shape with none measured names
// itself and the sweep to run.
TEST(Costs, CommunicatorsTakeTheCheapestMeasuredForTheirShape) {
  // rows: ring 400 / 600 cycles at 1 / 2 KB, tree 300 / 700; the whole package: ring 900 / 1000.
  const std::string path =
      Write("groups.csv",
            std::string(coll::CostCsvHeader()) +
                "\n"
                "mesh,4,ring,2,1,allreduce,int32,1024,400,1,0.1,1,2,10,1,snake,1,1,rows,400\n"
                "mesh,4,ring,2,1,allreduce,int32,2048,600,1,0.1,1,2,10,1,snake,1,1,rows,600\n"
                "mesh,4,tree,2,1,allreduce,int32,1024,300,1,0.1,1,2,10,1,snake,1,1,rows,300\n"
                "mesh,4,tree,2,1,allreduce,int32,2048,700,1,0.1,1,2,10,1,snake,1,1,rows,700\n"
                "mesh,4,ring,2,1,allreduce,int32,1024,900,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                "mesh,4,ring,2,1,allreduce,int32,2048,1000,1,0.1,1,2,10,1,snake,1,1,all,0\n");
  const CostTable table(path);
  const coll::Geometry g = PackageOf(coll::Topology::kMesh, 4);
  const coll::Candidate ring{"ring", 2, 1, {}};
  EXPECT_EQ(table.Choices(Collective::kAllReduce, g, {ring}, "rows").size(), 2u);
  EXPECT_EQ(table.Cheapest(Collective::kAllReduce, g, {ring}, 1024, "rows").algo, "tree");
  EXPECT_EQ(table.Cheapest(Collective::kAllReduce, g, {ring}, 2048, "rows").algo, "ring");
  EXPECT_EQ(table.Cheapest(Collective::kAllReduce, g, {ring}, 1024).algo, "ring");
  Chiplet chip;
  chip.clock_ghz = 2.0;
  const ScopedCost cost = table.Scoped(g, {ring}, ParseParallelism("tp@rows+ddp"), chip);
  EXPECT_DOUBLE_EQ(cost(Collective::kAllReduce, 1024, Scope::kInner), 150);  // tree, 2 GHz
  EXPECT_DOUBLE_EQ(cost(Collective::kAllReduce, 2048, Scope::kInner), 300);  // ring
  EXPECT_DOUBLE_EQ(cost(Collective::kAllReduce, 1024, Scope::kAll), 450);
  try {
    cost(Collective::kAllReduce, 1024, Scope::kOuter);  // the columns: nothing measured
    FAIL();
  } catch (const MissingCost& e) {
    EXPECT_NE(std::string(e.what()).find("no measured allreduce costs for ring on mesh 4x4, "
                                         "communicators cols"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--groups cols"), std::string::npos) << e.what();
  }
}

// Candidates on several packages (Adapt-NoC's sub-networks): per size the cheapest of all, each
// counted under "candidate on topology"; a package's local ports select its rows.
TEST(Costs, CheapestAcrossPackagesNamesTheTopology) {
  const std::string path =
      Write("across.csv",
            std::string(coll::CostCsvHeader()) +
                "\n"
                "mesh,4,ring,2,1,allreduce,int32,1024,400,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                "mesh,4,ring,2,1,allreduce,int32,2048,600,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                "torus,4,ring,2,1,allreduce,int32,1024,450,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                "torus,4,ring,2,1,allreduce,int32,2048,500,1,0.1,1,2,10,1,snake,1,1,all,0\n"
                "mesh,4,ring,2,1,allreduce,int32,1024,200,1,0.1,1,2,10,1,snake,1,2,all,0\n"
                "mesh,4,ring,2,1,allreduce,int32,2048,300,1,0.1,1,2,10,1,snake,1,2,all,0\n");
  const CostTable table(path);
  auto used = std::make_shared<std::map<std::string, unsigned>>();
  const coll::Candidate ring{"ring", 2, 1, {}};
  const CommCost c = table.CheapestOf(
      {{PackageOf(coll::Topology::kMesh, 4), ring}, {PackageOf(coll::Topology::kTorus, 4), ring}},
      Chiplet(), {Collective::kAllReduce}, used);
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 1024), 400);  // mesh (its one-port rows)
  EXPECT_DOUBLE_EQ(c(Collective::kAllReduce, 2048), 500);  // torus
  EXPECT_EQ((*used)["ring on mesh"], 1u);
  EXPECT_EQ((*used)["ring on torus"], 1u);
  // A caller's names for the packages (Adapt-NoC's sub-networks) label them instead.
  auto named = std::make_shared<std::map<std::string, unsigned>>();
  const CommCost n = table.CheapestOf(
      {{PackageOf(coll::Topology::kMesh, 4), ring}, {PackageOf(coll::Topology::kTorus, 4), ring}},
      Chiplet(), {Collective::kAllReduce}, named, "all", [](const coll::Geometry& g) {
        return g.topology == coll::Topology::kTorus ? std::string("wraps") : std::string("grid");
      });
  n(Collective::kAllReduce, 1024);
  n(Collective::kAllReduce, 2048);
  EXPECT_EQ((*named)["ring on grid"], 1u);
  EXPECT_EQ((*named)["ring on wraps"], 1u);
  EXPECT_EQ(named->size(), 2u);
  const CommCost two =
      table.Cost(PackageOf(coll::Topology::kMesh, 4, 2), ring, Chiplet(), {Collective::kAllReduce});
  EXPECT_DOUBLE_EQ(two(Collective::kAllReduce, 2048), 300);
  EXPECT_THROW(table.Cost(PackageOf(coll::Topology::kTorus, 4, 2), ring, Chiplet(),
                          {Collective::kAllReduce}),
               std::invalid_argument);
}

}  // namespace
}  // namespace aries::train

namespace aries::train {
namespace {

// Every collective costs 1 ns per byte whatever its scope; the scopes it saw are recorded.
struct ScopedByteCost {
  std::vector<std::tuple<Collective, Scope, uint64_t>>* seen;
  double operator()(Collective c, uint64_t bytes, Scope s) const {
    seen->push_back({c, s, bytes});
    return static_cast<double>(bytes);
  }
};

Workload ThreeLayersWithOutputs() {
  Workload w = ThreeLayers();
  w.layers[0].act = 5;
  w.layers[1].act = 10;
  w.layers[2].act = 15;
  return w;
}

// ddp within rows and across them: each gradient reduce-scattered in the row (its 4 bytes per
// parameter), its quarter all-reduced across the rows, gathered back in the row, in that order
// after the layer's backward; tp within rows: a row shares 4 x the batch, each chiplet computing
// a quarter of every layer (the same compute as ddp), the tp all-reduces in the row.
TEST(Streams, NestedStrategiesIssueTheirCollectivesPerScope) {
  std::vector<std::tuple<Collective, Scope, uint64_t>> seen;
  IterationOptions o;
  o.chiplets = 16;
  o.group = 4;
  o.par = ParseParallelism("ddp@rows+ddp");
  const Iteration it = RunIteration(ThreeLayers(), UnitChiplet(), o, ScopedByteCost{&seen});
  ASSERT_EQ(seen.size(), 9u);
  // C back-propagates first: 30 parameters = 120 bytes; its quarter 7.5 -> 8 elements.
  EXPECT_EQ(seen[0], std::make_tuple(Collective::kReduceScatter, Scope::kInner, uint64_t{120}));
  EXPECT_EQ(seen[1], std::make_tuple(Collective::kAllReduce, Scope::kOuter, uint64_t{32}));
  EXPECT_EQ(seen[2], std::make_tuple(Collective::kAllGather, Scope::kInner, uint64_t{120}));
  const Op& ar = Find(it, "allreduce(outer) C");
  EXPECT_DOUBLE_EQ(ar.start, Find(it, "reducescatter(inner) C").end);
  EXPECT_DOUBLE_EQ(Find(it, "allgather(inner) C").start, ar.end);
  EXPECT_DOUBLE_EQ(it.compute_busy, 480);  // 160 forward + 320 backward, as flat ddp

  seen.clear();
  o.par = ParseParallelism("tp@rows+ddp");
  const Iteration tp = RunIteration(ThreeLayers(), UnitChiplet(), o, ScopedByteCost{&seen});
  EXPECT_DOUBLE_EQ(tp.compute_busy, 480);
  // A's output (5 per sample) over the row's 4 samples: 80 bytes in the row, blocking B.
  const Op& out = Find(tp, "allreduce(inner/out) A");
  EXPECT_EQ(out.scope, Scope::kInner);
  EXPECT_EQ(out.bytes, 80u);
  EXPECT_DOUBLE_EQ(Find(tp, "fwd B").start, out.end);
  // The gradients: a quarter of each layer across the rows (C: 30 / 4 -> 8 elements).
  EXPECT_EQ(Find(tp, "allreduce(outer) C").bytes, 32u);
  EXPECT_EQ(Find(tp, "allreduce(outer) C").scope, Scope::kOuter);
  // ... on the sync stream: the tp all-reduces within the rows never wait behind them.
  EXPECT_EQ(Find(tp, "allreduce(outer) C").stream, Stream::kSync);
  EXPECT_EQ(Find(tp, "allreduce(inner/grad) C").stream, Stream::kComm);
  EXPECT_DOUBLE_EQ(Find(tp, "allreduce(inner/grad) B").start, Find(tp, "bwd B").end);

  // fsdp within rows, ddp across: gathers in the row before each forward and backward, the
  // gradient reduce-scattered in the row, its quarter all-reduced across.
  o.par = ParseParallelism("fsdp@rows+ddp");
  const Iteration h = RunIteration(ThreeLayers(), UnitChiplet(), o, ScopedByteCost{&seen});
  EXPECT_EQ(Find(h, "allgather(inner) A").bytes, 40u);
  EXPECT_DOUBLE_EQ(Find(h, "fwd A").start, Find(h, "allgather(inner) A").end);
  EXPECT_EQ(Find(h, "allgather(inner/bwd) C").scope, Scope::kInner);
  EXPECT_EQ(Find(h, "allreduce(outer) C").bytes, 32u);
  // Scopes name their communicators: rows -> cols across; quadrants -> qpeers; pipeline
  // stages of rows pass to vertical pairs.
  EXPECT_EQ(ScopeShape(ParseParallelism("tp@rows+ddp"), Scope::kOuter), "cols");
  EXPECT_EQ(ScopeShape(ParseParallelism("tp@quadrants+ddp"), Scope::kOuter), "qpeers");
  EXPECT_EQ(ScopeShape(ParseParallelism("ddp@cols+pp"), Scope::kStage), "hpairs");
  EXPECT_EQ(ScopeShape(ParseParallelism("ddp"), Scope::kAll), "all");
  EXPECT_EQ(GroupSize("quadrants", 8), 16u);
}

// GPipe over 2 stages of 2 chiplets (A | B, C: cut where the compute halves), the global batch
// of 4 in 2 micro-batches (1 sample per chiplet each): the schedule worked by hand.
TEST(Streams, PipelineStagesPassActivationsAndGradients) {
  IterationOptions o;
  o.chiplets = 4;
  o.group = 2;
  o.microbatches = 2;
  o.par = ParseParallelism("ddp@rows+pp");
  std::vector<std::tuple<Collective, Scope, uint64_t>> seen;
  const Iteration it =
      RunIteration(ThreeLayersWithOutputs(), UnitChiplet(), o, ScopedByteCost{&seen});
  EXPECT_EQ(it.stages, 2u);
  EXPECT_EQ(it.microbatches, 2u);
  // Stage 0: fwd A mb0 [0, 100], mb1 [100, 200]; its activations (5 elements, both ways of the
  // pair: 40 bytes) leave at 100 and 200.
  EXPECT_DOUBLE_EQ(Find(it, "send(stage) A mb0").end, 140);
  EXPECT_EQ(Find(it, "send(stage) A mb0").scope, Scope::kStage);
  EXPECT_DOUBLE_EQ(Find(it, "fwd B mb0").start, 140);
  EXPECT_DOUBLE_EQ(Find(it, "fwd B mb1").start, 240);
  // Stage 1's backward: mb1 then mb0; the gradient to stage 0 after B's backward.
  EXPECT_DOUBLE_EQ(Find(it, "bwd C mb1").start, 300);
  EXPECT_DOUBLE_EQ(Find(it, "send(stage/grad) B mb1").end, 460);
  EXPECT_DOUBLE_EQ(Find(it, "bwd A mb1").start, 460);
  EXPECT_DOUBLE_EQ(Find(it, "send(stage/grad) B mb0").end, 620);
  EXPECT_DOUBLE_EQ(Find(it, "bwd A mb0").start, 660);
  // ddp inside each stage: A's gradient all-reduced in its row after the last micro-batch.
  EXPECT_DOUBLE_EQ(Find(it, "allreduce(inner) A").end, 900);
  EXPECT_DOUBLE_EQ(it.time, 900);
  EXPECT_DOUBLE_EQ(it.compute_busy, 600);  // stage 0, the busiest
  EXPECT_DOUBLE_EQ(it.exposed_comm, 300);
  // Under tp a stage's chiplets each receive 1/2 of the boundary and gather the rest in their
  // row: A's 5 outputs x 2 samples = 40 bytes, before B's forward.
  o.par = ParseParallelism("tp@rows+pp");
  const Iteration tp =
      RunIteration(ThreeLayersWithOutputs(), UnitChiplet(), o, ScopedByteCost{&seen});
  const Op& recv = Find(tp, "allgather(inner/recv) A mb1");
  EXPECT_EQ(recv.bytes, 40u);
  EXPECT_EQ(recv.stage, 1u);
  EXPECT_DOUBLE_EQ(Find(tp, "fwd B mb1").start, std::max(recv.end, Find(tp, "fwd C mb0").end));
  EXPECT_EQ(Find(tp, "allgather(inner/grad) A mb0").stage, 0u);
  // Refusals: more stages than layers; a micro-batch under a sample per chiplet; no act column.
  EXPECT_THROW(RunIteration(ThreeLayers(), UnitChiplet(), o, ScopedByteCost{&seen}),
               std::invalid_argument);
  o.par = ParseParallelism("ddp@rows+pp");
  o.chiplets = 16;
  o.group = 4;
  o.microbatches = 0;
  o.par = ParseParallelism("ddp@rows+pp");
  EXPECT_THROW(RunIteration(ThreeLayersWithOutputs(), UnitChiplet(), o, ScopedByteCost{&seen}),
               std::invalid_argument);
  o.chiplets = 4;
  o.group = 2;
  o.microbatches = 4;
  EXPECT_THROW(RunIteration(ThreeLayersWithOutputs(), UnitChiplet(), o, ScopedByteCost{&seen}),
               std::invalid_argument);
}

// The pooled embeddings: an all-to-all of the tables' outputs after the last table's forward,
// before the layer that reads them, and back after its backward; the tables' backward waits.
TEST(Streams, ShardedTablesExchangeTheirPooledOutputs) {
  Workload w;
  w.name = "rec";
  w.batch = 2;
  w.layers = {{"t0", 100, 0, 0, 0, true},
              {"t1", 100, 0, 0, 0, true},
              {"mlp", 10, 100, 5, 0, false},
              {"inter", 0, 20, 0, 0, false},
              {"top", 10, 50, 5, 5, false}};
  w.layers[0].act = 3;
  w.layers[1].act = 3;
  w.embeddings_to = "inter";
  IterationOptions o;
  o.chiplets = 16;
  const Iteration it = RunIteration(w, UnitChiplet(), o, ByteCost);
  const Op& x = Find(it, "alltoall embeddings");
  EXPECT_EQ(x.bytes, 48u);  // 6 elements x 2 samples x 4 bytes
  EXPECT_DOUBLE_EQ(x.start, 0);
  EXPECT_DOUBLE_EQ(Find(it, "fwd mlp").start, 0);  // the bottom MLP does not wait
  EXPECT_DOUBLE_EQ(Find(it, "fwd inter").start, 200);
  EXPECT_DOUBLE_EQ(Find(it, "fwd inter").start, std::max(x.end, Find(it, "fwd mlp").end));
  const Op& back = Find(it, "alltoall(grad) embeddings");
  EXPECT_DOUBLE_EQ(back.start, Find(it, "bwd inter").end);
  EXPECT_GE(Find(it, "bwd t1").start, back.end);
  // fig10's all-reduce study leaves the exchange out.
  o.embedding_exchange = false;
  for (const Op& op : RunIteration(w, UnitChiplet(), o, ByteCost).ops)
    EXPECT_EQ(op.name.find("embeddings"), std::string::npos) << op.name;
  // A reading layer before the tables is refused by name.
  w.embeddings_to = "";
  std::swap(w.layers[0], w.layers[4]);
  o.embedding_exchange = true;
  EXPECT_THROW(RunIteration(w, UnitChiplet(), o, ByteCost), std::invalid_argument);
}

// Memory per chiplet: 16 bytes per kept parameter, the outputs kept for the backward pass.
TEST(Streams, MemoryCountsWhatAChipletKeeps) {
  IterationOptions o;
  o.chiplets = 16;
  const Workload w = ThreeLayersWithOutputs();  // 60 parameters, 30 output elements per sample
  EXPECT_DOUBLE_EQ(MemoryBytes(w, UnitChiplet(), o), 16 * 60 + 30 * 4);
  o.par = ParseParallelism("fsdp");  // 1/16 of the parameters, two gathered layers of 30
  EXPECT_DOUBLE_EQ(MemoryBytes(w, UnitChiplet(), o), 16 * 60 / 16.0 + 4 * 30 * 4 + 30 * 4);
  o.par = ParseParallelism("tp@rows+ddp");
  o.group = 4;
  EXPECT_DOUBLE_EQ(MemoryBytes(w, UnitChiplet(), o), 16 * 60 / 4.0 + 30 * 4);
  // A pipeline of 4 stages: a stage's quarter of the layers, split 4 ways under tp; every
  // micro-batch's outputs of the stage kept: a quarter of the outputs for 4 x the batch.
  o.par = ParseParallelism("tp@rows+pp");
  EXPECT_DOUBLE_EQ(MemoryBytes(w, UnitChiplet(), o), 16 * 60 / 16.0 + 30 * 4);
  o.par = ParseParallelism("ddp@rows+pp");
  EXPECT_DOUBLE_EQ(MemoryBytes(w, UnitChiplet(), o), 16 * 60 / 4.0 + 30 * 4);
}

}  // namespace
}  // namespace aries::train
