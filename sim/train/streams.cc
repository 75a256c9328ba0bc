#include "streams.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
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
    case Strategy::kPp:
      return "pp";
  }
  return "?";
}

const char* ScopeName(Scope s) {
  switch (s) {
    case Scope::kAll:
      return "all";
    case Scope::kInner:
      return "inner";
    case Scope::kOuter:
      return "outer";
    case Scope::kStage:
      return "stage";
  }
  return "?";
}

std::string Parallelism::Label() const {
  if (Flat()) return StrategyName(inner);
  return fmt::format("{}@{}+{}", StrategyName(inner), groups, StrategyName(outer));
}

Parallelism ParseParallelism(const std::string& s) {
  const char* allowed =
      "ddp, fsdp, tp, or INNER@GROUPS+OUTER: inner ddp, fsdp or tp; groups rows, cols or "
      "quadrants; outer ddp, fsdp or pp (e.g. tp@rows+ddp, fsdp@quadrants+ddp, ddp@rows+pp)";
  Parallelism p;
  const size_t at = s.find('@');
  if (at == std::string::npos) {
    if (s != "ddp" && s != "fsdp" && s != "tp") throw std::invalid_argument(allowed);
    p.inner = ParseStrategy(s);
    return p;
  }
  const size_t plus = s.find('+', at);
  if (plus == std::string::npos) throw std::invalid_argument(allowed);
  const std::string inner = s.substr(0, at), groups = s.substr(at + 1, plus - at - 1),
                    outer = s.substr(plus + 1);
  if (inner != "ddp" && inner != "fsdp" && inner != "tp") {
    throw std::invalid_argument(
        fmt::format("an inner strategy of ddp, fsdp or tp ('{}' is not one)", inner));
  }
  if (groups != "rows" && groups != "cols" && groups != "quadrants") {
    throw std::invalid_argument(
        fmt::format("groups of rows, cols or quadrants ('{}' is not one)", groups));
  }
  if (outer != "ddp" && outer != "fsdp" && outer != "pp") {
    throw std::invalid_argument(
        fmt::format("an outer strategy of ddp, fsdp or pp ('{}' is not one)", outer));
  }
  p.inner = ParseStrategy(inner);
  p.groups = groups;
  p.outer = outer == "pp" ? Strategy::kPp : ParseStrategy(outer);
  if (p.inner == Strategy::kFsdp && p.outer == Strategy::kFsdp) {
    throw std::invalid_argument(
        "not fsdp both within and across the groups (that is flat fsdp: name fsdp)");
  }
  if (p.outer == Strategy::kPp && p.inner == Strategy::kFsdp) {
    throw std::invalid_argument("ddp or tp inside pipeline stages (not fsdp)");
  }
  if (p.outer == Strategy::kPp && groups == "quadrants") {
    throw std::invalid_argument(
        "pipeline stages of rows or cols (neighbouring stages on neighbouring chiplets)");
  }
  return p;
}

std::string ScopeShape(const Parallelism& p, Scope scope) {
  if (p.Flat() || scope == Scope::kAll) return "all";
  if (scope == Scope::kInner) return p.groups;
  if (scope == Scope::kOuter) {
    return p.groups == "rows" ? "cols" : p.groups == "cols" ? "rows" : "qpeers";
  }
  // Stage i (row i) to stage i + 1, costed on the pairs (2i, 2i + 1): every boundary crosses
  // one neighbour link per chiplet, as those pairs do.
  return p.groups == "rows" ? "vpairs" : "hpairs";
}

unsigned GroupSize(const std::string& groups, unsigned k) {
  if (groups == "all") return k * k;
  if (groups == "quadrants" || groups == "qpeers") return k * k / 4;
  if (groups == "vpairs" || groups == "hpairs") return 2;
  return k;  // rows, cols
}

Strategy ParseStrategy(const std::string& s) {
  if (s == "ddp") return Strategy::kDdp;
  if (s == "fsdp") return Strategy::kFsdp;
  if (s == "tp") return Strategy::kTp;
  throw std::invalid_argument(fmt::format("--strategy '{}': allowed ddp, fsdp, tp", s));
}

