#include "node_models.h"

#include <fmt/format.h>

#include <stdexcept>

#include "Varies_node.h"
#include "Varies_node___024root.h"
#include "Varies_node_fb.h"
#include "Varies_node_fb___024root.h"
#include "Varies_node_fb_l2.h"
#include "Varies_node_fb_l2___024root.h"
#include "Varies_node_l2.h"
#include "Varies_node_l2___024root.h"
#include "Varies_node_l4.h"
#include "Varies_node_l4___024root.h"
#include "Varies_node_p2p.h"
#include "Varies_node_p2p___024root.h"
#include "aries_pkg.h"
#include "fast_node.h"
#include "lockstep_node.h"
#include "verilated_node.h"

namespace aries::sysc {

NodeShape ShippedShape(NodeUse use) {
  return ShapeOf(use == NodeUse::kPointToPoint ? hw::kVaries_node_p2pParams
                                               : hw::kVaries_nodeParams);
}

NodeImpl ParseNodeImpl(const std::string& name) {
  if (name == "rtl") return NodeImpl::kRtl;
  if (name == "fast") return NodeImpl::kFast;
  if (name == "check") return NodeImpl::kCheck;
  throw std::invalid_argument(
      fmt::format("node model '{}' does not exist (allowed: rtl, fast, check)", name));
}

const char* NodeImplName(NodeImpl impl) {
  return impl == NodeImpl::kRtl ? "rtl" : impl == NodeImpl::kFast ? "fast" : "check";
}

const hw::NodeParams& ShippedParamsFor(NodeUse use, unsigned num_ports, unsigned local_ports) {
  if (local_ports != 1) {
    if (local_ports != 2 && local_ports != 4) {
      throw std::invalid_argument(
          fmt::format("node.local_ports = {}: allowed 1, 2, 4", local_ports));
    }
    if (num_ports > hw::kVaries_nodeParams.NumPorts) {
      if (local_ports == 2 && num_ports <= hw::kVaries_node_fb_l2Params.NumPorts)
        return hw::kVaries_node_fb_l2Params;
      throw std::invalid_argument(fmt::format(
          "node.local_ports = {} with {}-port routers: the nodes with more local ports are "
          "built with {} ports (mesh, torus, ARIES, 2 or 4 local ports) and {} ports (the "
          "flattened butterfly up to {} x {}, 2 local ports)",
          local_ports, num_ports, hw::kVaries_nodeParams.NumPorts,
          hw::kVaries_node_fb_l2Params.NumPorts, (hw::kVaries_node_fb_l2Params.NumPorts + 1) / 2,
          (hw::kVaries_node_fb_l2Params.NumPorts + 1) / 2));
    }
    return local_ports == 2 ? hw::kVaries_node_l2Params : hw::kVaries_node_l4Params;
  }
  if (num_ports <= hw::kVaries_nodeParams.NumPorts) {
    return use == NodeUse::kPointToPoint ? hw::kVaries_node_p2pParams : hw::kVaries_nodeParams;
  }
  if (num_ports <= hw::kVaries_node_fbParams.NumPorts) return hw::kVaries_node_fbParams;
  throw std::invalid_argument(fmt::format(
      "no node model with {} router ports: the shipped models have {} and {} ports (a flattened "
      "butterfly up to {} x {})",
      num_ports, hw::kVaries_nodeParams.NumPorts, hw::kVaries_node_fbParams.NumPorts,
      (hw::kVaries_node_fbParams.NumPorts + 1) / 2, (hw::kVaries_node_fbParams.NumPorts + 1) / 2));
}

namespace {

// The Verilated model of a shipped set (each set is its own Verilator class).
std::unique_ptr<NodeModel> RtlModel(const hw::NodeParams& p, VerilatedContext* ctx,
                                    const std::string& name) {
  if (&p == &hw::kVaries_node_p2pParams) {
    return std::make_unique<VerilatedNode<Varies_node_p2p, true>>(ShapeOf(p), ctx, name);
  }
  if (&p == &hw::kVaries_node_fbParams) {
    return std::make_unique<VerilatedNode<Varies_node_fb, true>>(ShapeOf(p), ctx, name);
  }
  if (&p == &hw::kVaries_node_fb_l2Params) {
    return std::make_unique<VerilatedNode<Varies_node_fb_l2, true>>(ShapeOf(p), ctx, name);
  }
  if (&p == &hw::kVaries_node_l2Params) {
    return std::make_unique<VerilatedNode<Varies_node_l2, true>>(ShapeOf(p), ctx, name);
  }
  if (&p == &hw::kVaries_node_l4Params) {
    return std::make_unique<VerilatedNode<Varies_node_l4, true>>(ShapeOf(p), ctx, name);
  }
  return std::make_unique<VerilatedNode<Varies_node, true>>(ShapeOf(p), ctx, name);
}

// A node of a shipped set: Verilated, fast (the same shape), or both in lockstep; the fast one,
// alone or in lockstep, may carry fewer lanes (carried_lanes, 0: all).
std::unique_ptr<NodeModel> MakeNode(const hw::NodeParams& p, NodeImpl impl, VerilatedContext* ctx,
                                    const std::string& name, unsigned carried_lanes) {
  NodeShape fast = ShapeOf(p);
  if (carried_lanes != 0 && carried_lanes != p.Lanes) {
    if (impl == NodeImpl::kRtl) {
      throw std::invalid_argument(fmt::format(
          "a node carrying {} of its {} lanes: the rtl model moves every lane (allowed: fast, or "
          "check, which steps the fast model beside it)",
          carried_lanes, p.Lanes));
    }
    if (p.CollEngine != 0) {
      throw std::invalid_argument(fmt::format(
          "a node carrying {} of its {} lanes: not with the collective engine, which reduces "
          "every lane (the node set for this package has one)",
          carried_lanes, p.Lanes));
    }
    fast.carried_lanes = carried_lanes;
  }
  if (impl == NodeImpl::kRtl) return RtlModel(p, ctx, name);
  if (impl == NodeImpl::kFast) return std::make_unique<FastNode>(fast);
  return std::make_unique<LockstepNode>(RtlModel(p, ctx, name), std::make_unique<FastNode>(fast),
                                        name);
}

}  // namespace

const hw::NodeParams* ShippedParams(const std::string& name) {
  if (name == "Varies_node") return &hw::kVaries_nodeParams;
  if (name == "Varies_node_p2p") return &hw::kVaries_node_p2pParams;
  if (name == "Varies_node_fb") return &hw::kVaries_node_fbParams;
  if (name == "Varies_node_l2") return &hw::kVaries_node_l2Params;
  if (name == "Varies_node_fb_l2") return &hw::kVaries_node_fb_l2Params;
  if (name == "Varies_node_l4") return &hw::kVaries_node_l4Params;
  return nullptr;
}

std::string ShippedParamNames() {
  return "Varies_node, Varies_node_p2p, Varies_node_fb, Varies_node_l2, Varies_node_l4, "
         "Varies_node_fb_l2";
}

NodeModelFactory NamedNodeModels(const std::string& set, NodeImpl impl, unsigned carried_lanes) {
  const hw::NodeParams* params = ShippedParams(set);
  if (!params) {
    throw std::invalid_argument(
        fmt::format("node parameter set '{}' was not built (built: {})", set, ShippedParamNames()));
  }
  return [set, params, impl, carried_lanes](unsigned num_ports, unsigned local_ports,
                                            VerilatedContext* ctx,
                                            const std::string& name) -> std::unique_ptr<NodeModel> {
    if (num_ports > params->NumPorts) {
      throw std::invalid_argument(
          fmt::format("node parameter set {} has {} router ports; this package needs {}", set,
                      params->NumPorts, num_ports));
    }
    if (local_ports != params->LocalPorts) {
      throw std::invalid_argument(
          fmt::format("node parameter set {} has {} local ports; node.local_ports = {}", set,
                      params->LocalPorts, local_ports));
    }
    return MakeNode(*params, impl, ctx, name, carried_lanes);
  };
}

NodeModelFactory ShippedNodeModels(NodeUse use, NodeImpl impl, unsigned carried_lanes) {
  return [use, impl, carried_lanes](unsigned num_ports, unsigned local_ports, VerilatedContext* ctx,
                                    const std::string& name) {
    return MakeNode(ShippedParamsFor(use, num_ports, local_ports), impl, ctx, name, carried_lanes);
  };
}

}  // namespace aries::sysc
