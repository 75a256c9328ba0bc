// The DMA endpoint and the local memory model (SystemC) with in-network all-reduce on the
// package: inputs read from and results written to each chiplet's LocalMemory, every element
// checked in memory; a memory slower than the links stretches the collective to its bandwidth
// (PIUMA eq. 2); the plain loop kernel is refused with a clear error. One SystemC elaboration
// per process: ctest runs each test in its own process.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "coll_tree.h"
#include "dma_endpoint.h"
#include "local_memory.h"
#include "node_models.h"
#include "package.h"
#include "package_sc.h"

namespace {

namespace hw = aries::hw;
using aries::coll::Topology;
using aries::sysc::DmaEndpoint;
using aries::sysc::LocalMemory;
using aries::sysc::Package;
using aries::sysc::PackageConfig;
using aries::sysc::PackageSc;

struct DmaRun {
  uint64_t cycles = 0;
  size_t flits = 0;
};

// All-reduce (int32 add) of `elements` per node on a k x k mesh through DMA endpoints whose
// memories have `bw` bytes per cycle.
DmaRun RunDma(unsigned k, size_t elements, double bw) {
  PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = k;
  Package pkg(pc, aries::sysc::ShippedNodeModels(), 1);
  PackageSc sc("pkg", &pkg);
  const auto& shape = pkg.shape();
  const size_t src = 16, dst = 16 + elements + 7;
  std::vector<std::unique_ptr<LocalMemory>> mems;
  std::vector<std::unique_ptr<DmaEndpoint>> dmas;
  std::mt19937 rng(5);
  std::vector<std::vector<uint32_t>> vec(k * k, std::vector<uint32_t>(elements));
  for (unsigned n = 0; n < k * k; ++n) {
    mems.push_back(
        std::make_unique<LocalMemory>(fmt::format("mem{}", n).c_str(), dst + elements + 16, bw));
    mems.back()->clk(sc.clk);
    for (size_t e = 0; e < elements; ++e) {
      vec[n][e] = static_cast<uint32_t>(rng());
      mems.back()->words()[src + e] = vec[n][e];
    }
    dmas.push_back(
        std::make_unique<DmaEndpoint>(fmt::format("dma{}", n).c_str(), shape, mems.back().get()));
    pkg.AttachEndpoint(n, dmas.back().get());
  }
  const unsigned r = k / 2 - 1;
  const aries::test::Tree t = aries::test::MakeTree(k, r, r);
  const size_t flits = (elements + shape.lanes - 1) / shape.lanes;
  pkg.Program(aries::test::ProgramTree(t, 2, hw::kOpAddI32, static_cast<unsigned>(flits), true));
  for (auto& d : dmas) d->Start({2, hw::kOpAddI32, src, dst, elements, true});
  const uint64_t t0 = pkg.endpoint_cycle();  // the DMA engines count in endpoint time
  auto all_done = [&] {
    for (auto& d : dmas) {
      if (!d->done()) return false;
    }
    return true;
  };
  for (int i = 0; i < 2000 && !all_done(); ++i) sc.Run(100);
  EXPECT_TRUE(all_done());
  uint64_t last = 0;
  for (unsigned n = 0; n < k * k; ++n) {
    for (const auto& e : dmas[n]->errors()) ADD_FAILURE() << "node " << n << ": " << e;
    EXPECT_EQ(dmas[n]->completed(), 1u);
    last = std::max(last, dmas[n]->done_cycle());
    unsigned bad = 0;
    for (size_t e = 0; e < elements && bad < 5; ++e) {
      const uint32_t want = aries::test::Golden(t, hw::kOpAddI32, vec, t.root, e);
      if (mems[n]->words()[dst + e] != want) {
        ++bad;
        ADD_FAILURE() << "node " << n << " element " << e;
      }
    }
    // Untouched around the result.
    EXPECT_EQ(mems[n]->words()[dst - 1], 0u);
    EXPECT_EQ(mems[n]->words()[dst + elements], 0u);
    // The memory moved the vector in and the result out, and was busy at least as long as its
    // bandwidth requires.
    EXPECT_EQ(mems[n]->bytes_served(), 2 * 4 * elements);
    EXPECT_GE(static_cast<double>(mems[n]->busy_cycles()), 2 * 4 * elements / bw);
    EXPECT_LT(dmas[n]->start_cycle(), dmas[n]->done_cycle());
    EXPECT_GE(dmas[n]->start_cycle(), t0);
  }
  std::printf("%ux%u all-reduce via DMA, memory %.0f B/cycle: %zu flits in %llu cycles\n", k, k, bw,
              flits, static_cast<unsigned long long>(last + 1 - t0));
  return {last + 1 - t0, flits};
}

// A memory as fast as a duplex link (128 B/cycle: 64 read + 64 written per flit) does not limit
// the all-reduce: line rate, one flit per cycle.
TEST(DmaEndpoint, AllReduceThroughMemoryAtLineRate) {
  const DmaRun r = RunDma(4, 16 * 400 - 3, 128.0);
  EXPECT_LT(r.cycles, r.flits + 200) << r.cycles << " cycles for " << r.flits << " flits";
}

// A 32 B/cycle memory moves 128 B per flit (read and write): 4 cycles per flit (PIUMA eq. 2,
// beta = 2s / BW_mem).
TEST(DmaEndpoint, SlowMemoryLimitsTheAllReduce) {
  const DmaRun r = RunDma(4, 16 * 400, 32.0);
  EXPECT_GE(r.cycles, 4 * r.flits);
  EXPECT_LE(r.cycles, 4 * r.flits + 300);
}

TEST(DmaEndpoint, RefusesThePlainLoopKernel) {
  PackageConfig pc;
  pc.topology = Topology::kMesh;
  pc.k = 2;
  Package pkg(pc, aries::sysc::ShippedNodeModels(), 1);
  PackageSc sc("pkg", &pkg);
  LocalMemory mem("mem", 1024, 64.0);
  mem.clk(sc.clk);
  DmaEndpoint dma("dma", pkg.shape(), &mem);
  pkg.AttachEndpoint(0, &dma);
  dma.Start({0, hw::kOpAddI32, 0, 512, 100, true});
  try {
    pkg.Step();
    FAIL() << "the loop kernel ran the DMA endpoint";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("SystemC kernel"), std::string::npos) << e.what();
  }
  EXPECT_THROW(mem.Read(1020, 8, nullptr, nullptr), std::out_of_range);
  EXPECT_THROW(LocalMemory("bad", 16, 0.0), std::invalid_argument);
}

}  // namespace
