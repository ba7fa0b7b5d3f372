// Several real TFLite models in one firmware: the joint problem under each schedule, the joint
// plan's validity, the models written back reading back as the joint plan.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "export/selftest.h"
#include "frontends/tflite/tflite_firmware.h"
#include "frontends/tflite/tflite_problem.h"
#include "inputs/firmware/firmware_file.h"
#include "inputs/firmware/firmware_input.h"
#include "inputs/input_file.h"
#include "model/conflict_graph.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "report/html_report.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

// A firmware file in a fresh folder naming shared models by absolute path.
std::string firmware_file(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx_firmware_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / (name + ".usmpx-firmware.json")).string();
  write_file_atomically(path, R"({"format": "usmpx-firmware", "version": 1, )" + body + "}");
  return path;
}

std::string model(const std::string& name, const std::string& file) {
  return R"({"name": ")" + name + R"(", "path": ")" + testing::shared_path("tflite/models/" + file + ".tflite") +
         R"("})";
}

// The TFLM arena of a firmware's runtime pool `a`.
const TflmArena& tflm_arena(const FirmwareInput& fw, size_t a) {
  return dynamic_cast<const TflmArena&>(*fw.arenas.at(a).arena);
}

bool conflict(const Problem& p, const std::string& a, const std::string& b) {
  const ConflictLists lists = symmetric_conflicts(p);
  const int ia = *p.find_buffer(a);
  const int ib = *p.find_buffer(b);
  const auto& l = lists[static_cast<size_t>(ia)];
  return std::find(l.begin(), l.end(), ib) != l.end();
}

bool no_errors(const Problem& problem, const Plan& plan) {
  for (const Diagnostic& d : validate(problem, plan))
    if (d.severity == Severity::kError) return false;
  return true;
}

