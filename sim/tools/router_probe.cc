// A design probe for issue 21's speed target, not a model of the node: what one node-cycle of a
// bare router mesh costs when every port and VC is visited every cycle, when only the nodes,
// ports and VCs holding flits are, and when eight nodes are stepped at once in vector lanes.
//
// An 8x8 mesh of input-queued routers of the shipped point-to-point shape (5 ports, 4 VCs of 32
// flits, dimension order, a VC selected per input then the switch allocated per output, both by
// round robin, credits, an output VC owned by a packet from head to tail, 1-cycle links) and
// Bernoulli uniform sources of 4-flit packets. It is not the RTL's timing: no input or output
// registers, one cycle per hop, no register bus, engine, pass-through, multicast, checks or
// statistics beyond the accepted load and the mean latency.
//
// Three ways of stepping the same routers, which must print the same accepted load and latency:
//   all     every port and VC of every node by loops of fixed length; with -DBRANCHY the
//           choices are written as branches (`cond ? a : b`), otherwise as masks;
//   active  only the nodes with something to do (a flit buffered or arriving, a credit
//           arriving, a packet waiting at the source), and in them only the inputs and VCs
//           holding flits and the outputs requested, by loops over bit masks;
//   simd    a row of eight nodes as the lanes of AVX2 vectors, every port and VC every cycle
//           without branches on the traffic (built with -march=x86-64-v3 only).
//
//   g++ -O3 -march=x86-64-v3 -DBRANCHY -o /tmp/probe sim/tools/router_probe.cc
//   /tmp/probe all 0.3 30100      # mode, offered flits/node/cycle, cycles
//   /tmp/probe active 0.3 30100   # prints ns per node-cycle
//   /tmp/probe simd 0.3 30100
//
// The README (Fast model against the peers) gives what it measured.
#include <chrono>
#ifdef __AVX2__
#include <immintrin.h>
#endif
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kK = 8, kN = kK * kK, kP = 5, kV = 4, kD = 32, kLen = 4;
static_assert(kN <= 64, "the active nodes are one 64-bit mask");

// hdr: destination [7:0], head [8], tail [9], VC [11:10], output port [14:12] (set on arrival).
struct Flit {
  uint32_t hdr, id;
};

struct Node {
  Flit fifo[kP][kV][kD];
  uint8_t cnt[kP][kV], rd[kP][kV], wr[kP][kV];
  uint8_t cred[kP][kV];   // per output VC: credits
  uint8_t owner[kP][kV];  // per output VC: 0 free, else the owning input + 1
  uint8_t vc_last[kP], sw_last[kP];
  // Pins of the next and this cycle (by cycle parity): flits per input, credits per output.
  Flit in_flit[2][kP];
  uint8_t in_valid[2];
  uint8_t in_cred[2][kP];
  uint8_t in_cred_any[2];  // (active) outputs with a credit arriving
  Flit out_flit[kP];
  uint8_t up_cred[kP];   // per input: the VC mask of the credit going upstream
  uint8_t nonempty[kP];  // (active) per input: VCs holding a flit
  uint8_t ne_ports;      // (active) inputs with a VC holding a flit
  uint8_t route[kN];     // per destination: the output port
  Flit spare;            // (all) where an input without a flit writes
};

inline uint32_t Pick(bool c, uint32_t a, uint32_t b) {
#ifdef BRANCHY
  return c ? a : b;
#else
  const uint32_t m = 0u - static_cast<uint32_t>(c);
  return (a & m) | (b & ~m);
#endif
}

inline unsigned Ctz(uint64_t v) { return static_cast<unsigned>(__builtin_ctzll(v)); }

// table[m * n + l]: the first requester of mask m after l, wrapping (0 when m is empty).
void FillRoundRobin(uint8_t* table, int n) {
  for (int m = 0; m < (1 << n); ++m) {
    for (int l = 0; l < n; ++l) {
      table[m * n + l] = 0;
      for (int i = 1; i <= n; ++i) {
        if ((m >> ((l + i) % n)) & 1) {
          table[m * n + l] = static_cast<uint8_t>((l + i) % n);
          break;
        }
      }
    }
  }
}

