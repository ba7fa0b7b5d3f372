#include "frontends/tvm/c_analysis/liveness_walk.h"

#include <algorithm>
#include <memory>

#include <gtest/gtest.h>

#include "frontends/tvm/c_analysis/clang_reader.h"

namespace usmpx {
namespace {

struct Walked {
  std::string text;
  CProgram program;
  TvmCode code;
  WalkResult walk;

  int buffer(const std::string& name) const {
    for (size_t i = 0; i < walk.buffers.size(); ++i) {
      if (walk.buffers[i].name == name) return static_cast<int>(i);
    }
    ADD_FAILURE() << "no buffer " << name;
    return -1;
  }
  std::vector<std::pair<int64_t, int64_t>> intervals(const std::string& name) const {
    std::vector<std::pair<int64_t, int64_t>> out;
    const int b = buffer(name);
    for (const AccessInterval& i : walk.intervals) {
      if (i.buffer == b) out.emplace_back(i.first, i.last);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::unique_ptr<Walked> walk_source(const std::string& text, const WalkOptions& options = {}) {
  auto w = std::make_unique<Walked>();
  w->text = "#include \"tvm/runtime/c_runtime_api.h\"\n#include \"tvm/runtime/c_backend_api.h\"\n" + text;
  CParseInput input;
  input.display_root = "m";
  input.sources.push_back({"codegen/host/src/default_lib1.c", w->text});
  w->program = parse_c_program(input);
  EXPECT_TRUE(w->program.diagnostics.empty()) << w->program.diagnostics.front().message;
  w->code = recognise_tvm_code(w->program, "default", "m");
  w->walk = walk_entry(w->program, w->code, options, "m");
  return w;
}

// Ticks, counted by hand (one per statement, compound statements included; the null check and
// the free that TVMBackendAllocWorkspace brings are not statements of USMP's TIR and not counted):
//   1 main body, 2 decl sid_1, 3 if(fill), 4 fill body, 5 for i, 6 loop body, 7 out[i] = ... (sid_1),
//   8 return 0, 9 return -1 (the check's branch), 10 if(op #1), 11 op body, 12 decl tmp, 13 for i,
//   14 body, 15 tmp[i] = p0[i] (tmp, sid_1), 16 for j, 17 body, 18 out[j] = tmp[j] (tmp), 19 return 0,
//   20 return -1, 21 if(op #2), 22 body, 23 decl tmp, 24 for i, 25 body, 26 (tmp, sid_1), 27 for j,
//   28 body, 29 (tmp), 30 return 0, 31 return -1, 32 return 0.
// Loop extension: sid_1's access at 7 starts at its loop (5); tmp's per-call intervals are [13, 18]
// and [24, 29]; sid_1 (allocated in main) has one interval, to its last access at 26.
const char* kTwoCalls = R"(
TVM_DLL int32_t tvmgen_default_fill(int8_t* out) {
  for (int32_t i = 0; i < 4; ++i) {
    out[i] = (int8_t)i;
  }
  return 0;
}
TVM_DLL int32_t tvmgen_default_op(int8_t* p0, int8_t* out) {
  void* tmp = TVMBackendAllocWorkspace(1, 0, (uint64_t)16, 0, 32);
  if (tmp == NULL) {
    return -1;
  }
  for (int32_t i = 0; i < 4; ++i) {
    ((int32_t*)tmp)[i] = (int32_t)p0[i];
  }
  for (int32_t j = 0; j < 4; ++j) {
    out[j] = (int8_t)((int32_t*)tmp)[j];
  }
  if (TVMBackendFreeWorkspace(1, 0, tmp) != 0) {
    return -1;
  }
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, int8_t* output_buffer_var) {
  void* sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 8);
  if (sid_1 == NULL) {
    return -1;
  }
  if (tvmgen_default_fill(sid_1) != 0 ) return -1;
  if (tvmgen_default_op(sid_1, output_buffer_var) != 0 ) return -1;
  if (tvmgen_default_op(sid_1, output_buffer_var) != 0 ) return -1;
  if (TVMBackendFreeWorkspace(1, 0, sid_1) != 0) {
    return -1;
  }
  return 0;
}
)";

TEST(LivenessWalk, TicksLoopExtensionAndPerCallIntervals) {
  const auto w = walk_source(kTwoCalls);
  ASSERT_EQ(w->walk.buffers.size(), 2u);
  EXPECT_EQ(w->walk.buffers[0].name, "sid_1");
  EXPECT_EQ(w->walk.buffers[1].name, "tmp");
  EXPECT_EQ(w->program.functions[static_cast<size_t>(w->walk.buffers[1].function)].name, "tvmgen_default_op");
  EXPECT_EQ(w->intervals("sid_1"), (std::vector<std::pair<int64_t, int64_t>>{{5, 26}}));
  EXPECT_EQ(w->intervals("tmp"), (std::vector<std::pair<int64_t, int64_t>>{{13, 18}, {24, 29}}));
  EXPECT_EQ(w->walk.ticks, 32);
  ASSERT_EQ(w->code.calls.size(), 3u);
  EXPECT_EQ(w->code.calls[1].callee, "tvmgen_default_op");
  EXPECT_EQ(w->code.calls[1].form, EntryCallForm::kChecked);

  const LivenessResult live = sweep_liveness({4, 16}, {false, false}, w->walk.intervals);
  EXPECT_EQ(live.conflicts[0], (std::vector<int>{1, 1})) << "tmp starts twice while sid_1 is open";
  EXPECT_EQ(live.conflicts[1], (std::vector<int>{0, 0}));
  EXPECT_EQ(live.memory_pressure, 20);
}

TEST(LivenessWalk, SizesFromIndexedAccesses) {
  const auto w = walk_source(kTwoCalls);
  const BufferAccesses& tmp = w->walk.buffers[1].accesses;
  EXPECT_EQ(tmp.store_bytes, 16);
  EXPECT_EQ(tmp.load_bytes, 16);
  EXPECT_EQ(tmp.element_bytes, 4);
  EXPECT_EQ(tmp.element_type, "int32_t");
  EXPECT_TRUE(tmp.stored);
  const BufferAccesses& sid = w->walk.buffers[0].accesses;
  EXPECT_EQ(sid.store_bytes, 4);
  EXPECT_EQ(sid.load_bytes, 4);
}

// An alias survives a later call that passes something else in that position (TVM's
// UpdateAliases never clears): the second fill writes the output, yet counts as sid_1.
TEST(LivenessWalk, AliasesAreNeverCleared) {
  const auto w = walk_source(R"(
TVM_DLL int32_t tvmgen_default_fill(int8_t* out) {
  out[0] = 1;
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, int8_t* output_buffer_var) {
  void* sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 8);
  (void)tvmgen_default_fill(sid_1);
  (void)tvmgen_default_fill(output_buffer_var);
  return 0;
}
)");
  // 1 main, 2 decl, 3 stmt, 4 fill body, 5 out[0] (sid_1), 6 return, 7 stmt, 8 body, 9 out[0], 10 return, 11 return
  EXPECT_EQ(w->intervals("sid_1"), (std::vector<std::pair<int64_t, int64_t>>{{5, 9}}));
  EXPECT_EQ(w->code.calls[0].form, EntryCallForm::kVoid);
}

// Nested loops: a nested scope starts with a copy of its parent's accessed set, but what it adds
// is not propagated back, so B (accessed only in the inner loop) ends with the inner loop while
// A and C are extended to the outer loop's end.
TEST(LivenessWalk, NestedLoopScopesCopyDownNotUp) {
  const auto w = walk_source(R"(
TVM_DLL int32_t tvmgen_default_op(int8_t* a, int8_t* b, int8_t* c) {
  for (int32_t i = 0; i < 2; ++i) {
    a[i] = 0;
    for (int32_t j = 0; j < 2; ++j) {
      b[((i * 2) + j)] = a[i];
    }
    c[i] = 1;
  }
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, int8_t* output_buffer_var) {
  void* A = TVMBackendAllocWorkspace(1, 0, (uint64_t)2, 0, 8);
  void* B = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 8);
  void* C = TVMBackendAllocWorkspace(1, 0, (uint64_t)2, 0, 8);
  (void)tvmgen_default_op(A, B, C);
  return 0;
}
)");
  // 1 main, 2-4 decls, 5 call stmt, 6 op body, 7 for i, 8 body, 9 a[i] (A), 10 for j, 11 body,
  // 12 b[..] = a[i] (B, A); leave j: A, B -> [7, 12]; 13 c[i] (C); leave i: A, C -> [7, 13]; 14 return.
  EXPECT_EQ(w->intervals("A"), (std::vector<std::pair<int64_t, int64_t>>{{7, 13}}));
  EXPECT_EQ(w->intervals("B"), (std::vector<std::pair<int64_t, int64_t>>{{7, 12}}));
  EXPECT_EQ(w->intervals("C"), (std::vector<std::pair<int64_t, int64_t>>{{7, 13}}));
  EXPECT_EQ(w->walk.buffers[1].accesses.store_bytes, 4) << "(i * 2) + j over i, j in [0, 1]";
}

TEST(LivenessWalk, UniqueNamesAndIoBuffers) {
  WalkOptions options;
  options.io_names = {"input", "output"};
  const auto w = walk_source(R"(
TVM_DLL int32_t tvmgen_default_a(int8_t* p0, int8_t* out) {
  void* dense = TVMBackendAllocWorkspace(1, 0, (uint64_t)8, 0, 8);
  for (int32_t i = 0; i < 8; ++i) {
    ((int8_t*)dense)[i] = p0[i];
  }
  out[0] = ((int8_t*)dense)[7];
  return 0;
}
TVM_DLL int32_t tvmgen_default_b(int8_t* p0, int8_t* out) {
  void* dense = TVMBackendAllocWorkspace(1, 0, (uint64_t)8, 0, 8);
  ((int8_t*)dense)[0] = p0[0];
  out[0] = ((int8_t*)dense)[0];
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, int8_t* output_buffer_var) {
  void* sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)1, 0, 8);
  (void)tvmgen_default_a(input_buffer_var, sid_1);
  (void)tvmgen_default_b(sid_1, output_buffer_var);
  (void)tvmgen_default_a(input_buffer_var, sid_1);
  return 0;
}
)",
                             options);
  std::vector<std::string> names;
  for (const WalkBuffer& b : w->walk.buffers)
    names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"input", "output", "sid_1", "dense", "dense2"}));
  EXPECT_EQ(w->walk.buffers[0].accesses.load_bytes, 8);
  EXPECT_FALSE(w->walk.buffers[0].accesses.stored);
  EXPECT_TRUE(w->walk.buffers[1].accesses.stored);
  EXPECT_EQ(w->walk.buffers[0].source, WalkBufferSource::kIo);
  EXPECT_EQ(w->intervals("dense").size(), 2u) << "a called twice";
}

