// NodeModel: the pin-level view of one Verilated aries_node, one virtual call per cycle.
//
// The package steps every node once per cycle through Tick(in, out): the inputs present in
// this cycle go in, the rising edge happens, and the registered outputs of the next cycle come
// out. Only valid flits are copied (a flit is 1 + lanes 32-bit words, word aligned in the RTL
// buses), so a quiet link costs a bit test.
#ifndef ARIES_SYSC_NODE_MODEL_H_
#define ARIES_SYSC_NODE_MODEL_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "arena.h"
#include "aries_node_params.h"
#include "endpoint.h"

class VerilatedContext;
class VerilatedFstC;

namespace aries::sysc {

// What the RTL was built with (checked against the package configuration, and against every
// node's parameter registers when a package is built: Package::CheckShape). A model's shape
// comes from its build parameters (ShapeOf, below; the parameters are declared once in
// rtl/CMakeLists.txt); a default NodeShape is the shipped 5-port model's.
struct NodeShape {
  unsigned num_ports = hw::kVaries_nodeParams.NumPorts;  // without the extra local ports
  // Local (endpoint) ports: router port 0 and the router's last local_ports - 1 ports
  // (num_ports .. num_ports + local_ports - 2); only port 0 meets the collective engine.
  unsigned local_ports = hw::kVaries_nodeParams.LocalPorts;
  unsigned num_vcs = hw::kVaries_nodeParams.NumVCs;           // router (point-to-point) VCs
  bool coll_engine = hw::kVaries_nodeParams.CollEngine != 0;  // an engine beside the router
  unsigned coll_depth = hw::kVaries_nodeParams.CollDepth;  // its queue depth (collective credits)
  unsigned coll_ids = hw::kVaries_nodeParams.CollIds;      // its collective ids
  unsigned coll_prog = hw::kVaries_nodeParams.CollProg;    // its program steps
  unsigned buffer_depth = hw::kVaries_nodeParams.BufferDepth;
  unsigned lanes = hw::kVaries_nodeParams.Lanes;
  // Lanes whose words the package moves: every lane, or (the fast model on point-to-point
  // traffic, sim.payload = id) only the first, the packet id, from which the traffic endpoints
  // derive the others (tb/net_traffic.h). The cycles are the same: a flit takes one cycle per
  // hop however many of its words are modelled; the RTL always carries every lane.
  unsigned carried_lanes = hw::kVaries_nodeParams.Lanes;
  unsigned num_flows = hw::kVaries_nodeParams.NumFlows;
  unsigned num_tracks = hw::kVaries_nodeParams.NumTracks;
  unsigned num_links = hw::kVaries_nodeParams.NumPorts - 1 + 4 * hw::kVaries_nodeParams.NumTracks;
  unsigned link_in_regs = 1;  // cycles the node registers what arrives on a link (aries_node)
  unsigned ep_lead = 1;       // cycles the endpoint runs ahead of the node (aries_node registers
                              // what the endpoint drives and answers it a cycle ahead)
  // Words of a flit as the package moves it: the header and the carried lanes.
  unsigned words() const { return 1 + carried_lanes; }
  // The router's radix with the extra local ports (its NUM_PORTS register).
  unsigned router_ports() const { return num_ports + local_ports - 1; }
  // The router port of local port i (0: port 0; the others after the directional ports).
  unsigned LocalRouterPort(unsigned i) const { return i == 0 ? 0 : num_ports + i - 1; }
  // VCs on the links: the router's, plus the engine's request and response VCs (aries_node
  // LinkVCs).
  unsigned num_link_vcs() const { return num_vcs + (coll_engine ? 2 : 0); }
};

// The shape of an aries_node verilated with `p` (its links: the muxed node's track taps).
NodeShape ShapeOf(const hw::NodeParams& p);

// Copies n 32-bit words; n == kKnown with a size known at compile time (a few vector moves, no
// library call): flits and their payloads are copied on every hop and at every endpoint.
template <unsigned kKnown>
inline void CopyWords(uint32_t* dst, const uint32_t* src, uint64_t n) {
  if (n == kKnown) {
    std::memcpy(dst, src, kKnown * sizeof(uint32_t));
  } else if (n == 2) {  // header and packet id (NodeShape::carried_lanes = 1)
    std::memcpy(dst, src, 2 * sizeof(uint32_t));
  } else {
    std::memcpy(dst, src, n * sizeof(uint32_t));
  }
}

// Copies one flit of `words` 32-bit words (the shipped count: header and lanes).
inline void CopyFlit(uint32_t* dst, const uint32_t* src, unsigned words) {
  CopyWords<1 + hw::kVaries_nodeParams.Lanes>(dst, src, words);
}

// The flit and credit arrays of a node's pins, one way: flit words of link l at
// link_flit[l * words], of local port i at ep_flit[i * words], a VC mask of credits per link.
// Size() gives them their lengths (every element zero) in one allocation, before the first
// cycle: a package reads and writes every node's pins each cycle.
struct NodePins {
  Slice<uint32_t> link_flit;   // num_links * words
  Slice<uint8_t> link_credit;  // num_links
  Slice<uint32_t> ep_flit;     // local_ports * words
  void Size(const NodeShape& s) {
    arena_ = Arena();
    arena_.Add(link_flit, size_t{s.num_links} * s.words());
    arena_.Add(ep_flit, size_t{s.local_ports} * s.words());
    arena_.Add(link_credit, s.num_links);
    arena_.Commit();
  }

