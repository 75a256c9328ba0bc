// Package: K x K Verilated chiplet nodes on the passive interposer (collectives/geometry.h),
// stepped cycle by cycle, with the register API the collective controller uses.
//
// Each cycle every node reads what arrives on its channels, its endpoint injects and returns
// credits, the node's model takes one clock edge, and what it drives goes onto the channels
// (evaluate, then update; the order of nodes within a cycle does not matter, see channel.h).
//
// Parallel stepping with lookahead: the nodes are cut into config().threads partitions (blocks
// of rows), each stepped by one thread. A flit or credit sent in cycle t on a channel reaches
// the far end in cycle t + Channel::lookahead() at the earliest, so every partition may run
// lookahead() cycles (the least over the channels between partitions: 1 with 1-cycle links,
// 10 with 10-cycle links) before it must wait for its neighbours. Run() steps windows of that
// many cycles, all partitions in parallel, with one barrier per window; the results do not
// depend on the number of threads (tests/sysc checks every counter). Endpoints of different
// partitions run concurrently inside a window; what they share is touched only in the
// WindowObserver's calls, which come between windows (endpoint.h).
// A node whose model is idle and whose inputs are all quiet is not evaluated (skip_idle): its
// clock edge would change nothing (aries_node idle_o), which tests/sysc checks by running the
// same traffic with and without skipping.
//
// The bypass segments follow the nodes' BYPASS registers: after every register access the
// package re-resolves the tracks; a segment that changes while anything is on its wires is an
// error (reconfigure only a drained package).
//
// The SystemC wrapping is in package_sc.h; this class has no SystemC inside so that tests can
// build many packages in one process.
#ifndef ARIES_SYSC_PACKAGE_H_
#define ARIES_SYSC_PACKAGE_H_

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "aries_regs.h"
#include "channel.h"
#include "endpoint.h"
#include "geometry.h"
#include "node_model.h"
#include "tick_pool.h"
#include "transport.h"

class VerilatedContext;
class VerilatedFstC;

namespace aries::sysc {

// The package's geometry (pure, shared with the collective controller) and how to simulate it.
using coll::LinkSpec;
using coll::Topology;
struct PackageConfig : coll::Geometry {
  bool skip_idle = true;     // do not evaluate nodes whose clock edge changes nothing
  bool dynamic_vcs = false;  // CTRL.DYN_VC: DOR packets take any free VC of their class per hop
  unsigned threads = 1;      // partitions, each stepped on its own thread in Run() (1: serial)
  // Count the data toggles on buffer writes and links (NodeCounters::buffer_toggles and
  // link_toggles, which only energy reads); off, both stay 0 and a flit costs no bit counting.
  bool count_toggles = true;
};

// A register access that the hardware or the address map refused; what() names the node, the
// register, the value and why.
class RegisterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RegOp {
  unsigned node;
  bool write;
  uint32_t addr;
  uint32_t value;  // write data
};

struct RegResult {
  bool ok;
  uint32_t rdata;
};

// Per-node activity counters kept by the package, counted at the node's pins. A flit on a
// router VC arriving from a link or the endpoint is written into one input buffer (and read
// out of it once); a flit leaving on a link or to the endpoint crossed the crossbar on one
// switch-allocator grant (a multicast flit once per output), and a head flit took one
// VC-allocator grant for that hop. Flits on the
// collective VCs go to and come from the engine instead. Toggles count the bits that change
// between consecutive flits on the same wires (a buffer's write data, a link), 0->1 and 1->0
// alike; wires start at 0 and hold their value between flits.
struct NodeCounters {
  uint64_t evaluated = 0;         // cycles the model was stepped
  uint64_t injected = 0;          // flits from the endpoint (every local port)
  uint64_t ejected = 0;           // flits to the endpoint
  uint64_t buffer_writes = 0;     // router input-buffer writes (= reads, once drained)
  uint64_t xbar_traversals = 0;   // = switch-allocator grants
  uint64_t va_grants = 0;         // head flits leaving the router
  uint64_t buffer_toggles = 0;    // bits changed on the input buffers' write data
  uint64_t engine_requests = 0;   // request flits into the collective engine (operands)
  uint64_t engine_responses = 0;  // response flits into the engine (results passed down)
  uint64_t engine_out = 0;        // flits the engine sent
  uint64_t portsel_changes = 0;   // port-mux selects (input or output side) a PORTSEL write changed
  uint64_t bypass_changes = 0;    // bypass switches flipped by BYPASS writes
  std::vector<uint64_t> link_flits, link_toggles;  // per outgoing link
  std::vector<uint64_t> link_flit_pitches;         // flits x the wire's length in chiplet pitches
};

class Package {
 public:
  // A waveform to open with the package (the constructor's `wave`).
  struct Waveform {
    std::string path;
    std::vector<unsigned> nodes;  // empty: every node
    uint64_t from = 0, to = ~uint64_t{0};
  };
  // Throws std::invalid_argument naming the key and the allowed values for an impossible
  // configuration (K, tracks, a radix no model has).
  // With a transport of several ranks, this process is one rank of a distributed package: it
  // makes and steps only its own nodes (blocks of rows; threads split them further), hands
  // what crosses its borders to the others between windows, and its register accesses and
  // queries (Access, Quiet, AnyError, GatherCounters) are collective calls, made by every rank
  // in the same order. The transport must outlive the package.
  // With `wave`, the waveform (OpenTrace) opens as soon as the nodes are out of reset, before
  // the package's own CTRL writes and shape reads of cycles 0 onwards, so it shows them.
  Package(const PackageConfig& cfg, const NodeModelFactory& factory, uint64_t seed,
          Transport* transport = nullptr, const Waveform* wave = nullptr);
  ~Package();
  Package(const Package&) = delete;
  Package& operator=(const Package&) = delete;

