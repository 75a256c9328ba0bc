// The one key table: every key is read by named subcommands and its default is valid for each
// of them; values are refused with their origin; keys given twice or not read are refused; the
// typed requests carry the keys.
#include "config.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "coll_run.h"
#include "coll_sweep.h"
#include "figures.h"
#include "node_models.h"
#include "train_run.h"

namespace aries::sim {
namespace {

// Requests start from default options (named: a braced temporary holding the geometry's fault
// vector makes GCC 12 warn, falsely, that its destructor may read uninitialized memory).
const CollOptions kNoColl;
const CollSweepOptions kNoSweep;

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigKeys, EveryKeyNamesKnownSubcommandsAndEveryDefaultIsValid) {
  const auto& subs = Subcommands();
  for (const KeyInfo& k : ConfigKeys()) {
    std::istringstream ws(k.commands);
    std::string w;
    unsigned n = 0;
    while (ws >> w) {
      EXPECT_NE(std::find(subs.begin(), subs.end(), w), subs.end()) << k.key << ": " << w;
      ++n;
    }
    EXPECT_GT(n, 0u) << k.key << " is read by no subcommand";
  }
  const Config c;
  EXPECT_NO_THROW(Validate(c));
  EXPECT_NO_THROW(SweepRates(c));
  EXPECT_NO_THROW(CollRequest(c, kNoColl));
  EXPECT_NO_THROW(CollSweepRequest(c, kNoSweep));
  EXPECT_NO_THROW(TrainRequest(c, TrainOptions()));
  EXPECT_NO_THROW(Fig10Request(c, {}));
}

// package.node's table of allowed values is written by hand: it names every shipped model, as
// the models' own list does.
TEST(ConfigKeys, PackageNodeNamesEveryShippedModel) {
  EXPECT_EQ(std::string(KeyInfoOf("package.node").allowed),
            "auto, " + aries::sysc::ShippedParamNames());
}

// Each request builder reads only the keys its subcommand lists: every other key holds a value
// no reader accepts, and the builder still succeeds.
TEST(ConfigKeys, EachBuilderReadsOnlyTheKeysItsSubcommandLists) {
  auto poisoned = [](const std::string& command) {
    Config c;
    for (const KeyInfo& k : ConfigKeys()) {
      if (!k.UsedBy(command)) c.Set(k.key, "@poison@");
    }
    return c;
  };
  EXPECT_NO_THROW(Validate(poisoned("run")));
  EXPECT_NO_THROW(Validate(poisoned("sweep")));
  EXPECT_NO_THROW(SweepRates(poisoned("sweep")));
  EXPECT_NO_THROW(CollRequest(poisoned("coll"), kNoColl));
  EXPECT_NO_THROW(CollSweepRequest(poisoned("coll-sweep"), kNoSweep));
  EXPECT_NO_THROW(TrainRequest(poisoned("train"), TrainOptions()));
  EXPECT_NO_THROW(Fig10Request(poisoned("fig10"), {}));
  // (The check can fail: a builder given its own key poisoned throws.)
  Config bad = poisoned("coll");
  bad.Set("package.k", "@poison@", "--k");
  EXPECT_THROW(CollRequest(bad, kNoColl), ConfigError);
}

TEST(ConfigKeys, TwiceOnTheCommandLineIsRefusedAFileValueMayBeOverridden) {
  Config c;
  c.Set("coll.algo", "dbt", "--set");
  EXPECT_EQ(ErrorOf([&] { c.Set("coll.algo", "ring", "--algo"); }),
            "coll.algo given twice: 'dbt' (--set) and 'ring' (--algo); give it once");
  EXPECT_EQ(c.Get("coll.algo"), "dbt");  // nothing changed

  const std::string path = ::testing::TempDir() + "/keys_test.cfg";
  std::ofstream(path) << "package.k = 8\ncoll.size = 2M\n";
  Config f;
  f.LoadFile(path);
  f.Set("package.k", "2", "--k");  // the command line overrides the file
  EXPECT_EQ(f.Get("package.k"), "2");
  EXPECT_EQ(f.Origin("coll.size"), path + ":2");

  std::ofstream(path) << "package.k = 8\npackage.k = 4\n";
  Config g;
  EXPECT_NE(ErrorOf([&] { g.LoadFile(path); }).find(":2: package.k given twice"),
            std::string::npos);
  std::remove(path.c_str());
}

TEST(ConfigKeys, AKeyTheSubcommandDoesNotReadIsRefusedByName) {
  Config c;
  c.Set("traffic.rate", "0.3", "--set");
  const std::string e = ErrorOf([&] { c.RefuseUnread("coll"); });
  EXPECT_EQ(e.rfind("aries coll does not read traffic.rate (set by --set); it reads "
                    "package.topology, package.k,",
                    0),
            0u)
      << e;
  EXPECT_NO_THROW(c.RefuseUnread("run"));
  Config d;
  d.Set("package.k", "4", "--set");
  EXPECT_EQ(ErrorOf([&] { d.RefuseUnread("table1"); }),
            "aries table1 does not read package.k (set by --set); it reads no configuration keys");
}

TEST(ConfigKeys, IntegersAreDecimalAndBounded) {
  Config c;
  c.Set("package.k", "010");
  EXPECT_EQ(KeyUint(c, "package.k"), 10u);
  for (const char* bad : {"0x10", "-1", "+4", " 4", "4.0", "", "99999999999999999999999"}) {
    Config d;
    d.Set("sim.seed", bad);
    EXPECT_NE(ErrorOf([&] { KeyUint(d, "sim.seed"); }).find("allowed"), std::string::npos) << bad;
  }
  Config e;
  e.Set("sim.seed", "18446744073709551615");
  EXPECT_EQ(KeyUint(e, "sim.seed"), ~uint64_t{0});
}

// A number's range is written once, in the key table: each reader takes its bounds from there,
// and the refusal of a value just outside them names the table's range.
TEST(ConfigKeys, EveryRangeComesFromTheTable) {
  unsigned ranged = 0;
  for (const KeyInfo& k : ConfigKeys()) {
    const KeyType& t = k.type;
    if (t.kind != KeyKind::kUint && t.kind != KeyKind::kReal && t.kind != KeyKind::kBytes) continue;
    ++ranged;
    const std::string range = k.Allowed();
    EXPECT_FALSE(range.empty()) << k.key;
    std::vector<std::string> outside;
    if (t.kind == KeyKind::kReal) {
      outside = {fmt::format("{}", t.real_hi + 0.5), fmt::format("{}", t.real_lo - 0.5)};
    } else if (t.kind == KeyKind::kUint) {
      if (t.hi != ~uint64_t{0}) outside.push_back(std::to_string(t.hi + 1));
      if (t.lo > 0) outside.push_back(std::to_string(t.lo - 1));
    } else {
      outside.push_back(std::to_string(t.hi) + "K");  // 1024 times the largest
    }
    for (const std::string& v : outside) {
      Config c;
      c.Set(k.key, v);
      const std::string err = ErrorOf([&] {
        if (t.kind == KeyKind::kReal) KeyReal(c, k.key);
        if (t.kind == KeyKind::kUint) KeyUint(c, k.key);
        if (t.kind == KeyKind::kBytes) KeyBytes(c, k.key);
      });
      EXPECT_EQ(err, fmt::format("{} = '{}': allowed {}", k.key, v, range)) << k.key;
    }
  }
  EXPECT_GT(ranged, 20u);
  Config f;  // a reader narrower than the table says which range and why
  f.Set("package.k", "20");
  EXPECT_EQ(ErrorOf([&] { KeyUintWithin(f, "package.k", 2, 16, "the cost models"); }),
            "package.k = '20': allowed 2 .. 16 (the cost models)");
}

TEST(ConfigKeys, SweepRatesAreLoadsAboveZeroUpToOne) {
  Config c;
  c.Set("sweep.rates", "0.1,1,0.05");
  EXPECT_EQ(SweepRates(c), (std::vector<double>{0.1, 1.0, 0.05}));
  for (const char* bad : {"nan", "0.1,nan", "-nan", "inf", "0", "-0.1", "1.5", "0.1,,0.2", ""}) {
    Config d;
    d.Set("sweep.rates", bad);
    EXPECT_EQ(
        ErrorOf([&] { SweepRates(d); }),
        fmt::format("sweep.rates = '{}': allowed comma-separated loads, each > 0 and <= 1", bad))
        << bad;
  }
}

TEST(ConfigKeys, AFlagsBadValueIsNamedAsTheUserWroteIt) {
  Config c;
  c.Set("coll.type", "fp64", "--type");
  EXPECT_EQ(ErrorOf([&] { CollRequest(c, kNoColl); }),
            "--type fp64: allowed int32, fp32; did you mean 'fp32'? (key coll.type)");
  Config d;
  d.Set("coll.type", "fp64");
  EXPECT_EQ(ErrorOf([&] { CollRequest(d, kNoColl); }),
            "coll.type = 'fp64': allowed int32, fp32; did you mean 'fp32'?");
}

TEST(CollRequest, CarriesTypedKeysAndRefusesWhatCannotRun) {
  Config c;
  c.Set("package.topology", "torus");
  c.Set("package.k", "8");
  c.Set("coll.collective", "reduce");
  c.Set("coll.root", "63");
  c.Set("coll.size", "2M");
  c.Set("package.link_latency", "20");
  const CollOptions o = CollRequest(c, kNoColl);
  EXPECT_EQ(o.geometry.topology, coll::Topology::kTorus);
  EXPECT_EQ(o.geometry.k, 8u);
  EXPECT_EQ(o.geometry.link_latency, 20u);
  EXPECT_EQ(o.collective, coll::Collective::kReduce);
  EXPECT_EQ(o.root, 63u);
  EXPECT_EQ(o.bytes, 2u << 20);
  EXPECT_EQ(o.model, "rtl");  // auto: one run is the RTL
  auto refused = [](const char* key, const char* value) {
    Config d;
    d.Set(key, value);
    return ErrorOf([&] { CollRequest(d, kNoColl); });
  };
  EXPECT_NE(refused("coll.size", "65M").find("coll.size = '65M': allowed"), std::string::npos);
  EXPECT_NE(refused("coll.size", "0").find("allowed"), std::string::npos);
  EXPECT_NE(refused("coll.size", "18446744073709551615K").find("allowed"), std::string::npos);
  EXPECT_NE(refused("coll.root", "1").find("only with reduce and broadcast"), std::string::npos);
  EXPECT_NE(refused("coll.algo", "nccl").find("auto or one of ring"), std::string::npos);
  EXPECT_NE(refused("coll.collective", "gather").find("allowed allreduce"), std::string::npos);
  EXPECT_NE(refused("coll.ring_map", "hilbert").find("coll.ring_map = 'hilbert'"),
            std::string::npos);
  EXPECT_NE(refused("coll.ring_dirs", "3").find("coll.ring_dirs = '3'"), std::string::npos);
  Config r;
  r.Set("coll.ring_map", "rank");
  r.Set("coll.ring_dirs", "2");
  const CollOptions ro = CollRequest(r, kNoColl);
  EXPECT_EQ(ro.ring.map, coll::RingMap::kRank);
  EXPECT_EQ(ro.ring.dirs, 2u);
  Config a;
  a.Set("coll.algo", "auto");
  a.Set("coll.ring_dirs", "2");
  EXPECT_NE(ErrorOf([&] { CollRequest(a, kNoColl); }).find("the default with --algo auto"),
            std::string::npos);
  // All-to-all-v's counts: only with alltoallv, a file that exists, no coll.size beside a file,
  // no auto.
  EXPECT_NE(refused("coll.counts", "random")
                .find("only with alltoallv (the collective is "
                      "allreduce)"),
            std::string::npos);
  auto v_refused = [](const std::vector<std::pair<const char*, const char*>>& kv) {
    Config d;
    d.Set("coll.collective", "alltoallv");
    for (const auto& [k, v] : kv) d.Set(k, v);
    return ErrorOf([&] { CollRequest(d, kNoColl); });
  };
  EXPECT_EQ(v_refused({{"coll.counts", "random"}, {"coll.algo", "direct"}}), "");
  EXPECT_NE(v_refused({{"coll.counts", "/nonexistent/counts.txt"}})
                .find("uniform, random, or a counts file that exists"),
            std::string::npos);
  const std::string file = ::testing::TempDir() + "config_test_counts.txt";
  std::ofstream(file) << "0 1\n1 0\n";
  EXPECT_EQ(v_refused({{"coll.counts", file.c_str()}}), "");
  EXPECT_NE(v_refused({{"coll.counts", file.c_str()}, {"coll.size", "4K"}})
                .find("unset with a counts file"),
            std::string::npos);
  std::remove(file.c_str());
  EXPECT_NE(v_refused({{"coll.algo", "auto"}}).find("direct or 2phase with alltoallv"),
            std::string::npos);
}

TEST(TrainRequest, TypedSizesAndStrategy) {
  Config c;
  c.Set("train.bucket", "25M");
  c.Set("train.check_max", "8M");
  c.Set("package.topology", "mesh");
  TrainOptions checked;
  checked.check = true;  // (train.check_max is --check's)
  const TrainOptions o = TrainRequest(c, checked);
  EXPECT_EQ(o.bucket, 25u << 20);
  EXPECT_EQ(o.check_max, 8u << 20);
  EXPECT_EQ(o.topology, coll::Topology::kMesh);
  EXPECT_TRUE(o.par.Flat());
  EXPECT_EQ(o.par.inner, train::Strategy::kDdp);
  Config d;
  d.Set("train.strategy", "fsdp");
  d.Set("train.bucket", "1M");
  EXPECT_NE(ErrorOf([&] { TrainRequest(d, TrainOptions()); }).find("buckets are flat ddp's"),
            std::string::npos);
  // Nested strategies: parsed, and refused by the part that is wrong, naming what is allowed.
  Config n;
  n.Set("train.strategy", "tp@rows+pp");
  n.Set("train.microbatches", "16");
  const TrainOptions nested = TrainRequest(n, TrainOptions());
  EXPECT_EQ(nested.par.Label(), "tp@rows+pp");
  EXPECT_EQ(nested.microbatches, 16u);
  auto strategy_error = [](const std::string& v, const std::string& k = "4") {
    Config x;
    x.Set("train.strategy", v);
    x.Set("package.k", k);
    return ErrorOf([&] { TrainRequest(x, TrainOptions()); });
  };
  EXPECT_NE(strategy_error("tp@diagonals+ddp")
                .find("groups of rows, cols or quadrants ('diagonals' is not one)"),
            std::string::npos);
  EXPECT_NE(strategy_error("zero@rows+ddp").find("an inner strategy of ddp, fsdp or tp"),
            std::string::npos);
  EXPECT_NE(strategy_error("tp@rows+zero").find("an outer strategy of ddp, fsdp or pp"),
            std::string::npos);
  EXPECT_NE(strategy_error("fsdp@rows+fsdp").find("that is flat fsdp"), std::string::npos);
  EXPECT_NE(strategy_error("fsdp@rows+pp").find("ddp or tp inside pipeline stages"),
            std::string::npos);
  EXPECT_NE(strategy_error("tp@quadrants+pp").find("pipeline stages of rows or cols"),
            std::string::npos);
  EXPECT_NE(strategy_error("tp@rows").find("INNER@GROUPS+OUTER"), std::string::npos);
  EXPECT_NE(strategy_error("tp@quadrants+ddp", "5").find("with K even (K = 5"), std::string::npos);
  // Keys one run reads, given to the search (or the search's and --check's without them):
  // refused, not ignored.
  auto error_with = [](const std::string& key, const std::string& v, bool search, bool check) {
    Config x;
    x.Set(key, v);
    TrainOptions t;
    t.search = search;
    t.check = check;
    return ErrorOf([&] { TrainRequest(x, t); });
  };
  const struct {
    const char *key, *value;
    bool search, check;
    const char* says;
  } refused[] = {{"train.strategy", "fsdp", true, false, "only without --search"},
                 {"coll.algo", "dbt", true, false, "only without --search"},
                 {"coll.levels", "3", false, false, "only with --algo aries_lt"},
                 {"coll.embeddings", "2", false, false, "only with --algo tree"},
                 {"train.check_max", "1M", false, false, "only with --check"},
                 {"sim.model", "rtl", true, false, "only with --check"}};
  for (const auto& r : refused) {
    EXPECT_NE(error_with(r.key, r.value, r.search, r.check).find(r.says), std::string::npos)
        << r.key;
  }
  EXPECT_EQ(error_with("sim.model", "rtl", true, true), "");
  Config m;
  m.Set("train.microbatches", "8");
  EXPECT_NE(
      ErrorOf([&] { TrainRequest(m, TrainOptions()); }).find("micro-batches are a pipeline's"),
      std::string::npos);
  Config mem;
  mem.Set("train.memory", "2G");
  TrainOptions search;
  search.search = true;
  EXPECT_EQ(TrainRequest(mem, search).memory, uint64_t{2} << 30);
  EXPECT_NE(ErrorOf([&] { TrainRequest(mem, TrainOptions()); }).find("only with --search"),
            std::string::npos);
  Config e;
  e.Set("coll.algo", "auto");
  EXPECT_NE(ErrorOf([&] { TrainRequest(e, TrainOptions()); }).find("auto is coll's only"),
            std::string::npos);
}

}  // namespace
}  // namespace aries::sim
