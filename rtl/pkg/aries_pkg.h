// C++ view of rtl/pkg/aries_pkg.sv: flit layout, ports, topologies, opcodes, register map.
//
// The SystemVerilog package is the source; tests/pkg/pkg_view_test.cc checks every constant
// here against the Verilated package (tests/rtl/aries_pkg_probe.sv). Pure C++17, no Verilator:
// the collective controller, the SystemC layer and the testbench all include it.
#ifndef ARIES_RTL_PKG_ARIES_PKG_H_
#define ARIES_RTL_PKG_ARIES_PKG_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aries_regs.h"  // the register map, generated from rtl/regs/aries_regs.json

namespace aries::hw {

// Widths.
inline constexpr unsigned kLaneW = 32;
inline constexpr unsigned kVcIdW = 3;
inline constexpr unsigned kFlowIdW = 6;
inline constexpr unsigned kCoordW = 5;
inline constexpr unsigned kPortIdW = 5;
inline constexpr unsigned kMaxPorts = 32;
inline constexpr unsigned kMaxVCs = 8;

// Flit header fields (bit offsets from the flit's LSB).
inline constexpr unsigned kHdrHeadBit = 0;
inline constexpr unsigned kHdrTailBit = 1;
inline constexpr unsigned kHdrVcLsb = 2;
inline constexpr unsigned kHdrIsFlowBit = 5;
inline constexpr unsigned kHdrFlowLsb = 6;
inline constexpr unsigned kHdrDstXLsb = 12;
inline constexpr unsigned kHdrDstYLsb = 17;
inline constexpr unsigned kHdrSrcXLsb = 22;
inline constexpr unsigned kHdrSrcYLsb = 27;
inline constexpr unsigned kHdrW = 32;

constexpr unsigned FlitWidth(unsigned lanes) { return kHdrW + kLaneW * lanes; }

// Ports of a mesh / torus / ARIES router.
enum Port : unsigned { kPortLocal = 0, kPortXP = 1, kPortXM = 2, kPortYP = 3, kPortYM = 4 };
// The mesh port facing `port` across a link (XP <-> XM, YP <-> YM).
inline constexpr unsigned OppositePort(unsigned port) {
  return port == kPortXP   ? kPortXM
         : port == kPortXM ? kPortXP
         : port == kPortYP ? kPortYM
                           : kPortYP;
}
inline constexpr unsigned kNumMeshPorts = 5;
// Local ports (aries_router LocalPorts): local port i is router port 0 for i = 0, else the
// router's port net_ports + i - 1, after the net_ports ports of the topology (5, or 1 + 2(K-1)).
inline constexpr unsigned LocalPort(unsigned i, unsigned net_ports) {
  return i == 0 ? 0u : net_ports + i - 1;
}
// The local port index of router port `port`, or -1 for a network port.
inline constexpr int LocalIndex(unsigned port, unsigned net_ports) {
  return port == 0 ? 0 : port >= net_ports ? static_cast<int>(port - net_ports + 1) : -1;
}
// The local port a dimension-order packet arriving on input `in_port` leaves by at its
// destination (aries_route_compute): in_port mod local_ports (1, 2 or 4).
inline constexpr unsigned DorLocalIndex(unsigned in_port, unsigned local_ports) {
  return in_port & (local_ports - 1);
}

// Topologies of the dimension-order routing function.
enum Topo : unsigned { kTopoMesh = 0, kTopoTorus = 1, kTopoFbfly = 2 };
inline constexpr unsigned kNumTopos = 3;

// Collective opcodes.
enum Op : unsigned {
  kOpAddI32 = 0,
  kOpMulI32 = 1,
  kOpMinI32 = 2,
  kOpMaxI32 = 3,
  kOpAddF32 = 4,
  kOpMulF32 = 5,
  kOpMinF32 = 6,
  kOpMaxF32 = 7,
  kOpAnd = 8,
  kOpOr = 9,
  kOpXor = 10,
};
inline constexpr unsigned kNumOps = 11;
inline constexpr unsigned kOpW = 4;

// The register map (router, node, collective engine): generated from rtl/regs/aries_regs.json.
// Collective flits (aries_pkg.sv: Coll*).
inline constexpr unsigned kCollHdrOpLsb = 16;
inline constexpr unsigned kCollHdrSeqLsb = 20;
inline constexpr unsigned kCollSeqW = 12;

// Address of per-id register r of collective id `id`.
inline constexpr uint32_t EngIdReg(unsigned id, unsigned r) {
  return kRegEngIdBase + kEngIdStride * id + r;
}

// Register address helpers.
constexpr uint32_t RouteAddr(unsigned flow, unsigned inport) {
  return kRegRouteBase | (flow << kRouteFlowLsb) | (inport << kRouteInportLsb);
}
constexpr uint32_t CtrlValue(Topo topo, unsigned size_x, unsigned size_y,
                             bool dynamic_vcs = false) {
  return (static_cast<uint32_t>(topo) << kCtrlTopoLsb) | ((size_x - 1) << kCtrlSizeXLsb) |
         ((size_y - 1) << kCtrlSizeYLsb) | ((dynamic_vcs ? 1u : 0u) << kCtrlDynVcBit);
}
constexpr uint32_t PassthruValue(bool enable, unsigned out_port) {
  return (enable ? 1u : 0u) << kPassEnBit | (out_port << kPassOutLsb);
}

// PORTSEL value: link choices of the input and output side (0 mesh, 1+t x-track t, 1+T+t
// y-track t).
constexpr uint32_t PortSelValue(unsigned in_choice, unsigned out_choice) {
  return (in_choice << kPortSelInLsb) | (out_choice << kPortSelOutLsb);
}
// BYPASS value from per-dimension cut masks (bit t: track t).
// ID_CFG: operation and enable.
constexpr uint32_t IdCfgValue(unsigned op, bool enable = true) {
  return op | (enable ? 1u << kIdCfgEnBit : 0u);
}
// ENG_REQ_LEN / ENG_RSP_LEN: [7:0] program steps, [31:16] passes.
constexpr uint32_t EngLenValue(unsigned steps, unsigned passes) { return steps | (passes << 16); }
constexpr uint32_t BypassValue(uint32_t x_cut, uint32_t y_cut) {
  return (x_cut << kBypassXLsb) | (y_cut << kBypassYLsb);
}

// One flit, unpacked. `payload` holds `lanes` 32-bit elements.
struct Flit {
  bool head = true;
  bool tail = true;
  unsigned vc = 0;
  bool is_flow = false;
  unsigned flow = 0;
  unsigned dst_x = 0, dst_y = 0;
  unsigned src_x = 0, src_y = 0;
  std::vector<uint32_t> payload;

