// The adapter between the collective controller (collectives/) and the package: writes a
// validated program through the register API (bypass cuts, port muxes, routing tables, engine
// registers, then the engines' start bits) and runs it with one ScheduleEndpoint per node,
// cycle by cycle.
//
// ScheduleEndpoint models the chiplet's side of a collective (its DMA and reduction unit): it
// executes the node's op list with the semantics of collectives/program.h. Sends are cut into
// packets of `packet_flits` flits (`lanes` elements each; a region the flit does not divide
// ends with a partial flit) and injected, one flit per cycle on each local port (a send on
// its Op::port; engine streams on port 0), as soon as the elements they carry are final (all
// earlier ops on them done); receives are applied flit by flit, up to `reduce_flits` flits per
// cycle and local port, in program order per element. The ejection side always
// accepts (arrivals wait in the chiplet's memory), so the endpoints never block the network.
// Engine streams follow the node's engine program (ids interleaved in its step order), padded
// to the program's flit count.
#ifndef ARIES_SYSC_COLL_ADAPTER_H_
#define ARIES_SYSC_COLL_ADAPTER_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "concentrate.h"
#include "endpoint.h"
#include "engine_port.h"
#include "package.h"
#include "program.h"

namespace aries::sysc {

// What the node model offers, for the validator.
coll::Hardware HardwareOf(const NodeShape& s);

// Appends the writes of one node's routing table entries, planned for the geometry `g`, to
// `ops`, on a node model whose routers have `node_ports` ports besides the extra local ports
// (NodeShape::num_ports): the planner numbers the extra local ports after the topology's ports
// (coll::RouterPorts), the model after its own, so their entries are renumbered. Throws
// std::invalid_argument for a model with fewer ports than the topology needs.
void AppendRouteWrites(std::vector<RegOp>& ops, unsigned node,
                       const std::vector<coll::RouteEntry>& routes, const coll::Geometry& g,
                       unsigned node_ports);

// Register writes that configure the package for `p` (in the order the hardware accepts them:
// cuts before muxes, engine registers before the start bits) on nodes whose routers have
// `node_ports` ports besides the extra local ports (AppendRouteWrites).
std::vector<RegOp> RegisterWrites(const coll::Program& p, unsigned node_ports);

// Copies n payload words (a whole flit's lanes of the shipped count with a size known at compile
// time).
inline void CopyLanes(uint32_t* dst, const uint32_t* src, uint64_t n) {
  CopyWords<hw::kVaries_nodeParams.Lanes>(dst, src, n);
}

class ScheduleEndpoint final : public Endpoint {
 public:
  ScheduleEndpoint(const NodeShape& shape, unsigned k, unsigned node, const coll::Program& p,
                   std::vector<uint32_t> input, unsigned reduce_flits = 2);

  void Start() { started_ = true; }
  bool done() const { return done_ops_ == ops_.size() && eng_tx_next_ == eng_tx_.size(); }
  uint64_t done_cycle() const { return done_cycle_; }
  const std::vector<uint32_t>& buffer() const { return buf_; }
  // The buffer moved out (the endpoint's is empty after).
  std::vector<uint32_t> TakeBuffer() { return std::move(buf_); }
  uint64_t flits_sent() const { return flits_sent_; }
  uint64_t flits_received() const { return flits_received_; }
  // Received flits taken from the queues into the buffer (the endpoint reduces a few a cycle).
  uint64_t flits_processed() const { return flits_processed_; }
  // Flits the schedule sends and receives (point-to-point and engine streams with padding).
  uint64_t flits_to_send() const { return to_send_; }
  uint64_t flits_to_receive() const { return to_receive_; }
  const std::vector<std::string>& errors() const { return errors_; }
  // "op 12 (recv-reduce from 5): 3 of 40 flits" for the first unfinished op.
  std::string Where() const;
  // Per op: the endpoint cycles of its first and last element moved (a send's injections, a
  // receive's writes into the buffer); {kNever, 0} for an op that moved nothing.
  struct OpSpan {
    static constexpr uint64_t kNever = ~uint64_t{0};
    uint64_t first = kNever, last = 0;
  };
  std::vector<OpSpan> OpSpans() const;

  bool Inject(uint64_t cycle, unsigned port, uint32_t* words) override;
  uint8_t EjectCredits(uint64_t cycle, unsigned port) override;
  void AfterEdge(uint64_t cycle, const EndpointEdge& edge) override;

