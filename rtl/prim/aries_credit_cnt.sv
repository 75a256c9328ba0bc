// aries_credit_cnt: credit counter of one virtual channel at a sender.
//
// Starts at MaxCredits (the receiver's buffer depth). take_i spends one credit (a flit is sent),
// give_i returns one (the receiver freed a slot); both in one cycle cancel. Over- and underflow
// are protocol errors: asserted, and also reported on error_o for a running model.
`include "aries_assert.svh"

module aries_credit_cnt #(
  /// Credits after reset (the downstream buffer depth).
  parameter int unsigned MaxCredits = 32,
  /// Counter width (derived; do not override).
  parameter int unsigned CntW = $clog2(MaxCredits + 1)
) (
  /// Clock.
  input  logic            clk_i,
  /// Asynchronous active-low reset.
  input  logic            rst_ni,
  /// Spend a credit this cycle.
  input  logic            take_i,
  /// A credit comes back this cycle.
  input  logic            give_i,
  /// At least one credit is available.
  output logic            avail_o,
  /// All credits are home (receiver buffer empty as far as this sender knows).
  output logic            full_o,
  /// Current credit count.
  output logic [CntW-1:0] count_o,
  /// Underflow (take with no credit) or overflow (give with all credits home) this cycle.
  output logic            error_o
);
  logic [CntW-1:0] cnt_q, cnt_d;
  logic underflow, overflow;

  // Only a cycle that takes or gives (not both) changes anything: the checks sit under that
  // condition, so a simulator skips an idle counter.
  always_comb begin : p_next
    cnt_d = cnt_q;
    underflow = 1'b0;
    overflow = 1'b0;
    if (take_i != give_i) begin
      if (take_i) begin
        underflow = (cnt_q == '0);
        if (!underflow) cnt_d = cnt_q - 1'b1;
      end else begin
        overflow = (cnt_q == CntW'(MaxCredits));
        if (!overflow) cnt_d = cnt_q + 1'b1;
      end
    end
  end
  assign error_o = underflow || overflow;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_cnt
    if (!rst_ni) cnt_q <= CntW'(MaxCredits);
    else cnt_q <= cnt_d;
  end

  assign avail_o = (cnt_q != '0);
  assign full_o = (cnt_q == CntW'(MaxCredits));
  assign count_o = cnt_q;

  `ARIES_ASSERT_INIT(MaxCreditsLegal_A, MaxCredits >= 1)
  `ARIES_ASSERT(CreditUnderflow_A, !underflow)
  `ARIES_ASSERT(CreditOverflow_A, !overflow)
endmodule
