#include "golden_router.h"

namespace aries::tb {

RouteResult GoldenRouter::Route(const hw::Flit& f, unsigned inport) const {
  RouteResult r;
  r.ovc = f.vc;
  if (auto pt = passthru_.find(inport); pt != passthru_.end()) {
    r.ports = 1u << pt->second;
    return r;
  }
  if (f.is_flow) {
    if (f.flow < num_flows_) {
      auto it = table_.find({f.flow, inport});
      if (it != table_.end()) r.ports = it->second;
    }
    return r;
  }
  if (f.dst_x >= sx_ || f.dst_y >= sy_) return r;  // outside the grid: miss
  unsigned port = hw::kPortLocal;
  bool wrap = false, out_x = false, out_y = false;
  switch (topo_) {
    case hw::kTopoMesh:
      if (f.dst_x > x_)
        port = hw::kPortXP;
      else if (f.dst_x < x_)
        port = hw::kPortXM;
      else if (f.dst_y > y_)
        port = hw::kPortYP;
      else if (f.dst_y < y_)
        port = hw::kPortYM;
      break;
    case hw::kTopoTorus: {
      // Shorter way round; a tie goes +.
      if (f.dst_x != x_) {
        out_x = true;
        const unsigned plus = (f.dst_x + sx_ - x_) % sx_;
        if (2 * plus <= sx_) {
          port = hw::kPortXP, wrap = (x_ == sx_ - 1);
        } else {
          port = hw::kPortXM, wrap = (x_ == 0);
        }
      } else if (f.dst_y != y_) {
        out_y = true;
        const unsigned plus = (f.dst_y + sy_ - y_) % sy_;
        if (2 * plus <= sy_) {
          port = hw::kPortYP, wrap = (y_ == sy_ - 1);
        } else {
          port = hw::kPortYM, wrap = (y_ == 0);
        }
      }
      const bool in_x = inport == hw::kPortXP || inport == hw::kPortXM;
      const bool in_y = inport == hw::kPortYP || inport == hw::kPortYM;
      if (out_x || out_y) {
        const bool keep = (out_x && in_x) || (out_y && in_y);
        const bool cls = wrap || (keep && (f.vc & 1u));
        r.ovc = (f.vc & ~1u) | (cls ? 1u : 0u);
      }
      break;
    }
    case hw::kTopoFbfly:
      if (f.dst_x != x_) {
        port = 1 + (f.dst_x < x_ ? f.dst_x : f.dst_x - 1);
      } else if (f.dst_y != y_) {
        port = 1 + (sx_ - 1) + (f.dst_y < y_ ? f.dst_y : f.dst_y - 1);
      }
      break;
  }
  if (port >= num_ports_) return RouteResult{0, f.vc};
  r.ports = 1u << port;
  return r;
}

}  // namespace aries::tb
