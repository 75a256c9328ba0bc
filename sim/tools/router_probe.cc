// A design probe for issue 21's speed target, not a model of the node: what one node-cycle of a
// bare router mesh costs when every port and VC is visited every cycle, and when only the
// nodes, ports and VCs holding flits are.
//
// An 8x8 mesh of input-queued routers of the shipped point-to-point shape (5 ports, 4 VCs of 32
// flits, dimension order, a VC selected per input then the switch allocated per output, both by
// round robin, credits, an output VC owned by a packet from head to tail, 1-cycle links) and
// Bernoulli uniform sources of 4-flit packets. It is not the RTL's timing: no input or output
// registers, one cycle per hop, no register bus, engine, pass-through, multicast, checks or
// statistics beyond the accepted load and the mean latency.
//
// Two ways of stepping the same routers, which must print the same accepted load and latency:
//   all     every port and VC of every node by loops of fixed length; with -DBRANCHY the
//           choices are written as branches (`cond ? a : b`), otherwise as masks;
//   active  only the nodes with something to do (a flit buffered or arriving, a credit
//           arriving, a packet waiting at the source), and in them only the inputs and VCs
//           holding flits and the outputs requested, by loops over bit masks.
//
//   g++ -O3 -march=x86-64-v2 -DBRANCHY -o /tmp/probe sim/tools/router_probe.cc
//   /tmp/probe all 0.3 30100      # mode, offered flits/node/cycle, cycles
//   /tmp/probe active 0.3 30100   # prints ns per node-cycle
//
// The README (Fast model against the peers) gives what it measured.
#include <chrono>
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
  std::vector<uint64_t> made;  // per packet id: the cycle it was made
  uint64_t injected = 0, ejected = 0;
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

  // The source: the next flit of its oldest packet on input 0, given a credit.
  void Source(int n, int cur, uint32_t& valid) {
    if (queue[n].empty()) return;
    Node& a = nodes[n];
    const int v = next_flit[n] == 0 ? next_vc[n] : cur_vc[n];
    if (src_cred[n * kV + v] == 0) return;
    if (next_flit[n] == 0) {
      cur_vc[n] = v;
      next_vc[n] = (v + 1) % kV;
      cur_id[n] = static_cast<uint32_t>(made.size());
      made.push_back(queue[n].front().second);
    }
    a.in_flit[cur][0] = {queue[n].front().first | static_cast<uint32_t>(next_flit[n] == 0) << 8 |
                             static_cast<uint32_t>(next_flit[n] == kLen - 1) << 9 |
                             static_cast<uint32_t>(v) << 10,
                         cur_id[n]};
    valid |= 1;
    --src_cred[n * kV + v];
    ++injected;
    if (++next_flit[n] == kLen) {
      next_flit[n] = 0;
      queue[n].pop_front();
    }
  }

  void Eject(const Node& a, long c) {
    ++ejected;
    const Flit& f = a.out_flit[0];
    if ((f.hdr >> 9) & 1) latency += static_cast<double>(static_cast<uint64_t>(c) - made[f.id]);
  }

  void StepAll(int n, long c);
  void StepActive(int n, long c);
};

void Mesh::StepAll(int n, long c) {
  const int cur = static_cast<int>(c & 1), nxt = cur ^ 1;
  Node& a = nodes[n];
  uint32_t valid = a.in_valid[cur];
  Source(n, cur, valid);
  // Credits from downstream.
  for (int o = 1; o < kP; ++o) {
    const uint32_t cm = a.in_cred[cur][o];
    for (int v = 0; v < kV; ++v) a.cred[o][v] = static_cast<uint8_t>(a.cred[o][v] + ((cm >> v) & 1));
    a.in_cred[cur][o] = 0;
  }
  // Buffer writes: every input, the invalid ones written where the next flit goes.
  for (int p = 0; p < kP; ++p) {
    const uint32_t g = (valid >> p) & 1;
    Flit f = a.in_flit[cur][p];
    const int v = (f.hdr >> 10) & 3;
    f.hdr = (f.hdr & 0xFFF) | static_cast<uint32_t>(a.route[f.hdr & 0xFF]) << 12;
    a.fifo[p][v][a.wr[p][v]] = f;
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
  if (out_valid & 1) Eject(a, c);
}

// The same cycle, visiting only what holds a flit or a credit (the rest would change nothing).
void Mesh::StepActive(int n, long c) {
  const int cur = static_cast<int>(c & 1), nxt = cur ^ 1;
  Node& a = nodes[n];
  uint32_t valid = a.in_valid[cur];
  Source(n, cur, valid);
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
  if (out_valid & 1) Eject(a, c);
  if (a.ne_ports != 0 || !queue[n].empty()) active[nxt] |= uint64_t{1} << n;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const double rate = argc > 2 ? std::atof(argv[2]) : 0.3;
  const long cycles = argc > 3 ? std::atol(argv[3]) : 30100;
  if (mode != "all" && mode != "active") {
    std::fprintf(stderr, "mode %s: allowed all, active\n", mode.c_str());
    return 2;
  }
  const bool all = mode == "all";
  Mesh mesh;
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
    if (all) {
      for (int n = 0; n < kN; ++n) mesh.StepAll(n, c);
    } else {
      const uint64_t act = mesh.active[cur];
      mesh.active[cur] = 0;
      for (uint64_t m = act; m != 0; m &= m - 1) mesh.StepActive(static_cast<int>(Ctz(m)), c);
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%s: %ld cycles: %.4f flits/node/cycle accepted, mean latency %.3f cycles, %.3f s, %.1f ns "
      "per node-cycle\n",
      mode.c_str(), cycles, static_cast<double>(mesh.ejected) / kN / static_cast<double>(cycles),
      mesh.latency / (static_cast<double>(mesh.ejected) / kLen), s,
      s * 1e9 / (kN * static_cast<double>(cycles)));
  return mesh.injected >= mesh.ejected ? 0 : 1;
}
