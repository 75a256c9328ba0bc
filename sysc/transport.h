// Transport: how the ranks of a distributed package talk. A package that outgrows one process
// is cut into ranks (blocks of rows, see Package); each rank steps its own nodes and, between
// windows, hands the others what crossed its borders. The calls are collective: every rank
// makes the same calls in the same order (the package and the traffic keep their ranks in
// lockstep by deciding only on values every rank has).
//
// ThreadTransport (here) connects ranks that are threads of one process, for tests; the MPI
// one (sim/runs/mpi_transport.h) connects processes started by mpirun.
#ifndef ARIES_SYSC_TRANSPORT_H_
#define ARIES_SYSC_TRANSPORT_H_

#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace aries::sysc {

using Bytes = std::vector<uint8_t>;

class Transport {
 public:
  enum class Reduce { kSum, kMax, kOr };
  virtual ~Transport() = default;
  virtual unsigned rank() const = 0;
  virtual unsigned ranks() const = 0;
  // Sends out[r] to every other rank r (out has ranks() entries; out[rank()] is ignored) and
  // returns what each rank sent here (entry rank() empty).
  virtual std::vector<Bytes> Exchange(const std::vector<Bytes>& out) = 0;
  // Element-wise over all ranks; every rank gets the result.
  virtual void AllReduce(std::vector<uint64_t>& v, Reduce op) = 0;

  // Helpers built on the two.
  uint64_t Sum(uint64_t x);
  uint64_t Max(uint64_t x);
  bool Any(bool x);
  // Every rank's `mine`, in rank order.
  std::vector<Bytes> AllGather(const Bytes& mine);
};

// Appends and reads plain values in a byte buffer (same machine layout on every rank).
class ByteWriter {
 public:
  explicit ByteWriter(Bytes& b) : b_(b) {}
  template <typename T>
  void Put(const T& v) {
    const size_t at = b_.size();
    b_.resize(at + sizeof(T));
    std::memcpy(&b_[at], &v, sizeof(T));
  }
  void PutWords(const uint32_t* w, unsigned n) {
    const size_t at = b_.size();
    b_.resize(at + n * sizeof(uint32_t));
    std::memcpy(&b_[at], w, n * sizeof(uint32_t));
  }
  void PutString(const std::string& s) {
    Put<uint64_t>(s.size());
    b_.insert(b_.end(), s.begin(), s.end());
  }

 private:
  Bytes& b_;
};

class ByteReader {
 public:
  explicit ByteReader(const Bytes& b) : b_(b) {}
  bool done() const { return at_ >= b_.size(); }
  template <typename T>
  T Get() {
    T v;
    std::memcpy(&v, Take(sizeof(T)), sizeof(T));
    return v;
  }
  // n words, copied out (the buffer need not be aligned).
  void Words(uint32_t* w, unsigned n) {
    std::memcpy(w, Take(n * sizeof(uint32_t)), n * sizeof(uint32_t));
  }
  std::string GetString() {
    const auto n = Get<uint64_t>();
    const auto* p = reinterpret_cast<const char*>(Take(n));
    return std::string(p, p + n);
  }

 private:
  const uint8_t* Take(size_t n) {
    if (at_ + n > b_.size())
      throw std::out_of_range("transport: message shorter than its contents");
    const uint8_t* p = b_.data() + at_;
    at_ += n;
    return p;
  }
  const Bytes& b_;
  size_t at_ = 0;
};

// Ranks that are threads of one process: Hub is shared, each thread holds one ThreadTransport.
class ThreadTransport final : public Transport {
 public:
  class Hub {
   public:
    explicit Hub(unsigned ranks);

   private:
    friend class ThreadTransport;
    void Barrier();
    unsigned ranks_;
    std::mutex mu_;
    std::condition_variable cv_;
    unsigned arrived_ = 0;
    uint64_t generation_ = 0;
    std::vector<std::vector<Bytes>> slots_;      // [from][to]
    std::vector<std::vector<uint64_t>> reduce_;  // [from]
  };
  ThreadTransport(std::shared_ptr<Hub> hub, unsigned rank) : hub_(std::move(hub)), rank_(rank) {}
  unsigned rank() const override { return rank_; }
  unsigned ranks() const override { return hub_->ranks_; }
  std::vector<Bytes> Exchange(const std::vector<Bytes>& out) override;
  void AllReduce(std::vector<uint64_t>& v, Reduce op) override;

 private:
  std::shared_ptr<Hub> hub_;
  unsigned rank_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_TRANSPORT_H_
