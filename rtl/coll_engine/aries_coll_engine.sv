// aries_coll_engine: the collective engine of one chiplet node (PIUMA "Switch Architecture for
// In-network Computing"; ../shared/ARCHITECTURE.md section 3). It sits beside the router:
// collective flits arriving on any port (the local endpoint is port 0) go to its queues instead of
// the router, and its results leave on the ports' outputs with priority over the router.
//
// Two classes with separate queues, virtual channels, configuration and programs:
//   request  (ReqVc): inputs and partial results; the request stage reduces, for the current
//            collective id, one flit from every input port of ID_REQ_IN (through the fixed
//            reduction tree aries_coll_tree) and sends the result to ID_REQ_OUT: a parent
//            port, the local endpoint (port 0), or EngTurn (into this engine's responses);
//   response (RspVc): the result on its way back; the response stage takes one flit from
//            ID_RSP_IN (a port or EngTurn) and copies it to every port of ID_RSP_OUT.
// Each stage follows its program: a list of collective ids (ENG_REQ_PROG / ENG_RSP_PROG),
// each step moving ID_COUNT flits of that id, the list repeated `passes` times. A flit whose id
// is not the current step's waits in its queue; the controller orders the steps of every node
// consistently so that this never blocks (see README: deadlock freedom).
//
// Issue rule (one cycle): a stage issues when every input it needs has a good head flit (the
// current id, its operation, the expected sequence number) and every output it needs has a
// credit; the credit is taken at issue, so the pipeline never stalls. The response stage has
// priority on a port both want. Results leave Levels + 1 cycles after issue; the cycle before,
// claim_o tells the node to keep the router off that output.
//
// Structure (the router's pattern): the register block aries_coll_engine_regs (configuration,
// programs, progress counters, errors), one two-process program sequencer aries_coll_seq per
// stage, and the datapath here (queues, head checks, issue, the reduction tree aries_coll_tree,
// the response delay line, the output registers).
//
// Errors: a head flit of an id not enabled, of the current id with another operation or out of
// sequence, or of a class whose program is not running is dropped (its credit returned), counted
// in ENG_DROPPED, described in ENG_ERR_INFO and flagged in ENG_STATUS; err_o is high while any
// status bit is set. Register writes are refused (cfg_err_o, ENG_STATUS.CFG_ERR, nothing
// changes) for read-only or unmapped addresses, reserved bits, values out of range, and any
// change of programs or per-id registers while a program runs.
`include "aries_assert.svh"

module aries_coll_engine #(
  /// Ports (router radix; port 0 is the local endpoint).
  parameter int unsigned NumPorts = 5,
  /// 32-bit payload lanes per flit.
  parameter int unsigned Lanes = 16,
  /// Collective ids with their own registers (<= EngMaxIds).
  parameter int unsigned NumIds = 8,
  /// Steps per program (<= EngMaxProg).
  parameter int unsigned ProgDepth = 8,
  /// Flits per input queue (per port and class); also the credits a sender starts with.
  parameter int unsigned QueueDepth = 32,
  /// Credits per output port and class (the receiver's queue depth).
  parameter int unsigned OutCredits = 32,
  /// Depth of the request-to-response turn queue (>= Levels + 2 for line rate at a root).
  parameter int unsigned TurnDepth = 8,
  /// Link VC of request flits.
  parameter int unsigned ReqVc = 4,
  /// Link VC of response flits.
  parameter int unsigned RspVc = 5,
  /// Flit width (derived; do not override).
  parameter int unsigned FlitW = aries_pkg::HdrW + Lanes * aries_pkg::LaneW
) (
  /// Clock.
  input  logic                         clk_i,
  /// Asynchronous active-low reset.
  input  logic                         rst_ni,
  /// Per port: a collective flit arrives (VC ReqVc or RspVc).
  input  logic [NumPorts-1:0]          in_valid_i,
  /// Per port: the flit, port p at [p*FlitW +: FlitW].
  input  logic [NumPorts*FlitW-1:0]    in_flit_i,
  /// Per port and class ([c*NumPorts + p], c = 0 request, 1 response): a queue slot was freed.
  output logic [2*NumPorts-1:0]        in_credit_o,
  /// Per port: the engine drives this output in the next cycle (keep the router off it).
  output logic [NumPorts-1:0]          claim_o,
  /// Per port: a flit leaves.
  output logic [NumPorts-1:0]          out_valid_o,
  /// Per port: the flit.
  output logic [NumPorts*FlitW-1:0]    out_flit_o,
  /// Per port and class: the receiver freed a slot.
  input  logic [2*NumPorts-1:0]        out_credit_i,
  /// Register request (addresses of page EngRegPage).
  input  logic                         cfg_req_i,
  /// 1: write.
  input  logic                         cfg_we_i,
  /// Word address.
  input  logic [aries_pkg::CfgAddrW-1:0] cfg_addr_i,
  /// Write data.
  input  logic [aries_pkg::CfgDataW-1:0] cfg_wdata_i,
  /// Response, one cycle after the request.
  output logic                         cfg_rsp_o,
  /// Read data.
  output logic [aries_pkg::CfgDataW-1:0] cfg_rdata_o,
  /// The request was refused.
  output logic                         cfg_err_o,
  /// Some ENG_STATUS error bit is set.
  output logic                         err_o,
  /// Nothing queued, in flight, leaving or answering: an edge without inputs changes nothing.
  output logic                         idle_o,
  /// Port 0 one cycle ahead: out_valid_o[0] and out_flit_o[0] of the next cycle (the inputs of
  /// their registers), for a node that lets its endpoint run one cycle ahead (aries_node).
  output logic                         loc_next_valid_o,
  /// out_flit_o of port 0 in the next cycle (when loc_next_valid_o).
  output logic [FlitW-1:0]             loc_next_flit_o,
  /// in_credit_o of port 0 in the next cycle ({response, request}).
  output logic [1:0]                   loc_next_credit_o
);
  localparam int unsigned P = NumPorts;
  localparam int unsigned HW = aries_pkg::HdrW;
  localparam int unsigned PW = FlitW - HW;
  localparam int unsigned NQ = 2 * P;
  localparam int unsigned IdW = (NumIds > 1) ? $clog2(NumIds) : 1;
  localparam int unsigned PortW = aries_pkg::PortIdW;
  localparam int unsigned SeqW = aries_pkg::CollSeqW;
  localparam int unsigned OpW = aries_pkg::OpW;
  localparam int unsigned VW = aries_pkg::VcIdW;
  localparam int unsigned Levels = (P > 1) ? $clog2(P) : 1;
  localparam int unsigned CntW = 16;
  localparam logic [PortW-1:0] Turn = PortW'(aries_pkg::EngTurn);

  // ---------------------------------------------------------------------------------------------
  // Register block and program sequencers
  // ---------------------------------------------------------------------------------------------
  logic [NumIds-1:0] id_en_q;
  logic [NumIds*OpW-1:0] id_op_w;
  logic [NumIds*CntW-1:0] id_count_w, id_req_done_w, id_rsp_done_w;
  logic [NumIds*P-1:0] id_req_in_w, id_rsp_out_w;
  logic [NumIds*PortW-1:0] id_req_out_w, id_rsp_in_w;
  logic [2*ProgDepth*IdW-1:0] prog_w;
  logic [15:0] len_w;
  logic [31:0] passes_w;
  logic [1:0] start, run_q, issue;
  logic [2*IdW-1:0] cur_w;
  logic drop;
  logic [3:0] drop_why;
  logic [31:0] drop_info;

  aries_coll_engine_regs #(
    .NumPorts  (NumPorts),
    .NumIds    (NumIds),
    .ProgDepth (ProgDepth),
    .QueueDepth(QueueDepth),
    .CntW      (CntW)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .cfg_req_i,
    .cfg_we_i,
    .cfg_addr_i,
    .cfg_wdata_i,
    .cfg_rsp_o,
    .cfg_rdata_o,
    .cfg_err_o,
    .err_o,
    .run_i        (run_q),
    .issue_i      (issue),
    .cur_i        (cur_w),
    .drop_i       (drop),
    .drop_why_i   (drop_why),
    .drop_info_i  (drop_info),
    .start_o      (start),
    .id_en_o      (id_en_q),
    .id_op_o      (id_op_w),
    .id_count_o   (id_count_w),
    .id_req_in_o  (id_req_in_w),
    .id_req_out_o (id_req_out_w),
    .id_rsp_in_o  (id_rsp_in_w),
    .id_rsp_out_o (id_rsp_out_w),
    .id_req_done_o(id_req_done_w),
    .id_rsp_done_o(id_rsp_done_w),
    .prog_o       (prog_w),
    .len_o        (len_w),
    .passes_o     (passes_w)
  );

  // The per-id configuration, indexed by id.
  logic [OpW-1:0] id_op_q [NumIds];
  logic [P-1:0] id_req_in_q [NumIds];
  logic [PortW-1:0] id_req_out_q [NumIds];
  logic [PortW-1:0] id_rsp_in_q [NumIds];
  logic [P-1:0] id_rsp_out_q [NumIds];
  logic [CntW-1:0] id_req_done_q [NumIds];
  logic [CntW-1:0] id_rsp_done_q [NumIds];
  for (genvar i = 0; i < NumIds; i++) begin : gen_id
    assign id_op_q[i] = id_op_w[i*OpW +: OpW];
    assign id_req_in_q[i] = id_req_in_w[i*P +: P];
    assign id_req_out_q[i] = id_req_out_w[i*PortW +: PortW];
    assign id_rsp_in_q[i] = id_rsp_in_w[i*PortW +: PortW];
    assign id_rsp_out_q[i] = id_rsp_out_w[i*P +: P];
    assign id_req_done_q[i] = id_req_done_w[i*CntW +: CntW];
    assign id_rsp_done_q[i] = id_rsp_done_w[i*CntW +: CntW];
  end

  // Program state per class: the sequencers.
  logic [IdW-1:0] cur [2];
  for (genvar c = 0; c < 2; c++) begin : gen_seq
    aries_coll_seq #(
      .NumIds   (NumIds),
      .ProgDepth(ProgDepth),
      .CntW     (CntW)
    ) u_seq (
      .clk_i,
      .rst_ni,
      .start_i (start[c]),
      .issue_i (issue[c]),
      .prog_i  (prog_w[c*ProgDepth*IdW +: ProgDepth*IdW]),
      .len_i   (len_w[c*8 +: 8]),
      .passes_i(passes_w[c*16 +: 16]),
      .count_i (id_count_w),
      .run_o   (run_q[c]),
      .cur_o   (cur[c])
    );
    assign cur_w[c*IdW +: IdW] = cur[c];
  end

  // ---------------------------------------------------------------------------------------------
  // Input queues: queue q = c*P + p
  // ---------------------------------------------------------------------------------------------
  logic [NQ-1:0] q_push, q_ready, q_valid, q_pop;
  logic [FlitW-1:0] q_head [NQ];
  logic [NumPorts-1:0] bad_vc;

  always_comb begin : p_push
    q_push = '0;
    bad_vc = '0;
    for (int unsigned p = 0; p < P; p++) begin
      if (in_valid_i[p]) begin
        if (32'(in_flit_i[p*FlitW + aries_pkg::HdrVcLsb +: VW]) == RspVc) q_push[P + p] = 1'b1;
        else if (32'(in_flit_i[p*FlitW + aries_pkg::HdrVcLsb +: VW]) == ReqVc) q_push[p] = 1'b1;
        else bad_vc[p] = 1'b1;
      end
    end
  end

  for (genvar q = 0; q < NQ; q++) begin : gen_q
    aries_fifo #(
      .Width(FlitW),
      .Depth(QueueDepth)
    ) u_q (
      .clk_i,
      .rst_ni,
      .valid_i(q_push[q]),
      .ready_o(q_ready[q]),
      .data_i (in_flit_i[(q % P)*FlitW +: FlitW]),
      .valid_o(q_valid[q]),
      .ready_i(q_pop[q]),
      .data_o (q_head[q]),
      .count_o()
    );
  end

  // Head decoding: good = the current step's id, its operation, the expected sequence number.
  logic [NQ-1:0] h_good, h_bad;
  logic [NQ*4-1:0] h_why;  // per queue: one-hot reason of a drop (status bit order)
  logic [aries_pkg::FlowIdW-1:0] h_id [NQ];
  logic [SeqW-1:0] exp_seq [2];
  always_comb begin : p_heads
    for (int unsigned c = 0; c < 2; c++) begin
      exp_seq[c] = c == 0 ? id_req_done_q[cur[c]][SeqW-1:0] : id_rsp_done_q[cur[c]][SeqW-1:0];
    end
    for (int unsigned q = 0; q < NQ; q++) begin
      h_id[q] = q_head[q][aries_pkg::HdrFlowLsb +: aries_pkg::FlowIdW];
      h_good[q] = 1'b0;
      h_why[q*4 +: 4] = '0;
      if (q_valid[q]) begin
        if ((32'(h_id[q]) >= NumIds) || !id_en_q[IdW'(h_id[q])]) begin
          h_why[q*4 + aries_pkg::EngStatusUnknownIdBit] = 1'b1;
        end else if (!run_q[q / P]) begin
          h_why[q*4 + aries_pkg::EngStatusIdleBit] = 1'b1;
        end else if (IdW'(h_id[q]) == cur[q / P]) begin
          if (q_head[q][aries_pkg::CollHdrOpLsb +: OpW] != id_op_q[cur[q / P]]) begin
            h_why[q*4 + aries_pkg::EngStatusOpBit] = 1'b1;
          end else if (q_head[q][aries_pkg::CollHdrSeqLsb +: SeqW] != exp_seq[q / P]) begin
            h_why[q*4 + aries_pkg::EngStatusSeqBit] = 1'b1;
          end else begin
            h_good[q] = 1'b1;
          end
        end
      end
      h_bad[q] = (h_why[q*4 +: 4] != '0);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Output credits (per port and class) and the turn queue's space
  // ---------------------------------------------------------------------------------------------
  logic [NQ-1:0] cr_take, cr_avail, cr_err;
  for (genvar q = 0; q < NQ; q++) begin : gen_cr
    aries_credit_cnt #(
      .MaxCredits(OutCredits)
    ) u_cr (
      .clk_i,
      .rst_ni,
      .take_i (cr_take[q]),
      .give_i (out_credit_i[q]),
      .avail_o(cr_avail[q]),
      .full_o (),
      .count_o(),
      .error_o(cr_err[q])
    );
  end

  // Turn queue: request results that become this engine's responses.
  logic turn_push, turn_pop, turn_valid, turn_ready;
  logic [FlitW-1:0] turn_head, turn_data;
  logic [$clog2(TurnDepth+1)-1:0] turn_space_q;
  aries_fifo #(
    .Width(FlitW),
    .Depth(TurnDepth)
  ) u_turn (
    .clk_i,
    .rst_ni,
    .valid_i(turn_push),
    .ready_o(turn_ready),
    .data_i (turn_data),
    .valid_o(turn_valid),
    .ready_i(turn_pop),
    .data_o (turn_head),
    .count_o()
  );
  logic turn_good;
  assign turn_good = turn_valid && run_q[1] &&
                     (IdW'(turn_head[aries_pkg::HdrFlowLsb +: aries_pkg::FlowIdW]) == cur[1]) &&
                     (turn_head[aries_pkg::CollHdrSeqLsb +: SeqW] == exp_seq[1]);

  // ---------------------------------------------------------------------------------------------
  // Issue
  // ---------------------------------------------------------------------------------------------
  logic rsp_issue, req_issue;
  logic [P-1:0] rsp_outs, req_ins;
  logic [PortW-1:0] rsp_src, req_dst;
  logic rsp_from_turn, req_to_turn;

  always_comb begin : p_issue
    // Response stage.
    rsp_src = id_rsp_in_q[cur[1]];
    rsp_outs = id_rsp_out_q[cur[1]];
    rsp_from_turn = (rsp_src == Turn);
    rsp_issue = run_q[1] && (rsp_from_turn ? turn_good : h_good[P + 32'(rsp_src)]);
    for (int unsigned p = 0; p < P; p++) begin
      if (rsp_outs[p] && !cr_avail[P + p]) rsp_issue = 1'b0;
    end
    // Request stage.
    req_ins = id_req_in_q[cur[0]];
    req_dst = id_req_out_q[cur[0]];
    req_to_turn = (req_dst == Turn);
    req_issue = run_q[0] && (req_ins != '0);
    for (int unsigned p = 0; p < P; p++) begin
      if (req_ins[p] && !h_good[p]) req_issue = 1'b0;
    end
    if (req_to_turn) begin
      if (turn_space_q == '0) req_issue = 1'b0;
    end else if (!cr_avail[32'(req_dst)] || (rsp_issue && rsp_outs[32'(req_dst)])) begin
      req_issue = 1'b0;
    end
  end

  // Credits taken at issue.
  always_comb begin : p_take
    cr_take = '0;
    if (req_issue && !req_to_turn) cr_take[32'(req_dst)] = 1'b1;
    if (rsp_issue) cr_take[2*P-1:P] = rsp_outs;
  end

  // Pops: the inputs of an issue, or one bad head (the lowest queue) dropped.
  logic [$clog2(NQ)-1:0] drop_q;
  always_comb begin : p_pop
    q_pop = '0;
    if (req_issue) q_pop[P-1:0] = req_ins;
    if (rsp_issue && !rsp_from_turn) q_pop[P + 32'(rsp_src)] = 1'b1;
    drop = 1'b0;
    drop_q = '0;
    for (int q = NQ - 1; q >= 0; q--) begin
      if (h_bad[q]) begin
        drop = 1'b1;
        drop_q = ($clog2(NQ))'(q);
      end
    end
    if (drop) q_pop[drop_q] = 1'b1;
  end
  assign turn_pop = rsp_issue && rsp_from_turn;

  // ---------------------------------------------------------------------------------------------
  // Datapath: request tree, response delay line of the same latency, output registers
  // ---------------------------------------------------------------------------------------------
  // Side word: {to_turn, dst port, id, op, seq}
  localparam int unsigned SideW = 1 + PortW + aries_pkg::FlowIdW + OpW + SeqW;
  logic [P*PW-1:0] tree_in;
  always_comb begin : p_tree_in
    for (int unsigned p = 0; p < P; p++) tree_in[p*PW +: PW] = q_head[p][FlitW-1:HW];
  end
  logic tree_v, tree_busy;
  logic [PW-1:0] tree_y;
  logic [SideW-1:0] tree_side;
  aries_coll_tree #(
    .N    (P),
    .Lanes(Lanes),
    .SideW(SideW)
  ) u_tree (
    .clk_i,
    .rst_ni,
    .issue_i    (req_issue),
    .op_i       (id_op_q[cur[0]]),
    .in_valid_i (req_ins),
    .in_data_i  (tree_in),
    .side_i     ({req_to_turn, req_dst, aries_pkg::FlowIdW'(cur[0]), id_op_q[cur[0]], exp_seq[0]}),
    .out_valid_o(tree_v),
    .out_data_o (tree_y),
    .out_side_o (tree_side),
    .busy_o     (tree_busy)
  );

  // Response delay line: Levels stages, so both stages' results reach the outputs in step.
  logic rd_v [Levels+1];
  logic [FlitW-1:0] rd_flit [Levels+1];
  logic [P-1:0] rd_outs [Levels+1];
  assign rd_v[0] = rsp_issue;
  assign rd_flit[0] = rsp_from_turn ? turn_head : q_head[P + 32'(rsp_src)];
  assign rd_outs[0] = rsp_outs;
  for (genvar l = 1; l <= Levels; l++) begin : gen_rd
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_rd_v
      if (!rst_ni) rd_v[l] <= 1'b0;
      else rd_v[l] <= rd_v[l-1];
    end
    always_ff @(posedge clk_i) begin : p_rd_d
      if (rd_v[l-1]) begin
        rd_flit[l] <= rd_flit[l-1];
        rd_outs[l] <= rd_outs[l-1];
      end
    end
  end

  // The request result as a flit.
  logic [FlitW-1:0] req_flit;
  logic req_res_turn;
  logic [PortW-1:0] req_res_dst;
  always_comb begin : p_req_flit
    {req_res_turn, req_res_dst} = tree_side[SideW-1 -: 1 + PortW];
    req_flit = '0;
    req_flit[FlitW-1:HW] = tree_y;
    req_flit[aries_pkg::HdrHeadBit] = 1'b1;
    req_flit[aries_pkg::HdrTailBit] = 1'b1;
    req_flit[aries_pkg::HdrVcLsb +: VW] = req_res_turn ? VW'(RspVc) : VW'(ReqVc);
    req_flit[aries_pkg::HdrIsFlowBit] = 1'b1;
    req_flit[aries_pkg::HdrFlowLsb +: aries_pkg::FlowIdW] = tree_side[OpW + SeqW +: aries_pkg::FlowIdW];
    req_flit[aries_pkg::CollHdrOpLsb +: OpW] = tree_side[SeqW +: OpW];
    req_flit[aries_pkg::CollHdrSeqLsb +: SeqW] = tree_side[SeqW-1:0];
  end
  assign turn_push = tree_v && req_res_turn;
  assign turn_data = req_flit;

  // Claims: results in the last pipeline stage leave next cycle.
  always_comb begin : p_claim
    claim_o = rd_v[Levels] ? rd_outs[Levels] : '0;
    if (tree_v && !req_res_turn) claim_o[32'(req_res_dst)] = 1'b1;
  end

  logic [P-1:0] out_v_q;
  logic [FlitW-1:0] out_f_q [P];
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_out_v
    if (!rst_ni) out_v_q <= '0;
    else out_v_q <= claim_o;
  end
  for (genvar p = 0; p < P; p++) begin : gen_out
    always_ff @(posedge clk_i) begin : p_out_f
      if (claim_o[p]) begin
        out_f_q[p] <= (rd_v[Levels] && rd_outs[Levels][p]) ? rd_flit[Levels] : req_flit;
      end
    end
    assign out_flit_o[p*FlitW +: FlitW] = out_f_q[p];
  end
  assign out_valid_o = out_v_q;
  assign loc_next_valid_o = claim_o[0];
  assign loc_next_flit_o = (rd_v[Levels] && rd_outs[Levels][0]) ? rd_flit[Levels] : req_flit;
  assign loc_next_credit_o = {q_pop[P], q_pop[0]};

  // Input credits (registered, like the router's).
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_in_credit
    if (!rst_ni) in_credit_o <= '0;
    else in_credit_o <= q_pop;
  end

  // Turn space: reserved at issue, freed when the response stage takes the flit.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_turn_space
    if (!rst_ni) begin
      turn_space_q <= ($clog2(TurnDepth+1))'(TurnDepth);
    end else begin
      if ((req_issue && req_to_turn) && !turn_pop) turn_space_q <= turn_space_q - 1'b1;
      else if (turn_pop && !(req_issue && req_to_turn)) turn_space_q <= turn_space_q + 1'b1;
    end
  end

  // Step bookkeeping and the drop's report for the register block.
  assign issue = {rsp_issue, req_issue};
  assign drop_why = h_why[32'(drop_q)*4 +: 4];
  assign drop_info = (32'(32'(drop_q) / P) << 24) | (32'(32'(drop_q) % P) << 16) |
                     32'(h_id[drop_q]);

  logic rd_any;
  always_comb begin : p_rd_any
    rd_any = 1'b0;
    for (int unsigned l = 0; l <= Levels; l++) rd_any = rd_any || rd_v[l];
  end
  // Idle: nothing queued, in the tree or the response delay line, leaving or answering.
  assign idle_o = (q_valid == '0) && !turn_valid && !rd_any && !tree_busy &&
                  (out_v_q == '0) && (in_credit_o == '0) && !cfg_rsp_o;

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(NumPortsLegal_A, NumPorts >= 1 && NumPorts <= 31)
  `ARIES_ASSERT_INIT(VcsDistinct_A, ReqVc != RspVc && ReqVc < aries_pkg::MaxVCs &&
                                    RspVc < aries_pkg::MaxVCs)
  `ARIES_ASSERT(NoQueueOverflow_A, (q_push & ~q_ready) == '0)
  `ARIES_ASSERT(OnlyCollectiveVcs_A, bad_vc == '0)
  `ARIES_ASSERT(NoTurnOverflow_A, turn_push |-> turn_ready)
  `ARIES_ASSERT(NoCreditError_A, cr_err == '0)
  `ARIES_ASSERT(PopOnlyValid_A, (q_pop & ~q_valid) == '0)
  // (Variable indices inside assertions trip Verilator 5.006: computed here.)
  logic clash_out;
  assign clash_out = tree_v && !req_res_turn && rd_v[Levels] && rd_outs[Levels][32'(req_res_dst)];
  `ARIES_ASSERT(OneResultPerPort_A, !clash_out)
endmodule
