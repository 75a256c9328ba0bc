#include "net_run.h"

#include <fmt/format.h>

#include <chrono>

#include "aries_pkg.h"

namespace aries::tb {

namespace hw = aries::hw;

RunResult RunTraffic(sysc::Package& pkg, NetTraffic& t, const RunConfig& cfg,
                     const Advance& advance_in, const Progress& progress) {
  const Advance advance = advance_in ? advance_in : [&pkg](uint64_t n) { pkg.Run(n); };
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t start = pkg.endpoint_cycle();  // traffic time is the endpoints'
  const uint64_t win_from = start + cfg.warmup, win_to = win_from + cfg.measure;
  t.SetWindow(win_from, win_to);
  t.StartInjection();
  pkg.GatherCounters();  // a distributed package: every rank's evaluations so far
  uint64_t evals0 = 0;
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) evals0 += pkg.counters(n).evaluated;

  const uint64_t chunk = 100;
  bool drained = false;
  uint64_t wire_progress = start;  // the last check that found flits or credits on the wires
  while (true) {
    const uint64_t now = pkg.endpoint_cycle();
    if (now >= win_to) {
      t.StopInjection();
      if (t.measured_outstanding() == 0) {
        drained = true;
        break;
      }
      if (now >= win_to + cfg.drain_limit) break;
    }
    if (t.outstanding() > 0 && now > std::max(t.last_ejection(), wire_progress) + cfg.watchdog &&
        now > start + cfg.watchdog) {
      // Flits on the wires are progress (a long link holds them for its latency): stuck is
      // no ejection and nothing moving between the nodes for a watchdog period.
      if (pkg.WiresBusy()) {
        wire_progress = now;
      } else {
        r.stuck = true;
        break;
      }
    }
    const uint64_t step = now < win_to ? std::min(chunk, win_to - now) : chunk;
    advance(step);
    if (progress) progress(pkg.endpoint_cycle());
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cycles = pkg.endpoint_cycle() - start;
  if (r.stuck) {  // (its register reads step the package: before the figures are gathered)
    t.StopInjection();
    r.stuck_report = StuckReport(pkg, t);
  }
  t.GatherResults();  // a distributed package: every rank's figures
  pkg.GatherCounters();
  const double nm = static_cast<double>(pkg.num_nodes()) * static_cast<double>(cfg.measure);
  r.offered = static_cast<double>(t.flits_created_in_window()) / nm;
  r.accepted = static_cast<double>(t.flits_ejected_in_window()) / nm;
  // With no drain allowed (drain_limit 0) only the throughput criterion applies.
  r.saturated = (!drained && cfg.drain_limit > 0) || r.accepted < 0.95 * r.offered;
  r.drain_limited = !drained && !r.stuck;  // (the loop's third way out)
  r.latency = t.Latency();
  r.flits_created = t.flits_created();
  r.flits_ejected = t.flits_ejected();
  r.packets_outstanding = t.outstanding();
  r.errors = t.errors();
  if (pkg.AnyError()) r.errors.push_back("a node raised err_o (router STATUS or NODE_STATUS)");
  const uint64_t total = pkg.cycle();
  for (const sysc::Channel* c : pkg.Channels()) {
    r.flit_hops += c->flits_sent();
    const double u = total ? static_cast<double>(c->flits_sent()) / total : 0.0;
    r.links.push_back({c->name(), u});
    r.link_util_mean += u;
    r.link_util_max = std::max(r.link_util_max, u);
  }
  if (!r.links.empty()) r.link_util_mean /= static_cast<double>(r.links.size());
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) r.node_evaluations += pkg.counters(n).evaluated;
  r.node_evaluations -= evals0;
  return r;
}

