// The ExecuTorch frontend on real programs (../shared/executorch): what the reader finds, the
// lifetimes and aliases, ExecuTorch's plan valid and reproduced by its greedy, the planned
// buffer sizes equal to what ExecuTorch's runtime reported (et_runtime.json).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "frontends/executorch/et_problem.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

EtAnalysis analyse_file(const std::string& path) {
  return analyse_et(read_et_file(path), path, PoolOptions{});
}

const std::vector<std::string> kPrograms = {"add",       "arduino_add", "arduino_kws", "linear_no_constant_segment",
                                            "maxpool2d", "softmax",     "xor_training"};

const EtTensorInfo& tensor(const EtAnalysis& a, int method, int value) {
  for (const EtTensorInfo& t : a.tensors) {
    if (t.method == method && t.value == value) return t;
  }
  throw std::runtime_error("no planned value " + std::to_string(value));
}

TEST(EtPrograms, ArduinoKeywordSpotterReadAsExecuTorchPlannedIt) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const EtAnalysis a = analyse_file(path);
  ASSERT_EQ(a.program.methods.size(), 1u);
  const EtMethod& m = a.program.methods[0];
  EXPECT_EQ(m.name, "forward");
  EXPECT_EQ(m.values.size(), 289u);
  EXPECT_EQ(m.instructions.size(), 16u);
  EXPECT_EQ(m.operators.size(), 8u);
  EXPECT_EQ(m.operators[1].full_name(), "cortex_m::quantized_depthwise_conv2d.out");
  EXPECT_EQ(m.buffer_sizes, (std::vector<int64_t>{0, 16000}));
  EXPECT_EQ(m.inputs, std::vector<int32_t>{83});
  EXPECT_EQ(m.outputs, std::vector<int32_t>{283});
  ASSERT_TRUE(a.program.header);
  EXPECT_EQ(a.program.header->program_size, 14904u);
  EXPECT_EQ(a.program.header->segment_base_offset, 14976u);
  ASSERT_EQ(a.program.segments.size(), 1u);
  EXPECT_EQ(a.program.segments[0].size, 39216u);
  EXPECT_EQ(a.program.constant_offsets, 64u);
  // Instruction 1: depthwise conv reading value 84, scratch 90, writing 91 (out= and returned).
  EXPECT_EQ(m.instructions[1].type, et_schema::InstructionType::kKernelCall);
  EXPECT_EQ(m.instructions[1].args.front(), 84);
  EXPECT_EQ(m.instructions[1].args.back(), 91);
  // 28 planned tensors; value 83 (the input, at offset 0: no offset field) and the two 8,000-byte
  // feature maps.
  EXPECT_EQ(a.tensors.size(), 28u);
  const EtTensorInfo& input = tensor(a, 0, 83);
  EXPECT_EQ(input.bytes, 1960);
  EXPECT_EQ(input.offset, 0);
  EXPECT_EQ(input.first, 0);
  EXPECT_EQ(input.last, 0);
  EXPECT_EQ(tensor(a, 0, 91).offset, 8000);
  EXPECT_EQ(tensor(a, 0, 91).first, 1);
  EXPECT_EQ(tensor(a, 0, 91).last, 2);
  EXPECT_EQ(tensor(a, 0, 283).last, 15);  // the output lives to the end
  // Value 271 is a reshape view of 257 (same offset 8,256, read at 14 before anything writes it).
  const EtTensorInfo& view = tensor(a, 0, 271);
  EXPECT_TRUE(view.view);
  EXPECT_EQ(view.alias_of, 257);
  EXPECT_EQ(view.buffer, tensor(a, 0, 257).buffer);
  const Buffer& merged = a.problem.buffers[static_cast<size_t>(view.buffer)];
  EXPECT_EQ(merged.lifetime->first(), 13);
  EXPECT_EQ(merged.lifetime->last(), 14);
  EXPECT_EQ(a.problem.buffers.size(), 27u);
  ASSERT_EQ(a.problem.pools.size(), 1u);
  EXPECT_EQ(a.problem.pools[0].name, "mem1");
  EXPECT_EQ(a.reproduced_by, "et_greedy");
  EXPECT_EQ(a.problem.timeline[1].label, "cortex_m::quantized_depthwise_conv2d.out");
}

