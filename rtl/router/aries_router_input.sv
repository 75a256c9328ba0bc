// aries_router_input: one input port of the ARIES router: VC buffers, route computation and the
// input stage of the separable switch allocator.
//
// Stage 1 (cycle t): the arriving flit is written into the buffer of its VC together with its
// output-port set and output VC (aries_route_compute). Stage 2 (t+1 at the earliest): among the
// VCs whose head flit can move (an output it still needs has a credit for its output VC, and
// the output VC is free for a head or owned by this port for a body flit), a round-robin
// arbiter picks one; it requests every such output. Each output that grants takes the flit
// (multicast replicates in the crossbar); the flit leaves the buffer when every output of its
// set has taken it, and a credit goes back upstream for its VC. A flit with an empty set
// (routing miss) is dropped at the head of its VC and its credit returned.
//
// Output VC: a head flit uses the one route computation gave (the packet's VC, or its torus
// dateline class), or with dyn_vc_i (CTRL.DYN_VC), for a DOR packet, the lowest-numbered VC of
// its class that is free and has a credit on its output, chosen when it leaves; the VC a head
// leaves on is kept per input VC and its body flits follow on it.
//
// While bypass_i is set (circuit pass-through of this port) nothing is written here.
`include "aries_assert.svh"

module aries_router_input #(
  /// Router radix (the local ports included).
  parameter int unsigned NumPorts = 5,
  /// Local ports (aries_route_compute).
  parameter int unsigned LocalPorts = 1,
  /// Virtual channels per port.
  parameter int unsigned NumVCs = 4,
  /// Flits per VC buffer.
  parameter int unsigned BufferDepth = 32,
  /// Flit width (aries_pkg::HdrW + 32 * Lanes).
  parameter int unsigned FlitW = 64
) (
  /// Clock.
  input  logic                            clk_i,
  /// Asynchronous active-low reset.
  input  logic                            rst_ni,
  /// Index of this input port.
  input  logic [aries_pkg::PortIdW-1:0]   port_idx_i,
  /// This router's column.
  input  logic [aries_pkg::CoordW-1:0]    node_x_i,
  /// This router's row.
  input  logic [aries_pkg::CoordW-1:0]    node_y_i,
  /// Configured topology.
  input  logic [aries_pkg::CtrlTopoW-1:0] topo_i,
  /// CTRL.DYN_VC: DOR heads choose their output VC when they leave.
  input  logic                            dyn_vc_i,
  /// Configured columns - 1.
  input  logic [aries_pkg::CoordW-1:0]    size_x_m1_i,
  /// Configured rows - 1.
  input  logic [aries_pkg::CoordW-1:0]    size_y_m1_i,
  /// The port is a circuit pass-through: do not buffer.
  input  logic                            bypass_i,
  /// A flit arrives.
  input  logic                            in_valid_i,
  /// Arriving flit.
  input  logic [FlitW-1:0]                in_flit_i,
  /// Flow id to look up in the routing table.
  output logic [aries_pkg::FlowIdW-1:0]   lookup_flow_o,
  /// Routing-table entry of (lookup_flow_o, this port).
  input  logic [NumPorts-1:0]             lookup_mask_i,
  /// Per output VC w, per output o ([w*NumPorts+o], VC-major so that one VC's outputs are one
  /// slice): at least one credit.
  input  logic [NumVCs*NumPorts-1:0]      vc_avail_i,
  /// Per output VC, per output: free (not owned by a packet in flight).
  input  logic [NumVCs*NumPorts-1:0]      vc_free_i,
  /// Per output VC, per output: owned by a packet of this input port.
  input  logic [NumVCs*NumPorts-1:0]      vc_mine_i,
  /// Per output: reserved by a circuit pass-through.
  input  logic [NumPorts-1:0]             out_blocked_i,
  /// Switch requests of the selected VC, one bit per output.
  output logic [NumPorts-1:0]             req_o,
  /// Outputs that granted this port this cycle.
  input  logic [NumPorts-1:0]             gnt_i,
  /// The router's multicast token is free.
  input  logic                            mc_free_i,
  /// The token holder (valid when !mc_free_i): input port and VC.
  input  logic [aries_pkg::PortIdW-1:0]   mc_owner_port_i,
  /// The token holder's VC.
  input  logic [aries_pkg::VcIdW-1:0]     mc_owner_vc_i,
  /// The selected VC starts a multi-flit multicast packet and needs the free token.
  output logic                            mc_start_o,
  /// This port won the token arbitration (only meaningful with mc_start_o).
  input  logic                            mc_gate_i,
  /// The selected VC (the one req_o and sel_flit_o belong to).
  output logic [aries_pkg::VcIdW-1:0]     sel_vc_o,
  /// The selected flit left its buffer this cycle and was a tail.
  output logic                            pop_tail_o,
  /// Selected flit, its VC field rewritten to the output VC.
  output logic [FlitW-1:0]                sel_flit_o,
  /// A flit left a VC buffer this cycle (one bit per VC): send a credit upstream.
  output logic [NumVCs-1:0]               credit_o,
  /// All VC buffers are empty.
  output logic                            empty_o,
  /// An arriving flit could not be stored (VC full or VC index >= NumVCs): it is lost.
  output logic                            overflow_o,
  /// An arriving flit has no route (it will be dropped).
  output logic                            miss_o,
  /// Flow id of the missing flit.
  output logic [aries_pkg::FlowIdW-1:0]   miss_flow_o
);
  localparam int unsigned VW = aries_pkg::VcIdW;
  localparam int unsigned HW = aries_pkg::HdrW;
  // A buffered flit is split in two: its metadata {route, ovc, header} in a small FIFO per VC
  // (read every cycle by the allocator), and its payload in one memory per port, read only for
  // the VC the arbiter selects. Same behaviour as one wide FIFO per VC; a simulator evaluates
  // one wide read per port instead of one per VC.
  localparam int unsigned MetaW = NumPorts + VW + HW;
  localparam int unsigned PayW = FlitW - HW;
  localparam int unsigned VcSelW = (NumVCs > 1) ? $clog2(NumVCs) : 1;
  localparam int unsigned PtrW = (BufferDepth > 1) ? $clog2(BufferDepth) : 1;
  localparam int unsigned SlotW = (NumVCs * BufferDepth > 1) ? $clog2(NumVCs * BufferDepth) : 1;

  // ---------------------------------------------------------------------------------------------
  // Stage 1: route computation and buffer write
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts-1:0] in_route;
  logic [VW-1:0] in_ovc, in_vc;
  logic in_miss;

  assign lookup_flow_o = in_flit_i[aries_pkg::HdrFlowLsb +: aries_pkg::FlowIdW];
  assign in_vc = in_flit_i[aries_pkg::HdrVcLsb +: VW];

  aries_route_compute #(
    .NumPorts  (NumPorts),
    .LocalPorts(LocalPorts)
  ) u_route (
    .valid_i     (in_valid_i),
    .hdr_i       (in_flit_i[HW-1:0]),
    .inport_i    (port_idx_i),
    .node_x_i,
    .node_y_i,
    .topo_i,
    .size_x_m1_i,
    .size_y_m1_i,
    .table_mask_i(lookup_mask_i),
    .route_o     (in_route),
    .ovc_o       (in_ovc),
    .miss_o      (in_miss)
  );

  logic store;
  assign store = in_valid_i && !bypass_i;
  assign miss_o = store && in_miss;
  assign miss_flow_o = lookup_flow_o;

  logic [NumVCs-1:0] fifo_push, fifo_ready, fifo_valid, fifo_pop;
  logic [MetaW-1:0] fifo_head [NumVCs];
  logic [$clog2(BufferDepth+1)-1:0] fifo_count [NumVCs];

  always_comb begin : p_push
    fifo_push = '0;
    if (store && (32'(in_vc) < NumVCs)) fifo_push[in_vc[VcSelW-1:0]] = 1'b1;
  end
  assign overflow_o = store && ((32'(in_vc) >= NumVCs) || ((fifo_push & ~fifo_ready) != '0));

  for (genvar v = 0; v < NumVCs; v++) begin : gen_vc
    aries_fifo #(
      .Width(MetaW),
      .Depth(BufferDepth)
    ) u_buf (
      .clk_i,
      .rst_ni,
      .valid_i(fifo_push[v]),
      .ready_o(fifo_ready[v]),
      .data_i ({in_route, in_ovc, in_flit_i[HW-1:0]}),
      .valid_o(fifo_valid[v]),
      .ready_i(fifo_pop[v]),
      .data_o (fifo_head[v]),
      .count_o(fifo_count[v])
    );
  end

  // Payload memory: VC v's slot i at v*BufferDepth + i. Its pointers move with the VC's metadata
  // FIFO (same push, same pop), so slot and metadata always belong to the same flit.
  logic [PayW-1:0] pay_q [NumVCs*BufferDepth];
  logic [PtrW-1:0] pay_wr_q [NumVCs];
  logic [PtrW-1:0] pay_rd_q [NumVCs];

  for (genvar v = 0; v < NumVCs; v++) begin : gen_pay_ptr
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_pay_ptr
      if (!rst_ni) begin
        pay_wr_q[v] <= '0;
        pay_rd_q[v] <= '0;
      end else begin
        if (fifo_push[v] && fifo_ready[v]) begin
          pay_wr_q[v] <= (32'(pay_wr_q[v]) == BufferDepth - 1) ? '0 : pay_wr_q[v] + 1'b1;
        end
        if (fifo_pop[v] && fifo_valid[v]) begin
          pay_rd_q[v] <= (32'(pay_rd_q[v]) == BufferDepth - 1) ? '0 : pay_rd_q[v] + 1'b1;
        end
      end
    end
  end

  // Per VC: the payload pointers are as far apart as the metadata FIFO holds flits (checked by
  // PayloadTracksMeta_A; a full FIFO has the pointers equal, like an empty one).
  logic [NumVCs-1:0] pay_in_step;
  always_comb begin : p_pay_step
    for (int unsigned v = 0; v < NumVCs; v++) begin
      pay_in_step[v] = ((32'(pay_wr_q[v]) + BufferDepth - 32'(pay_rd_q[v])) % BufferDepth) ==
                       (32'(fifo_count[v]) % BufferDepth);
    end
  end

  logic pay_we;
  logic [SlotW-1:0] pay_wslot;
  assign pay_we = (fifo_push & fifo_ready) != '0;
  assign pay_wslot = SlotW'(32'(in_vc[VcSelW-1:0]) * BufferDepth + 32'(pay_wr_q[in_vc[VcSelW-1:0]]));

  // No reset: a memory.
  always_ff @(posedge clk_i) begin : p_pay_mem
    if (pay_we) pay_q[pay_wslot] <= in_flit_i[FlitW-1:HW];
  end

  // ---------------------------------------------------------------------------------------------
  // Stage 2: which VC heads can move, VC selection, requests
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts-1:0] served_q [NumVCs];
  logic [NumPorts-1:0] served_d [NumVCs];
  logic [NumPorts-1:0] head_route [NumVCs];
  logic [NumPorts-1:0] head_rem [NumVCs];
  logic [NumPorts-1:0] head_ok [NumVCs];
  logic [VW-1:0] head_ovc [NumVCs];
  logic [VW-1:0] eff_ovc [NumVCs];
  logic [NumVCs-1:0] head_is_head, head_is_tail, head_dyn, mc_head, mc_mine, vc_req;
  // Per input VC: the output VC its packet's head left on (body flits follow it), and whether
  // the head chose it dynamically.
  logic [VW-1:0] pkt_ovc_q [NumVCs];
  logic [NumVCs-1:0] pkt_dyn_q;
  // Class of each output VC for a dynamic head: on the torus, the VCs whose bit 0 is the
  // head's dateline class; otherwise every VC.
  logic torus;
  assign torus = (topo_i == aries_pkg::CtrlTopoW'(aries_pkg::TopoTorus));

  always_comb begin : p_heads
    for (int unsigned v = 0; v < NumVCs; v++) begin
      // Only VCs holding a flit are decoded (an idle VC costs a simulator nothing more); the
      // outputs of an empty VC are zero and unused (sel is a VC with a request).
      head_route[v] = '0;
      head_ovc[v] = '0;
      head_is_head[v] = 1'b0;
      head_is_tail[v] = 1'b0;
      head_dyn[v] = 1'b0;
      mc_head[v] = 1'b0;
      mc_mine[v] = 1'b0;
      head_rem[v] = '0;
      eff_ovc[v] = '0;
      head_ok[v] = '0;
      vc_req[v] = 1'b0;
      if (fifo_valid[v]) begin
        head_route[v] = fifo_head[v][HW + VW +: NumPorts];
        head_ovc[v] = fifo_head[v][HW +: VW];
        head_is_head[v] = fifo_head[v][aries_pkg::HdrHeadBit];
        head_is_tail[v] = fifo_head[v][aries_pkg::HdrTailBit];
        // Under CTRL.DYN_VC a DOR head picks its output VC as it leaves (a CTRL write applies to
        // the heads that leave after it; body flits follow their head either way).
        head_dyn[v] = dyn_vc_i && head_is_head[v] && !fifo_head[v][aries_pkg::HdrIsFlowBit];
        // A multi-flit multicast head holds outputs while it waits for others: it may only
        // start with the router's multicast token (see README, deadlock freedom).
        mc_head[v] = head_is_head[v] && !head_is_tail[v] &&
                     ((head_route[v] & (head_route[v] - 1'b1)) != '0);
        mc_mine[v] = !mc_free_i && (mc_owner_port_i == port_idx_i) &&
                     (32'(mc_owner_vc_i) == v);
        head_rem[v] = head_route[v] & ~served_q[v];
        // The output VC: a head's computed one, or for a dynamic head (unicast: DOR) the lowest
        // VC of its class that is free with a credit on its one output; a body flit follows its
        // head's VC.
        eff_ovc[v] = head_is_head[v] ? head_ovc[v] : pkt_ovc_q[v];
        if (head_dyn[v]) begin
          for (int w = NumVCs - 1; w >= 0; w--) begin
            if ((!torus || (w[0] == head_ovc[v][0])) &&
                ((head_route[v] & vc_avail_i[w*NumPorts +: NumPorts] &
                  vc_free_i[w*NumPorts +: NumPorts]) != '0)) begin
              eff_ovc[v] = VW'(w);
            end
          end
        end
        // Outputs whose VC can take this flit: a credit, not blocked, and free for a head or
        // owned by this port for a body flit. The output VC is < NumVCs by construction (route
        // compute keeps the VC or sets bit 0, and CTRL allows the torus only with an even VC
        // count); HeadOvcInRange_A checks it.
        head_ok[v] = vc_avail_i[32'(eff_ovc[v])*NumPorts +: NumPorts] & ~out_blocked_i &
                     (head_is_head[v] ? vc_free_i[32'(eff_ovc[v])*NumPorts +: NumPorts]
                                      : vc_mine_i[32'(eff_ovc[v])*NumPorts +: NumPorts]);
        vc_req[v] = ((head_rem[v] == '0) || ((head_rem[v] & head_ok[v]) != '0)) &&
                    (!mc_head[v] || mc_free_i || mc_mine[v]);
      end
    end
  end

  logic [NumVCs-1:0] vc_gnt;
  logic [VcSelW-1:0] sel;
  logic sel_valid, sel_drop, sel_done;

  aries_rr_arb #(
    .N(NumVCs)
  ) u_vc_arb (
    .clk_i,
    .rst_ni,
    .req_i   (vc_req),
    .update_i((gnt_i != '0) || sel_drop),
    .gnt_o   (vc_gnt),
    .idx_o   (sel),
    .valid_o (sel_valid)
  );

  assign sel_drop = sel_valid && (head_rem[sel] == '0);
  assign mc_start_o = sel_valid && mc_head[sel] && mc_free_i;
  assign req_o = (sel_valid && (!mc_start_o || mc_gate_i)) ? (head_rem[sel] & head_ok[sel]) : '0;
  assign sel_vc_o = VW'(sel);
  assign pop_tail_o = sel_done && head_is_tail[sel];
  assign sel_done = sel_drop || (sel_valid && ((head_rem[sel] & ~gnt_i) == '0));

  // The selected VC's head, route, progress and output VC.
  logic [NumPorts-1:0] sel_route, sel_served;
  logic [VW-1:0] sel_ovc;
  assign sel_route = head_route[sel];
  assign sel_served = served_q[sel];
  assign sel_ovc = eff_ovc[sel];

  always_comb begin : p_sel_flit
    sel_flit_o = {pay_q[SlotW'(32'(sel) * BufferDepth + 32'(pay_rd_q[sel]))],
                  fifo_head[sel][HW-1:0]};
    sel_flit_o[aries_pkg::HdrVcLsb +: VW] = sel_ovc;
  end

  always_comb begin : p_served
    fifo_pop = '0;
    for (int unsigned v = 0; v < NumVCs; v++) served_d[v] = served_q[v];
    if (sel_done) begin
      fifo_pop = vc_gnt;
      served_d[sel] = '0;
    end else if (sel_valid) begin
      served_d[sel] = served_q[sel] | gnt_i;
    end
  end

  for (genvar v = 0; v < NumVCs; v++) begin : gen_served
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_served_q
      if (!rst_ni) served_q[v] <= '0;
      else served_q[v] <= served_d[v];
    end
    // The head of the packet on this VC leaves: its output VC is the packet's.
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_pkt_ovc_q
      if (!rst_ni) begin
        pkt_ovc_q[v] <= '0;
        pkt_dyn_q[v] <= 1'b0;
      end else if (sel_done && (32'(sel) == v) && head_is_head[v]) begin
        pkt_ovc_q[v] <= eff_ovc[v];
        pkt_dyn_q[v] <= head_dyn[v];
      end
    end
  end

  assign credit_o = fifo_pop;
  assign empty_o = (fifo_valid == '0);

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(NumVCsLegal_A, NumVCs >= 1 && NumVCs <= aries_pkg::MaxVCs)
  `ARIES_ASSERT_INIT(NumPortsLegal_A, NumPorts >= 2 && NumPorts <= aries_pkg::MaxPorts)
  `ARIES_ASSERT_INIT(FlitWLegal_A, FlitW > aries_pkg::HdrW)
  `ARIES_ASSERT(NoOverflow_A, !overflow_o)
  `ARIES_ASSERT(NoBufferUseWhileBypassed_A, bypass_i |-> (fifo_push == '0 && credit_o == '0))
  `ARIES_ASSERT(GntSubsetOfReq_A, (gnt_i & ~req_o) == '0)
  `ARIES_ASSERT(OnePopPerCycle_A, $onehot0(fifo_pop))
  `ARIES_ASSERT(ServedSubsetOfRoute_A, (sel_served & ~sel_route) == '0)
  `ARIES_ASSERT(McHeadNeedsToken_A,
                (sel_valid && mc_head[sel] && (gnt_i != '0)) |-> (mc_start_o || mc_mine[sel]))
  `ARIES_ASSERT(HeadOvcInRange_A, sel_valid |-> (32'(sel_ovc) < NumVCs))
  `ARIES_ASSERT(PayloadTracksMeta_A, pay_in_step == '1)
  // A body flit of a packet whose head kept its computed VC computes the same VC itself, and
  // a dynamic head keeps its dateline class on the torus (Verilator 5.006 needs the selected
  // VC's fields as plain signals inside an assertion).
  logic [VW-1:0] sel_pkt_ovc, sel_head_ovc;
  logic sel_is_head, sel_dyn, sel_pkt_dyn;
  assign sel_pkt_ovc = pkt_ovc_q[sel];
  assign sel_head_ovc = head_ovc[sel];
  assign sel_is_head = head_is_head[sel];
  assign sel_dyn = head_dyn[sel];
  assign sel_pkt_dyn = pkt_dyn_q[sel];
  `ARIES_ASSERT(BodyFollowsHeadVc_A, (sel_valid && !sel_is_head && !sel_pkt_dyn && !sel_drop) |->
                                     (sel_pkt_ovc == sel_head_ovc))
  `ARIES_ASSERT(DynHeadKeepsClass_A, (sel_valid && sel_dyn && torus) |->
                                     (sel_ovc[0] == sel_head_ovc[0]))
endmodule
