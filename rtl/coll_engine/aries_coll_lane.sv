// aries_coll_lane: one 32-bit lane of the collective engine's reduction unit: y = a (op) b for
// every collective opcode of aries_pkg (PIUMA: "integer and floating point addition,
// multiplication, min, max, and several bitwise operators"). Combinational; the engine puts
// registers between the levels of its reduction tree.
//
// Integer ops: two's-complement int32, add and mul keep the low 32 bits (wrap), min and max
// signed. Bitwise and, or, xor.
//
// fp32 ops follow IEEE 754 binary32 with these documented choices (the C++ golden model in
// tests/coll_engine implements the same, and is checked against the host FPU):
//   * Rounding: round to nearest, ties to even.
//   * Subnormals: inputs read as zero of their sign (DAZ); results that are subnormal after
//     rounding become zero of their sign (FTZ). (x86 SSE with DAZ and FTZ does the same.)
//   * NaN: any NaN input, inf - inf and 0 * inf give the canonical quiet NaN 0x7FC00000.
//   * Signed zeros: x + (-x) = +0; (+0) + (-0) = +0; (-0) + (-0) = -0; zero products take the
//     xor of the signs. min and max order -0 below +0; a NaN input gives the canonical NaN.
//   * Overflow gives infinity of the result's sign.
`include "aries_assert.svh"

module aries_coll_lane (
  /// Operation (aries_pkg::Op*); values >= NumOps give 0.
  input  logic [aries_pkg::OpW-1:0] op_i,
  /// First operand (the earlier input in the engine's fixed order).
  input  logic [31:0]               a_i,
  /// Second operand.
  input  logic [31:0]               b_i,
  /// Result.
  output logic [31:0]               y_o
);
  localparam logic [31:0] QNaN = 32'h7FC0_0000;

  // ---------------------------------------------------------------------------------------------
  // Operand classes (DAZ: exponent 0 is zero whatever the fraction)
  // ---------------------------------------------------------------------------------------------
  logic sa, sb;
  logic [7:0] ea, eb;
  logic [22:0] fa, fb;
  logic a_zero, b_zero, a_inf, b_inf, a_nan, b_nan;
  assign {sa, ea, fa} = a_i;
  assign {sb, eb, fb} = b_i;
  assign a_zero = (ea == 8'd0);
  assign b_zero = (eb == 8'd0);
  assign a_inf = (ea == 8'hFF) && (fa == '0);
  assign b_inf = (eb == 8'hFF) && (fb == '0);
  assign a_nan = (ea == 8'hFF) && (fa != '0);
  assign b_nan = (eb == 8'hFF) && (fb != '0);

  // ---------------------------------------------------------------------------------------------
  // Rounding and packing shared by add and mul: a normalized 24-bit significand m (bit 23 set),
  // guard bit g, sticky bit s, a signed biased exponent e (unbounded range) and a sign.
  // ---------------------------------------------------------------------------------------------
  // fp32 add
  logic [31:0] add_y;
  logic add_swap;
  logic [7:0] ex, ey;
  logic [23:0] mx, my;
  logic sx, sy;
  logic [7:0] d;
  logic [26:0] xe, ye_full, ye;        // significand with guard, round, sticky bits
  logic ye_sticky;
  logic [27:0] sum;
  logic [4:0] msb;
  logic [9:0] add_e;                   // signed, biased
  logic [26:0] norm;
  logic add_rnd;
  logic [24:0] add_m;
  logic [9:0] add_e2;

  always_comb begin : p_add
    add_swap = (eb > ea) || ((eb == ea) && (fb > fa));
    sx = add_swap ? sb : sa;
    sy = add_swap ? sa : sb;
    ex = add_swap ? eb : ea;
    ey = add_swap ? ea : eb;
    mx = {1'b1, add_swap ? fb : fa};
    my = {1'b1, add_swap ? fa : fb};
    d = ex - ey;
    xe = {mx, 3'b000};
    ye_full = {my, 3'b000};
    // Align y: shift right by d, folding every bit shifted out into the sticky bit.
    ye_sticky = 1'b0;
    for (int unsigned i = 0; i < 27; i++) begin
      if ((32'(i) < 32'(d)) && ye_full[i]) ye_sticky = 1'b1;
    end
    ye = (d >= 8'd27) ? 27'd0 : (ye_full >> d);
    ye[0] = ye[0] | ye_sticky;
    sum = (sx == sy) ? ({1'b0, xe} + {1'b0, ye}) : ({1'b0, xe} - {1'b0, ye});
    // Leading one of the sum (bit 27 at most).
    msb = 5'd0;
    for (int unsigned i = 0; i < 28; i++) begin
      if (sum[i]) msb = 5'(i);
    end
    // Normalize so the leading one is at bit 26, keeping a sticky bit at bit 0.
    add_e = 10'(ex) + 10'(msb) - 10'd26;
    if (msb == 5'd27) begin
      norm = sum[27:1];
      norm[0] = sum[1] | sum[0];
    end else begin
      norm = sum[26:0] << (5'd26 - msb);
    end
    // Round to nearest even on the guard bit (norm[2]) with round and sticky (norm[1:0]).
    add_rnd = norm[2] && (norm[1] || norm[0] || norm[3]);
    add_m = {1'b0, norm[26:3]} + 25'(add_rnd);
    add_e2 = add_m[24] ? add_e + 10'd1 : add_e;
    if (add_m[24]) add_m = add_m >> 1;
    // Results.
    if (a_nan || b_nan || (a_inf && b_inf && (sa != sb))) begin
      add_y = QNaN;
    end else if (a_inf) begin
      add_y = {sa, 8'hFF, 23'd0};
    end else if (b_inf) begin
      add_y = {sb, 8'hFF, 23'd0};
    end else if (a_zero && b_zero) begin
      add_y = {sa & sb, 31'd0};
    end else if (a_zero) begin
      add_y = {sb, eb, fb};
    end else if (b_zero) begin
      add_y = {sa, ea, fa};
    end else if (sum == '0) begin
      add_y = 32'd0;  // exact cancellation: +0 in round to nearest
    end else if ($signed(add_e2) >= 10'sd255) begin
      add_y = {sx, 8'hFF, 23'd0};
    end else if ($signed(add_e2) <= 10'sd0) begin
      add_y = {sx, 31'd0};  // FTZ
    end else begin
      add_y = {sx, add_e2[7:0], add_m[22:0]};
    end
  end

  // fp32 mul
  logic [31:0] mul_y;
  logic [47:0] prod;
  logic [9:0] mul_e;
  logic [23:0] mul_sig;
  logic mul_g, mul_s, mul_rnd;
  logic [24:0] mul_m;
  logic [9:0] mul_e2;
  logic mul_sign;

  always_comb begin : p_mul
    mul_sign = sa ^ sb;
    prod = {1'b1, fa} * {1'b1, fb};
    if (prod[47]) begin
      mul_sig = prod[47:24];
      mul_g = prod[23];
      mul_s = (prod[22:0] != '0);
      mul_e = 10'(ea) + 10'(eb) - 10'd126;
    end else begin
      mul_sig = prod[46:23];
      mul_g = prod[22];
      mul_s = (prod[21:0] != '0);
      mul_e = 10'(ea) + 10'(eb) - 10'd127;
    end
    mul_rnd = mul_g && (mul_s || mul_sig[0]);
    mul_m = {1'b0, mul_sig} + 25'(mul_rnd);
    mul_e2 = mul_m[24] ? mul_e + 10'd1 : mul_e;
    if (mul_m[24]) mul_m = mul_m >> 1;
    if (a_nan || b_nan || (a_inf && b_zero) || (b_inf && a_zero)) begin
      mul_y = QNaN;
    end else if (a_inf || b_inf) begin
      mul_y = {mul_sign, 8'hFF, 23'd0};
    end else if (a_zero || b_zero) begin
      mul_y = {mul_sign, 31'd0};
    end else if ($signed(mul_e2) >= 10'sd255) begin
      mul_y = {mul_sign, 8'hFF, 23'd0};
    end else if ($signed(mul_e2) <= 10'sd0) begin
      mul_y = {mul_sign, 31'd0};  // FTZ
    end else begin
      mul_y = {mul_sign, mul_e2[7:0], mul_m[22:0]};
    end
  end

  // fp32 min / max: compare as sign-magnitude with DAZ (a subnormal is a zero of its sign).
  logic [31:0] a_daz, b_daz;
  logic a_lt_b;
  always_comb begin : p_minmax
    a_daz = a_zero ? {sa, 31'd0} : a_i;
    b_daz = b_zero ? {sb, 31'd0} : b_i;
    if (sa != sb) a_lt_b = sa;                       // negative (incl. -0) below positive
    else if (!sa) a_lt_b = a_daz[30:0] < b_daz[30:0];
    else a_lt_b = a_daz[30:0] > b_daz[30:0];
  end

  always_comb begin : p_select
    unique case (32'(op_i))
      aries_pkg::OpAddI32: y_o = a_i + b_i;
      aries_pkg::OpMulI32: y_o = a_i * b_i;
      aries_pkg::OpMinI32: y_o = ($signed(a_i) < $signed(b_i)) ? a_i : b_i;
      aries_pkg::OpMaxI32: y_o = ($signed(a_i) < $signed(b_i)) ? b_i : a_i;
      aries_pkg::OpAddF32: y_o = add_y;
      aries_pkg::OpMulF32: y_o = mul_y;
      aries_pkg::OpMinF32: y_o = (a_nan || b_nan) ? QNaN : (a_lt_b ? a_daz : b_daz);
      aries_pkg::OpMaxF32: y_o = (a_nan || b_nan) ? QNaN : (a_lt_b ? b_daz : a_daz);
      aries_pkg::OpAnd: y_o = a_i & b_i;
      aries_pkg::OpOr: y_o = a_i | b_i;
      aries_pkg::OpXor: y_o = a_i ^ b_i;
      default: y_o = 32'd0;
    endcase
  end
endmodule
