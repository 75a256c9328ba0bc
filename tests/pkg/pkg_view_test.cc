// The C++ view of the vocabulary (rtl/pkg/aries_pkg.h) equals the SystemVerilog package as
// Verilator elaborates it, constant by constant; and flit packing round-trips.
#include <gtest/gtest.h>

#include <memory>

#include "Varies_pkg_probe.h"
#include "Varies_regs_probe.h"
#include "aries_pkg.h"
#include "verilated.h"

namespace aries::hw {
namespace {

class PkgView : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    m_ = std::make_unique<Varies_pkg_probe>(ctx_.get());
    m_->eval();
  }
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Varies_pkg_probe> m_;
};

#define EXPECT_SAME(sv_port, cxx) \
  EXPECT_EQ(static_cast<uint32_t>(m_->sv_port), static_cast<uint32_t>(cxx)) << #cxx

TEST_F(PkgView, WidthsAndFlitLayout) {
  EXPECT_SAME(lane_w_o, kLaneW);
  EXPECT_SAME(vc_id_w_o, kVcIdW);
  EXPECT_SAME(flow_id_w_o, kFlowIdW);
  EXPECT_SAME(coord_w_o, kCoordW);
  EXPECT_SAME(port_id_w_o, kPortIdW);
  EXPECT_SAME(max_ports_o, kMaxPorts);
  EXPECT_SAME(max_vcs_o, kMaxVCs);
  EXPECT_SAME(hdr_head_o, kHdrHeadBit);
  EXPECT_SAME(hdr_tail_o, kHdrTailBit);
  EXPECT_SAME(hdr_vc_o, kHdrVcLsb);
  EXPECT_SAME(hdr_is_flow_o, kHdrIsFlowBit);
  EXPECT_SAME(hdr_flow_o, kHdrFlowLsb);
  EXPECT_SAME(hdr_dst_x_o, kHdrDstXLsb);
  EXPECT_SAME(hdr_dst_y_o, kHdrDstYLsb);
  EXPECT_SAME(hdr_src_x_o, kHdrSrcXLsb);
  EXPECT_SAME(hdr_src_y_o, kHdrSrcYLsb);
  EXPECT_SAME(hdr_w_o, kHdrW);
}

TEST_F(PkgView, PortsTopologiesOpcodes) {
  EXPECT_SAME(port_local_o, kPortLocal);
  EXPECT_SAME(port_xp_o, kPortXP);
  EXPECT_SAME(port_xm_o, kPortXM);
  EXPECT_SAME(port_yp_o, kPortYP);
  EXPECT_SAME(port_ym_o, kPortYM);
  EXPECT_SAME(num_mesh_ports_o, kNumMeshPorts);
  EXPECT_SAME(topo_mesh_o, kTopoMesh);
  EXPECT_SAME(topo_torus_o, kTopoTorus);
  EXPECT_SAME(topo_fbfly_o, kTopoFbfly);
  EXPECT_SAME(num_topos_o, kNumTopos);
  EXPECT_SAME(op_add_i32_o, kOpAddI32);
  EXPECT_SAME(op_mul_i32_o, kOpMulI32);
  EXPECT_SAME(op_min_i32_o, kOpMinI32);
  EXPECT_SAME(op_max_i32_o, kOpMaxI32);
  EXPECT_SAME(op_add_f32_o, kOpAddF32);
  EXPECT_SAME(op_mul_f32_o, kOpMulF32);
  EXPECT_SAME(op_min_f32_o, kOpMinF32);
  EXPECT_SAME(op_max_f32_o, kOpMaxF32);
  EXPECT_SAME(op_and_o, kOpAnd);
  EXPECT_SAME(op_or_o, kOpOr);
  EXPECT_SAME(op_xor_o, kOpXor);
  EXPECT_SAME(num_ops_o, kNumOps);
  EXPECT_SAME(op_w_o, kOpW);
}

// The register map (generated from rtl/regs/aries_regs.json into the package and the C++
// view): every constant as Verilator elaborates the package equals the C++ one, by name.
TEST(RegisterMap, EveryGeneratedConstantMatchesTheElaboratedPackage) {
  auto ctx = std::make_unique<VerilatedContext>();
  auto m = std::make_unique<Varies_regs_probe>(ctx.get());
  m->eval();
  const size_t n = sizeof(kRegConstants) / sizeof(kRegConstants[0]);
  EXPECT_GT(n, 90u);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(static_cast<uint32_t>(m->values_o[i]), kRegConstants[i].value)
        << kRegConstants[i].name;
  }
}

TEST_F(PkgView, CollectiveFlitsAndRegisterHelpers) {
  EXPECT_SAME(coll_hdr_op_lsb_o, kCollHdrOpLsb);
  EXPECT_SAME(coll_hdr_seq_lsb_o, kCollHdrSeqLsb);
  EXPECT_SAME(coll_seq_w_o, kCollSeqW);
  EXPECT_EQ(PortSelValue(3, 1), 0x0103u);
  EXPECT_EQ(BypassValue(0x3, 0x1), 0x00010003u);
}

TEST(FlitPacking, RoundTripsEveryField) {
  Flit f;
  f.head = true;
  f.tail = false;
  f.vc = 5;
  f.is_flow = true;
  f.flow = 47;
  f.dst_x = 31;
  f.dst_y = 9;
  f.src_x = 3;
  f.src_y = 28;
  f.payload = {1u, 0xFFFFFFFFu, 0x80000000u};
  uint32_t words[4];
  PackFlit(f, 3, words);
  EXPECT_EQ(UnpackFlit(words, 3), f);
  // Fields wider than their header slot are truncated, not spilled into neighbours.
  Flit g = f;
  g.vc = 9;  // 3-bit field
  PackFlit(g, 3, words);
  EXPECT_EQ(UnpackFlit(words, 3).vc, 1u);
  EXPECT_EQ(UnpackFlit(words, 3).is_flow, true);
}

TEST(RegisterHelpers, AddressesAndValues) {
  EXPECT_EQ(RouteAddr(0, 0), kRegRouteBase);
  EXPECT_EQ(RouteAddr(1023, 31), 0xFFFFu);
  EXPECT_EQ(CtrlValue(kTopoTorus, 4, 8), 0x70301u);  // [12:8] 3, [20:16] 7
  EXPECT_EQ(PassthruValue(true, 4), 0x0401u);
}

}  // namespace
}  // namespace aries::hw