struct Mesh {
  std::vector<Node> nodes = std::vector<Node>(kN);
  int nb[kN][kP];                             // the neighbour on each output port
  const int arrive_on[kP] = {0, 2, 1, 4, 3};  // the input port a flit arrives on there
  uint8_t rr_vc[1 << kV][kV], rr_port[1 << kP][kP];
  // Sources: packets waiting (destination, cycle made), the flit next, the VC in use, the
  // injection credits per VC.
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> queue =
      std::vector<std::deque<std::pair<uint32_t, uint64_t>>>(kN);
  std::vector<int> next_flit = std::vector<int>(kN, 0), next_vc = std::vector<int>(kN, 0),
                   cur_vc = std::vector<int>(kN, 0);
  std::vector<uint32_t> cur_id = std::vector<uint32_t>(kN, 0);
  std::vector<uint8_t> src_cred = std::vector<uint8_t>(kN * kV, kD);
  std::vector<uint64_t> made;                     // per packet id: the cycle it was made
  uint64_t injected = 0, ejected = 0, tails = 0;  // flits injected and ejected, packets ejected
  double latency = 0;
  uint64_t active[2] = {0, 0};  // (active) nodes to step, by cycle parity

  Mesh() {
    FillRoundRobin(&rr_vc[0][0], kV);
    FillRoundRobin(&rr_port[0][0], kP);
    for (int n = 0; n < kN; ++n) {
      Node& a = nodes[n];
      std::memset(&a, 0, sizeof a);
      const int x = n % kK, y = n / kK;
      std::memset(a.cred, kD, sizeof a.cred);
      std::memset(a.vc_last, kV - 1, sizeof a.vc_last);
      std::memset(a.sw_last, kP - 1, sizeof a.sw_last);
      for (int d = 0; d < kN; ++d) {
        const int dx = d % kK, dy = d / kK;
        a.route[d] = static_cast<uint8_t>(dx > x ? 1 : dx < x ? 2 : dy > y ? 3 : dy < y ? 4 : 0);
      }
      nb[n][0] = -1;
      nb[n][1] = x + 1 < kK ? n + 1 : -1;
      nb[n][2] = x > 0 ? n - 1 : -1;
      nb[n][3] = y + 1 < kK ? n + kK : -1;
      nb[n][4] = y > 0 ? n - kK : -1;
    }
  }

  // The source: the next flit of its oldest packet for input 0, given a credit (false: none).
  bool Source(int n, Flit& out) {
    if (queue[n].empty()) return false;
    const int v = next_flit[n] == 0 ? next_vc[n] : cur_vc[n];
    if (src_cred[n * kV + v] == 0) return false;
    if (next_flit[n] == 0) {
      cur_vc[n] = v;
      next_vc[n] = (v + 1) % kV;
      cur_id[n] = static_cast<uint32_t>(made.size());
      made.push_back(queue[n].front().second);
    }
    out = {queue[n].front().first | static_cast<uint32_t>(next_flit[n] == 0) << 8 |
               static_cast<uint32_t>(next_flit[n] == kLen - 1) << 9 |
               static_cast<uint32_t>(v) << 10,
           cur_id[n]};
    --src_cred[n * kV + v];
    ++injected;
    if (++next_flit[n] == kLen) {
      next_flit[n] = 0;
      queue[n].pop_front();
    }
    return true;
  }

  void Eject(const Flit& f, long c) {
    ++ejected;
    if ((f.hdr >> 9) & 1) {
      ++tails;
      latency += static_cast<double>(static_cast<uint64_t>(c) - made[f.id]);
    }
  }

  void StepAll(int n, long c);
  void StepActive(int n, long c);
};

