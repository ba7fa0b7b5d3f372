// Writing a plan back into a .pte: the copy reads back as the plan, with its buffer sizes.
#include <gtest/gtest.h>

#include "et_test_program.h"
#include "export/export_error.h"
#include "frontends/executorch/et_export.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

const std::vector<std::string> kPrograms = {"add",       "arduino_add", "arduino_kws", "linear_no_constant_segment",
                                            "maxpool2d", "softmax",     "xor_training"};

TEST(EtExport, TheProgramsOwnPlanWritesTheInputBackByteForByte) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/arduino_kws.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  Plan plan = a.as_built;
  finish_plan(a.problem, plan);
  const EtExport e = export_et(a, bytes, path, a.problem, plan);
  EXPECT_EQ(e.bytes, bytes);
  EXPECT_EQ(e.changed_tensors, 0);
  EXPECT_EQ(e.pool_bytes, std::vector<int64_t>{16000});
}

TEST(EtExport, BestOnEveryProgramReadsBackAsTheSamePlanNoLarger) {
  for (const std::string& name : kPrograms) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(path, "executorch/models/" + name + ".pte");
    const std::string bytes = read_et_file(path);
    const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
    const Plan best = testing::plan_with("best", a.problem);
    ASSERT_FALSE(best.has_errors());
    const EtExport e = export_et(a, bytes, path, a.problem, best);
    const EtAnalysis back = analyse_et(e.bytes, path, PoolOptions{});
    ASSERT_EQ(back.tensors.size(), a.tensors.size());
    for (size_t t = 0; t < a.tensors.size(); ++t) {
      EXPECT_EQ(back.tensors[t].offset,
                best.allocations[static_cast<size_t>(a.tensors[t].buffer)].offset + a.tensors[t].delta);
    }
    Plan read = back.as_built;
    finish_plan(back.problem, read);
    EXPECT_FALSE(read.has_errors());
    EXPECT_EQ(read.allocations, best.allocations);
    for (size_t p = 0; p < a.pools.size(); ++p) {
      EXPECT_EQ(back.pools[p].file_size, e.pool_bytes[p]);
      EXPECT_LE(back.pools[p].file_size, a.pools[p].file_size);
    }
    // Everything but the plan is the same program: values, instructions, segments' bytes.
    for (size_t m = 0; m < a.program.methods.size(); ++m) {
      EXPECT_EQ(back.program.methods[m].values.size(), a.program.methods[m].values.size());
      EXPECT_EQ(back.program.methods[m].instructions.size(), a.program.methods[m].instructions.size());
    }
    ASSERT_EQ(back.program.segments.size(), a.program.segments.size());
    if (a.program.header && a.program.header->segment_base_offset != 0) {
      const uint64_t old_base = a.program.header->segment_base_offset;
      const uint64_t new_base = back.program.header->segment_base_offset;
      EXPECT_EQ(new_base % 128, 0u);
      EXPECT_EQ(e.bytes.substr(new_base), bytes.substr(old_base));
      EXPECT_EQ(back.program.header->segment_data_size, a.program.header->segment_data_size);
    }
  }
}

TEST(EtExport, MovesATensorAtOffsetZeroWhichHasNoOffsetField) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/softmax.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  // Value 1 (the output) sits at 0, value 0 (the input) at 32,768: swap them.
  ASSERT_EQ(a.tensors.size(), 2u);
  EXPECT_EQ(a.tensors[0].offset, 32768);
  EXPECT_EQ(a.tensors[1].offset, 0);
  Plan swapped = a.as_built;
  swapped.allocations[0].offset = 0;
  swapped.allocations[1].offset = 32768;
  finish_plan(a.problem, swapped);
  const EtExport e = export_et(a, bytes, path, a.problem, swapped);
  EXPECT_EQ(e.changed_tensors, 2);
  EXPECT_GT(e.bytes.size(), bytes.size());
  const EtAnalysis back = analyse_et(e.bytes, path, PoolOptions{});
  EXPECT_EQ(back.tensors[0].offset, 0);
  EXPECT_EQ(back.tensors[1].offset, 32768);
  EXPECT_EQ(back.program.methods[0].buffer_sizes, (std::vector<int64_t>{0, 65536}));
}

