// EnginePort: the chiplet's side of the collective engine at the node's local port, the one
// piece every collective endpoint shares (tb::CollEndpoint, DmaEndpoint, ScheduleEndpoint).
// It sends request flits on the request VC (VC num_vcs) under that VC's credits: the header
// carries the collective id, the operation and the flit's sequence number (modulo 2^12), the
// payload `lanes` elements with the last flit padded with zeros. It recognises the flits the
// engine delivers (the two engine VCs num_vcs and num_vcs + 1) and checks a result's header
// against the id, operation and sequence number the endpoint expects.
#ifndef ARIES_SYSC_ENGINE_PORT_H_
#define ARIES_SYSC_ENGINE_PORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "aries_pkg.h"
#include "node_model.h"

namespace aries::sysc {

class EnginePort {
 public:
  explicit EnginePort(const NodeShape& shape)
      : vc_(shape.num_vcs), lanes_(shape.lanes), credits_(shape.coll_depth) {}

  // A request flit may be sent this cycle (the engine's request queue has room).
  bool CanSend() const { return credits_ > 0; }
  // Writes the request flit of (id, op, seq) carrying `n` <= lanes elements of `data` (the
  // rest zero) into `words` and takes a credit.
  void Send(unsigned id, unsigned op, uint64_t seq, const uint32_t* data, size_t n,
            uint32_t* words) {
    words[0] = hw::PackCollHeader({vc_, id, op, static_cast<unsigned>(seq)});
    for (unsigned l = 0; l < lanes_; ++l) words[1 + l] = l < n ? data[l] : 0u;
    --credits_;
  }
  // The credits the node returned this edge (the endpoint's `inject_credits`).
  void Returned(uint8_t inject_credits) {
    if ((inject_credits >> vc_) & 1u) ++credits_;
  }

  // Whether an ejected flit's VC is one of the engine's (a collective result or request).
  bool IsEngineVc(unsigned vc) const { return vc == vc_ || vc == vc_ + 1; }
  // Checks a delivered flit's header against the expected (id, op, seq); on a difference
  // appends "cycle C: received id .. op .. seq .., expected ..." to `errors`.
  static bool Check(uint64_t cycle, const hw::CollHeader& h, unsigned id, unsigned op, uint64_t seq,
                    std::vector<std::string>* errors);

 private:
  unsigned vc_, lanes_, credits_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_ENGINE_PORT_H_