// hello_world's output [1, 1] int8 is its own input's shape: sin(sin(x)) with one tensor passed.
const char* const kChain = R"("schedule": "sequence", "models": [%A%, %B%],
  "passed": [{"from": "first", "output": "Identity_int8", "to": "second", "input": "serving_default_dense_2_input:0_int8"}],
  "memory": {"shared": [{"name": "arena"}]})";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST(FirmwareJoint, SequenceSharesTheArenaAndPassesOneBuffer) {
  USMPX_REQUIRE_SHARED(hello, "tflite/models/hello_world_int8.tflite");
  const LoadedInput alone = load_input(hello);
  std::string body =
      replace(replace(kChain, "%A%", model("first", "hello_world_int8")), "%B%", model("second", "hello_world_int8"));
  // The buffer names of hello_world's input and output.
  std::string in_name, out_name;
  for (const Buffer& b : alone.problem.buffers) {
    if (b.kind == BufferKind::kInput) in_name = b.name;
    if (b.kind == BufferKind::kOutput) out_name = b.name;
  }
  ASSERT_FALSE(in_name.empty());
  ASSERT_FALSE(out_name.empty());
  body = replace(replace(body, "Identity_int8", out_name), "serving_default_dense_2_input:0_int8", in_name);
  const FirmwareInput fw = load_firmware(firmware_file("chain", body), LoadOptions{});
  const Problem& p = fw.joint.problem;
  ASSERT_EQ(p.pools.size(), 1u);
  EXPECT_EQ(p.pools[0].name, "arena");
  // One buffer fewer than both models: the passed tensor is one.
  EXPECT_EQ(p.buffers.size(), 2 * alone.problem.buffers.size() - 1);
  const std::string passed = "first/" + out_name + "=second/" + in_name;
  ASSERT_TRUE(p.find_buffer(passed));
  // Across models nothing conflicts but the passed tensor, which conflicts with what both use around it.
  EXPECT_FALSE(conflict(p, "first/" + in_name, "second/" + out_name));
  // It conflicts with whatever the producer holds after writing it and the consumer holds with it.
  int inherited = 0;
  for (const Buffer& b : alone.problem.buffers) {
    if (b.name != in_name && conflict(alone.problem, in_name, b.name)) {
      EXPECT_TRUE(conflict(p, passed, "second/" + b.name)) << b.name;
      ++inherited;
    }
    if (b.name != out_name && conflict(alone.problem, out_name, b.name)) {
      EXPECT_TRUE(conflict(p, passed, "first/" + b.name)) << b.name;
      ++inherited;
    }
  }
  EXPECT_GE(inherited, 2);
  // Timelines one after the other.
  EXPECT_LT(fw.joint.span[0].second, fw.joint.span[1].first);
  // The explorer's view of the models: the passed tensor drawn as its producer's, once.
  const LoadedInput loaded = load_input(firmware_file("chain_spans", body));
  const std::vector<ModelSpan> spans = loaded.details->models();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].buffers.size() + spans[1].buffers.size(), p.buffers.size());
  const int joint_passed = *loaded.problem.find_buffer(passed);
  EXPECT_EQ(std::count(spans[0].buffers.begin(), spans[0].buffers.end(), joint_passed), 1);
  EXPECT_EQ(std::count(spans[1].buffers.begin(), spans[1].buffers.end(), joint_passed), 0);
  EXPECT_EQ(spans[0].last_tick, fw.joint.span[0].second);
  EXPECT_EQ(spans[1].first_tick, fw.joint.span[1].first);

  for (const char* algorithm : {"greedy_by_size", "tflm_greedy", "best_fit_size"}) {
    SCOPED_TRACE(algorithm);
    const Plan plan = testing::plan_with(algorithm, p);
    EXPECT_TRUE(no_errors(p, plan));
    // The passed tensor is where both models use it.
    const Plan a = model_plan(fw.joint, 0, fw.models[0]->problem, plan);
    const Plan b = model_plan(fw.joint, 1, fw.models[1]->problem, plan);
    EXPECT_EQ(testing::offset_of(fw.models[0]->problem, a, out_name),
              testing::offset_of(fw.models[1]->problem, b, in_name));
    EXPECT_TRUE(no_errors(fw.models[0]->problem, a));
    EXPECT_TRUE(no_errors(fw.models[1]->problem, b));
  }
  // Each model's own plan together is what TFLM does today: its two copies of the tensor disagree
  // only if TFLM put them at different offsets; the plan still says so instead of hiding it.
  const Plan own = combined_own_plans(fw);
  EXPECT_EQ(own.allocations.size(), p.buffers.size());
}

TEST(FirmwareJoint, ConcurrentModelsNeverShareAndTflmArenasMustBeTheirOwn) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string models =
      "\"models\": [" + model("kws", "kws_ref_model") + ", " + model("wand", "arduino_magic_wand") + "]";
  // One MicroAllocator cannot serve interpreters running at once: refused with the file's position.
  EXPECT_THROW(
      load_firmware(firmware_file("concurrent_shared", "\"schedule\": \"concurrent\", " + models +
                                                           ", \"memory\": {\"shared\": [{\"name\": \"arena\"}]}"),
                    LoadOptions{}),
      InputError);
  // Each its own arena: two pools, planned apart.
  const FirmwareInput fw =
      load_firmware(firmware_file("concurrent", "\"schedule\": \"concurrent\", " + models), LoadOptions{});
  ASSERT_EQ(fw.joint.problem.pools.size(), 2u);
  EXPECT_EQ(fw.joint.problem.pools[0].name, "kws/arena");
  EXPECT_EQ(fw.arenas.size(), 2u);
  const Plan plan = testing::plan_with("greedy_by_size", fw.joint.problem);
  EXPECT_TRUE(no_errors(fw.joint.problem, plan));
  // Concurrent timelines start together.
  EXPECT_EQ(fw.joint.span[0].first, fw.joint.span[1].first);
}

