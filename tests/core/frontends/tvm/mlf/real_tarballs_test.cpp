// The two real MLF tarballs (USMP off), with every expected value derived by reading their C as
// USMP's ExtractBufferInfo and greedy_by_size would.
#include <gtest/gtest.h>

#include "frontends/tvm/mlf/mlf_model.h"
#include "inputs/input_file.h"
#include "mlf_test_support.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::buffer_named;
using testing::buffer_names;
using testing::conflict_names;
using testing::Names;

// letscope_v7.tar, codegen/host/src/default_lib1.c:
// * __tvm_main__ (line 34854) allocates sid_1 (5 bytes), sid_2 and sid_3 (512 bytes each) with
//   TVMBackendAllocWorkspace(1, 0, n, 0, 8), i.e. int8, then calls in order
//   fused_reshape(input, sid_1), dense `_`(sid_1, sid_2), dense `__1`(sid_2, sid_3),
//   dense `__2`(sid_3, output).
// * `_` (line 34773) and `__1` (line 34800) each allocate `dense`, 2048 bytes as int32 (code 0,
//   bits 32): the second gets TVM's unique name dense2. `__2` keeps `int32_t dense[1]` on the
//   stack, the reshape allocates nothing: five buffers, all aligned to 16 (the default
//   workspace-byte-alignment).
// * Liveness: in `_`, sid_1 (p0) is read in the y_outer/k_outer nest and dense is written there
//   and read again in the ax1 loop that writes sid_2 (T_cast): dense overlaps sid_1 and sid_2,
//   but sid_1 ends with the y_outer loop before sid_2's ax1 loop starts. The same holds for
//   dense2 with sid_2 and sid_3 in `__1`. sid_3 ends in `__2`'s k_outer loop.
//   Conflicts: sid_1 {dense}, sid_2 {dense, dense2}, sid_3 {dense2}, dense {sid_1, sid_2},
//   dense2 {sid_2, sid_3}; memory pressure = 2048 + 512 = 2560.
// * greedy_by_size: sizes desc, ties by conflicts then name desc: dense2 (0), dense (0, its
//   conflicts are not placed yet), sid_2 (above both dense: 2048), sid_3 (2048), sid_1 (2048):
//   global_workspace = 2560 bytes (TVM's own USMP-off total was 3088, see metadata.json).
TEST(RealTarballs, LetscopeBuffersConflictsAndGreedyPool) {
  USMPX_REQUIRE_SHARED(path, "mlf/letscope_v7.tar");
  const MlfModel m = load_mlf_model(path);
  const Problem& p = m.problem;
  EXPECT_EQ(buffer_names(p), (Names{"sid_1", "sid_2", "sid_3", "dense", "dense2"}));
  const std::vector<int64_t> sizes = {5, 512, 512, 2048, 2048};
  for (size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_EQ(p.buffers[i].size_bytes, sizes[i]) << p.buffers[i].name;
    EXPECT_EQ(p.buffers[i].alignment, 16) << p.buffers[i].name;
    EXPECT_EQ(p.buffers[i].kind, BufferKind::kIntermediate);
    EXPECT_EQ(p.buffers[i].pool_candidates, std::vector<int>{0});
  }
  EXPECT_EQ(conflict_names(p, "sid_1"), (Names{"dense"}));
  EXPECT_EQ(conflict_names(p, "sid_2"), (Names{"dense", "dense2"}));
  EXPECT_EQ(conflict_names(p, "sid_3"), (Names{"dense2"}));
  EXPECT_EQ(conflict_names(p, "dense"), (Names{"sid_1", "sid_2"}));
  EXPECT_EQ(conflict_names(p, "dense2"), (Names{"sid_2", "sid_3"}));
  EXPECT_EQ(p.memory_pressure, 2560);

  const Buffer& dense = buffer_named(p, "dense");
  EXPECT_EQ(dense.dtype, "int32");
  EXPECT_EQ(dense.shape, std::vector<int64_t>{512});
  EXPECT_EQ(dense.origin.function,
            "tvmgen_default_fused_nn_dense_subtract_add_fixed_point_multiply_add_clip_subtract_cast_multiply_"
            "db845967e9aad69d_");
  EXPECT_EQ(dense.origin.location, (SourceLocation{"codegen/host/src/default_lib1.c", 34774, 3}));
  EXPECT_EQ(buffer_named(p, "dense2").origin.location.line, 34801);
  EXPECT_EQ(buffer_named(p, "sid_1").origin.location, (SourceLocation{"codegen/host/src/default_lib1.c", 34855, 3}));
  EXPECT_EQ(buffer_named(p, "sid_1").dtype, "int8");

  ASSERT_EQ(p.pools.size(), 2u);
  EXPECT_EQ(p.pools[0].name, "global_workspace");
  EXPECT_TRUE(p.pools[0].internal);
  EXPECT_EQ(p.pools[0].targets[0].target, "c -keys=arm_cpu,cpu -march=armv7e-m -mcpu=cortex-m7 -model=stm32f746xx");
  EXPECT_EQ(p.pools[1].name, "global_const_workspace");
  EXPECT_FALSE(m.as_built);

  const Plan plan = testing::plan_with("greedy_by_size", p);
  EXPECT_EQ(plan.pool_sizes[0], 2560);
  EXPECT_EQ(testing::offset_of(p, plan, "dense2"), 0);
  EXPECT_EQ(testing::offset_of(p, plan, "dense"), 0);
  EXPECT_EQ(testing::offset_of(p, plan, "sid_2"), 2048);
  EXPECT_EQ(testing::offset_of(p, plan, "sid_1"), 2048);

  // The C parses cleanly: the only message is the note about the 9 constant arrays
  // (2 x 2048 + 2560, 2 x 2048 + 262144, 4 + 4 + 512 = 273416 bytes).
  ASSERT_EQ(m.warnings.size(), 1u) << m.warnings.front().message;
  EXPECT_EQ(m.warnings[0].severity, Severity::kNote);
  EXPECT_EQ(
      m.warnings[0].message,
      "9 constant arrays (273416 bytes) stay static arrays in the operators' code (USMP off); they are not planned");
  ASSERT_EQ(m.code.calls.size(), 4u);
  EXPECT_EQ(m.code.calls[0].callee, "tvmgen_default_fused_reshape");
  EXPECT_EQ(m.code.calls[0].form, EntryCallForm::kChecked);
  EXPECT_EQ(m.code.allocs.size(), 5u);
  EXPECT_TRUE(m.code.allocs[0].null_check.valid());
  EXPECT_TRUE(m.code.allocs[0].free.valid());
}

