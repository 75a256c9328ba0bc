// aries_assert.svh: assertion macros of ARIES-sim. They expand to nothing under SYNTHESIS
// (Yosys defines it), so every block can end with an assertions section that costs no cells.
//
//   `ARIES_ASSERT(Name_A, prop)          concurrent property at posedge clk_i, off in reset
//   `ARIES_ASSERT_INIT(Name_A, cond)     elaboration-time check of parameters
//
// The simulator (5.006) supports `|->`, `|=>`, $past, $stable, $onehot0 inside `prop`
// (../shared/TOOLCHAIN.md).
`ifndef ARIES_ASSERT_SVH
`define ARIES_ASSERT_SVH

`ifndef SYNTHESIS
`define ARIES_ASSERT(__name, __prop) \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__prop)) \
    else $error("%m: %s violated", `"__name`");

`define ARIES_ASSERT_INIT(__name, __cond) \
  initial begin : __name \
    assert (__cond) else $fatal(1, "%m: parameter check %s failed", `"__name`"); \
  end
`else
`define ARIES_ASSERT(__name, __prop)
`define ARIES_ASSERT_INIT(__name, __cond)
`endif

`endif  // ARIES_ASSERT_SVH
