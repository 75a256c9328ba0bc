// aries_coll_tree: the collective engine's reduction unit, a pipelined binary tree of lane ALUs
// (PIUMA: "a pipelined tree of units to compute high radix reductions at line rate with
// logarithmic latency").
//
// N input slots with valid bits; level l combines slot pairs (2i, 2i+1) of level l-1: both
// valid -> a (op) b with a the lower slot, one valid -> that one passes unchanged, none ->
// invalid. The association is therefore fixed by the slot positions (the router ports), so a
// given embedding always reduces in the same order and fp results repeat exactly. A single
// valid input passes unchanged (no DAZ, no NaN canonicalisation). collectives/arith.h
// (EngineTreeReduce) computes the same tree.
//
// One register stage per level (the lanes' result registers, or a pass register where one
// input is alone): a result leaves Levels cycles after its inputs enter (Levels =
// ceil(log2 N)); one reduction per cycle, no stall (the engine reserves the output before it
// issues). The side word travels with the data (destination, header fields).
`include "aries_assert.svh"

module aries_coll_tree #(
  /// Input slots (router ports).
  parameter int unsigned N = 5,
  /// 32-bit lanes per flit payload.
  parameter int unsigned Lanes = 16,
  /// Width of the side word carried along.
  parameter int unsigned SideW = 8,
  /// Tree levels (derived; do not override).
  parameter int unsigned Levels = (N > 1) ? $clog2(N) : 1
) (
  /// Clock.
  input  logic                        clk_i,
  /// Asynchronous active-low reset.
  input  logic                        rst_ni,
  /// A reduction enters this cycle.
  input  logic                        issue_i,
  /// Operation (aries_pkg::Op*).
  input  logic [aries_pkg::OpW-1:0]   op_i,
  /// Per slot: takes part.
  input  logic [N-1:0]                in_valid_i,
  /// Per slot: payload, slot s at [s*Lanes*32 +: Lanes*32].
  input  logic [N*Lanes*32-1:0]       in_data_i,
  /// Carried along unchanged.
  input  logic [SideW-1:0]            side_i,
  /// The result of the reduction issued Levels cycles ago.
  output logic                        out_valid_o,
  /// Result payload.
  output logic [Lanes*32-1:0]         out_data_o,
  /// Its side word.
  output logic [SideW-1:0]            out_side_o,
  /// A reduction is inside the tree (in any level's registers).
  output logic                        busy_o
);
  localparam int unsigned PW = Lanes * 32;
  localparam int unsigned Pad = 1 << Levels;

  // Level l (0 = inputs, padded to Pad slots) has Pad >> l slots; stored flat.
  logic [Pad-1:0] lv_valid [Levels+1];
  logic [Pad*PW-1:0] lv_data [Levels+1];
  logic st_valid [Levels+1];                       // a reduction occupies level l
  logic [aries_pkg::OpW-1:0] st_op [Levels+1];
  logic [SideW-1:0] st_side [Levels+1];

  always_comb begin : p_level0
    lv_valid[0] = '0;
    lv_data[0] = '0;
    lv_valid[0][N-1:0] = issue_i ? in_valid_i : '0;
    lv_data[0][N*PW-1:0] = in_data_i;
  end
  assign st_valid[0] = issue_i;
  assign st_op[0] = op_i;
  assign st_side[0] = side_i;

  for (genvar l = 1; l <= Levels; l++) begin : gen_level
    localparam int unsigned Slots = Pad >> l;
    logic [Slots*PW-1:0] c_data;
    for (genvar s = 0; s < Slots; s++) begin : gen_slot
      logic va, vb, both, both_q;
      logic [PW-1:0] da, db, dy, pass_q;
      assign va = lv_valid[l-1][2*s];
      assign vb = lv_valid[l-1][2*s+1];
      assign da = lv_data[l-1][(2*s)*PW +: PW];
      assign db = lv_data[l-1][(2*s+1)*PW +: PW];
      assign both = st_valid[l-1] && va && vb;
      // Both present: the lanes compute into their registers; one present: it passes.
      for (genvar k = 0; k < Lanes; k++) begin : gen_lane
        aries_coll_lane u_lane (
          .clk_i,
          .en_i(both),
          .op_i(st_op[l-1]),
          .a_i (da[k*32 +: 32]),
          .b_i (db[k*32 +: 32]),
          .y_o (dy[k*32 +: 32])
        );
      end
      always_ff @(posedge clk_i) begin : p_pass
        if (st_valid[l-1]) begin
          both_q <= both;
          if (!both) pass_q <= va ? da : db;
        end
      end
      assign c_data[s*PW +: PW] = both_q ? dy : pass_q;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_valid
      if (!rst_ni) begin
        st_valid[l] <= 1'b0;
        lv_valid[l] <= '0;
      end else begin
        st_valid[l] <= st_valid[l-1];
        lv_valid[l] <= '0;
        for (int unsigned s = 0; s < Slots; s++) begin
          lv_valid[l][s] <= st_valid[l-1] &&
                            (lv_valid[l-1][2*s] || lv_valid[l-1][2*s+1]);
        end
      end
    end
    always_ff @(posedge clk_i) begin : p_side
      if (st_valid[l-1]) begin
        st_op[l] <= st_op[l-1];
        st_side[l] <= st_side[l-1];
      end
    end
    always_comb begin : p_data
      lv_data[l] = '0;
      lv_data[l][Slots*PW-1:0] = c_data;
    end
  end

  assign out_valid_o = st_valid[Levels];
  always_comb begin : p_busy
    busy_o = 1'b0;
    for (int unsigned l = 1; l <= Levels; l++) busy_o = busy_o || st_valid[l];
  end
  assign out_data_o = lv_data[Levels][PW-1:0];
  assign out_side_o = st_side[Levels];

  `ARIES_ASSERT_INIT(NLegal_A, N >= 1 && N <= aries_pkg::MaxPorts)
  logic root_valid;  // (an array element inside an assertion trips Verilator 5.006)
  assign root_valid = lv_valid[Levels][0];
  `ARIES_ASSERT(ResultHasAnInput_A, out_valid_o |-> root_valid)
endmodule
