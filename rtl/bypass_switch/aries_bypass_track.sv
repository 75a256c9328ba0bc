// aries_bypass_track: one whole bypass track of a row or column: K switches (one per router)
// joined by the track's wires, as the passive interposer lays it out. Structural reference for
// segment resolution: sysc/ builds the package's bypass segments from the same cut bits and its
// test checks them against this module (tests/bypass_switch).
//
// Router k's taps: tap_lo (the segment towards router 0) and tap_hi (towards router K-1). The
// two track ends beyond router 0 and router K-1 are open (nothing arrives there).
`include "aries_assert.svh"

module aries_bypass_track #(
  /// Routers along the track.
  parameter int unsigned K = 8,
  /// Width of one direction of the wire bundle.
  parameter int unsigned W = 64
) (
  /// Clock (assertions only).
  input  logic           clk_i,
  /// Asynchronous active-low reset (assertions only).
  input  logic           rst_ni,
  /// Per router: cut the track there.
  input  logic [K-1:0]   cut_i,
  /// Per router: what its lower tap drives ([k*W +: W]).
  input  logic [K*W-1:0] tap_lo_i,
  /// Per router: what arrives at its lower tap.
  output logic [K*W-1:0] tap_lo_o,
  /// Per router: what its upper tap drives.
  input  logic [K*W-1:0] tap_hi_i,
  /// Per router: what arrives at its upper tap.
  output logic [K*W-1:0] tap_hi_o,
  /// Per router: it drives a tap of a passing switch.
  output logic [K-1:0]   tap_drive_err_o
);
  // Wires between switch k-1 and switch k: up[k] travels towards K-1, dn[k] towards 0.
  // up[0] / dn[K] are the open ends.
  logic [(K+1)*W-1:0] up, dn;
  assign up[0 +: W] = '0;
  assign dn[K*W +: W] = '0;

  for (genvar k = 0; k < K; k++) begin : gen_sw
    aries_bypass_switch #(.W(W)) u_sw (
      .clk_i,
      .rst_ni,
      .cut_i          (cut_i[k]),
      .lo_i           (up[k*W +: W]),
      .lo_o           (dn[k*W +: W]),
      .hi_i           (dn[(k+1)*W +: W]),
      .hi_o           (up[(k+1)*W +: W]),
      .tap_lo_o       (tap_lo_o[k*W +: W]),
      .tap_lo_i       (tap_lo_i[k*W +: W]),
      .tap_hi_o       (tap_hi_o[k*W +: W]),
      .tap_hi_i       (tap_hi_i[k*W +: W]),
      .tap_drive_err_o(tap_drive_err_o[k])
    );
  end

  // What leaves the open ends is lost: nothing may be driven there in a correct configuration
  // (a router at the end taps the track only if it cuts it).
  logic [W-1:0] unused_lo_end, unused_hi_end;
  assign unused_lo_end = dn[0 +: W];
  assign unused_hi_end = up[K*W +: W];

  `ARIES_ASSERT_INIT(KLegal_A, K >= 2)
endmodule
