// aries_pkg: the one vocabulary of ARIES-sim hardware.
//
// Flit layout, port numbering, topology and collective opcodes, and the configuration register
// map of the router. The C++ view is rtl/pkg/aries_pkg.h; tests/pkg/pkg_view_test.cc proves the
// two equal through the Verilated probe tests/rtl/aries_pkg_probe.sv.
//
// Rules (see ../shared/TOOLCHAIN.md): no structs, no `import`, no functions with `return`; every
// field is a localparam offset and width so that Yosys 0.23 and Verilator 5.006 read it the same
// way. Enumerations are localparams; append new values at the end only.
package aries_pkg;

  // ---------------------------------------------------------------------------------------------
  // Widths
  // ---------------------------------------------------------------------------------------------
  /// Width of one payload lane (one fp32 / int32 element).
  localparam int unsigned LaneW = 32;
  /// Width of a virtual-channel index in the flit header (up to 8 VCs).
  localparam int unsigned VcIdW = 3;
  /// Width of a flow / collective id in the flit header (up to 64 flows).
  localparam int unsigned FlowIdW = 6;
  /// Width of one grid coordinate (K up to 32).
  localparam int unsigned CoordW = 5;
  /// Width of a router port index (up to 32 ports; 1 + 2(K-1) = 31 for a 16x16 flattened
  /// butterfly).
  localparam int unsigned PortIdW = 5;
  /// Largest router radix the vocabulary can address.
  localparam int unsigned MaxPorts = 32;
  /// Largest VC count the header can address.
  localparam int unsigned MaxVCs = 8;

  // ---------------------------------------------------------------------------------------------
  // Flit: header in the low 32 bits, payload (Lanes x 32 bit) above it. Every flit of a packet
  // carries the header (a sideband of the wide interposer link), so body flits route like heads.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned HdrHeadBit = 0;   ///< 1 on the first flit of a packet
  localparam int unsigned HdrTailBit = 1;   ///< 1 on the last flit (head & tail = single flit)
  localparam int unsigned HdrVcLsb = 2;     ///< VC the flit travels on over this link
  localparam int unsigned HdrIsFlowBit = 5; ///< 1: route by table (flow id); 0: dimension order
  localparam int unsigned HdrFlowLsb = 6;   ///< [11:6] flow / collective id
  localparam int unsigned HdrDstXLsb = 12;  ///< [16:12] destination column (dimension order)
  localparam int unsigned HdrDstYLsb = 17;  ///< [21:17] destination row
  localparam int unsigned HdrSrcXLsb = 22;  ///< [26:22] source column (bookkeeping, not routed on)
  localparam int unsigned HdrSrcYLsb = 27;  ///< [31:27] source row
  localparam int unsigned HdrW = 32;        ///< header width; payload starts here

  // ---------------------------------------------------------------------------------------------
  // Ports of a mesh / torus / ARIES router. A flattened-butterfly router numbers its ports
  // LOCAL, then the K-1 row neighbours by column, then the K-1 column neighbours by row.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned PortLocal = 0;  ///< local endpoint
  localparam int unsigned PortXP = 1;     ///< +x (east)
  localparam int unsigned PortXM = 2;     ///< -x (west)
  localparam int unsigned PortYP = 3;     ///< +y (north)
  localparam int unsigned PortYM = 4;     ///< -y (south)
  localparam int unsigned NumMeshPorts = 5;

  // ---------------------------------------------------------------------------------------------
  // Topology of the dimension-order routing function (CTRL.TOPO).
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned TopoMesh = 0;   ///< 2D mesh (ARIES uses it with bypass segments)
  localparam int unsigned TopoTorus = 1;  ///< 2D torus, dateline VC classes (needs >= 2 VCs)
  localparam int unsigned TopoFbfly = 2;  ///< 2D flattened butterfly (HyperX)
  localparam int unsigned NumTopos = 3;

  // ---------------------------------------------------------------------------------------------
  // Collective opcodes (used by the collective engine). Append only.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned OpAddI32 = 0;
  localparam int unsigned OpMulI32 = 1;
  localparam int unsigned OpMinI32 = 2;
  localparam int unsigned OpMaxI32 = 3;
  localparam int unsigned OpAddF32 = 4;
  localparam int unsigned OpMulF32 = 5;
  localparam int unsigned OpMinF32 = 6;
  localparam int unsigned OpMaxF32 = 7;
  localparam int unsigned OpAnd = 8;
  localparam int unsigned OpOr = 9;
  localparam int unsigned OpXor = 10;
  localparam int unsigned NumOps = 11;
  localparam int unsigned OpW = 4;

  // The configuration registers of router, node and collective engine: addresses, fields and
  // their constants, generated from rtl/regs/aries_regs.json (rtl/regs/gen_regs.py).
`include "aries_regs.svh"

  // ---------------------------------------------------------------------------------------------
  // Collective flits (single-flit packets, head = tail = 1, is_flow = 1): the flow field is
  // the collective id; the destination and source fields carry the operation and a sequence
  // number (the flit's index in its id's stream, modulo 4096) instead, since collective flits
  // are steered by the engines' configuration, not by coordinates.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned CollHdrOpLsb = 16;   ///< [19:16] operation (Op*)
  localparam int unsigned CollHdrSeqLsb = 20;  ///< [31:20] sequence number
  localparam int unsigned CollSeqW = 12;

endpackage
