// aries_stream_demux: 1-to-N valid/ready demultiplexer with an explicit select.
//
// Purely combinational: the input goes to output sel_i only; the input's ready is that output's
// ready. Latency: zero.
`include "aries_assert.svh"

module aries_stream_demux #(
  /// Number of outputs.
  parameter int unsigned N = 2,
  /// Width of the select (derived; do not override).
  parameter int unsigned SelW = (N > 1) ? $clog2(N) : 1
) (
  /// Clock (assertions only).
  input  logic            clk_i,
  /// Asynchronous active-low reset (assertions only).
  input  logic            rst_ni,
  /// Output index that receives the input; must be < N.
  input  logic [SelW-1:0] sel_i,
  /// Input valid.
  input  logic            valid_i,
  /// Input ready.
  output logic            ready_o,
  /// Output valids (the word itself fans out to every output unchanged).
  output logic [N-1:0]    valid_o,
  /// Output readies.
  input  logic [N-1:0]    ready_i
);
  always_comb begin : p_valid
    valid_o = '0;
    valid_o[sel_i] = valid_i;
  end
  assign ready_o = ready_i[sel_i];

  `ARIES_ASSERT(SelInRange_A, 32'(sel_i) < N)
  `ARIES_ASSERT(OneValid_A, $onehot0(valid_o))
  logic unused_clk_rst;
  assign unused_clk_rst = clk_i ^ rst_ni;
endmodule