 private:
  using Key = std::tuple<unsigned, int, unsigned>;  // peer, flow, vc
  // Flits waiting in arrival order, `lanes` payload words each, in a ring of slots that grows
  // by doubling (no allocation per flit; what waits is copied only when the ring doubles).
  class FlitQueue {
   public:
    explicit FlitQueue(unsigned lanes = 0) : lanes_(lanes) {}
    bool empty() const { return count_ == 0; }
    size_t size() const { return count_; }
    const uint32_t* front() const { return &words_[head_ * lanes_]; }
    void push(const uint32_t* w) {
      if (count_ == slots_) Grow();
      const size_t at = (head_ + count_) & (slots_ - 1);
      CopyLanes(&words_[at * lanes_], w, lanes_);
      ++count_;
    }
    void pop() {
      head_ = (head_ + 1) & (slots_ - 1);
      --count_;
    }

   private:
    void Grow() {
      const size_t slots = slots_ == 0 ? 16 : 2 * slots_;
      std::vector<uint32_t> words(slots * lanes_);
      for (size_t i = 0; i < count_; ++i) {
        const uint32_t* f = &words_[((head_ + i) & (slots_ - 1)) * lanes_];
        CopyLanes(&words[i * lanes_], f, lanes_);
      }
      words_.swap(words);
      slots_ = slots;
      head_ = 0;
    }
    unsigned lanes_;
    std::vector<uint32_t> words_;
    size_t slots_ = 0, head_ = 0, count_ = 0;  // slots: a power of two
  };
  struct OpState {
    uint64_t progress = 0;     // elements done (a prefix of the region)
    std::vector<size_t> deps;  // earlier ops on overlapping elements that conflict
  };
  // Why a channel's next flit was not ready: op `op` at element `from` waits for op `dep` to
  // reach `need` elements of progress. Until it does, asking again gives the same answer, so
  // the endpoint skips the scan of the op's dependencies (a channel polled every cycle).
  struct Blocked {
    size_t op = SIZE_MAX;
    uint64_t from = 0;
    size_t dep = 0;
    uint64_t need = 0;
  };
  struct RxChannel {
    FlitQueue flits;
    std::vector<size_t> ops;
    size_t next = 0;
    size_t index = 0;  // in rx_chans_
    Blocked blocked;
  };
  struct TxChannel {
    std::vector<size_t> ops;
    size_t next = 0;
    unsigned port = 0;  // the local port of its sends (one per channel: the validator)
    Blocked blocked;
  };
  // One local port's injection: its channels, the packet being injected (its op, channel,
  // length and the flits left), round-robin pointer and credits per point-to-point VC.
  struct PortTx {
    std::vector<size_t> chans;  // indices into tx_chans_
    size_t rr = 0;
    bool in_packet = false;
    size_t pkt_op = 0, pkt_chan = 0;
    unsigned pkt_flits = 0, pkt_left = 0;
    std::vector<unsigned> credits;
  };
  struct EngFlit {
    size_t op;  // the engine op it belongs to
    unsigned id;
    uint64_t index;  // flit index in the id's stream
  };

  struct EngRx {
    size_t op = 0;       // the engine-recv op
    uint64_t total = 0;  // flits the engine delivers (with padding)
    uint64_t count = 0;
    FlitQueue flits;
  };

  // Channel key of an op or an arriving flit: on the torus the dateline bit of the VC is not
  // part of it (the router sets it on the wrap hop).
  Key KeyOf(unsigned peer, int flow, unsigned vc) const {
    return {peer, flow, torus_ ? (vc & ~1u) : vc};
  }
  bool Ready(size_t j, uint64_t from, uint64_t to) const;
  // Ready(), remembering in `b` what blocked it (to is a function of j and from here).
  bool Ready(Blocked& b, size_t j, uint64_t from, uint64_t to) const;
  void Advance(size_t j, uint64_t elements, uint64_t cycle);
  void Process(uint64_t cycle);
  bool InjectP2p(uint64_t cycle, PortTx& pt, uint32_t* w);
  void Eject(uint64_t cycle, unsigned port, const uint32_t* ej);
  bool InjectEngine(uint64_t cycle, uint32_t* w);

