#include "frontends/tvm/usmp/tir_problem.h"

#include <gtest/gtest.h>

#include "base/config_error.h"
#include "base/input_error.h"
#include "base/text_file.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"
#include "inputs/input_file.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

TirProblem analyze(const std::string& source, const PoolOptions& pools = {}) {
  return analyze_tir_module(read_tvmscript(source, "m.py"), pools);
}

TirProblem testing_analyze_file(const std::string& path) {
  const std::string text = read_text_file(path);
  return analyze_tir_module(looks_like_tvmscript(text) ? read_tvmscript(text, path) : read_legacy_tir(text, path), {});
}

std::string error_of(const std::string& source, const PoolOptions& pools = {}) {
  try {
    analyze(source, pools);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> conflict_names(const Problem& p, const std::string& buffer) {
  std::vector<std::string> names;
  for (int c : p.buffers.at(static_cast<size_t>(*p.find_buffer(buffer))).conflicts) {
    names.push_back(p.buffers[static_cast<size_t>(c)].name);
  }
  return names;
}

// op copies A into B; main runs it twice through sid.
const char* kIoModule = R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (8,), "int8")
        B = T.match_buffer(b, (8,), "int8")
        for i in range(8):
            B[i] = A[i]

    @T.prim_func
    def __tvm_main__(inp: T.handle, out: T.handle):
        inp_buf = T.match_buffer(inp, (8,), "int8")
        out_buf = T.match_buffer(out, (8,), "int8")
        sid = T.allocate([8], "int8", "global")
        T.evaluate(T.call_extern("op", inp_buf.data, sid, dtype="int32"))
        T.evaluate(T.call_extern("op", sid, out_buf.data, dtype="int32"))
)";

TEST(TirProblem, WorkspaceIoPlansInputsAndOutputs) {
  EXPECT_EQ(analyze(kIoModule).problem.buffers.size(), 1u);
  PoolOptions pools;
  pools.use_workspace_io = true;
  const Problem p = analyze(kIoModule, pools).problem;
  // CreateAllocatesForIO wraps main's body, the last parameter outermost.
  ASSERT_EQ(p.buffers.size(), 3u);
  EXPECT_EQ(p.buffers[0].name, "out");
  EXPECT_EQ(p.buffers[0].kind, BufferKind::kOutput);
  EXPECT_EQ(p.buffers[1].name, "inp");
  EXPECT_EQ(p.buffers[1].kind, BufferKind::kInput);
  EXPECT_EQ(p.buffers[2].name, "sid");
  EXPECT_EQ(p.buffers[1].origin.location, (SourceLocation{"m.py", 12, 9}));  // the match_buffer
  EXPECT_EQ(conflict_names(p, "out"), std::vector<std::string>{"sid"});
  EXPECT_EQ(conflict_names(p, "inp"), std::vector<std::string>{"sid"});
  EXPECT_EQ(conflict_names(p, "sid"), (std::vector<std::string>{"inp", "out"}));
  EXPECT_EQ(p.memory_pressure, 16);
}

TEST(TirProblem, WorkspaceIoRejectsWhatTvmRejects) {
  PoolOptions pools;
  pools.use_workspace_io = true;
  const std::string head = R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (8,), "int8")
        B = T.match_buffer(b, (8,), "int8")
)";
  const std::string main = R"(
    @T.prim_func
    def __tvm_main__(inp: T.handle, out: T.handle):
        inp_buf = T.match_buffer(inp, (8,), "int8")
        out_buf = T.match_buffer(out, (8,), "int8")
        T.evaluate(T.call_extern("op", inp_buf.data, out_buf.data, dtype="int32"))
)";
  EXPECT_EQ(error_of(head + "        B[0] = A[0]\n        B[1] = B[0]\n" + main, pools),
            "m.py:8:16: BufferLoad nodes should not be reading from output buffer vars.");
  EXPECT_EQ(error_of(head + "        B[0] = A[0]\n        A[1] = B[1]\n" + main, pools),
            "m.py:8:9: BufferStore nodes should not be writing to input buffer vars.");
  EXPECT_EQ(error_of(head + "        B[0] = T.int8(0)\n" + main, pools),
            "m.py:10:5: Every IO Buffer var should be categorized either to be input or output");
}

