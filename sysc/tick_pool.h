// TickPool: runs one function over the indices 0 .. n-1 on a few threads and returns when all
// are done. The package's loop kernel uses it to step its partitions through one window in
// parallel (Package::Run): within a window the partitions share nothing but channel slots that
// the lookahead keeps apart, so results do not depend on the thread count.
//
// Thread t (the caller is 0) runs the indices t, t + threads(), ...: the same every call, so a
// partition's state stays in its core's cache from window to window.
//
// Workers spin between windows (on the CPU for up to 200 us when the threads fit the machine's
// cores, then yielding for about 100 us more), since a window of an 8 x 8 package takes tens to
// hundreds of microseconds and a condition-variable wake-up would cost a good part of that;
// after that they sleep on the condition variable.
#ifndef ARIES_SYSC_TICK_POOL_H_
#define ARIES_SYSC_TICK_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace aries::sysc {

class TickPool {
 public:
  // `threads` counts the calling thread: 1 runs everything inline and starts no worker.
  explicit TickPool(unsigned threads);
  ~TickPool();
  TickPool(const TickPool&) = delete;
  TickPool& operator=(const TickPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls fn(i) once for every i in [0, n), spread over the threads (see above); fn must not
  // throw.
  void Run(unsigned n, const std::function<void(unsigned)>& fn);

 private:
  void Work(unsigned t);
  void Drain(unsigned t);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<unsigned> busy_{0};
  unsigned n_ = 0;
  const std::function<void(unsigned)>* fn_ = nullptr;
  bool stop_ = false;
  bool spin_ = true;  // waits may spin on the CPU: the threads fit the machine's cores
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_TICK_POOL_H_
