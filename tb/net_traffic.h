// Point-to-point traffic for the package: patterns, per-node endpoints (source queue + sink),
// a network-wide scoreboard and latency / throughput / link statistics.
//
// Every packet carries its id in payload lane 0 and a checksum of (id, flit index) in the
// other lanes; a package whose nodes carry fewer lanes (NodeShape::carried_lanes: the fast
// model's sim.payload = id) moves and checks the id lane alone, the others being a function of
// it. The scoreboard checks, at every ejection: the flit belongs to an outstanding
// packet addressed to this node, flits of a packet arrive in order and contiguously on their
// VC, packets of one (source, destination, VC) arrive in injection order, and no flit arrives
// twice. Every injected flit is accounted for: at the end, outstanding packets are listed.
#ifndef ARIES_TB_NET_TRAFFIC_H_
#define ARIES_TB_NET_TRAFFIC_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "endpoint.h"
#include "package.h"
#include "trace_file.h"

namespace aries::tb {

enum class Pattern { kUniform, kTranspose, kBitComplement, kHotspot, kNeighbor, kTrace };
const char* PatternName(Pattern p);
std::optional<Pattern> ParsePattern(std::string_view s);
const char* PatternNames();

struct TrafficConfig {
  Pattern pattern = Pattern::kUniform;
  double rate = 0.1;            // offered flits per node per cycle
  unsigned packet_len = 4;      // flits per packet
  unsigned hotspot = 0;         // hotspot node id
  double hotspot_share = 0.25;  // fraction of packets sent to the hotspot
  std::vector<TraceEntry> trace;
  uint8_t vc_mask = 0xF;     // VCs packets may use (on a torus only the even ones of
                             // these: packets start in dateline class 0)
  double sink_accept = 1.0;  // probability per cycle that a sink frees a slot
  uint64_t seed = 1;
  // Packets are table-routed by the flow of their destination (flow id = destination node;
  // the tables route around faults, collectives/fault_routes.h) instead of dimension order.
  bool flow_routed = false;
};

struct Packet {
  uint64_t id;
  unsigned src, dst, vc, len;
  uint64_t created, head_injected = 0, tail_ejected = 0;
  unsigned ejected = 0;
  bool measured = false;
};

// Shared bookkeeping of all endpoints: every flit arrives once, at its destination, uncorrupted,
// its packet's flits in order and not interleaved with another packet on the ejection VC of
// its local port (node.local_ports: each port has its own ejection VCs). With
// `ordered`, packets of one (source, destination, VC) also arrive in the order they were made
// (a packet keeps its VC); dynamic VC allocation lets them overtake each other.
class NetScoreboard {
 public:
  NetScoreboard(unsigned lanes, bool ordered) : lanes_(lanes), ordered_(ordered) {}
  // Records a new packet; the record stays at this address until its tail arrives (or Erase).
  // Ids increase from one packet to the next (gaps allowed: a rank records only the packets
  // with an end on it); std::logic_error otherwise.
  Packet& OnCreate(Packet p);
  void Erase(uint64_t id);
  // The record of a packet not yet finished; std::out_of_range otherwise.
  Packet& Get(uint64_t id);
  // Checks one ejected flit; returns the completed packet when it was its tail.
  // `port`: the local port it left the router by.
  std::optional<Packet> OnEject(unsigned node, uint64_t cycle, const uint32_t* words,
                                unsigned port = 0);
  static uint32_t Check(uint64_t id, unsigned idx, unsigned lane);
  size_t outstanding() const { return live_; }
  // The packets not yet finished, oldest (lowest id) first.
  template <typename Fn>
  void ForEachPacket(Fn fn) const {
    for (const Record& r : records_) {
      if (r.live) fn(r.p);
    }
  }
  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t flits_created() const { return flits_created_; }
  uint64_t flits_ejected() const { return flits_ejected_; }
  // Flits ejected per VC of the ejection port (the VC of their last hop).
  const std::vector<uint64_t>& ejected_by_vc() const { return ejected_by_vc_; }

 private:
  void Error(std::string e);
  unsigned lanes_;
  bool ordered_;
  // The records of ids first_id_, first_id_ + 1, ... (a deque: records do not move as it grows
  // or as finished ones leave its front); a finished or never-recorded id is not live.
  struct Record {
    Packet p;
    bool live;
  };
  Packet* Find(uint64_t id);
  std::deque<Record> records_;
  uint64_t first_id_ = 0;
  size_t live_ = 0;
  // Per (source, destination, VC): 1 + the highest packet id that arrived. Ids increase in the
  // order packets are made, so a packet with a lower id arriving later was overtaken. One
  // counter per stream, looked up once per packet, at its head's arrival: a 16 x 16 package
  // has 260k streams.
  struct Stream {
    uint64_t arrived_hi = 0;
  };
  static uint64_t StreamKey(const Packet& p) {
    return (uint64_t{p.src} << 40) | (uint64_t{p.dst} << 16) | p.vc;
  }
  // Streams by key: open addressing with linear probing in a power-of-two table at most half
  // full (a lookup is one multiply and, mostly, one cache line: std::unordered_map's division
  // and two dependent loads made its lookups 6% of a run's time).
  class StreamTable {
   public:
    Stream& operator[](uint64_t key);

