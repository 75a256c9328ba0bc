// The Verilated node models the simulator ships (rtl/CMakeLists.txt builds them):
//   Varies_node     5 ports, 4 VCs x 32 flits, 16 lanes, 64 flows, 2 bypass tracks, a
//                   collective engine (8 ids, 8-step programs, 32-flit queues; links carry
//                   6 VCs) (mesh, torus, ARIES; flattened butterfly up to K = 3)
//   Varies_node_p2p the same without the collective engine (links carry 4 VCs) and without
//                   tracing: point-to-point runs, where an idle engine and the traced signals
//                   would cost about a quarter of every node step
//   Varies_node_fb  15 ports, otherwise the same, no tracks and no collective engine
//                   (flattened butterfly K <= 8)
//   Varies_node_l2, Varies_node_l4
//                   Varies_node with 2 and 4 local ports (node.local_ports), without tracing
//   Varies_node_fb_l2
//                   Varies_node_fb with 2 local ports, without tracing
// All are built without assertions (-O2, --x-assign fast); Varies_node and Varies_node_fb have
// FST tracing compiled in.
#ifndef ARIES_SYSC_NODE_MODELS_H_
#define ARIES_SYSC_NODE_MODELS_H_

#include <string>

#include "node_model.h"

namespace aries::sysc {

// The smallest shipped model with at least `num_ports` ports and exactly the local ports asked
// (more than one: Varies_node_l2 / _l4, whatever the use); throws std::invalid_argument naming
// the models that exist. kPointToPoint picks the 5-port model without the collective
// engine and without tracing (runs without collectives or waveforms: same cycles, fewer
// instructions; tests/sysc compares the two on the same traffic).
enum class NodeUse { kAny, kPointToPoint };
// Which implementation of the node: the Verilated RTL, the cycle-equivalent C++ model
// (sysc/fast_node.h, the same shape as the Verilated model it stands for; no waveforms), or
// both in lockstep with every output pin compared every cycle (the RTL's outputs drive the
// package; a difference throws NodeMismatch naming cycle, node, pin and both values).
enum class NodeImpl { kRtl, kFast, kCheck };
// "rtl", "fast", "check" (the sim.model key); nullptr-free: throws std::invalid_argument naming
// the allowed values.
NodeImpl ParseNodeImpl(const std::string& name);
const char* NodeImplName(NodeImpl impl);
// The shipped set a run with `use` takes for a node of `num_ports` router ports and
// `local_ports` local ports (what ShippedNodeModels builds); throws std::invalid_argument naming
// the models that exist.
const hw::NodeParams& ShippedParamsFor(NodeUse use, unsigned num_ports, unsigned local_ports);
// carried_lanes (0: every lane): a fast node that moves only the first carried_lanes lanes of a
// flit (NodeShape::carried_lanes), alone or (kCheck) in lockstep with the RTL, which gets the
// other lanes zero and must keep them so; the models then throw std::invalid_argument for the
// RTL alone and for a node with the collective engine (it reduces every lane).
NodeModelFactory ShippedNodeModels(NodeUse use = NodeUse::kAny, NodeImpl impl = NodeImpl::kRtl,
                                   unsigned carried_lanes = 0);
// The shipped parameter sets by name (their Verilator prefixes: Varies_node, Varies_node_p2p,
// Varies_node_fb), or nullptr; and the names for messages.
const hw::NodeParams* ShippedParams(const std::string& name);
std::string ShippedParamNames();
// Every node from the named set (Verilated, fast, or both in lockstep), whatever the run would
// pick: the user's choice among the built sets (package.node). Throws std::invalid_argument
// naming the sets for an unknown name, and for a node that needs more router ports than the set
// has.
NodeModelFactory NamedNodeModels(const std::string& set, NodeImpl impl = NodeImpl::kRtl,
                                 unsigned carried_lanes = 0);
// The shape of the shipped 5-port model for `use`, from its build parameters (rtl/CMakeLists.txt),
// without building one (the controller plans on it; Table I).
NodeShape ShippedShape(NodeUse use = NodeUse::kAny);

}  // namespace aries::sysc

#endif  // ARIES_SYSC_NODE_MODELS_H_
