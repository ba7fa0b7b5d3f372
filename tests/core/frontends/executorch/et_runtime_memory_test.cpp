// The method allocator model against what ExecuTorch's runtime itself reported after
// load_method (shared/executorch/et_runtime.json, x86-64): every method of every program.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/executorch/et_runtime_memory.h"
#include "test_support.h"

namespace usmpx {
namespace {

TEST(EtRuntimeMemory, MethodAllocatorEqualsTheRuntimesFigureOnEveryMethod) {
  USMPX_REQUIRE_SHARED(runtime_path, "executorch/et_runtime.json");
  std::ifstream in(runtime_path);
  const nlohmann::json runtime = nlohmann::json::parse(in);
  int checked = 0;
  for (const auto& [name, program] : runtime["programs"].items()) {
    const std::string path = testing::shared_path("executorch/models/" + name + ".pte");
    const EtProgram p = read_et_program(read_et_file(path), path);
    for (const auto& [method, figures] : program["methods"].items()) {
      if (!figures.contains("method_allocator_used")) continue;
      SCOPED_TRACE(name + "/" + method);
      const auto it =
          std::find_if(p.methods.begin(), p.methods.end(), [&](const EtMethod& m) { return m.name == method; });
      ASSERT_NE(it, p.methods.end());
      const EtMethodMemory mem = et_method_memory(*it, et_target("x86-64"));
      EXPECT_TRUE(mem.exact);
      EXPECT_EQ(mem.method_allocator_bytes, figures["method_allocator_used"].get<int64_t>());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8);  // kws 16,976; arduino_add 376; add 376; maxpool2d 928; softmax 312; xor 48, 160, 48
}

TEST(EtRuntimeMemory, CortexMUsesThirtyTwoBitStructures) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const EtProgram p = read_et_program(read_et_file(path), path);
  EXPECT_EQ(et_method_memory(p.methods[0], et_target("cortex-m")).method_allocator_bytes, 11492);
  EXPECT_FALSE(et_target("cortex-m").measured);
  EXPECT_TRUE(et_target("x86-64").measured);
  EXPECT_THROW(et_target("risc-v"), std::out_of_range);
}

TEST(EtRuntimeMemory, ADelegateMakesTheFigureALowerBound) {
  EtMethod m;
  m.name = "forward";
  m.values.resize(3);
  m.delegates.push_back({"ArmBackend", 0, 0, 1});
  m.chains = 1;
  m.instructions.push_back({et_schema::InstructionType::kDelegateCall, 0, {0, 1, 2}});
  const EtMethodMemory mem = et_method_memory(m, et_target("x86-64"));
  EXPECT_FALSE(mem.exact);
  ASSERT_EQ(mem.unknown.size(), 1u);
  EXPECT_EQ(mem.unknown[0], "delegate ArmBackend: its BackendDelegate object and its init allocations");
  // 3 EValues (48), one BackendDelegate counted as two pointers (16), a Chain (32), one kernel
  // pointer (8), one argument list (16), three argument pointers (24).
  EXPECT_EQ(mem.method_allocator_bytes, 144);
}

}  // namespace
}  // namespace usmpx
