// LockstepNode: two node models driven by the same pins every cycle, their outputs compared pin
// by pin (the Verilated RTL and the fast C++ model: the proof that they are equal). The first
// mismatch throws NodeMismatch naming the cycle, the node, the pin and both values; the package
// reports it and stops.
//
// The candidate may carry fewer lanes than the reference (the fast model on point-to-point
// traffic, sim.payload = id, against the RTL, which carries every lane): the reference then
// gets each input flit with the lanes the candidate does not carry set to zero, every flit it
// drives must keep them zero (else a mismatch naming the pin), and the package sees the carried
// words.
#ifndef ARIES_SYSC_LOCKSTEP_NODE_H_
#define ARIES_SYSC_LOCKSTEP_NODE_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "node_model.h"

namespace aries::sysc {

class NodeMismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The first pin where a and b differ ("" when they agree), as "pin: a vs b". Flit words are
// compared only for valid flits (the models leave invalid flit wires unwritten).
std::string CompareNodeOut(const NodeShape& shape, const NodeOut& a, const NodeOut& b,
                           const char* a_name, const char* b_name);

class LockstepNode final : public NodeModel {
 public:
  // `reference` is stepped first and its outputs are the ones the package sees. Throws
  // std::invalid_argument when the candidate carries more words than the reference or has other
  // links or local ports.
  LockstepNode(std::unique_ptr<NodeModel> reference, std::unique_ptr<NodeModel> candidate,
               std::string name);
  // The candidate's (the words the package moves).
  const NodeShape& shape() const override { return cand_->shape(); }
  void Reset(unsigned x, unsigned y) override;
  void Tick(const NodeIn& in, NodeOut& out) override;
  void Trace(VerilatedFstC* fst) override { ref_->Trace(fst); }
  uint64_t ticks() const { return ticks_; }

 private:
  std::unique_ptr<NodeModel> ref_, cand_;
  std::string name_;
  NodeOut cand_out_;
  uint64_t ticks_ = 0;
  // A candidate carrying fewer words: the reference's pins at its width.
  bool narrow_ = false;
  NodeIn ref_in_;
  NodeOut ref_out_;
  std::string Narrow(const NodeIn& in, NodeOut& out);
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_LOCKSTEP_NODE_H_