  bool operator==(const Flit& o) const {
    return head == o.head && tail == o.tail && vc == o.vc && is_flow == o.is_flow &&
           flow == o.flow && dst_x == o.dst_x && dst_y == o.dst_y && src_x == o.src_x &&
           src_y == o.src_y && payload == o.payload;
  }
};

// The 32-bit header word of a flit.
inline uint32_t PackHeader(const Flit& f) {
  auto field = [](unsigned v, unsigned w, unsigned lsb) {
    return (static_cast<uint32_t>(v) & ((1u << w) - 1u)) << lsb;
  };
  return field(f.head, 1, kHdrHeadBit) | field(f.tail, 1, kHdrTailBit) |
         field(f.vc, kVcIdW, kHdrVcLsb) | field(f.is_flow, 1, kHdrIsFlowBit) |
         field(f.flow, kFlowIdW, kHdrFlowLsb) | field(f.dst_x, kCoordW, kHdrDstXLsb) |
         field(f.dst_y, kCoordW, kHdrDstYLsb) | field(f.src_x, kCoordW, kHdrSrcXLsb) |
         field(f.src_y, kCoordW, kHdrSrcYLsb);
}

// Packs `f` into words[0 .. lanes] (word 0 is the header, word 1+i is lane i). Missing payload
// lanes are zero.
inline void PackFlit(const Flit& f, unsigned lanes, uint32_t* words) {
  words[0] = PackHeader(f);
  for (unsigned i = 0; i < lanes; ++i) words[1 + i] = i < f.payload.size() ? f.payload[i] : 0u;
}

inline Flit UnpackFlit(const uint32_t* words, unsigned lanes) {
  const uint32_t h = words[0];
  auto field = [h](unsigned w, unsigned lsb) { return (h >> lsb) & ((1u << w) - 1u); };
  Flit f;
  f.head = field(1, kHdrHeadBit);
  f.tail = field(1, kHdrTailBit);
  f.vc = field(kVcIdW, kHdrVcLsb);
  f.is_flow = field(1, kHdrIsFlowBit);
  f.flow = field(kFlowIdW, kHdrFlowLsb);
  f.dst_x = field(kCoordW, kHdrDstXLsb);
  f.dst_y = field(kCoordW, kHdrDstYLsb);
  f.src_x = field(kCoordW, kHdrSrcXLsb);
  f.src_y = field(kCoordW, kHdrSrcYLsb);
  f.payload.assign(words + 1, words + 1 + lanes);
  return f;
}

// The header of a collective flit (single-flit packet, is_flow = 1; aries_pkg.sv Coll*).
struct CollHeader {
  unsigned vc = 0, id = 0, op = 0, seq = 0;  // seq is taken modulo 2^kCollSeqW
};

inline uint32_t PackCollHeader(const CollHeader& c) {
  return (1u << kHdrHeadBit) | (1u << kHdrTailBit) | ((c.vc & ((1u << kVcIdW) - 1u)) << kHdrVcLsb) |
         (1u << kHdrIsFlowBit) | ((c.id & ((1u << kFlowIdW) - 1u)) << kHdrFlowLsb) |
         ((c.op & ((1u << kOpW) - 1u)) << kCollHdrOpLsb) |
         ((c.seq & ((1u << kCollSeqW) - 1u)) << kCollHdrSeqLsb);
}

inline CollHeader UnpackCollHeader(uint32_t h) {
  CollHeader c;
  c.vc = (h >> kHdrVcLsb) & ((1u << kVcIdW) - 1u);
  c.id = (h >> kHdrFlowLsb) & ((1u << kFlowIdW) - 1u);
  c.op = (h >> kCollHdrOpLsb) & ((1u << kOpW) - 1u);
  c.seq = (h >> kCollHdrSeqLsb) & ((1u << kCollSeqW) - 1u);
  return c;
}

}  // namespace aries::hw

#endif  // ARIES_RTL_PKG_ARIES_PKG_H_