TEST(TirProblem, KeepsTheAnalysedModuleAndEachBuffersStatement) {
  TirProblem t;
  {
    const tir::Module read = read_tvmscript(kIoModule, "m.py");
    t = analyze_tir_module(read, {});
  }  // the module that was read is gone; the problem holds its own
  ASSERT_TRUE(t.module);
  ASSERT_EQ(t.statements.size(), 1u);
  const auto* sid = t.statements[0]->as<tir::Allocate>();
  ASSERT_NE(sid, nullptr);
  EXPECT_EQ(sid->var->name, "sid");
  EXPECT_EQ(sid->location, t.problem.buffers[0].origin.location);
  EXPECT_EQ(find_main_function(*t.module).params.size(), 2u);

  // With use_workspace_io the statements are the Allocates CreateAllocatesForIO made, in the
  // rewritten module the problem keeps (main has lost its parameters there).
  PoolOptions io;
  io.use_workspace_io = true;
  const TirProblem w = analyze(kIoModule, io);
  ASSERT_EQ(w.statements.size(), 3u);
  const auto* out = w.statements[0]->as<tir::Allocate>();
  ASSERT_NE(out, nullptr);
  const tir::AttrValue* tensor = tir::find_attr(out->annotations, "output_tensor");
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(tensor->as_string(), "out");
  EXPECT_TRUE(find_main_function(*w.module).params.empty());

  // Constants come from AllocateConst, and in a post-USMP dump every buffer from its let.
  const TirProblem c = testing_analyze_file(testing::fixture_path("tir/constants.py"));
  ASSERT_EQ(c.statements.size(), c.problem.buffers.size());
  for (size_t i = 0; i < c.statements.size(); ++i) {
    const Buffer& b = c.problem.buffers[i];
    const auto* constant = c.statements[i]->as<tir::AllocateConst>();
    EXPECT_EQ(constant != nullptr, b.kind == BufferKind::kConstant) << b.name;
    if (constant) {
      EXPECT_EQ(constant->var->name, b.name);
    }
  }
  const TirProblem post = testing_analyze_file(testing::fixture_path("tir/post_usmp.legacy.txt"));
  ASSERT_EQ(post.statements.size(), 4u);
  for (size_t i = 0; i < post.statements.size(); ++i) {
    const auto* let = post.statements[i]->as<tir::LetStmt>();
    ASSERT_NE(let, nullptr);
    EXPECT_EQ(let->var->name, post.problem.buffers[i].name + "_let");
  }
}

TEST(TirProblem, PostUsmpDumpsCarryTheirPlan) {
  // The planned example is the KWS model after greedy_by_size into dtcm (16 KiB) and sram.
  const LoadedInput planned = load_input(testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"));
  ASSERT_TRUE(planned.as_built);
  const Problem& p = planned.problem;
  ASSERT_EQ(p.pools.size(), 2u);
  EXPECT_EQ(p.pools[0].name, "dtcm");
  EXPECT_EQ(p.pools[1].name, "sram");
  EXPECT_EQ(p.buffers.size(), 15u);
  const Plan& plan = *planned.as_built;
  EXPECT_EQ(plan.pool_sizes, (std::vector<int64_t>{12352, 8000}));
  const auto at = [&](const std::string& name) {
    const Allocation& a = plan.allocations.at(static_cast<size_t>(*p.find_buffer(name)));
    return p.pools.at(static_cast<size_t>(a.pool)).name + "@" + std::to_string(a.offset);
  };
  EXPECT_EQ(at("sid_1"), "sram@0");
  EXPECT_EQ(at("sid_2"), "sram@0");
  EXPECT_EQ(at("sid_4"), "dtcm@8256");
  EXPECT_EQ(at("PaddedInput"), "dtcm@0");
  EXPECT_EQ(at("PaddedInput2"), "dtcm@0");
  EXPECT_EQ(at("DepthwiseConv2d"), "dtcm@12096");
  EXPECT_EQ(at("T_softmax_maxelem"), "dtcm@8384");
  EXPECT_EQ(p.buffers[static_cast<size_t>(*p.find_buffer("PaddedInput2"))].size_bytes, 12096);

  // Reading the lets back gives USMP's problem: the same as the dump before USMP with the same
  // pools, so greedy_by_size reproduces the as-built offsets.
  PoolOptions pools;
  pools.workspace_pools = {"dtcm", "sram"};
  const LoadedInput before =
      load_input(testing::source_path("resources/examples/kws_dscnn.tvmscript.py"), LoadOptions{pools, ""});
  ASSERT_EQ(before.problem.buffers.size(), p.buffers.size());
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    EXPECT_EQ(before.problem.buffers[b].name, p.buffers[b].name);
    EXPECT_EQ(before.problem.buffers[b].size_bytes, p.buffers[b].size_bytes);
    EXPECT_EQ(before.problem.buffers[b].conflicts, p.buffers[b].conflicts) << p.buffers[b].name;
  }
  EXPECT_EQ(before.problem.memory_pressure, p.memory_pressure);
  PoolOptions hint;
  hint.workspace_size_hints = {{"dtcm", 16384}};
  const LoadedInput with_hint =
      load_input(testing::source_path("resources/examples/kws_dscnn.planned.tvmscript.py"), LoadOptions{hint, ""});
  const Plan replanned = testing::plan_with("greedy_by_size", with_hint.problem);
  EXPECT_EQ(replanned.allocations, plan.allocations);
}

