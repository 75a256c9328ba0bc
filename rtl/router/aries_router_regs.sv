// aries_router_regs: configuration and status registers and the routing table of the router.
//
// Bus: one request per cycle (cfg_req_i, cfg_we_i, cfg_addr_i, cfg_wdata_i); the response
// (cfg_rsp_o with cfg_rdata_o, cfg_err_o) comes the next cycle. A read of an unmapped address,
// a write to an unmapped or read-only register, a write of a value with reserved bits set or
// out of range, and a pass-through change while the ports it touches carry traffic all return
// cfg_err_o = 1 and change nothing except STATUS.CFG_ERR. Register map: aries_pkg (Reg*).
// err_o is high while any STATUS bit is set (write 1 to clear).
//
// The routing table has NumFlows x NumPorts entries of NumPorts bits, reset to empty, and one
// combinational read port per input port for route computation.
`include "aries_assert.svh"

module aries_router_regs #(
  /// Router radix (the local ports included).
  parameter int unsigned NumPorts = 5,
  /// Local ports (port 0 and the last LocalPorts - 1).
  parameter int unsigned LocalPorts = 1,
  /// Virtual channels per port.
  parameter int unsigned NumVCs = 4,
  /// Flits per VC buffer.
  parameter int unsigned BufferDepth = 32,
  /// Routing-table flows.
  parameter int unsigned NumFlows = 64,
  /// 32-bit payload lanes per flit.
  parameter int unsigned Lanes = 16
) (
  /// Clock.
  input  logic                                    clk_i,
  /// Asynchronous active-low reset.
  input  logic                                    rst_ni,
  /// This router's column (checked against CTRL).
  input  logic [aries_pkg::CoordW-1:0]            node_x_i,
  /// This router's row (checked against CTRL).
  input  logic [aries_pkg::CoordW-1:0]            node_y_i,
  /// Register request.
  input  logic                                    cfg_req_i,
  /// 1: write, 0: read.
  input  logic                                    cfg_we_i,
  /// Word address.
  input  logic [aries_pkg::CfgAddrW-1:0]          cfg_addr_i,
  /// Write data.
  input  logic [aries_pkg::CfgDataW-1:0]          cfg_wdata_i,
  /// Response (one cycle after the request).
  output logic                                    cfg_rsp_o,
  /// Read data (zero for writes and errors).
  output logic [aries_pkg::CfgDataW-1:0]          cfg_rdata_o,
  /// The request was refused.
  output logic                                    cfg_err_o,
  /// Per input: nothing buffered, arriving, in a packet or holding the multicast token.
  input  logic [NumPorts-1:0]                     in_quiet_i,
  /// Per output: no VC owned, every credit home, nothing requesting or passing this cycle.
  input  logic [NumPorts-1:0]                     out_quiet_i,
  /// A credit counter over- or underflowed this cycle.
  input  logic                                    credit_err_i,
  /// Per output: no VC owned and every credit home (OUT_IDLE).
  input  logic [NumPorts-1:0]                     out_idle_i,
  /// Per input: all VC buffers empty (IN_EMPTY).
  input  logic [NumPorts-1:0]                     in_empty_i,
  /// Per input: a flit arrived.
  input  logic [NumPorts-1:0]                     in_fire_i,
  /// Per output: a flit left.
  input  logic [NumPorts-1:0]                     out_fire_i,
  /// Per input: routing miss this cycle.
  input  logic [NumPorts-1:0]                     miss_i,
  /// Per input: flow id of the miss.
  input  logic [NumPorts*aries_pkg::FlowIdW-1:0]  miss_flow_i,
  /// Per input: a flit was lost to a full or illegal VC.
  input  logic [NumPorts-1:0]                     overflow_i,
  /// Per input: flow id to look up.
  input  logic [NumPorts*aries_pkg::FlowIdW-1:0]  lookup_flow_i,
  /// Per input: routing-table entry of (flow, input) while in_fire_i of that input (else 0).
  output logic [NumPorts*NumPorts-1:0]            lookup_mask_o,
  /// Configured topology.
  output logic [aries_pkg::CtrlTopoW-1:0]         topo_o,
  /// CTRL.DYN_VC: DOR packets take any free output VC of their class at each hop.
  output logic                                    dyn_vc_o,
  /// Configured columns - 1.
  output logic [aries_pkg::CoordW-1:0]            size_x_m1_o,
  /// Configured rows - 1.
  output logic [aries_pkg::CoordW-1:0]            size_y_m1_o,
  /// Per input: circuit pass-through enabled.
  output logic [NumPorts-1:0]                     pt_en_o,
  /// Per input: pass-through output port.
  output logic [NumPorts*aries_pkg::PortIdW-1:0]  pt_out_o,
  /// Sticky error summary: STATUS != 0.
  output logic                                    err_o
);
  localparam int unsigned AW = aries_pkg::CfgAddrW;
  localparam int unsigned DW = aries_pkg::CfgDataW;
  localparam int unsigned FW = aries_pkg::FlowIdW;
  localparam int unsigned PW = aries_pkg::PortIdW;
  localparam int unsigned CW = aries_pkg::CoordW;
  localparam int unsigned NumEntries = NumFlows * NumPorts;
  /// Port 0 and the network ports (what CTRL's topology may use).
  localparam int unsigned NetPorts = NumPorts - LocalPorts + 1;
  localparam int unsigned EntryIdxW = $clog2(NumEntries);
  localparam int unsigned PortSelW = $clog2(NumPorts);
  localparam logic [DW-1:0] PortMask = DW'((64'(1) << NumPorts) - 1);

  // ---------------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------------
  logic [NumEntries*NumPorts-1:0] table_q;  // entry e at [e*NumPorts +: NumPorts]
  logic [aries_pkg::CtrlTopoW-1:0] topo_q;
  logic dyn_vc_q;
  logic [CW-1:0] size_x_m1_q, size_y_m1_q;
  logic [DW-1:0] status_q, status_d, err_info_q, err_info_d, miss_cnt_q, miss_cnt_d;
  logic [NumPorts-1:0] pt_en_q;
  logic [PW-1:0] pt_out_q [NumPorts];
  logic [DW-1:0] in_cnt_q [NumPorts];
  logic [DW-1:0] out_cnt_q [NumPorts];

  // ---------------------------------------------------------------------------------------------
  // Address decode
  // ---------------------------------------------------------------------------------------------
  logic is_route;
  logic [aries_pkg::RouteFlowW-1:0] rt_flow;  // the address's field: wider than a flow id
  logic [PW-1:0] rt_port;
  logic [EntryIdxW-1:0] rt_idx;
  logic [PW-1:0] reg_port;    // port index of the per-port register windows
  logic [PortSelW-1:0] rp;    // the same, as an index into per-port arrays (valid if in range)
  logic is_pt, is_in_cnt, is_out_cnt;

  assign is_route = cfg_addr_i[AW-1];
  assign rt_flow = cfg_addr_i[aries_pkg::RouteFlowLsb +: aries_pkg::RouteFlowW];
  assign rt_port = cfg_addr_i[aries_pkg::RouteInportLsb +: PW];
  assign rt_idx = EntryIdxW'(32'(rt_flow) * NumPorts + 32'(rt_port));
  assign reg_port = cfg_addr_i[PW-1:0];
  assign rp = reg_port[PortSelW-1:0];
  assign is_pt = !is_route && (cfg_addr_i[AW-2:PW] == (AW-1-PW)'(aries_pkg::RegPassthruBase >> PW))
                 && (32'(reg_port) < NumPorts);
  assign is_in_cnt = !is_route &&
                     (cfg_addr_i[AW-2:PW] == (AW-1-PW)'(aries_pkg::RegInFlitsBase >> PW)) &&
                     (32'(reg_port) < NumPorts);
  assign is_out_cnt = !is_route &&
                      (cfg_addr_i[AW-2:PW] == (AW-1-PW)'(aries_pkg::RegOutFlitsBase >> PW)) &&
                      (32'(reg_port) < NumPorts);

  logic route_ok;
  assign route_ok = is_route && (32'(rt_flow) < NumFlows) && (32'(rt_port) < NumPorts);

  // ---------------------------------------------------------------------------------------------
  // Write legality
  // ---------------------------------------------------------------------------------------------
  logic [aries_pkg::CtrlTopoW-1:0] w_topo;
  logic [CW-1:0] w_sx, w_sy;
  logic ctrl_ok;
  assign w_topo = cfg_wdata_i[aries_pkg::CtrlTopoLsb +: aries_pkg::CtrlTopoW];
  assign w_sx = cfg_wdata_i[aries_pkg::CtrlSizeXLsb +: CW];
  assign w_sy = cfg_wdata_i[aries_pkg::CtrlSizeYLsb +: CW];

  // The legality checks are evaluated for a write only (a simulator skips them otherwise).
  always_comb begin : p_ctrl_ok
    ctrl_ok = 1'b0;
    if (cfg_req_i && cfg_we_i) begin
      ctrl_ok = ((cfg_wdata_i & ~DW'(aries_pkg::CtrlMask)) == '0) &&
                (32'(w_topo) < aries_pkg::NumTopos) && (node_x_i <= w_sx) && (node_y_i <= w_sy);
      unique case (32'(w_topo))
        aries_pkg::TopoMesh: ctrl_ok = ctrl_ok && (NetPorts >= aries_pkg::NumMeshPorts);
        aries_pkg::TopoTorus:
          ctrl_ok = ctrl_ok && (NetPorts >= aries_pkg::NumMeshPorts) && (NumVCs >= 2) &&
                    (NumVCs % 2 == 0);
        aries_pkg::TopoFbfly: ctrl_ok = ctrl_ok && (1 + 32'(w_sx) + 32'(w_sy) <= NetPorts);
        default: ctrl_ok = 1'b0;
      endcase
    end
  end

  logic pt_w_en;
  logic [PW-1:0] pt_w_out;
  logic pt_ok;
  assign pt_w_en = cfg_wdata_i[aries_pkg::PassEnBit];
  assign pt_w_out = cfg_wdata_i[aries_pkg::PassOutLsb +: PW];

  always_comb begin : p_pt_ok
    pt_ok = 1'b0;
    if (cfg_req_i && cfg_we_i) begin
      // The output field must name a port; enabling also needs another port than our own.
      pt_ok = ((cfg_wdata_i & ~DW'(aries_pkg::PassMask)) == '0) && (32'(pt_w_out) < NumPorts) &&
              (!pt_w_en || (pt_w_out != reg_port));
      // No other input may hold the same output.
      for (int unsigned q = 0; q < NumPorts; q++) begin
        if (pt_w_en && pt_en_q[q] && (PW'(q) != reg_port) && (pt_out_q[q] == pt_w_out)) begin
          pt_ok = 1'b0;
        end
      end
      // A change needs the input and the outputs it leaves or takes quiet (no packet open,
      // nothing buffered, in flight or moving this cycle), so no flit or credit is lost.
      if (pt_ok && ((pt_w_en != pt_en_q[rp]) || (pt_w_en && pt_w_out != pt_out_q[rp]))) begin
        if (!in_quiet_i[rp]) pt_ok = 1'b0;
        if (pt_en_q[rp] && !out_quiet_i[pt_out_q[rp][PortSelW-1:0]]) pt_ok = 1'b0;
        if (pt_w_en && !out_quiet_i[pt_w_out[PortSelW-1:0]]) pt_ok = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Access
  // ---------------------------------------------------------------------------------------------
  logic acc_ok, refused;
  logic [DW-1:0] rdata;
  logic wr_ctrl, wr_status, wr_pt, wr_route;

  always_comb begin : p_access
    acc_ok = 1'b0;
    rdata = '0;
    wr_ctrl = 1'b0;
    wr_status = 1'b0;
    wr_pt = 1'b0;
    wr_route = 1'b0;
    if (cfg_req_i) begin
      if (is_route) begin
        if (route_ok) begin
          if (cfg_we_i) begin
            acc_ok = (cfg_wdata_i & ~PortMask) == '0;
            wr_route = acc_ok;
          end else begin
            acc_ok = 1'b1;
            rdata = DW'(table_q[32'(rt_idx)*NumPorts +: NumPorts]);
          end
        end
      end else if (is_pt) begin
        if (cfg_we_i) begin
          acc_ok = pt_ok;
          wr_pt = pt_ok;
        end else begin
          acc_ok = 1'b1;
          rdata = DW'({pt_out_q[rp], 7'b0,
                       pt_en_q[rp]});
        end
      end else if (is_in_cnt || is_out_cnt) begin
        acc_ok = !cfg_we_i;
        rdata = is_in_cnt ? in_cnt_q[rp]
                          : out_cnt_q[rp];
      end else begin
        unique case (32'(cfg_addr_i))
          aries_pkg::RegId: begin acc_ok = !cfg_we_i; rdata = DW'(aries_pkg::RouterIdValue); end
          aries_pkg::RegNumPorts: begin acc_ok = !cfg_we_i; rdata = DW'(NumPorts); end
          aries_pkg::RegNumVcs: begin acc_ok = !cfg_we_i; rdata = DW'(NumVCs); end
          aries_pkg::RegBufferDepth: begin acc_ok = !cfg_we_i; rdata = DW'(BufferDepth); end
          aries_pkg::RegNumFlows: begin acc_ok = !cfg_we_i; rdata = DW'(NumFlows); end
          aries_pkg::RegLanes: begin acc_ok = !cfg_we_i; rdata = DW'(Lanes); end
          aries_pkg::RegLocalPorts: begin acc_ok = !cfg_we_i; rdata = DW'(LocalPorts); end
          aries_pkg::RegCtrl: begin
            if (cfg_we_i) begin
              acc_ok = ctrl_ok;
              wr_ctrl = ctrl_ok;
            end else begin
              acc_ok = 1'b1;
              rdata = (DW'(topo_q) << aries_pkg::CtrlTopoLsb) |
                      (DW'(dyn_vc_q) << aries_pkg::CtrlDynVcBit) |
                      (DW'(size_x_m1_q) << aries_pkg::CtrlSizeXLsb) |
                      (DW'(size_y_m1_q) << aries_pkg::CtrlSizeYLsb);
            end
          end
          aries_pkg::RegStatus: begin
            acc_ok = !cfg_we_i || ((cfg_wdata_i & ~DW'(aries_pkg::StatusMask)) == '0);
            wr_status = cfg_we_i && acc_ok;
            rdata = cfg_we_i ? '0 : status_q;
          end
          aries_pkg::RegErrInfo: begin acc_ok = !cfg_we_i; rdata = err_info_q; end
          aries_pkg::RegMissCount: begin acc_ok = !cfg_we_i; rdata = miss_cnt_q; end
          aries_pkg::RegOutIdle: begin acc_ok = !cfg_we_i; rdata = DW'(out_idle_i); end
          aries_pkg::RegInEmpty: begin acc_ok = !cfg_we_i; rdata = DW'(in_empty_i); end
          default: acc_ok = 1'b0;
        endcase
      end
      if (!acc_ok || cfg_we_i) rdata = '0;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Status and event counters
  // ---------------------------------------------------------------------------------------------
  always_comb begin : p_status
    status_d = status_q;
    err_info_d = err_info_q;
    miss_cnt_d = miss_cnt_q;
    if (wr_status) status_d = status_q & ~cfg_wdata_i;
    if (refused) status_d[aries_pkg::StatusCfgErrBit] = 1'b1;
    if (overflow_i != '0) status_d[aries_pkg::StatusOverflowBit] = 1'b1;
    if (credit_err_i) status_d[aries_pkg::StatusCreditErrBit] = 1'b1;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (miss_i[p]) begin
        status_d[aries_pkg::StatusMissBit] = 1'b1;
        err_info_d = (DW'(miss_flow_i[p*FW +: FW]) << aries_pkg::ErrInfoFlowLsb) |
                     (DW'(p) << aries_pkg::ErrInfoPortLsb);
        miss_cnt_d = miss_cnt_d + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      topo_q <= aries_pkg::CtrlTopoW'(aries_pkg::TopoMesh);
      dyn_vc_q <= 1'b0;
      size_x_m1_q <= '1;
      size_y_m1_q <= '1;
      status_q <= '0;
      err_info_q <= '0;
      miss_cnt_q <= '0;
      pt_en_q <= '0;
    end else begin
      if (wr_ctrl) begin
        topo_q <= w_topo;
        dyn_vc_q <= cfg_wdata_i[aries_pkg::CtrlDynVcBit];
        size_x_m1_q <= w_sx;
        size_y_m1_q <= w_sy;
      end
      status_q <= status_d;
      err_info_q <= err_info_d;
      miss_cnt_q <= miss_cnt_d;
      if (wr_pt) pt_en_q[rp] <= pt_w_en;
    end
  end

  // The bus response (the register blocks' one shape).
  aries_reg_rsp #(
    .DataW(DW)
  ) u_rsp (
    .clk_i,
    .rst_ni,
    .req_i    (cfg_req_i),
    .we_i     (cfg_we_i),
    .ok_i     (acc_ok),
    .rdata_i  (rdata),
    .refused_o(refused),
    .rsp_o    (cfg_rsp_o),
    .rdata_o  (cfg_rdata_o),
    .err_o    (cfg_err_o)
  );

  // Per-port pass-through targets and flit counters.
  for (genvar p = 0; p < NumPorts; p++) begin : gen_port_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_port
      if (!rst_ni) begin
        pt_out_q[p] <= '0;
        in_cnt_q[p] <= '0;
        out_cnt_q[p] <= '0;
      end else begin
        if (wr_pt && (32'(rp) == p)) pt_out_q[p] <= pt_w_out;
        if (in_fire_i[p]) in_cnt_q[p] <= in_cnt_q[p] + 1'b1;
        if (out_fire_i[p]) out_cnt_q[p] <= out_cnt_q[p] + 1'b1;
      end
    end
  end

  // The routing table: reset to empty (every flow misses until programmed).
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_table
    if (!rst_ni) table_q <= '0;
    else if (wr_route) table_q[32'(rt_idx)*NumPorts +: NumPorts] <= cfg_wdata_i[NumPorts-1:0];
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------------
  // Only for inputs with an arriving flit (in_fire_i): the entry is read in the cycle the flit is
  // written, and a simulator skips the lookup of idle inputs.
  always_comb begin : p_lookup
    lookup_mask_o = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (in_fire_i[p] && (32'(lookup_flow_i[p*FW +: FW]) < NumFlows)) begin
        lookup_mask_o[p*NumPorts +: NumPorts] =
          table_q[(32'(lookup_flow_i[p*FW +: FW]) * NumPorts + p)*NumPorts +: NumPorts];
      end
    end
  end

  assign err_o = (status_q != '0);
  assign topo_o = topo_q;
  assign dyn_vc_o = dyn_vc_q;
  assign size_x_m1_o = size_x_m1_q;
  assign size_y_m1_o = size_y_m1_q;
  assign pt_en_o = pt_en_q;
  always_comb begin : p_pt_out
    for (int unsigned p = 0; p < NumPorts; p++) pt_out_o[p*PW +: PW] = pt_out_q[p];
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(NumFlowsLegal_A, NumFlows >= 1 && NumFlows <= (1 << aries_pkg::FlowIdW))
  `ARIES_ASSERT_INIT(NumPortsLegal_A, NumPorts >= 2 && NumPorts <= aries_pkg::MaxPorts)
  `ARIES_ASSERT(TopoLegal_A, 32'(topo_q) < aries_pkg::NumTopos)
  `ARIES_ASSERT(RspFollowsReq_A, cfg_req_i |=> cfg_rsp_o)
  `ARIES_ASSERT(ErrOnlyWithRsp_A, cfg_err_o |-> cfg_rsp_o)
endmodule
