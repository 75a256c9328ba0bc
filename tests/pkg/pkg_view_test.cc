// The C++ view of the vocabulary (rtl/pkg/aries_pkg.h) equals the SystemVerilog package as
// Verilator elaborates it, constant by constant; and flit packing round-trips.
#include <gtest/gtest.h>

#include <memory>

#include "Varies_pkg_probe.h"
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

#define EXPECT_SAME(sv_port, cxx) EXPECT_EQ(static_cast<uint32_t>(m_->sv_port), static_cast<uint32_t>(cxx)) << #cxx

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

TEST_F(PkgView, RegisterMap) {
  EXPECT_SAME(cfg_addr_w_o, kCfgAddrW);
  EXPECT_SAME(cfg_data_w_o, kCfgDataW);
  EXPECT_SAME(reg_id_o, kRegId);
  EXPECT_SAME(reg_num_ports_o, kRegNumPorts);
  EXPECT_SAME(reg_num_vcs_o, kRegNumVcs);
  EXPECT_SAME(reg_buffer_depth_o, kRegBufferDepth);
  EXPECT_SAME(reg_num_flows_o, kRegNumFlows);
  EXPECT_SAME(reg_lanes_o, kRegLanes);
  EXPECT_SAME(reg_ctrl_o, kRegCtrl);
  EXPECT_SAME(reg_status_o, kRegStatus);
  EXPECT_SAME(reg_err_info_o, kRegErrInfo);
  EXPECT_SAME(reg_miss_count_o, kRegMissCount);
  EXPECT_SAME(reg_out_idle_o, kRegOutIdle);
  EXPECT_SAME(reg_in_empty_o, kRegInEmpty);
  EXPECT_SAME(reg_passthru_base_o, kRegPassthruBase);
  EXPECT_SAME(reg_in_flits_base_o, kRegInFlitsBase);
  EXPECT_SAME(reg_out_flits_base_o, kRegOutFlitsBase);
  EXPECT_SAME(reg_route_base_o, kRegRouteBase);
  EXPECT_SAME(router_id_value_o, kRouterIdValue);
  EXPECT_SAME(ctrl_topo_lsb_o, kCtrlTopoLsb);
  EXPECT_SAME(ctrl_topo_w_o, kCtrlTopoW);
  EXPECT_SAME(ctrl_size_x_lsb_o, kCtrlSizeXLsb);
  EXPECT_SAME(ctrl_size_y_lsb_o, kCtrlSizeYLsb);
  EXPECT_SAME(ctrl_dyn_vc_bit_o, kCtrlDynVcBit);
  EXPECT_SAME(ctrl_mask_o, kCtrlMask);
  EXPECT_SAME(status_miss_o, kStatusMissBit);
  EXPECT_SAME(status_overflow_o, kStatusOverflowBit);
  EXPECT_SAME(status_cfg_err_o, kStatusCfgErrBit);
  EXPECT_SAME(status_credit_err_o, kStatusCreditErrBit);
  EXPECT_SAME(status_mask_o, kStatusMask);
  EXPECT_SAME(err_info_flow_lsb_o, kErrInfoFlowLsb);
  EXPECT_SAME(err_info_port_lsb_o, kErrInfoPortLsb);
  EXPECT_SAME(pass_en_o, kPassEnBit);
  EXPECT_SAME(pass_out_lsb_o, kPassOutLsb);
  EXPECT_SAME(pass_mask_o, kPassMask);
  EXPECT_SAME(route_inport_lsb_o, kRouteInportLsb);
  EXPECT_SAME(route_flow_lsb_o, kRouteFlowLsb);
  EXPECT_SAME(route_flow_w_o, kRouteFlowW);
}