TEST(FirmwareJoint, ExclusiveAndSequenceShareOneArenaAtTheLargestHead) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string models =
      "\"models\": [" + model("kws", "kws_ref_model") + ", " + model("wand", "arduino_magic_wand") + "]";
  for (const char* schedule : {"exclusive", "sequence"}) {
    SCOPED_TRACE(schedule);
    const FirmwareInput fw = load_firmware(
        firmware_file(std::string("shared_") + schedule, "\"schedule\": \"" + std::string(schedule) + "\", " + models +
                                                             ", \"memory\": {\"shared\": [{\"name\": \"arena\"}]}"),
        LoadOptions{});
    ASSERT_EQ(fw.arenas.size(), 1u);
    const TflmSharedArena& own = tflm_arena(fw, 0).own();
    EXPECT_EQ(own.head, 16000);  // kws's head; the wand's is 7,168
    // TFLM: 24,644 bytes in this order (reference kernels, Cortex-M4).
    EXPECT_EQ(own.arena, 24644);
    // Each model's own plan, put together, is valid: one model runs at a time.
    const Plan combined = combined_own_plans(fw);
    EXPECT_TRUE(no_errors(fw.joint.problem, combined));
    EXPECT_EQ(combined.pool_sizes[0], 16000);
    const TflmSharedArena now = tflm_arena(fw, 0).figures(fw.parts(fw.arenas[0], combined));
    EXPECT_EQ(now.arena, own.arena);
  }
}

TEST(FirmwareJoint, DeclaredArenaTooSmallDoesNotFit) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string body = "\"models\": [" + model("kws", "kws_ref_model") + ", " +
                           model("wand", "arduino_magic_wand") +
                           "], \"memory\": {\"shared\": [{\"name\": \"arena\", \"size_bytes\": 20000}]}";
  const FirmwareInput fw = load_firmware(firmware_file("small", body), LoadOptions{});
  // 20,000 bytes leave 20,000 - (24,644 - 16,000) for the head: less than kws's 16,000.
  EXPECT_EQ(fw.joint.problem.pools[0].size_hint_bytes, 20000 - (tflm_arena(fw, 0).own().arena - 16000));
  const Plan combined = combined_own_plans(fw);
  EXPECT_FALSE(plan_fits(fw.joint.problem, combined));
}

TEST(FirmwareJoint, WrittenBackModelsReadBackAsTheJointPlan) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string body = "\"models\": [" + model("kws", "kws_ref_model") + ", " +
                           model("wand", "arduino_magic_wand") + "], \"memory\": {\"shared\": [{\"name\": \"arena\"}]}";
  const std::string path = firmware_file("export", body);
  const LoadedInput input = load_input(path);
  EXPECT_EQ(input.format, InputFormat::kFirmware);
  ASSERT_TRUE(input.exporter);
  const Plan plan = testing::plan_with("greedy_by_size", input.problem);
  ASSERT_TRUE(no_errors(input.problem, plan));
  const ExportBundle bundle = input.exporter->export_plan(input.problem, plan, ExportOptions{});
  ASSERT_TRUE(bundle.find("usmpx_firmware.h"));
  EXPECT_NE(bundle.find("usmpx_firmware.h")->data.find("#define USMPX_ARENA_SIZE "), std::string::npos);
  EXPECT_NE(bundle.find("usmpx_firmware.h")->data.find(" *   0: kws ("), std::string::npos);
  const FirmwareInput fw = load_firmware(path, LoadOptions{});
  for (size_t m = 0; m < 2; ++m) {
    const std::string name = fw.spec.models[m].name;
    const std::string file = name == "kws" ? "kws/kws_ref_model.tflite" : "wand/arduino_magic_wand.tflite";
    const ExportFile* f = bundle.find(file);
    ASSERT_TRUE(f) << file;
    const TfliteAnalysis back = analyse_tflite(f->data, file, TfliteLoadOptions{});
    ASSERT_TRUE(back.offline_offsets);
    const std::string& model_path = fw.spec.models[m].resolved_path;
    const TfliteAnalysis model = analyse_tflite(read_tflite_file(model_path), model_path, TfliteLoadOptions{});
    const Plan mine = model_plan(fw.joint, static_cast<int>(m), fw.models[m]->problem, plan);
    EXPECT_EQ(*back.offline_offsets, tflite_offsets(model, mine));
  }
}