// Older codegen declares first and assigns the allocation later; both forms make a buffer.
TEST(LivenessWalk, AllocationAssignedAfterItsDeclaration) {
  const auto w = walk_source(R"(
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input_buffer_var, int8_t* output_buffer_var) {
  void* sid_1;
  sid_1 = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 8);
  if (sid_1 == NULL) {
    return -1;
  }
  ((int8_t*)sid_1)[3] = input_buffer_var[0];
  output_buffer_var[0] = ((int8_t*)sid_1)[3];
  return 0;
}
)");
  ASSERT_EQ(w->walk.buffers.size(), 1u);
  EXPECT_EQ(w->walk.buffers[0].name, "sid_1");
  EXPECT_EQ(w->code.allocs[0].nbytes, 4);
  EXPECT_TRUE(w->code.allocs[0].null_check.valid());
  // 1 body, 2 decl, 3 assignment, 4 store, 5 load, 6 return
  EXPECT_EQ(w->intervals("sid_1"), (std::vector<std::pair<int64_t, int64_t>>{{4, 5}}));
  EXPECT_EQ(w->walk.buffers[0].accesses.store_bytes, 4);
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// USMP off: a function of the module called inside a loop runs once per iteration, so what it
// touches stays live across the whole loop: `acc`, accumulated by one callee, and `tmp`, set by
// another, conflict (each was touched at one tick of its own before, and they shared bytes).
TEST(LivenessWalk, UsmpOffCalleeInsideALoopKeepsWhatItTouchesAcrossTheLoop) {
  const auto w = walk_source(R"(
TVM_DLL int32_t tvmgen_default_add_one(int32_t* acc, int32_t i) {
  acc[0] = (acc[0] + i);
  return 0;
}
TVM_DLL int32_t tvmgen_default_set(int32_t* tmp, int32_t i) {
  tmp[0] = i;
  return 0;
}
TVM_DLL int32_t tvmgen_default_op(int8_t* p0, int8_t* out) {
  void* acc = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 32);
  void* tmp = TVMBackendAllocWorkspace(1, 0, (uint64_t)4, 0, 32);
  for (int32_t i = 0; i < 4; ++i) {
    (void)tvmgen_default_add_one((int32_t*)acc, i);
    (void)tvmgen_default_set((int32_t*)tmp, i);
  }
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input, int8_t* output) {
  if (tvmgen_default_op(input, output) != 0 ) return -1;
  return 0;
}
)");
  const auto acc = w->intervals("acc");
  const auto tmp = w->intervals("tmp");
  ASSERT_EQ(acc.size(), 1u);
  ASSERT_EQ(tmp.size(), 1u);
  EXPECT_EQ(acc[0], tmp[0]);  // both the whole loop
  EXPECT_LT(acc[0].first, acc[0].second);
}