TEST_F(PkgView, NodeRegisterMap) {
  EXPECT_SAME(node_reg_page_o, kNodeRegPage);
  EXPECT_SAME(reg_node_id_o, kRegNodeId);
  EXPECT_SAME(reg_node_tracks_o, kRegNodeTracks);
  EXPECT_SAME(reg_node_links_o, kRegNodeLinks);
  EXPECT_SAME(reg_port_sel_base_o, kRegPortSelBase);
  EXPECT_SAME(reg_bypass_o, kRegBypass);
  EXPECT_SAME(reg_node_status_o, kRegNodeStatus);
  EXPECT_SAME(node_id_value_o, kNodeIdValue);
  EXPECT_SAME(max_tracks_o, kMaxTracks);
  EXPECT_SAME(port_sel_in_lsb_o, kPortSelInLsb);
  EXPECT_SAME(port_sel_out_lsb_o, kPortSelOutLsb);
  EXPECT_SAME(port_sel_choice_w_o, kPortSelChoiceW);
  EXPECT_SAME(port_sel_mask_o, kPortSelMask);
  EXPECT_SAME(bypass_x_lsb_o, kBypassXLsb);
  EXPECT_SAME(bypass_y_lsb_o, kBypassYLsb);
  EXPECT_SAME(node_status_stray_flit_o, kNodeStatusStrayFlitBit);
  EXPECT_SAME(node_status_stray_credit_o, kNodeStatusStrayCreditBit);
  EXPECT_SAME(node_status_cfg_err_o, kNodeStatusCfgErrBit);
  EXPECT_SAME(node_status_mask_o, kNodeStatusMask);
  EXPECT_SAME(coll_hdr_op_lsb_o, kCollHdrOpLsb);
  EXPECT_SAME(coll_hdr_seq_lsb_o, kCollHdrSeqLsb);
  EXPECT_SAME(coll_seq_w_o, kCollSeqW);
  EXPECT_SAME(eng_reg_page_o, kEngRegPage);
  EXPECT_SAME(reg_eng_id_o, kRegEngId);
  EXPECT_SAME(reg_eng_params_o, kRegEngParams);
  EXPECT_SAME(reg_eng_ctrl_o, kRegEngCtrl);
  EXPECT_SAME(reg_eng_status_o, kRegEngStatus);
  EXPECT_SAME(reg_eng_err_info_o, kRegEngErrInfo);
  EXPECT_SAME(reg_eng_req_len_o, kRegEngReqLen);
  EXPECT_SAME(reg_eng_rsp_len_o, kRegEngRspLen);
  EXPECT_SAME(reg_eng_dropped_o, kRegEngDropped);
  EXPECT_SAME(reg_eng_req_prog_base_o, kRegEngReqProgBase);
  EXPECT_SAME(reg_eng_rsp_prog_base_o, kRegEngRspProgBase);
  EXPECT_SAME(reg_eng_id_base_o, kRegEngIdBase);
  EXPECT_SAME(eng_id_stride_o, kEngIdStride);
  EXPECT_SAME(eng_id_value_o, kEngIdValue);
  EXPECT_SAME(eng_max_ids_o, kEngMaxIds);
  EXPECT_SAME(eng_max_prog_o, kEngMaxProg);
  EXPECT_SAME(id_reg_cfg_o, kIdRegCfg);
  EXPECT_SAME(id_reg_count_o, kIdRegCount);
  EXPECT_SAME(id_reg_req_in_o, kIdRegReqIn);
  EXPECT_SAME(id_reg_req_out_o, kIdRegReqOut);
  EXPECT_SAME(id_reg_rsp_in_o, kIdRegRspIn);
  EXPECT_SAME(id_reg_rsp_out_o, kIdRegRspOut);
  EXPECT_SAME(id_reg_req_done_o, kIdRegReqDone);
  EXPECT_SAME(id_reg_rsp_done_o, kIdRegRspDone);
  EXPECT_SAME(id_cfg_op_lsb_o, kIdCfgOpLsb);
  EXPECT_SAME(id_cfg_en_bit_o, kIdCfgEnBit);
  EXPECT_SAME(id_cfg_mask_o, kIdCfgMask);
  EXPECT_SAME(eng_turn_o, kEngTurn);
  EXPECT_SAME(eng_ctrl_req_bit_o, kEngCtrlReqBit);
  EXPECT_SAME(eng_ctrl_rsp_bit_o, kEngCtrlRspBit);
  EXPECT_SAME(eng_status_unknown_id_bit_o, kEngStatusUnknownIdBit);
  EXPECT_SAME(eng_status_op_bit_o, kEngStatusOpBit);
  EXPECT_SAME(eng_status_seq_bit_o, kEngStatusSeqBit);
  EXPECT_SAME(eng_status_idle_bit_o, kEngStatusIdleBit);
  EXPECT_SAME(eng_status_cfg_err_bit_o, kEngStatusCfgErrBit);
  EXPECT_SAME(eng_status_mask_o, kEngStatusMask);
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
