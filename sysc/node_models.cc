#include "node_models.h"

#include <fmt/format.h>

#include <stdexcept>

#include "Varies_node.h"
#include "Varies_node___024root.h"
#include "Varies_node_fb.h"
#include "Varies_node_fb___024root.h"
#include "Varies_node_p2p.h"
#include "Varies_node_p2p___024root.h"
#include "verilated_node.h"

namespace aries::sysc {

NodeModelFactory ShippedNodeModels(NodeUse use) {
  return [use](unsigned num_ports, VerilatedContext* ctx,
               const std::string& name) -> std::unique_ptr<NodeModel> {
    NodeShape s;
    if (num_ports <= 5) {
      s.num_ports = 5;
      s.num_tracks = 2;
      s.num_links = 4 + 4 * s.num_tracks;
      if (use == NodeUse::kPointToPoint) {
        s.coll_engine = false;
        return std::make_unique<VerilatedNode<Varies_node_p2p, true>>(s, ctx, name);
      }
      return std::make_unique<VerilatedNode<Varies_node, true>>(s, ctx, name);
    }
    if (num_ports <= 15) {
      s.num_ports = 15;
      s.num_tracks = 0;
      s.num_links = 14;
      s.coll_engine = false;
      return std::make_unique<VerilatedNode<Varies_node_fb, true>>(s, ctx, name);
    }
    throw std::invalid_argument(fmt::format(
        "no node model with {} router ports: the shipped models have 5 and 15 ports (a flattened "
        "butterfly up to 8 x 8)",
        num_ports));
  };
}

}  // namespace aries::sysc