void Schedule(std::vector<Op>& ops, bool overlap) {
  const size_t n = ops.size();
  unsigned stages = 1;
  for (const Op& op : ops) stages = std::max(stages, op.stage + 1);
  const int per_stage = overlap ? 3 : 1;  // compute, comm, sync
  const int streams = static_cast<int>(stages) * per_stage;
  std::vector<bool> done(n, false);
  std::vector<size_t> next(streams, 0);  // per stream: the index of the next op to look at
  std::vector<double> free_at(streams, 0.0);
  auto stream_of = [&](size_t i) {
    return static_cast<int>(ops[i].stage) * per_stage +
           (overlap ? static_cast<int>(ops[i].stream) : 0);
  };
  size_t scheduled = 0;
  while (scheduled < n) {
    bool progress = false;
    for (int s = 0; s < streams; ++s) {
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
      for (int s = 0; s < streams; ++s) {
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

constexpr size_t kNone = static_cast<size_t>(-1);

std::vector<size_t> Deps(std::initializer_list<size_t> l) {
  std::vector<size_t> v;
  for (size_t x : l) {
    if (x != kNone) v.push_back(x);
  }
  return v;
}

struct Builder {
  std::vector<Op> ops;
  unsigned stage = 0;  // the stage the next ops run on
  size_t Compute(const std::string& name, double ns, std::vector<size_t> deps = {}) {
    Op op;
    op.name = name;
    op.stage = stage;
    op.duration = ns;
    op.deps = std::move(deps);
    ops.push_back(op);
    return ops.size() - 1;
  }
  size_t Comm(const std::string& name, coll::Collective c, uint64_t bytes, const ScopedCost& cost,
              std::vector<size_t> deps = {}, Scope scope = Scope::kAll,
              Stream stream = Stream::kComm) {
    Op op;
    op.name = name;
    op.stage = stage;
    op.stream = stream;
    op.collective = c;
    op.scope = scope;
    op.bytes = bytes;
    op.duration = cost(c, bytes, scope);
    op.deps = std::move(deps);
    ops.push_back(op);
    return ops.size() - 1;
  }
  // A chain of collectives, each after the previous one (the first after `after`); returns the
  // last (or `after` for none).
  struct Step {
    coll::Collective c;
    Scope scope;
    uint64_t bytes;
  };
  size_t Chain(const std::string& what, const std::vector<Step>& steps, const ScopedCost& cost,
               size_t after, Stream stream = Stream::kComm) {
    for (const Step& st : steps) {
      if (st.bytes == 0) continue;
      after = Comm(fmt::format("{}({}) {}", coll::CollectiveName(st.c), ScopeName(st.scope), what),
                   st.c, st.bytes, cost, Deps({after}), st.scope, stream);
    }
    return after;
  }
};

// The sharded tables and the layer that reads their pooled outputs.
struct Embeddings {
  size_t last_sharded = kNone;  // the last sharded layer (forward order)
  size_t to = kNone;            // the first layer that reads their outputs
  uint64_t elems = 0;           // pooled output elements per sample
};

Embeddings EmbeddingsOf(const Workload& w) {
  Embeddings e;
  for (size_t i = 0; i < w.layers.size(); ++i) {
    if (!w.layers[i].sharded) continue;
    e.last_sharded = i;
    e.elems += w.layers[i].act;
  }
  if (e.last_sharded == kNone || e.elems == 0) return {};
  for (size_t i = e.last_sharded + 1; i < w.layers.size() && e.to == kNone; ++i) {
    if (w.embeddings_to.empty() || w.layers[i].name == w.embeddings_to) e.to = i;
  }
  if (e.to == kNone) {
    throw std::invalid_argument(fmt::format(
        "workload {}: no layer after the last sharded table reads their outputs ({})", w.name,
        w.embeddings_to.empty() ? "none follows it"
                                : "embeddings_to '" + w.embeddings_to + "' comes before it"));
  }
  return e;
}

uint64_t Bytes(double elems, const Chiplet& c) {
  return static_cast<uint64_t>(std::llround(elems)) * c.elem_bytes;
}

// FSDP's parameter gathers, flat or nested: before each synced layer's forward, at most two
// layers held (the gather of g_k waits for the forward of g_{k-2}); in the backward the first
// two wait for the end of the forward pass (which freed the parameters), later ones for the
// backward of the layer two gathers back, each issued two layers ahead (the next layer's
// gather before this one's reduce-scatter: FSDP's backward prefetch).
struct Gathers {
  Builder& b;
  const ScopedCost& cost;
  std::function<Builder::Step(size_t)> step;          // a layer's gather
  std::function<std::string(size_t, bool bwd)> name;  // its op's name
  Stream stream;
  std::vector<size_t> order = {};  // the gathered layers in forward order (then backward)
  bool backward = false;           // `order` reversed
  size_t issued = 0;               // backward gathers issued
  size_t Forward(size_t i, const std::vector<size_t>& fwd) {
    const size_t hold = order.size() >= 2 ? fwd[order[order.size() - 2]] : kNone;
    order.push_back(i);
    return Issue(i, false, hold);
  }
  // Issues the backward gathers up to the `upto`-th (in backward order) into `ag`.
  void Backward(size_t upto, const std::vector<size_t>& bwd, size_t fwd_end,
                std::vector<size_t>& ag) {
    if (!backward) std::reverse(order.begin(), order.end());
    backward = true;
    for (; issued < order.size() && issued <= upto; ++issued) {
      ag[order[issued]] =
          Issue(order[issued], true, issued >= 2 ? bwd[order[issued - 2]] : fwd_end);
    }
  }
  size_t Issue(size_t layer, bool bwd, size_t hold) {
    const Builder::Step st = step(layer);
    return b.Comm(name(layer, bwd), st.c, st.bytes, cost, Deps({hold}), st.scope, stream);
  }
};

// The sharded tables' pooled outputs (Embeddings): to the chiplets that own the samples after
// the last table's forward, before the reading layer's; their gradients back after its
// backward, before the tables' backward.
struct Exchange {
  Builder& b;
  const ScopedCost& cost;
  const Embeddings& x;
  uint64_t bytes;      // a chiplet's share: the pooled elements of its batch (0: no exchange)
  bool shared;         // flat tp: every chiplet gathers the shared batch's, nothing comes back
  unsigned group = 0;  // tp@G: the group's samples gathered in the group of this many after
  size_t fwd = kNone, bwd = kNone;
  void ForwardDeps(size_t i, std::vector<size_t>& d) const {
    if (i == x.to && fwd != kNone) d.push_back(fwd);
  }
  void AfterForward(size_t i, size_t op) {
    if (bytes == 0 || i != x.last_sharded) return;
    using C = coll::Collective;
    if (shared) {
      fwd = b.Comm("allgather embeddings", C::kAllGather, bytes, cost, {op});
      return;
    }
    fwd = b.Comm("alltoall embeddings", C::kAllToAll, bytes, cost, {op});
    if (group) {
      fwd = b.Comm("allgather(inner) embeddings", C::kAllGather, bytes * group, cost, {fwd},
                   Scope::kInner);
    }
  }
  void BackwardDeps(size_t j, std::vector<size_t>& d, const Workload& w) const {
    if (w.layers[j].sharded && bwd != kNone) d.push_back(bwd);
  }
  void AfterBackward(size_t j, size_t op) {
    if (bytes == 0 || j != x.to || shared) return;
    bwd = b.Comm("alltoall(grad) embeddings", coll::Collective::kAllToAll, bytes, cost, {op});
  }
};

uint64_t ExchangeBytes(const Embeddings& x, const IterationOptions& o, double batch,
                       const Chiplet& c) {
  return o.embedding_exchange && x.to != kNone ? Bytes(static_cast<double>(x.elems) * batch, c) : 0;
}

// Per-sample forward and backward ns of layer i on one chiplet (before any split).
struct LayerTimes {
  const Workload& w;
  const Chiplet& c;
  double Fwd(size_t i) const {
    const Layer& l = w.layers[i];
    return l.fwd_ns > 0 ? l.fwd_ns : l.fwd_flops / c.FlopsPerNs();
  }
  double Bwd(size_t i) const {  // input + weight gradients: twice the forward by default
    const Layer& l = w.layers[i];
    return l.bwd_ns > 0 ? l.bwd_ns : 2 * Fwd(i);
  }
  bool Synced(size_t i) const { return w.layers[i].params > 0 && !w.layers[i].sharded; }
};

// What the ops of a flat strategy share: each layer's compute at the strategy's batch and split,
// its gradient's bytes, and the embedding exchange.
struct FlatPass {
  Builder& b;
  const Workload& w;
  const Chiplet& c;
  const ScopedCost& cost;
  LayerTimes t;
  double batch;  // samples a chiplet's layers see (under tp the shared batch)
  double share;  // the part of each layer a chiplet computes
  Exchange ex;
  double FwdNs(size_t i) const { return t.Fwd(i) * batch * share; }
  double BwdNs(size_t i) const { return t.Bwd(i) * batch * share; }
  uint64_t GradBytes(size_t i) const { return w.layers[i].params * c.elem_bytes; }
  // `d` and the embedding exchange a layer's forward waits for.
  std::vector<size_t> FwdDeps(size_t i, std::vector<size_t> d) const {
    ex.ForwardDeps(i, d);
    return d;
  }
  // `d` and the embedding exchange a layer's backward waits for.
  std::vector<size_t> BwdDeps(size_t j, std::vector<size_t> d) const {
    ex.BackwardDeps(j, d, w);
    return d;
  }
};

// Flat ddp: the forward, then the backward with an all-reduce per gradient bucket of
// `bucket_bytes` (0: one per layer), the last closing with the last gradient.
void FlatDdpOps(FlatPass& f, uint64_t bucket_bytes) {
  const size_t L = f.w.layers.size();
  size_t prev = kNone;
  for (size_t i = 0; i < L; ++i) {
    prev = f.b.Compute("fwd " + f.w.layers[i].name, f.FwdNs(i), f.FwdDeps(i, {}));
    f.ex.AfterForward(i, prev);
  }
  size_t first_synced = L;  // the last layer to back-propagate that has a gradient collective
  for (size_t i = 0; i < L && first_synced == L; ++i) {
    if (f.t.Synced(i)) first_synced = i;
  }
  uint64_t bucket = 0;
  std::string names;
  for (size_t j = L; j-- > 0;) {
    prev = f.b.Compute("bwd " + f.w.layers[j].name, f.BwdNs(j), f.BwdDeps(j, {}));
    f.ex.AfterBackward(j, prev);
    if (!f.t.Synced(j)) continue;
    bucket += f.GradBytes(j);
    names += (names.empty() ? "" : "+") + f.w.layers[j].name;
    // A bucket closes when full or with the last gradient.
    if (bucket >= bucket_bytes || j == first_synced) {
      f.b.Comm("allreduce " + names, coll::Collective::kAllReduce, bucket, f.cost, {prev});
      bucket = 0;
      names.clear();
    }
  }
}

// Flat fsdp: each synced layer's parameters gathered before its forward and its backward
// (Gathers), its gradient reduce-scattered after the backward.
void FlatFsdpOps(FlatPass& f) {
  const size_t L = f.w.layers.size();
  Gathers ag{f.b, f.cost,
             [&f](size_t i) {
               return Builder::Step{coll::Collective::kAllGather, Scope::kAll, f.GradBytes(i)};
             },
             [&f](size_t i, bool bwd) {
               return (bwd ? "allgather(bwd) " : "allgather ") + f.w.layers[i].name;
             },
             Stream::kComm};
  std::vector<size_t> fwd(L, kNone), bwd(L, kNone), ag_b(L, kNone);
  for (size_t i = 0; i < L; ++i) {
    const size_t g = f.t.Synced(i) ? ag.Forward(i, fwd) : kNone;
    fwd[i] = f.b.Compute("fwd " + f.w.layers[i].name, f.FwdNs(i), f.FwdDeps(i, Deps({g})));
    f.ex.AfterForward(i, fwd[i]);
  }
  size_t pos = 0;  // gathered layers back-propagated so far
  ag.Backward(1, bwd, fwd[L - 1], ag_b);
  for (size_t j = L; j-- > 0;) {
    bwd[j] = f.b.Compute("bwd " + f.w.layers[j].name, f.BwdNs(j), f.BwdDeps(j, Deps({ag_b[j]})));
    f.ex.AfterBackward(j, bwd[j]);
    if (f.t.Synced(j)) {
      ag.Backward(pos++ + 2, bwd, fwd[L - 1], ag_b);
      f.b.Comm("reducescatter " + f.w.layers[j].name, coll::Collective::kReduceScatter,
               f.GradBytes(j), f.cost, {bwd[j]});
    }
  }
}

// Flat tensor parallel: the workload's tp columns give each layer's all-reduces, each
// blocking the next layer.
void FlatTpOps(FlatPass& f) {
  const size_t L = f.w.layers.size();
  auto bytes_of = [&f](uint64_t elems) { return Bytes(static_cast<double>(elems) * f.batch, f.c); };
  size_t ar = kNone;
  for (size_t i = 0; i < L; ++i) {
    const size_t fw =
        f.b.Compute("fwd " + f.w.layers[i].name, f.FwdNs(i), f.FwdDeps(i, Deps({ar})));
    f.ex.AfterForward(i, fw);
    ar = kNone;
    if (f.w.layers[i].tp_fwd > 0) {
      ar = f.b.Comm("allreduce(out) " + f.w.layers[i].name, coll::Collective::kAllReduce,
                    bytes_of(f.w.layers[i].tp_fwd), f.cost, {fw});
    }
  }
  for (size_t j = L; j-- > 0;) {
    const size_t g = f.b.Compute("bwd " + f.w.layers[j].name, f.BwdNs(j), Deps({ar}));
    ar = kNone;
    if (f.w.layers[j].tp_bwd > 0) {
      ar = f.b.Comm("allreduce(grad) " + f.w.layers[j].name, coll::Collective::kAllReduce,
                    bytes_of(f.w.layers[j].tp_bwd), f.cost, {g});
    }
  }
}

// Flat strategies over every chiplet (the model before nesting; `x` the embedding exchange).
void FlatOps(Builder& b, const Workload& w, const Chiplet& c, const IterationOptions& o,
             const ScopedCost& cost, const Embeddings& x) {
  const Strategy strategy = o.par.inner;
  const double batch = o.batch ? o.batch : w.batch;
  const double share = strategy == Strategy::kTp ? 1.0 / o.chiplets : 1.0;
  // The embedding exchange (under tp an all-gather of the shared batch's, `batch` being it).
  FlatPass f{b,
             w,
             c,
             cost,
             LayerTimes{w, c},
             batch,
             share,
             Exchange{b, cost, x, ExchangeBytes(x, o, batch, c), strategy == Strategy::kTp}};
  if (strategy == Strategy::kDdp) {
    FlatDdpOps(f, o.bucket_bytes);
  } else if (strategy == Strategy::kFsdp) {
    FlatFsdpOps(f);
  } else {
    FlatTpOps(f);
  }
}

// A nested strategy's gathers of a layer's parameters before its forward and backward: inner
// fsdp gathers the layer in the group, outer fsdp the chiplet's part (`share`: 1/g under tp)
// across the groups, on the `across` stream.
Gathers NestedGathers(Builder& b, const ScopedCost& cost, const Workload& w, const Chiplet& c,
                      const Parallelism& p, double share, Stream across) {
  const Scope gather_scope = p.inner == Strategy::kFsdp ? Scope::kInner : Scope::kOuter;
  const double gather_share = p.inner == Strategy::kFsdp ? 1.0 : share;
  return Gathers{b, cost,
                 [&w, &c, gather_scope, gather_share](size_t i) {
                   return Builder::Step{
                       coll::Collective::kAllGather, gather_scope,
                       Bytes(static_cast<double>(w.layers[i].params) * gather_share, c)};
                 },
                 [&w, gather_scope](size_t i, bool bwd) {
                   return fmt::format("allgather({}{}) {}", ScopeName(gather_scope),
                                      bwd ? "/bwd" : "", w.layers[i].name);
                 },
                 across};
}

// The collectives of a layer's gradient of `params` elements after its backward under the
// nested strategy `p`, groups of `g` chiplets, `groups` of them.
std::vector<Builder::Step> NestedGradientSteps(const Parallelism& p, double params, double g,
                                               double groups, const Chiplet& c) {
  using C = coll::Collective;
  if (p.inner == Strategy::kTp) {
    return {{p.outer == Strategy::kFsdp ? C::kReduceScatter : C::kAllReduce, Scope::kOuter,
             Bytes(params / g, c)}};
  }
  if (p.inner == Strategy::kDdp && p.outer == Strategy::kDdp) {
    return {{C::kReduceScatter, Scope::kInner, Bytes(params, c)},
            {C::kAllReduce, Scope::kOuter, Bytes(params / g, c)},
            {C::kAllGather, Scope::kInner, Bytes(params, c)}};
  }
  if (p.inner == Strategy::kDdp) {  // fsdp across the groups
    return {{C::kReduceScatter, Scope::kOuter, Bytes(params, c)},
            {C::kAllReduce, Scope::kInner, Bytes(params / groups, c)}};
  }
  return {{C::kReduceScatter, Scope::kInner, Bytes(params, c)},  // fsdp in the group
          {C::kAllReduce, Scope::kOuter, Bytes(params / g, c)}};
}

// Nested data parallel strategies: inner ddp, fsdp or tp within the groups, outer ddp or fsdp
// across them (the header's table).
void NestedOps(Builder& b, const Workload& w, const Chiplet& c, const IterationOptions& o,
               const ScopedCost& cost, const Embeddings& x) {
  const Parallelism& p = o.par;
  const double batch = o.batch ? o.batch : w.batch;
  const double g = o.group, groups = static_cast<double>(o.chiplets) / o.group;
  const bool tp = p.inner == Strategy::kTp;
  const double samples = tp ? batch * g : batch;  // the batch a chiplet's layers see
  const double share = tp ? 1.0 / g : 1.0;        // the part of each layer a chiplet computes
  const size_t L = w.layers.size();
  const LayerTimes t{w, c};
  using C = coll::Collective;
  // Under tp the gathers and gradient collectives across the groups take the sync stream, the
  // tp all-reduces within them the comm stream (Stream::kSync).
  const Stream across = tp ? Stream::kSync : Stream::kComm;
  const bool gathers = p.inner == Strategy::kFsdp || p.outer == Strategy::kFsdp;
  Gathers ag = NestedGathers(b, cost, w, c, p, share, across);
  // The embedding exchange: each chiplet's batch by all-to-all, under tp then the group's.
  Exchange ex{b, cost, x, ExchangeBytes(x, o, batch, c), false, tp ? o.group : 0};
  std::vector<size_t> fwd(L, kNone), bwd(L, kNone), ag_b(L, kNone);
  size_t ar = kNone;  // the last tp all-reduce (blocks the next layer)
  for (size_t i = 0; i < L; ++i) {
    const size_t gathered = gathers && t.Synced(i) ? ag.Forward(i, fwd) : kNone;
    std::vector<size_t> deps = Deps({gathered, ar});
    ex.ForwardDeps(i, deps);
    fwd[i] = b.Compute("fwd " + w.layers[i].name, t.Fwd(i) * samples * share, deps);
    ar = kNone;
    if (tp && w.layers[i].tp_fwd > 0) {
      ar = b.Comm("allreduce(inner/out) " + w.layers[i].name, C::kAllReduce,
                  Bytes(static_cast<double>(w.layers[i].tp_fwd) * samples, c), cost, {fwd[i]},
                  Scope::kInner);
    }
    ex.AfterForward(i, fwd[i]);
  }
  size_t pos = 0;  // gathered layers back-propagated so far
  if (gathers) ag.Backward(1, bwd, fwd[L - 1], ag_b);
  for (size_t j = L; j-- > 0;) {
    std::vector<size_t> deps = Deps({ag_b[j], ar});
    ex.BackwardDeps(j, deps, w);
    bwd[j] = b.Compute("bwd " + w.layers[j].name, t.Bwd(j) * samples * share, deps);
    ar = kNone;
    if (tp && w.layers[j].tp_bwd > 0) {
      ar = b.Comm("allreduce(inner/grad) " + w.layers[j].name, C::kAllReduce,
                  Bytes(static_cast<double>(w.layers[j].tp_bwd) * samples, c), cost, {bwd[j]},
                  Scope::kInner);
    }
    ex.AfterBackward(j, bwd[j]);
    if (t.Synced(j)) {
      if (gathers) ag.Backward(pos++ + 2, bwd, fwd[L - 1], ag_b);
      b.Chain(w.layers[j].name,
              NestedGradientSteps(p, static_cast<double>(w.layers[j].params), g, groups, c), cost,
              bwd[j], across);
    }
  }
}

// Refuses a pipeline of `stages` stages that the model cannot build for `w`: sharded tables,
// fewer layers than stages, no activations to pass on.
void CheckPipeline(const Workload& w, const Parallelism& p, unsigned stages) {
  for (const Layer& l : w.layers) {
    if (l.sharded) {
      throw std::invalid_argument(fmt::format(
          "{}: workload {} has sharded tables (layer {}); pipeline stages of sharded tables "
          "are not modelled",
          p.Label(), w.name, l.name));
    }
  }
  if (w.layers.size() < stages) {
    throw std::invalid_argument(fmt::format("{}: {} stages for {} layers of {}", p.Label(), stages,
                                            w.layers.size(), w.name));
  }
  if (!w.HasActivations()) {
    throw std::invalid_argument(
        fmt::format("{}: workload {} has no act column (the activations its stages pass on)",
                    p.Label(), w.name));
  }
}

// The first layer of each of `stages` stages (and L at the end): consecutive layers, each cut
// where the compute so far passes the next s/stages share (every stage at least one layer).
std::vector<size_t> StageStarts(const LayerTimes& t, size_t L, unsigned stages) {
  double total = 0;
  for (size_t i = 0; i < L; ++i) total += t.Fwd(i) + t.Bwd(i);
  std::vector<size_t> first(stages + 1, L);  // stage s: layers first[s] .. first[s+1]-1
  first[0] = 0;
  double acc = 0;
  size_t i = 0;
  for (unsigned s = 1; s < stages; ++s) {
    const double target = total * s / stages;
    while (i < L - (stages - s) &&
           (i < first[s - 1] + 1 || acc + (t.Fwd(i) + t.Bwd(i)) / 2 <= target)) {
      acc += t.Fwd(i) + t.Bwd(i);
      ++i;
    }
    first[s] = i;
  }
  return first;
}

// A pipeline's ops (GPipe's schedule): `m` micro-batches of `u` samples through the stages
// of groups of `g` chiplets, ddp or tp (`tp`) inside each.
struct Pipeline {
  Builder& b;
  const Workload& w;
  const Chiplet& c;
  const ScopedCost& cost;
  LayerTimes t;
  bool tp;
  unsigned g, stages, m;
  double u;                   // samples per micro-batch
  std::vector<size_t> first;  // StageStarts
  // Per stage and micro-batch: its forward's send to the next stage, its backward's to the
  // previous one, the last tp all-reduce of its forward.
  std::vector<std::vector<size_t>> send_f = {}, send_b = {}, last_ar = {};
  double Per() const { return tp ? u : u / g; }  // samples a chiplet's layers see per micro-batch
  double Share() const { return tp ? 1.0 / g : 1.0; }  // the part of each layer a chiplet computes
  // A stage boundary's transfer: the micro-batch's activations at the boundary, the chiplet's
  // 1/g of them to its neighbour in the next stage (an all-gather over the pair: both members
  // send as much, as the opposite-direction traffic of the other micro-batches does).
  uint64_t Transfer(size_t layer) const {
    return Bytes(static_cast<double>(w.layers[layer].act) * u / g, c) * 2;
  }
  // Under tp a stage's chiplets each receive 1/g of the boundary's activations (or gradients)
  // and gather the rest from their group before computing on the whole micro-batch: the op
  // the first layer waits for.
  size_t Receive(size_t send, size_t layer, unsigned j, const char* what) {
    if (!tp) return send;
    return b.Comm(fmt::format("allgather(inner/{}) {} mb{}", what, w.layers[layer].name, j),
                  coll::Collective::kAllGather,
                  Bytes(static_cast<double>(w.layers[layer].act) * u, c), cost, {send},
                  Scope::kInner);
  }
  void Forward();
  void Backward();
};

// The forward: stage by stage, each micro-batch through the stage's layers, then sent on.
void Pipeline::Forward() {
  using C = coll::Collective;
  send_f.assign(stages, std::vector<size_t>(m, kNone));
  send_b.assign(stages, std::vector<size_t>(m, kNone));
  last_ar.assign(stages, std::vector<size_t>(m, kNone));
  for (unsigned s = 0; s < stages; ++s) {
    b.stage = s;
    for (unsigned j = 0; j < m; ++j) {
      size_t ar = kNone;  // the last tp all-reduce of this micro-batch (blocks its next layer)
      for (size_t l = first[s]; l < first[s + 1]; ++l) {
        std::vector<size_t> deps = Deps({ar});
        if (l == first[s] && s > 0) deps.push_back(Receive(send_f[s - 1][j], l - 1, j, "recv"));
        const size_t f = b.Compute(fmt::format("fwd {} mb{}", w.layers[l].name, j),
                                   t.Fwd(l) * Per() * Share(), deps);
        ar = kNone;
        if (tp && w.layers[l].tp_fwd > 0) {
          ar = b.Comm(fmt::format("allreduce(inner/out) {} mb{}", w.layers[l].name, j),
                      C::kAllReduce, Bytes(static_cast<double>(w.layers[l].tp_fwd) * u, c), cost,
                      {f}, Scope::kInner);
        }
        if (l + 1 == first[s + 1] && s + 1 < stages) {
          send_f[s][j] = b.Comm(fmt::format("send(stage) {} mb{}", w.layers[l].name, j),
                                C::kAllGather, Transfer(l), cost, Deps({f, ar}), Scope::kStage);
        }
        last_ar[s][j] = ar;
      }
    }
  }
}

// The backward, last stage first (each waits for the next stage's gradient; the last stage for
// its forward's last all-reduce), micro-batches in reverse; ddp inside a stage all-reduces a
// layer's gradient after its last micro-batch.
void Pipeline::Backward() {
  using C = coll::Collective;
  for (unsigned s = stages; s-- > 0;) {
    b.stage = s;
    for (unsigned j = m; j-- > 0;) {
      size_t ar = s + 1 == stages ? last_ar[s][j] : kNone;
      for (size_t l = first[s + 1]; l-- > first[s];) {
        std::vector<size_t> deps = Deps({ar});
        if (l + 1 == first[s + 1] && s + 1 < stages)
          deps.push_back(Receive(send_b[s + 1][j], l, j, "grad"));
        const size_t bw = b.Compute(fmt::format("bwd {} mb{}", w.layers[l].name, j),
                                    t.Bwd(l) * Per() * Share(), deps);
        ar = kNone;
        if (tp && w.layers[l].tp_bwd > 0) {
          ar = b.Comm(fmt::format("allreduce(inner/grad) {} mb{}", w.layers[l].name, j),
                      C::kAllReduce, Bytes(static_cast<double>(w.layers[l].tp_bwd) * u, c), cost,
                      {bw}, Scope::kInner);
        }
        if (l == first[s] && s > 0) {
          send_b[s][j] =
              b.Comm(fmt::format("send(stage/grad) {} mb{}", w.layers[l].name, j), C::kAllGather,
                     Transfer(l - 1), cost, Deps({bw, ar}), Scope::kStage);
        }
        if (j == 0 && !tp && t.Synced(l)) {
          b.Comm("allreduce(inner) " + w.layers[l].name, C::kAllReduce,
                 Bytes(static_cast<double>(w.layers[l].params), c), cost, {bw}, Scope::kInner);
        }
      }
    }
  }
  b.stage = 0;
}

// Pipeline parallelism across the groups (stages), ddp or tp inside (GPipe's schedule);
// `microbatches` gets the count used.
void PipelineOps(Builder& b, const Workload& w, const Chiplet& c, const IterationOptions& o,
                 const ScopedCost& cost, unsigned& microbatches) {
  const Parallelism& p = o.par;
  const unsigned g = o.group, stages = o.chiplets / o.group;
  CheckPipeline(w, p, stages);
  const unsigned m = o.microbatches ? o.microbatches : 4 * stages;
  microbatches = m;
  const double global = static_cast<double>(o.batch ? o.batch : w.batch) * o.chiplets;
  const double u = global / m;  // samples per micro-batch
  const bool tp = p.inner == Strategy::kTp;
  if (tp ? u < 1 : u < g) {
    throw std::invalid_argument(fmt::format(
        "{}: {} micro-batches of {:g} samples leave a chiplet less than one sample (at most {})",
        p.Label(), m, u, static_cast<unsigned>(tp ? global : global / g)));
  }
  const LayerTimes t{w, c};
  Pipeline pipe{b, w, c, cost, t, tp, g, stages, m, u, StageStarts(t, w.layers.size(), stages)};
  pipe.Forward();
  pipe.Backward();
}

}  // namespace

Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const ScopedCost& cost) {
  if (o.chiplets == 0) throw std::invalid_argument("chiplets: 0; need at least 1");
  const Parallelism& p = o.par;
  if (!p.Flat() && (o.group < 2 || o.group >= o.chiplets || o.chiplets % o.group != 0)) {
    throw std::invalid_argument(
        fmt::format("{}: groups of {} chiplets do not divide {} into at least two groups of two",
                    p.Label(), o.group, o.chiplets));
  }
  const Embeddings x = o.embedding_exchange ? EmbeddingsOf(w) : Embeddings{};
  Builder b;
  Iteration it;
  if (p.Flat()) {
    FlatOps(b, w, c, o, cost, x);
  } else if (p.outer == Strategy::kPp) {
    it.stages = o.chiplets / o.group;
    PipelineOps(b, w, c, o, cost, it.microbatches);
  } else {
    NestedOps(b, w, c, o, cost, x);
  }
  it.ops = std::move(b.ops);
  Schedule(it.ops, o.overlap);
  std::vector<double> compute(it.stages, 0), comm(it.stages, 0);
  std::vector<unsigned> colls(it.stages, 0);
  for (const Op& op : it.ops) {
    it.time = std::max(it.time, op.end);
    if (op.stream == Stream::kCompute) {
      compute[op.stage] += op.duration;
    } else {
      comm[op.stage] += op.duration;
      ++colls[op.stage];
    }
  }
  const size_t busiest =
      static_cast<size_t>(std::max_element(compute.begin(), compute.end()) - compute.begin());
  it.compute_busy = compute[busiest];
  it.comm_busy = comm[busiest];
  it.collectives = colls[busiest];
  it.exposed_comm = it.time - it.compute_busy;
  return it;
}

Iteration RunIteration(const Workload& w, const Chiplet& c, const IterationOptions& o,
                       const CommCost& cost) {
  if (!o.par.Flat()) {
    throw std::invalid_argument(fmt::format(
        "{}: a nested strategy needs the costs of its groups' collectives", o.par.Label()));
  }
  return RunIteration(w, c, o, ScopedCost([&cost](coll::Collective x, uint64_t bytes, Scope) {
                        return cost(x, bytes);
                      }));
}

double MemoryBytes(const Workload& w, const Chiplet& c, const IterationOptions& o) {
  const Parallelism& p = o.par;
  const double n = o.chiplets, g = p.Flat() ? n : o.group, groups = n / g;
  const double batch = o.batch ? o.batch : w.batch;
  const double e = c.elem_bytes;
  double params = 0, largest = 0, act = 0;
  // Parameters a chiplet keeps of one replicated (dp) layer, and whether it gathers them.
  double keep = 1;
  bool gathers = false;
  if (p.Flat()) {
    keep = p.inner == Strategy::kDdp ? 1 : 1 / n;
    gathers = p.inner == Strategy::kFsdp;
  } else if (p.outer == Strategy::kPp) {
    keep = p.inner == Strategy::kTp ? 1 / g : 1;  // of its stage's layers: see below
  } else {
    const double in = p.inner == Strategy::kDdp ? 1 : 1 / g;
    keep = in * (p.outer == Strategy::kFsdp ? 1 / groups : 1);
    gathers = p.inner == Strategy::kFsdp || p.outer == Strategy::kFsdp;
  }
  for (const Layer& l : w.layers) {
    const double pl = static_cast<double>(l.params);
    params += l.sharded ? pl / n : pl * keep;
    if (!l.sharded) largest = std::max(largest, pl);
    act += static_cast<double>(l.act);
  }
  // A pipeline stage keeps a stage's share of the parameters (balanced by compute: an
  // approximation) and, GPipe keeping every micro-batch's, its layers' outputs for the global
  // batch's B / g samples: (act / stages) x batch x stages, as many as without the pipeline.
  if (!p.Flat() && p.outer == Strategy::kPp) params /= groups;
  // Samples whose layer outputs a chiplet keeps: its batch (the global batch over the chiplets
  // under every strategy but flat tp's shared batch).
  const double kept = p.Flat() && p.inner == Strategy::kTp ? batch / n : batch;
  // A gathered layer: the whole layer, or under tp@G+fsdp the chiplet's 1/g of it.
  const double gathered = !p.Flat() && p.inner == Strategy::kTp ? largest / g : largest;
  return 16 * params + (gathers ? 2 * 2 * gathered * e : 0) + act * kept * e;
}

std::string TimelineCsv(const Iteration& it) {
  std::string s = "stage,stream,op,collective,scope,bytes,start_ns,end_ns\n";
  for (const Op& op : it.ops) {
    const bool comm = op.stream != Stream::kCompute;
    const char* stream = op.stream == Stream::kSync ? "sync" : comm ? "comm" : "compute";
    s += fmt::format("{},{},{},{},{},{},{:.1f},{:.1f}\n", op.stage, stream, op.name,
                     comm ? coll::CollectiveName(op.collective) : "",
                     comm ? ScopeName(op.scope) : "", comm ? op.bytes : 0, op.start, op.end);
  }
  return s;
}

}  // namespace aries::train
