#include "streams.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace aries::train {

const char* StrategyName(Strategy s) {
  switch (s) {
    case Strategy::kDdp:
      return "ddp";
    case Strategy::kFsdp:
      return "fsdp";
    case Strategy::kTp:
      return "tp";
  }
  return "?";
}

Strategy ParseStrategy(const std::string& s) {
  if (s == "ddp") return Strategy::kDdp;
  if (s == "fsdp") return Strategy::kFsdp;
  if (s == "tp") return Strategy::kTp;
  throw std::invalid_argument(fmt::format("--strategy '{}': allowed ddp, fsdp, tp", s));
}

void Schedule(std::vector<Op>& ops, bool overlap) {
  const size_t n = ops.size();
  std::vector<bool> done(n, false);
  std::vector<size_t> next(2, 0);  // per stream: the index of the next op to look at
  double free_at[2] = {0, 0};
  auto stream_of = [&](size_t i) { return overlap ? static_cast<int>(ops[i].stream) : 0; };
  size_t scheduled = 0;
  while (scheduled < n) {
    bool progress = false;
    for (int s = 0; s < (overlap ? 2 : 1); ++s) {
      while (next[s] < n && (done[next[s]] || stream_of(next[s]) != s)) ++next[s];
      if (next[s] >= n) continue;
      Op& op = ops[next[s]];
      double ready = free_at[s];
      bool ok = true;
      for (size_t d : op.deps) {
        if (d >= n)
          throw std::logic_error(fmt::format("op '{}' depends on op {} of {}", op.name, d, n));
        if (!done[d]) {
          ok = false;
          break;
        }
        ready = std::max(ready, ops[d].end);
      }
      if (!ok) continue;
      op.start = ready;
      op.end = ready + op.duration;
      free_at[s] = op.end;
      done[next[s]] = true;
      ++scheduled;
      progress = true;
    }
    if (!progress) {
      std::string stuck;
      for (int s = 0; s < (overlap ? 2 : 1); ++s) {
        if (next[s] < n) stuck += (stuck.empty() ? "'" : ", '") + ops[next[s]].name + "'";
      }
      throw std::logic_error(
          fmt::format("the streams deadlock: {} wait on operations that cannot end "
                      "(a dependency cycle or a dependency issued later on the same stream)",
                      stuck));
    }
  }
}

