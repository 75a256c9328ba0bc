#include "tick_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace aries::sysc {

namespace {
// A waiting thread first spins on the CPU (kPauses pause instructions, some tens of
// microseconds: a window's wait is usually shorter, and a yield is a system call that costs
// about a microsecond, more on a virtual machine), then yields (kYields times, about 100 us
// more; another thread on this core may need it), then sleeps on the condition variable.
constexpr unsigned kPauses = 32768;
constexpr unsigned kYields = 20000;

void Relax(unsigned spins) {
#if defined(__x86_64__) || defined(__i386__)
  if (spins < kPauses) {
    _mm_pause();
    return;
  }
#else
  (void)spins;
#endif
  std::this_thread::yield();
}
}  // namespace

TickPool::TickPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { Work(t); });
}

TickPool::~TickPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void TickPool::Drain(unsigned t) {
  for (unsigned i = t; i < n_; i += threads()) (*fn_)(i);
}

void TickPool::Run(unsigned n, const std::function<void(unsigned)>& fn) {
  if (workers_.empty() || n < 2) {
    for (unsigned i = 0; i < n; ++i) fn(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    n_ = n;
    fn_ = &fn;
    busy_.store(static_cast<unsigned>(workers_.size()));
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  Drain(0);
  for (unsigned spins = 0; busy_.load() != 0; ++spins) Relax(spins);
}

void TickPool::Work(unsigned t) {
  uint64_t seen = 0;
  for (;;) {
    for (unsigned spins = 0; generation_.load() == seen && spins < kPauses + kYields; ++spins)
      Relax(spins);
    if (generation_.load() == seen) {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return generation_.load() != seen; });
    }
    {
      std::lock_guard<std::mutex> lk(mu_);
      seen = generation_.load();
      if (stop_) return;
    }
    Drain(t);
    busy_.fetch_sub(1);
  }
}

}  // namespace aries::sysc
