#include "faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <sstream>

#include "aries_pkg.h"
#include "geometry.h"

namespace aries::coll {

namespace {

constexpr const char* kForms =
    "link:NAME or link:A-B (a fixed link), segment:xtrack<t>.<row>:A-B or "
    "segment:ytrack<t>.<column>:A-B, switch:xtrack<t>.<row>:P, port:NODE.PORT; each with an "
    "optional @CYCLE";

[[noreturn]] void Bad(std::string_view item, const std::string& why) {
  throw FaultError(fmt::format("fault '{}': {} (allowed: {})", item, why, kForms));
}

// A decimal number, whole.
bool Number(std::string_view s, uint64_t* v) {
  if (s.empty() || s.size() > 19) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool Unsigned(std::string_view s, unsigned* v) {
  uint64_t u = 0;
  if (!Number(s, &u) || u > 1000000) return false;
  *v = static_cast<unsigned>(u);
  return true;
}

std::string TrackName(unsigned dim, unsigned track, unsigned line) {
  return fmt::format("{}track{}.{}", dim == 0 ? "x" : "y", track, line);
}

// "xtrack<t>.<line>" against the geometry.
void ParseTrack(std::string_view item, std::string_view s, const Geometry& g, Fault* f) {
  if (g.topology != Topology::kAries) {
    Bad(item, fmt::format("the {} package has no bypass tracks", TopologyName(g.topology)));
  }
  if (s.size() < 7 || (s[0] != 'x' && s[0] != 'y') || s.substr(1, 5) != "track") {
    Bad(item, fmt::format("'{}' is not a track (xtrack<t>.<row> or ytrack<t>.<column>)", s));
  }
  f->dim = s[0] == 'x' ? 0 : 1;
  const auto dot = s.find('.');
  if (dot == std::string_view::npos || !Unsigned(s.substr(6, dot - 6), &f->track) ||
      !Unsigned(s.substr(dot + 1), &f->line)) {
    Bad(item, fmt::format("'{}' is not a track (xtrack<t>.<row> or ytrack<t>.<column>)", s));
  }
  if (f->track >= g.tracks) {
    Bad(item, g.tracks == 0 ? fmt::format("track {} does not exist: the package has no bypass "
                                          "tracks (package.tracks = 0)",
                                          f->track)
                            : fmt::format("track {} does not exist: the package has {} tracks a "
                                          "row (0 .. {})",
                                          f->track, g.tracks, g.tracks - 1));
  }
  if (f->line >= g.k) {
    Bad(item, fmt::format("{} {} does not exist: 0 .. {}", f->dim == 0 ? "row" : "column", f->line,
                          g.k - 1));
  }
}

Fault ParseOne(std::string_view item, const Geometry& g) {
  Fault f;
  std::string_view body = item;
  const auto at = body.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view when = body.substr(at + 1);
    if (!Number(when, &f.from)) {
      const bool digits = !when.empty() && when.find_first_not_of("0123456789") == when.npos;
      Bad(item, digits
                    ? fmt::format("cycle {} is out of range (at most 19 digits, below 10^19)", when)
                    : fmt::format("'{}' is not a cycle (a decimal number)", when));
    }
    body = body.substr(0, at);
  }
  const auto colon = body.find(':');
  if (colon == std::string_view::npos) Bad(item, "no kind");
  const std::string_view kind = body.substr(0, colon), rest = body.substr(colon + 1);
  const unsigned n = g.k * g.k;
  if (kind == "link") {
    f.kind = FaultKind::kLink;
    const auto links = FixedLinks(g);
    const auto dash = rest.find('-');
    unsigned a = 0, b = 0;
    const bool pair = dash != std::string_view::npos && Unsigned(rest.substr(0, dash), &a) &&
                      Unsigned(rest.substr(dash + 1), &b);
    for (const LinkSpec& l : links) {
      if (pair ? ((l.a == a && l.b == b) || (l.a == b && l.b == a)) : l.name == rest) {
        f.a = std::min(l.a, l.b);
        f.b = std::max(l.a, l.b);
        return f;
      }
    }
    if (pair) {
      Bad(item, fmt::format("no {} link joins nodes {} and {}", TopologyName(g.topology), a, b));
    }
    Bad(item, fmt::format("no link of the {} {}x{} package is named '{}' (for example '{}')",
                          TopologyName(g.topology), g.k, g.k, rest,
                          links.empty() ? "" : links.front().name));
  }
  if (kind == "segment" || kind == "switch") {
    f.kind = kind == "segment" ? FaultKind::kSegment : FaultKind::kSwitch;
    const auto c2 = rest.find(':');
    if (c2 == std::string_view::npos) Bad(item, "no position after the track");
    ParseTrack(item, rest.substr(0, c2), g, &f);
    const std::string_view pos = rest.substr(c2 + 1);
    if (f.kind == FaultKind::kSwitch) {
      if (!Unsigned(pos, &f.a) || f.a >= g.k) {
        Bad(item, fmt::format("'{}' is not a switch position (0 .. {})", pos, g.k - 1));
      }
      f.b = f.a;
      return f;
    }
    const auto dash = pos.find('-');
    if (dash == std::string_view::npos || !Unsigned(pos.substr(0, dash), &f.a) ||
        !Unsigned(pos.substr(dash + 1), &f.b) || f.a >= f.b || f.b >= g.k) {
      Bad(item, fmt::format("'{}' is not a span A-B of positions with A < B <= {}", pos, g.k - 1));
    }
    return f;
  }
  if (kind == "port") {
    f.kind = FaultKind::kPort;
    const auto dot = rest.find('.');
    if (dot == std::string_view::npos || !Unsigned(rest.substr(0, dot), &f.node) || f.node >= n) {
      Bad(item, fmt::format("'{}' is not NODE.PORT with a node 0 .. {}", rest, n - 1));
    }
    const unsigned ports = RouterPorts(g.topology, g.k);
    for (unsigned p = 1; p < ports; ++p) {
      if (PortName(p, ports) == rest.substr(dot + 1)) {
        f.port = p;
        return f;
      }
    }
    Bad(item, fmt::format("'{}' is not an interposer port of the node ({} .. {})",
                          rest.substr(dot + 1), PortName(1, ports), PortName(ports - 1, ports)));
  }
  Bad(item, fmt::format("unknown kind '{}'", kind));
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

void Add(FaultSet* set, const Fault& f, std::string_view item, const Geometry& g) {
  for (const Fault& o : set->faults) {
    Fault a = o, b = f;
    a.from = b.from = 0;
    if (a == b) Bad(item, fmt::format("given twice (also as '{}')", o.Name(g)));
  }
  set->faults.push_back(f);
}

}  // namespace

bool Fault::operator==(const Fault& o) const {
  return kind == o.kind && a == o.a && b == o.b && node == o.node && port == o.port &&
         dim == o.dim && line == o.line && track == o.track && from == o.from;
}

std::string Fault::Name(const Geometry& g) const {
  std::string s;
  switch (kind) {
    case FaultKind::kLink: {
      s = fmt::format("link:{}-{}", a, b);
      for (const LinkSpec& l : FixedLinks(g)) {
        if (std::min(l.a, l.b) == a && std::max(l.a, l.b) == b) s = "link:" + l.name;
      }
      break;
    }
    case FaultKind::kSegment:
      s = fmt::format("segment:{}:{}-{}", TrackName(dim, track, line), a, b);
      break;
    case FaultKind::kSwitch:
      s = fmt::format("switch:{}:{}", TrackName(dim, track, line), a);
      break;
    case FaultKind::kPort:
      s = fmt::format("port:{}.{}", node, PortName(port, RouterPorts(g.topology, g.k)));
      break;
  }
  return from == 0 ? s : fmt::format("{}@{}", s, from);
}

std::string FaultSet::Names(const Geometry& g) const {
  if (faults.empty()) return "none";
  std::string s;
  for (const Fault& f : faults) s += (s.empty() ? "" : ", ") + f.Name(g);
  return s;
}

FaultSet FaultSet::FromReset() const {
  FaultSet s;
  for (const Fault& f : faults) {
    if (f.from == 0) s.faults.push_back(f);
  }
  return s;
}

FaultSet ParseFaults(std::string_view text, const Geometry& g) {
  FaultSet set;
  text = Trim(text);
  if (text.empty() || text == "none") return set;
  // Commas inside parentheses belong to link names (x(1,2)).
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '(') ++depth;
    if (i < text.size() && text[i] == ')') --depth;
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      const std::string_view item = Trim(text.substr(start, i - start));
      if (item.empty()) {
        throw FaultError(fmt::format("an empty fault in '{}' (allowed: {})", text, kForms));
      }
      Add(&set, ParseOne(item, g), item, g);
      start = i + 1;
    }
  }
  return set;
}

