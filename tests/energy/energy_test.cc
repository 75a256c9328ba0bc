// The energy model's arithmetic on a case computed by hand, the shipped technology files, and
// the refusals of bad files and overrides.
#include "energy.h"

#include <gtest/gtest.h>

#include <fstream>

namespace aries::energy {
namespace {

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "energy_" + name;
  std::ofstream(path) << text;
  return path;
}

Tech HandTech() {
  Tech t;
  t.ref_flit_bits = 100;
  t.buffer_write_pj = 1;
  t.buffer_read_pj = 2;
  t.xbar_pj = 3;
  t.sa_pj = 0.5;
  t.va_pj = 0.25;
  t.link_pj_per_bit = 0.1;
  t.engine_op_pj = 0.2;
  t.reconfig_pj = 7;
  t.buffer_leak_nw_per_bit = 10;
  t.router_leak_mw = 1;
  t.data_fraction = 1;
  return t;
}

TEST(Energy, HandComputedCase) {
  Activity a;
  a.flit_bits = 200;  // twice the reference width
  a.router_buffer_bits = 1000;
  a.cycles = 1000;  // 1 us at 1 GHz
  NodeActivity n;
  n.buffer_writes = 10;
  n.buffer_toggles = 500;  // 500 / (10 x 200) = 0.25: half random data's toggles
  n.xbar_traversals = 10;
  n.va_grants = 2;
  n.engine_ops = 5;
  n.reconfigs = 1;
  n.link_flits = {4, 0};
  n.link_toggles = {400, 0};     // 400 / (4 x 200) = 0.5: random
  n.link_flit_pitches = {8, 0};  // 4 flits over two pitches
  a.nodes = {n};
  const Energy e = Compute(HandTech(), a);
  EXPECT_DOUBLE_EQ(e.buffers, 30);      // 10 x (1 + 2) x 2 (width) x 0.25 / 0.5
  EXPECT_DOUBLE_EQ(e.crossbar, 30);     // 10 x 3 x 2 x 0.5
  EXPECT_DOUBLE_EQ(e.allocators, 5.5);  // 10 x 0.5 + 2 x 0.25
  EXPECT_DOUBLE_EQ(e.links, 160);       // 8 flit-pitches x 200 bits x 0.1 x (0.5 / 0.5)
  EXPECT_DOUBLE_EQ(e.engine, 1);
  EXPECT_DOUBLE_EQ(e.reconfig, 7);
  EXPECT_NEAR(e.leakage, 2010, 1e-9);  // 1 us x (1000 bits x 10 nW + 1 mW x 2)
  EXPECT_NEAR(e.total(), 2243.5, 1e-9);
  EXPECT_DOUBLE_EQ(e.buffer_toggle_rate, 0.25);
  ASSERT_EQ(e.per_link.size(), 1u);  // only links that carried flits
  EXPECT_DOUBLE_EQ(e.per_link[0].toggle_rate, 0.5);
  EXPECT_DOUBLE_EQ(e.per_link[0].pj, 160);
  ASSERT_EQ(e.per_node.size(), 1u);
  EXPECT_NEAR(e.per_node[0], e.total(), 1e-9);
}

TEST(Energy, DataFractionKeepsADataIndependentPart) {
  Activity a;
  a.flit_bits = 100;
  NodeActivity n;
  n.buffer_writes = 4;
  n.buffer_toggles = 0;  // constant data
  n.xbar_traversals = 4;
  n.link_flits = {4};
  n.link_toggles = {0};
  n.link_flit_pitches = {4};
  a.nodes = {n};
  Tech t = HandTech();
  t.data_fraction = 0.25;  // 75% of the energy does not depend on the data
  const Energy e = Compute(t, a);
  EXPECT_DOUBLE_EQ(e.buffers, 4 * 3 * 0.75);  // 4 x (1 + 2) x (0.75 + 0.25 x 0)
  EXPECT_DOUBLE_EQ(e.crossbar, 4 * 3 * 0.75);
  EXPECT_DOUBLE_EQ(e.links, 4 * 100 * 0.1 * 0.75);
  a.nodes[0].link_flit_pitches = {};  // vectors of different lengths are refused
  EXPECT_THROW(Compute(t, a), std::invalid_argument);
}

TEST(Energy, NoActivityCostsOnlyLeakage) {
  Activity a;
  a.router_buffer_bits = 100;
  a.cycles = 2000;
  a.clock_ghz = 2;  // 1 us
  a.nodes.resize(3);
  const Energy e = Compute(HandTech(), a);
  EXPECT_DOUBLE_EQ(e.dynamic(), 0);
  EXPECT_NEAR(e.leakage, 3 * 1e-6 * (100 * 10e-9 + 1e-3 * 5.44) * 1e12, 1e-6);
}

TEST(Energy, ShippedTechnologyFilesLoadWithTheirSources) {
  for (const char* name : {"dsent45", "dsent32"}) {
    const Tech t = LoadTech(TechPath(name));
    EXPECT_EQ(t.name, name);
    EXPECT_GE(t.sources.size(), 3u) << name;
    EXPECT_EQ(t.ref_flit_bits, 128);
    EXPECT_DOUBLE_EQ(t.link_pj_per_bit, 0.5);
  }
  // The 45 nm DSENT set: arbitration = its two stages.
  EXPECT_NEAR(LoadTech(TechPath("dsent45")).sa_pj, 0.0138384 + 0.13333, 1e-9);
}

std::string Refusal(const std::string& text) {
  try {
    LoadTech(Write("bad.tech", text));
  } catch (const TechError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Energy, BadTechnologyFilesAndOverridesAreRefusedByName) {
  std::string all;
  for (const auto& [k, d] : TechKeys()) all += k + " = 1\n";
  EXPECT_NO_THROW(LoadTech(Write("ok.tech", all)));
  EXPECT_NE(Refusal(all + "volts = 1\n").find("unknown key 'volts'; allowed ref_flit_bits"),
            std::string::npos);
  EXPECT_NE(Refusal(all + "xbar_pj = 2\n").find("'xbar_pj' already set on line 4"),
            std::string::npos);
  EXPECT_NE(Refusal("xbar_pj = -1\n").find(":1: xbar_pj = '-1': expected a non-negative number"),
            std::string::npos);
  EXPECT_NE(Refusal("xbar_pj 1\n").find(":1: 'xbar_pj 1': expected key = value"),
            std::string::npos);
  EXPECT_NE(Refusal("xbar_pj = 1\n").find("'ref_flit_bits' is not set"), std::string::npos);
  EXPECT_THROW(LoadTech("/nonexistent.tech"), TechError);
  Tech t = HandTech();
  Override(t, "link_pj_per_bit=0.25");
  EXPECT_DOUBLE_EQ(t.link_pj_per_bit, 0.25);
  EXPECT_THROW(Override(t, "link=1"), TechError);
  EXPECT_THROW(Override(t, "xbar_pj=abc"), TechError);
  EXPECT_THROW(Override(t, "ref_flit_bits=0"), TechError);
  EXPECT_THROW(Override(t, "xbar_pj=0x10"), TechError);  // decimal only
  EXPECT_THROW(Override(t, "data_fraction=1.5"), TechError);
  EXPECT_DOUBLE_EQ(t.xbar_pj, 3);  // a refused override changes nothing
}

}  // namespace
}  // namespace aries::energy
