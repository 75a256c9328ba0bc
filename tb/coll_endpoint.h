// CollEndpoint: a chiplet endpoint for collectives on a package: it injects its local vector
// of each collective id as request flits (VC num_vcs, sequence numbers 0, 1, ... per id,
// `lanes` elements per flit, the last flit padded with zeros) and collects the flits the
// engine delivers to it (responses on VC num_vcs + 1, or request results at the root of a
// reduce), checking their header. Several ids are sent and received in the order of a step
// schedule (the engines' program order: `steps` entries of (id, flits), repeated `passes`
// times). A test stand-in for the DMA endpoint: no memory model, the vectors are in the object.
#ifndef ARIES_TB_COLL_ENDPOINT_H_
#define ARIES_TB_COLL_ENDPOINT_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "endpoint.h"
#include "engine_port.h"
#include "node_model.h"

namespace aries::tb {

class CollEndpoint final : public sysc::Endpoint {
 public:
  struct Coll {
    unsigned id, op;
    std::vector<uint32_t> vector;
  };
  struct Step {
    unsigned id;     // index into the collectives
    unsigned flits;  // flits of this step
  };
  // `accept`: probability per cycle that a received flit's slot is freed (back-pressure).
  CollEndpoint(const sysc::NodeShape& shape, unsigned id, unsigned op, std::vector<uint32_t> vector,
               double accept, uint64_t seed);
  // Several collectives in a schedule of steps (the same schedule for sending and receiving).
  CollEndpoint(const sysc::NodeShape& shape, std::vector<Coll> colls, std::vector<Step> steps,
               unsigned passes, double accept, uint64_t seed);

  // Start injecting (after the engines are programmed and started).
  void Start() { started_ = true; }

  // Local port 0 only (the engine's port).
  bool Inject(uint64_t cycle, unsigned port, uint32_t* words) override;
  uint8_t EjectCredits(uint64_t cycle, unsigned port) override;
  void AfterEdge(uint64_t cycle, const sysc::EndpointEdge& edge) override;

  size_t flits() const { return flits_; }  // of every collective together
  size_t sent() const { return sent_; }
  size_t received() const { return received_; }
  uint64_t last_receive_cycle() const { return last_rx_; }
  // Received elements of collective c (by sequence number).
  const std::vector<uint32_t>& result(size_t c = 0) const { return colls_[c].result; }
  // Header or order problems seen (empty when everything was as expected).
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct State {
    unsigned id, op;
    std::vector<uint32_t> vec, result;
    size_t sent = 0, received = 0;
  };
  // Collective of the flit number n of the schedule (sending or receiving).
  size_t CollOf(size_t n) const { return order_[n]; }

  sysc::NodeShape shape_;
  std::vector<State> colls_;
  std::vector<size_t> order_;  // collective of each flit of the schedule, in order
  size_t flits_;
  double accept_;
  std::mt19937_64 rng_;
  bool started_ = false;
  size_t sent_ = 0, received_ = 0;
  sysc::EnginePort port_;  // request flits, credits, result headers
  unsigned fill_[2] = {};  // received flits not yet freed, per class
  std::vector<std::string> errors_;
  uint64_t last_rx_ = 0;
};

// Two endpoints on the same local ports, on disjoint VCs (a collective endpoint and
// point-to-point traffic): on each port the first injects when it has a flit, else the second;
// credits and ejected flits are split by VC.
class SharedPort final : public sysc::Endpoint {
 public:
  // `first_vcs`: VC mask of the first endpoint (ejected flits on these VCs go to it).
  SharedPort(sysc::Endpoint* first, sysc::Endpoint* second, uint8_t first_vcs)
      : a_(first), b_(second), a_vcs_(first_vcs) {}
  bool Inject(uint64_t cycle, unsigned port, uint32_t* words) override;
  uint8_t EjectCredits(uint64_t cycle, unsigned port) override;
  void AfterEdge(uint64_t cycle, const sysc::EndpointEdge& edge) override;

 private:
  sysc::Endpoint *a_, *b_;
  uint8_t a_vcs_;
};

}  // namespace aries::tb

#endif  // ARIES_TB_COLL_ENDPOINT_H_