TEST(TirProblem, PostUsmpLegacyDump) {
  const LoadedInput in = load_input(testing::fixture_path("tir/post_usmp.legacy.txt"));
  ASSERT_TRUE(in.as_built);
  const Problem& p = in.problem;
  ASSERT_EQ(p.buffers.size(), 4u);
  std::vector<std::string> placed;
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Allocation& a = in.as_built->allocations[b];
    placed.push_back(p.buffers[b].name + ":" + std::to_string(p.buffers[b].size_bytes) + ":" +
                     p.pools[static_cast<size_t>(a.pool)].name + "@" + std::to_string(a.offset));
  }
  EXPECT_EQ(placed,
            (std::vector<std::string>{"sid_1:64:sram@0", "sid_2:64:dtcm@0", "sid_3:64:sram@64", "acc:32:dtcm@64"}));
  EXPECT_EQ(in.as_built->pool_sizes, (std::vector<int64_t>{96, 128}));
  Plan plan = *in.as_built;
  finish_plan(p, plan);
  EXPECT_FALSE(plan.has_errors());
}

TEST(TirProblem, PostUsmpLetsWithoutAViewAreReported) {
  const TirProblem t = analyze(R"(@T.prim_func
def __tvm_main__(sram_0_var: T.handle("uint8")):
    sram_0_buffer_var = T.match_buffer(sram_0_var, (64,), "uint8")
    a_let: T.handle("int8") = T.address_of(sram_0_buffer_var[16])
    A = T.Buffer((16,), "int8", data=a_let)
    b_let: T.handle("int8") = T.address_of(sram_0_buffer_var[32])
    A[0] = T.int8(1)
)");
  ASSERT_EQ(t.problem.buffers.size(), 1u);
  EXPECT_EQ(t.problem.buffers[0].name, "a");
  EXPECT_EQ(t.problem.buffers[0].size_bytes, 16);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0].message, "no buffer views 'b_let', so its size is unknown; it is left out");
  EXPECT_EQ(t.warnings[0].location, (SourceLocation{"m.py", 6, 5}));
  ASSERT_TRUE(t.as_built);
  EXPECT_EQ(t.as_built->allocations[0].offset, 16);
}

TEST(TirProblem, MergeAllocationsAsInTvmsConvertOffsetsTest) {
  const LoadedInput in = load_input(testing::fixture_path("tir/merge_allocations.py"));
  const Plan plan = testing::plan_with("greedy_by_size", in.problem);
  EXPECT_EQ(testing::offset_of(in.problem, plan, "C"), 0);
  EXPECT_EQ(testing::offset_of(in.problem, plan, "B"), 256);
  EXPECT_EQ(testing::pool_of(in.problem, plan, "B"), "global_workspace");
  EXPECT_EQ(plan.pool_sizes[0], 512);
}

const char* kTwoTargets = R"(@I.ir_module
class Module:
    @T.prim_func
    def accel_op(a: T.handle):
        T.func_attr({"target": T.target({"kind": "ethos-u", "keys": ["npu"]})})
        A = T.match_buffer(a, (4,), "int8")
        scratch = T.decl_buffer((32,), "int8")
        scratch[0] = A[0]

    @T.prim_func
    def __tvm_main__():
        T.func_attr({"runner_function": T.bool(True), "target": "c -keys=arm_cpu,cpu -mcpu=cortex-m55"})
        x = T.allocate([4], "int8", "global")
        T.evaluate(T.call_extern("accel_op", x, dtype="int32"))
)";

TEST(TirProblem, CandidatePoolsFollowEachFunctionsTarget) {
  PoolOptions pools;
  pools.workspace_pools = {"sram", "npu_sram"};
  pools.workspace_targets = {{"sram", "c"}, {"npu_sram", "ethos-u"}, {"sram", "ethos-u"}};
  const Problem p = analyze(kTwoTargets, pools).problem;
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0].name, "x");
  EXPECT_EQ(p.buffers[0].pool_candidates, std::vector<int>{0});
  EXPECT_EQ(p.buffers[1].name, "scratch");
  EXPECT_EQ(p.buffers[1].pool_candidates, (std::vector<int>{0, 1}));

  pools.workspace_targets = {{"sram", "c"}, {"npu_sram", "c"}};
  EXPECT_EQ(error_of(kTwoTargets, pools),
            "function 'accel_op' (target 'ethos-u'): no workspace pool serves this target");
}

