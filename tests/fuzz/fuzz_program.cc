// The program validator (collectives/validate.cc, symbolic.cc) on programs it was never shown:
// a planned program (ring, dbt, tree, 2D ring, multi-tree, or the direct all-to-all, on a 2x2
// or 4x4 mesh or ARIES package) mutated by the input (an op's action, peer, region, VC, flow or
// id changed, ops dropped, duplicated or swapped, an engine id's ports changed, a port mux or a
// route changed). The validator must not crash; a program it accepts must run on the reference
// interpreter (collectives/reference.cc) to the collective's definition: the two independent
// readings of a program must agree.
#include <optional>
#include <stdexcept>

#include "aries_pkg.h"
#include "arith.h"
#include "fuzz_util.h"
#include "planners.h"
#include "reference.h"
#include "validate.h"
#include "wiring.h"

using namespace aries::coll;

namespace {

struct Bytes {
  const uint8_t* d;
  size_t n, i = 0;
  unsigned Next(unsigned mod) { return mod ? (i < n ? d[i++] : 0u) % mod : 0u; }
  bool More() const { return i < n; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes b{data, size};
  static const char* const kAlgos[] = {"ring", "dbt", "tree", "2dring", "mtree", "direct"};
  Request r;
  r.geom.topology = b.Next(2) ? Topology::kAries : Topology::kMesh;
  r.geom.k = b.Next(2) ? 4 : 2;
  r.algo = kAlgos[b.Next(6)];
  r.collective = b.Next(3) == 0 ? Collective::kReduceScatter : Collective::kAllReduce;
  if (r.algo == "direct") {  // messages that move data: all-to-all, or -v with fuzzed counts
    r.collective = b.Next(2) ? Collective::kAllToAllV : Collective::kAllToAll;
  }
  r.op = aries::hw::kOpAddI32;
  r.elements = 1 + b.Next(200);
  if (r.collective == Collective::kAllToAllV) {
    const unsigned nn = r.geom.k * r.geom.k;
    r.counts.assign(nn, std::vector<uint64_t>(nn, 0));
    for (auto& row : r.counts) {
      for (auto& c : row) c = b.Next(10);
    }
  }
  Hardware hw;
  Program p;
  try {
    p = Plan(r, hw);
  } catch (const PlanError&) {
    return 0;
  }
  const unsigned n = p.num_nodes();
  for (unsigned m = 0; b.More() && m < 8; ++m) {
    NodeProgram& np = p.nodes[b.Next(n)];
    switch (b.Next(8)) {
      case 0:
        if (!np.ops.empty()) np.ops.erase(np.ops.begin() + b.Next(np.ops.size()));
        break;
      case 1:
        if (!np.ops.empty()) np.ops.push_back(np.ops[b.Next(np.ops.size())]);
        break;
      case 2:
        if (np.ops.size() > 1)
          std::swap(np.ops[b.Next(np.ops.size())], np.ops[b.Next(np.ops.size())]);
        break;
      case 3:
        if (!np.ops.empty()) {
          Op& o = np.ops[b.Next(np.ops.size())];
          o.act = static_cast<Act>(b.Next(5));
          o.peer = b.Next(n + 1);
        }
        break;
      case 4:
        if (!np.ops.empty()) {
          Op& o = np.ops[b.Next(np.ops.size())];
          o.region.off = b.Next(static_cast<unsigned>(p.elements) + 2);
          o.region.len = b.Next(static_cast<unsigned>(p.elements) + 2);
        }
        break;
      case 5:
        if (!np.ops.empty()) {
          Op& o = np.ops[b.Next(np.ops.size())];
          o.vc = b.Next(6);
          o.flow = static_cast<int>(b.Next(66)) - 1;
          o.id = b.Next(10);
        }
        break;
      case 6:
        if (!np.ids.empty()) {
          EngineId& e = np.ids[b.Next(np.ids.size())];
          e.req_in = b.Next(32);
          e.req_out = b.Next(6);
          e.rsp_in = b.Next(2) ? aries::hw::kEngTurn : b.Next(6);
          e.rsp_out = b.Next(32);
        }
        break;
      default:
        np.portsel[1 + b.Next(4)] =
            PortSel{static_cast<uint8_t>(b.Next(6)), static_cast<uint8_t>(b.Next(6))};
        if (!np.routes.empty()) np.routes[b.Next(np.routes.size())].mask = b.Next(32);
    }
  }
  Validation v;
  try {
    v = Validate(p, hw);
  } catch (const std::exception& e) {
    aries::fuzz::Finding("Validate threw instead of refusing", e.what());
  }
  if (!v.ok()) return 0;
  std::vector<std::vector<uint32_t>> in(n, std::vector<uint32_t>(p.elements));
  for (unsigned i = 0; i < n; ++i) {
    for (uint64_t e = 0; e < p.elements; ++e)
      in[i][e] = (i + 1) * 1000003u + static_cast<uint32_t>(e);
  }
  std::vector<std::vector<uint32_t>> out;
  try {
    const Wiring w(p.req.geom, hw, p.nodes);
    out = ExecuteConcretely(p, w, in);
  } catch (const std::exception& e) {
    aries::fuzz::Finding("a validated program does not run on the reference interpreter", e.what());
  }
  std::vector<uint32_t> vals(n);
  std::optional<AllToAllVLayout> v_layout;
  if (p.req.collective == Collective::kAllToAllV) v_layout.emplace(p.req);
  const std::vector<Range> regions = p.ResultRegions();
  for (unsigned node = 0; node < n; ++node) {
    const Range rr = regions[node];
    for (uint64_t e = rr.off; e < rr.end(); ++e) {
      uint32_t want;
      if (v_layout) {  // the sender's element of the block this one is in
        const auto src = v_layout->SourceOf(node, e);
        if (!src) aries::fuzz::Finding("all-to-all-v result outside every block", "");
        want = in[src->from][src->offset];
      } else if (p.req.collective == Collective::kAllToAll) {  // the sender's block
        const BlockSource src = AllToAllSource(p.elements, n, node, e);
        want = in[src.rank][src.offset];
      } else {
        for (unsigned i = 0; i < n; ++i) vals[i] = in[i][e];
        want = ReduceInOrder(p.req.op, vals);
      }
      if (out[node][e] != want) {
        aries::fuzz::Finding("a validated program computes a wrong result",
                             "node " + std::to_string(node) + " element " + std::to_string(e));
      }
    }
  }
  return 0;
}
