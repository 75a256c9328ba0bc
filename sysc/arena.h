// Arena: one allocation holding many small fixed-size arrays (Slice) back to back.
//
// A model stepped node after node touches each node's state once per cycle, and at 64 nodes and
// more that state has left the first-level cache by the node's next turn: every array the cycle
// reads costs at least one cache line. Arrays of a few bytes each (per port, per VC) given one
// allocation each cost a line apiece; packed into one arena in the order the cycle reads them,
// twenty of them share a few lines.
#ifndef ARIES_SYSC_ARENA_H_
#define ARIES_SYSC_ARENA_H_

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace aries::sysc {

class Arena;

// A fixed-size array of trivially copyable T inside an Arena: indexed, iterated and filled as a
// std::vector, never resized. It does not own its storage: it is moved with its arena (an
// arena's memory stays where it is when the arena moves), never copied.
template <class T>
class Slice {
  static_assert(std::is_trivially_copyable_v<T>, "an arena holds plain data");

 public:
  Slice() = default;
  Slice(const Slice&) = delete;
  Slice& operator=(const Slice&) = delete;
  Slice(Slice&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  Slice& operator=(Slice&& o) noexcept {
    p_ = o.p_, n_ = o.n_;
    o.p_ = nullptr, o.n_ = 0;
    return *this;
  }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T* begin() { return p_; }
  T* end() { return p_ + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }
  size_t size() const { return n_; }

 private:
  friend class Arena;
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Slices are laid out by Add (in the order given, each aligned for its type) and get their
// storage, zeroed, in Commit, once: a slice is not usable before.
class Arena {
 public:
  static constexpr size_t kLine = 64;  // the allocation's alignment: a cache line

  template <class T>
  void Add(Slice<T>& s, size_t n) {
    used_ = (used_ + alignof(T) - 1) & ~(alignof(T) - 1);
    s.n_ = n;
    binds_.push_back({&s, used_, &Bind<T>});
    used_ += n * sizeof(T);
  }
  // Several slices of n elements each, in the order given.
  template <class... S>
  void AddEach(size_t n, S&... slices) {
    (Add(slices, n), ...);
  }
  // Starts the next slice on a new cache line (what follows is read apart from what precedes).
  void NewLine() { used_ = (used_ + kLine - 1) & ~(kLine - 1); }
  void Commit() {
    // Whole lines: no other allocation shares one (nodes stepped on other threads).
    const size_t bytes = (used_ + kLine - 1) & ~(kLine - 1);
    mem_.reset(static_cast<std::byte*>(::operator new (bytes, std::align_val_t{kLine})));
    std::memset(mem_.get(), 0, bytes);
    for (const BindAt& b : binds_) b.bind(b.slice, mem_.get() + b.offset);
    binds_.clear();
    binds_.shrink_to_fit();
  }

 private:
  template <class T>
  static void Bind(void* slice, std::byte* at) {
    static_cast<Slice<T>*>(slice)->p_ = reinterpret_cast<T*>(at);
  }
  struct BindAt {
    void* slice;
    size_t offset;
    void (*bind)(void*, std::byte*);
  };
  struct Free {
    void operator()(std::byte* p) const { ::operator delete (p, std::align_val_t{kLine}); }
  };
  std::unique_ptr<std::byte, Free> mem_;
  std::vector<BindAt> binds_;
  size_t used_ = 0;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_ARENA_H_
