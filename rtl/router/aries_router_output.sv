// aries_router_output: one output port of the ARIES router: the output stage of the switch
// allocator, output-VC ownership, credit counters and the output register.
//
// A round-robin arbiter grants one of the input ports requesting this output (requests already
// guarantee a credit and a legal output VC, so every grant is used). The crossbar delivers the
// granted flit; it is registered here and leaves on out_valid_o/out_flit_o the next cycle. A
// head flit that is not also a tail takes ownership of its output VC for the granted input;
// the tail releases it (wormhole switching). With pt_en_i set the output belongs to a circuit
// pass-through: the pass-through flit is registered instead and arbitration is off.
`include "aries_assert.svh"

module aries_router_output #(
  /// Router radix.
  parameter int unsigned NumPorts = 5,
  /// Virtual channels per port.
  parameter int unsigned NumVCs = 4,
  /// Flits per VC buffer at the receiver (initial credits).
  parameter int unsigned BufferDepth = 32,
  /// Flit width.
  parameter int unsigned FlitW = 64,
  /// Width of an owner id = input port index (derived; do not override).
  parameter int unsigned OwnW = $clog2(NumPorts)
) (
  /// Clock.
  input  logic                     clk_i,
  /// Asynchronous active-low reset.
  input  logic                     rst_ni,
  /// Requests of the input ports for this output.
  input  logic [NumPorts-1:0]      req_i,
  /// One-hot grant to the input ports.
  output logic [NumPorts-1:0]      gnt_o,
  /// Index of the granted input (for the crossbar).
  output logic [OwnW-1:0]          gnt_idx_o,
  /// The flit the crossbar delivers from the granted input (VC field = output VC).
  input  logic [FlitW-1:0]         xbar_flit_i,
  /// This output is a circuit pass-through.
  input  logic                     pt_en_i,
  /// Pass-through flit valid.
  input  logic                     pt_valid_i,
  /// Pass-through flit.
  input  logic [FlitW-1:0]         pt_flit_i,
  /// Credits coming back from the receiver, one bit per VC.
  input  logic [NumVCs-1:0]        out_credit_i,
  /// Flit leaves on the link.
  output logic                     out_valid_o,
  /// Flit on the link.
  output logic [FlitW-1:0]         out_flit_o,
  /// Per VC: at least one credit.
  output logic [NumVCs-1:0]        avail_o,
  /// Per VC: owned by a packet in flight.
  output logic [NumVCs-1:0]        owned_o,
  /// Per VC: the owning input port.
  output logic [NumVCs*OwnW-1:0]   owner_o,
  /// No VC owned and every credit home.
  output logic                     idle_o,
  /// A credit counter over- or underflowed this cycle.
  output logic                     credit_err_o,
  /// out_valid_o of the next cycle (the output register's input).
  output logic                     next_valid_o,
  /// out_flit_o of the next cycle when next_valid_o.
  output logic [FlitW-1:0]         next_flit_o
);
  localparam int unsigned VW = aries_pkg::VcIdW;
  localparam int unsigned VcSelW = (NumVCs > 1) ? $clog2(NumVCs) : 1;

  logic gnt_valid;
  logic [NumPorts-1:0] arb_req;
  assign arb_req = pt_en_i ? '0 : req_i;

  aries_rr_arb #(
    .N(NumPorts)
  ) u_sw_arb (
    .clk_i,
    .rst_ni,
    .req_i   (arb_req),
    .update_i(1'b1),
    .gnt_o,
    .idx_o   (gnt_idx_o),
    .valid_o (gnt_valid)
  );

  // The flit that enters the output register this cycle.
  logic send;
  logic [FlitW-1:0] send_flit;
  logic [VW-1:0] send_vc;
  assign send = pt_en_i ? pt_valid_i : gnt_valid;
  assign send_flit = pt_en_i ? pt_flit_i : xbar_flit_i;
  assign send_vc = send_flit[aries_pkg::HdrVcLsb +: VW];

  // Credit counters per VC.
  logic [NumVCs-1:0] take, full, cnt_err;
  always_comb begin : p_take
    take = '0;
    if (send) take[send_vc[VcSelW-1:0]] = 1'b1;
  end

  for (genvar v = 0; v < NumVCs; v++) begin : gen_credit
    aries_credit_cnt #(
      .MaxCredits(BufferDepth)
    ) u_credit (
      .clk_i,
      .rst_ni,
      .take_i (take[v]),
      .give_i (out_credit_i[v]),
      .avail_o(avail_o[v]),
      .full_o (full[v]),
      .count_o(),
      .error_o(cnt_err[v])
    );
  end
  assign credit_err_o = |cnt_err;

  // Output-VC ownership (switch allocation only; a pass-through does not own VCs).
  logic [NumVCs-1:0] owned_q, owned_d;
  logic [OwnW-1:0] owner_q [NumVCs];
  logic [OwnW-1:0] owner_d [NumVCs];
  logic send_head, send_tail;
  assign send_head = send_flit[aries_pkg::HdrHeadBit];
  assign send_tail = send_flit[aries_pkg::HdrTailBit];

  always_comb begin : p_owner
    owned_d = owned_q;
    for (int unsigned v = 0; v < NumVCs; v++) owner_d[v] = owner_q[v];
    if (gnt_valid && !pt_en_i) begin
      if (send_tail) begin
        owned_d[send_vc[VcSelW-1:0]] = 1'b0;
      end else if (send_head) begin
        owned_d[send_vc[VcSelW-1:0]] = 1'b1;
        owner_d[send_vc[VcSelW-1:0]] = gnt_idx_o;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_owned_q
    if (!rst_ni) owned_q <= '0;
    else owned_q <= owned_d;
  end
  for (genvar v = 0; v < NumVCs; v++) begin : gen_owner
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_owner_q
      if (!rst_ni) owner_q[v] <= '0;
      else owner_q[v] <= owner_d[v];
    end
  end

  always_comb begin : p_owner_o
    for (int unsigned v = 0; v < NumVCs; v++) owner_o[v*OwnW +: OwnW] = owner_q[v];
  end
  assign owned_o = owned_q;
  assign idle_o = (owned_q == '0) && (full == '1);

  // Output register: valid has a reset, the wide data register does not.
  logic out_valid_q;
  logic [FlitW-1:0] out_flit_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_out_valid
    if (!rst_ni) out_valid_q <= 1'b0;
    else out_valid_q <= send;
  end
  always_ff @(posedge clk_i) begin : p_out_flit
    if (send) out_flit_q <= send_flit;
  end
  assign out_valid_o = out_valid_q;
  assign out_flit_o = out_flit_q;
  assign next_valid_o = send;
  assign next_flit_o = send_flit;

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT(SendVcInRange_A, send |-> (32'(send_vc) < NumVCs))
  `ARIES_ASSERT(SendHasCredit_A, send |-> avail_o[send_vc[VcSelW-1:0]])
  `ARIES_ASSERT(HeadNeedsFreeVc_A,
                (gnt_valid && !pt_en_i && send_head) |-> !owned_q[send_vc[VcSelW-1:0]])
  logic [OwnW-1:0] send_vc_owner;  // owner of the VC the granted flit uses (assertions)
  assign send_vc_owner = owner_q[send_vc[VcSelW-1:0]];
  `ARIES_ASSERT(BodyNeedsOwnVc_A,
                (gnt_valid && !pt_en_i && !send_head) |->
                  (owned_q[send_vc[VcSelW-1:0]] && send_vc_owner == gnt_idx_o))
  `ARIES_ASSERT(NoRequestsToACircuitOutput_A, pt_en_i |-> (req_i == '0))
endmodule
