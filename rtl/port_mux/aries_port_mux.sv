// aries_port_mux: connects one directional router port to one of several links (ARIES III-B:
// "a set of muxes are added into +x, -x, +y, and -y directions, and each mux connects to a
// mesh link" and the x and y bypass segments; "only one link can be connected to one port at
// a time").
//
// Link 0 is the mesh link, 1 the x-bypass segment, 2 the y-bypass segment (NumLinks = 3); the
// input side (link -> router input) and the output side (router output -> link) select
// independently. Flits and credits of the selected links pass combinationally (no latency):
// the link latency is the interposer's. A flit or a credit that arrives on an unselected link
// is dropped and reported on stray_o (a configuration error: the node refuses select changes
// while the port carries traffic, so this never happens in a correct program).
`include "aries_assert.svh"

module aries_port_mux #(
  /// Links a port can take (mesh, x-bypass, y-bypass).
  parameter int unsigned NumLinks = 3,
  /// Virtual channels (credit wires per direction).
  parameter int unsigned NumVCs = 4,
  /// Flit width.
  parameter int unsigned FlitW = 64,
  /// Width of a link select (derived; do not override).
  parameter int unsigned SelW = (NumLinks > 1) ? $clog2(NumLinks) : 1
) (
  /// Clock (assertions only).
  input  logic                       clk_i,
  /// Asynchronous active-low reset (assertions only).
  input  logic                       rst_ni,
  /// Link that feeds the router input (< NumLinks).
  input  logic [SelW-1:0]            in_sel_i,
  /// Link the router output drives (< NumLinks).
  input  logic [SelW-1:0]            out_sel_i,
  // Input side: links -> router input port.
  /// Per link: a flit arrives.
  input  logic [NumLinks-1:0]        lnk_in_valid_i,
  /// Per link: the flit, link l at [l*FlitW +: FlitW].
  input  logic [NumLinks*FlitW-1:0]  lnk_in_flit_i,
  /// Per link and VC ([l*NumVCs+v]): credits back to the sender on that link.
  output logic [NumLinks*NumVCs-1:0] lnk_in_credit_o,
  /// To the router input port: flit valid.
  output logic                       rtr_in_valid_o,
  /// To the router input port: flit.
  output logic [FlitW-1:0]           rtr_in_flit_o,
  /// From the router input port: credits per VC.
  input  logic [NumVCs-1:0]          rtr_in_credit_i,
  // Output side: router output port -> links.
  /// From the router output port: flit valid.
  input  logic                       rtr_out_valid_i,
  /// From the router output port: flit.
  input  logic [FlitW-1:0]           rtr_out_flit_i,
  /// To the router output port: credits per VC from the selected link's receiver.
  output logic [NumVCs-1:0]          rtr_out_credit_o,
  /// Per link: a flit leaves.
  output logic [NumLinks-1:0]        lnk_out_valid_o,
  /// Per link: the flit (the same bus on every link; only the selected one is valid).
  output logic [NumLinks*FlitW-1:0]  lnk_out_flit_o,
  /// Per link and VC: credits from that link's receiver.
  input  logic [NumLinks*NumVCs-1:0] lnk_out_credit_i,
  /// A flit or credit arrived on an unselected link this cycle (dropped).
  output logic                       stray_o
);
  // Input side: a stream mux picks the selected link's flit. Links are credit flow controlled,
  // so the mux's ready is tied high and its per-input readies are unused.
  logic [NumLinks-1:0] unused_in_ready;
  aries_stream_mux #(
    .N    (NumLinks),
    .Width(FlitW)
  ) u_in_mux (
    .clk_i,
    .rst_ni,
    .sel_i  (in_sel_i),
    .valid_i(lnk_in_valid_i),
    .ready_o(unused_in_ready),
    .data_i (lnk_in_flit_i),
    .valid_o(rtr_in_valid_o),
    .ready_i(1'b1),
    .data_o (rtr_in_flit_o)
  );

  // Output side: a stream demux steers the valid; the flit bus fans out to every link.
  logic unused_out_ready;
  aries_stream_demux #(
    .N(NumLinks)
  ) u_out_demux (
    .clk_i,
    .rst_ni,
    .sel_i  (out_sel_i),
    .valid_i(rtr_out_valid_i),
    .ready_o(unused_out_ready),
    .valid_o(lnk_out_valid_o),
    .ready_i('1)
  );
  for (genvar l = 0; l < NumLinks; l++) begin : gen_out_flit
    assign lnk_out_flit_o[l*FlitW +: FlitW] = rtr_out_flit_i;
  end

  // Credits follow the selects the other way.
  always_comb begin : p_credits
    lnk_in_credit_o = '0;
    lnk_in_credit_o[32'(in_sel_i)*NumVCs +: NumVCs] = rtr_in_credit_i;
  end
  assign rtr_out_credit_o = lnk_out_credit_i[32'(out_sel_i)*NumVCs +: NumVCs];

  // Anything on a link that is not selected is lost: report it.
  logic [NumLinks-1:0] stray_flit, stray_credit;
  always_comb begin : p_stray
    for (int unsigned l = 0; l < NumLinks; l++) begin
      stray_flit[l] = lnk_in_valid_i[l] && (32'(in_sel_i) != l);
      stray_credit[l] = (lnk_out_credit_i[l*NumVCs +: NumVCs] != '0) && (32'(out_sel_i) != l);
    end
  end
  assign stray_o = (stray_flit != '0) || (stray_credit != '0);

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(NumLinksLegal_A, NumLinks >= 1)
  `ARIES_ASSERT(InSelInRange_A, 32'(in_sel_i) < NumLinks)
  `ARIES_ASSERT(OutSelInRange_A, 32'(out_sel_i) < NumLinks)
  `ARIES_ASSERT(NoFlitOnUnselectedLink_A, stray_flit == '0)
  `ARIES_ASSERT(NoCreditOnUnselectedLink_A, stray_credit == '0)
endmodule