// With --use-workspace-io the I/O join the plan: the input (5 bytes, metadata.json and the
// Relay type (1, 5) int8 agree) is written by the reshape in the same statement that writes
// sid_1, so they conflict; the output (1 byte) is written after sid_3's last read: no conflict.
TEST(RealTarballs, LetscopeWithWorkspaceIo) {
  USMPX_REQUIRE_SHARED(path, "mlf/letscope_v7.tar");
  MlfLoadOptions options;
  options.pools.use_workspace_io = true;
  const MlfModel m = load_mlf_model(path, options);
  const Problem& p = m.problem;
  EXPECT_EQ(buffer_names(p), (Names{"serving_default_input_1_0", "StatefulPartitionedCall_0", "sid_1", "sid_2", "sid_3",
                                    "dense", "dense2"}));
  EXPECT_EQ(buffer_named(p, "serving_default_input_1_0").size_bytes, 5);
  EXPECT_EQ(buffer_named(p, "serving_default_input_1_0").kind, BufferKind::kInput);
  EXPECT_EQ(buffer_named(p, "StatefulPartitionedCall_0").size_bytes, 1);
  EXPECT_EQ(buffer_named(p, "StatefulPartitionedCall_0").kind, BufferKind::kOutput);
  EXPECT_EQ(conflict_names(p, "serving_default_input_1_0"), (Names{"sid_1"}));
  EXPECT_EQ(conflict_names(p, "StatefulPartitionedCall_0"), (Names{}));
  EXPECT_EQ(m.warnings.size(), 1u) << "no size disagreements";
}

