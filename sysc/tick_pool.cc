#include "tick_pool.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace aries::sysc {

namespace {
// A waiting thread first spins on the CPU with pause instructions for up to kPauseTime (a
// window's wait is usually shorter, and a yield is a system call that costs about a
// microsecond, more on a virtual machine), unless the pool has more threads than the machine
// has cores (a spinning thread would hold a core that the thread it waits for needs); then it
// yields (a worker kYields times, about 100 us more, before it sleeps on the condition
// variable; the caller until the workers are done).
constexpr auto kPauseTime = std::chrono::microseconds(200);
constexpr unsigned kYields = 20000;

class Waiter {
 public:
  explicit Waiter(bool pause) : pause_(pause) {}
  // One step of the wait.
  void Step() {
#if defined(__x86_64__) || defined(__i386__)
    if (pause_) {
      // The clock every 256 pauses (some microseconds): the first look starts it.
      if ((spins_++ & 255u) != 0) {
        _mm_pause();
        return;
      }
      const auto now = std::chrono::steady_clock::now();
      if (spins_ == 1) until_ = now + kPauseTime;
      if (now < until_) {
        _mm_pause();
        return;
      }
      pause_ = false;
    }
#endif
    ++yields_;
    std::this_thread::yield();
  }
  unsigned yields() const { return yields_; }

 private:
  bool pause_;
  unsigned spins_ = 0, yields_ = 0;
  std::chrono::steady_clock::time_point until_;
};
}  // namespace

TickPool::TickPool(unsigned threads) {
  const unsigned cores = std::thread::hardware_concurrency();
  spin_ = cores == 0 || threads <= cores;
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
  for (Waiter w(spin_); busy_.load() != 0;) w.Step();
}

void TickPool::Work(unsigned t) {
  uint64_t seen = 0;
  for (;;) {
    for (Waiter w(spin_); generation_.load() == seen && w.yields() < kYields;) w.Step();
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
