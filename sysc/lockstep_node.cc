#include "lockstep_node.h"

#include <fmt/format.h>

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
  if (a.link_valid != b.link_valid) return diff("lnk_out_valid_o", a.link_valid, b.link_valid);
  for (unsigned l = 0; l < shape.num_links; ++l) {
    if (((a.link_valid >> l) & 1u) &&
        !std::equal(&a.link_flit[l * w], &a.link_flit[l * w] + w, &b.link_flit[l * w])) {
      return fmt::format("lnk_out_flit_o[link {}]: {} {} vs {} {}", l, an,
                         Words(&a.link_flit[l * w], w), bn, Words(&b.link_flit[l * w], w));
    }
    if (a.link_credit[l] != b.link_credit[l]) {
      return diff(fmt::format("lnk_in_credit_o[link {}]", l), a.link_credit[l], b.link_credit[l]);
    }
  }
  // Not a pin: the summary of lnk_in_credit_o each model keeps beside it (Package::Scatter
  // reads only the links it names).
  if (a.link_credit_any != b.link_credit_any) {
    return diff("link_credit_any", a.link_credit_any, b.link_credit_any);
  }
  if (a.ep_valid != b.ep_valid) return diff("ep_out_valid_o", a.ep_valid, b.ep_valid);
  for (unsigned i = 0; i < shape.local_ports; ++i) {
    if (((a.ep_valid >> i) & 1u) &&
        !std::equal(&a.ep_flit[i * w], &a.ep_flit[i * w] + w, &b.ep_flit[i * w])) {
      return fmt::format("ep_out_flit_o[local port {}]: {} {} vs {} {}", i, an,
                         Words(&a.ep_flit[i * w], w), bn, Words(&b.ep_flit[i * w], w));
    }
    if (a.ep_credit[i] != b.ep_credit[i]) {
      return diff(fmt::format("ep_in_credit_o[local port {}]", i), a.ep_credit[i], b.ep_credit[i]);
    }
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
  cand_out_.link_flit.assign(s.num_links * s.words(), 0);
  cand_out_.link_credit.assign(s.num_links, 0);
  cand_out_.ep_flit.assign(s.local_ports * s.words(), 0);
}

void LockstepNode::Reset(unsigned x, unsigned y) {
  ref_->Reset(x, y);
  cand_->Reset(x, y);
  ticks_ = 0;
}

void LockstepNode::Tick(const NodeIn& in, NodeOut& out) {
  ref_->Tick(in, out);
  cand_->Tick(in, cand_out_);
  ++ticks_;
  const std::string d = CompareNodeOut(ref_->shape(), out, cand_out_, "rtl", "fast");
  if (!d.empty()) {
    throw NodeMismatch(
        fmt::format("{}: the fast model differs from the RTL at its clock edge {} after reset: {}",
                    name_, ticks_, d));
  }
}

}  // namespace aries::sysc