FaultSet ParseFaultLines(std::string_view text, const Geometry& g, const std::string& where) {
  FaultSet set;
  unsigned line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = Trim(line);
    if (line.empty()) continue;
    try {
      Add(&set, ParseOne(line, g), line, g);
    } catch (const FaultError& e) {
      throw FaultError(fmt::format("{}:{}: {}", where, line_no, e.what()));
    }
  }
  return set;
}

FaultView::FaultView(const Geometry& g, uint64_t cycle) : g_(g) {
  for (const Fault& f : g.faults.faults) {
    if (f.from <= cycle) live_.push_back(&f);
  }
}

const Fault* FaultView::Link(unsigned a, unsigned b) const {
  const unsigned lo = std::min(a, b), hi = std::max(a, b);
  for (const Fault* f : live_) {
    if (f->kind == FaultKind::kLink && f->a == lo && f->b == hi) return f;
  }
  return nullptr;
}

const Fault* FaultView::Segment(unsigned dim, unsigned line, unsigned track, unsigned lo,
                                unsigned hi) const {
  for (const Fault* f : live_) {
    if ((f->kind != FaultKind::kSegment && f->kind != FaultKind::kSwitch) || f->dim != dim ||
        f->line != line || f->track != track) {
      continue;
    }
    const bool hit = f->kind == FaultKind::kSegment ? std::max(f->a, lo) < std::min(f->b, hi)
                                                    : f->a >= lo && f->a <= hi;
    if (hit) return f;
  }
  return nullptr;
}

