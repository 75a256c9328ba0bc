// aries_reg_rsp: the response stage of a register block, the one shape the router's, the
// node's and the collective engine's register blocks share. A block decodes one request per
// cycle combinationally (ok_i: the access is legal; rdata_i: the read value) and this stage
// answers it the next cycle: rsp_o, with err_o for a refused access, and the read data of an
// accepted read (zero for writes and refusals, so the node can OR the blocks' answers).
// refused_o is the same cycle's refusal, for the block to set its STATUS.CFG_ERR.
`include "aries_assert.svh"

module aries_reg_rsp #(
  /// Data width of the bus.
  parameter int unsigned DataW = aries_pkg::CfgDataW
) (
  /// Clock.
  input  logic             clk_i,
  /// Asynchronous active-low reset.
  input  logic             rst_ni,
  /// A request to this block this cycle.
  input  logic             req_i,
  /// 1: write, 0: read.
  input  logic             we_i,
  /// The block accepts the access.
  input  logic             ok_i,
  /// The value a read returns.
  input  logic [DataW-1:0] rdata_i,
  /// Refused this cycle (req_i && !ok_i).
  output logic             refused_o,
  /// Response (one cycle after the request).
  output logic             rsp_o,
  /// Read data of an accepted read, else zero.
  output logic [DataW-1:0] rdata_o,
  /// The request was refused.
  output logic             err_o
);
  assign refused_o = req_i && !ok_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_rsp
    if (!rst_ni) begin
      rsp_o <= 1'b0;
      rdata_o <= '0;
      err_o <= 1'b0;
    end else begin
      rsp_o <= req_i;
      rdata_o <= (req_i && ok_i && !we_i) ? rdata_i : '0;
      err_o <= refused_o;
    end
  end

  `ARIES_ASSERT(ErrOnlyWithRsp_A, err_o |-> rsp_o)
  `ARIES_ASSERT(DataOnlyWithRsp_A, (rdata_o != '0) |-> (rsp_o && !err_o))
endmodule
