// The package as SystemC modules: one NodeSc per chiplet node (its SC_METHOD steps the node's
// Verilated model on the rising clock edge) and a PackageSc top that owns the clock and closes
// each cycle on the falling edge. The interposer channels are passive (no processes), as the
// interposer is wires only.
//
// SystemC allows one elaboration per process (../shared/TOOLCHAIN.md): build one PackageSc per
// process.
#ifndef ARIES_SYSC_PACKAGE_SC_H_
#define ARIES_SYSC_PACKAGE_SC_H_

#include <systemc>
using namespace sc_core;  // before verilated.h, as Verilator's SystemC mode expects

#include <memory>
#include <vector>

#include "package.h"

namespace aries::sysc {

SC_MODULE(NodeSc) {
  sc_in<bool> clk;
  SC_HAS_PROCESS(NodeSc);
  NodeSc(sc_module_name name, Package * pkg, unsigned node);
  void OnEdge();

 private:
  Package* pkg_;
  unsigned node_;
};

SC_MODULE(PackageSc) {
  sc_clock clk;
  SC_HAS_PROCESS(PackageSc);
  // `pkg` must outlive the module. Clock period 1 ns (1 GHz, ARIES Table II).
  PackageSc(sc_module_name name, Package * pkg);
  // Runs `cycles` clock cycles through the SystemC scheduler.
  void Run(uint64_t cycles);

 private:
  void OnFall();
  Package* pkg_;
  std::vector<std::unique_ptr<NodeSc>> nodes_;
};

}  // namespace aries::sysc

#endif  // ARIES_SYSC_PACKAGE_SC_H_