void Mesh::StepAll(int n, long c) {
  const int cur = static_cast<int>(c & 1), nxt = cur ^ 1;
  Node& a = nodes[n];
  uint32_t valid = a.in_valid[cur];
  if (Source(n, a.in_flit[cur][0])) valid |= 1;
  // Credits from downstream.
  for (int o = 1; o < kP; ++o) {
    const uint32_t cm = a.in_cred[cur][o];
    for (int v = 0; v < kV; ++v)
      a.cred[o][v] = static_cast<uint8_t>(a.cred[o][v] + ((cm >> v) & 1));
    a.in_cred[cur][o] = 0;
  }
  // Buffer writes: every input, the invalid ones written to a spare slot (not at the write
  // pointer: a full VC's write pointer is its head).
  for (int p = 0; p < kP; ++p) {
    const uint32_t g = (valid >> p) & 1;
    Flit f = a.in_flit[cur][p];
    const int v = (f.hdr >> 10) & 3;
    f.hdr = (f.hdr & 0xFFF) | static_cast<uint32_t>(a.route[f.hdr & 0xFF]) << 12;
    Flit* const to[2] = {&a.spare, &a.fifo[p][v][a.wr[p][v]]};
    *to[g] = f;
    a.wr[p][v] = static_cast<uint8_t>((a.wr[p][v] + g) & (kD - 1));
    a.cnt[p][v] = static_cast<uint8_t>(a.cnt[p][v] + g);
  }
  a.in_valid[cur] = 0;
  // Per input: the VCs whose head may go (a head needs its output VC free, a body flit its
  // packet's), one chosen; its request to its output.
  uint32_t req_by_out[kP] = {0, 0, 0, 0, 0};
  uint8_t sel_vc[kP];
  for (int p = 0; p < kP; ++p) {
    uint32_t vreq = 0;
    for (int v = 0; v < kV; ++v) {
      const Flit& h = a.fifo[p][v][a.rd[p][v]];
      const int o = static_cast<int>(h.hdr >> 12);
      const uint32_t head = (h.hdr >> 8) & 1;
      const uint32_t own = a.owner[o][v];
#ifdef BRANCHY
      const uint32_t ok = a.cnt[p][v] != 0 && a.cred[o][v] != 0 &&
                          (head ? own == 0 : own == static_cast<uint32_t>(p + 1));
#else
      const uint32_t ok = static_cast<uint32_t>(a.cnt[p][v] != 0) &
                          static_cast<uint32_t>(a.cred[o][v] != 0) &
                          static_cast<uint32_t>(own == static_cast<uint32_t>(p + 1) * (1u - head));
#endif
      vreq |= ok << v;
    }
    const int s = rr_vc[vreq][a.vc_last[p]];
    sel_vc[p] = static_cast<uint8_t>(s);
    req_by_out[a.fifo[p][s][a.rd[p][s]].hdr >> 12] |= static_cast<uint32_t>(vreq != 0) << p;
  }
  // Per output: one requester granted; its flit popped, sent, its credit and ownership.
  uint32_t out_valid = 0;
  for (int o = 0; o < kP; ++o) {
    const uint32_t r = req_by_out[o];
    const int p = rr_port[r][a.sw_last[o]];
    const uint32_t g = r != 0;
    const int v = sel_vc[p];
    const Flit f = a.fifo[p][v][a.rd[p][v]];
    a.rd[p][v] = static_cast<uint8_t>((a.rd[p][v] + g) & (kD - 1));
    a.cnt[p][v] = static_cast<uint8_t>(a.cnt[p][v] - g);
    a.up_cred[p] = static_cast<uint8_t>(a.up_cred[p] | (g << v));
    a.vc_last[p] = static_cast<uint8_t>(Pick(g, v, a.vc_last[p]));
    a.sw_last[o] = static_cast<uint8_t>(Pick(g, p, a.sw_last[o]));
    a.cred[o][v] = static_cast<uint8_t>(a.cred[o][v] - (g & (o != 0)));
    const uint32_t head = (f.hdr >> 8) & 1, tail = (f.hdr >> 9) & 1;
    const uint32_t took = Pick(tail, 0, Pick(head, p + 1, a.owner[o][v]));
    a.owner[o][v] = static_cast<uint8_t>(Pick(g, took, a.owner[o][v]));
    a.out_flit[o] = f;
    out_valid |= g << o;
  }
  // Links: next cycle's pins of the neighbours; credits upstream; the sink on output 0.
  for (int o = 1; o < kP; ++o) {
    const int m = nb[n][o];
    if (m < 0) continue;
    Node& b = nodes[m];
    b.in_flit[nxt][arrive_on[o]] = a.out_flit[o];
    b.in_valid[nxt] =
        static_cast<uint8_t>(b.in_valid[nxt] | (((out_valid >> o) & 1) << arrive_on[o]));
    b.in_cred[nxt][arrive_on[o]] =
        static_cast<uint8_t>(b.in_cred[nxt][arrive_on[o]] | a.up_cred[o]);
  }
  for (int v = 0; v < kV; ++v)
    src_cred[n * kV + v] = static_cast<uint8_t>(src_cred[n * kV + v] + ((a.up_cred[0] >> v) & 1));
  std::memset(a.up_cred, 0, sizeof a.up_cred);
  if (out_valid & 1) Eject(a.out_flit[0], c);
}