TEST(EtExport, RefusesAPlanOverlappingLiveTensors) {
  USMPX_REQUIRE_SHARED(path, "executorch/models/softmax.pte");
  const std::string bytes = read_et_file(path);
  const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
  Plan overlapping = a.as_built;
  overlapping.allocations[0].offset = 0;  // onto the output, live at the same time
  finish_plan(a.problem, overlapping);
  ASSERT_TRUE(overlapping.has_errors());
  try {
    export_et(a, bytes, path, a.problem, overlapping);
    FAIL() << "an invalid plan was written";
  } catch (const ExportError& err) {
    EXPECT_NE(std::string(err.what()).find("ExecuTorch's runtime would run it unchecked"), std::string::npos)
        << err.what();
  }
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// Bytes a program's buffer holds past its last tensor (XNNPACK programs get 64) stay with the
// buffer: the example's 864-byte buffer declared as 928 keeps 64 bytes after best's 576.
TEST(EtExport, KeepsTheBytesPastTheLastTensor) {
  std::string bytes = testing::example_program_bytes();
  const std::string sizes("\x00\x00\x00\x00\x00\x00\x00\x00\x60\x03\x00\x00\x00\x00\x00\x00", 16);  // [0, 864]
  const size_t at = bytes.find(sizes);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 8] = static_cast<char>(0xa0);  // 928
  const EtAnalysis a = analyse_et(bytes, "tail.pte", PoolOptions{});
  ASSERT_EQ(a.pools.size(), 1u);
  EXPECT_EQ(a.pools[0].file_size, 928);
  EXPECT_EQ(a.pools[0].tail_bytes, 64);
  const Plan best = testing::plan_with("best", a.problem);
  EXPECT_EQ(best.total_size(), 576);
  const EtExport e = export_et(a, bytes, "tail.pte", a.problem, best);
  EXPECT_EQ(e.pool_bytes, std::vector<int64_t>{640});
  ASSERT_EQ(e.notes.size(), 1u);
  EXPECT_EQ(e.notes[0].message, "planned buffer mem1 keeps the 64 bytes the program holds past its last tensor");
  EXPECT_EQ(analyse_et(e.bytes, "copy.pte", PoolOptions{}).program.methods[0].buffer_sizes,
            (std::vector<int64_t>{0, 640}));
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// A plan that moves every tensor (each buffer after the previous one, no reuse) written into
// every program layout: with and without the extended header, constant segment or inline
// constants, four methods; the copy reads back as that plan with the larger buffer.
TEST(EtExport, EveryLayoutTakesAPlanThatMovesEveryTensor) {
  for (const std::string& name : kPrograms) {
    SCOPED_TRACE(name);
    USMPX_REQUIRE_SHARED(path, "executorch/models/" + name + ".pte");
    const std::string bytes = read_et_file(path);
    const EtAnalysis a = analyse_et(bytes, path, PoolOptions{});
    Plan bump;
    bump.algorithm = "bump";
    std::vector<int64_t> top(a.pools.size(), 0);
    for (size_t b = 0; b < a.problem.buffers.size(); ++b) {
      const int pool = a.problem.buffers[b].pool_candidates[0];
      bump.allocations.push_back({pool, top[static_cast<size_t>(pool)]});
      top[static_cast<size_t>(pool)] += a.problem.buffers[b].size_bytes;
    }
    finish_plan(a.problem, bump);
    ASSERT_FALSE(bump.has_errors());
    const EtExport e = export_et(a, bytes, path, a.problem, bump);
    const EtAnalysis back = analyse_et(e.bytes, path, PoolOptions{});
    EXPECT_EQ(back.as_built.allocations, bump.allocations);
    for (size_t p = 0; p < a.pools.size(); ++p)
      EXPECT_EQ(back.pools[p].file_size, top[p]);
    EXPECT_EQ(back.program.header.has_value(), a.program.header.has_value());
    EXPECT_EQ(back.program.constant_buffers, a.program.constant_buffers);
    EXPECT_EQ(back.program.constant_offsets, a.program.constant_offsets);
    EXPECT_EQ(back.program.methods.size(), a.program.methods.size());
    if (a.program.header && a.program.header->segment_base_offset != 0) {  // arduino_kws: 39,216 bytes of weights
      EXPECT_GT(back.program.header->program_size, a.program.header->program_size);
      EXPECT_EQ(e.bytes.substr(back.program.header->segment_base_offset),
                bytes.substr(a.program.header->segment_base_offset));
    }
  }
}

}  // namespace
}  // namespace usmpx
