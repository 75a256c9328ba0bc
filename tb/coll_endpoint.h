// CollEndpoint: a chiplet endpoint for one collective on a package: it injects its local
// vector as request flits of one collective id (VC num_vcs, sequence numbers 0, 1, ..., `lanes`
// elements per flit, the last flit padded with zeros) and collects the flits the engine
// delivers to it (responses on VC num_vcs + 1, or request results at the root of a reduce),
// checking their header. A test stand-in for the DMA endpoint: no memory model, the vector is
// in the object.
#ifndef ARIES_TB_COLL_ENDPOINT_H_
#define ARIES_TB_COLL_ENDPOINT_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "endpoint.h"
#include "node_model.h"

namespace aries::tb {

class CollEndpoint final : public sysc::Endpoint {
 public:
  // `accept`: probability per cycle that a received flit's slot is freed (back-pressure).
  CollEndpoint(const sysc::NodeShape& shape, unsigned id, unsigned op,
               std::vector<uint32_t> vector, double accept, uint64_t seed);

  // Start injecting (after the engines are programmed and started).
  void Start() { started_ = true; }

  bool Inject(uint64_t cycle, uint32_t* words) override;
  uint8_t EjectCredits(uint64_t cycle) override;
  void AfterEdge(uint64_t cycle, uint8_t inject_credits, const uint32_t* ejected) override;

  size_t flits() const { return flits_; }
  size_t sent() const { return sent_; }
  size_t received() const { return received_; }
  uint64_t last_receive_cycle() const { return last_rx_; }
  uint64_t first_inject_cycle() const { return first_tx_; }
  // Received elements (the first vector-size elements of the received flits, by sequence).
  const std::vector<uint32_t>& result() const { return result_; }
  // Header or order problems seen (empty when everything was as expected).
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  sysc::NodeShape shape_;
  unsigned id_, op_;
  std::vector<uint32_t> vec_;
  size_t flits_;
  double accept_;
  std::mt19937_64 rng_;
  bool started_ = false;
  size_t sent_ = 0, received_ = 0;
  unsigned credits_;        // request VC credits
  unsigned fill_[2] = {};   // received flits not yet freed, per class
  std::vector<uint32_t> result_;
  std::vector<std::string> errors_;
  uint64_t first_tx_ = 0, last_rx_ = 0;
};

}  // namespace aries::tb

#endif  // ARIES_TB_COLL_ENDPOINT_H_