// sine_aot_v5.tar, codegen/host/src/default_lib0.c (everything in one file, TVM 2021):
// * the entry is tvmgen_default_run_model (line 196), with `(void)f(...)` calls; it allocates
//   sid_6 and sid_5 (64 bytes each, already shared by StorageRewrite) and calls
//   reshape(input, sid_6), dense_add_relu(sid_6 -> sid_5), reshape_1(sid_5 -> sid_6),
//   dense_add_relu_1(sid_6 -> sid_5), reshape_1(sid_5 -> sid_6), dense_add(sid_6 -> output).
// * Only dense_add_relu_1 allocates a workspace: packed_weight, 1024 bytes as float32 (code 2,
//   bits 32); the other packed_weight and compute_global arrays are on the stack.
// * sid_6 lives from the first call to the last one's k_outer loop, sid_5 from the second call
//   to the fifth; packed_weight lives inside the fourth call, while both sids are live.
//   Conflicts: each buffer conflicts with the two others; memory pressure 1024 + 64 + 64 = 1152.
// * greedy_by_size: packed_weight 0; sid_6 and sid_5 tie on size and conflicts, "sid_6" >
//   "sid_5" places sid_6 first at 1024, sid_5 at 1088: 1152 bytes.
TEST(RealTarballs, SineBuffersConflictsAndGreedyPool) {
  USMPX_REQUIRE_SHARED(path, "mlf/sine_aot_v5.tar");
  LoadOptions options;
  const LoadedInput in = load_input(path, options);
  EXPECT_EQ(in.format, InputFormat::kMlf);
  const Problem& p = in.problem;
  EXPECT_EQ(buffer_names(p), (Names{"sid_6", "sid_5", "packed_weight"}));
  EXPECT_EQ(buffer_named(p, "sid_6").size_bytes, 64);
  EXPECT_EQ(buffer_named(p, "sid_5").size_bytes, 64);
  EXPECT_EQ(buffer_named(p, "packed_weight").size_bytes, 1024);
  EXPECT_EQ(buffer_named(p, "packed_weight").dtype, "float32");
  EXPECT_EQ(buffer_named(p, "packed_weight").shape, std::vector<int64_t>{256});
  EXPECT_EQ(buffer_named(p, "packed_weight").origin.function, "tvmgen_default_fused_nn_dense_add_nn_relu_1");
  EXPECT_EQ(buffer_named(p, "packed_weight").origin.location,
            (SourceLocation{"codegen/host/src/default_lib0.c", 127, 3}));
  for (const Buffer& b : p.buffers)
    EXPECT_EQ(b.alignment, 16);
  EXPECT_EQ(conflict_names(p, "sid_6"), (Names{"packed_weight", "sid_5"}));
  EXPECT_EQ(conflict_names(p, "sid_5"), (Names{"packed_weight", "sid_6"}));
  EXPECT_EQ(conflict_names(p, "packed_weight"), (Names{"sid_5", "sid_6"}));
  EXPECT_EQ(p.memory_pressure, 1152);
  const Plan plan = testing::plan_with("greedy_by_size", p);
  EXPECT_EQ(plan.pool_sizes[0], 1152);
  EXPECT_EQ(testing::offset_of(p, plan, "packed_weight"), 0);
  EXPECT_EQ(testing::offset_of(p, plan, "sid_6"), 1024);
  EXPECT_EQ(testing::offset_of(p, plan, "sid_5"), 1088);
  ASSERT_EQ(in.warnings.size(), 1u) << in.warnings.front().message;
  EXPECT_EQ(
      in.warnings[0].message,
      "6 constant arrays (1284 bytes) stay static arrays in the operators' code (USMP off); they are not planned");
}

// The v5 entry names its I/O `input` and `output`; the header's struct fields give the model's
// names (dense_4_input, output). The input is 4 bytes by its Relay type (1, 1) float32, the
// output 4 bytes by the code's accesses (T_add[0], float). The reshape reads the input in the
// statement that writes sid_6 (a conflict); dense_add writes the output after its last read of
// sid_6 (none). greedy_by_size: packed_weight 0, sid_6 1024, sid_5 1088, the input (1 conflict)
// above sid_6 at 1088, the output at 0: still 1152 bytes.
TEST(RealTarballs, SineWithWorkspaceIo) {
  USMPX_REQUIRE_SHARED(path, "mlf/sine_aot_v5.tar");
  MlfLoadOptions options;
  options.pools.use_workspace_io = true;
  const MlfModel m = load_mlf_model(path, options);
  const Problem& p = m.problem;
  EXPECT_EQ(buffer_names(p), (Names{"dense_4_input", "output", "sid_6", "sid_5", "packed_weight"}));
  EXPECT_EQ(buffer_named(p, "dense_4_input").size_bytes, 4);
  EXPECT_EQ(buffer_named(p, "output").size_bytes, 4);
  EXPECT_EQ(buffer_named(p, "output").kind, BufferKind::kOutput);
  EXPECT_EQ(conflict_names(p, "dense_4_input"), (Names{"sid_6"}));
  EXPECT_EQ(conflict_names(p, "output"), (Names{}));
  const Plan plan = testing::plan_with("greedy_by_size", p);
  EXPECT_EQ(plan.pool_sizes[0], 1152);
  EXPECT_EQ(testing::offset_of(p, plan, "dense_4_input"), 1088);
  EXPECT_EQ(testing::offset_of(p, plan, "output"), 0);
}

}  // namespace
}  // namespace usmpx
