// aries_coll_seq: the program sequencer of one stage (request or response) of the collective
// engine. A program is `len_i` steps of collective ids (prog_i, step i at [i*IdW +: IdW]),
// repeated `passes_i` times; step i moves ID_COUNT flits of its id (count_i, id j at
// [j*CntW +: CntW]). start_i (an accepted ENG_CTRL start bit) loads the first step; every
// issue_i counts one flit of the current step down, moves to the next step, to the next pass,
// or stops the program. Two processes: the next state (p_next), the registers (p_state).
`include "aries_assert.svh"

module aries_coll_seq #(
  /// Collective ids with their own registers.
  parameter int unsigned NumIds = 8,
  /// Steps per program.
  parameter int unsigned ProgDepth = 8,
  /// Width of a step's flit count (ID_COUNT).
  parameter int unsigned CntW = 16,
  /// Id width (derived; do not override).
  parameter int unsigned IdW = (NumIds > 1) ? $clog2(NumIds) : 1
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset.
  input  logic                      rst_ni,
  /// Start the program (only while it is not running: the register block checks it).
  input  logic                      start_i,
  /// The stage issued one flit of the current step.
  input  logic                      issue_i,
  /// The program: step i's id at [i*IdW +: IdW].
  input  logic [ProgDepth*IdW-1:0]  prog_i,
  /// Steps in the program.
  input  logic [7:0]                len_i,
  /// Times the program runs.
  input  logic [15:0]               passes_i,
  /// Flits per step of each id: id j's at [j*CntW +: CntW].
  input  logic [NumIds*CntW-1:0]    count_i,
  /// The program runs.
  output logic                      run_o,
  /// The current step's id.
  output logic [IdW-1:0]            cur_o
);
  localparam int unsigned PtrW = (ProgDepth > 1) ? $clog2(ProgDepth) : 1;

  logic run_q, run_d;
  logic [PtrW-1:0] ptr_q, ptr_d;
  logic [15:0] pass_left_q, pass_left_d;
  logic [CntW-1:0] left_q, left_d;

  // The first step's id and the next step's (read only while the next step exists).
  logic [IdW-1:0] first_id, next_id;
  assign first_id = prog_i[IdW-1:0];
  assign next_id = prog_i[(32'(ptr_q) + 1)*IdW +: IdW];
  logic [CntW-1:0] first_count, next_count;
  assign first_count = count_i[32'(first_id)*CntW +: CntW];
  assign next_count = count_i[32'(next_id)*CntW +: CntW];

  assign cur_o = prog_i[32'(ptr_q)*IdW +: IdW];
  assign run_o = run_q;

  always_comb begin : p_next
    run_d = run_q;
    ptr_d = ptr_q;
    pass_left_d = pass_left_q;
    left_d = left_q;
    if (start_i) begin
      run_d = 1'b1;
      ptr_d = '0;
      pass_left_d = passes_i;
      left_d = first_count;
    end else if (issue_i) begin
      if (left_q > CntW'(1)) begin
        left_d = left_q - 1'b1;
      end else if (32'(ptr_q) + 1 < 32'(len_i)) begin
        ptr_d = ptr_q + 1'b1;
        left_d = next_count;
      end else if (pass_left_q > 16'd1) begin
        ptr_d = '0;
        pass_left_d = pass_left_q - 1'b1;
        left_d = first_count;
      end else begin
        run_d = 1'b0;
        ptr_d = '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      run_q <= 1'b0;
      ptr_q <= '0;
      pass_left_q <= '0;
      left_q <= '0;
    end else begin
      run_q <= run_d;
      ptr_q <= ptr_d;
      pass_left_q <= pass_left_d;
      left_q <= left_d;
    end
  end

  `ARIES_ASSERT_INIT(SizesLegal_A, NumIds >= 1 && ProgDepth >= 1 && ProgDepth <= 256)
  `ARIES_ASSERT(IssueOnlyWhileRunning_A, issue_i |-> run_q)
  `ARIES_ASSERT(StartOnlyWhenStopped_A, start_i |-> !run_q)
  `ARIES_ASSERT(PointerInProgram_A, run_q |-> (32'(ptr_q) < 32'(len_i)))
endmodule
