// aries_router_xbar: NumPorts x NumPorts crossbar of the ARIES router.
//
// Output o carries the flit of input gnt_idx_i[o]. Combinational; an input may feed several
// outputs in one cycle (multicast). Whether an output is used is decided by its grant valid in
// aries_router_output, so the crossbar itself holds no state.
module aries_router_xbar #(
  /// Router radix.
  parameter int unsigned NumPorts = 5,
  /// Flit width.
  parameter int unsigned FlitW = 64,
  /// Width of an input index (derived; do not override).
  parameter int unsigned SelW = $clog2(NumPorts)
) (
  /// Flits offered by the inputs, input i at [i*FlitW +: FlitW].
  input  logic [NumPorts*FlitW-1:0] in_flit_i,
  /// Input selected by each output, output o at [o*SelW +: SelW].
  input  logic [NumPorts*SelW-1:0]  gnt_idx_i,
  /// Flits at the outputs.
  output logic [NumPorts*FlitW-1:0] out_flit_o
);
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    assign out_flit_o[o*FlitW +: FlitW] = in_flit_i[32'(gnt_idx_i[o*SelW +: SelW])*FlitW +: FlitW];
  end
endmodule