TEST(EtPrograms, TrainingProgramHasFourMethodsAndMutableBuffersLiveThroughout) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/xor_training.pte");
  const EtAnalysis a = analyse_file(path);
  ASSERT_EQ(a.program.methods.size(), 4u);
  EXPECT_EQ(a.program.methods[0].name, "forward");
  EXPECT_EQ(a.program.methods[1].name, "__et_training_gradients_index_forward");
  EXPECT_EQ(a.program.methods[0].instructions.size(), 66u);
  ASSERT_EQ(a.problem.pools.size(), 1u);  // only forward plans memory
  EXPECT_EQ(a.pools[0].file_size, 624);
  // Value 1: a mutable buffer (initial state in the program) at 496, live from 0 to 65.
  const EtTensorInfo& state = tensor(a, 0, 1);
  EXPECT_EQ(state.offset, 496);
  EXPECT_EQ(state.first, 0);
  EXPECT_EQ(state.last, 65);
  EXPECT_EQ(a.reproduced_by, "et_greedy");
}

TEST(EtPrograms, EveryProgramsPlanIsValidReproducedAndSizedAsTheRuntimeSays) {
  USMPX_REQUIRE_SHARED(runtime_path, "executorch/et_runtime.json");
  std::ifstream in(runtime_path);
  const nlohmann::json runtime = nlohmann::json::parse(in);
  for (const std::string& name : kPrograms) {
    SCOPED_TRACE(name);
    const EtAnalysis a = analyse_file(testing::shared_path("executorch/models/" + name + ".pte"));
    Plan as_built = a.as_built;
    finish_plan(a.problem, as_built);
    EXPECT_FALSE(as_built.has_errors()) << (as_built.diagnostics.empty() ? "" : as_built.diagnostics[0].message);
    // add.pte and the deprecated-layout linear program predate ExecuTorch's 2025 greedy.
    const std::string expected = name == "add" ? "et_greedy_2024" : "et_greedy";
    EXPECT_EQ(a.reproduced_by, expected);
    const Plan greedy = run_planner(*make_planner(expected), a.problem, PlannerOptions{});
    EXPECT_EQ(greedy.allocations, as_built.allocations);
    // Planned buffer sizes per method equal the runtime's MethodMeta figures.
    for (const auto& [method, figures] : runtime["programs"][name]["methods"].items()) {
      std::vector<int64_t> planned;
      for (size_t p = 0; p < a.pools.size(); ++p) {
        if (a.program.methods[static_cast<size_t>(a.pools[p].method)].name == method) {
          planned.push_back(as_built.pool_sizes[p]);
          EXPECT_EQ(greedy.pool_sizes[p], as_built.pool_sizes[p]);
          EXPECT_EQ(a.pools[p].file_size, as_built.pool_sizes[p]);
        }
      }
      EXPECT_EQ(planned, figures["planned"].get<std::vector<int64_t>>()) << method;
    }
  }
}

TEST(EtPrograms, PlannedSizesOfEveryProgram) {
  const std::vector<std::pair<std::string, int64_t>> sizes = {{"add", 48},
                                                              {"arduino_add", 32},
                                                              {"arduino_kws", 16000},
                                                              {"linear_no_constant_segment", 32},
                                                              {"maxpool2d", 5619712},
                                                              {"softmax", 65536},
                                                              {"xor_training", 624}};
  for (const auto& [name, bytes] : sizes) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(path, "executorch/models/" + name + ".pte");
    const EtAnalysis a = analyse_file(path);
    Plan plan = a.as_built;
    finish_plan(a.problem, plan);
    EXPECT_EQ(plan.total_size(), bytes);
    const Plan best = testing::plan_with("best", a.problem);
    EXPECT_FALSE(best.has_errors());
    EXPECT_LE(best.total_size(), bytes);
    EXPECT_GE(best.total_size(), best.lower_bound_bytes);
  }
}

}  // namespace
}  // namespace usmpx