   private:
    static constexpr uint64_t kEmpty = ~uint64_t{0};  // no key (StreamKey never makes it)
    struct Entry {
      uint64_t key = kEmpty;
      Stream s;
    };
    size_t Home(uint64_t key) const {
      return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
    }
    std::vector<Entry> entries_;
    size_t used_ = 0;
    unsigned shift_ = 63;  // (set by the first growth)
  };
  StreamTable streams_;
  // Per (node, ejection VC), index node * 8 + VC: the packet being ejected there and whether one
  // is (its head arrived, its tail not yet).
  std::vector<std::pair<uint64_t, unsigned>> open_;
  std::vector<std::string> errors_;
  uint64_t flits_created_ = 0, flits_ejected_ = 0;
  std::vector<uint64_t> ejected_by_vc_;
};

struct LatencyStats {
  uint64_t packets = 0;
  double mean = 0, p50 = 0, p99 = 0, max = 0;
  double net_mean = 0;  // head injection to tail ejection (no source queueing)
};

class TrafficEndpoint;

// Traffic on a package: attaches one endpoint per node and runs warm-up, measurement and
// drain phases.
//
// Packets are made before each of the package's windows, for every cycle of the window in
// (cycle, node) order (what a source makes does not depend on the network), and the flits the
// sinks ejected are checked after the window in the same order: the endpoints touch only their
// own state while the partitions run in parallel, and the random streams, packet ids and
// statistics are those of a serial run, whatever the threads.
class NetTraffic : public sysc::WindowObserver {
 public:
  NetTraffic(sysc::Package& pkg, const TrafficConfig& cfg);
  ~NetTraffic() override;

  void BeforeWindow(uint64_t from, uint64_t to) override;
  void AfterWindow(bool last) override;

  // Stops creating new packets (drain).
  void StopInjection() { injecting_ = false; }
  void StartInjection() { injecting_ = true; }
  bool injecting() const { return injecting_; }
  // Packets created in [from, to) count for latency and throughput.
  void SetWindow(uint64_t from, uint64_t to) {
    win_from_ = from;
    win_to_ = to;
  }
  // Sinks stop freeing slots (to test the watchdog).
  void SetSinkStalled(unsigned node, bool stalled);

  // This rank's scoreboard: the packets with an end here (all of them in one process).
  NetScoreboard& scoreboard() { return sb_; }
  const NetScoreboard& scoreboard() const { return sb_; }
  // Over every rank (collective calls on a distributed package): packets not yet ejected
  // (measured ones), the last ejection cycle.
  uint64_t outstanding() const;
  uint64_t measured_outstanding() const;
  uint64_t last_ejection() const;
  // Collective: brings every rank's ejections, latencies and errors together (once, at the end
  // of a run: a distributed NetTraffic serves one RunTraffic); the figures below are then the
  // package's.
  void GatherResults();
  LatencyStats Latency() const;
  uint64_t flits_created() const { return flits_created_; }
  uint64_t flits_ejected() const { return sb_.flits_ejected() + other_ejected_; }
  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t flits_created_in_window() const { return win_created_; }
  uint64_t flits_ejected_in_window() const { return win_ejected_; }

  // Internal, for the endpoints (between windows only).
  uint64_t NextId() { return next_id_++; }
  const TrafficConfig& config() const { return cfg_; }
  sysc::Package& package() { return pkg_; }
  // The packet's record, or nullptr when neither end is on this rank.
  Packet* Created(const Packet& p);
  unsigned Destination(unsigned src);

 private:
  void Ejected(unsigned node, uint64_t cycle, const uint32_t* words, unsigned port);
  // Distributed: sources tell the destinations' ranks when their packets' heads left.
  void SendHeadCycles();

  sysc::Package& pkg_;
  TrafficConfig cfg_;
  NetScoreboard sb_;
  std::vector<std::unique_ptr<TrafficEndpoint>> eps_;
  std::mt19937_64 rng_;
  bool injecting_ = true;
  uint64_t next_id_ = 0;
  uint64_t win_from_ = 0, win_to_ = ~uint64_t{0};
  uint64_t win_created_ = 0, win_ejected_ = 0;
  uint64_t last_eject_ = 0;
  uint64_t flits_created_ = 0;
  // Packets not yet finished whose destination is on this rank (counted, not scanned: the
  // scoreboard's records span every id since the oldest open packet), and the measured ones.
  uint64_t local_live_ = 0, measured_live_ = 0;
  uint64_t cycles_unchecked_ = 0;   // cycles whose ejections wait to be checked
  std::vector<size_t> sort_start_;  // AfterWindow's counting sort (kept: no allocation per batch)
  std::vector<std::pair<unsigned, size_t>> sort_order_;
  std::vector<double> lat_, net_lat_;
  std::vector<std::string> errors_;  // the scoreboard's (GatherResults: every rank's)
  uint64_t other_ejected_ = 0;       // GatherResults: flits ejected on other ranks
  bool gathered_ = false;
};

}  // namespace aries::tb

#endif  // ARIES_TB_NET_TRAFFIC_H_
