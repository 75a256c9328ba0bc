// Channel: one direction of an interposer link (passive wires): flits from a sender node's link
// port to a receiver node's link port, and the receiver's credits back, both `latency` cycles
// of wire on top of the one-cycle register-to-register hop.
//
// The last `in_regs` of those wire cycles are the receiving node's link input registers
// (aries_node registers everything arriving on a link), so the channel itself holds
// latency - in_regs cycles and the node pin sees a flit that many cycles earlier; from output
// register to the logic behind the input register it is still 1 + latency cycles.
//
// Timing: what a node drives after the edge of cycle t reaches the other end's pins as an input
// in cycle t + lookahead(), lookahead() = 1 + latency - in_regs. Entries are stamped with their
// arrival cycle in a ring of at least 2 lookahead() slots (a power of two: a slot is the
// arrival cycle's low bits, no division). So nodes may be stepped in any order within a
// cycle (the SystemC scheduler's order gives the same result as the plain loop; tests/sysc
// checks it), and sender and receiver may each run up to lookahead() cycles past the last cycle
// both finished (Package::Run's windows): the sender then writes arrival cycles below
// T + 2 lookahead(), the receiver still reads cycles from T, and no slot is shared.
#ifndef ARIES_SYSC_CHANNEL_H_
#define ARIES_SYSC_CHANNEL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "arena.h"
#include "node_model.h"

namespace aries::sysc {

class Channel {
 public:
  // latency >= in_regs (the package refuses shorter links).
  Channel(std::string name, unsigned latency, unsigned in_regs, unsigned words, unsigned src,
          unsigned src_link, unsigned dst, unsigned dst_link)
      : name_(std::move(name)),
        latency_(latency),
        delay_(latency - in_regs),
        words_(words),
        ring_(RingSize(2 * (delay_ + 1))),
        mask_(ring_ - 1),
        src_(src),
        src_link_(src_link),
        dst_(dst),
        dst_link_(dst_link) {
    // The ring's four arrays in one allocation (a line or two at a short link's ring of 2).
    arena_.AddEach(ring_, flit_stamp_, credit_stamp_);
    arena_.Add(flits_, ring_ * words);
    arena_.Add(credits_, ring_);
    arena_.Commit();
    std::fill(flit_stamp_.begin(), flit_stamp_.end(), kNever);
    std::fill(credit_stamp_.begin(), credit_stamp_.end(), kNever);
  }

  const std::string& name() const { return name_; }
  unsigned latency() const { return latency_; }      // wire cycles of the link
  unsigned lookahead() const { return delay_ + 1; }  // cycles from send to the far end's pins
  unsigned src() const { return src_; }
  unsigned src_link() const { return src_link_; }
  unsigned dst() const { return dst_; }
  unsigned dst_link() const { return dst_link_; }

  // The receiver's arrival ring: `ring` holds one word per cycle (a power of two, `mask` + 1,
  // at least 2 lookahead() entries), bit dst_link() of the word of a flit's arrival cycle is set
  // when it is sent, and the receiver reads and clears the word of each cycle, so it visits only
  // the links with an arriving flit. `atomic`: senders on several threads share the words.
  void SetArrivals(uint64_t* ring, unsigned mask, bool atomic) { arrivals_ = {ring, mask, atomic}; }
  // The same for credits: the sender's ring (credits arrive there), bit src_link().
  void SetCreditArrivals(uint64_t* ring, unsigned mask, bool atomic) {
    credit_arrivals_ = {ring, mask, atomic};
  }