// A pointer local copied from a workspace is that workspace: the function it is handed to
// accesses it (lifetime and size), and an address stored in a file-scope variable escapes.
TEST(LivenessWalk, UsmpOffLocalPointerCopiesAliasAndFileScopeStoresEscape) {
  const auto w = walk_source(R"(
static void* tvmgen_default_saved;
TVM_DLL int32_t tvmgen_default_read(int8_t* padded, int8_t* out) {
  for (int32_t i = 0; i < 12; ++i) {
    out[i] = padded[i + 2];
  }
  return 0;
}
TVM_DLL int32_t tvmgen_default_op(int8_t* p0, int8_t* out) {
  void* padded_data = TVMBackendAllocWorkspace(1, 0, (uint64_t)16, 0, 8);
  void* keep = TVMBackendAllocWorkspace(1, 0, (uint64_t)16, 0, 8);
  for (int32_t i = 0; i < 16; ++i) {
    ((int8_t*)padded_data)[i] = p0[i];
  }
  tvmgen_default_saved = keep;
  int8_t* padded_data_ptr = (int8_t*)padded_data;
  if (tvmgen_default_read(padded_data_ptr, out) != 0 ) return -1;
  return 0;
}
TVM_DLL int32_t tvmgen_default___tvm_main__(int8_t* input, int8_t* output) {
  if (tvmgen_default_op(input, output) != 0 ) return -1;
  return 0;
}
)");
  const int padded = w->buffer("padded_data");
  ASSERT_GE(padded, 0);
  // Read in tvmgen_default_read: the interval reaches into the callee, and padded[13] counts.
  const auto in_op = w->intervals("padded_data");
  ASSERT_EQ(in_op.size(), 1u);
  // Ticks: 6 the fill loop, 8 its store, 9 the escape, 10 the copy, 11 the call, 12 the callee's
  // body, 13 its loop, 15 `out[i] = padded[i + 2]`: before, the walk ended padded_data at the fill (8).
  EXPECT_EQ(in_op[0], std::make_pair(int64_t{6}, int64_t{15}));
  EXPECT_EQ(w->walk.buffers[static_cast<size_t>(padded)].accesses.load_bytes, 14);
  // `keep` is stored in a file-scope variable: kept with the allocator, not planned.
  ASSERT_EQ(w->walk.kept.size(), 1u);
  EXPECT_EQ(w->walk.kept[0].name, "keep");
  EXPECT_EQ(w->walk.buffers.size(), 1u);
}

}  // namespace
}  // namespace usmpx