namespace {

struct Builder {
  std::vector<Op> ops;
  size_t Compute(const std::string& name, double ns, std::vector<size_t> deps = {}) {
    Op op;
    op.name = name;
    op.duration = ns;
    op.deps = std::move(deps);
    ops.push_back(op);
    return ops.size() - 1;
  }
  size_t Comm(const std::string& name, coll::Collective c, uint64_t bytes, const CommCost& cost,
              std::vector<size_t> deps = {}) {
    Op op;
    op.name = name;
    op.stream = Stream::kComm;
    op.collective = c;
    op.bytes = bytes;
    op.duration = cost(c, bytes);
    op.deps = std::move(deps);
    ops.push_back(op);
    return ops.size() - 1;
  }
};

constexpr size_t kNone = static_cast<size_t>(-1);

std::vector<size_t> Deps(std::initializer_list<size_t> l) {
  std::vector<size_t> v;
  for (size_t x : l) {
    if (x != kNone) v.push_back(x);
  }
  return v;
}

}  // namespace

Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const CommCost& cost) {
  if (o.chiplets == 0) throw std::invalid_argument("chiplets: 0; need at least 1");
  const double batch = o.batch ? o.batch : w.batch;
  const double share = o.strategy == Strategy::kTp ? 1.0 / o.chiplets : 1.0;
  const size_t L = w.layers.size();
  auto fwd_ns = [&](size_t i) {
    const Layer& l = w.layers[i];
    return (l.fwd_ns > 0 ? l.fwd_ns : l.fwd_flops / c.FlopsPerNs()) * batch * share;
  };
  auto bwd_ns = [&](size_t i) {
    const Layer& l = w.layers[i];
    return l.bwd_ns > 0 ? l.bwd_ns * batch * share : 2 * fwd_ns(i);  // input + weight gradients
  };
  auto grad_bytes = [&](size_t i) { return w.layers[i].params * c.elem_bytes; };
  auto synced = [&](size_t i) { return w.layers[i].params > 0 && !w.layers[i].sharded; };
  Builder b;
  if (o.strategy == Strategy::kDdp) {
    size_t prev = kNone;
    for (size_t i = 0; i < L; ++i) prev = b.Compute("fwd " + w.layers[i].name, fwd_ns(i));
    size_t first_synced = L;  // the last layer to back-propagate that has a gradient collective
    for (size_t i = 0; i < L && first_synced == L; ++i) {
      if (synced(i)) first_synced = i;
    }
    uint64_t bucket = 0;
    std::string names;
    for (size_t j = L; j-- > 0;) {
      prev = b.Compute("bwd " + w.layers[j].name, bwd_ns(j));
      if (!synced(j)) continue;
      bucket += grad_bytes(j);
      names += (names.empty() ? "" : "+") + w.layers[j].name;
      // A bucket closes when full or with the last gradient.
      if (bucket >= o.bucket_bytes || j == first_synced) {
        b.Comm("allreduce " + names, coll::Collective::kAllReduce, bucket, cost, {prev});
        bucket = 0;
        names.clear();
      }
    }
  } else if (o.strategy == Strategy::kFsdp) {
    // Forward: gathered layers g0, g1, ...; AG(g_k) waits for fwd(g_{k-2}) (two layers held).
    std::vector<size_t> fwd(L, kNone), gathered;
    for (size_t i = 0; i < L; ++i) {
      size_t ag = kNone;
      if (synced(i)) {
        const size_t hold = gathered.size() >= 2 ? fwd[gathered[gathered.size() - 2]] : kNone;
        ag = b.Comm("allgather " + w.layers[i].name, coll::Collective::kAllGather, grad_bytes(i),
                    cost, Deps({hold}));
        gathered.push_back(i);
      }
      fwd[i] = b.Compute("fwd " + w.layers[i].name, fwd_ns(i), Deps({ag}));
    }
    // Backward (reverse): the next layer's all-gather is issued before this one's
    // reduce-scatter (FSDP's backward prefetch).
    std::vector<size_t> order;  // gathered layers in backward order
    for (size_t j = L; j-- > 0;) {
      if (synced(j)) order.push_back(j);
    }
    std::vector<size_t> ag_b(L, kNone), bwd(L, kNone);
    size_t issued = 0;  // backward all-gathers issued so far (in `order`)
    // The parameters were freed after the forward: the first two backward gathers wait for the
    // forward pass to end, later ones for the backward of the layer two gathers back.
    const size_t fwd_end = fwd[L - 1];
    auto issue_ag = [&](size_t upto) {  // issue backward all-gathers of order[issued..upto]
      while (issued < order.size() && issued <= upto) {
        const size_t layer = order[issued];
        const size_t hold = issued >= 2 ? bwd[order[issued - 2]] : fwd_end;
        ag_b[layer] = b.Comm("allgather(bwd) " + w.layers[layer].name, coll::Collective::kAllGather,
                             grad_bytes(layer), cost, Deps({hold}));
        ++issued;
      }
    };
    size_t pos = 0;  // position in `order` of the next gathered layer to back-propagate
    issue_ag(1);
    for (size_t j = L; j-- > 0;) {
      bwd[j] = b.Compute("bwd " + w.layers[j].name, bwd_ns(j), Deps({ag_b[j]}));
      if (synced(j)) {
        issue_ag(pos + 2);
        b.Comm("reducescatter " + w.layers[j].name, coll::Collective::kReduceScatter, grad_bytes(j),
               cost, {bwd[j]});
        ++pos;
      }
    }
  } else {  // tensor parallel: the workload's tp columns give each layer's all-reduces
    auto bytes_of = [&](uint64_t elems) {
      return static_cast<uint64_t>(static_cast<double>(elems) * batch) * c.elem_bytes;
    };
    size_t ar = kNone;
    for (size_t i = 0; i < L; ++i) {
      const size_t f = b.Compute("fwd " + w.layers[i].name, fwd_ns(i), Deps({ar}));
      ar = kNone;
      if (w.layers[i].tp_fwd > 0) {
        ar = b.Comm("allreduce(out) " + w.layers[i].name, coll::Collective::kAllReduce,
                    bytes_of(w.layers[i].tp_fwd), cost, {f});
      }
    }
    for (size_t j = L; j-- > 0;) {
      const size_t g = b.Compute("bwd " + w.layers[j].name, bwd_ns(j), Deps({ar}));
      ar = kNone;
      if (w.layers[j].tp_bwd > 0) {
        ar = b.Comm("allreduce(grad) " + w.layers[j].name, coll::Collective::kAllReduce,
                    bytes_of(w.layers[j].tp_bwd), cost, {g});
      }
    }
  }
  Iteration it;
  it.ops = std::move(b.ops);
  Schedule(it.ops, o.overlap);
  for (const Op& op : it.ops) {
    it.time = std::max(it.time, op.end);
    if (op.stream == Stream::kCompute) {
      it.compute_busy += op.duration;
    } else {
      it.comm_busy += op.duration;
      ++it.collectives;
    }
  }
  it.exposed_comm = it.time - it.compute_busy;
  return it;
}

std::string TimelineCsv(const Iteration& it) {
  std::string s = "stream,op,collective,bytes,start_ns,end_ns\n";
  for (const Op& op : it.ops) {
    const bool comm = op.stream == Stream::kComm;
    s += fmt::format("{},{},{},{},{:.1f},{:.1f}\n", comm ? "comm" : "compute", op.name,
                     comm ? coll::CollectiveName(op.collective) : "", comm ? op.bytes : 0, op.start,
                     op.end);
  }
  return s;
}

}  // namespace aries::train
