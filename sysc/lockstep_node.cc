#include "lockstep_node.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace aries::sysc {

namespace {
std::string Words(const uint32_t* f, unsigned n) {
  std::string s;
  for (unsigned i = n; i-- > 0;) s += fmt::format("{:08x}", f[i]);
  return s;
}
}  // namespace

std::string CompareNodeOut(const NodeShape& shape, const NodeOut& a, const NodeOut& b,
                           const char* an, const char* bn) {
  const unsigned w = shape.words();
  auto diff = [&](const std::string& pin, uint64_t x, uint64_t y) {
    return fmt::format("{}: {} {:#x} vs {} {:#x}", pin, an, x, bn, y);
  };
  // One bus of `count` channels (the links, the local ports): the valid mask, then per channel
  // its flit (where valid) and its credits back.
  auto bus = [&](const char* valid_pin, const char* flit_pin, const char* credit_pin,
                 const char* channel, unsigned count, uint64_t va, uint64_t vb, const uint32_t* fa,
                 const uint32_t* fb, const uint8_t* ca, const uint8_t* cb) -> std::string {
    if (va != vb) return diff(valid_pin, va, vb);
    for (unsigned i = 0; i < count; ++i) {
      if (((va >> i) & 1u) && !std::equal(fa + i * w, fa + i * w + w, fb + i * w)) {
        return fmt::format("{}[{} {}]: {} {} vs {} {}", flit_pin, channel, i, an,
                           Words(fa + i * w, w), bn, Words(fb + i * w, w));
      }
      if (ca[i] != cb[i])
        return diff(fmt::format("{}[{} {}]", credit_pin, channel, i), ca[i], cb[i]);
    }
    return "";
  };
  if (auto d = bus("lnk_out_valid_o", "lnk_out_flit_o", "lnk_in_credit_o", "link", shape.num_links,
                   a.link_valid, b.link_valid, a.link_flit.data(), b.link_flit.data(),
                   a.link_credit.data(), b.link_credit.data());
      !d.empty()) {
    return d;
  }
  // Not a pin: the summary of lnk_in_credit_o each model keeps beside it (Package::Scatter
  // reads only the links it names).
  if (a.link_credit_any != b.link_credit_any) {
    return diff("link_credit_any", a.link_credit_any, b.link_credit_any);
  }
  if (auto d = bus("ep_out_valid_o", "ep_out_flit_o", "ep_in_credit_o", "local port",
                   shape.local_ports, a.ep_valid, b.ep_valid, a.ep_flit.data(), b.ep_flit.data(),
                   a.ep_credit.data(), b.ep_credit.data());
      !d.empty()) {
    return d;
  }
  if (a.cfg_rsp != b.cfg_rsp) return diff("cfg_rsp_o", a.cfg_rsp, b.cfg_rsp);
  if (a.cfg_err != b.cfg_err) return diff("cfg_err_o", a.cfg_err, b.cfg_err);
  if (a.cfg_rdata != b.cfg_rdata) return diff("cfg_rdata_o", a.cfg_rdata, b.cfg_rdata);
  if (a.err != b.err) return diff("err_o", a.err, b.err);
  if (a.idle != b.idle) return diff("idle_o", a.idle, b.idle);
  if (a.bypass != b.bypass) return diff("bypass_o", a.bypass, b.bypass);
  return "";
}

LockstepNode::LockstepNode(std::unique_ptr<NodeModel> reference,
                           std::unique_ptr<NodeModel> candidate, std::string name)
    : ref_(std::move(reference)), cand_(std::move(candidate)), name_(std::move(name)) {
  const NodeShape& s = ref_->shape();
  const NodeShape& cs = cand_->shape();
  const unsigned w = cs.words();
  if (w > s.words()) {
    throw std::invalid_argument(
        fmt::format("{}: the candidate model carries {} flit words, the reference only {}", name_,
                    w, s.words()));
  }
  if (cs.num_links != s.num_links || cs.local_ports != s.local_ports) {
    throw std::invalid_argument(fmt::format(
        "{}: the models differ in their pins ({} links and {} local ports against {} and {})",
        name_, cs.num_links, cs.local_ports, s.num_links, s.local_ports));
  }
  cand_out_.Size(cs);  // (the same links and local ports: only the words differ)
  narrow_ = w < s.words();
  if (narrow_) {
    ref_in_.Size(s);
    ref_out_.Size(s);
  }
}

