#include "local_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace aries::sysc {

LocalMemory::LocalMemory(sc_module_name name, size_t words, double bytes_per_cycle)
    : sc_module(name), mem_(words, 0), bw_(bytes_per_cycle) {
  if (!(bytes_per_cycle > 0)) {
    throw std::invalid_argument(
        fmt::format("{}: memory bandwidth {} B/cycle: must be > 0", this->name(), bytes_per_cycle));
  }
  SC_METHOD(OnFall);
  sensitive << clk.neg();
  dont_initialize();
}

void LocalMemory::Check(size_t addr, size_t n) const {
  if (addr + n > mem_.size() || addr + n < addr) {
    throw std::out_of_range(fmt::format("{}: access to words {} .. {}: the memory has {} words",
                                        name(), addr, addr + n - 1, mem_.size()));
  }
}

void LocalMemory::Read(size_t addr, size_t n, uint32_t* dst, bool* done) {
  Check(addr, n);
  *done = false;
  q_.push_back({false, addr, n, 0.0, dst, {}, done});
}

void LocalMemory::Write(size_t addr, size_t n, const uint32_t* src, bool* done) {
  Check(addr, n);
  *done = false;
  q_.push_back({true, addr, n, 0.0, nullptr, std::vector<uint32_t>(src, src + n), done});
}

void LocalMemory::OnFall() {
  if (q_.empty()) {
    budget_ = 0;  // bandwidth unused in an idle cycle is lost
    return;
  }
  ++busy_;
  budget_ += bw_;
  while (!q_.empty() && budget_ > 0) {
    Req& r = q_.front();
    const double left = static_cast<double>(4 * r.n) - r.done_bytes;
    const double take = std::min(left, budget_);
    budget_ -= take;
    r.done_bytes += take;
    if (r.done_bytes < static_cast<double>(4 * r.n)) break;
    served_ += 4 * r.n;  // whole requests (a fractional bandwidth would truncate partial ones)
    if (r.write) {
      std::copy(r.data.begin(), r.data.end(), mem_.begin() + static_cast<ptrdiff_t>(r.addr));
    } else {
      std::memcpy(r.dst, &mem_[r.addr], r.n * sizeof(uint32_t));
    }
    *r.done = true;
    q_.pop_front();
  }
  if (budget_ > 0) budget_ = 0;  // no credit carried beyond an emptied queue
}

}  // namespace aries::sysc
