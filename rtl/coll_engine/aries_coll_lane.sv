// aries_coll_lane: one 32-bit lane of the collective engine's reduction unit: y = a (op) b for
// every collective opcode of aries_pkg (PIUMA: "integer and floating point addition,
// multiplication, min, max, and several bitwise operators"), with its result register (one
// register stage of the engine's reduction tree). The arithmetic is written as functions called
// inside the register's enable, so a cycle-based simulator evaluates it only in cycles that
// reduce (the engine is idle most of the time under point-to-point traffic); synthesis sees the
// same combinational logic in front of a register with enable.
//
// Integer ops: two's-complement int32, add and mul keep the low 32 bits (wrap), min and max
// signed. Bitwise and, or, xor.
//
// fp32 ops follow IEEE 754 binary32 with these documented choices (the C++ golden model in
// collectives/arith implements the same, and tests/coll_engine checks it against the host FPU):
//   * Rounding: round to nearest, ties to even.
//   * Subnormals: inputs read as zero of their sign (DAZ); results that are subnormal after
//     rounding become zero of their sign (FTZ). (x86 SSE with DAZ and FTZ does the same.)
//   * NaN: any NaN input, inf - inf and 0 * inf give the canonical quiet NaN 0x7FC00000.
//   * Signed zeros: x + (-x) = +0; (+0) + (-0) = +0; (-0) + (-0) = -0; zero products take the
//     xor of the signs. min and max order -0 below +0; a NaN input gives the canonical NaN.
//   * Overflow gives infinity of the result's sign.
`include "aries_assert.svh"

module aries_coll_lane (
  /// Clock.
  input  logic                      clk_i,
  /// Compute this cycle (the result appears after the edge).
  input  logic                      en_i,
  /// Operation (aries_pkg::Op*); values >= NumOps give 0.
  input  logic [aries_pkg::OpW-1:0] op_i,
  /// First operand (the earlier input in the engine's fixed order).
  input  logic [31:0]               a_i,
  /// Second operand.
  input  logic [31:0]               b_i,
  /// Result of the last enabled cycle (registered, no reset: a datapath register).
  output logic [31:0]               y_o
);
  localparam logic [31:0] QNaN = 32'h7FC0_0000;

  // Operand classes (DAZ: exponent 0 is zero whatever the fraction).
  function automatic logic is_zero(input logic [7:0] e);
    is_zero = (e == 8'd0);
  endfunction
  function automatic logic is_inf(input logic [30:0] x);
    is_inf = (x[30:23] == 8'hFF) && (x[22:0] == '0);
  endfunction
  function automatic logic is_nan(input logic [30:0] x);
    is_nan = (x[30:23] == 8'hFF) && (x[22:0] != '0);
  endfunction

  // fp32 a + b: align the smaller operand with guard, round and sticky bits, add or subtract,
  // normalize, round to nearest even, then overflow to infinity and flush subnormals.
  function automatic logic [31:0] fp_add(input logic [31:0] a, input logic [31:0] b);
    logic sa, sb, swap, sx;
    logic [7:0] ea, eb, ex, ey, d;
    logic [22:0] fa, fb;
    logic [23:0] mx, my;
    logic [26:0] xe, ye_full, ye;
    logic sticky, rnd;
    logic [27:0] sum;
    logic [4:0] msb;
    logic [9:0] e, e2;
    logic [26:0] norm;
    logic [24:0] m;
    logic [31:0] y;
    {sa, ea, fa} = a;
    {sb, eb, fb} = b;
    swap = (eb > ea) || ((eb == ea) && (fb > fa));
    sx = swap ? sb : sa;
    ex = swap ? eb : ea;
    ey = swap ? ea : eb;
    mx = {1'b1, swap ? fb : fa};
    my = {1'b1, swap ? fa : fb};
    d = ex - ey;
    xe = {mx, 3'b000};
    ye_full = {my, 3'b000};
    sticky = 1'b0;
    for (int unsigned i = 0; i < 27; i++) begin
      if ((32'(i) < 32'(d)) && ye_full[i]) sticky = 1'b1;
    end
    ye = (d >= 8'd27) ? 27'd0 : (ye_full >> d);
    ye[0] = ye[0] | sticky;
    sum = (sa == sb) ? ({1'b0, xe} + {1'b0, ye}) : ({1'b0, xe} - {1'b0, ye});
    msb = 5'd0;
    for (int unsigned i = 0; i < 28; i++) begin
      if (sum[i]) msb = 5'(i);
    end
    e = 10'(ex) + 10'(msb) - 10'd26;
    if (msb == 5'd27) begin
      norm = sum[27:1];
      norm[0] = sum[1] | sum[0];
    end else begin
      norm = sum[26:0] << (5'd26 - msb);
    end
    rnd = norm[2] && (norm[1] || norm[0] || norm[3]);
    m = {1'b0, norm[26:3]} + 25'(rnd);
    e2 = m[24] ? e + 10'd1 : e;
    if (m[24]) m = m >> 1;
    if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_inf(a[30:0]) && is_inf(b[30:0]) && (sa != sb))) y = QNaN;
    else if (is_inf(a[30:0])) y = {sa, 8'hFF, 23'd0};
    else if (is_inf(b[30:0])) y = {sb, 8'hFF, 23'd0};
    else if (is_zero(a[30:23]) && is_zero(b[30:23])) y = {sa & sb, 31'd0};
    else if (is_zero(a[30:23])) y = b;
    else if (is_zero(b[30:23])) y = a;
    else if (sum == '0) y = 32'd0;                         // exact cancellation: +0
    else if ($signed(e2) >= 10'sd255) y = {sx, 8'hFF, 23'd0};
    else if ($signed(e2) <= 10'sd0) y = {sx, 31'd0};       // FTZ
    else y = {sx, e2[7:0], m[22:0]};
    fp_add = y;
  endfunction

  // fp32 a * b: 24 x 24-bit product, normalize, round to nearest even, overflow, flush.
  function automatic logic [31:0] fp_mul(input logic [31:0] a, input logic [31:0] b);
    logic s, g, st, rnd;
    logic [47:0] prod;
    logic [9:0] e, e2;
    logic [23:0] sig;
    logic [24:0] m;
    logic [31:0] y;
    s = a[31] ^ b[31];
    prod = {1'b1, a[22:0]} * {1'b1, b[22:0]};
    if (prod[47]) begin
      sig = prod[47:24];
      g = prod[23];
      st = (prod[22:0] != '0);
      e = 10'(a[30:23]) + 10'(b[30:23]) - 10'd126;
    end else begin
      sig = prod[46:23];
      g = prod[22];
      st = (prod[21:0] != '0);
      e = 10'(a[30:23]) + 10'(b[30:23]) - 10'd127;
    end
    rnd = g && (st || sig[0]);
    m = {1'b0, sig} + 25'(rnd);
    e2 = m[24] ? e + 10'd1 : e;
    if (m[24]) m = m >> 1;
    if (is_nan(a[30:0]) || is_nan(b[30:0]) || (is_inf(a[30:0]) && is_zero(b[30:23])) || (is_inf(b[30:0]) && is_zero(a[30:23]))) y = QNaN;
    else if (is_inf(a[30:0]) || is_inf(b[30:0])) y = {s, 8'hFF, 23'd0};
    else if (is_zero(a[30:23]) || is_zero(b[30:23])) y = {s, 31'd0};
    else if ($signed(e2) >= 10'sd255) y = {s, 8'hFF, 23'd0};
    else if ($signed(e2) <= 10'sd0) y = {s, 31'd0};        // FTZ
    else y = {s, e2[7:0], m[22:0]};
    fp_mul = y;
  endfunction

  // fp32 min (want_max = 0) or max: sign-magnitude order after DAZ, -0 below +0, NaN wins.
  function automatic logic [31:0] fp_minmax(input logic [31:0] a, input logic [31:0] b,
                                            input logic want_max);
    logic [31:0] ad, bd;
    logic lt;
    ad = is_zero(a[30:23]) ? {a[31], 31'd0} : a;
    bd = is_zero(b[30:23]) ? {b[31], 31'd0} : b;
    if (a[31] != b[31]) lt = a[31];
    else if (!a[31]) lt = ad[30:0] < bd[30:0];
    else lt = ad[30:0] > bd[30:0];
    if (is_nan(a[30:0]) || is_nan(b[30:0])) fp_minmax = QNaN;
    else fp_minmax = (lt != want_max) ? ad : bd;
  endfunction

  function automatic logic [31:0] lane_op(input logic [aries_pkg::OpW-1:0] op,
                                          input logic [31:0] a, input logic [31:0] b);
    logic [31:0] y;
    unique case (32'(op))
      aries_pkg::OpAddI32: y = a + b;
      aries_pkg::OpMulI32: y = a * b;
      aries_pkg::OpMinI32: y = ($signed(a) < $signed(b)) ? a : b;
      aries_pkg::OpMaxI32: y = ($signed(a) < $signed(b)) ? b : a;
      aries_pkg::OpAddF32: y = fp_add(a, b);
      aries_pkg::OpMulF32: y = fp_mul(a, b);
      aries_pkg::OpMinF32: y = fp_minmax(a, b, 1'b0);
      aries_pkg::OpMaxF32: y = fp_minmax(a, b, 1'b1);
      aries_pkg::OpAnd: y = a & b;
      aries_pkg::OpOr: y = a | b;
      aries_pkg::OpXor: y = a ^ b;
      default: y = 32'd0;
    endcase
    lane_op = y;
  endfunction

  logic [31:0] y_q;
  always_ff @(posedge clk_i) begin : p_alu
    if (en_i) y_q <= lane_op(op_i, a_i, b_i);
  end
  assign y_o = y_q;
endmodule
