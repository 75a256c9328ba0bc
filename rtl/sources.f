// Ordered RTL source list: package, includes (via +incdir), primitives, blocks, tops.
// Read by CMake (verilate, lint) and synth_scripts/ (Yosys). Paths relative to rtl/.
pkg/aries_pkg.sv
prim/aries_fifo.sv
prim/aries_rr_arb.sv
prim/aries_stream_mux.sv
prim/aries_stream_demux.sv
prim/aries_credit_cnt.sv
prim/aries_reg_rsp.sv
router/aries_route_compute.sv
router/aries_router_input.sv
router/aries_router_output.sv
router/aries_router_xbar.sv
router/aries_router_regs.sv
router/aries_router.sv
port_mux/aries_port_mux.sv
bypass_switch/aries_bypass_switch.sv
bypass_switch/aries_bypass_track.sv
coll_engine/aries_coll_lane.sv
coll_engine/aries_coll_tree.sv
coll_engine/aries_coll_seq.sv
coll_engine/aries_coll_engine_regs.sv
coll_engine/aries_coll_engine.sv
node/aries_node.sv
