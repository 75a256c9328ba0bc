// A collective program: everything the controller writes into a package to run one collective
// (port-mux and bypass-switch settings, routing-table entries, collective-engine registers) and
// the schedule every node's endpoint executes (messages to send and receive, engine streams).
//
// Semantics of an endpoint schedule (what the symbolic execution interprets and what the
// endpoint model in sysc/ executes cycle by cycle):
// * every node has one buffer of `Program::elements` elements, in place: it holds the node's
//   input at the start and its output at the end;
// * ops run in program order per buffer element: an op touching element e waits until every
//   earlier op of the node touching e is done with e, and every reader (send) sees the value
//   the sequential order gives. Ops touching different elements overlap freely, so a relay
//   forwards the first flit of a message before the last one has arrived (pipelining);
// * a send is non-blocking; a receive takes the next message of its channel, the channel being
//   (source node, destination node, route: dimension order or flow f, VC). Messages of a
//   channel arrive in the order they were sent (one route, one VC, wormhole); a receive has
//   its send's length and lands at its own region's offset (the same as the send's except
//   where the data moves, as in all-to-all);
// * an engine send injects the region as request flits of a collective id (sequence numbers
//   from 0), an engine receive takes that id's results (responses, or request results at the
//   root of a reduce) into the region.
#ifndef ARIES_COLLECTIVES_PROGRAM_H_
#define ARIES_COLLECTIVES_PROGRAM_H_

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "aries_node_params.h"
#include "geometry.h"

