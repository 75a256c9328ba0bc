// aries_fifo: first-word-fall-through FIFO held in a memory indexed by read/write pointers.
//
// Protocol: valid/ready on both sides. A word pushed in cycle t is visible at the output in
// cycle t+1 (no same-cycle fall-through: the output never depends combinationally on the
// input). Push and pop in the same cycle are allowed when neither full nor empty. Depth need
// not be a power of two. Limitations: Depth >= 1.
`include "aries_assert.svh"

module aries_fifo #(
  /// Width of one word.
  parameter int unsigned Width = 8,
  /// Number of words the FIFO holds.
  parameter int unsigned Depth = 4,
  /// Width of the fill level (derived; do not override).
  parameter int unsigned CountW = $clog2(Depth + 1)
) (
  /// Clock.
  input  logic              clk_i,
  /// Asynchronous active-low reset.
  input  logic              rst_ni,
  /// Input word is valid.
  input  logic              valid_i,
  /// FIFO can take a word (not full).
  output logic              ready_o,
  /// Input word.
  input  logic [Width-1:0]  data_i,
  /// Output word is valid (not empty).
  output logic              valid_o,
  /// Consumer takes the output word.
  input  logic              ready_i,
  /// Output word (the oldest stored).
  output logic [Width-1:0]  data_o,
  /// Number of stored words.
  output logic [CountW-1:0] count_o
);
  localparam int unsigned PtrW = (Depth > 1) ? $clog2(Depth) : 1;
  localparam logic [PtrW-1:0] LastPtr = PtrW'(Depth - 1);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0] wr_ptr_q, wr_ptr_d, rd_ptr_q, rd_ptr_d;
  logic [CountW-1:0] count_q, count_d;
  logic push, pop;

  assign ready_o = (count_q != CountW'(Depth));
  assign valid_o = (count_q != '0);
  assign data_o  = mem_q[rd_ptr_q];
  assign count_o = count_q;
  assign push = valid_i && ready_o;
  assign pop = valid_o && ready_i;

  always_comb begin : p_next
    wr_ptr_d = wr_ptr_q;
    rd_ptr_d = rd_ptr_q;
    count_d = count_q;
    if (push) wr_ptr_d = (wr_ptr_q == LastPtr) ? '0 : wr_ptr_q + 1'b1;
    if (pop) rd_ptr_d = (rd_ptr_q == LastPtr) ? '0 : rd_ptr_q + 1'b1;
    if (push && !pop) count_d = count_q + 1'b1;
    else if (pop && !push) count_d = count_q - 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_ptrs
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      count_q <= '0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      count_q <= count_d;
    end
  end

  // The storage has no reset: a memory, not a shift register.
  always_ff @(posedge clk_i) begin : p_mem
    if (push) mem_q[wr_ptr_q] <= data_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(DepthLegal_A, Depth >= 1)
  `ARIES_ASSERT(CountInRange_A, count_q <= CountW'(Depth))
  `ARIES_ASSERT(PtrsInRange_A, wr_ptr_q <= LastPtr && rd_ptr_q <= LastPtr)
  `ARIES_ASSERT(CountMatchesPtrs_A,
                (count_q == '0 || count_q == CountW'(Depth)) ? (wr_ptr_q == rd_ptr_q)
                                                             : (wr_ptr_q != rd_ptr_q))
endmodule
