// The method allocator model against what ExecuTorch's runtime itself reported after
// load_method (shared/executorch/et_runtime.json, x86-64): every method of every program.
#include <fstream>
#include <functional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/executorch/et_runtime_memory.h"
#include "test_support.h"

namespace usmpx {
namespace {

// Calls `check` with every method of a runtime figures file (et_runtime.json, et_delegates.json)
// that has a method allocator figure, and that figure.
void for_each_runtime_method(const std::string& runtime_path,
                             const std::function<void(const EtMethod&, int64_t used)>& check) {
  std::ifstream in(runtime_path);
  const nlohmann::json runtime = nlohmann::json::parse(in);
  for (const auto& [name, program] : runtime["programs"].items()) {
    const std::string path = testing::shared_path("executorch/models/" + name + ".pte");
    const EtProgram p = read_et_program(read_et_file(path), path);
    for (const auto& [method, figures] : program["methods"].items()) {
      if (!figures.contains("method_allocator_used")) continue;
      SCOPED_TRACE(name + "/" + method);
      const auto it =
          std::find_if(p.methods.begin(), p.methods.end(), [&](const EtMethod& m) { return m.name == method; });
      ASSERT_NE(it, p.methods.end());
      check(*it, figures["method_allocator_used"].get<int64_t>());
    }
  }
}

TEST(EtRuntimeMemory, MethodAllocatorEqualsTheRuntimesFigureOnEveryMethod) {
  USMPX_REQUIRE_SHARED(runtime_path, "executorch/et_runtime.json");
  int checked = 0;
  for_each_runtime_method(runtime_path, [&](const EtMethod& m, int64_t used) {
    const EtMethodMemory mem = et_method_memory(m, et_target("x86-64"));
    EXPECT_TRUE(mem.exact);
    EXPECT_EQ(mem.method_allocator_bytes, used);
    ++checked;
  });
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

// A method of three values and one call of `backend` with `compile_specs` specs on all three.
EtMethod one_delegate_call(const std::string& backend, size_t compile_specs) {
  EtMethod m;
  m.name = "forward";
  m.values.resize(3);
  m.delegates.push_back({backend, 0, 0, compile_specs});
  m.chains = 1;
  m.instructions.push_back({et_schema::InstructionType::kDelegateCall, 0, {0, 1, 2}});
  return m;
}

TEST(EtRuntimeMemory, ADelegateMakesTheFigureALowerBound) {
  const EtMethod m = one_delegate_call("ArmBackend", 1);
  const EtMethodMemory mem = et_method_memory(m, et_target("x86-64"));
  EXPECT_FALSE(mem.exact);
  ASSERT_EQ(mem.unknown.size(), 1u);
  EXPECT_EQ(mem.unknown[0], "delegate ArmBackend: what its init allocates (not measured on x86-64)");
  // 3 EValues (48), one BackendDelegate (a 40-byte FreeableBuffer and two pointers: 56), its one
  // compile spec (24), a Chain (32), one kernel pointer (8), one argument list (16), three argument
  // pointers (24).
  EXPECT_EQ(mem.method_allocator_bytes, 208);
}

// XNNPACK's init on x86-64 is measured: the same shape calling XnnpackBackend is exact, 224 B
// above what the two pointers of a BackendDelegate counted before (the runtime's 360 -> 584).
TEST(EtRuntimeMemory, AnXnnpackDelegateIsExactOnX86) {
  EtMethod m = one_delegate_call("XnnpackBackend", 0);
  const EtMethodMemory mem = et_method_memory(m, et_target("x86-64"));
  EXPECT_TRUE(mem.exact);
  EXPECT_TRUE(mem.unknown.empty());
  EXPECT_EQ(mem.method_allocator_bytes, 144 - 16 + 240);  // the two pointers counted before, now 240
  // Two delegates: 224 B more each (the runtime's 536 -> 984).
  m.delegates.push_back({"XnnpackBackend", 0, 1, 0});
  m.instructions.push_back({et_schema::InstructionType::kDelegateCall, 1, {0, 1, 2}});
  // 3 EValues (48), a Chain (32), two kernel pointers (16), two argument lists (32), six argument
  // pointers (48), and 240 per delegate.
  EXPECT_EQ(et_method_memory(m, et_target("x86-64")).method_allocator_bytes, 176 + 2 * 240);
  // Compile specs, or a Cortex-M: not measured, a lower bound.
  m.delegates[1].compile_specs = 2;
  EXPECT_FALSE(et_method_memory(m, et_target("x86-64")).exact);
  EXPECT_FALSE(et_method_memory(m, et_target("cortex-m")).exact);
}

// Every method of every shared program with a runtime figure (et_runtime.json, et_delegates.json):
// equal where the model says exact, never above it where it says "at least".
TEST(EtRuntimeMemory, NoFigureExceedsTheRuntimesAndExactOnesEqualIt) {
  int exact = 0, at_least = 0;
  for (const char* file : {"executorch/et_runtime.json", "executorch/et_delegates.json"}) {
    USMPX_REQUIRE_SHARED(runtime_path, file);
    for_each_runtime_method(runtime_path, [&](const EtMethod& m, int64_t used) {
      const EtMethodMemory mem = et_method_memory(m, et_target("x86-64"));
      if (mem.exact) {
        EXPECT_EQ(mem.method_allocator_bytes, used);
        ++exact;
      } else {
        EXPECT_LE(mem.method_allocator_bytes, used);
        ++at_least;
      }
    });
  }
  EXPECT_EQ(exact, 9);  // the eight of et_runtime.json and xnnpack_quantized's forward (496)
  EXPECT_EQ(at_least, 0);
}

// The training program's forward: its weights are in xor_training.ptd but memory-planned (loaded
// into their planned bytes), so they take no NamedData entry. ExecuTorch's runtime, loading the
// method with its .ptd, uses 12,304 B on x86-64 (issue 40); the figure was "at least 12,336"
// when each of the four external weights counted a NamedData key pointer.
TEST(EtRuntimeMemory, PlannedExternalWeightsTakeNoNamedDataEntry) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/xor_training.pte");
  const EtProgram p = read_et_program(read_et_file(path), path);
  const auto forward =
      std::find_if(p.methods.begin(), p.methods.end(), [](const EtMethod& m) { return m.name == "forward"; });
  ASSERT_NE(forward, p.methods.end());
  int planned_external = 0;
  for (const EtValue& v : forward->values)
    planned_external += v.tensor && v.tensor->external && v.tensor->allocation ? 1 : 0;
  EXPECT_EQ(planned_external, 4);
  const EtMethodMemory mem = et_method_memory(*forward, et_target("x86-64"));
  EXPECT_EQ(mem.method_allocator_bytes, 12304);
  EXPECT_TRUE(mem.exact);
}

// ExecuTorch's Arduino keyword spotting sketch gives its MemoryManager one MemoryAllocator (no
// temp allocator) for the planned-buffer table, the 16,000-byte planned buffer and the method:
// Method::load then takes a PlatformMemoryAllocator and each of the 16 operator lookups its
// TensorMeta list and dim orders from it too.
TEST(EtRuntimeMemory, WithoutATempAllocatorOperatorLookupStaysInTheMethodAllocator) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const EtProgram p = read_et_program(read_et_file(path), path);
  const EtMethod& m = p.methods.at(0);
  const EtMethodMemory with = et_method_memory(m, et_target("cortex-m"));
  const EtMethodMemory without = et_method_memory(m, et_target("cortex-m"), EtAllocatorSetup{false});
  EXPECT_EQ(with.method_allocator_bytes, 11492);
  // 28 B of PlatformMemoryAllocator and 2,618 B of TensorMeta lists and dim orders. With the sketch's
  // 8-byte span table and the planned buffer, the board needs 30,146 B: its 28 KB pool (28,672) runs
  // out at the 10th call's TensorMeta list, 15 arguments x 12 B = the "180B requested" the runtime
  // reports there (8 B left), and its 40 KB pool suffices.
  EXPECT_EQ(without.method_allocator_bytes, 14138);
  EXPECT_TRUE(without.exact);
  EXPECT_EQ(et_method_memory(m, et_target("x86-64"), EtAllocatorSetup{false}).method_allocator_bytes, 22046);
}

}  // namespace
}  // namespace usmpx