// The same cycle, visiting only what holds a flit or a credit (the rest would change nothing).
void Mesh::StepActive(int n, long c) {
  const int cur = static_cast<int>(c & 1), nxt = cur ^ 1;
  Node& a = nodes[n];
  uint32_t valid = a.in_valid[cur];
  if (Source(n, a.in_flit[cur][0])) valid |= 1;
  for (uint32_t m = a.in_cred_any[cur]; m != 0; m &= m - 1) {
    const unsigned o = Ctz(m);
    for (uint32_t cm = a.in_cred[cur][o]; cm != 0; cm &= cm - 1) ++a.cred[o][Ctz(cm)];
    a.in_cred[cur][o] = 0;
  }
  a.in_cred_any[cur] = 0;
  for (uint32_t m = valid; m != 0; m &= m - 1) {
    const unsigned p = Ctz(m);
    Flit f = a.in_flit[cur][p];
    const unsigned v = (f.hdr >> 10) & 3;
    f.hdr = (f.hdr & 0xFFF) | static_cast<uint32_t>(a.route[f.hdr & 0xFF]) << 12;
    a.fifo[p][v][a.wr[p][v]] = f;
    a.wr[p][v] = static_cast<uint8_t>((a.wr[p][v] + 1) & (kD - 1));
    ++a.cnt[p][v];
    a.nonempty[p] = static_cast<uint8_t>(a.nonempty[p] | 1u << v);
    a.ne_ports = static_cast<uint8_t>(a.ne_ports | 1u << p);
  }
  a.in_valid[cur] = 0;
  uint32_t req_by_out[kP] = {0, 0, 0, 0, 0}, req_any = 0;
  uint8_t sel_vc[kP];
  for (uint32_t pm = a.ne_ports; pm != 0; pm &= pm - 1) {
    const unsigned p = Ctz(pm);
    uint32_t vreq = 0;
    for (uint32_t m = a.nonempty[p]; m != 0; m &= m - 1) {
      const unsigned v = Ctz(m);
      const uint32_t hdr = a.fifo[p][v][a.rd[p][v]].hdr;
      const unsigned o = hdr >> 12;
      const unsigned own = a.owner[o][v];
      if (a.cred[o][v] != 0 && ((hdr >> 8) & 1 ? own == 0 : own == p + 1)) vreq |= 1u << v;
    }
    if (vreq == 0) continue;
    const unsigned s = rr_vc[vreq][a.vc_last[p]];
    sel_vc[p] = static_cast<uint8_t>(s);
    const unsigned o = a.fifo[p][s][a.rd[p][s]].hdr >> 12;
    req_by_out[o] |= 1u << p;
    req_any |= 1u << o;
  }
  uint32_t out_valid = 0;
  for (uint32_t om = req_any; om != 0; om &= om - 1) {
    const unsigned o = Ctz(om);
    const unsigned p = rr_port[req_by_out[o]][a.sw_last[o]];
    const unsigned v = sel_vc[p];
    const Flit f = a.fifo[p][v][a.rd[p][v]];
    a.rd[p][v] = static_cast<uint8_t>((a.rd[p][v] + 1) & (kD - 1));
    if (--a.cnt[p][v] == 0) {
      a.nonempty[p] = static_cast<uint8_t>(a.nonempty[p] & ~(1u << v));
      if (a.nonempty[p] == 0) a.ne_ports = static_cast<uint8_t>(a.ne_ports & ~(1u << p));
    }
    a.up_cred[p] = static_cast<uint8_t>(a.up_cred[p] | 1u << v);
    a.vc_last[p] = static_cast<uint8_t>(v);
    a.sw_last[o] = static_cast<uint8_t>(p);
    if (o != 0) --a.cred[o][v];
    if ((f.hdr >> 9) & 1)
      a.owner[o][v] = 0;
    else if ((f.hdr >> 8) & 1)
      a.owner[o][v] = static_cast<uint8_t>(p + 1);
    a.out_flit[o] = f;
    out_valid |= 1u << o;
  }
  for (uint32_t m = out_valid & ~1u; m != 0; m &= m - 1) {
    const unsigned o = Ctz(m);
    const int to = nb[n][o];  // dimension order never routes off the mesh
    Node& b = nodes[to];
    b.in_flit[nxt][arrive_on[o]] = a.out_flit[o];
    b.in_valid[nxt] = static_cast<uint8_t>(b.in_valid[nxt] | 1u << arrive_on[o]);
    active[nxt] |= uint64_t{1} << to;
  }
  for (unsigned p = 0; p < kP; ++p) {
    const uint8_t cm = a.up_cred[p];
    if (cm == 0) continue;
    a.up_cred[p] = 0;
    if (p == 0) {
      for (uint32_t m = cm; m != 0; m &= m - 1) ++src_cred[n * kV + Ctz(m)];
      continue;
    }
    const int to = nb[n][p];
    Node& b = nodes[to];
    b.in_cred[nxt][arrive_on[p]] = static_cast<uint8_t>(b.in_cred[nxt][arrive_on[p]] | cm);
    b.in_cred_any[nxt] = static_cast<uint8_t>(b.in_cred_any[nxt] | 1u << arrive_on[p]);
    active[nxt] |= uint64_t{1} << to;
  }
  if (out_valid & 1) Eject(a.out_flit[0], c);
  if (a.ne_ports != 0 || !queue[n].empty()) active[nxt] |= uint64_t{1} << n;
}

