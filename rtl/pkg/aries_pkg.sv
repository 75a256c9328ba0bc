// aries_pkg: the one vocabulary of ARIES-sim hardware.
//
// Flit layout, port numbering, topology and collective opcodes, and the configuration register
// map of the router. The C++ view is rtl/pkg/aries_pkg.h; tests/pkg/pkg_view_test.cc proves the
// two equal through the Verilated probe tests/rtl/aries_pkg_probe.sv.
//
// Rules (see TOOLCHAIN.md): no structs, no `import`, no functions with `return`; every field is
// a localparam offset and width so that Yosys 0.23 and Verilator 5.006 read it the same way.
// Enumerations are localparams; append new values at the end only.
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

  // ---------------------------------------------------------------------------------------------
  // Router configuration register map (word addresses on the 16-bit config bus, 32-bit data).
  // Access: one request a cycle; the response (read data, error) comes the next cycle.
  // An unmapped address, a write to a read-only register or an illegal value returns an error
  // and changes nothing.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned CfgAddrW = 16;
  localparam int unsigned CfgDataW = 32;

  localparam int unsigned RegId = 32'h0000;           ///< RO: RouterIdValue
  localparam int unsigned RegNumPorts = 32'h0001;     ///< RO: NumPorts parameter
  localparam int unsigned RegNumVcs = 32'h0002;       ///< RO: NumVCs parameter
  localparam int unsigned RegBufferDepth = 32'h0003;  ///< RO: BufferDepth parameter
  localparam int unsigned RegNumFlows = 32'h0004;     ///< RO: NumFlows parameter
  localparam int unsigned RegLanes = 32'h0005;        ///< RO: Lanes parameter
  localparam int unsigned RegCtrl = 32'h0008;         ///< RW: topology and grid size
  localparam int unsigned RegStatus = 32'h0009;       ///< RO, write 1 to clear: sticky errors
  localparam int unsigned RegErrInfo = 32'h000A;      ///< RO: flow and port of the last miss
  localparam int unsigned RegMissCount = 32'h000B;    ///< RO: routing-table misses (dropped)
  localparam int unsigned RegOutIdle = 32'h000C;      ///< RO: per output, no VC owned + credits home
  localparam int unsigned RegInEmpty = 32'h000D;      ///< RO: per input, VC buffers empty
  localparam int unsigned RegPassthruBase = 32'h0020; ///< RW: +port, circuit pass-through
  localparam int unsigned RegInFlitsBase = 32'h0040;  ///< RO: +port, flits accepted
  localparam int unsigned RegOutFlitsBase = 32'h0060; ///< RO: +port, flits sent
  localparam int unsigned RegRouteBase = 32'h8000;    ///< RW: + flow*32 + inport, out-port mask

  localparam int unsigned RouterIdValue = 32'hA21E_5002;  ///< "ARIES" router, layout v2 (5-bit coordinates)

  // CTRL fields
  localparam int unsigned CtrlTopoLsb = 0;     ///< [1:0] topology (Topo*)
  localparam int unsigned CtrlTopoW = 2;
  localparam int unsigned CtrlSizeXLsb = 8;    ///< [12:8] columns - 1
  localparam int unsigned CtrlSizeYLsb = 16;   ///< [20:16] rows - 1
  localparam int unsigned CtrlDynVcBit = 4;    ///< [4] dynamic VC allocation of DOR packets
  localparam int unsigned CtrlMask = 32'h001F_1F13;

  // STATUS bits (sticky, write 1 to clear)
  localparam int unsigned StatusMissBit = 0;      ///< a flow flit found no table entry
  localparam int unsigned StatusOverflowBit = 1;  ///< a flit arrived at a full VC buffer
  localparam int unsigned StatusCfgErrBit = 2;    ///< a config access was refused
  localparam int unsigned StatusCreditErrBit = 3; ///< a credit counter over- or underflowed
  localparam int unsigned StatusMask = 32'h0000_000F;

  // ERR_INFO fields (last routing-table miss)
  localparam int unsigned ErrInfoFlowLsb = 0;   ///< [5:0] flow id
  localparam int unsigned ErrInfoPortLsb = 16;  ///< [20:16] input port

  // PASSTHRU[port] fields
  localparam int unsigned PassEnBit = 0;       ///< enable the circuit from this input
  localparam int unsigned PassOutLsb = 8;      ///< [12:8] output port of the circuit
  localparam int unsigned PassMask = 32'h0000_1F01;

  // ROUTE[flow][inport] address fields
  localparam int unsigned RouteInportLsb = 0;  ///< address [4:0]
  localparam int unsigned RouteFlowLsb = 5;    ///< address [14:5]; address [15] selects the table
  localparam int unsigned RouteFlowW = 10;     ///< the address's flow field (wider than FlowIdW:
                                               ///< a flow beyond NumFlows is refused, not aliased)

  // ---------------------------------------------------------------------------------------------
  // Chiplet node registers (aries_node), on the same bus: addresses 0x0100-0x01FF belong to the
  // node, every other address to its router.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned NodeRegPage = 32'h01;       ///< cfg_addr[15:8] of the node registers
  localparam int unsigned RegNodeId = 32'h0100;       ///< RO: NodeIdValue
  localparam int unsigned RegNodeTracks = 32'h0101;   ///< RO: bypass tracks per row and column
  localparam int unsigned RegNodeLinks = 32'h0102;    ///< RO: interposer links of the node
  localparam int unsigned RegPortSelBase = 32'h0110;  ///< RW: +port (1..4), link of the port
  localparam int unsigned RegBypass = 32'h0120;       ///< RW: bypass switch cut bits
  localparam int unsigned RegNodeStatus = 32'h0121;   ///< RO, write 1 to clear: node errors

  localparam int unsigned NodeIdValue = 32'hA21E_0D01;  ///< "ARIES" node, layout v1
  localparam int unsigned MaxTracks = 7;                ///< a link choice fits in 4 bits

  // PORTSEL[port] fields. A choice is 0 (the port's mesh link), 1+t (x-bypass track t) or
  // 1+T+t (y-bypass track t); a + port (XP, YP) takes the upper side of the track at this node,
  // a - port (XM, YM) the lower side.
  localparam int unsigned PortSelInLsb = 0;    ///< [3:0] link feeding the router input
  localparam int unsigned PortSelOutLsb = 8;   ///< [11:8] link driven by the router output
  localparam int unsigned PortSelChoiceW = 4;
  localparam int unsigned PortSelMask = 32'h0000_0F0F;

  // BYPASS fields: bit t cuts x-track t at this node, bit 16+t cuts y-track t.
  localparam int unsigned BypassXLsb = 0;
  localparam int unsigned BypassYLsb = 16;

  // NODE_STATUS bits (sticky, write 1 to clear)
  localparam int unsigned NodeStatusStrayFlitBit = 0;    ///< a flit arrived on an unowned link
  localparam int unsigned NodeStatusStrayCreditBit = 1;  ///< a credit arrived on an unowned link
  localparam int unsigned NodeStatusCfgErrBit = 2;       ///< a node register access was refused
  localparam int unsigned NodeStatusMask = 32'h0000_0007;

  // ---------------------------------------------------------------------------------------------
  // Collective flits (single-flit packets, head = tail = 1, is_flow = 1): the flow field is
  // the collective id; the destination and source fields carry the operation and a sequence
  // number (the flit's index in its id's stream, modulo 4096) instead, since collective flits
  // are steered by the engines' configuration, not by coordinates.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned CollHdrOpLsb = 16;   ///< [19:16] operation (Op*)
  localparam int unsigned CollHdrSeqLsb = 20;  ///< [31:20] sequence number
  localparam int unsigned CollSeqW = 12;

  // ---------------------------------------------------------------------------------------------
  // Collective engine registers (aries_coll_engine), addresses 0x0200-0x02FF.
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned EngRegPage = 32'h02;         ///< cfg_addr[15:8] of the engine
  localparam int unsigned RegEngId = 32'h0200;         ///< RO: EngIdValue
  localparam int unsigned RegEngParams = 32'h0201;     ///< RO: [7:0] ids, [15:8] program depth, [23:16] queue depth, [28:24] ports
  localparam int unsigned RegEngCtrl = 32'h0202;       ///< W: [0] start request program, [1] start response program; R: running bits
  localparam int unsigned RegEngStatus = 32'h0203;     ///< RO, write 1 to clear: engine errors
  localparam int unsigned RegEngErrInfo = 32'h0204;    ///< RO: last dropped flit: [5:0] id, [20:16] port, [24] class
  localparam int unsigned RegEngReqLen = 32'h0205;     ///< RW: request program [7:0] steps, [31:16] passes
  localparam int unsigned RegEngRspLen = 32'h0206;     ///< RW: response program, same fields
  localparam int unsigned RegEngDropped = 32'h0207;    ///< RO: flits dropped on errors
  localparam int unsigned RegEngReqProgBase = 32'h0220; ///< RW: + step, collective id
  localparam int unsigned RegEngRspProgBase = 32'h0240; ///< RW: + step, collective id
  localparam int unsigned RegEngIdBase = 32'h0280;     ///< per id: + 8*id + IdReg*
  localparam int unsigned EngIdStride = 8;
  localparam int unsigned EngIdValue = 32'hA21E_CE01;  ///< "ARIES" collective engine, layout v1
  localparam int unsigned EngMaxIds = 16;              ///< per-id registers fit the page
  localparam int unsigned EngMaxProg = 32;             ///< program steps fit their windows

  // Per-id registers (offset from RegEngIdBase + 8*id)
  localparam int unsigned IdRegCfg = 0;      ///< RW: [3:0] operation, [8] enable
  localparam int unsigned IdRegCount = 1;    ///< RW: [15:0] flits per program step (>= 1)
  localparam int unsigned IdRegReqIn = 2;    ///< RW: [ports-1:0] inputs reduced (bit 0 = local)
  localparam int unsigned IdRegReqOut = 3;   ///< RW: [4:0] port the result leaves by, or EngTurn
  localparam int unsigned IdRegRspIn = 4;    ///< RW: [4:0] port the response comes from, or EngTurn
  localparam int unsigned IdRegRspOut = 5;   ///< RW: [ports-1:0] ports the response goes to
  localparam int unsigned IdRegReqDone = 6;  ///< RO: flits the request stage produced
  localparam int unsigned IdRegRspDone = 7;  ///< RO: flits the response stage sent
  localparam int unsigned IdCfgOpLsb = 0;
  localparam int unsigned IdCfgEnBit = 8;
  localparam int unsigned IdCfgMask = 32'h0000_010F;
  localparam int unsigned EngTurn = 31;      ///< request result turns into this engine's responses

  // ENG_CTRL bits
  localparam int unsigned EngCtrlReqBit = 0;
  localparam int unsigned EngCtrlRspBit = 1;

  // ENG_STATUS bits (sticky, write 1 to clear)
  localparam int unsigned EngStatusUnknownIdBit = 0;  ///< a flit of an id not enabled (dropped)
  localparam int unsigned EngStatusOpBit = 1;         ///< a flit's operation differs (dropped)
  localparam int unsigned EngStatusSeqBit = 2;        ///< a flit out of sequence (dropped)
  localparam int unsigned EngStatusIdleBit = 3;       ///< a flit while its class runs no program (dropped)
  localparam int unsigned EngStatusCfgErrBit = 4;     ///< an engine register access was refused
  localparam int unsigned EngStatusMask = 32'h0000_001F;

endpackage