TEST(FirmwareJoint, TwoExecuTorchProgramsShareMemoryIdOneAndReadBackAsTheJointPlan) {
  USMPX_REQUIRE_SHARED(add, "executorch/models/add.pte");
  const std::string softmax = testing::shared_path("executorch/models/softmax.pte");
  const std::string body = R"("models": [{"name": "add", "path": ")" + add + R"("}, {"name": "softmax", "path": ")" +
                           softmax + R"("}], "memory": {"shared": [{"name": "mem1"}]})";
  const std::string path = firmware_file("executorch", body);
  const LoadedInput input = load_input(path);
  ASSERT_EQ(input.problem.pools.size(), 1u);
  EXPECT_EQ(input.problem.pools[0].name, "mem1");
  // Each program's own plan together: memory id 1 as large as the larger program needs.
  const Plan own = *input.details->reference_plan(input.problem);
  EXPECT_EQ(own.pool_sizes[0], 65536);
  EXPECT_TRUE(no_errors(input.problem, own));
  const Plan plan = testing::plan_with("greedy_by_size", input.problem);
  ASSERT_TRUE(no_errors(input.problem, plan));
  const ExportBundle bundle = input.exporter->export_plan(input.problem, plan, ExportOptions{});
  const FirmwareInput fw = load_firmware(path, LoadOptions{});
  for (size_t m = 0; m < 2; ++m) {
    const std::string name = fw.spec.models[m].name;
    const ExportFile* f = bundle.find(name + "/" + name + ".pte");
    ASSERT_TRUE(f) << name;
    const fs::path copy = fs::path(path).parent_path() / ("back_" + name + ".pte");
    write_file_atomically(copy.string(), f->data);
    const LoadedInput back = load_input(copy.string());
    ASSERT_TRUE(back.as_built);
    const Plan mine = model_plan(fw.joint, static_cast<int>(m), fw.models[m]->problem, plan);
    ASSERT_EQ(back.problem.buffers.size(), mine.allocations.size());
    for (size_t b = 0; b < mine.allocations.size(); ++b)
      EXPECT_EQ(back.as_built->allocations[b].offset, mine.allocations[b].offset) << name << " " << b;
  }
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

TEST(FirmwareJointTvm, TwoModulesShareGlobalWorkspaceDefinedOnce) {
  const std::string path = testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json");
  const LoadedInput input = load_input(path);
  ASSERT_EQ(input.problem.pools.size(), 3u);
  EXPECT_EQ(input.problem.pools[0].name, "global_workspace");
  EXPECT_EQ(input.problem.pools[1].name, "first/global_const_workspace");
  // Each module's own plan: 208 bytes of global_workspace each; shared in a sequence, 208 in all.
  const Plan own = *input.details->reference_plan(input.problem);
  EXPECT_EQ(own.pool_sizes[0], 208);
  EXPECT_TRUE(no_errors(input.problem, own));
  const Plan plan = testing::plan_with("greedy_by_size", input.problem);
  ASSERT_TRUE(no_errors(input.problem, plan));
  const ExportBundle bundle = input.exporter->export_plan(input.problem, plan, ExportOptions{});
  const ExportFile* c = bundle.find("usmpx_firmware.c");
  ASSERT_TRUE(c);
  EXPECT_NE(c->data.find("uint8_t usmpx_firmware_global_workspace[" + std::to_string(plan.pool_sizes[0]) + "];"),
            std::string::npos)
      << c->data;
  EXPECT_NE(c->data.find("__attribute__((section(\".bss.noinit.tvm\"), aligned(16)))"), std::string::npos);
  for (const char* lib0 : {"first/codegen/host/src/first_lib0.c", "second/codegen/host/src/second_lib0.c"}) {
    const ExportFile* f = bundle.find(lib0);
    ASSERT_TRUE(f) << lib0;
    EXPECT_EQ(f->data.find("static uint8_t global_workspace["), std::string::npos);
    EXPECT_NE(f->data.find("#define global_workspace usmpx_firmware_global_workspace"), std::string::npos);
  }
  EXPECT_NE(bundle.find("usmpx_firmware.h")->data.find("#define USMPX_GLOBAL_WORKSPACE_SIZE "), std::string::npos);
}

