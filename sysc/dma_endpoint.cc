#include "dma_endpoint.h"

#include <fmt/format.h>

#include <stdexcept>

#include "aries_pkg.h"

namespace aries::sysc {

DmaEndpoint::DmaEndpoint(sc_module_name name, const NodeShape& shape, LocalMemory* mem,
                         unsigned prefetch)
    : sc_module(name), shape_(shape), mem_(mem), prefetch_(prefetch), port_(shape) {
  if (!shape.coll_engine) {
    throw std::invalid_argument(
        fmt::format("{}: the node model has no collective engine", this->name()));
  }
  if (prefetch == 0) throw std::invalid_argument("DmaEndpoint: prefetch must be >= 1");
}

void DmaEndpoint::Start(const Job& job) {
  if (active_) {
    throw std::logic_error(fmt::format("{}: a collective is still running", name()));
  }
  if (job.elements == 0) throw std::invalid_argument(fmt::format("{}: empty vector", name()));
  job_ = job;
  active_ = true;
  done_ = false;
  read_ = sent_ = received_ = 0;
  start_cycle_ = done_cycle_ = 0;
}

size_t DmaEndpoint::ElementsOf(size_t flit) const {
  const size_t first = flit * shape_.lanes;
  return std::min<size_t>(shape_.lanes, job_.elements - first);
}

bool DmaEndpoint::Inject(uint64_t cycle, unsigned port, uint32_t* w) {
  if (!active_ || port != 0) return false;
  if (!sc_is_running()) {
    throw std::logic_error(fmt::format(
        "{}: the DMA endpoint's memory is a SystemC process: run the package with the SystemC "
        "kernel (PackageSc), not the plain loop",
        name()));
  }
  if (read_ == 0 && sent_ == 0) start_cycle_ = cycle;
  // Read ahead.
  while (reads_.size() < prefetch_ && read_ < Flits()) {
    auto b = std::make_unique<Buf>();
    b->data.assign(shape_.lanes, 0);
    mem_->Read(job_.src + read_ * shape_.lanes, ElementsOf(read_), b->data.data(), &b->done);
    reads_.push_back(std::move(b));
    ++read_;
  }
  if (reads_.empty() || !reads_.front()->done || !port_.CanSend()) return false;
  // (The read buffer is zero past the vector's end: the last flit's padding.)
  port_.Send(job_.id, job_.op, sent_, reads_.front()->data.data(), shape_.lanes, w);
  reads_.pop_front();
  ++sent_;
  if (!job_.receives && sent_ == Flits()) Finish(cycle);
  return true;
}

uint8_t DmaEndpoint::EjectCredits(uint64_t, unsigned port) {
  if (port != 0) return 0;
  // A slot is freed once its flit's data is in memory.
  while (!writes_.empty() && writes_.front()->done) {
    ++freed_[writes_.front()->vc];
    writes_.pop_front();
  }
  uint8_t m = 0;
  for (unsigned v = 0; v < shape_.num_link_vcs(); ++v) {
    if (freed_[v] > 0) {
      --freed_[v];
      m = static_cast<uint8_t>(m | (1u << v));
    }
  }
  return m;
}

void DmaEndpoint::Finish(uint64_t cycle) {
  active_ = false;
  done_ = true;
  done_cycle_ = cycle;
  ++completed_;
  done_event_.notify(SC_ZERO_TIME);
}

void DmaEndpoint::AfterEdge(uint64_t cycle, const EndpointEdge& edge) {
  port_.Returned(edge.credits[0]);
  for (unsigned i = 1; i < edge.ports; ++i) {
    if (edge.ejected[i]) {
      errors_.push_back(
          fmt::format("cycle {}: a flit on local port {} (the engine's is 0)", cycle, i));
    }
  }
  const uint32_t* ej = edge.ejected[0];
  if (ej) {
    const hw::CollHeader h = hw::UnpackCollHeader(ej[0]);
    auto b = std::make_unique<Buf>();
    b->vc = h.vc;
    if (!active_ || !job_.receives || received_ >= Flits() || !port_.IsEngineVc(h.vc)) {
      errors_.push_back(
          fmt::format("cycle {}: unexpected flit of id {} (VC {})", cycle, h.id, h.vc));
      b->done = true;  // nothing to write: free the slot
    } else {
      EnginePort::Check(cycle, h, job_.id, job_.op, received_, &errors_);
      mem_->Write(job_.dst + received_ * shape_.lanes, ElementsOf(received_), ej + 1, &b->done);
      ++received_;
    }
    writes_.push_back(std::move(b));
  }
  // Complete when every result is in memory.
  if (active_ && job_.receives && received_ == Flits() && sent_ == Flits()) {
    bool all = true;
    for (const auto& b : writes_) all = all && b->done;
    if (all) Finish(cycle);
  }
}

}  // namespace aries::sysc