TEST(TirProblem, ExecutorAlignmentsApply) {
  const Problem p = analyze(R"(@I.ir_module
class Module:
    I.module_attrs({"executor": {"kind": "aot", "workspace-byte-alignment": 8, "constant-byte-alignment": 4}})
    @T.prim_func
    def __tvm_main__():
        x = T.allocate([3], "int8", "global")
        c = T.allocate_const([1, 2], "int8", [2])
        X = T.Buffer((3,), "int8", data=x)
        X[0] = T.int8(0)
)")
                        .problem;
  ASSERT_EQ(p.buffers.size(), 2u);
  EXPECT_EQ(p.buffers[0].alignment, 8);
  EXPECT_EQ(p.buffers[1].alignment, 4);
}

TEST(TirProblem, TheEntryFunction) {
  EXPECT_EQ(error_of("@T.prim_func\ndef a():\n    T.evaluate(0)\n@T.prim_func\ndef b():\n    T.evaluate(0)\n"),
            "m.py:2:1: no main function: expected a PrimFunc named __tvm_main__ or with \"runner_function\": True");
  EXPECT_EQ(error_of("@T.prim_func\ndef a():\n    T.func_attr({\"runner_function\": True})\n@T.prim_func\ndef b():\n"
                     "    T.func_attr({\"runner_function\": True})\n"),
            "m.py:5:1: several functions are marked \"runner_function\": 'a' and 'b'");
  const TirProblem single =
      analyze("@T.prim_func\ndef only():\n    x = T.allocate([2], \"int8\", \"global\")\n    T.evaluate(0)\n");
  ASSERT_EQ(single.warnings.size(), 1u);
  EXPECT_EQ(single.warnings[0].message, "no __tvm_main__ or runner function: analysing 'only' as the entry");
  EXPECT_EQ(single.problem.buffers.size(), 1u);
}

TEST(TirProblem, CallsItCannotFollow) {
  const std::string op = R"(@I.ir_module
class Module:
    @T.prim_func
    def op(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (4,), "int8")
        B = T.match_buffer(b, (4,), "int8")
        T.evaluate(T.call_extern("op", A.data, B.data, dtype="int32"))
    @T.prim_func
    def __tvm_main__():
        x = T.allocate([4], "int8", "global")
)";
  EXPECT_EQ(error_of(op + "        T.evaluate(T.call_extern(\"op\", x, x, dtype=\"int32\"))\n"),
            "m.py:7:20: recursive call to 'op'");
  EXPECT_EQ(error_of(op + "        T.evaluate(T.call_extern(\"op\", x, dtype=\"int32\"))\n"),
            "m.py:11:20: call to 'op' passes 1 arguments for 2 buffer parameters");
}

TEST(TirProblem, ThousandsOfAllocationsInMain) {
  // Each allocate encloses the rest of main; the analysis follows the chain without recursion.
  std::string source = "@T.prim_func\ndef __tvm_main__():\n";
  for (int i = 0; i < 3000; ++i)
    source += "    x" + std::to_string(i) + " = T.allocate([16], \"int8\", \"global\")\n";
  for (int i = 0; i < 3000; ++i) {
    source += "    X" + std::to_string(i) + " = T.Buffer((16,), \"int8\", data=x" + std::to_string(i) + ")\n";
  }
  for (int i = 0; i < 2999; ++i) {
    source += "    X" + std::to_string(i + 1) + "[0] = X" + std::to_string(i) + "[0]\n";
  }
  const Problem p = analyze(source).problem;
  ASSERT_EQ(p.buffers.size(), 3000u);
  // The first allocate is tick 1 and store k (X_k = X_{k-1}) tick k + 1, so x_i is written at
  // tick i + 1 and read at tick i + 2: neighbours share a tick and conflict.
  EXPECT_EQ(conflict_names(p, "x1"), (std::vector<std::string>{"x0", "x2"}));
  EXPECT_EQ(p.buffers[1].lifetime->first(), 2);
  EXPECT_EQ(p.buffers[1].lifetime->last(), 3);
  EXPECT_EQ(p.memory_pressure, 32);
}

}  // namespace
}  // namespace usmpx
