// aries_stream_mux: N-to-1 valid/ready multiplexer with an explicit select.
//
// Purely combinational: the selected input's valid and data pass to the output, the output's
// ready goes back to the selected input only. Unselected inputs see ready low. Latency: zero.
`include "aries_assert.svh"

module aries_stream_mux #(
  /// Number of inputs.
  parameter int unsigned N = 2,
  /// Width of one word.
  parameter int unsigned Width = 8,
  /// Width of the select (derived; do not override).
  parameter int unsigned SelW = (N > 1) ? $clog2(N) : 1
) (
  /// Clock (assertions only).
  input  logic             clk_i,
  /// Asynchronous active-low reset (assertions only).
  input  logic             rst_ni,
  /// Input index that reaches the output; must be < N.
  input  logic [SelW-1:0]  sel_i,
  /// Input valids.
  input  logic [N-1:0]     valid_i,
  /// Input readies.
  output logic [N-1:0]     ready_o,
  /// Input words, input i at [i*Width +: Width].
  input  logic [N*Width-1:0] data_i,
  /// Output valid.
  output logic             valid_o,
  /// Output ready.
  input  logic             ready_i,
  /// Output word.
  output logic [Width-1:0] data_o
);
  assign valid_o = valid_i[sel_i];
  assign data_o = data_i[sel_i*Width +: Width];
  always_comb begin : p_ready
    ready_o = '0;
    ready_o[sel_i] = ready_i;
  end

  `ARIES_ASSERT(SelInRange_A, 32'(sel_i) < N)
  // Only clk_i/rst_ni are used by the assertions; under SYNTHESIS they are unused.
  logic unused_clk_rst;
  assign unused_clk_rst = clk_i ^ rst_ni;
endmodule
