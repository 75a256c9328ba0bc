// aries_node: one chiplet's network node: the router, the port muxes of its four directional
// ports (ARIES III-B), the node configuration registers and the endpoint interface.
//
// Links. The node meets the interposer through NumLinks bidirectional links, each a flit wire
// (valid + flit) one way and NumVCs credit wires the other way, per direction:
//   * NumPorts = 5 with NumTracks > 0 (mesh, torus, ARIES): links 0..3 are the mesh links of
//     ports XP, XM, YP, YM; link 4 + d*2T + 2t + s is the tap of bypass track t of dimension d
//     (0 x, 1 y) on side s (0: the segment towards row/column 0, 1: the other one). Each
//     directional port takes one link per direction, chosen by its PORTSEL register: its mesh
//     link, x-track t or y-track t, where a + port (XP, YP) taps the upper side and a - port
//     (XM, YM) the lower side of the track at this node (so the + ports share the upper taps).
//   * otherwise (flattened butterfly, or no tracks): link l is router port l+1, fixed.
// Local ports (LocalPorts = 1, 2 or 4): the endpoint meets the node through LocalPorts ports
// (ep_*, port i at bit i / [i*FlitW +: FlitW] / [i*LinkVCs +: LinkVCs]): router port 0 and the
// router's last LocalPorts - 1 ports (NumPorts .. NumPorts + LocalPorts - 2), so a chiplet can
// inject and eject LocalPorts flits per cycle. Only local port 0 meets the collective engine:
// the engine issues one reduction and one response per cycle, which one port already carries,
// so the extra local ports carry the router's VCs only (their collective VCs get no credits; a
// flit on one reaches the router as a VC overflow).
//
// Collective engine (CollEngine = 1, rtl/coll_engine): links carry LinkVCs = NumVCs + 2 VCs;
// VCs 0..NumVCs-1 are the router's (point-to-point), VC NumVCs carries collective requests and
// NumVCs+1 collective responses. Between each port (mux or endpoint) and the router, flits of
// the collective VCs go to the engine instead of the router, credits of the two sides are
// merged per VC, and the engine's results take the port's output with priority: the cycle
// before, the engine holds the router's allocation off that output (out_hold_i).
//
// Bypass switches: the BYPASS register holds the cut bit of every track at this node and drives
// bypass_o; the switches (aries_bypass_switch) sit on the passive interposer, which joins the
// taps of consecutive cutting nodes into a segment.
//
// Registers (aries_pkg Reg*; addresses 0x0100-0x01FF here, 0x0200-0x02FF the collective engine,
// all others the router):
//   NODE_ID, NODE_TRACKS, NODE_LINKS (RO); PORTSEL[1..4] (RW); BYPASS (RW); NODE_STATUS (W1C).
// Refused with cfg_err_o, changing nothing but NODE_STATUS.CFG_ERR: an unmapped address, a write
// to a read-only register, reserved bits, a choice >= 1 + 2*NumTracks, a PORTSEL write on a node
// without muxes, taking a link direction another port owns, taking a track not cut here, a
// change of a port side that is not quiet (input: nothing buffered, arriving or open; output:
// no VC owned and every credit home), a BYPASS change of a track a port of this node uses.
//
// Errors: a flit or credit arriving on a link direction no port owns is dropped and sets
// NODE_STATUS (STRAY_FLIT, STRAY_CREDIT); err_o = router error | node error.
// idle_o: nothing buffered and nothing leaving or answering; a clock edge whose inputs carry
// no flit, credit or register request then changes no state (the package skips such nodes).
`include "aries_assert.svh"

module aries_node #(
  /// Router radix without the extra local ports (5: mesh, torus, ARIES; 1 + 2(K-1): flattened
  /// butterfly).
  parameter int unsigned NumPorts = 5,
  /// Local (endpoint) ports: 1, 2 or 4 (the router gets LocalPorts - 1 more ports).
  parameter int unsigned LocalPorts = 1,
  /// Virtual channels per port.
  parameter int unsigned NumVCs = 4,
  /// Flits per VC buffer.
  parameter int unsigned BufferDepth = 32,
  /// 32-bit payload lanes per flit.
  parameter int unsigned Lanes = 16,
  /// Routing-table flows.
  parameter int unsigned NumFlows = 64,
  /// Bypass tracks per row and per column (0: no port muxes).
  parameter int unsigned NumTracks = 2,
  /// 1: a collective engine beside the router (two more link VCs).
  parameter int unsigned CollEngine = 1,
  /// Collective ids of the engine.
  parameter int unsigned CollIds = 8,
  /// Steps per engine program.
  parameter int unsigned CollProg = 8,
  /// Flits per engine input queue (per port and class); also its credits per output.
  parameter int unsigned CollDepth = 32,
  /// Flit width (derived; do not override).
  parameter int unsigned FlitW = aries_pkg::HdrW + aries_pkg::LaneW * Lanes,
  /// 1 when the directional ports have muxes (derived; do not override).
  parameter int unsigned Muxed = (NumPorts == aries_pkg::NumMeshPorts && NumTracks > 0) ? 1 : 0,
  /// Interposer links of the node (derived; do not override).
  parameter int unsigned NumLinks = NumPorts - 1 + ((Muxed != 0) ? 4 * NumTracks : 0),
  /// VCs on the links (derived; do not override).
  parameter int unsigned LinkVCs = NumVCs + ((CollEngine != 0) ? 2 : 0),
  /// Router radix with the extra local ports (derived; do not override).
  parameter int unsigned RPorts = NumPorts + LocalPorts - 1
) (
  /// Clock.
  input  logic                           clk_i,
  /// Asynchronous active-low reset.
  input  logic                           rst_ni,
  /// Column of this node.
  input  logic [aries_pkg::CoordW-1:0]   node_x_i,
  /// Row of this node.
  input  logic [aries_pkg::CoordW-1:0]   node_y_i,
  // Endpoint (the local ports, i = 0 .. LocalPorts-1).
  /// Endpoint -> router: a flit on local port i.
  input  logic [LocalPorts-1:0]          ep_in_valid_i,
  /// Endpoint -> router: the flit of local port i ([i*FlitW +: FlitW]).
  input  logic [LocalPorts*FlitW-1:0]    ep_in_flit_i,
  /// Router -> endpoint: credits per link VC of injection port i ([i*LinkVCs + v]).
  output logic [LocalPorts*LinkVCs-1:0]  ep_in_credit_o,
  /// Router -> endpoint: a flit on local port i.
  output logic [LocalPorts-1:0]          ep_out_valid_o,
  /// Router -> endpoint: the flit of local port i.
  output logic [LocalPorts*FlitW-1:0]    ep_out_flit_o,
  /// Endpoint -> router: credits per link VC of ejection port i.
  input  logic [LocalPorts*LinkVCs-1:0]  ep_out_credit_i,
  // Interposer links.
  /// Per link: a flit arrives.
  input  logic [NumLinks-1:0]            lnk_in_valid_i,
  /// Per link: the flit ([l*FlitW +: FlitW]).
  input  logic [NumLinks*FlitW-1:0]      lnk_in_flit_i,
  /// Per link and VC: credits back to the link's sender ([l*LinkVCs + v]).
  output logic [NumLinks*LinkVCs-1:0]    lnk_in_credit_o,
  /// Per link: a flit leaves.
  output logic [NumLinks-1:0]            lnk_out_valid_o,
  /// Per link: the flit.
  output logic [NumLinks*FlitW-1:0]      lnk_out_flit_o,
  /// Per link and VC: credits from the link's receiver.
  input  logic [NumLinks*LinkVCs-1:0]    lnk_out_credit_i,
  /// BYPASS register: cut bits of the switches at this node (x tracks [7:0], y tracks [23:16]).
  output logic [aries_pkg::CfgDataW-1:0] bypass_o,
  /// Configuration request.
  input  logic                           cfg_req_i,
  /// 1: write, 0: read.
  input  logic                           cfg_we_i,
  /// Word address.
  input  logic [aries_pkg::CfgAddrW-1:0] cfg_addr_i,
  /// Write data.
  input  logic [aries_pkg::CfgDataW-1:0] cfg_wdata_i,
  /// Response (one cycle after the request).
  output logic                           cfg_rsp_o,
  /// Read data.
  output logic [aries_pkg::CfgDataW-1:0] cfg_rdata_o,
  /// The request was refused.
  output logic                           cfg_err_o,
  /// Sticky error summary (router STATUS or NODE_STATUS).
  output logic                           err_o,
  /// Nothing buffered, leaving or answering (see above).
  output logic                           idle_o
);
  localparam int unsigned T = NumTracks;
  localparam int NTracks = NumTracks;  // signed loop bound: no constant-compare warning at 0
  localparam int unsigned NumDir = 4;                      // XP, XM, YP, YM
  localparam int unsigned NumChoices = 1 + 2 * T;          // per port, when muxed
  localparam int unsigned CW = aries_pkg::PortSelChoiceW;
  localparam int unsigned LinkIdxW = $clog2(NumLinks + 1);
  localparam int unsigned OwnW = 3;                        // 0: none, 1..4: port

  // ---------------------------------------------------------------------------------------------
  // Link input registers
  // ---------------------------------------------------------------------------------------------
  // Everything that arrives on an interposer link (flits and credits) is registered at the node
  // boundary: it is the last cycle of the link's wire (the package's channels are one cycle
  // shorter, so a link of L wire cycles still takes L + 1 cycles register to register and the
  // link timing is unchanged). No logic of the node then depends combinationally on a link
  // pin: a cycle-based simulator evaluates the port muxes, route computation and buffer writes
  // once per clock edge instead of once for the inputs and again after the edge. The flit
  // register loads only with a valid flit (a datapath register, no reset).
  logic [NumLinks-1:0] lnk_in_valid_q;
  logic [NumLinks*FlitW-1:0] lnk_in_flit_q;
  logic [NumLinks*LinkVCs-1:0] lnk_out_credit_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_lnk_in
    if (!rst_ni) begin
      lnk_in_valid_q <= '0;
      lnk_out_credit_q <= '0;
    end else begin
      lnk_in_valid_q <= lnk_in_valid_i;
      lnk_out_credit_q <= lnk_out_credit_i;
    end
  end
  for (genvar l = 0; l < NumLinks; l++) begin : gen_lnk_flit
    always_ff @(posedge clk_i) begin : p_lnk_flit
      if (lnk_in_valid_i[l]) lnk_in_flit_q[l*FlitW +: FlitW] <= lnk_in_flit_i[l*FlitW +: FlitW];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Router
  // ---------------------------------------------------------------------------------------------
  // rtr_*: the router's pins (RPorts); net_*: what the port side drives into router ports
  // 0 .. NumPorts-1 (the extra local ports come straight from the endpoint registers).
  logic [RPorts-1:0] rtr_in_valid, rtr_out_valid, rtr_hold;
  logic [RPorts*FlitW-1:0] rtr_in_flit, rtr_out_flit;
  logic [RPorts*NumVCs-1:0] rtr_in_credit, rtr_out_credit;
  logic [RPorts-1:0] rtr_in_quiet, rtr_out_quiet, rtr_in_empty;
  logic [NumPorts-1:0] net_in_valid;
  logic [NumPorts*FlitW-1:0] net_in_flit;
  logic [NumPorts*NumVCs-1:0] net_out_credit;
  logic rtr_cfg_req, rtr_cfg_rsp, rtr_cfg_err, rtr_err;
  logic [aries_pkg::CfgDataW-1:0] rtr_cfg_rdata;

  aries_router #(
    .NumPorts   (RPorts),
    .LocalPorts (LocalPorts),
    .NumVCs     (NumVCs),
    .BufferDepth(BufferDepth),
    .Lanes      (Lanes),
    .NumFlows   (NumFlows)
  ) u_router (
    .clk_i,
    .rst_ni,
    .node_x_i,
    .node_y_i,
    .in_valid_i  (rtr_in_valid),
    .in_flit_i   (rtr_in_flit),
    .in_credit_o (rtr_in_credit),
    .out_valid_o (rtr_out_valid),
    .out_flit_o  (rtr_out_flit),
    .out_credit_i(rtr_out_credit),
    .out_hold_i  (rtr_hold),
    .cfg_req_i   (rtr_cfg_req),
    .cfg_we_i,
    .cfg_addr_i,
    .cfg_wdata_i,
    .cfg_rsp_o   (rtr_cfg_rsp),
    .cfg_rdata_o (rtr_cfg_rdata),
    .cfg_err_o   (rtr_cfg_err),
    .err_o       (rtr_err),
    .in_quiet_o  (rtr_in_quiet),
    .out_quiet_o (rtr_out_quiet),
    .in_empty_o  (rtr_in_empty),
    .loc_next_valid_o (rtr_loc_next_valid),
    .loc_next_flit_o  (rtr_loc_next_flit),
    .loc_next_credit_o(rtr_loc_next_credit)
  );

  // ---------------------------------------------------------------------------------------------
  // Port side (the muxes and the endpoint) -> router and collective engine
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned VW = aries_pkg::VcIdW;
  logic [NumPorts-1:0] prt_in_valid, prt_out_valid;
  logic [NumPorts*FlitW-1:0] prt_in_flit, prt_out_flit;
  logic [NumPorts*LinkVCs-1:0] prt_in_credit, prt_out_credit;
  logic [NumPorts-1:0] eng_claim;
  logic eng_cfg_rsp, eng_cfg_err, eng_err, eng_idle;
  logic [aries_pkg::CfgDataW-1:0] eng_cfg_rdata;
  logic eng_sel;
  assign eng_sel = (CollEngine != 0) &&
                   (cfg_addr_i[aries_pkg::CfgAddrW-1:8] == 8'(aries_pkg::EngRegPage));

  // Endpoint = port 0. What the endpoint drives is registered here too; the endpoint runs one
  // cycle ahead of the node's clock (the package calls it with cycle + 1), and what the node
  // drives towards it is taken one cycle ahead as well (the inputs of the router's and the
  // engine's local output and credit registers), so the endpoint sees every flit and credit in
  // the same cycle of its own as without the register.
  logic [LocalPorts-1:0] ep_in_valid_q;
  logic [LocalPorts*FlitW-1:0] ep_in_flit_q;
  logic [LocalPorts*LinkVCs-1:0] ep_out_credit_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_ep_in
    if (!rst_ni) begin
      ep_in_valid_q <= '0;
      ep_out_credit_q <= '0;
    end else begin
      ep_in_valid_q <= ep_in_valid_i;
      ep_out_credit_q <= ep_out_credit_i;
    end
  end
  for (genvar i = 0; i < LocalPorts; i++) begin : gen_ep_flit
    always_ff @(posedge clk_i) begin : p_ep_flit
      if (ep_in_valid_i[i]) ep_in_flit_q[i*FlitW +: FlitW] <= ep_in_flit_i[i*FlitW +: FlitW];
    end
  end
  assign prt_in_valid[0] = ep_in_valid_q[0];
  assign prt_in_flit[0 +: FlitW] = ep_in_flit_q[0 +: FlitW];
  assign prt_out_credit[0 +: LinkVCs] = ep_out_credit_q[0 +: LinkVCs];
  logic [LocalPorts-1:0] rtr_loc_next_valid;
  logic [LocalPorts*FlitW-1:0] rtr_loc_next_flit;
  logic [LocalPorts*NumVCs-1:0] rtr_loc_next_credit;
  // The registered local outputs are not used (the endpoint takes them a cycle ahead).
  logic unused_loc_out_valid;
  logic [FlitW-1:0] unused_loc_out_flit;
  logic [LinkVCs-1:0] unused_loc_in_credit;
  assign unused_loc_out_valid = prt_out_valid[0];
  assign unused_loc_out_flit = prt_out_flit[0 +: FlitW];
  assign unused_loc_in_credit = prt_in_credit[0 +: LinkVCs];

  // The router's pins: ports 0 .. NumPorts-1 from the port side (the engine's claims hold the
  // router off them), the extra local ports straight from and to the endpoint registers.
  always_comb begin : p_rtr_pins
    rtr_in_valid = '0;
    rtr_in_flit = '0;
    rtr_out_credit = '0;
    rtr_hold = '0;
    rtr_in_valid[NumPorts-1:0] = net_in_valid;
    rtr_in_flit[NumPorts*FlitW-1:0] = net_in_flit;
    rtr_out_credit[NumPorts*NumVCs-1:0] = net_out_credit;
    rtr_hold[NumPorts-1:0] = eng_claim;
    for (int unsigned i = 1; i < LocalPorts; i++) begin
      rtr_in_valid[NumPorts - 1 + i] = ep_in_valid_q[i];
      rtr_in_flit[(NumPorts - 1 + i)*FlitW +: FlitW] = ep_in_flit_q[i*FlitW +: FlitW];
      rtr_out_credit[(NumPorts - 1 + i)*NumVCs +: NumVCs] = ep_out_credit_q[i*LinkVCs +: NumVCs];
    end
  end
  // Extra local ports: the router's next outputs and credits; no collective VC credits. Their
  // registered outputs (out_flit_o, in_credit_o) are not used, as for port 0.
  logic [RPorts*FlitW-1:0] unused_rtr_out_flit;
  assign unused_rtr_out_flit = rtr_out_flit;
  for (genvar i = 1; i < LocalPorts; i++) begin : gen_ep_extra
    assign ep_out_valid_o[i] = rtr_loc_next_valid[i];
    assign ep_out_flit_o[i*FlitW +: FlitW] = rtr_loc_next_flit[i*FlitW +: FlitW];
    assign ep_in_credit_o[i*LinkVCs +: LinkVCs] =
        LinkVCs'(rtr_loc_next_credit[i*NumVCs +: NumVCs]);
  end

  if (CollEngine != 0) begin : gen_coll
    logic [NumPorts-1:0] eng_in_valid, eng_out_valid;
    logic [NumPorts*FlitW-1:0] eng_out_flit;
    logic [2*NumPorts-1:0] eng_in_credit, eng_out_credit;
    logic eng_loc_next_valid;
    logic [FlitW-1:0] eng_loc_next_flit;
    logic [1:0] eng_loc_next_credit;
    always_comb begin : p_split
      for (int unsigned p = 0; p < NumPorts; p++) begin
        // By VC: the router's VCs to the router, the two collective VCs to the engine.
        eng_in_valid[p] = prt_in_valid[p] &&
                          (32'(prt_in_flit[p*FlitW + aries_pkg::HdrVcLsb +: VW]) >= NumVCs);
        net_in_valid[p] = prt_in_valid[p] && !eng_in_valid[p];
        prt_in_credit[p*LinkVCs +: LinkVCs] = {eng_in_credit[NumPorts + p], eng_in_credit[p],
                                               rtr_in_credit[p*NumVCs +: NumVCs]};
        // The engine's result wins the output (the router was held off it).
        prt_out_valid[p] = rtr_out_valid[p] || eng_out_valid[p];
        prt_out_flit[p*FlitW +: FlitW] = eng_out_valid[p] ? eng_out_flit[p*FlitW +: FlitW] :
                                                            rtr_out_flit[p*FlitW +: FlitW];
        net_out_credit[p*NumVCs +: NumVCs] = prt_out_credit[p*LinkVCs +: NumVCs];
        eng_out_credit[p] = prt_out_credit[p*LinkVCs + NumVCs];
        eng_out_credit[NumPorts + p] = prt_out_credit[p*LinkVCs + NumVCs + 1];
      end
    end
    assign net_in_flit = prt_in_flit;

    aries_coll_engine #(
      .NumPorts  (NumPorts),
      .Lanes     (Lanes),
      .NumIds    (CollIds),
      .ProgDepth (CollProg),
      .QueueDepth(CollDepth),
      .OutCredits(CollDepth),
      .ReqVc     (NumVCs),
      .RspVc     (NumVCs + 1)
    ) u_engine (
      .clk_i,
      .rst_ni,
      .in_valid_i  (eng_in_valid),
      .in_flit_i   (prt_in_flit),
      .in_credit_o (eng_in_credit),
      .claim_o     (eng_claim),
      .out_valid_o (eng_out_valid),
      .out_flit_o  (eng_out_flit),
      .out_credit_i(eng_out_credit),
      .cfg_req_i   (cfg_req_i && eng_sel),
      .cfg_we_i,
      .cfg_addr_i,
      .cfg_wdata_i,
      .cfg_rsp_o   (eng_cfg_rsp),
      .cfg_rdata_o (eng_cfg_rdata),
      .cfg_err_o   (eng_cfg_err),
      .err_o       (eng_err),
      .idle_o      (eng_idle),
      .loc_next_valid_o (eng_loc_next_valid),
      .loc_next_flit_o  (eng_loc_next_flit),
      .loc_next_credit_o(eng_loc_next_credit)
    );
    assign ep_out_valid_o[0] = rtr_loc_next_valid[0] || eng_loc_next_valid;
    assign ep_out_flit_o[0 +: FlitW] = eng_loc_next_valid ? eng_loc_next_flit
                                                          : rtr_loc_next_flit[0 +: FlitW];
    assign ep_in_credit_o[0 +: LinkVCs] = {eng_loc_next_credit, rtr_loc_next_credit[0 +: NumVCs]};
    // A flit on a collective VC must not collide with a router flit on the same output.
    logic [NumPorts-1:0] out_clash;
    assign out_clash = rtr_out_valid[NumPorts-1:0] & eng_out_valid;
    `ARIES_ASSERT(EngineHoldsRouterOff_A, out_clash == '0)
  end else begin : gen_no_coll
    assign net_in_valid = prt_in_valid;
    assign net_in_flit = prt_in_flit;
    assign prt_in_credit = rtr_in_credit[NumPorts*NumVCs-1:0];
    assign prt_out_valid = rtr_out_valid[NumPorts-1:0];
    assign prt_out_flit = rtr_out_flit[NumPorts*FlitW-1:0];
    assign net_out_credit = prt_out_credit;
    assign eng_claim = '0;
    assign eng_cfg_rsp = 1'b0;
    assign eng_cfg_err = 1'b0;
    assign eng_cfg_rdata = '0;
    assign eng_err = 1'b0;
    assign eng_idle = 1'b1;
    assign ep_out_valid_o[0] = rtr_loc_next_valid[0];
    assign ep_out_flit_o[0 +: FlitW] = rtr_loc_next_flit[0 +: FlitW];
    assign ep_in_credit_o[0 +: LinkVCs] = rtr_loc_next_credit[0 +: NumVCs];
  end

  // ---------------------------------------------------------------------------------------------
  // Node registers
  // ---------------------------------------------------------------------------------------------
  logic [NumDir*CW-1:0] sel_in_q, sel_out_q;   // per directional port (index p-1)
  logic [T > 0 ? T-1 : 0:0] cut_x_q, cut_y_q;
  logic [aries_pkg::CfgDataW-1:0] nstatus_q;
  logic nd_rsp, nd_err;
  logic [aries_pkg::CfgDataW-1:0] nd_rdata;
  logic stray_flit, stray_credit;

  // Link of port p (1..4) for choice c.
  function automatic logic [LinkIdxW-1:0] link_of(input int unsigned p, input int unsigned c);
    int unsigned side;
    side = (p == aries_pkg::PortXP || p == aries_pkg::PortYP) ? 1 : 0;
    if (c == 0) link_of = LinkIdxW'(p - 1);
    else if (c <= T) link_of = LinkIdxW'(NumDir + 2 * (c - 1) + side);
    else link_of = LinkIdxW'(NumDir + 2 * T + 2 * (c - 1 - T) + side);
  endfunction

  // Owners of every link direction (0: nobody), from the selects.
  logic [NumLinks*OwnW-1:0] in_owner, out_owner;
  logic [NumLinks-1:0] in_owned, out_owned;
  logic [NumDir*LinkIdxW-1:0] in_link, out_link;
  always_comb begin : p_owner
    in_owner = '0;
    out_owner = '0;
    in_link = '0;
    out_link = '0;
    if (Muxed != 0) begin
      for (int unsigned p = 1; p <= NumDir; p++) begin
        in_link[(p-1)*LinkIdxW +: LinkIdxW] = link_of(p, 32'(sel_in_q[(p-1)*CW +: CW]));
        out_link[(p-1)*LinkIdxW +: LinkIdxW] = link_of(p, 32'(sel_out_q[(p-1)*CW +: CW]));
        in_owner[32'(in_link[(p-1)*LinkIdxW +: LinkIdxW])*OwnW +: OwnW] = OwnW'(p);
        out_owner[32'(out_link[(p-1)*LinkIdxW +: LinkIdxW])*OwnW +: OwnW] = OwnW'(p);
      end
    end
    for (int unsigned l = 0; l < NumLinks; l++) begin
      in_owned[l] = (Muxed == 0) || (in_owner[l*OwnW +: OwnW] != '0);
      out_owned[l] = (Muxed == 0) || (out_owner[l*OwnW +: OwnW] != '0);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Port muxes (or fixed wiring)
  // ---------------------------------------------------------------------------------------------
  if (Muxed != 0) begin : gen_mux
    // Port mux outputs towards the links, per port and candidate.
    logic [NumDir*NumChoices-1:0] pm_out_valid;
    logic [NumDir*NumChoices*LinkVCs-1:0] pm_in_credit;
    for (genvar p = 1; p <= NumDir; p++) begin : gen_port
      logic [NumChoices-1:0] cand_in_valid;
      logic [NumChoices*FlitW-1:0] cand_in_flit, unused_cand_out_flit;
      logic [NumChoices*LinkVCs-1:0] cand_out_credit;
      logic unused_stray;
      // Candidates of this port: a link direction another port owns is masked off, so only
      // the owner sees it.
      always_comb begin : p_cand
        for (int unsigned c = 0; c < NumChoices; c++) begin
          cand_in_valid[c] = lnk_in_valid_q[32'(link_of(p, c))] &&
                             (32'(in_owner[32'(link_of(p, c))*OwnW +: OwnW]) == p);
          cand_out_credit[c*LinkVCs +: LinkVCs] =
              (32'(out_owner[32'(link_of(p, c))*OwnW +: OwnW]) == p) ?
              lnk_out_credit_q[32'(link_of(p, c))*LinkVCs +: LinkVCs] : '0;
        end
      end
      for (genvar c = 0; c < NumChoices; c++) begin : gen_cand
        assign cand_in_flit[c*FlitW +: FlitW] = lnk_in_flit_q[32'(link_of(p, c))*FlitW +: FlitW];
      end
      aries_port_mux #(
        .NumLinks(NumChoices),
        .NumVCs  (LinkVCs),
        .FlitW   (FlitW)
      ) u_mux (
        .clk_i,
        .rst_ni,
        .in_sel_i        ($clog2(NumChoices)'(sel_in_q[(p-1)*CW +: CW])),
        .out_sel_i       ($clog2(NumChoices)'(sel_out_q[(p-1)*CW +: CW])),
        .lnk_in_valid_i  (cand_in_valid),
        .lnk_in_flit_i   (cand_in_flit),
        .lnk_in_credit_o (pm_in_credit[(p-1)*NumChoices*LinkVCs +: NumChoices*LinkVCs]),
        .rtr_in_valid_o  (prt_in_valid[p]),
        .rtr_in_flit_o   (prt_in_flit[p*FlitW +: FlitW]),
        .rtr_in_credit_i (prt_in_credit[p*LinkVCs +: LinkVCs]),
        .rtr_out_valid_i (prt_out_valid[p]),
        .rtr_out_flit_i  (prt_out_flit[p*FlitW +: FlitW]),
        .rtr_out_credit_o(prt_out_credit[p*LinkVCs +: LinkVCs]),
        .lnk_out_valid_o (pm_out_valid[(p-1)*NumChoices +: NumChoices]),
        .lnk_out_flit_o  (unused_cand_out_flit),
        .lnk_out_credit_i(cand_out_credit),
        .stray_o         (unused_stray)
      );
    end

    // Links: a port mux drives only the candidate it selects, and a link direction has one
    // owner, so OR-ing every mux's candidate outputs onto their links merges without conflict.
    always_comb begin : p_links
      lnk_out_valid_o = '0;
      lnk_in_credit_o = '0;
      for (int unsigned p = 1; p <= NumDir; p++) begin
        for (int unsigned c = 0; c < NumChoices; c++) begin
          lnk_out_valid_o[32'(link_of(p, c))] = lnk_out_valid_o[32'(link_of(p, c))] |
                                                pm_out_valid[(p-1)*NumChoices + c];
          lnk_in_credit_o[32'(link_of(p, c))*LinkVCs +: LinkVCs] =
              lnk_in_credit_o[32'(link_of(p, c))*LinkVCs +: LinkVCs] |
              pm_in_credit[((p-1)*NumChoices + c)*LinkVCs +: LinkVCs];
        end
      end
    end
    for (genvar l = 0; l < NumLinks; l++) begin : gen_out_flit
      // The flit wires carry the owner's flit (port 0's, i.e. don't-care, when unowned). A case
      // over constant slices instead of a part-select at a variable offset: a simulator copies
      // one flit instead of shifting the whole bus.
      always_comb begin : p_out_flit
        unique case (out_owner[l*OwnW +: OwnW])
          OwnW'(1): lnk_out_flit_o[l*FlitW +: FlitW] = prt_out_flit[1*FlitW +: FlitW];
          OwnW'(2): lnk_out_flit_o[l*FlitW +: FlitW] = prt_out_flit[2*FlitW +: FlitW];
          OwnW'(3): lnk_out_flit_o[l*FlitW +: FlitW] = prt_out_flit[3*FlitW +: FlitW];
          OwnW'(4): lnk_out_flit_o[l*FlitW +: FlitW] = prt_out_flit[4*FlitW +: FlitW];
          default:  lnk_out_flit_o[l*FlitW +: FlitW] = prt_out_flit[0 +: FlitW];
        endcase
      end
    end
  end else begin : gen_fixed
    assign prt_in_valid[NumPorts-1:1] = lnk_in_valid_q;
    assign prt_in_flit[NumPorts*FlitW-1:FlitW] = lnk_in_flit_q;
    assign lnk_in_credit_o = prt_in_credit[NumPorts*LinkVCs-1:LinkVCs];
    assign lnk_out_valid_o = prt_out_valid[NumPorts-1:1];
    assign lnk_out_flit_o = prt_out_flit[NumPorts*FlitW-1:FlitW];
    assign prt_out_credit[NumPorts*LinkVCs-1:LinkVCs] = lnk_out_credit_q;
  end

  always_comb begin : p_stray
    stray_flit = 1'b0;
    stray_credit = 1'b0;
    for (int unsigned l = 0; l < NumLinks; l++) begin
      if (lnk_in_valid_q[l] && !in_owned[l]) stray_flit = 1'b1;
      if ((lnk_out_credit_q[l*LinkVCs +: LinkVCs] != '0) && !out_owned[l]) stray_credit = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Register access
  // ---------------------------------------------------------------------------------------------
  logic nd_sel, nd_req, acc_ok, nd_refused;
  logic [aries_pkg::CfgDataW-1:0] rdata;
  logic wr_portsel, wr_bypass, wr_status;
  logic [2:0] ps_port;
  logic [NumDir*CW-1:0] sel_in_d, sel_out_d;
  logic [aries_pkg::CfgDataW-1:0] bypass_val, bypass_legal;

  assign nd_sel = (cfg_addr_i[aries_pkg::CfgAddrW-1:8] == 8'(aries_pkg::NodeRegPage));
  assign nd_req = cfg_req_i && nd_sel;
  assign rtr_cfg_req = cfg_req_i && !nd_sel && !eng_sel;
  assign ps_port = 3'(cfg_addr_i - 16'(aries_pkg::RegPortSelBase));

  always_comb begin : p_bypass_val
    bypass_val = '0;
    bypass_legal = '0;
    for (int t = 0; t < NTracks; t++) begin
      bypass_val[aries_pkg::BypassXLsb + t] = cut_x_q[t];
      bypass_val[aries_pkg::BypassYLsb + t] = cut_y_q[t];
      bypass_legal[aries_pkg::BypassXLsb + t] = 1'b1;
      bypass_legal[aries_pkg::BypassYLsb + t] = 1'b1;
    end
  end
  assign bypass_o = bypass_val;

  // Does port p (1..4) use track t of dimension d (as input or output) in the current selects?
  function automatic logic uses_track(input logic [NumDir*CW-1:0] si, input logic [NumDir*CW-1:0] so,
                                      input int unsigned d, input int unsigned t);
    logic u;
    u = 1'b0;
    for (int unsigned q = 0; q < NumDir; q++) begin
      if (32'(si[q*CW +: CW]) == 1 + d * T + t) u = 1'b1;
      if (32'(so[q*CW +: CW]) == 1 + d * T + t) u = 1'b1;
    end
    uses_track = u;
  endfunction

  // Is choice c legal for port p: in range, its link direction
  // not owned by another port, its track cut here.
  function automatic logic choice_ok(input int unsigned p, input int unsigned c,
                                     input logic [NumLinks*OwnW-1:0] owners);
    int unsigned own;
    logic ok;
    ok = (c < NumChoices);
    if (ok) begin
      own = 32'(owners[32'(link_of(p, c))*OwnW +: OwnW]);
      if (own != 0 && own != p) ok = 1'b0;
      if (c >= 1 && c <= T && !cut_x_q[c-1]) ok = 1'b0;
      if (c > T && !cut_y_q[c-1-T]) ok = 1'b0;
    end
    choice_ok = ok;
  endfunction

  always_comb begin : p_access
    int unsigned cin, cout, p;
    logic ok;
    ok = 1'b0;
    acc_ok = 1'b0;
    rdata = '0;
    wr_portsel = 1'b0;
    wr_bypass = 1'b0;
    wr_status = 1'b0;
    sel_in_d = sel_in_q;
    sel_out_d = sel_out_q;
    p = 32'(ps_port);
    cin = 32'(cfg_wdata_i[aries_pkg::PortSelInLsb +: CW]);
    cout = 32'(cfg_wdata_i[aries_pkg::PortSelOutLsb +: CW]);
    unique case (32'(cfg_addr_i))
      aries_pkg::RegNodeId: begin
        acc_ok = !cfg_we_i;
        rdata = aries_pkg::NodeIdValue;
      end
      aries_pkg::RegNodeTracks: begin
        acc_ok = !cfg_we_i;
        rdata = T;
      end
      aries_pkg::RegNodeLinks: begin
        acc_ok = !cfg_we_i;
        rdata = NumLinks;
      end
      aries_pkg::RegPortSelBase + 1, aries_pkg::RegPortSelBase + 2,
      aries_pkg::RegPortSelBase + 3, aries_pkg::RegPortSelBase + 4: begin
        rdata = {16'b0, 4'b0, sel_out_q[(p-1)*CW +: CW], 4'b0, sel_in_q[(p-1)*CW +: CW]};
        if (!cfg_we_i) begin
          acc_ok = 1'b1;
        end else begin
          ok = (Muxed != 0) && ((cfg_wdata_i & ~aries_pkg::PortSelMask) == '0);
          if (ok && cin != 32'(sel_in_q[(p-1)*CW +: CW])) begin
            ok = choice_ok(p, cin, in_owner) && rtr_in_quiet[p];
          end
          if (ok && cout != 32'(sel_out_q[(p-1)*CW +: CW])) begin
            ok = choice_ok(p, cout, out_owner) && rtr_out_quiet[p];
          end
          acc_ok = ok;
          wr_portsel = ok;
          sel_in_d[(p-1)*CW +: CW] = CW'(cin);
          sel_out_d[(p-1)*CW +: CW] = CW'(cout);
        end
      end
      aries_pkg::RegBypass: begin
        rdata = bypass_val;
        if (!cfg_we_i) begin
          acc_ok = 1'b1;
        end else begin
          ok = ((cfg_wdata_i & ~bypass_legal) == '0);
          for (int t = 0; t < NTracks; t++) begin
            if (cfg_wdata_i[aries_pkg::BypassXLsb + t] != cut_x_q[t] &&
                uses_track(sel_in_q, sel_out_q, 0, t)) ok = 1'b0;
            if (cfg_wdata_i[aries_pkg::BypassYLsb + t] != cut_y_q[t] &&
                uses_track(sel_in_q, sel_out_q, 1, t)) ok = 1'b0;
          end
          acc_ok = ok;
          wr_bypass = ok;
        end
      end
      aries_pkg::RegNodeStatus: begin
        rdata = nstatus_q;
        if (!cfg_we_i) acc_ok = 1'b1;
        else acc_ok = ((cfg_wdata_i & ~aries_pkg::NodeStatusMask) == '0);
        wr_status = cfg_we_i && acc_ok;
      end
      default: acc_ok = 1'b0;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      sel_in_q <= '0;
      sel_out_q <= '0;
      cut_x_q <= '0;
      cut_y_q <= '0;
      nstatus_q <= '0;
    end else begin
      if (nd_req && wr_portsel) begin
        sel_in_q <= sel_in_d;
        sel_out_q <= sel_out_d;
      end
      if (nd_req && wr_bypass) begin
        for (int t = 0; t < NTracks; t++) begin
          cut_x_q[t] <= cfg_wdata_i[aries_pkg::BypassXLsb + t];
          cut_y_q[t] <= cfg_wdata_i[aries_pkg::BypassYLsb + t];
        end
      end
      if (nd_req && wr_status) nstatus_q <= nstatus_q & ~cfg_wdata_i;
      if (stray_flit) nstatus_q[aries_pkg::NodeStatusStrayFlitBit] <= 1'b1;
      if (stray_credit) nstatus_q[aries_pkg::NodeStatusStrayCreditBit] <= 1'b1;
      if (nd_refused) nstatus_q[aries_pkg::NodeStatusCfgErrBit] <= 1'b1;
    end
  end

  // The bus response (the register blocks' one shape).
  aries_reg_rsp u_rsp (
    .clk_i,
    .rst_ni,
    .req_i    (nd_req),
    .we_i     (cfg_we_i),
    .ok_i     (acc_ok),
    .rdata_i  (rdata),
    .refused_o(nd_refused),
    .rsp_o    (nd_rsp),
    .rdata_o  (nd_rdata),
    .err_o    (nd_err)
  );

  assign cfg_rsp_o = nd_rsp || rtr_cfg_rsp || eng_cfg_rsp;
  assign cfg_err_o = nd_err || rtr_cfg_err || eng_cfg_err;
  assign cfg_rdata_o = nd_rdata | rtr_cfg_rdata | eng_cfg_rdata;
  assign err_o = rtr_err || (nstatus_q != '0) || eng_err;
  assign idle_o = (rtr_in_empty == '1) && (rtr_out_valid == '0) && (rtr_in_credit == '0) &&
                  eng_idle && !cfg_rsp_o && (lnk_in_valid_q == '0) && (lnk_out_credit_q == '0) &&
                  (ep_in_valid_q == '0) && (ep_out_credit_q == '0);

  // ---------------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------------
  `ARIES_ASSERT_INIT(TracksLegal_A, NumTracks <= aries_pkg::MaxTracks)
  `ARIES_ASSERT_INIT(PortsLegal_A, NumPorts >= 2)
  `ARIES_ASSERT_INIT(LocalPortsLegal_A, LocalPorts == 1 || LocalPorts == 2 || LocalPorts == 4)
  `ARIES_ASSERT(OneResponder_A, $onehot0({nd_rsp, rtr_cfg_rsp, eng_cfg_rsp}))
  `ARIES_ASSERT(NoStrayFlit_A, !stray_flit)
  `ARIES_ASSERT(NoStrayCredit_A, !stray_credit)
endmodule
