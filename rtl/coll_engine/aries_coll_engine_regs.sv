// aries_coll_engine_regs: the collective engine's register block (page EngRegPage; map:
// aries_pkg RegEng*, generated from rtl/regs/aries_regs.json). It holds the per-id
// configuration (ID_CFG operation and enable, ID_COUNT, ID_REQ_IN/OUT, ID_RSP_IN/OUT), the
// per-id progress counters (ID_REQ_DONE/ID_RSP_DONE: flits issued, cleared by an ID_CFG
// write), both programs (ENG_REQ_PROG/ENG_RSP_PROG, ENG_REQ_LEN/ENG_RSP_LEN) and the error
// registers (ENG_STATUS, ENG_ERR_INFO, ENG_DROPPED). An accepted ENG_CTRL write raises start_o
// for the sequencers (aries_coll_seq), which own the running state.
//
// Refused (cfg_err_o, ENG_STATUS.CFG_ERR, nothing changes): a read-only or unmapped address,
// reserved bits, a value out of range, a start of a program that is running, empty or names an
// id that is disabled or has no inputs (request) or outputs (response), and any change of
// programs or per-id registers while a program runs. Bus timing: aries_reg_rsp.
`include "aries_assert.svh"

module aries_coll_engine_regs #(
  /// Ports (router radix).
  parameter int unsigned NumPorts = 5,
  /// Collective ids with their own registers.
  parameter int unsigned NumIds = 8,
  /// Steps per program.
  parameter int unsigned ProgDepth = 8,
  /// Flits per input queue (read back in ENG_PARAMS).
  parameter int unsigned QueueDepth = 32,
  /// Width of ID_COUNT and the DONE counters.
  parameter int unsigned CntW = 16,
  /// Id width (derived; do not override).
  parameter int unsigned IdW = (NumIds > 1) ? $clog2(NumIds) : 1
) (
  /// Clock.
  input  logic                                  clk_i,
  /// Asynchronous active-low reset.
  input  logic                                  rst_ni,
  /// Register request (addresses of page EngRegPage).
  input  logic                                  cfg_req_i,
  /// 1: write.
  input  logic                                  cfg_we_i,
  /// Word address.
  input  logic [aries_pkg::CfgAddrW-1:0]        cfg_addr_i,
  /// Write data.
  input  logic [aries_pkg::CfgDataW-1:0]        cfg_wdata_i,
  /// Response, one cycle after the request.
  output logic                                  cfg_rsp_o,
  /// Read data.
  output logic [aries_pkg::CfgDataW-1:0]        cfg_rdata_o,
  /// The request was refused.
  output logic                                  cfg_err_o,
  /// Some ENG_STATUS error bit is set.
  output logic                                  err_o,
  /// Per class (0 request, 1 response): the program runs (from the sequencers).
  input  logic [1:0]                            run_i,
  /// Per class: one flit of the current id issued.
  input  logic [1:0]                            issue_i,
  /// Per class: the current id, class c at [c*IdW +: IdW].
  input  logic [2*IdW-1:0]                      cur_i,
  /// A head flit was dropped.
  input  logic                                  drop_i,
  /// Its reason, one-hot in ENG_STATUS bit order.
  input  logic [3:0]                            drop_why_i,
  /// Its description for ENG_ERR_INFO.
  input  logic [31:0]                           drop_info_i,
  /// Per class: start the program (an accepted ENG_CTRL write).
  output logic [1:0]                            start_o,
  /// Per id: enabled.
  output logic [NumIds-1:0]                     id_en_o,
  /// Per id: operation, id i at [i*OpW +: OpW].
  output logic [NumIds*aries_pkg::OpW-1:0]      id_op_o,
  /// Per id: flits per program step.
  output logic [NumIds*CntW-1:0]                id_count_o,
  /// Per id: request input ports.
  output logic [NumIds*NumPorts-1:0]            id_req_in_o,
  /// Per id: request output (a port or EngTurn).
  output logic [NumIds*aries_pkg::PortIdW-1:0]  id_req_out_o,
  /// Per id: response input (a port or EngTurn).
  output logic [NumIds*aries_pkg::PortIdW-1:0]  id_rsp_in_o,
  /// Per id: response output ports.
  output logic [NumIds*NumPorts-1:0]            id_rsp_out_o,
  /// Per id: request flits issued (ID_REQ_DONE).
  output logic [NumIds*CntW-1:0]                id_req_done_o,
  /// Per id: response flits issued (ID_RSP_DONE).
  output logic [NumIds*CntW-1:0]                id_rsp_done_o,
  /// Per class: the program, class c step i at [(c*ProgDepth + i)*IdW +: IdW].
  output logic [2*ProgDepth*IdW-1:0]            prog_o,
  /// Per class: steps in the program, class c at [c*8 +: 8].
  output logic [15:0]                           len_o,
  /// Per class: passes, class c at [c*16 +: 16].
  output logic [31:0]                           passes_o
);
  localparam int unsigned P = NumPorts;
  localparam int unsigned PtrW = (ProgDepth > 1) ? $clog2(ProgDepth) : 1;
  localparam int unsigned PortW = aries_pkg::PortIdW;
  localparam int unsigned OpW = aries_pkg::OpW;

  logic [OpW-1:0] id_op_q [NumIds];
  logic [NumIds-1:0] id_en_q;
  logic [CntW-1:0] id_count_q [NumIds];
  logic [P-1:0] id_req_in_q [NumIds];
  logic [PortW-1:0] id_req_out_q [NumIds];
  logic [PortW-1:0] id_rsp_in_q [NumIds];
  logic [P-1:0] id_rsp_out_q [NumIds];
  logic [CntW-1:0] id_req_done_q [NumIds];
  logic [CntW-1:0] id_rsp_done_q [NumIds];
  logic [IdW-1:0] prog_q [2*ProgDepth];  // class c step i at c*ProgDepth + i
  logic [7:0] len_q [2];
  logic [15:0] passes_q [2];
  logic [31:0] status_q, status_d, dropped_q, err_info_q;

  for (genvar i = 0; i < NumIds; i++) begin : gen_id_out
    assign id_op_o[i*OpW +: OpW] = id_op_q[i];
    assign id_count_o[i*CntW +: CntW] = id_count_q[i];
    assign id_req_in_o[i*P +: P] = id_req_in_q[i];
    assign id_req_out_o[i*PortW +: PortW] = id_req_out_q[i];
    assign id_rsp_in_o[i*PortW +: PortW] = id_rsp_in_q[i];
    assign id_rsp_out_o[i*P +: P] = id_rsp_out_q[i];
    assign id_req_done_o[i*CntW +: CntW] = id_req_done_q[i];
    assign id_rsp_done_o[i*CntW +: CntW] = id_rsp_done_q[i];
  end
  for (genvar s = 0; s < 2 * ProgDepth; s++) begin : gen_prog_out
    assign prog_o[s*IdW +: IdW] = prog_q[s];
  end
  assign id_en_o = id_en_q;
  assign len_o = {len_q[1], len_q[0]};
  assign passes_o = {passes_q[1], passes_q[0]};

  // ---------------------------------------------------------------------------------------------
  // Decode
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned AW = aries_pkg::CfgAddrW;
  logic [AW-1:0] a;
  logic [31:0] wd;
  assign a = cfg_addr_i;
  assign wd = cfg_wdata_i;
  logic running;
  assign running = (run_i != '0);

  logic is_id;
  logic [IdW-1:0] a_id;
  logic [2:0] a_r;
  logic is_prog;
  logic a_cls;
  logic [PtrW-1:0] a_step;

  always_comb begin : p_decode
    is_id = (32'(a) >= aries_pkg::RegEngIdBase) &&
            (32'(a) < aries_pkg::RegEngIdBase + aries_pkg::EngIdStride * NumIds);
    a_id = IdW'((32'(a) - aries_pkg::RegEngIdBase) / aries_pkg::EngIdStride);
    a_r = 3'((32'(a) - aries_pkg::RegEngIdBase) % aries_pkg::EngIdStride);
    is_prog = ((32'(a) >= aries_pkg::RegEngReqProgBase) &&
               (32'(a) < aries_pkg::RegEngReqProgBase + ProgDepth)) ||
              ((32'(a) >= aries_pkg::RegEngRspProgBase) &&
               (32'(a) < aries_pkg::RegEngRspProgBase + ProgDepth));
    a_cls = (32'(a) >= aries_pkg::RegEngRspProgBase);
    a_step = PtrW'(32'(a) - (a_cls ? aries_pkg::RegEngRspProgBase : aries_pkg::RegEngReqProgBase));
  end

  // A program may start when it is not running, has steps and passes, and names enabled ids.
  logic [1:0] can_start;
  always_comb begin : p_can_start
    for (int unsigned c = 0; c < 2; c++) begin
      can_start[c] = !run_i[c] && (len_q[c] != '0) && (passes_q[c] != '0);
      for (int unsigned i = 0; i < ProgDepth; i++) begin
        if (32'(i) < 32'(len_q[c])) begin
          // Every step's id is enabled and has inputs (request) or outputs (response).
          if (!id_en_q[prog_q[c*ProgDepth + i]]) can_start[c] = 1'b0;
          if ((c == 0) && (id_req_in_q[prog_q[c*ProgDepth + i]] == '0)) can_start[c] = 1'b0;
          if ((c == 1) && (id_rsp_out_q[prog_q[c*ProgDepth + i]] == '0)) can_start[c] = 1'b0;
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Access
  // ---------------------------------------------------------------------------------------------
  logic acc_ok, refused;
  logic [31:0] rdata;
  logic [1:0] start;

  always_comb begin : p_access
    acc_ok = 1'b0;
    rdata = '0;
    start = '0;
    if (!cfg_we_i) begin
      acc_ok = 1'b1;
      unique case (32'(a))
        aries_pkg::RegEngId: rdata = aries_pkg::EngIdValue;
        aries_pkg::RegEngParams: rdata = {3'd0, 5'(P), 8'(QueueDepth), 8'(ProgDepth), 8'(NumIds)};
        aries_pkg::RegEngCtrl: rdata = 32'(run_i);
        aries_pkg::RegEngStatus: rdata = status_q;
        aries_pkg::RegEngErrInfo: rdata = err_info_q;
        aries_pkg::RegEngReqLen: rdata = {passes_q[0], 8'd0, len_q[0]};
        aries_pkg::RegEngRspLen: rdata = {passes_q[1], 8'd0, len_q[1]};
        aries_pkg::RegEngDropped: rdata = dropped_q;
        default: begin
          if (is_prog) begin
            rdata = 32'(prog_q[32'(a_cls)*ProgDepth + 32'(a_step)]);
          end else if (is_id) begin
            unique case (32'(a_r))
              aries_pkg::IdRegCfg: rdata = (32'(id_en_q[a_id]) << aries_pkg::IdCfgEnBit) |
                                           32'(id_op_q[a_id]);
              aries_pkg::IdRegCount: rdata = 32'(id_count_q[a_id]);
              aries_pkg::IdRegReqIn: rdata = 32'(id_req_in_q[a_id]);
              aries_pkg::IdRegReqOut: rdata = 32'(id_req_out_q[a_id]);
              aries_pkg::IdRegRspIn: rdata = 32'(id_rsp_in_q[a_id]);
              aries_pkg::IdRegRspOut: rdata = 32'(id_rsp_out_q[a_id]);
              aries_pkg::IdRegReqDone: rdata = 32'(id_req_done_q[a_id]);
              default: rdata = 32'(id_rsp_done_q[a_id]);
            endcase
          end else begin
            acc_ok = 1'b0;
          end
        end
      endcase
    end else begin
      unique case (32'(a))
        aries_pkg::RegEngCtrl: begin
          acc_ok = ((wd & ~32'h3) == '0) && (wd != '0) &&
                   (!wd[aries_pkg::EngCtrlReqBit] || can_start[0]) &&
                   (!wd[aries_pkg::EngCtrlRspBit] || can_start[1]);
          start = wd[1:0];
        end
        aries_pkg::RegEngStatus: acc_ok = ((wd & ~aries_pkg::EngStatusMask) == '0);
        aries_pkg::RegEngReqLen, aries_pkg::RegEngRspLen: begin
          acc_ok = !running && (wd[15:8] == '0) && (32'(wd[7:0]) <= ProgDepth) &&
                   ((wd[7:0] == '0) || (wd[31:16] != '0));
        end
        default: begin
          if (is_prog) begin
            acc_ok = !running && (wd < NumIds);
          end else if (is_id) begin
            unique case (32'(a_r))
              aries_pkg::IdRegCfg: acc_ok = ((wd & ~aries_pkg::IdCfgMask) == '0) &&
                                            (32'(wd[3:0]) < aries_pkg::NumOps);
              aries_pkg::IdRegCount: acc_ok = (wd >= 32'd1) && (wd <= 32'hFFFF);
              aries_pkg::IdRegReqIn, aries_pkg::IdRegRspOut: acc_ok = (wd >> P) == '0;
              aries_pkg::IdRegReqOut, aries_pkg::IdRegRspIn:
                acc_ok = (wd < P) || (wd == aries_pkg::EngTurn);
              default: acc_ok = 1'b0;  // DONE counters are read-only
            endcase
            if (running) acc_ok = 1'b0;
          end
        end
      endcase
    end
    if (!acc_ok) start = '0;
  end

  aries_reg_rsp u_rsp (
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

  logic wr;
  assign wr = cfg_req_i && cfg_we_i && acc_ok;
  assign start_o = wr && (32'(a) == aries_pkg::RegEngCtrl) ? start : 2'b00;

  // ---------------------------------------------------------------------------------------------
  // Status: drops set their reason, a write clears the bits written (a drop in the same cycle
  // stays flagged), a refusal sets CFG_ERR
  // ---------------------------------------------------------------------------------------------
  always_comb begin : p_status
    status_d = status_q;
    if (drop_i) status_d = status_q | 32'(drop_why_i);
    if (wr && (32'(a) == aries_pkg::RegEngStatus)) begin
      status_d = (status_q & ~wd) | (drop_i ? 32'(drop_why_i) : '0);
    end
    if (refused) status_d[aries_pkg::EngStatusCfgErrBit] = 1'b1;
  end

  logic [IdW-1:0] cur [2];
  assign cur[0] = cur_i[IdW-1:0];
  assign cur[1] = cur_i[2*IdW-1:IdW];

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      status_q <= '0;
      dropped_q <= '0;
      err_info_q <= '0;
      id_en_q <= '0;
      for (int unsigned c = 0; c < 2; c++) begin
        len_q[c] <= '0;
        passes_q[c] <= '0;
        for (int unsigned i = 0; i < ProgDepth; i++) prog_q[c*ProgDepth + i] <= '0;
      end
      for (int unsigned i = 0; i < NumIds; i++) begin
        id_op_q[i] <= '0;
        id_count_q[i] <= CntW'(1);
        id_req_in_q[i] <= '0;
        id_req_out_q[i] <= '0;
        id_rsp_in_q[i] <= '0;
        id_rsp_out_q[i] <= '0;
        id_req_done_q[i] <= '0;
        id_rsp_done_q[i] <= '0;
      end
    end else begin
      status_q <= status_d;
      if (drop_i) begin
        dropped_q <= dropped_q + 1'b1;
        err_info_q <= drop_info_i;
      end
      // Progress of the running programs.
      if (issue_i[0]) id_req_done_q[cur[0]] <= id_req_done_q[cur[0]] + 1'b1;
      if (issue_i[1]) id_rsp_done_q[cur[1]] <= id_rsp_done_q[cur[1]] + 1'b1;
      // Register writes.
      if (wr) begin
        unique case (32'(a))
          aries_pkg::RegEngReqLen: begin
            len_q[0] <= wd[7:0];
            passes_q[0] <= wd[31:16];
          end
          aries_pkg::RegEngRspLen: begin
            len_q[1] <= wd[7:0];
            passes_q[1] <= wd[31:16];
          end
          default: begin
            if (is_prog) begin
              prog_q[32'(a_cls)*ProgDepth + 32'(a_step)] <= IdW'(wd);
            end else if (is_id) begin
              unique case (32'(a_r))
                aries_pkg::IdRegCfg: begin
                  id_op_q[a_id] <= wd[OpW-1:0];
                  id_en_q[a_id] <= wd[aries_pkg::IdCfgEnBit];
                  id_req_done_q[a_id] <= '0;
                  id_rsp_done_q[a_id] <= '0;
                end
                aries_pkg::IdRegCount: id_count_q[a_id] <= wd[CntW-1:0];
                aries_pkg::IdRegReqIn: id_req_in_q[a_id] <= wd[P-1:0];
                aries_pkg::IdRegReqOut: id_req_out_q[a_id] <= wd[PortW-1:0];
                aries_pkg::IdRegRspIn: id_rsp_in_q[a_id] <= wd[PortW-1:0];
                aries_pkg::IdRegRspOut: id_rsp_out_q[a_id] <= wd[P-1:0];
                default: ;
              endcase
            end
          end
        endcase
      end
    end
  end

  assign err_o = ((status_q & aries_pkg::EngStatusMask) != '0);

  `ARIES_ASSERT_INIT(NumIdsLegal_A, NumIds >= 1 && NumIds <= aries_pkg::EngMaxIds)
  `ARIES_ASSERT_INIT(ProgDepthLegal_A, ProgDepth >= 1 && ProgDepth <= aries_pkg::EngMaxProg)
  `ARIES_ASSERT(NoWriteWhileRunning_A, (wr && running) |-> (32'(a) == aries_pkg::RegEngCtrl ||
                                                            32'(a) == aries_pkg::RegEngStatus))
endmodule
