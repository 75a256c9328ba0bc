#include "tick_pool.h"

namespace aries::sysc {

namespace {
// Spin iterations before a worker sleeps on the condition variable (about 100 us).
constexpr unsigned kSpins = 20000;
}  // namespace

TickPool::TickPool(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this] { Work(); });
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

void TickPool::Drain() {
  for (unsigned i = next_.fetch_add(1); i < n_; i = next_.fetch_add(1)) (*fn_)(i);
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
    next_.store(0);
    busy_.store(static_cast<unsigned>(workers_.size()));
    generation_.fetch_add(1);
  }
  cv_.notify_all();
  Drain();
  while (busy_.load() != 0) std::this_thread::yield();
}

void TickPool::Work() {
  uint64_t seen = 0;
  for (;;) {
    unsigned spins = 0;
    while (generation_.load() == seen && spins < kSpins) {
      ++spins;
      std::this_thread::yield();
    }
    if (generation_.load() == seen) {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return generation_.load() != seen; });
    }
    {
      std::lock_guard<std::mutex> lk(mu_);
      seen = generation_.load();
      if (stop_) return;
    }
    Drain();
    busy_.fetch_sub(1);
  }
}

}  // namespace aries::sysc
