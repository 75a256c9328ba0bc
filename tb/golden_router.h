// GoldenRouter: the reference routing function of aries_router, written independently of the
// RTL from the rules in rtl/router/README.md. Scoreboards use it to know where each flit must go.
#ifndef ARIES_TB_GOLDEN_ROUTER_H_
#define ARIES_TB_GOLDEN_ROUTER_H_

#include <cstdint>
#include <map>
#include <utility>

#include "aries_pkg.h"

namespace aries::tb {

struct RouteResult {
  uint32_t ports = 0;  // output-port mask; 0 = miss
  unsigned ovc = 0;
};

class GoldenRouter {
 public:
  GoldenRouter(unsigned num_ports, unsigned num_flows)
      : num_ports_(num_ports), num_flows_(num_flows) {}

  void SetNode(unsigned x, unsigned y) { x_ = x, y_ = y; }
  void SetTopology(hw::Topo topo, unsigned size_x, unsigned size_y) {
    topo_ = topo, sx_ = size_x, sy_ = size_y;
  }
  void SetRoute(unsigned flow, unsigned inport, uint32_t mask) { table_[{flow, inport}] = mask; }
  /// Circuit pass-through: every flit on `inport` leaves on `out` unchanged.
  void SetPassthru(unsigned inport, bool enable, unsigned out) {
    if (enable)
      passthru_[inport] = out;
    else
      passthru_.erase(inport);
  }
  bool IsPassthru(unsigned inport) const { return passthru_.count(inport) != 0; }

  RouteResult Route(const hw::Flit& f, unsigned inport) const;

 private:
  unsigned num_ports_, num_flows_;
  unsigned x_ = 0, y_ = 0;
  hw::Topo topo_ = hw::kTopoMesh;
  unsigned sx_ = 16, sy_ = 16;
  std::map<std::pair<unsigned, unsigned>, uint32_t> table_;
  std::map<unsigned, unsigned> passthru_;
};

}  // namespace aries::tb

#endif  // ARIES_TB_GOLDEN_ROUTER_H_
