// aries_route_compute: output-port set and output VC of one arriving flit (combinational).
//
// Runs in the first router stage, in parallel with the buffer write, so the route is stored
// beside the flit and known when it reaches allocation (the timing of look-ahead routing,
// without needing the neighbour's routing table).
//   * is_flow = 1: the programmable table decides (flow id x input port -> output-port mask,
//     one bit = unicast, several = multicast). An empty entry is a miss: route 0, miss_o = 1.
//   * is_flow = 0: dimension-order routing (X then Y) for the configured topology:
//       mesh  - one hop toward the destination per dimension;
//       torus - the shorter way round (ties go +); VC bit 0 is the dateline class: it is set
//               when the hop uses a wrap link and kept while the packet stays in the dimension,
//               cleared when it turns into the other dimension; ejection keeps the VC;
//       fbfly - one hop straight to the destination column, then to the destination row.
//     A destination outside the configured grid is a miss. A packet at its destination leaves
//     by local port (input port mod LocalPorts): local port 0 is router port 0, local port
//     i > 0 router port NumPorts - LocalPorts + i, so the packets arriving from different
//     directions are ejected on different local ports (LocalPorts 1, 2 or 4).
// Outputs are zero while valid_i is low: the whole function sits under that condition, so a
// simulator evaluates it only for arriving flits (a port is idle in most cycles).
module aries_route_compute #(
  /// Router radix (the local ports included).
  parameter int unsigned NumPorts = 5,
  /// Local (endpoint) ports: router port 0 and the last LocalPorts - 1 ports (1, 2 or 4).
  parameter int unsigned LocalPorts = 1
) (
  /// A flit is present (outputs are zero otherwise).
  input  logic                                valid_i,
  /// Flit header (low HdrW bits of the flit).
  input  logic [aries_pkg::HdrW-1:0]          hdr_i,
  /// Input port the flit arrived on.
  input  logic [aries_pkg::PortIdW-1:0]       inport_i,
  /// This router's column.
  input  logic [aries_pkg::CoordW-1:0]        node_x_i,
  /// This router's row.
  input  logic [aries_pkg::CoordW-1:0]        node_y_i,
  /// Topology (aries_pkg::Topo*).
  input  logic [aries_pkg::CtrlTopoW-1:0]     topo_i,
  /// Columns - 1.
  input  logic [aries_pkg::CoordW-1:0]        size_x_m1_i,
  /// Rows - 1.
  input  logic [aries_pkg::CoordW-1:0]        size_y_m1_i,
  /// Routing-table entry of (hdr flow id, inport).
  input  logic [NumPorts-1:0]                 table_mask_i,
  /// Output-port set.
  output logic [NumPorts-1:0]                 route_o,
  /// Output VC.
  output logic [aries_pkg::VcIdW-1:0]         ovc_o,
  /// No route (table miss or destination outside the grid).
  output logic                                miss_o
);
  localparam int unsigned CW = aries_pkg::CoordW;
  localparam int unsigned PW = aries_pkg::PortIdW;
  /// Router port 0 and the network ports 1 .. NetPorts-1; the extra local ports follow.
  localparam int unsigned NetPorts = NumPorts - LocalPorts + 1;

  logic is_flow;
  logic [aries_pkg::VcIdW-1:0] vc;
  logic [CW-1:0] dst_x, dst_y;
  assign is_flow = hdr_i[aries_pkg::HdrIsFlowBit];
  assign vc = hdr_i[aries_pkg::HdrVcLsb +: aries_pkg::VcIdW];
  assign dst_x = hdr_i[aries_pkg::HdrDstXLsb +: CW];
  assign dst_y = hdr_i[aries_pkg::HdrDstYLsb +: CW];

  // Distances going + around a ring of size K (torus), in CW+1 bits.
  logic [CW:0] kx, ky, dx_plus, dy_plus;
  logic in_x_dim, in_y_dim;
  // Flattened butterfly: index of the destination among the other K-1 columns / rows.
  logic [CW-1:0] fb_col, fb_row;
  logic [PW-1:0] dor_port, loc_idx;
  logic dor_bad, wrap, out_x, out_y, dateline;

  always_comb begin : p_route
    kx = '0;
    ky = '0;
    dx_plus = '0;
    dy_plus = '0;
    in_x_dim = 1'b0;
    in_y_dim = 1'b0;
    fb_col = '0;
    fb_row = '0;
    dor_port = PW'(aries_pkg::PortLocal);
    loc_idx = '0;
    wrap = 1'b0;
    out_x = 1'b0;
    out_y = 1'b0;
    dor_bad = 1'b0;
    dateline = 1'b0;
    route_o = '0;
    ovc_o = '0;
    miss_o = 1'b0;
    if (valid_i) begin
      kx = {1'b0, size_x_m1_i} + 1'b1;
      ky = {1'b0, size_y_m1_i} + 1'b1;
      dx_plus = (dst_x >= node_x_i) ? {1'b0, dst_x - node_x_i}
                                    : ({1'b0, dst_x} + kx - {1'b0, node_x_i});
      dy_plus = (dst_y >= node_y_i) ? {1'b0, dst_y - node_y_i}
                                    : ({1'b0, dst_y} + ky - {1'b0, node_y_i});
      in_x_dim = (inport_i == PW'(aries_pkg::PortXP)) || (inport_i == PW'(aries_pkg::PortXM));
      in_y_dim = (inport_i == PW'(aries_pkg::PortYP)) || (inport_i == PW'(aries_pkg::PortYM));
      fb_col = (dst_x < node_x_i) ? dst_x : dst_x - 1'b1;
      fb_row = (dst_y < node_y_i) ? dst_y : dst_y - 1'b1;
      dor_bad = (dst_x > size_x_m1_i) || (dst_y > size_y_m1_i);
      unique case (topo_i)
        aries_pkg::CtrlTopoW'(aries_pkg::TopoTorus): begin
          if (dst_x != node_x_i) begin
            out_x = 1'b1;
            if ({dx_plus, 1'b0} <= {1'b0, kx}) begin
              dor_port = PW'(aries_pkg::PortXP);
              wrap = (node_x_i == size_x_m1_i);
            end else begin
              dor_port = PW'(aries_pkg::PortXM);
              wrap = (node_x_i == '0);
            end
          end else if (dst_y != node_y_i) begin
            out_y = 1'b1;
            if ({dy_plus, 1'b0} <= {1'b0, ky}) begin
              dor_port = PW'(aries_pkg::PortYP);
              wrap = (node_y_i == size_y_m1_i);
            end else begin
              dor_port = PW'(aries_pkg::PortYM);
              wrap = (node_y_i == '0);
            end
          end
        end
        aries_pkg::CtrlTopoW'(aries_pkg::TopoFbfly): begin
          // Row neighbours on ports 1 .. Kx-1 (by column, skipping our own), then column
          // neighbours on ports Kx .. Kx+Ky-2 (by row, skipping our own).
          if (dst_x != node_x_i) begin
            dor_port = PW'(1) + PW'(fb_col);
          end else if (dst_y != node_y_i) begin
            dor_port = PW'(1) + PW'(size_x_m1_i) + PW'(fb_row);
          end
        end
        default: begin  // mesh (CTRL refuses the unused encoding)
          if (dst_x > node_x_i) dor_port = PW'(aries_pkg::PortXP);
          else if (dst_x < node_x_i) dor_port = PW'(aries_pkg::PortXM);
          else if (dst_y > node_y_i) dor_port = PW'(aries_pkg::PortYP);
          else if (dst_y < node_y_i) dor_port = PW'(aries_pkg::PortYM);
        end
      endcase
      if (dor_port >= PW'(NetPorts)) dor_bad = 1'b1;
      // Arrived: the local port of this input (LocalPorts is a power of two).
      loc_idx = inport_i & PW'(LocalPorts - 1);
      if (dor_port == PW'(aries_pkg::PortLocal) && loc_idx != '0) begin
        dor_port = PW'(NetPorts - 1) + loc_idx;
      end
      dateline = (out_x && (wrap || (in_x_dim && vc[0]))) ||
                 (out_y && (wrap || (in_y_dim && vc[0])));
      ovc_o = vc;
      if (is_flow) begin
        route_o = table_mask_i;
        miss_o = (table_mask_i == '0);
      end else if (dor_bad) begin
        miss_o = 1'b1;
      end else begin
        for (int unsigned o = 0; o < NumPorts; o++) route_o[o] = (dor_port == PW'(o));
        if (topo_i == aries_pkg::CtrlTopoW'(aries_pkg::TopoTorus) && (out_x || out_y)) begin
          ovc_o = {vc[aries_pkg::VcIdW-1:1], dateline};
        end
      end
    end
  end

  // No assertions: route_o and miss_o are single assignments whose relation (empty set iff
  // miss, one-hot for DOR) holds by construction; GoldenRouter checks the function itself.
endmodule