const Fault* FaultView::Port(unsigned node, unsigned port) const {
  for (const Fault* f : live_) {
    if (f->kind == FaultKind::kPort && f->node == node && f->port == port) return f;
  }
  return nullptr;
}

std::string FaultView::Name(const Fault& f) const { return f.Name(g_); }

Partition PartitionOf(const Geometry& g, unsigned tracks) {
  namespace hw = aries::hw;
  const unsigned k = g.k, n = k * k;
  const FaultView dead(g, ~uint64_t{0});
  std::vector<unsigned> up(n);
  std::iota(up.begin(), up.end(), 0u);
  auto find = [&](unsigned a) {
    while (up[a] != a) a = up[a] = up[up[a]];
    return a;
  };
  // What could join two nodes, and the faults that kill it (none: it joins them).
  struct Join {
    unsigned a, b;
    std::vector<const Fault*> killers;
  };
  std::vector<Join> killed;
  auto join = [&](unsigned a, unsigned b, std::vector<const Fault*> killers) {
    killers.erase(std::remove(killers.begin(), killers.end(), nullptr), killers.end());
    if (killers.empty()) {
      up[find(a)] = find(b);
    } else {
      killed.push_back({a, b, std::move(killers)});
    }
  };
  for (const LinkSpec& l : FixedLinks(g)) {  // ports: link index + 1 (wiring.cc)
    join(l.a, l.b, {dead.Link(l.a, l.b), dead.Port(l.a, l.la + 1), dead.Port(l.b, l.lb + 1)});
  }
  if (g.topology == Topology::kAries) {
    for (unsigned d = 0; d < 2; ++d) {
      for (unsigned line = 0; line < k; ++line) {
        auto at = [&](unsigned p) { return d == 0 ? line * k + p : p * k + line; };
        for (unsigned t = 0; t < tracks; ++t) {
          for (unsigned a = 0; a < k; ++a) {
            for (unsigned b = a + 1; b < k; ++b) {
              const unsigned lo = at(a), hi = at(b);
              std::vector<const Fault*> killers{dead.Segment(d, line, t, a, b)};
              // An end's two port sides (upper taps XP / YP, lower taps XM / YM), both dead.
              const Fault* lo_xp = dead.Port(lo, hw::kPortXP);
              const Fault* lo_yp = dead.Port(lo, hw::kPortYP);
              if (lo_xp && lo_yp) killers.insert(killers.end(), {lo_xp, lo_yp});
              const Fault* hi_xm = dead.Port(hi, hw::kPortXM);
              const Fault* hi_ym = dead.Port(hi, hw::kPortYM);
              if (hi_xm && hi_ym) killers.insert(killers.end(), {hi_xm, hi_ym});
              join(lo, hi, std::move(killers));
            }
          }
        }
      }
    }
  }
  Partition pt;
  pt.part.assign(n, n);
  pt.parts = 0;
  for (unsigned v = 0; v < n; ++v) {
    const unsigned r = find(v);
    if (pt.part[r] == n) pt.part[r] = pt.parts++;
    pt.part[v] = pt.part[r];
  }
  if (pt.parts > 1) {
    for (const Join& j : killed) {
      if (pt.part[j.a] == pt.part[j.b]) continue;
      for (const Fault* f : j.killers) {
        if (std::find(pt.cut.begin(), pt.cut.end(), f) == pt.cut.end()) pt.cut.push_back(f);
      }
    }
    // In the order they were given.
    std::sort(pt.cut.begin(), pt.cut.end());
  }
  return pt;
}

std::string Partition::Nodes(unsigned p, const Geometry& g, bool other) const {
  std::vector<unsigned> in;
  for (unsigned v = 0; v < part.size(); ++v) {
    if (part[v] == p) in.push_back(v);
  }
  if (other) return fmt::format("the other {} node{}", in.size(), in.size() == 1 ? "" : "s");
  if (in.size() == 1) return fmt::format("node {} ({},{})", in[0], in[0] % g.k, in[0] / g.k);
  if (in.size() > 12) {
    return fmt::format("{} nodes ({}, ...)", in.size(),
                       fmt::join(in.begin(), in.begin() + 8, ", "));
  }
  return fmt::format("nodes {}", fmt::join(in, ", "));
}

}  // namespace aries::coll
