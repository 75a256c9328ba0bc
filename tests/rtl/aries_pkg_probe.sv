// aries_pkg_probe: exposes every hand-written aries_pkg constant on an output port so that the
// C++ view (rtl/pkg/aries_pkg.h) can be compared with the package as Verilator elaborates it.
// The register map's constants are on the generated aries_regs_probe (rtl/regs/gen_regs.py).
// Test-only RTL: not in rtl/sources.f.
module aries_pkg_probe (
  output logic [31:0] lane_w_o, vc_id_w_o, flow_id_w_o, coord_w_o, port_id_w_o, max_ports_o,
  output logic [31:0] max_vcs_o, hdr_head_o, hdr_tail_o, hdr_vc_o, hdr_is_flow_o, hdr_flow_o,
  output logic [31:0] hdr_dst_x_o, hdr_dst_y_o, hdr_src_x_o, hdr_src_y_o, hdr_w_o, port_local_o,
  output logic [31:0] port_xp_o, port_xm_o, port_yp_o, port_ym_o, num_mesh_ports_o, topo_mesh_o,
  output logic [31:0] topo_torus_o, topo_fbfly_o, num_topos_o, op_add_i32_o, op_mul_i32_o, op_min_i32_o,
  output logic [31:0] op_max_i32_o, op_add_f32_o, op_mul_f32_o, op_min_f32_o, op_max_f32_o, op_and_o,
  output logic [31:0] op_or_o, op_xor_o, num_ops_o, op_w_o, coll_hdr_op_lsb_o, coll_hdr_seq_lsb_o,
  output logic [31:0] coll_seq_w_o
);
  assign coll_hdr_op_lsb_o = aries_pkg::CollHdrOpLsb;
  assign coll_hdr_seq_lsb_o = aries_pkg::CollHdrSeqLsb;
  assign coll_seq_w_o = aries_pkg::CollSeqW;
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
endmodule
