// LocalMemory: a chiplet's local memory as a SystemC module: a word store with a bandwidth
// limit shared by reads and writes (bytes per cycle), serving requests in arrival order once
// per clock cycle, on the falling edge (after every node's rising-edge step, so the result does
// not depend on the order of processes). A request completes in the cycle its last byte is
// served; the data of a read is then in the requester's buffer.
//
// The default bandwidth is the link's (64 B/cycle): PIUMA eq. 2 bounds the collective's
// per-element time by max(2s / BW_link, 2s / BW_mem), so a memory as fast as a duplex link does
// not limit it.
#ifndef ARIES_SYSC_LOCAL_MEMORY_H_
#define ARIES_SYSC_LOCAL_MEMORY_H_

#include <systemc>
using namespace sc_core;  // before verilated.h, as Verilator's SystemC mode expects

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

namespace aries::sysc {

SC_MODULE(LocalMemory) {
  sc_in<bool> clk;

  SC_HAS_PROCESS(LocalMemory);
  // `words` 32-bit words; `bytes_per_cycle` > 0.
  LocalMemory(sc_module_name name, size_t words, double bytes_per_cycle);

  // Posts a read of n words at `addr` into `dst` (kept alive by the caller); `*done` becomes
  // true when it completes. Throws std::out_of_range for an address outside the memory.
  void Read(size_t addr, size_t n, uint32_t * dst, bool* done);
  // Posts a write of n words from `src` (copied now).
  void Write(size_t addr, size_t n, const uint32_t* src, bool* done);

  // Direct access for loading inputs and checking results (no bandwidth, no time).
  std::vector<uint32_t>& words() { return mem_; }
  double bytes_per_cycle() const { return bw_; }
  uint64_t bytes_served() const { return served_; }  // of completed requests
  uint64_t busy_cycles() const { return busy_; }

 private:
  struct Req {
    bool write;
    size_t addr, n;
    double done_bytes;
    uint32_t* dst;
    std::vector<uint32_t> data;
    bool* done;
  };
  void Check(size_t addr, size_t n) const;
  void OnFall();

  std::vector<uint32_t> mem_;
  double bw_, budget_ = 0;
  std::deque<Req> q_;
  uint64_t served_ = 0, busy_ = 0;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_LOCAL_MEMORY_H_
