// aries_rr_arbiter: round-robin arbiter over N requesters.
//
// Combinational grant: the first requester after the last granted one (wrapping) wins. The
// priority pointer moves past the winner only when update_i is high in that cycle, so a caller
// that could not use a grant keeps its turn (iSLIP-style fairness). Under persistent requests
// every requester is granted once every N updates.
`include "aries_assert.svh"

module aries_rr_arb #(
  /// Number of requesters.
  parameter int unsigned N = 4,
  /// Width of the grant index (derived; do not override).
  parameter int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  /// Clock.
  input  logic            clk_i,
  /// Asynchronous active-low reset.
  input  logic            rst_ni,
  /// Request vector.
  input  logic [N-1:0]    req_i,
  /// Advance the priority past the current winner.
  input  logic            update_i,
  /// One-hot grant (zero when nothing requests).
  output logic [N-1:0]    gnt_o,
  /// Index of the granted requester (valid when valid_o).
  output logic [IdxW-1:0] idx_o,
  /// Some requester is granted.
  output logic            valid_o
);
  if (N == 1) begin : gen_single
    assign gnt_o = req_i;
    assign idx_o = '0;
    assign valid_o = req_i[0];
    logic unused_update;  // one requester: no priority to rotate
    assign unused_update = update_i;
  end else begin : gen_rr
    // last_q: index granted last. Requests above it win before requests at or below it.
    logic [IdxW-1:0] last_q;
    logic [N-1:0] above;
    logic [N-1:0] req_above;
    logic [IdxW-1:0] idx_hi, idx_lo;
    logic any_hi;

    always_comb begin : p_above
      for (int unsigned i = 0; i < N; i++) above[i] = (IdxW'(i) > last_q);
    end
    assign req_above = req_i & above;
    assign any_hi = |req_above;

    // Lowest set bit of each vector (scan from the top so the lowest assignment wins).
    always_comb begin : p_lowest
      idx_hi = '0;
      idx_lo = '0;
      for (int i = N - 1; i >= 0; i--) begin
        if (req_above[i]) idx_hi = IdxW'(i);
        if (req_i[i]) idx_lo = IdxW'(i);
      end
    end

    assign valid_o = |req_i;
    assign idx_o = any_hi ? idx_hi : idx_lo;
    assign gnt_o = valid_o ? (N'(1) << idx_o) : '0;

    always_ff @(posedge clk_i or negedge rst_ni) begin : p_last
      if (!rst_ni) last_q <= IdxW'(N - 1);
      else if (update_i && valid_o) last_q <= idx_o;
    end

    `ARIES_ASSERT(LastInRange_A, 32'(last_q) < N)
  end

  `ARIES_ASSERT_INIT(NLegal_A, N >= 1)
  `ARIES_ASSERT(GntOneHot_A, $onehot0(gnt_o))
  `ARIES_ASSERT(GntSubsetOfReq_A, (gnt_o & ~req_i) == '0)
  `ARIES_ASSERT(GntWhenReq_A, (|req_i) == (|gnt_o))
endmodule