#ifdef __AVX2__
// The same routers as vectors across a row's eight nodes (lane = x), one row after another:
// every port and VC of every node every cycle, without a branch on the traffic (a loop is
// left only when no lane of the row has work for it). A buffer write goes lane by lane; the
// rest is lane-parallel. Needs AVX2 (g++ -march=x86-64-v3).
typedef uint32_t V8 __attribute__((vector_size(32)));
static_assert(kK == 8, "a row of nodes is one vector of eight lanes");

inline V8 Splat(uint32_t x) { return V8{x, x, x, x, x, x, x, x}; }
inline unsigned Lanes(V8 m) {
  return static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<__m256>(m)));
}
inline V8 Sel(V8 m, V8 a, V8 b) { return (a & m) | (b & ~m); }
inline V8 MaskGather(V8 src, const uint32_t* base, V8 idx, V8 mask) {
  return reinterpret_cast<V8>(_mm256_mask_i32gather_epi32(
      reinterpret_cast<__m256i>(src), reinterpret_cast<const int*>(base),
      reinterpret_cast<__m256i>(idx), reinterpret_cast<__m256i>(mask), 4));
}
#define CMP(x) reinterpret_cast<V8>(x)

// The first requester of `req` (a bit per requester) after `last`, wrapping, among n; 0 when
// there is none (the scalar modes' round-robin tables, computed in the lanes).
inline V8 RoundRobin(V8 req, V8 last, unsigned n) {
  V8 pick = Splat(0), found = Splat(0);
  for (unsigned k = 1; k <= n; ++k) {
    V8 cand = last + Splat(k);
    cand = Sel(CMP(cand >= Splat(n)), cand - Splat(n), cand);
    const V8 hit = CMP(((req >> cand) & Splat(1)) != Splat(0)) & ~found;
    pick = Sel(hit, cand, pick);
    found |= hit;
  }
  return pick;
}
// A flit's header on the link from its buffer entry and the VC it was buffered on.
inline V8 Header(V8 entry, V8 vc) { return (entry & Splat(0x3FF)) | (vc << 10); }

struct alignas(32) Row {
  V8 cnt[kP][kV], rd[kP][kV], wr[kP][kV];
  // The head of a VC holding a flit, as its buffer entry: destination [7:0], head [8], tail
  // [9], output port [12:10], packet id [31:13].
  V8 hh[kP][kV];
  V8 cred[kP][kV], owner[kP][kV];
  V8 vc_last[kP], sw_last[kP];
  V8 in_hdr[2][kP], in_id[2][kP], in_valid[2][kP], in_cred[2][kP];
  V8 up_cred[kP];
  V8 out_entry[kP], out_vc[kP], out_valid[kP];
};

struct SimdMesh {
  std::vector<Row> rows = std::vector<Row>(kK);
  // Buffers: [y][port][VC][slot][x], entries as Row::hh.
  std::vector<uint32_t> fifo = std::vector<uint32_t>(kK * kP * kV * kD * 8);
  const V8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
  static constexpr uint32_t kMaxPackets = 1u << 19;  // the ids an entry holds

  SimdMesh() {
    for (Row& r : rows) {
      std::memset(&r, 0, sizeof r);
      for (int p = 0; p < kP; ++p) {
        for (int v = 0; v < kV; ++v) r.cred[p][v] = Splat(kD);
        r.vc_last[p] = Splat(kV - 1);
        r.sw_last[p] = Splat(kP - 1);
      }
    }
  }