std::string StuckReport(sysc::Package& pkg, const NetTraffic& t) {
  std::string s = fmt::format(
      "no flit ejected for the watchdog period; {} packets outstanding "
      "at cycle {}\n",
      t.outstanding(), pkg.endpoint_cycle());
  unsigned shown = 0;
  t.scoreboard().ForEachPacket([&](const Packet& p) {
    if (shown++ == 10) s += "  ...\n";
    if (shown > 10) return;
    s += fmt::format("  packet {}: {} -> {} VC {}, {}/{} flits ejected, created cycle {}\n", p.id,
                     pkg.NodeName(p.src), pkg.NodeName(p.dst), p.vc, p.ejected, p.len, p.created);
  });
  for (const sysc::Channel* c : pkg.Channels()) {
    if (c->InFlight(pkg.cycle() - 1)) s += fmt::format("  on the wires: {}\n", c->name());
  }
  // The links whose ends disagree: what one end sent and the other never received.
  for (const auto& lost : pkg.LostLinks()) s += fmt::format("  LOST: {}\n", lost.Describe(pkg));
  // Register reads: the configuration bus works even when the data path is stuck.
  std::vector<sysc::RegOp> ops;
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    ops.push_back({n, false, hw::kRegInEmpty, 0});
    ops.push_back({n, false, hw::kRegOutIdle, 0});
  }
  const auto res = pkg.Access(ops);
  const unsigned np = pkg.shape().num_ports;
  const uint32_t all = (np >= 32) ? ~0u : ((1u << np) - 1);
  for (unsigned n = 0; n < pkg.num_nodes(); ++n) {
    const uint32_t empty = res[2 * n].rdata & all, idle = res[2 * n + 1].rdata & all;
    if (empty == all && idle == all) continue;
    std::string in, out;
    for (unsigned p = 0; p < np; ++p) {
      if (!((empty >> p) & 1u)) in += fmt::format(" {}", p);
      if (!((idle >> p) & 1u)) out += fmt::format(" {}", p);
    }
    s += fmt::format("  {}: flits wait in input ports [{} ], outputs busy [{} ]\n", pkg.NodeName(n),
                     in, out);
  }
  return s;
}

BypassPlan RandomBypassPlan(const sysc::Package& pkg, std::mt19937_64& rng) {
  BypassPlan plan;
  const unsigned k = pkg.k(), tracks = pkg.config().tracks, tm = pkg.shape().num_tracks;
  const unsigned n = pkg.num_nodes();
  std::vector<uint32_t> bypass(n, 0);
  std::bernoulli_distribution coin(0.5);
  for (unsigned node = 0; node < n; ++node) {
    for (unsigned t = 0; t < tracks; ++t) {
      if (coin(rng)) bypass[node] |= 1u << (hw::kBypassXLsb + t);
      if (coin(rng)) bypass[node] |= 1u << (hw::kBypassYLsb + t);
    }
  }
  // Port choices per node and direction (in, out), index port-1.
  std::vector<std::array<unsigned, 4>> in_c(n, {0, 0, 0, 0}), out_c(n, {0, 0, 0, 0});
  for (unsigned d = 0; d < 2; ++d) {
    for (unsigned line = 0; line < k; ++line) {
      for (unsigned t = 0; t < tracks; ++t) {
        const unsigned lsb = (d == 0 ? hw::kBypassXLsb : hw::kBypassYLsb) + t;
        for (unsigned i = 0; i + 1 < k; ++i) {
          const unsigned a = d == 0 ? pkg.NodeId(i, line) : pkg.NodeId(line, i);
          const unsigned b = d == 0 ? pkg.NodeId(i + 1, line) : pkg.NodeId(line, i + 1);
          if (!((bypass[a] >> lsb) & 1u) || !((bypass[b] >> lsb) & 1u)) continue;
          const unsigned plus = d == 0 ? 0 : 2, minus = d == 0 ? 1 : 3;  // XP/XM or YP/YM, -1
          const unsigned choice = 1 + d * tm + t;
          if (coin(rng) && out_c[a][plus] == 0 && in_c[b][minus] == 0) {  // a -> b
            out_c[a][plus] = choice;
            in_c[b][minus] = choice;
            ++plan.moved_hops;
          }
          if (coin(rng) && out_c[b][minus] == 0 && in_c[a][plus] == 0) {  // b -> a
            out_c[b][minus] = choice;
            in_c[a][plus] = choice;
            ++plan.moved_hops;
          }
        }
      }
    }
  }
  for (unsigned node = 0; node < n; ++node) {
    plan.bypass.push_back({node, true, hw::kRegBypass, bypass[node]});
    for (unsigned p = 0; p < 4; ++p) {
      if (in_c[node][p] != 0 || out_c[node][p] != 0) {
        plan.portsel.push_back({node, true, hw::kRegPortSelBase + 1 + p,
                                hw::PortSelValue(in_c[node][p], out_c[node][p])});
      }
    }
  }
  return plan;
}

unsigned ApplyRandomBypass(sysc::Package& pkg, std::mt19937_64& rng) {
  const BypassPlan plan = RandomBypassPlan(pkg, rng);
  pkg.Program(plan.bypass);
  pkg.Program(plan.portsel);
  return plan.moved_hops;
}

}  // namespace aries::tb