// What the explorer draws of the models (their hues, their labelled spans) comes from here: each
// model's name, its ticks on the joint time axis and its buffers, every buffer in exactly one.
TEST(FirmwareJointTvm, ModelSpansNameEachModelsTicksAndBuffers) {
  const LoadedInput input = load_input(testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json"));
  ASSERT_TRUE(input.details);
  const std::vector<ModelSpan> models = input.details->models();
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name, "first");
  EXPECT_EQ(models[0].first_tick, 0);
  EXPECT_EQ(models[0].last_tick, 64);
  EXPECT_EQ(models[1].name, "second");
  EXPECT_EQ(models[1].first_tick, 65);
  EXPECT_EQ(models[1].last_tick, 129);
  std::vector<int> owner(input.problem.buffers.size(), -1);
  for (size_t m = 0; m < models.size(); ++m) {
    EXPECT_EQ(models[m].buffers.size(), 9u);
    for (int b : models[m].buffers) {
      ASSERT_GE(b, 0);
      ASSERT_LT(static_cast<size_t>(b), owner.size());
      EXPECT_EQ(owner[static_cast<size_t>(b)], -1) << input.problem.buffers[static_cast<size_t>(b)].name;
      owner[static_cast<size_t>(b)] = static_cast<int>(m);
      EXPECT_EQ(input.problem.buffers[static_cast<size_t>(b)].name.rfind(models[m].name + "/", 0), 0u);
      // Every buffer of a model lives within the model's ticks (constants have no lifetime of their own).
      const auto& lifetime = input.problem.buffers[static_cast<size_t>(b)].lifetime;
      if (lifetime && !lifetime->empty()) {
        EXPECT_GE(lifetime->first(), models[m].first_tick);
        EXPECT_LE(lifetime->last(), models[m].last_tick);
      }
    }
  }
  EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0);
  // An input of one model has none.
  // The HTML report's Models table: each model's ticks, buffers and the bytes it reaches per pool.
  ReportContent report;
  report.title = "tvm_pair";
  report.problem = input.problem;
  report.chosen = *input.details->reference_plan(input.problem);
  report.models = models;
  const std::string html = html_report(report);
  EXPECT_NE(html.find("<h2>Models</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>first</td><td class=\"n\">[0, 64]</td><td class=\"n\">9</td><td>global_workspace "
                      "208 B, first/global_const_workspace 312 B</td></tr>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<tr><td>second</td><td class=\"n\">[65, 129]</td>"), std::string::npos);
  report.models.clear();
  EXPECT_EQ(html_report(report).find("<h2>Models</h2>"), std::string::npos);
  const LoadedInput one = load_input(testing::fixture_path("firmware/tvm_pair/first"));
  EXPECT_TRUE(one.details == nullptr || one.details->models().empty());
}

TEST(FirmwareJointTvm, ConcurrentModulesGetDisjointWorkspace) {
  const std::string fixture = testing::fixture_path("firmware/tvm_pair/first");
  const fs::path dir = fs::temp_directory_path() / "usmpx_firmware_tvm_concurrent";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "c.usmpx-firmware.json").string();
  write_file_atomically(path, R"({"format": "usmpx-firmware", "version": 1, "schedule": "concurrent", "models": [
    {"name": "a", "path": ")" + fixture +
                                  R"("}, {"name": "b", "path": ")" + fixture + R"("}],
    "memory": {"shared": [{"name": "global_workspace"}]}})");
  const LoadedInput input = load_input(path);
  const Plan plan = testing::plan_with("greedy_by_size", input.problem);
  ASSERT_TRUE(no_errors(input.problem, plan));
  // Side by side: twice one module's 208 bytes at least (its lower bound is 128).
  EXPECT_GE(plan.pool_sizes[0], 2 * 128);
  // Every buffer of a conflicts with every buffer of b in the shared pool.
  const FirmwareInput fw = load_firmware(path, LoadOptions{});
  const ConflictLists lists = symmetric_conflicts(fw.joint.problem);
  for (int x : fw.joint.buffer_of[0]) {
    if (fw.joint.problem.buffers[static_cast<size_t>(x)].pool_candidates != std::vector<int>{0}) continue;
    for (int y : fw.joint.buffer_of[1]) {
      if (fw.joint.problem.buffers[static_cast<size_t>(y)].pool_candidates != std::vector<int>{0}) continue;
      const auto& l = lists[static_cast<size_t>(x)];
      EXPECT_NE(std::find(l.begin(), l.end(), y), l.end());
    }
  }
}