  void Step(Mesh& m, long c) {
    const int cur = static_cast<int>(c & 1), nxt = cur ^ 1;
    for (int y = 0; y < kK; ++y) {  // the sources, in node order (packet ids as the others)
      Row& r = rows[y];
      for (int x = 0; x < kK; ++x) {
        Flit f;
        if (!m.Source(y * kK + x, f)) continue;
        r.in_hdr[cur][0][x] = f.hdr;
        r.in_id[cur][0][x] = f.id;
        r.in_valid[cur][0][x] = ~0u;
      }
    }
    for (int y = 0; y < kK; ++y) StepRow(m, y, c, cur, nxt);
  }

  void StepRow(Mesh& m, int y, long c, int cur, int nxt) {
    Row& r = rows[y];
    uint32_t* fh = &fifo[static_cast<size_t>(y) * kP * kV * kD * 8];
    const V8 one = Splat(1), uy = Splat(static_cast<uint32_t>(y));
    // Credits from downstream.
    for (int o = 1; o < kP; ++o) {
      const V8 cm = r.in_cred[cur][o];
      for (int v = 0; v < kV; ++v) r.cred[o][v] += (cm >> v) & one;
      r.in_cred[cur][o] = Splat(0);
    }
    // Buffer writes, with dimension-order routing computed in the lanes.
    for (int p = 0; p < kP; ++p) {
      const V8 val = r.in_valid[cur][p];
      if (Lanes(val) == 0) continue;
      r.in_valid[cur][p] = Splat(0);
      const V8 raw = r.in_hdr[cur][p], dest = raw & Splat(0xFF);
      const V8 dx = dest & Splat(7), dy = dest >> 3;
      const V8 port = Sel(CMP(dx > lane), Splat(1),
                          Sel(CMP(dx < lane), Splat(2),
                              Sel(CMP(dy > uy), Splat(3), Sel(CMP(dy < uy), Splat(4), Splat(0)))));
      const V8 hdr = (raw & Splat(0x3FF)) | (port << 10) | (r.in_id[cur][p] << 13);
      const V8 vc = (raw >> 10) & Splat(3);
      for (int v = 0; v < kV; ++v) {
        const V8 w = val & CMP(vc == Splat(static_cast<uint32_t>(v)));
        const unsigned bits = Lanes(w);
        if (bits == 0) continue;
        const size_t base = static_cast<size_t>(p * kV + v) * kD * 8;
        for (unsigned b = bits; b != 0; b &= b - 1) {
          const unsigned x = Ctz(b);
          const size_t at = base + r.wr[p][v][x] * 8 + x;
          fh[at] = hdr[x];
        }
        r.hh[p][v] = Sel(w & CMP(r.cnt[p][v] == Splat(0)), hdr, r.hh[p][v]);
        r.wr[p][v] = (r.wr[p][v] + (w & one)) & Splat(kD - 1);
        r.cnt[p][v] += w & one;
      }
    }
    // Per input: the VCs whose head may go, one chosen by round robin, its request.
    V8 req_by_out[kP], sel[kP], hsel[kP], rdsel[kP];
    for (int o = 0; o < kP; ++o) req_by_out[o] = Splat(0);
    for (int p = 0; p < kP; ++p) {
      V8 vreq = Splat(0);
      for (int v = 0; v < kV; ++v) {
        const V8 h = r.hh[p][v], o = (h >> 10) & Splat(7), head = (h >> 8) & one;
        V8 cr = r.cred[0][v], ow = r.owner[0][v];
        for (int o2 = 1; o2 < kP; ++o2) {
          const V8 e = CMP(o == Splat(static_cast<uint32_t>(o2)));
          cr = Sel(e, r.cred[o2][v], cr);
          ow = Sel(e, r.owner[o2][v], ow);
        }
        const V8 own_ok = Sel(CMP(head == one), CMP(ow == Splat(0)),
                              CMP(ow == Splat(static_cast<uint32_t>(p + 1))));
        const V8 ok = CMP(r.cnt[p][v] != Splat(0)) & CMP(cr != Splat(0)) & own_ok;
        vreq |= ok & Splat(1u << v);
      }
      const V8 s = RoundRobin(vreq, r.vc_last[p], kV);
      const V8 has = CMP(vreq != Splat(0));
      V8 hs = r.hh[p][0], rs = r.rd[p][0];
      for (int v = 1; v < kV; ++v) {
        const V8 e = CMP(s == Splat(static_cast<uint32_t>(v)));
        hs = Sel(e, r.hh[p][v], hs);
        rs = Sel(e, r.rd[p][v], rs);
      }
      sel[p] = s, hsel[p] = hs, rdsel[p] = rs;
      const V8 os = (hs >> 10) & Splat(7);
      for (int o = 0; o < kP; ++o)
        req_by_out[o] |= has & CMP(os == Splat(static_cast<uint32_t>(o))) & Splat(1u << p);
    }
    // Per output: one requester granted; its flit read, its credit and VC ownership.
    V8 popped[kP];
    for (int p = 0; p < kP; ++p) popped[p] = Splat(0);
    for (int o = 0; o < kP; ++o) {
      const V8 rq = req_by_out[o], g = CMP(rq != Splat(0));
      r.out_valid[o] = g;
      if (Lanes(g) == 0) continue;
      const V8 pw = RoundRobin(rq, r.sw_last[o], kP);
      V8 vw = sel[0], hw = hsel[0], rw = rdsel[0];
      for (int p = 1; p < kP; ++p) {
        const V8 e = CMP(pw == Splat(static_cast<uint32_t>(p)));
        vw = Sel(e, sel[p], vw);
        hw = Sel(e, hsel[p], hw);
        rw = Sel(e, rdsel[p], rw);
      }
      r.out_entry[o] = hw;
      r.out_vc[o] = vw;
      for (int p = 0; p < kP; ++p) popped[p] |= g & CMP(pw == Splat(static_cast<uint32_t>(p)));
      r.sw_last[o] = Sel(g, pw, r.sw_last[o]);
      const V8 tail = (hw >> 9) & one, head = (hw >> 8) & one;
      for (int v = 0; v < kV; ++v) {
        const V8 w = g & CMP(vw == Splat(static_cast<uint32_t>(v)));
        if (o != 0) r.cred[o][v] -= w & one;
        const V8 took =
            Sel(CMP(tail == one), Splat(0), Sel(CMP(head == one), pw + one, r.owner[o][v]));
        r.owner[o][v] = Sel(w, took, r.owner[o][v]);
      }
    }
    // The pops: read pointers, counts, the credit upstream, and the popped VC's next head (one
    // gather per input: an input pops one VC at most).
    for (int p = 0; p < kP; ++p) {
      r.up_cred[p] = Splat(0);
      if (Lanes(popped[p]) == 0) continue;
      r.vc_last[p] = Sel(popped[p], sel[p], r.vc_last[p]);
      const V8 nrd = (rdsel[p] + one) & Splat(kD - 1);
      const V8 next = MaskGather(
          Splat(0), fh, ((Splat(static_cast<uint32_t>(p * kV)) + sel[p]) * kD + nrd) * 8 + lane,
          popped[p]);
      for (int v = 0; v < kV; ++v) {
        const V8 w = popped[p] & CMP(sel[p] == Splat(static_cast<uint32_t>(v)));
        if (Lanes(w) == 0) continue;
        r.rd[p][v] = Sel(w, nrd, r.rd[p][v]);
        r.cnt[p][v] -= w & one;
        r.hh[p][v] = Sel(w & CMP(r.cnt[p][v] != Splat(0)), next, r.hh[p][v]);
        r.up_cred[p] |= w & Splat(1u << v);
      }
    }
    // Links: next cycle's pins of the neighbours (east and west by a lane, north and south by a
    // row); credits upstream the same way; the sink on output 0.
    const V8 up = {0, 0, 1, 2, 3, 4, 5, 6}, down = {1, 2, 3, 4, 5, 6, 7, 7};
    const V8 not_first = CMP(lane != Splat(0)), not_last = CMP(lane != Splat(7));
    r.in_hdr[nxt][2] =
        Header(__builtin_shuffle(r.out_entry[1], up), __builtin_shuffle(r.out_vc[1], up));
    r.in_id[nxt][2] = __builtin_shuffle(r.out_entry[1], up) >> 13;
    r.in_valid[nxt][2] = __builtin_shuffle(r.out_valid[1], up) & not_first;
    r.in_hdr[nxt][1] =
        Header(__builtin_shuffle(r.out_entry[2], down), __builtin_shuffle(r.out_vc[2], down));
    r.in_id[nxt][1] = __builtin_shuffle(r.out_entry[2], down) >> 13;
    r.in_valid[nxt][1] = __builtin_shuffle(r.out_valid[2], down) & not_last;
    r.in_cred[nxt][2] = __builtin_shuffle(r.up_cred[1], up) & not_first;
    r.in_cred[nxt][1] = __builtin_shuffle(r.up_cred[2], down) & not_last;
    if (y + 1 < kK) {
      Row& b = rows[y + 1];
      b.in_hdr[nxt][4] = Header(r.out_entry[3], r.out_vc[3]);
      b.in_id[nxt][4] = r.out_entry[3] >> 13;
      b.in_valid[nxt][4] = r.out_valid[3];
      b.in_cred[nxt][4] = r.up_cred[3];
    }
    if (y > 0) {
      Row& b = rows[y - 1];
      b.in_hdr[nxt][3] = Header(r.out_entry[4], r.out_vc[4]);
      b.in_id[nxt][3] = r.out_entry[4] >> 13;
      b.in_valid[nxt][3] = r.out_valid[4];
      b.in_cred[nxt][3] = r.up_cred[4];
    }
    for (unsigned b = Lanes(CMP(r.up_cred[0] != Splat(0))); b != 0; b &= b - 1) {
      const unsigned x = Ctz(b);
      for (uint32_t cm = r.up_cred[0][x]; cm != 0; cm &= cm - 1)
        ++m.src_cred[(y * kK + x) * kV + Ctz(cm)];
    }
    for (unsigned b = Lanes(r.out_valid[0]); b != 0; b &= b - 1) {
      const unsigned x = Ctz(b);
      m.Eject(Flit{r.out_entry[0][x] & 0x3FFu, r.out_entry[0][x] >> 13}, c);
    }
  }
};
#endif  // __AVX2__

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const double rate = argc > 2 ? std::atof(argv[2]) : 0.3;
  const long cycles = argc > 3 ? std::atol(argv[3]) : 30100;