void LockstepNode::Reset(unsigned x, unsigned y) {
  ref_->Reset(x, y);
  cand_->Reset(x, y);
  ticks_ = 0;
}

// The reference stepped at its width: `in` widened with zero lanes, its outputs narrowed into
// `out`; "" or the pin where it drove a lane the candidate does not carry.
std::string LockstepNode::Narrow(const NodeIn& in, NodeOut& out) {
  const NodeShape& s = ref_->shape();
  const unsigned wr = s.words(), wc = cand_->shape().words();
  // The valid flits of one bus (the links, the local ports) from one width to the other.
  auto widen = [&](uint64_t valid, unsigned count, const Slice<uint32_t>& src,
                   Slice<uint32_t>& dst) {
    for (unsigned i = 0; i < count; ++i) {
      if (!((valid >> i) & 1u)) continue;
      std::copy(&src[i * wc], &src[i * wc] + wc, &dst[i * wr]);
      std::fill(&dst[i * wr] + wc, &dst[i * wr] + wr, 0u);
    }
  };
  std::string bad;
  auto narrow = [&](const char* pin, const char* channel, uint64_t valid, unsigned count,
                    const Slice<uint32_t>& src, Slice<uint32_t>& dst) {
    for (unsigned i = 0; i < count; ++i) {
      if (!((valid >> i) & 1u)) continue;
      const uint32_t* f = &src[i * wr];
      std::copy(f, f + wc, &dst[i * wc]);
      if (bad.empty() && std::any_of(f + wc, f + wr, [](uint32_t x) { return x != 0; })) {
        bad = fmt::format(
            "{}[{} {}]: the rtl drives {} in lanes {} .. {}, which the fast model does not carry "
            "(it carries {})",
            pin, channel, i, Words(f + wc, wr - wc), wc - 1, wr - 2, wc - 1);
      }
    }
  };
  NodeIn& ri = ref_in_;
  ri.link_valid = in.link_valid;
  widen(in.link_valid, s.num_links, in.link_flit, ri.link_flit);
  std::copy(in.link_credit.begin(), in.link_credit.end(), ri.link_credit.begin());
  ri.ep_valid = in.ep_valid;
  widen(in.ep_valid, s.local_ports, in.ep_flit, ri.ep_flit);
  ri.ep_credit = in.ep_credit;
  ri.cfg_req = in.cfg_req;
  ri.cfg_we = in.cfg_we;
  ri.cfg_addr = in.cfg_addr;
  ri.cfg_wdata = in.cfg_wdata;
  ref_->Tick(ri, ref_out_);
  const NodeOut& ro = ref_out_;
  out.link_valid = ro.link_valid;
  narrow("lnk_out_flit_o", "link", ro.link_valid, s.num_links, ro.link_flit, out.link_flit);
  std::copy(ro.link_credit.begin(), ro.link_credit.end(), out.link_credit.begin());
  out.link_credit_any = ro.link_credit_any;
  out.ep_valid = ro.ep_valid;
  narrow("ep_out_flit_o", "local port", ro.ep_valid, s.local_ports, ro.ep_flit, out.ep_flit);
  out.ep_credit = ro.ep_credit;
  out.cfg_rsp = ro.cfg_rsp;
  out.cfg_err = ro.cfg_err;
  out.cfg_rdata = ro.cfg_rdata;
  out.err = ro.err;
  out.idle = ro.idle;
  out.bypass = ro.bypass;
  return bad;
}

void LockstepNode::Tick(const NodeIn& in, NodeOut& out) {
  std::string lanes;  // a lane the candidate does not carry, driven by the reference
  if (narrow_)
    lanes = Narrow(in, out);
  else
    ref_->Tick(in, out);
  cand_->Tick(in, cand_out_);
  ++ticks_;
  std::string d = CompareNodeOut(cand_->shape(), out, cand_out_, "rtl", "fast");
  if (d.empty()) d = lanes;
  if (!d.empty()) {
    throw NodeMismatch(
        fmt::format("{}: the fast model differs from the RTL at its clock edge {} after reset: {}",
                    name_, ticks_, d));
  }
}

}  // namespace aries::sysc