TEST(FirmwareJointTvm, SelftestRunsTheModulesInOrderOnTheSharedPoolWithTheSameOutputs) {
  const std::string path = testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json");
  const LoadedInput input = load_input(path);
  const std::shared_ptr<const Selftest> selftest = input.exporter->selftest();
  ASSERT_TRUE(selftest);
  std::string missing;
  if (!selftest->target_available("host", &missing)) GTEST_SKIP() << "no host compiler: " << missing;
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle original = input.exporter->original(eo);
  EXPECT_EQ(selftest->obstacle(original, SelftestOptions{}), "");
  const Plan plan = testing::plan_with("greedy_by_size", input.problem);
  const ExportBundle replanned = input.exporter->export_plan(input.problem, plan, eo);
  const fs::path work = fs::temp_directory_path() / "usmpx_firmware_tvm_selftest";
  fs::remove_all(work);
  const std::vector<SelftestResult> results = selftest->run(original, replanned, {"host"}, work.string(), {});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << "\n" << results[0].replanned.log;
  // One output per module, each as the module computes it alone.
  ASSERT_EQ(results[0].replanned.outputs.size(), 2u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "first/output");
  EXPECT_EQ(results[0].replanned.outputs[1].first, "second/output");
  EXPECT_EQ(results[0].original.outputs, results[0].replanned.outputs);
}

TEST(FirmwareJointMethods, SeveralPoolsOfOneModelAreOneSharedPoolAndMapBack) {
  // One program with two methods, each its own pool for memory id 1 (as the ExecuTorch frontend
  // names them), shared as share_memory_arenas shares them.
  Problem prog;
  prog.pools = {Pool{"forward/mem1"}, Pool{"other/mem1"}};
  prog.conflict_source = ConflictSource::kExplicit;
  for (int i = 0; i < 4; ++i) {
    Buffer b;
    b.name = (i < 2 ? "forward/v" : "other/v") + std::to_string(i);
    b.size_bytes = 32;
    b.pool_candidates = {i < 2 ? 0 : 1};
    b.lifetime = Lifetime::closed(i % 2, i % 2);
    prog.buffers.push_back(std::move(b));
  }
  prog.buffers[0].conflicts = {1};
  prog.buffers[2].conflicts = {3};
  const FirmwareSpec spec = parse_firmware_text(
      R"({"format": "usmpx-firmware", "version": 1, "models": [{"name": "prog", "path": "p.pte"}],
          "memory": {"shared": [{"name": "mem1", "members": {"prog": ["forward/mem1", "other/mem1"]}}]}})",
      "m.usmpx-firmware.json");
  ASSERT_EQ(spec.shared[0].members.size(), 2u);
  // Written back with the list.
  EXPECT_NE(firmware_file_text(spec).find("\"prog\": [\n"), std::string::npos) << firmware_file_text(spec);
  const JointProblem joint = build_joint_problem(spec, {&prog});
  ASSERT_EQ(joint.problem.pools.size(), 1u);
  const Plan plan = testing::plan_with("greedy_by_size", joint.problem);
  ASSERT_TRUE(no_errors(joint.problem, plan));
  // The methods' buffers do not conflict, so the shared pool holds one method's worth.
  EXPECT_EQ(plan.pool_sizes[0], 64);
  const Plan back = model_plan(joint, 0, prog, plan);
  EXPECT_EQ(back.allocations[0].pool, 0);
  EXPECT_EQ(back.allocations[3].pool, 1);
  EXPECT_EQ(back.pool_sizes, (std::vector<int64_t>{64, 64}));
  EXPECT_TRUE(no_errors(prog, back));
}

}  // namespace
}  // namespace usmpx