  const PackageConfig& config() const { return cfg_; }
  const NodeShape& shape() const { return shape_; }
  unsigned k() const { return cfg_.k; }
  unsigned num_nodes() const { return cfg_.k * cfg_.k; }
  unsigned NodeId(unsigned x, unsigned y) const { return y * cfg_.k + x; }
  std::string NodeName(unsigned n) const;
  uint64_t cycle() const { return cycle_; }
  // The cycle the endpoints are in: aries_node registers what its endpoint drives, so the
  // endpoints run shape().ep_lead cycles ahead of the nodes' clock (Endpoint calls, traffic
  // windows and collective start and end cycles are in this time).
  uint64_t endpoint_cycle() const { return cycle_ + shape_.ep_lead; }

  void AttachEndpoint(unsigned node, Endpoint* ep);
  Endpoint* endpoint(unsigned node) const { return nodes_.at(node).ep; }

  // `cycles` cycles of every node, in windows of at most lookahead() cycles with the partitions
  // stepped in parallel (one cycle per window while a trace is open). Step() is Run(1).
  // StepNode + EndCycle is one cycle, serial, split for SystemC.
  void Run(uint64_t cycles);
  void Step() { Run(1); }
  void StepNode(unsigned n);
  void EndCycle();
  // Cycles every partition may run before it waits for the others (unbounded: kNoLookahead
  // when the package is one partition, or no channel joins two).
  static constexpr unsigned kNoLookahead = 1u << 20;
  static constexpr unsigned kMaxWindow = 256;  // Run()'s longest window
  unsigned lookahead() const { return lookahead_; }
  unsigned num_partitions() const { return static_cast<unsigned>(parts_.size()); }
  unsigned PartitionOf(unsigned node) const { return nodes_.at(node).part; }
  // Distributed packages: this rank's transport (nullptr in one process), the rank stepping a
  // node, and whether it is this one.
  Transport* transport() const { return transport_; }
  unsigned RankOf(unsigned node) const { return nodes_.at(node).rank; }
  bool IsLocal(unsigned node) const {
    return !transport_ || nodes_.at(node).rank == transport_->rank();
  }
  // Collective: every node's counters and every channel's flit count, from the rank that
  // steps it, on every rank (nothing to do in one process).
  void GatherCounters();
  // Called between windows (nullptr: none); the package does not own it.
  void SetWindowObserver(WindowObserver* o) { observer_ = o; }

  // Register access through each node's configuration bus, one request per node per cycle,
  // all nodes in parallel; the package keeps running meanwhile. Access returns per-op results;
  // Program throws RegisterError listing every refused op (and performs the others).
  std::vector<RegResult> Access(const std::vector<RegOp>& ops);
  void Program(const std::vector<RegOp>& ops);
  void Write(unsigned node, uint32_t addr, uint32_t value);
  uint32_t Read(unsigned node, uint32_t addr);
  // Human-readable register name ("PORTSEL[XP]", "ROUTE[flow 3][in 1]", "0x0123 (unmapped)").
  std::string RegName(uint32_t addr) const;
  // Why a refused write may have been refused, from the package's view of the node state.
  std::string ExplainRefusal(const RegOp& op) const;