namespace aries::coll {

// A request the controller cannot serve; the message names the item and what is allowed.
struct PlanError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// All-to-all (MPI_Alltoall in place): every member of a communicator of G members holds G
// blocks (AllToAllBlock); its block j goes to member j, which keeps it as its block i, i the
// sender's rank. Block r, a member's own, stays where it is.
// All-to-all-v (MPI_Alltoallv, not in place): per-pair counts (Request::counts), a send area and
// a receive area in every buffer (AllToAllVLayout).
enum class Collective {
  kAllReduce,
  kReduceScatter,
  kAllGather,
  kReduce,
  kBroadcast,
  kBarrier,
  kAllToAll,
  kAllToAllV
};
const char* CollectiveName(Collective c);
std::optional<Collective> ParseCollective(std::string_view name);
// "allreduce, reducescatter, allgather, reduce, broadcast, barrier, alltoall, alltoallv"
const char* CollectiveNames();
// The collectives the sweeps measure and cost models cover (coll-sweep, coll-models, --algo
// auto), and their names for messages.
bool Swept(Collective c);
// The collectives that move elements rather than reduce or copy them (all-to-all, -v): their
// inputs use every bit, their golden is the sender's element.
bool MovesElements(Collective c);
const char* SweptNames();  // "allreduce, reducescatter, allgather, alltoall"

// How the ring algorithm lays its ring over the K x K grid (coll.ring_map):
// * snake: a Hamiltonian cycle of neighbours (RingOrder; odd K closes with one long hop);
// * rank: ranks 0, 1, ..., N-1 in row-major order, the logical ring ASTRA-sim maps onto a
//   Garnet mesh; a row's last node reaches the next row's first over K-1 hops back along the
//   row and one down (dimension order), and N-1 closes the ring back to 0.
enum class RingMap { kSnake, kRank };
const char* RingMapName(RingMap m);
std::optional<RingMap> ParseRingMap(std::string_view name);

// The ring's layout: its map, and 1 ring or 2 in opposite directions, each on half of every
// node's shard (every link then carries traffic both ways).
struct RingLayout {
  RingMap map = RingMap::kSnake;
  unsigned dirs = 1;
  bool Plain() const { return map == RingMap::kSnake && dirs == 1; }  // the snake, one way
  std::string Suffix() const;  // "" for Plain, else " rank", " bidir", " rank bidir"
};

// What the nodes offer (the node model's parameters): the validator's limits.
// A default Hardware is the shipped node's (hw::kVaries_nodeParams, declared once in
// rtl/CMakeLists.txt); sysc::HardwareOf gives the one of any node model.
struct Hardware {
  unsigned lanes = hw::kVaries_nodeParams.Lanes;         // 32-bit elements per flit
  unsigned num_vcs = hw::kVaries_nodeParams.NumVCs;      // router VCs (point-to-point)
  unsigned num_flows = hw::kVaries_nodeParams.NumFlows;  // routing-table flows
  unsigned tracks = hw::kVaries_nodeParams.NumTracks;    // bypass tracks per row and column
  bool engine = hw::kVaries_nodeParams.CollEngine != 0;  // a collective engine per node
  unsigned coll_ids = hw::kVaries_nodeParams.CollIds;    // its ids
  unsigned coll_prog = hw::kVaries_nodeParams.CollProg;  // its program steps
  // Local (endpoint) ports per node (node.local_ports): a send injects on local port Op::port
  // (hw::LocalPort), and a table-routed message leaves at its destination by the same port.
  unsigned local_ports = hw::kVaries_nodeParams.LocalPorts;
};

// What is asked.
struct Request {
  Geometry geom;
  Collective collective = Collective::kAllReduce;
  std::string algo = "ring";
  unsigned op = 0;            // engine opcode (hw::kOp*)
  uint64_t elements = 0;      // per-node buffer size (all-gather: the gathered size)
  unsigned root = 0;          // reduce and broadcast
  unsigned levels = 2;        // ARIES_LT: ring levels
  unsigned embeddings = 1;    // in-network tree: trees over disjoint parts of the vector
  RingLayout ring;            // ring: coll.ring_map and coll.ring_dirs
  unsigned packet_flits = 8;  // point-to-point packet length
  // Communicators (coll.groups): disjoint sets of at least two chiplets, each running the
  // collective over its own members at the same time, on one buffer size; a chiplet in none
  // takes no part. Empty: one communicator of every chiplet.
  std::vector<std::vector<unsigned>> groups;
  // All-to-all-v: counts[i][j] elements go from node i to node j (K^2 x K^2, node ids; zero
  // between nodes of different communicators). The counts size the buffer, not `elements`.
  std::vector<std::vector<uint64_t>> counts;
};

// The communicators of a request: its groups, or one of every node when it has none; each
// group's members in ascending order (their ranks).
std::vector<std::vector<unsigned>> Communicators(const Request& req);
// A node's communicator (index into Communicators), its rank there and the communicator's size.
struct CommRank {
  unsigned comm = 0, rank = 0, size = 0;
};
// Nothing for a node in no communicator.
std::optional<CommRank> RankOf(const Request& req, unsigned node);
// Members of the request's largest communicator (every node without groups).
unsigned LargestCommunicator(const Request& req);
// Communicators' shape on K x K: disjoint groups of at least two of its nodes; throws
// PlanError saying what is allowed and naming the offending item (a node twice or past K x K, a
// group of fewer than two), worded to follow "allowed" (the configuration's BadKey).
void CheckGroups(const std::vector<std::vector<unsigned>>& groups, unsigned k);
// Named communicator shapes on K x K: "rows", "cols"; with K even "quadrants", "qpeers" (the
// four chiplets at one offset in each quadrant: the communicators across quadrants), "vpairs"
// (rows 2i and 2i+1 paired column by column: vertical neighbours) and "hpairs" (columns 2j and
// 2j+1 paired row by row); or lists of node ids "0,1,2,3;4,5,6,7", checked by CheckGroups;
// throws PlanError as it does (and naming an id that is not a number).
std::vector<std::vector<unsigned>> ParseGroups(const std::string& text, unsigned k);
// The named shapes, for messages: "rows, cols, quadrants, qpeers, vpairs, hpairs".
const char* GroupShapeNames();
// Whether `text` names one of them (a sweep's communicators must: the cost file names them).
bool IsGroupShape(const std::string& text);
// "rows of 4x4 (4 communicators of 4)" style label of a request's groups ("" without groups).
std::string GroupsLabel(const Request& req);

// The 32-bit elements of a buffer of `bytes` per chiplet (coll.size; a partial element rounds
// up), as `aries coll`, the sweeps and the cost models size a request.
inline uint64_t ElementsOfBytes(uint64_t bytes) { return (bytes + 3) / 4; }

// Shard i of n of `elements` (balanced: the first elements % n shards hold one more).
struct Range {
  uint64_t off = 0, len = 0;
  uint64_t end() const { return off + len; }
};
Range Shard(uint64_t elements, unsigned n, unsigned i);
// Block i of an all-to-all over n members: elements / n elements each, so that the block a
// member sends and the block its peer keeps it in have one size (the last elements % n elements
// take no part).
Range AllToAllBlock(uint64_t elements, unsigned n, unsigned i);
// Where element e of an all-to-all member of rank `rank` among n comes from once done (e inside
// the n blocks): the rank of its sender (the block e is in) and the offset in the sender's
// buffer (the same place in the sender's block `rank`).
struct BlockSource {
  unsigned rank = 0;
  uint64_t offset = 0;
};
BlockSource AllToAllSource(uint64_t elements, unsigned n, unsigned rank, uint64_t e);
// The all-to-all's bisection bound on the whole K x K package, in units of M / B (M a node's
// buffer, B one link direction's bandwidth). The a = floor(K/2) columns left of the middle
// send the b = K - a columns right of it a K x b K blocks of M / N over the K w link
// directions that cross the cut, w per row: 1 on the mesh, 2 on the torus (K > 2), a b on the
// flattened butterfly, 1 + tracks on ARIES (a track carries one segment across it at most), 1/2
// on the concentrated mesh (its cut on a router boundary: a = K/2 - 1 when K/2 is odd);
// so a b / (w K).
double AllToAllBisection(const Geometry& g);
// All-to-all-v's buffer. Node i's send area is at offset 0: its blocks for its communicator's
// members in rank order, counts[i][j] elements for member j (its block for itself among them:
// the block stays there, MPI's self copy moves nothing over the network). Its receive area is
// at offset send_area(), the longest send area of any node: the blocks of the other members in
// rank order, counts[j][i] elements from member j. Program::elements = send_area() + the
// longest receive area. The counts must have passed CheckCounts.
class AllToAllVLayout {
 public:
  explicit AllToAllVLayout(const Request& req);
  // Node `from`'s block for `to` in its send area; node `at`'s block from `from` in its receive
  // area (empty for `at` itself).
  Range Send(unsigned from, unsigned to) const { return send_[size_t{from} * n_ + to]; }
  Range Recv(unsigned at, unsigned from) const { return recv_[size_t{at} * n_ + from]; }
  Range Received(unsigned node) const { return {send_area_, recv_len_[node]}; }
  uint64_t send_area() const { return send_area_; }
  uint64_t elements() const { return elements_; }
  // Elements a node sends to other nodes (its send area without its own block).
  uint64_t Sent(unsigned node) const { return sent_[node]; }
  // Where element e of node `at`'s receive area comes from: the sending node and the element
  // of its send area (nothing outside every receive block of `at`).
  struct Source {
    unsigned from = 0;
    uint64_t offset = 0;
  };
  std::optional<Source> SourceOf(unsigned at, uint64_t e) const;

