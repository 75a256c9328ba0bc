// aries_pkg_probe: exposes every aries_pkg constant on an output port so that the C++ view
// (rtl/pkg/aries_pkg.h) can be compared with the package as Verilator elaborates it.
// Test-only RTL: not in rtl/sources.f.
module aries_pkg_probe (
  output logic [31:0] lane_w_o, vc_id_w_o, flow_id_w_o, coord_w_o, port_id_w_o, max_ports_o,
  output logic [31:0] max_vcs_o,
  output logic [31:0] hdr_head_o, hdr_tail_o, hdr_vc_o, hdr_is_flow_o, hdr_flow_o, hdr_dst_x_o,
  output logic [31:0] hdr_dst_y_o, hdr_src_x_o, hdr_src_y_o, hdr_w_o,
  output logic [31:0] port_local_o, port_xp_o, port_xm_o, port_yp_o, port_ym_o, num_mesh_ports_o,
  output logic [31:0] topo_mesh_o, topo_torus_o, topo_fbfly_o, num_topos_o,
  output logic [31:0] op_add_i32_o, op_mul_i32_o, op_min_i32_o, op_max_i32_o, op_add_f32_o,
  output logic [31:0] op_mul_f32_o, op_min_f32_o, op_max_f32_o, op_and_o, op_or_o, op_xor_o,
  output logic [31:0] num_ops_o, op_w_o,
  output logic [31:0] cfg_addr_w_o, cfg_data_w_o,
  output logic [31:0] reg_id_o, reg_num_ports_o, reg_num_vcs_o, reg_buffer_depth_o,
  output logic [31:0] reg_num_flows_o, reg_lanes_o, reg_ctrl_o, reg_status_o, reg_err_info_o,
  output logic [31:0] reg_miss_count_o, reg_out_idle_o, reg_in_empty_o, reg_passthru_base_o, reg_in_flits_base_o,
  output logic [31:0] reg_out_flits_base_o, reg_route_base_o, router_id_value_o,
  output logic [31:0] ctrl_topo_lsb_o, ctrl_topo_w_o, ctrl_size_x_lsb_o, ctrl_size_y_lsb_o,
  output logic [31:0] ctrl_dyn_vc_bit_o,
  output logic [31:0] ctrl_mask_o, status_miss_o, status_overflow_o, status_cfg_err_o,
  output logic [31:0] status_credit_err_o,
  output logic [31:0] status_mask_o, err_info_flow_lsb_o, err_info_port_lsb_o, pass_en_o,
  output logic [31:0] pass_out_lsb_o, pass_mask_o, route_inport_lsb_o, route_flow_lsb_o, route_flow_w_o,
  output logic [31:0] node_reg_page_o, reg_node_id_o, reg_node_tracks_o, reg_node_links_o,
  output logic [31:0] reg_port_sel_base_o, reg_bypass_o, reg_node_status_o, node_id_value_o,
  output logic [31:0] max_tracks_o, port_sel_in_lsb_o, port_sel_out_lsb_o, port_sel_choice_w_o,
  output logic [31:0] port_sel_mask_o, bypass_x_lsb_o, bypass_y_lsb_o, node_status_stray_flit_o,
  output logic [31:0] node_status_stray_credit_o, node_status_cfg_err_o, node_status_mask_o,
  output logic [31:0] coll_hdr_op_lsb_o, coll_hdr_seq_lsb_o, coll_seq_w_o, eng_reg_page_o, reg_eng_id_o,
  output logic [31:0] reg_eng_params_o, reg_eng_ctrl_o, reg_eng_status_o, reg_eng_err_info_o, reg_eng_req_len_o,
  output logic [31:0] reg_eng_rsp_len_o, reg_eng_dropped_o, reg_eng_req_prog_base_o, reg_eng_rsp_prog_base_o, reg_eng_id_base_o,
  output logic [31:0] eng_id_stride_o, eng_id_value_o, eng_max_ids_o, eng_max_prog_o, id_reg_cfg_o,
  output logic [31:0] id_reg_count_o, id_reg_req_in_o, id_reg_req_out_o, id_reg_rsp_in_o, id_reg_rsp_out_o,
  output logic [31:0] id_reg_req_done_o, id_reg_rsp_done_o, id_cfg_op_lsb_o, id_cfg_en_bit_o, id_cfg_mask_o,
  output logic [31:0] eng_turn_o, eng_ctrl_req_bit_o, eng_ctrl_rsp_bit_o, eng_status_unknown_id_bit_o, eng_status_op_bit_o,
  output logic [31:0] eng_status_seq_bit_o, eng_status_idle_bit_o, eng_status_cfg_err_bit_o, eng_status_mask_o
);
  assign node_reg_page_o = aries_pkg::NodeRegPage;
  assign reg_node_id_o = aries_pkg::RegNodeId;
  assign reg_node_tracks_o = aries_pkg::RegNodeTracks;
  assign reg_node_links_o = aries_pkg::RegNodeLinks;
  assign reg_port_sel_base_o = aries_pkg::RegPortSelBase;
  assign reg_bypass_o = aries_pkg::RegBypass;
  assign reg_node_status_o = aries_pkg::RegNodeStatus;
  assign node_id_value_o = aries_pkg::NodeIdValue;
  assign max_tracks_o = aries_pkg::MaxTracks;
  assign port_sel_in_lsb_o = aries_pkg::PortSelInLsb;
  assign port_sel_out_lsb_o = aries_pkg::PortSelOutLsb;
  assign port_sel_choice_w_o = aries_pkg::PortSelChoiceW;
  assign port_sel_mask_o = aries_pkg::PortSelMask;
  assign bypass_x_lsb_o = aries_pkg::BypassXLsb;
  assign bypass_y_lsb_o = aries_pkg::BypassYLsb;
  assign node_status_stray_flit_o = aries_pkg::NodeStatusStrayFlitBit;
  assign node_status_stray_credit_o = aries_pkg::NodeStatusStrayCreditBit;
  assign node_status_cfg_err_o = aries_pkg::NodeStatusCfgErrBit;
  assign node_status_mask_o = aries_pkg::NodeStatusMask;
  assign coll_hdr_op_lsb_o = aries_pkg::CollHdrOpLsb;
  assign coll_hdr_seq_lsb_o = aries_pkg::CollHdrSeqLsb;
  assign coll_seq_w_o = aries_pkg::CollSeqW;
  assign eng_reg_page_o = aries_pkg::EngRegPage;
  assign reg_eng_id_o = aries_pkg::RegEngId;
  assign reg_eng_params_o = aries_pkg::RegEngParams;
  assign reg_eng_ctrl_o = aries_pkg::RegEngCtrl;
  assign reg_eng_status_o = aries_pkg::RegEngStatus;
  assign reg_eng_err_info_o = aries_pkg::RegEngErrInfo;
  assign reg_eng_req_len_o = aries_pkg::RegEngReqLen;
  assign reg_eng_rsp_len_o = aries_pkg::RegEngRspLen;
  assign reg_eng_dropped_o = aries_pkg::RegEngDropped;
  assign reg_eng_req_prog_base_o = aries_pkg::RegEngReqProgBase;
  assign reg_eng_rsp_prog_base_o = aries_pkg::RegEngRspProgBase;
  assign reg_eng_id_base_o = aries_pkg::RegEngIdBase;
  assign eng_id_stride_o = aries_pkg::EngIdStride;
  assign eng_id_value_o = aries_pkg::EngIdValue;
  assign eng_max_ids_o = aries_pkg::EngMaxIds;
  assign eng_max_prog_o = aries_pkg::EngMaxProg;
  assign id_reg_cfg_o = aries_pkg::IdRegCfg;
  assign id_reg_count_o = aries_pkg::IdRegCount;
  assign id_reg_req_in_o = aries_pkg::IdRegReqIn;
  assign id_reg_req_out_o = aries_pkg::IdRegReqOut;
  assign id_reg_rsp_in_o = aries_pkg::IdRegRspIn;
  assign id_reg_rsp_out_o = aries_pkg::IdRegRspOut;
  assign id_reg_req_done_o = aries_pkg::IdRegReqDone;
  assign id_reg_rsp_done_o = aries_pkg::IdRegRspDone;
  assign id_cfg_op_lsb_o = aries_pkg::IdCfgOpLsb;
  assign id_cfg_en_bit_o = aries_pkg::IdCfgEnBit;
  assign id_cfg_mask_o = aries_pkg::IdCfgMask;
  assign eng_turn_o = aries_pkg::EngTurn;
  assign eng_ctrl_req_bit_o = aries_pkg::EngCtrlReqBit;
  assign eng_ctrl_rsp_bit_o = aries_pkg::EngCtrlRspBit;
  assign eng_status_unknown_id_bit_o = aries_pkg::EngStatusUnknownIdBit;
  assign eng_status_op_bit_o = aries_pkg::EngStatusOpBit;
  assign eng_status_seq_bit_o = aries_pkg::EngStatusSeqBit;
  assign eng_status_idle_bit_o = aries_pkg::EngStatusIdleBit;
  assign eng_status_cfg_err_bit_o = aries_pkg::EngStatusCfgErrBit;
  assign eng_status_mask_o = aries_pkg::EngStatusMask;
  assign lane_w_o = aries_pkg::LaneW;
  assign vc_id_w_o = aries_pkg::VcIdW;
  assign flow_id_w_o = aries_pkg::FlowIdW;
  assign coord_w_o = aries_pkg::CoordW;
  assign port_id_w_o = aries_pkg::PortIdW;
  assign max_ports_o = aries_pkg::MaxPorts;
  assign max_vcs_o = aries_pkg::MaxVCs;
  assign hdr_head_o = aries_pkg::HdrHeadBit;
  assign hdr_tail_o = aries_pkg::HdrTailBit;
  assign hdr_vc_o = aries_pkg::HdrVcLsb;
  assign hdr_is_flow_o = aries_pkg::HdrIsFlowBit;
  assign hdr_flow_o = aries_pkg::HdrFlowLsb;
  assign hdr_dst_x_o = aries_pkg::HdrDstXLsb;
  assign hdr_dst_y_o = aries_pkg::HdrDstYLsb;
  assign hdr_src_x_o = aries_pkg::HdrSrcXLsb;
  assign hdr_src_y_o = aries_pkg::HdrSrcYLsb;
  assign hdr_w_o = aries_pkg::HdrW;
  assign port_local_o = aries_pkg::PortLocal;
  assign port_xp_o = aries_pkg::PortXP;
  assign port_xm_o = aries_pkg::PortXM;
  assign port_yp_o = aries_pkg::PortYP;
  assign port_ym_o = aries_pkg::PortYM;
  assign num_mesh_ports_o = aries_pkg::NumMeshPorts;
  assign topo_mesh_o = aries_pkg::TopoMesh;
  assign topo_torus_o = aries_pkg::TopoTorus;
  assign topo_fbfly_o = aries_pkg::TopoFbfly;
  assign num_topos_o = aries_pkg::NumTopos;
  assign op_add_i32_o = aries_pkg::OpAddI32;
  assign op_mul_i32_o = aries_pkg::OpMulI32;
  assign op_min_i32_o = aries_pkg::OpMinI32;
  assign op_max_i32_o = aries_pkg::OpMaxI32;
  assign op_add_f32_o = aries_pkg::OpAddF32;
  assign op_mul_f32_o = aries_pkg::OpMulF32;
  assign op_min_f32_o = aries_pkg::OpMinF32;
  assign op_max_f32_o = aries_pkg::OpMaxF32;
  assign op_and_o = aries_pkg::OpAnd;
  assign op_or_o = aries_pkg::OpOr;
  assign op_xor_o = aries_pkg::OpXor;
  assign num_ops_o = aries_pkg::NumOps;
  assign op_w_o = aries_pkg::OpW;
  assign cfg_addr_w_o = aries_pkg::CfgAddrW;
  assign cfg_data_w_o = aries_pkg::CfgDataW;
  assign reg_id_o = aries_pkg::RegId;
  assign reg_num_ports_o = aries_pkg::RegNumPorts;
  assign reg_num_vcs_o = aries_pkg::RegNumVcs;
  assign reg_buffer_depth_o = aries_pkg::RegBufferDepth;
  assign reg_num_flows_o = aries_pkg::RegNumFlows;
  assign reg_lanes_o = aries_pkg::RegLanes;
  assign reg_ctrl_o = aries_pkg::RegCtrl;
  assign reg_status_o = aries_pkg::RegStatus;
  assign reg_err_info_o = aries_pkg::RegErrInfo;
  assign reg_miss_count_o = aries_pkg::RegMissCount;
  assign reg_out_idle_o = aries_pkg::RegOutIdle;
  assign reg_in_empty_o = aries_pkg::RegInEmpty;
  assign reg_passthru_base_o = aries_pkg::RegPassthruBase;
  assign reg_in_flits_base_o = aries_pkg::RegInFlitsBase;
  assign reg_out_flits_base_o = aries_pkg::RegOutFlitsBase;
  assign reg_route_base_o = aries_pkg::RegRouteBase;
  assign router_id_value_o = aries_pkg::RouterIdValue;
  assign ctrl_topo_lsb_o = aries_pkg::CtrlTopoLsb;
  assign ctrl_topo_w_o = aries_pkg::CtrlTopoW;
  assign ctrl_size_x_lsb_o = aries_pkg::CtrlSizeXLsb;
  assign ctrl_size_y_lsb_o = aries_pkg::CtrlSizeYLsb;
  assign ctrl_dyn_vc_bit_o = aries_pkg::CtrlDynVcBit;
  assign ctrl_mask_o = aries_pkg::CtrlMask;
  assign status_miss_o = aries_pkg::StatusMissBit;
  assign status_overflow_o = aries_pkg::StatusOverflowBit;
  assign status_cfg_err_o = aries_pkg::StatusCfgErrBit;
  assign status_credit_err_o = aries_pkg::StatusCreditErrBit;
  assign status_mask_o = aries_pkg::StatusMask;
  assign err_info_flow_lsb_o = aries_pkg::ErrInfoFlowLsb;
  assign err_info_port_lsb_o = aries_pkg::ErrInfoPortLsb;
  assign pass_en_o = aries_pkg::PassEnBit;
  assign pass_out_lsb_o = aries_pkg::PassOutLsb;
  assign pass_mask_o = aries_pkg::PassMask;
  assign route_inport_lsb_o = aries_pkg::RouteInportLsb;
  assign route_flow_lsb_o = aries_pkg::RouteFlowLsb;
  assign route_flow_w_o = aries_pkg::RouteFlowW;
endmodule