  // Channels and their counters (fixed links and current bypass segments).
  std::vector<const Channel*> Channels() const;
  // Faults (config().faults, collectives/faults.h): a dead link, bypass wire span or switch
  // kills the channels over it, a dead router port the channels its mux selects, each from the
  // fault's cycle on (flits and credits sent there are lost). Detection: the channels whose two
  // ends disagree (sent but never received), each with the part the controller should plan
  // around: what training the channel's wires and ports again finds dead, as link training
  // does at reset (FaultSet::FromReset): the fault that killed it. A dead port is named as the
  // port, whatever its mux selected (the planner then avoids its mesh link both ways and every
  // track tap it could select, all at once), a dead switch as the switch, a dead link or
  // piece of a track as itself. (A channel whose cause is not known here, on another rank,
  // is named by its fixed link or its segment's whole span.)
  struct LostLink {
    const Channel* channel;
    coll::Fault fault;  // what failed, as the controller sees it (from = 0)
    std::string Describe(const Package& p) const;
  };
  std::vector<LostLink> LostLinks() const;
  const NodeCounters& counters(unsigned n) const { return nodes_[n].counters; }
  // Any flit or credit on the interposer wires.
  bool WiresBusy() const;
  // Every node idle and nothing on the wires.
  bool Quiet() const;
  bool AnyError() const;

  // Every flit at every node's pins, for a packet log: entering from the endpoint (inject),
  // leaving on an interposer link (hop: `channel` says where it arrives and after how many
  // cycles) or leaving to the endpoint (eject). One partition only (set sim.threads = 1);
  // nullptr (the default): no observer, no cost.
  struct FlitEvent {
    enum Kind { kInject, kHop, kEject } kind;
    uint64_t cycle;
    unsigned node, link;     // link: the node's link of a hop, or the local port (inject, eject)
    const Channel* channel;  // of a hop
    const uint32_t* flit;    // header word, then the carried lanes (shape().words() words)
  };
  using FlitObserver = std::function<void(const FlitEvent&)>;
  void SetFlitObserver(FlitObserver f);

  // Waveforms: FST of the chosen nodes (all when empty) dumped in cycles [from, to), 1 ns per
  // cycle with the clock's two phases.
  void OpenTrace(const std::string& path, const std::vector<unsigned>& nodes, uint64_t from,
                 uint64_t to);
  // Closes the waveform; false when the file does not read back as an FST.
  bool CloseTrace();

  // The link a router port's mux selects now (output or input side), or ~0u; and the inverse,
  // the directional port whose mux selects `link`, or ~0u (a link no port owns).
  unsigned PortLink(unsigned node, unsigned port, bool out) const;
  unsigned LinkPort(unsigned node, unsigned link, bool out) const;

