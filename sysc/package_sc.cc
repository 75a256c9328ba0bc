#include "package_sc.h"

#include <fmt/format.h>

namespace aries::sysc {

NodeSc::NodeSc(sc_module_name name, Package* pkg, unsigned node)
    : sc_module(name), pkg_(pkg), node_(node) {
  SC_METHOD(OnEdge);
  sensitive << clk.pos();
  dont_initialize();
}

void NodeSc::OnEdge() { pkg_->StepNode(node_); }

PackageSc::PackageSc(sc_module_name name, Package* pkg)
    : sc_module(name), clk("clk", 1, SC_NS), pkg_(pkg) {
  // SystemC processes (the DMA endpoint's events) live on the kernel's thread: the package
  // must step there too, register accesses included.
  if (pkg->num_partitions() > 1 || pkg->transport()) {
    throw std::invalid_argument(fmt::format(
        "the SystemC kernel steps the package on one thread in one process: threads = {} "
        "partitions, allowed 1",
        pkg->num_partitions()));
  }
  for (unsigned n = 0; n < pkg->num_nodes(); ++n) {
    nodes_.push_back(std::make_unique<NodeSc>(pkg->NodeName(n).c_str(), pkg, n));
    nodes_.back()->clk(clk);
  }
  SC_METHOD(OnFall);
  sensitive << clk.negedge_event();
  dont_initialize();
}

void PackageSc::OnFall() { pkg_->EndCycle(); }

void PackageSc::Run(uint64_t cycles) { sc_start(sc_time(static_cast<double>(cycles), SC_NS)); }

}  // namespace aries::sysc
