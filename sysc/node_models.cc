#include "node_models.h"

#include <fmt/format.h>

#include <stdexcept>

#include "Varies_node.h"
#include "Varies_node___024root.h"
#include "Varies_node_fb.h"
#include "Varies_node_fb___024root.h"
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

namespace {
std::unique_ptr<NodeModel> RtlModel(NodeUse use, unsigned num_ports, VerilatedContext* ctx,
                                    const std::string& name) {
  if (num_ports <= hw::kVaries_nodeParams.NumPorts) {
    if (use == NodeUse::kPointToPoint) {
      return std::make_unique<VerilatedNode<Varies_node_p2p, true>>(
          ShapeOf(hw::kVaries_node_p2pParams), ctx, name);
    }
    return std::make_unique<VerilatedNode<Varies_node, true>>(ShapeOf(hw::kVaries_nodeParams), ctx,
                                                              name);
  }
  if (num_ports <= hw::kVaries_node_fbParams.NumPorts) {
    return std::make_unique<VerilatedNode<Varies_node_fb, true>>(ShapeOf(hw::kVaries_node_fbParams),
                                                                 ctx, name);
  }
  throw std::invalid_argument(fmt::format(
      "no node model with {} router ports: the shipped models have {} and {} ports (a flattened "
      "butterfly up to {} x {})",
      num_ports, hw::kVaries_nodeParams.NumPorts, hw::kVaries_node_fbParams.NumPorts,
      (hw::kVaries_node_fbParams.NumPorts + 1) / 2, (hw::kVaries_node_fbParams.NumPorts + 1) / 2));
}
}  // namespace

const hw::NodeParams* ShippedParams(const std::string& name) {
  if (name == "Varies_node") return &hw::kVaries_nodeParams;
  if (name == "Varies_node_p2p") return &hw::kVaries_node_p2pParams;
  if (name == "Varies_node_fb") return &hw::kVaries_node_fbParams;
  return nullptr;
}

std::string ShippedParamNames() { return "Varies_node, Varies_node_p2p, Varies_node_fb"; }

NodeModelFactory NamedNodeModels(const std::string& set, NodeImpl impl) {
  const hw::NodeParams* params = ShippedParams(set);
  if (!params) {
    throw std::invalid_argument(
        fmt::format("node parameter set '{}' was not built (built: {})", set, ShippedParamNames()));
  }
  return [set, params, impl](unsigned num_ports, VerilatedContext* ctx,
                             const std::string& name) -> std::unique_ptr<NodeModel> {
    if (num_ports > params->NumPorts) {
      throw std::invalid_argument(
          fmt::format("node parameter set {} has {} router ports; this package needs {}", set,
                      params->NumPorts, num_ports));
    }
    auto rtl = [&]() -> std::unique_ptr<NodeModel> {
      if (params == &hw::kVaries_node_p2pParams) {
        return std::make_unique<VerilatedNode<Varies_node_p2p, true>>(ShapeOf(*params), ctx, name);
      }
      if (params == &hw::kVaries_node_fbParams) {
        return std::make_unique<VerilatedNode<Varies_node_fb, true>>(ShapeOf(*params), ctx, name);
      }
      return std::make_unique<VerilatedNode<Varies_node, true>>(ShapeOf(*params), ctx, name);
    };
    if (impl == NodeImpl::kRtl) return rtl();
    if (impl == NodeImpl::kFast) return std::make_unique<FastNode>(ShapeOf(*params));
    return std::make_unique<LockstepNode>(rtl(), std::make_unique<FastNode>(ShapeOf(*params)),
                                          name);
  };
}

NodeModelFactory ShippedNodeModels(NodeUse use, NodeImpl impl) {
  return [use, impl](unsigned num_ports, VerilatedContext* ctx,
                     const std::string& name) -> std::unique_ptr<NodeModel> {
    if (impl == NodeImpl::kRtl) return RtlModel(use, num_ports, ctx, name);
    // The fast model takes the shape of the Verilated model it stands for.
    const hw::NodeParams& params = num_ports > hw::kVaries_nodeParams.NumPorts
                                       ? hw::kVaries_node_fbParams
                                   : use == NodeUse::kPointToPoint ? hw::kVaries_node_p2pParams
                                                                   : hw::kVaries_nodeParams;
    if (num_ports > params.NumPorts) return RtlModel(use, num_ports, ctx, name);  // throws
    if (impl == NodeImpl::kFast) return std::make_unique<FastNode>(ShapeOf(params));
    return std::make_unique<LockstepNode>(RtlModel(use, num_ports, ctx, name),
                                          std::make_unique<FastNode>(ShapeOf(params)), name);
  };
}

}  // namespace aries::sysc