 private:
  Arena arena_;
};

// Inputs of one cycle (only valid flits are read).
struct NodeIn : NodePins {
  uint64_t link_valid = 0;  // bit per link
  // link_credit: per link, the VC mask of credits from its receiver.
  uint8_t ep_valid = 0;  // bit per local port: the endpoint injects a flit
  // Per local port: VC mask of ejection buffer slots the endpoint frees.
  std::array<uint8_t, kMaxLocalPorts> ep_credit{};
  bool cfg_req = false, cfg_we = false;
  uint32_t cfg_addr = 0, cfg_wdata = 0;
};

// Outputs after the edge (only valid flits are written; link_credit: per link, the VC mask of
// credits to the link's sender).
struct NodeOut : NodePins {
  uint64_t link_valid = 0;
  uint64_t link_credit_any = 0;  // bit per link whose link_credit is nonzero
  uint8_t ep_valid = 0;          // bit per local port: a flit to the endpoint
  // Per local port: VC mask of injection buffer slots freed.
  std::array<uint8_t, kMaxLocalPorts> ep_credit{};
  bool cfg_rsp = false, cfg_err = false;
  uint32_t cfg_rdata = 0;
  bool err = false;
  bool idle = true;     // aries_node idle_o
  uint32_t bypass = 0;  // BYPASS register (cut bits)
};

class NodeModel {
 public:
  virtual ~NodeModel() = default;
  virtual const NodeShape& shape() const = 0;
  // Holds reset for two edges with the node's coordinates applied, then releases it.
  virtual void Reset(unsigned x, unsigned y) = 0;
  virtual void Tick(const NodeIn& in, NodeOut& out) = 0;
  // Registers the node's signals with a trace file shared by the package (before it opens).
  virtual void Trace(VerilatedFstC* fst) = 0;
  // For a traced node: the clock's low phase evaluated (nothing changes state), so the waveform
  // shows clk_i toggling; a model without waveforms does nothing.
  virtual void TraceClockLow() {}
};

// Makes the model of a node with `num_ports` router ports (5, or 1 + 2(K-1) for a K x K
// flattened butterfly) and `local_ports` local ports in the package's Verilator context, named
// `name` (its trace scope), or throws std::invalid_argument naming the models that exist.
using NodeModelFactory = std::function<std::unique_ptr<NodeModel>(
    unsigned num_ports, unsigned local_ports, VerilatedContext* ctx, const std::string& name)>;

}  // namespace aries::sysc

#endif  // ARIES_SYSC_NODE_MODEL_H_
