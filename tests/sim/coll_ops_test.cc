// Every reduction the engine computes, at the command line's level (MeasureCollective): each
// (operation, element type) the engine allows runs verified element by element on an
// endpoint algorithm and on the in-network tree, and its cycles equal the int32 sum's (which
// lets `--algo auto` use the int32 cost models for every type and operation).
#include <gtest/gtest.h>

#include <string>

#include "arith.h"
#include "coll_run.h"

namespace aries::sim {
namespace {

TEST(CollOps, EveryOperationVerifiesAndCyclesDoNotDependOnTypeOrOperation) {
  const char* const ops[] = {"sum", "prod", "min", "max", "and", "or", "xor"};
  for (const char* algo : {"ring", "tree", "dbt"}) {
    for (const char* collective : {"allreduce", "reducescatter"}) {
      if (std::string(algo) == "dbt" && std::string(collective) == "reducescatter") continue;
      CollOptions o;
      o.geometry.topology = coll::Topology::kMesh;
      o.geometry.k = 2;
      o.algo = algo;
      o.collective = *coll::ParseCollective(collective);
      o.bytes = 4096 + 148;  // a partial last flit
      o.verify = true;
      o.model = "fast";
      const CollMeasurement base = MeasureCollective(o, true);
      ASSERT_TRUE(base.ok) << algo << " " << collective;
      unsigned runs = 0;
      for (const char* type : {"int32", "fp32"}) {
        for (const char* op : ops) {
          const bool bitwise = op[0] == 'a' || op[0] == 'o' || op[0] == 'x';
          if (bitwise && std::string(type) == "fp32") {
            EXPECT_THROW(coll::ReductionOpcode(op, type), std::invalid_argument);
            continue;
          }
          o.type = type;
          o.op = op;
          const CollMeasurement m = MeasureCollective(o, true);
          EXPECT_TRUE(m.ok) << algo << " " << collective << " " << op << " " << type;
          EXPECT_EQ(m.cycles, base.cycles) << algo << " " << collective << " " << op << " " << type;
          ++runs;
        }
      }
      EXPECT_EQ(runs, 11u);
    }
  }
}

TEST(CollOps, NamesMapToTheEngineOpcodes) {
  EXPECT_EQ(coll::OpName(coll::ReductionOpcode("max", "fp32")), "max.f32");
  EXPECT_EQ(coll::OpName(coll::ReductionOpcode("prod", "int32")), "mul.i32");
  EXPECT_EQ(coll::OpName(coll::ReductionOpcode("xor", "int32")), "xor");
  EXPECT_THROW(coll::ReductionOpcode("avg", "int32"), std::invalid_argument);
  EXPECT_THROW(coll::ReductionOpcode("sum", "fp64"), std::invalid_argument);
}

}  // namespace
}  // namespace aries::sim