#ifdef __AVX2__
  const char* kModes = "all, active, simd";
  const bool simd = mode == "simd";
#else
  const char* kModes = "all, active (simd needs AVX2: -march=x86-64-v3)";
  const bool simd = false;
#endif
  if (mode != "all" && mode != "active" && !simd) {
    std::fprintf(stderr, "mode %s: allowed %s\n", mode.c_str(), kModes);
    return 2;
  }
  const bool all = mode == "all";
  Mesh mesh;
#ifdef __AVX2__
  SimdMesh vec;
#endif
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> uni(0, 1);
  const auto t0 = std::chrono::steady_clock::now();
  for (long c = 0; c < cycles; ++c) {
    const int cur = static_cast<int>(c & 1);
    for (int n = 0; n < kN; ++n) {
      if (uni(rng) < rate / kLen) {
        int d = std::uniform_int_distribution<int>(0, kN - 2)(rng);
        if (d >= n) ++d;
        mesh.queue[n].push_back({static_cast<uint32_t>(d), static_cast<uint64_t>(c)});
        mesh.active[cur] |= uint64_t{1} << n;
      }
    }
    if (simd) {
#ifdef __AVX2__
      vec.Step(mesh, c);
      if (mesh.made.size() > SimdMesh::kMaxPackets) {
        std::fprintf(stderr, "simd: cycle %ld: more packets than a buffer entry's ids (%u)\n", c,
                     SimdMesh::kMaxPackets);
        return 2;
      }
#endif
    } else if (all) {
      for (int n = 0; n < kN; ++n) mesh.StepAll(n, c);
    } else {
      const uint64_t act = mesh.active[cur];
      mesh.active[cur] = 0;
      for (uint64_t m = act; m != 0; m &= m - 1) mesh.StepActive(static_cast<int>(Ctz(m)), c);
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%s: %ld cycles: %.4f flits/node/cycle accepted, mean latency %.3f cycles (packets ejected), "
      "%.3f s, %.1f ns "
      "per node-cycle\n",
      mode.c_str(), cycles, static_cast<double>(mesh.ejected) / kN / static_cast<double>(cycles),
      mesh.tails != 0 ? mesh.latency / static_cast<double>(mesh.tails) : 0.0, s,
      s * 1e9 / (kN * static_cast<double>(cycles)));
  return mesh.injected >= mesh.ejected ? 0 : 1;
}