  void SendFlit(uint64_t cycle, const uint32_t* words) {
    if (cycle >= dead_from_) {  // a dead wire: sent by one end, never seen by the other
      ++flits_sent_;
      ++flits_lost_;
      return;
    }
    const uint64_t at = cycle + lookahead();
    const unsigned s = static_cast<unsigned>(at & mask_);
    flit_stamp_[s] = at;
    CopyFlit(&flits_[s * words_], words, words_);
    arrivals_.Mark(at, dst_link_);
    ++flits_sent_;
  }
  // The flit arriving in `cycle`, or nullptr.
  const uint32_t* FlitAt(uint64_t cycle) const {
    const unsigned s = static_cast<unsigned>(cycle & mask_);
    return flit_stamp_[s] == cycle ? &flits_[s * words_] : nullptr;
  }
  void SendCredit(uint64_t cycle, uint8_t vc_mask) {
    if (cycle >= dead_from_) {
      credits_lost_ += static_cast<uint64_t>(__builtin_popcount(vc_mask));
      return;
    }
    const uint64_t at = cycle + lookahead();
    const unsigned s = static_cast<unsigned>(at & mask_);
    credit_stamp_[s] = at;
    credits_[s] = vc_mask;
    credit_arrivals_.Mark(at, src_link_);
  }
  uint8_t CreditAt(uint64_t cycle) const {
    const unsigned s = static_cast<unsigned>(cycle & mask_);
    // A mask, not a branch: whether a credit arrives is as good as random.
    const auto here = static_cast<uint8_t>(0u - static_cast<unsigned>(credit_stamp_[s] == cycle));
    return credits_[s] & here;
  }
  // Something is on the wires after `cycle` (sent, not yet arrived).
  bool InFlight(uint64_t cycle) const {
    for (unsigned s = 0; s < ring_; ++s) {
      if (flit_stamp_[s] != kNever && flit_stamp_[s] > cycle) return true;
      if (credit_stamp_[s] != kNever && credit_stamp_[s] > cycle && credits_[s] != 0) return true;
    }
    return false;
  }

  // Faults (collectives/faults.h): from cycle `from` on the wires carry nothing either way;
  // what the ends send is counted by the sender's PHY and never received by the other's
  // (flits_lost, credits_lost: sent minus received, the gap a link layer's counters show).
  static constexpr uint64_t kAlive = ~uint64_t{0};
  void SetDeadFrom(uint64_t from) { dead_from_ = from; }
  uint64_t dead_from() const { return dead_from_; }
  uint64_t flits_lost() const { return flits_lost_; }
  uint64_t credits_lost() const { return credits_lost_; }

  uint64_t flits_sent() const { return flits_sent_; }
  void set_flits_sent(uint64_t n) { flits_sent_ = n; }  // from the sender's rank

  // Distributed packages: what was sent in cycles [from, to) (to - from <= lookahead()), by
  // arrival cycle, and the same entries written into the other rank's copy of the channel.
  template <typename Fn>
  void ForEachFlitSent(uint64_t from, uint64_t to, Fn fn) const {
    for (uint64_t at = from + lookahead(); at < to + lookahead(); ++at) {
      if (const uint32_t* f = FlitAt(at)) fn(at, f);
    }
  }
  template <typename Fn>
  void ForEachCreditSent(uint64_t from, uint64_t to, Fn fn) const {
    for (uint64_t at = from + lookahead(); at < to + lookahead(); ++at) {
      if (const uint8_t c = CreditAt(at)) fn(at, c);
    }
  }
  void PutFlit(uint64_t at, const uint32_t* words) {
    const unsigned s = static_cast<unsigned>(at & mask_);
    flit_stamp_[s] = at;
    CopyFlit(&flits_[s * words_], words, words_);
    arrivals_.Mark(at, dst_link_);
  }
  void PutCredit(uint64_t at, uint8_t vc_mask) {
    const unsigned s = static_cast<unsigned>(at & mask_);
    credit_stamp_[s] = at;
    credits_[s] = vc_mask;
    credit_arrivals_.Mark(at, src_link_);
  }
  unsigned words() const { return words_; }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  // A ring of words, one per cycle (SetArrivals): Mark sets `bit` in the word of cycle `at`.
  struct Marks {
    uint64_t* ring = nullptr;
    unsigned mask = 0;
    bool atomic = false;  // senders on several threads share the words
    void Mark(uint64_t at, unsigned bit) const {
      if (ring == nullptr) return;
      uint64_t* word = &ring[at & mask];
      if (atomic)
        __atomic_fetch_or(word, uint64_t{1} << bit, __ATOMIC_RELAXED);
      else
        *word |= uint64_t{1} << bit;
    }
  };
  static unsigned RingSize(unsigned at_least) {
    unsigned r = 1;
    while (r < at_least) r *= 2;
    return r;
  }

  std::string name_;
  unsigned latency_, delay_, words_, ring_, mask_;
  unsigned src_, src_link_, dst_, dst_link_;
  Arena arena_;
  Slice<uint64_t> flit_stamp_;
  Slice<uint64_t> credit_stamp_;
  Slice<uint32_t> flits_;
  Slice<uint8_t> credits_;
  uint64_t flits_sent_ = 0;
  uint64_t dead_from_ = kAlive;
  uint64_t flits_lost_ = 0, credits_lost_ = 0;
  Marks arrivals_, credit_arrivals_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_CHANNEL_H_
