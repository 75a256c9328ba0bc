// aries_spill_reg: valid/ready pipeline cut that registers both the data and the ready path.
//
// Two entries (A and B): full throughput with no combinational path from ready_i to ready_o or
// from valid_i to valid_o. Latency: one cycle. Order is preserved. Bypass=1 collapses the block
// to wires (gen_bypass).
`include "aries_assert.svh"

module aries_spill_reg #(
  /// Width of one word.
  parameter int unsigned Width = 8,
  /// 1: no registers, the block is a wire.
  parameter bit Bypass = 1'b0
) (
  /// Clock.
  input  logic             clk_i,
  /// Asynchronous active-low reset.
  input  logic             rst_ni,
  /// Input word is valid.
  input  logic             valid_i,
  /// The register can take a word.
  output logic             ready_o,
  /// Input word.
  input  logic [Width-1:0] data_i,
  /// Output word is valid.
  output logic             valid_o,
  /// Consumer takes the output word.
  input  logic             ready_i,
  /// Output word.
  output logic [Width-1:0] data_o
);
  if (Bypass) begin : gen_bypass
    assign valid_o = valid_i;
    assign ready_o = ready_i;
    assign data_o = data_i;
    logic unused_clk_rst;  // a wire needs no clock
    assign unused_clk_rst = clk_i ^ rst_ni;
  end else begin : gen_spill
    // A is the output stage; B holds the word that arrived while A was stalled.
    logic a_full_q, a_full_d, b_full_q, b_full_d;
    logic [Width-1:0] a_data_q, a_data_d, b_data_q, b_data_d;
    logic a_fill, a_drain, b_fill, b_drain;

    assign valid_o = a_full_q;
    assign data_o = a_data_q;
    assign ready_o = !b_full_q;

    always_comb begin : p_next
      a_drain = a_full_q && ready_i;
      // A fills from B first (older), else from the input.
      b_drain = b_full_q && (!a_full_q || a_drain);
      a_fill = b_drain || (valid_i && ready_o && (!a_full_q || a_drain));
      b_fill = valid_i && ready_o && a_full_q && !a_drain;
      a_full_d = a_fill || (a_full_q && !a_drain);
      b_full_d = b_fill || (b_full_q && !b_drain);
      a_data_d = a_data_q;
      b_data_d = b_data_q;
      if (a_fill) a_data_d = b_drain ? b_data_q : data_i;
      if (b_fill) b_data_d = data_i;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
      if (!rst_ni) begin
        a_full_q <= 1'b0;
        b_full_q <= 1'b0;
        a_data_q <= '0;
        b_data_q <= '0;
      end else begin
        a_full_q <= a_full_d;
        b_full_q <= b_full_d;
        a_data_q <= a_data_d;
        b_data_q <= b_data_d;
      end
    end

    `ARIES_ASSERT(BOnlyWhenA_A, b_full_q |-> a_full_q)
    // Once B holds a word, the input must not be taken in the same cycle as B drains into A
    // unless A drains too: checked by the occupancy never exceeding two.
    `ARIES_ASSERT(NoLoss_A, !(b_fill && b_full_q && !b_drain))
    `ARIES_ASSERT(ValidStable_A, (valid_o && !ready_i) |=> valid_o && $stable(data_o))
  end
endmodule