 private:
  struct Node {
    std::unique_ptr<NodeModel> model;
    unsigned part = 0;  // partition (thread) stepping this node, over all ranks
    unsigned rank = 0;  // the rank stepping it (distributed packages)
    NodeIn in;
    NodeOut out;
    Endpoint* ep = nullptr;
    std::vector<Channel*> in_ch, out_ch;   // per link: channel arriving / leaving there
    uint64_t in_links = 0, out_links = 0;  // links with an arriving / leaving channel
    uint64_t credit_links = 0;             // links whose in.link_credit Gather last set
    std::vector<unsigned> out_pitches;     // per link: the leaving channel's length in pitches
    NodeCounters counters;
    // Register port: queued requests (index into the current Access batch).
    std::vector<size_t> queue;
    size_t next = 0;
    bool waiting = false;
    size_t waiting_op = 0;
    uint32_t bypass = 0;
    // The last flit on each wire set (toggle counting): links in and out, the endpoint's port.
    std::vector<uint32_t> last_in, last_out, last_ep;
    uint32_t portsel[5] = {0, 0, 0, 0, 0};  // last accepted PORTSEL per port
    uint32_t bypass_reg = 0;                // last accepted BYPASS
  };
  uint64_t Toggles(std::vector<uint32_t>& last, size_t at, const uint32_t* flit) const;
  // Counts a flit entering the node: a router input-buffer write (with its data toggles
  // against `last` at `at`) or an engine request/response, by its VC.
  void CountArrival(NodeCounters& k, const uint32_t* flit, std::vector<uint32_t>& last,
                    size_t at) const;
  // One node's cycle in three parts: Gather() fills its inputs from the channels, its endpoint
  // and the register queue (false: the node is idle and skipped), the model ticks, Scatter()
  // delivers its outputs. Gather and Scatter touch shared state and run in node order.
  bool Gather(unsigned n, uint64_t cycle);
  // The register at `addr` in the generated table (rtl/pkg/aries_regs.h) for this node's shape,
  // or nullptr; `index` gets the port, step, id or ROUTE offset of a window.
  const hw::RegDesc* FindReg(uint32_t addr, unsigned* index) const;
  std::string RegMapSummary() const;
  void Scatter(unsigned n, uint64_t cycle);
  void StepNodeAt(unsigned n, uint64_t cycle);
  // One window of `w` cycles starting at cycle_, every partition on its own thread.
  void RunWindow(unsigned w);
  // Partition p's nodes through the window being run (window_ cycles from cycle_).
  void StepPartition(unsigned p);
  // Constructor stages, in order. BuildNodes: the nodes, their ranks and partitions, and this
  // rank's node models; returns the partitions of each rank.
  std::vector<unsigned> BuildNodes(const NodeModelFactory& factory, unsigned ranks,
                                   unsigned my_rank, unsigned want_ports);
  // Takes the node models' shape; throws std::invalid_argument where the configuration asks
  // for more than it has (`want_ports` router ports, tracks, local ports) or a shorter link.
  void ReadNodeShape(unsigned want_ports);
  // This rank's `parts` partitions: their nodes, the thread pool and the step of each.
  void BuildPartitions(unsigned parts, unsigned my_rank);
  // Sizes the arrival rings for the longest of `fixed_links` and of the bypass segments.
  void SizeArrivalRings(const std::vector<LinkSpec>& fixed_links);
  // Sizes every node's wires and counters to the shape and resets its model at its place.
  void ResetNodes();
  // The channels of `fixed_links` and the lookahead they allow.
  void WireChannels(const std::vector<LinkSpec>& fixed_links);
  // Writes CTRL (topology, grid size, dynamic VCs) into every router.
  void ProgramCtrl();
  void UpdateLookahead();
  // Reads every node's parameter registers and throws std::invalid_argument when they disagree
  // with shape() (the model's own account of what it was built with).
  void CheckShape();
  // Distributed packages: hands the other ranks the flits and credits this rank sent across
  // its borders in the window just run (cycles [from, from + w)), and takes theirs.
  // Returns whether any rank failed in the window (`failed`: this one did).
  bool ExchangeBorders(uint64_t from, unsigned w, bool failed);
  // BYPASS of every node on every rank (segments are built everywhere alike).
  void SyncBypass();
  bool LocalWiresBusy() const;
  void Connect(const LinkSpec& l, std::vector<std::unique_ptr<Channel>>& into);
  void RebuildSegments();
  // Sets every channel's first dead cycle from the faults and the muxes' current choices.
  void ApplyFaults();

  PackageConfig cfg_;
  NodeShape shape_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::vector<Node> nodes_;
  std::vector<std::unique_ptr<Channel>> fixed_, segments_;
  std::vector<coll::Fault> segment_sites_;  // per segment channel: its span, as a fault
  uint64_t cycle_ = 0;
  std::vector<RegResult>* results_ = nullptr;
  const std::vector<RegOp>* ops_ = nullptr;
  std::unique_ptr<VerilatedFstC> trace_;
  std::string trace_path_;
  uint64_t trace_from_ = 0, trace_to_ = 0;
  std::vector<unsigned> traced_;  // the nodes in the trace
  FlitObserver flit_observer_;
  void DumpTrace();
  std::unique_ptr<TickPool> pool_;
  std::vector<std::vector<unsigned>> parts_;  // nodes of each partition, in id order
  unsigned lookahead_ = kNoLookahead;
  // The least lookahead of any channel: a node may run that many cycles on its own before its
  // neighbours catch up (RunWindow steps each node through blocks of it, keeping its state in
  // the cache; 1 with 1-cycle links).
  unsigned node_block_ = 1;
  // Per node, a ring of words, one per cycle: the links with a flit arriving then (Channel::
  // SetArrivals), arrival_ring_ words each (a power of two, twice the longest link's lookahead).
  std::vector<uint64_t> arrivals_;
  // The same for credits arriving (Channel::SetCreditArrivals), bit per out link.
  std::vector<uint64_t> credit_arrivals_;
  unsigned arrival_ring_ = 0;
  std::vector<Channel*> borders_;               // channels whose ends are on two ranks
  unsigned window_ = 0;                         // cycles of the window being run (RunWindow)
  std::vector<std::exception_ptr> part_error_;  // what a partition threw in the window
  std::function<void(unsigned)> run_part_;      // steps partition i through the window
  WindowObserver* observer_ = nullptr;
  Transport* transport_ = nullptr;
  bool broken_ = false;       // a window stopped on an error
  uint64_t observed_to_ = 0;  // endpoint cycle up to which BeforeWindow ran
  // Per dead channel: the fault (index into cfg_.faults) that kills it first (ApplyFaults).
  std::map<const Channel*, size_t> fault_of_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_PACKAGE_H_
