// Energy from activity: per-event energies and leakage from a technology file (published
// figures, each cited in the file), scaled to the package's flit width and by the measured bit
// toggles, summed per component, per link and in total. Pure C++: the activity comes in as
// plain counts (the package's NodeCounters, converted by the caller).
//
// Toggle convention: the toggle rate of a wire set is the fraction of its bits that change per
// flit carried (0->1 and 1->0 both count; random data gives 0.5). Published per-flit and
// per-bit energies are for random data; the part `data_fraction` of them that switches with
// the data is scaled by (measured toggle rate / 0.5), the rest (decoders, clocking, control)
// is charged as published: E x ((1 - data_fraction) + data_fraction x rate / 0.5).
#ifndef ARIES_SIM_ENERGY_ENERGY_H_
#define ARIES_SIM_ENERGY_ENERGY_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace aries::energy {

// A bad technology file or override: names the file:line or key and what is allowed.
class TechError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Tech {
  std::string name;
  double ref_flit_bits = 128;  // flit width the per-flit figures were computed for
  double buffer_write_pj = 0;  // per flit at ref_flit_bits
  double buffer_read_pj = 0;
  double xbar_pj = 0;          // crossbar traversal per flit
  double sa_pj = 0;            // switch-allocator arbitration per grant
  double va_pj = 0;            // VC-allocator arbitration per grant
  double link_pj_per_bit = 0;  // interposer link, per bit carried one chiplet pitch
  double engine_op_pj = 0;     // collective engine, one 32-bit operation
  double reconfig_pj = 0;      // one port-mux select or bypass switch changed
  double buffer_leak_nw_per_bit = 0;
  double router_leak_mw = 0;  // the rest of a router (crossbar, allocators, clock) at ref width
  double data_fraction = 1;   // of buffer, crossbar and link energy, the part data toggles
  std::vector<std::string> sources;  // the file's "# source:" lines
};

// The keys a technology file sets, with their meaning (one line each).
const std::vector<std::pair<std::string, std::string>>& TechKeys();

// Reads "key = value" lines ('#' starts a comment; "# source: ..." lines are kept). Every key
// must be set once; values are non-negative decimal numbers (ref_flit_bits positive,
// data_fraction at most 1). Throws TechError naming file:line.
Tech LoadTech(const std::string& path);
// Applies "key=value" overrides (e.g. from --set energy.link_pj_per_bit=0.3); throws TechError
// naming the key and the allowed keys, or the value.
void Override(Tech& t, const std::string& assignment);
// The shipped technology files: "dsent45" (default), "dsent32"; a name or a path.
std::string TechPath(const std::string& name_or_path);

// What the package did, per node.
struct NodeActivity {
  uint64_t buffer_writes = 0, buffer_toggles = 0, xbar_traversals = 0, va_grants = 0;
  uint64_t engine_ops = 0;                         // 32-bit operations
  uint64_t reconfigs = 0;                          // port-mux selects and bypass switches changed
  std::vector<uint64_t> link_flits, link_toggles;  // per outgoing interposer link
  std::vector<uint64_t> link_flit_pitches;         // flits x the link's length in chiplet pitches
};

struct Activity {
  unsigned flit_bits = 544;
  uint64_t router_buffer_bits = 0;  // per router: ports x VCs x depth x flit bits
  uint64_t cycles = 0;
  double clock_ghz = 1.0;
  std::vector<NodeActivity> nodes;
};

struct LinkEnergy {
  unsigned node = 0, link = 0;
  uint64_t flits = 0;
  double toggle_rate = 0;
  double pj = 0;
};

struct Energy {  // pJ
  double buffers = 0, crossbar = 0, allocators = 0, links = 0, engine = 0, reconfig = 0;
  double leakage = 0;
  double dynamic() const { return buffers + crossbar + allocators + links + engine + reconfig; }
  double total() const { return dynamic() + leakage; }
  double buffer_toggle_rate = 0;     // over all buffer writes
  std::vector<double> per_node;      // dynamic + leakage of each node's router and its links
  std::vector<LinkEnergy> per_link;  // links that carried flits
};

// Throws std::invalid_argument when a node's per-link vectors differ in length.
Energy Compute(const Tech& t, const Activity& a);

}  // namespace aries::energy

#endif  // ARIES_SIM_ENERGY_ENERGY_H_
