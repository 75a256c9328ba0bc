// aries_bypass_switch: the switch of one bypass track at one router tap (ARIES III-B, "ARIES
// Link": "a simple transistor is implemented in each bypassing link ... to turn on/off the wire
// connection with its associated router").
//
// A track is a bidirectional wire bundle along a row or column. Each direction of the bundle
// is W bits (the user packs flit valid, flit and the credit wires of the opposite direction).
// At a router the track has a lower side (towards column/row 0) and an upper side.
//
//   cut_i = 0 (pass): lo side <-> hi side; the router's taps see nothing (all zero).
//   cut_i = 1 (cut):  lo side <-> lower tap, hi side <-> upper tap; the track ends here on
//                     both sides, so the router is the end of the segment below and the
//                     start of the segment above.
//
// The switch is pure wiring (no state, no latency); the wire delay of a segment belongs to the
// interposer model (sysc/README.md). Driving a tap that is not cut is a configuration error
// reported on tap_drive_err_o (the node refuses such a configuration).
`include "aries_assert.svh"

module aries_bypass_switch #(
  /// Width of one direction of the wire bundle.
  parameter int unsigned W = 64
) (
  /// Clock (assertions only).
  input  logic         clk_i,
  /// Asynchronous active-low reset (assertions only).
  input  logic         rst_ni,
  /// 1: cut the track here (the router taps both segments); 0: pass.
  input  logic         cut_i,
  /// Wires arriving from the lower side.
  input  logic [W-1:0] lo_i,
  /// Wires leaving towards the lower side.
  output logic [W-1:0] lo_o,
  /// Wires arriving from the upper side.
  input  logic [W-1:0] hi_i,
  /// Wires leaving towards the upper side.
  output logic [W-1:0] hi_o,
  /// To the router: what arrives from the lower side (zero unless cut).
  output logic [W-1:0] tap_lo_o,
  /// From the router: what leaves towards the lower side (used only when cut).
  input  logic [W-1:0] tap_lo_i,
  /// To the router: what arrives from the upper side (zero unless cut).
  output logic [W-1:0] tap_hi_o,
  /// From the router: what leaves towards the upper side (used only when cut).
  input  logic [W-1:0] tap_hi_i,
  /// The router drives a tap while the switch passes (the drive is lost).
  output logic         tap_drive_err_o
);
  assign lo_o = cut_i ? tap_lo_i : hi_i;
  assign hi_o = cut_i ? tap_hi_i : lo_i;
  assign tap_lo_o = cut_i ? lo_i : '0;
  assign tap_hi_o = cut_i ? hi_i : '0;
  assign tap_drive_err_o = !cut_i && ((tap_lo_i != '0) || (tap_hi_i != '0));

  `ARIES_ASSERT_INIT(WidthLegal_A, W >= 1)
  `ARIES_ASSERT(NoTapDriveWhilePassing_A, !tap_drive_err_o)
endmodule