  NodeShape shape_;
  unsigned k_, node_;
  bool torus_;
  unsigned packet_flits_, reduce_flits_;
  std::vector<coll::Op> ops_;
  std::vector<OpState> st_;
  // Per op: the cycles of its first element and its completion (kept apart from st_, which the
  // dependency checks scan).
  std::vector<OpSpan> spans_;
  std::vector<uint32_t> buf_;
  unsigned op_code_;
  std::map<Key, RxChannel> rx_;
  std::map<Key, TxChannel> tx_;
  std::vector<Key> tx_keys_;
  std::vector<TxChannel*> tx_chans_;  // tx_[tx_keys_[c]] (map nodes stay put)
  std::vector<RxChannel*> rx_chans_;  // rx_ in key order
  std::vector<uint64_t> rx_waiting_;  // bit per rx_chans_ entry: flits in its queue
  Key last_rx_key_{};                 // the last arrival's channel (Eject)
  RxChannel* last_rx_ = nullptr;      // (nullptr: none yet, or nobody expected it)
  std::vector<std::pair<unsigned, EngRx*>> eng_rx_list_;  // eng_rx_ in id order
  size_t rx_pending_ = 0;                                 // flits waiting in rx_ and eng_rx_ queues
  std::vector<PortTx> ports_;                             // per local port
  // Engine streams: request flits to inject in program order, results expected per id.
  std::vector<EngFlit> eng_tx_;
  size_t eng_tx_next_ = 0;
  std::map<unsigned, EngRx> eng_rx_;                 // by id
  EnginePort engine_;                                // engine request flits and their credits
  std::array<uint8_t, kMaxLocalPorts> free_next_{};  // per port: ejection slots freed next
  bool started_ = false;
  size_t done_ops_ = 0;
  uint64_t done_cycle_ = 0, flits_sent_ = 0, flits_received_ = 0, to_send_ = 0, to_receive_ = 0;
  uint64_t flits_processed_ = 0;
  std::vector<std::string> errors_;
};

struct CollRunResult {
  bool finished = false;
  uint64_t cycles = 0;                // from the first injection to the last op done
  uint64_t start_cycle = 0;           // the endpoint cycle it started (Package::endpoint_cycle)
  std::vector<uint64_t> node_cycles;  // per node: from the start to its last op done
  std::vector<std::vector<uint32_t>> out;  // every node's buffer at the end
  // Flit accounting: what the endpoints injected and received, and what their schedules say
  // they must (a collective flit may be merged by a reduction or copied by a broadcast, so
  // injected and ejected differ for engine programs; each must equal its schedule).
  uint64_t flits_injected = 0, flits_ejected = 0;
  uint64_t flits_to_inject = 0, flits_to_eject = 0;
  std::vector<std::string> errors;  // endpoint and hardware errors, or the stall
  // The watchdog: no endpoint sent or received a flit for `watchdog` cycles and nothing is on
  // the wires. The run stops there; `lost` names the links whose ends disagree (a fault).
  bool stuck = false;
  uint64_t stuck_cycle = 0;  // cycles from the start to the stop
  std::vector<Package::LostLink> lost;
  // Per node (chiplet), per op of its program: when it moved its first and last element.
  std::vector<std::vector<ScheduleEndpoint::OpSpan>> op_spans;
};

// Programs the package (which must be quiet, endpoints detached) and runs `p` on `inputs`
// (one vector of p.elements words per node) until every node finished, `limit` cycles, or the
// watchdog (0: coll::DefaultWatchdog of the package) finds it stuck; `progress`, when given, is
// called with the cycle after every window.
CollRunResult RunProgram(Package& pkg, const coll::Program& p,
                         const std::vector<std::vector<uint32_t>>& inputs, uint64_t limit,
                         const std::function<void(uint64_t cycle)>& progress = nullptr,
                         uint64_t watchdog = 0);

// RunProgram for a program concentrated onto Adapt-NoC's concentrated mesh (coll::Concentrate):
// `pkg` is the mesh of coll::CmeshRouters (routers of 4 local ports), each chiplet's schedule
// runs on one local port of its group's router; `inputs`, the result's buffers and node cycles
// are per chiplet. Throws std::invalid_argument for another package.
CollRunResult RunConcentrated(Package& pkg, const coll::CmeshProgram& cp,
                              const std::vector<std::vector<uint32_t>>& inputs, uint64_t limit,
                              const std::function<void(uint64_t cycle)>& progress = nullptr,
                              uint64_t watchdog = 0);

}  // namespace aries::sysc

#endif  // ARIES_SYSC_COLL_ADAPTER_H_
