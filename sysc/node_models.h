// The Verilated node models the simulator ships (rtl/CMakeLists.txt builds them):
//   Varies_node     5 ports, 4 VCs x 32 flits, 16 lanes, 64 flows, 2 bypass tracks, a
//                   collective engine (8 ids, 8-step programs, 32-flit queues; links carry
//                   6 VCs) (mesh, torus, ARIES; flattened butterfly up to K = 3)
//   Varies_node_p2p the same without the collective engine (links carry 4 VCs): point-to-point
//                   runs, where an idle engine would cost about a fifth of every node step
//   Varies_node_fb  15 ports, otherwise the same, no tracks and no collective engine
//                   (flattened butterfly K <= 8)
// Both are built without assertions (-O2, --x-assign fast) and with FST tracing compiled in.
#ifndef ARIES_SYSC_NODE_MODELS_H_
#define ARIES_SYSC_NODE_MODELS_H_

#include "node_model.h"

namespace aries::sysc {

// The smallest shipped model with at least `num_ports` ports; throws std::invalid_argument
// naming the radixes that exist. coll_engine = false picks the 5-port model without the
// collective engine (for runs without collectives: same cycles, fewer instructions).
NodeModelFactory ShippedNodeModels(bool coll_engine = true);

}  // namespace aries::sysc

#endif  // ARIES_SYSC_NODE_MODELS_H_