 private:
  unsigned n_;
  std::vector<Range> send_, recv_;
  std::vector<uint64_t> recv_len_, sent_;
  // Per node: the end and the sender of each nonempty receive block, ascending.
  std::vector<std::vector<std::pair<uint64_t, unsigned>>> blocks_;
  uint64_t send_area_ = 0, elements_ = 0;
};
// The counts of an all-to-all-v: K^2 rows of K^2 counts, zero between nodes that share no
// communicator (and for nodes in none), some element moving between two nodes, and a buffer of
// at most `max_elements`; throws PlanError naming the offending row and column, worded to
// follow "allowed".
inline constexpr uint64_t kMaxAllToAllVElements = uint64_t{1} << 24;
void CheckCounts(const Request& req, uint64_t max_elements = kMaxAllToAllVElements);
// Generated all-to-all-v counts (coll.counts): "uniform", every member sends every member of its
// communicator (itself included) `per_pair` elements; "random", each such count drawn uniformly
// from 0 .. 2 per_pair (the same mean: a load imbalance like DLRM's embedding lookups), from
// `seed`. Zero between nodes that share no communicator. Throws PlanError for another kind.
std::vector<std::vector<uint64_t>> MakeCounts(const Request& req, const std::string& kind,
                                              uint64_t per_pair, uint64_t seed);
// The all-to-all-v's bisection bound on the K x K package in elements per link direction: the
// most elements any direction of the middle column cut or the middle row cut carries, over the
// link directions crossing it (the widths of AllToAllBisection).
double AllToAllVBisection(const Geometry& g, const std::vector<std::vector<uint64_t>>& counts);
// The shard holding element e.
unsigned ShardOf(uint64_t elements, unsigned n, uint64_t e);

// Port-mux choice of one side of a port: 0 mesh, 1 + t x-track t, 1 + T + t y-track t.
struct PortSel {
  uint8_t in = 0, out = 0;
};

// One routing-table entry: packets of `flow` arriving on `in_port` leave by the ports of `mask`.
struct RouteEntry {
  unsigned flow, in_port;
  uint32_t mask;
};

// One collective id's registers (rtl/coll_engine/README.md).
struct EngineId {
  unsigned id = 0, op = 0;
  uint32_t count = 1;    // flits per program step
  uint32_t req_in = 0;   // port mask
  uint32_t req_out = 0;  // port, or kEngTurn
  uint32_t rsp_in = 0;   // port, or kEngTurn
  uint32_t rsp_out = 0;  // port mask (0: no response stage)
};

struct EngineProgram {
  std::vector<unsigned> steps;  // ids
  unsigned passes = 0;
};

enum class Act : uint8_t { kSend, kRecvReduce, kRecvCopy, kEngSend, kEngRecv };
const char* ActName(Act a);

// One endpoint op. Sends and receives name the peer node and the route; engine ops the id.
struct Op {
  Act act = Act::kSend;
  unsigned peer = 0;
  Range region;
  int flow = -1;     // -1: dimension-order routing, else the flow id (table routing)
  unsigned vc = 0;   // router VC (point-to-point)
  unsigned id = 0;   // engine ops
  uint8_t lane = 0;  // sends and receives: 1 = a second link between the same two
                     // nodes, disjoint from lane 0 (ARIES_BW; see embed.h)
  uint8_t port = 0;  // sends and receives: the local port the message is injected on and
                     // (table-routed) ejected by, < Hardware::local_ports; engine ops use 0
  bool IsWrite() const {
    return act == Act::kRecvReduce || act == Act::kRecvCopy || act == Act::kEngRecv;
  }
  bool IsRecv() const { return act == Act::kRecvReduce || act == Act::kRecvCopy; }
};

// True where the id's request result goes to the local endpoint (the root of a reduce), so the
// endpoint's engine receive takes request flits instead of responses.
inline bool DeliversRequests(const EngineId& e) { return e.req_out == 0 && e.req_in != 0; }

struct NodeProgram {
  std::array<PortSel, 5> portsel{};  // index = port (1..4 used)
  uint32_t bypass = 0;               // BYPASS register value
  std::vector<RouteEntry> routes;
  std::vector<EngineId> ids;
  EngineProgram req, rsp;
  std::vector<Op> ops;
  // The registers of `id`, or nullptr when this node does not configure it.
  const EngineId* FindId(unsigned id) const;
};

struct Program {
  Request req;
  uint64_t elements = 0;  // buffer elements per node
  std::vector<NodeProgram> nodes;
  // Synchronization steps (the longest chain of dependent messages or engine levels, counted
  // by the planner from its construction) and a line on the embedding.
  unsigned sync_steps = 0;
  std::string summary;
  // The result region every node must hold (reduce-scatter: its shard, by its rank in its
  // communicator; all-reduce: all; all-to-all: its communicator's blocks; a node in no
  // communicator: none).
  Range ResultRegion(unsigned node) const;
  // Every node's, by node id (one all-to-all-v layout for all: loop over these).
  std::vector<Range> ResultRegions() const;
  // Links the program wires onto bypass segments: port outputs whose mux selects a track.
  unsigned SegmentLinks() const;
  unsigned num_nodes() const { return static_cast<unsigned>(nodes.size()); }
};

}  // namespace aries::coll

#endif  // ARIES_COLLECTIVES_PROGRAM_H_
