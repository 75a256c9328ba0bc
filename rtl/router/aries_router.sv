// aries_router: the ARIES chiplet router (input-queued, virtual channels, credit flow control).
//
// Pipeline (zero load): a flit on in_valid_i/in_flit_i in cycle t is buffered with its route in
// t (stage 1: buffer write + route computation); in t+1 it wins VC/switch allocation and
// crosses the crossbar into the output register (stage 2); it is on out_valid_o/out_flit_o in
// cycle t+2. Router latency: 2 cycles. A circuit pass-through (PASSTHRU register) skips both
// stages: 1 cycle, no buffering.
//
// Flow control: credit-based per VC. in_credit_o[p*NumVCs+v] pulses (registered, one cycle
// after the buffer slot frees) when VC v of input p frees a slot; out_credit_i returns the
// receiver's credits. Each output VC starts with BufferDepth credits. Full throughput needs a
// credit round trip (link out + link back + 3 cycles) of at most BufferDepth cycles.
//
// Routing: table routing for flows (is_flow = 1, unicast or multicast), dimension-order routing
// for point-to-point packets (mesh, torus with dateline VCs, flattened butterfly), see
// aries_route_compute. Wormhole switching: a packet owns its output VC from head to tail.
// Arbitration: round robin per input over VCs, round robin per output over inputs.
//
// Multicast: a flit goes to every output of its set, in the same cycle where the outputs
// allow; a multi-flit multicast packet starts only with the router's multicast token, so at
// most one packet at a time holds some outputs while waiting for others (no hold-and-wait
// cycle inside the router; see README).
//
// VC allocation: by default a packet keeps its VC (DOR on the torus: its dateline class). With
// CTRL.DYN_VC a DOR head takes, at each hop, the lowest-numbered output VC of its class that is
// free and has a credit (class: every VC on mesh and flattened butterfly, the VCs with the same
// bit 0 on the torus), and its body flits follow on the same VC, as BookSim2's and Garnet's
// routers allocate VCs. Table-routed flows keep the VC their program chose.
//
// Limitations: multi-flit multicast packets at one router are serialised.
`include "aries_assert.svh"

module aries_router #(
  /// Router radix: 5 for mesh/torus/ARIES, 1 + 2(K-1) for a K x K flattened butterfly, plus
  /// LocalPorts - 1 extra local ports.
  parameter int unsigned NumPorts = 5,
  /// Local (endpoint) ports: port 0 and the last LocalPorts - 1 ports (1, 2 or 4). A packet
  /// routed by dimension order leaves at its destination by local port (input port mod
  /// LocalPorts); table routes name any of them.
  parameter int unsigned LocalPorts = 1,
  /// Virtual channels per port (<= aries_pkg::MaxVCs).
  parameter int unsigned NumVCs = 4,
  /// Flits per VC buffer (and credits per output VC).
  parameter int unsigned BufferDepth = 32,
  /// 32-bit payload lanes per flit.
  parameter int unsigned Lanes = 16,
  /// Routing-table flows (flow ids 0 .. NumFlows-1).
  parameter int unsigned NumFlows = 64,
  /// Flit width (derived; do not override).
  parameter int unsigned FlitW = aries_pkg::HdrW + aries_pkg::LaneW * Lanes
) (
  /// Clock.
  input  logic                                clk_i,
  /// Asynchronous active-low reset.
  input  logic                                rst_ni,
  /// This router's column (an input, not a parameter, so one model serves every node).
  input  logic [aries_pkg::CoordW-1:0]        node_x_i,
  /// This router's row.
  input  logic [aries_pkg::CoordW-1:0]        node_y_i,
  /// Per input port: a flit arrives.
  input  logic [NumPorts-1:0]                 in_valid_i,
  /// Per input port: the flit, port p at [p*FlitW +: FlitW].
  input  logic [NumPorts*FlitW-1:0]           in_flit_i,
  /// Per input port and VC ([p*NumVCs+v]): a credit to the upstream sender.
  output logic [NumPorts*NumVCs-1:0]          in_credit_o,
  /// Per output port: a flit leaves.
  output logic [NumPorts-1:0]                 out_valid_o,
  /// Per output port: the flit.
  output logic [NumPorts*FlitW-1:0]           out_flit_o,
  /// Per output port and VC: a credit from the downstream receiver.
  input  logic [NumPorts*NumVCs-1:0]          out_credit_i,
  /// Per output: keep allocation off it this cycle (the node's collective engine drives the
  /// output next cycle).
  input  logic [NumPorts-1:0]                 out_hold_i,
  /// Configuration request.
  input  logic                                cfg_req_i,
  /// 1: write, 0: read.
  input  logic                                cfg_we_i,
  /// Configuration word address (aries_pkg::Reg*).
  input  logic [aries_pkg::CfgAddrW-1:0]      cfg_addr_i,
  /// Configuration write data.
  input  logic [aries_pkg::CfgDataW-1:0]      cfg_wdata_i,
  /// Configuration response (the cycle after the request).
  output logic                                cfg_rsp_o,
  /// Configuration read data.
  output logic [aries_pkg::CfgDataW-1:0]      cfg_rdata_o,
  /// The configuration request was refused.
  output logic                                cfg_err_o,
  /// Sticky error summary: some STATUS bit is set (write 1 to clear).
  output logic                                err_o,
  /// Per input: nothing buffered, arriving or open (a select in front of it may change).
  output logic [NumPorts-1:0]                 in_quiet_o,
  /// Per output: no VC owned, credits home, nothing requested or passing this cycle.
  output logic [NumPorts-1:0]                 out_quiet_o,
  /// Per input: every VC buffer empty (with no flit or credit pending on the outputs, a clock
  /// edge without inputs changes no state: the package skips evaluating such a node).
  output logic [NumPorts-1:0]                 in_empty_o,
  /// Local port i (router port 0, or NumPorts - LocalPorts + i) one cycle ahead: out_valid_o,
  /// out_flit_o and in_credit_o of that port in the next cycle (the inputs of their
  /// registers), for a node that registers what its endpoint drives and so lets its endpoint
  /// run one cycle ahead (aries_node).
  output logic [LocalPorts-1:0]               loc_next_valid_o,
  /// out_flit_o of local port i in the next cycle ([i*FlitW +: FlitW], when valid).
  output logic [LocalPorts*FlitW-1:0]         loc_next_flit_o,
  /// in_credit_o of local port i in the next cycle ([i*NumVCs +: NumVCs]).
  output logic [LocalPorts*NumVCs-1:0]        loc_next_credit_o
);
  localparam int unsigned PW = aries_pkg::PortIdW;
  localparam int unsigned FW = aries_pkg::FlowIdW;
  localparam int unsigned OwnW = $clog2(NumPorts);
  /// Port 0 and the network ports; the extra local ports are NetPorts .. NumPorts-1.
  localparam int unsigned NetPorts = NumPorts - LocalPorts + 1;

  // Configuration
  logic [aries_pkg::CtrlTopoW-1:0] topo;
  logic dyn_vc;
  logic [aries_pkg::CoordW-1:0] size_x_m1, size_y_m1;
  logic [NumPorts-1:0] pt_en;
  logic [NumPorts*PW-1:0] pt_out;
  logic [NumPorts*FW-1:0] lookup_flow, miss_flow;
  logic [NumPorts*NumPorts-1:0] lookup_mask;

  // Input side
  logic [NumPorts-1:0] in_empty, in_overflow, in_miss;
  logic [NumPorts*NumPorts-1:0] req;       // [p*NumPorts+o]
  logic [NumPorts*NumPorts-1:0] gnt_by_in; // [p*NumPorts+o]
  logic [NumPorts*FlitW-1:0] sel_flit;
  logic [NumPorts*NumVCs-1:0] pop_credit;

  // Output side
  logic [NumPorts*NumPorts-1:0] gnt_by_out;  // [o*NumPorts+p]
  logic [NumPorts*OwnW-1:0] gnt_idx;
  logic [NumPorts*FlitW-1:0] xbar_flit;
  logic [NumPorts*NumVCs-1:0] out_avail, out_owned;
  logic [NumPorts*NumVCs*OwnW-1:0] out_owner;
  logic [NumPorts-1:0] out_idle, out_credit_err;

  // Multicast token: at most one multi-flit multicast packet in progress per router.
  logic [NumPorts-1:0] mc_start, mc_gate, pop_tail;
  logic [NumPorts*aries_pkg::VcIdW-1:0] sel_vc;
  logic mc_busy_q, mc_busy_d;
  logic [PW-1:0] mc_port_q, mc_port_d;
  logic [aries_pkg::VcIdW-1:0] mc_vc_q, mc_vc_d;
  logic [OwnW-1:0] mc_win_idx;
  logic mc_win_valid;

  // Pass-through, seen from the outputs
  logic [NumPorts-1:0] pt_out_en, pt_out_valid;
  logic [NumPorts*FlitW-1:0] pt_out_flit;

  // Quiescence for PASSTHRU changes (see aries_router_regs)
  logic [NumPorts-1:0] in_quiet, out_quiet, in_open;
  logic [NumPorts*NumVCs-1:0] pt_open_q, pt_open_d;  // packet open through a circuit, per VC

  aries_router_regs #(
    .NumPorts   (NumPorts),
    .LocalPorts (LocalPorts),
    .NumVCs     (NumVCs),
    .BufferDepth(BufferDepth),
    .NumFlows   (NumFlows),
    .Lanes      (Lanes)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .node_x_i,
    .node_y_i,
    .cfg_req_i,
    .cfg_we_i,
    .cfg_addr_i,
    .cfg_wdata_i,
    .cfg_rsp_o,
    .cfg_rdata_o,
    .cfg_err_o,
    .in_quiet_i   (in_quiet),
    .out_quiet_i  (out_quiet),
    .credit_err_i (out_credit_err != '0),
    .out_idle_i   (out_idle),
    .in_empty_i   (in_empty),
    .in_fire_i    (in_valid_i),
    .out_fire_i   (out_valid_o),
    .miss_i       (in_miss),
    .miss_flow_i  (miss_flow),
    .overflow_i   (in_overflow),
    .lookup_flow_i(lookup_flow),
    .lookup_mask_o(lookup_mask),
    .topo_o       (topo),
    .dyn_vc_o     (dyn_vc),
    .size_x_m1_o  (size_x_m1),
    .size_y_m1_o  (size_y_m1),
    .pt_en_o      (pt_en),
    .pt_out_o     (pt_out),
    .err_o
  );

  // The output VCs' state seen VC-major by the inputs ([w*NumPorts+o]): credits, free, and for
  // each input the VCs its packets own ([p*NumVCs*NumPorts + w*NumPorts + o]), so that an
  // input reads one slice per head instead of testing every output.
  logic [NumVCs*NumPorts-1:0] vc_avail, vc_free;
  logic [NumPorts*NumVCs*NumPorts-1:0] vc_mine;
  always_comb begin : p_vc_major
    vc_mine = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      for (int unsigned w = 0; w < NumVCs; w++) begin
        vc_avail[w*NumPorts + o] = out_avail[o*NumVCs + w];
        vc_free[w*NumPorts + o] = !out_owned[o*NumVCs + w];
        if (out_owned[o*NumVCs + w]) begin
          vc_mine[32'(out_owner[(o*NumVCs + w)*OwnW +: OwnW])*NumVCs*NumPorts + w*NumPorts + o] =
              1'b1;
        end
      end
    end
  end

  for (genvar p = 0; p < NumPorts; p++) begin : gen_in
    aries_router_input #(
      .NumPorts   (NumPorts),
      .LocalPorts (LocalPorts),
      .NumVCs     (NumVCs),
      .BufferDepth(BufferDepth),
      .FlitW      (FlitW)
    ) u_in (
      .clk_i,
      .rst_ni,
      .port_idx_i   (PW'(p)),
      .node_x_i,
      .node_y_i,
      .topo_i       (topo),
      .dyn_vc_i     (dyn_vc),
      .size_x_m1_i  (size_x_m1),
      .size_y_m1_i  (size_y_m1),
      .bypass_i     (pt_en[p]),
      .in_valid_i   (in_valid_i[p]),
      .in_flit_i    (in_flit_i[p*FlitW +: FlitW]),
      .lookup_flow_o(lookup_flow[p*FW +: FW]),
      .lookup_mask_i(lookup_mask[p*NumPorts +: NumPorts]),
      .vc_avail_i   (vc_avail),
      .vc_free_i    (vc_free),
      .vc_mine_i    (vc_mine[p*NumVCs*NumPorts +: NumVCs*NumPorts]),
      .out_blocked_i(pt_out_en | out_hold_i),
      .req_o        (req[p*NumPorts +: NumPorts]),
      .gnt_i        (gnt_by_in[p*NumPorts +: NumPorts]),
      .mc_free_i    (!mc_busy_q),
      .mc_owner_port_i(mc_port_q),
      .mc_owner_vc_i(mc_vc_q),
      .mc_start_o   (mc_start[p]),
      .mc_gate_i    (mc_gate[p]),
      .sel_vc_o     (sel_vc[p*aries_pkg::VcIdW +: aries_pkg::VcIdW]),
      .pop_tail_o   (pop_tail[p]),
      .sel_flit_o   (sel_flit[p*FlitW +: FlitW]),
      .credit_o     (pop_credit[p*NumVCs +: NumVCs]),
      .empty_o      (in_empty[p]),
      .overflow_o   (in_overflow[p]),
      .miss_o       (in_miss[p]),
      .miss_flow_o  (miss_flow[p*FW +: FW])
    );
  end

  // Token arbitration among inputs starting a multicast packet; the winner keeps the token
  // from its first grant until its tail has left for every output of its set.
  aries_rr_arb #(
    .N(NumPorts)
  ) u_mc_arb (
    .clk_i,
    .rst_ni,
    .req_i   (mc_start),
    .update_i(mc_win_valid && (gnt_by_in[32'(mc_win_idx)*NumPorts +: NumPorts] != '0)),
    .gnt_o   (mc_gate),
    .idx_o   (mc_win_idx),
    .valid_o (mc_win_valid)
  );

  always_comb begin : p_mc_token
    mc_busy_d = mc_busy_q;
    mc_port_d = mc_port_q;
    mc_vc_d = mc_vc_q;
    if (mc_busy_q) begin
      if (pop_tail[mc_port_q[OwnW-1:0]] &&
          (sel_vc[32'(mc_port_q)*aries_pkg::VcIdW +: aries_pkg::VcIdW] == mc_vc_q)) begin
        mc_busy_d = 1'b0;
      end
    end else if (mc_win_valid && (gnt_by_in[32'(mc_win_idx)*NumPorts +: NumPorts] != '0)) begin
      mc_busy_d = 1'b1;
      mc_port_d = PW'(mc_win_idx);
      mc_vc_d = sel_vc[32'(mc_win_idx)*aries_pkg::VcIdW +: aries_pkg::VcIdW];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_mc_token_q
    if (!rst_ni) begin
      mc_busy_q <= 1'b0;
      mc_port_q <= '0;
      mc_vc_q <= '0;
    end else begin
      mc_busy_q <= mc_busy_d;
      mc_port_q <= mc_port_d;
      mc_vc_q <= mc_vc_d;
    end
  end

  // Transpose requests (input-major) to outputs and grants (output-major) back to inputs.
  logic [NumPorts*NumPorts-1:0] req_by_out;
  always_comb begin : p_transpose
    for (int unsigned p = 0; p < NumPorts; p++) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        req_by_out[o*NumPorts + p] = req[p*NumPorts + o];
        gnt_by_in[p*NumPorts + o] = gnt_by_out[o*NumPorts + p];
      end
    end
  end

  aries_router_xbar #(
    .NumPorts(NumPorts),
    .FlitW   (FlitW)
  ) u_xbar (
    .in_flit_i (sel_flit),
    .gnt_idx_i (gnt_idx),
    .out_flit_o(xbar_flit)
  );

  // Pass-through sources: output o takes input p when PASSTHRU[p] = {en, o}. The loop finds
  // the source index; one wide mux per output then moves the flit.
  logic [NumPorts*OwnW-1:0] pt_src;
  always_comb begin : p_passthru
    pt_out_en = '0;
    pt_src = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      for (int unsigned o = 0; o < NumPorts; o++) begin
        if (pt_en[p] && (32'(pt_out[p*PW +: PW]) == o)) begin
          pt_out_en[o] = 1'b1;
          pt_src[o*OwnW +: OwnW] = OwnW'(p);
        end
      end
    end
  end
  for (genvar o = 0; o < NumPorts; o++) begin : gen_pt_mux
    assign pt_out_valid[o] = pt_out_en[o] && in_valid_i[pt_src[o*OwnW +: OwnW]];
    assign pt_out_flit[o*FlitW +: FlitW] = in_flit_i[32'(pt_src[o*OwnW +: OwnW])*FlitW +: FlitW];
  end

  logic [NumPorts-1:0] next_valid;
  logic [NumPorts*FlitW-1:0] next_flit;
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    aries_router_output #(
      .NumPorts   (NumPorts),
      .NumVCs     (NumVCs),
      .BufferDepth(BufferDepth),
      .FlitW      (FlitW)
    ) u_out (
      .clk_i,
      .rst_ni,
      .req_i       (req_by_out[o*NumPorts +: NumPorts]),
      .gnt_o       (gnt_by_out[o*NumPorts +: NumPorts]),
      .gnt_idx_o   (gnt_idx[o*OwnW +: OwnW]),
      .xbar_flit_i (xbar_flit[o*FlitW +: FlitW]),
      .pt_en_i     (pt_out_en[o]),
      .pt_valid_i  (pt_out_valid[o]),
      .pt_flit_i   (pt_out_flit[o*FlitW +: FlitW]),
      .out_credit_i(out_credit_i[o*NumVCs +: NumVCs]),
      .out_valid_o (out_valid_o[o]),
      .out_flit_o  (out_flit_o[o*FlitW +: FlitW]),
      .avail_o     (out_avail[o*NumVCs +: NumVCs]),
      .owned_o     (out_owned[o*NumVCs +: NumVCs]),
      .owner_o     (out_owner[o*NumVCs*OwnW +: NumVCs*OwnW]),
      .idle_o      (out_idle[o]),
      .credit_err_o(out_credit_err[o]),
      .next_valid_o(next_valid[o]),
      .next_flit_o (next_flit[o*FlitW +: FlitW])
    );
  end
  // Only the local ports' next outputs leave the router.
  assign loc_next_valid_o[0] = next_valid[0];
  assign loc_next_flit_o[0 +: FlitW] = next_flit[0 +: FlitW];
  for (genvar i = 1; i < LocalPorts; i++) begin : gen_loc_next
    assign loc_next_valid_o[i] = next_valid[NetPorts - 1 + i];
    assign loc_next_flit_o[i*FlitW +: FlitW] = next_flit[(NetPorts - 1 + i)*FlitW +: FlitW];
  end
  logic [NetPorts-1:0] unused_next_valid;
  logic [(NetPorts-1)*FlitW-1:0] unused_next_flit;
  assign unused_next_valid = next_valid[NetPorts-1:0];
  assign unused_next_flit = next_flit[NetPorts*FlitW-1:FlitW];

  // Credits upstream: buffer pops, or for a pass-through input the downstream's credits.
  logic [NumPorts*NumVCs-1:0] in_credit_d, in_credit_q;
  always_comb begin : p_credit
    in_credit_d = pop_credit;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (pt_en[p]) begin
        in_credit_d[p*NumVCs +: NumVCs] =
          out_credit_i[32'(pt_out[p*PW +: PW])*NumVCs +: NumVCs];
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_credit_q
    if (!rst_ni) in_credit_q <= '0;
    else in_credit_q <= in_credit_d;
  end
  assign in_credit_o = in_credit_q;
  assign loc_next_credit_o[0 +: NumVCs] = in_credit_d[0 +: NumVCs];
  for (genvar i = 1; i < LocalPorts; i++) begin : gen_loc_credit
    assign loc_next_credit_o[i*NumVCs +: NumVCs] = in_credit_d[(NetPorts - 1 + i)*NumVCs +: NumVCs];
  end

  // Packets open through a circuit: a head that is not a tail opens its VC, the tail closes it.
  always_comb begin : p_pt_open
    pt_open_d = pt_open_q;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (pt_en[p] && in_valid_i[p]) begin
        for (int unsigned v = 0; v < NumVCs; v++) begin
          if (32'(in_flit_i[p*FlitW + aries_pkg::HdrVcLsb +: aries_pkg::VcIdW]) == v) begin
            if (in_flit_i[p*FlitW + aries_pkg::HdrTailBit]) pt_open_d[p*NumVCs + v] = 1'b0;
            else if (in_flit_i[p*FlitW + aries_pkg::HdrHeadBit]) pt_open_d[p*NumVCs + v] = 1'b1;
          end
        end
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_pt_open_q
    if (!rst_ni) pt_open_q <= '0;
    else pt_open_q <= pt_open_d;
  end

  // An input is quiet when nothing of it is buffered, arriving, open (owning an output VC or
  // inside a circuit) or holding the multicast token; an output when it owns no VC, has all
  // credits home and nobody requests or passes through it this cycle.
  always_comb begin : p_quiet
    // An output VC owned by input p keeps p open (one pass over the output VCs).
    in_open = '0;
    for (int unsigned q = 0; q < NumPorts*NumVCs; q++) begin
      if (out_owned[q]) in_open[out_owner[q*OwnW +: OwnW]] = 1'b1;
    end
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if ((pt_open_q[p*NumVCs +: NumVCs] != '0) || (mc_busy_q && (32'(mc_port_q) == p))) begin
        in_open[p] = 1'b1;
      end
      in_quiet[p] = in_empty[p] && !in_valid_i[p] && !in_open[p];
      out_quiet[p] = out_idle[p] && (req_by_out[p*NumPorts +: NumPorts] == '0) &&
                     !pt_out_valid[p];
    end
  end
  assign in_quiet_o = in_quiet;
  assign out_quiet_o = out_quiet;
  assign in_empty_o = in_empty;

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(FlitWLegal_A, FlitW == aries_pkg::HdrW + aries_pkg::LaneW * Lanes)
  `ARIES_ASSERT_INIT(LanesLegal_A, Lanes >= 1)
  `ARIES_ASSERT_INIT(LocalPortsLegal_A,
                     (LocalPorts == 1 || LocalPorts == 2 || LocalPorts == 4) && NetPorts >= 2)
  `ARIES_ASSERT(NoCreditError_A, out_credit_err == '0)
  `ARIES_ASSERT(PassthruOutputsDistinct_A, $countones(pt_out_en) == $countones(pt_en))
endmodule
