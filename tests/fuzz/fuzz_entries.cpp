#include "fuzz_entries.h"

#include <memory>

#include "base/config_error.h"
#include "base/input_error.h"
#include "export/export_error.h"
#include "frontends/executorch/et_export.h"
#include "frontends/executorch/et_selftest.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "frontends/problem_files/problem_json.h"
#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tvm/export/harness/code_needs.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/export/tir_export.h"
#include "frontends/tvm/mlf/metadata.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/usmp/tir_input.h"
#include "inputs/firmware/firmware_file.h"
#include "inputs/firmware/joint_problem.h"
#include "model/plan_json.h"
#include "planners/registry.h"
#include "session/session_file.h"

namespace usmpx::fuzz {
namespace {

// Runs `body`, accepting the errors that bad input is meant to produce.
template <typename Body>
void guarded(Body body) {
  try {
    body();
  } catch (const InputError&) {
  } catch (const ConfigError&) {
  } catch (const ExportError&) {
  }
}

// A plan the exporter takes: greedy_by_size, when it fits.
std::optional<Plan> exportable_plan(const Problem& problem) {
  if (problem.buffers.size() > 2000) return std::nullopt;
  Plan plan = run_planner(*make_planner("greedy_by_size"), problem, PlannerOptions{});
  if (plan.has_errors() || !plan_fits(problem, plan)) return std::nullopt;
  return plan;
}

// What the tools do after reading: plan with TVM's default, which walks every conflict list, and
// write the plan as `--json` does (every name a reader accepts must be writable).
void plan(const Problem& problem) {
  if (problem.buffers.size() > 2000) return;  // keep each run short
  auto planner = make_planner("greedy_by_size");
  (void)write_plan_json(problem, run_planner(*planner, problem, PlannerOptions{}));
}

MlfModel analyse(std::shared_ptr<const MlfPackage> package) {
  const MlfModule module = select_module(*package, "");
  CProgram program = parse_c_program(mlf_parse_input(*package, module));
  return analyse_mlf(package, module, std::move(program), MlfLoadOptions{});
}

}  // namespace

void problem_json(std::string_view data) {
  guarded([&] { plan(read_problem_json(data, "fuzz.json")); });
}

void minimalloc_csv(std::string_view data) {
  guarded([&] { plan(read_minimalloc_csv(data, "fuzz.csv")); });
}

void session_file(std::string_view data) {
  guarded([&] { (void)read_session_json(data, "/tmp/fuzz.usmpx.json"); });
}

void tvmscript(std::string_view data) {
  guarded([&] { plan(analyze_tir_dump(data, "fuzz.py", InputFormat::kTvmScript, LoadOptions{}).problem); });
}

void legacy_tir(std::string_view data) {
  guarded([&] { plan(analyze_tir_dump(data, "fuzz.txt", InputFormat::kLegacyTir, LoadOptions{}).problem); });
}

void mlf_metadata(std::string_view data) {
  guarded([&] { (void)read_mlf_metadata(data, "metadata.json"); });
}

void c_analysis(std::string_view data) {
  static const MlfPackage base = read_mlf(USMPX_FUZZ_MLF_FIXTURE);
  guarded([&] {
    auto package = std::make_shared<MlfPackage>(base);
    for (ArchiveFile& file : package->contents.files) {
      if (file.path == "codegen/host/src/default_lib1.c") file.data = std::string(data);
    }
    plan(analyse(package).problem);
  });
}

// The input is lib1.c; after a line "/*usmpx:lib0*/" it is lib0.c too, so that the editing of
// lib0.c (its pools, constant members, the user's own code) and the layout check are reached.
void mlf_export(std::string_view data) {
  static const MlfPackage base = read_mlf(USMPX_FUZZ_MLF_FIXTURE);
  static constexpr std::string_view kLib0Marker = "\n/*usmpx:lib0*/\n";
  const size_t cut = data.find(kLib0Marker);
  const std::string_view lib1 = data.substr(0, cut);
  guarded([&] {
    auto package = std::make_shared<MlfPackage>(base);
    for (ArchiveFile& file : package->contents.files) {
      if (file.path == "codegen/host/src/default_lib1.c") file.data = std::string(lib1);
      if (file.path == "codegen/host/src/default_lib0.c" && cut != std::string_view::npos)
        file.data = std::string(data.substr(cut + kLib0Marker.size()));
    }
    const MlfModel model = analyse(package);
    if (const std::optional<Plan> plan = exportable_plan(model.problem)) (void)export_mlf(model, model.problem, *plan);
  });
}

void tir_export(std::string_view data) {
  guarded([&] {
    const TirProblem t = analyze_tir_dump(data, "fuzz.py", InputFormat::kTvmScript, LoadOptions{});
    if (const std::optional<Plan> plan = exportable_plan(t.problem))
      (void)export_tir(t, "fuzz.py", std::string(data), t.problem, *plan);
  });
}

void mlf_archive(std::string_view data) {
  guarded([&] {
    auto package = std::make_shared<const MlfPackage>(read_mlf_bytes(data, "fuzz.tar"));
    plan(analyse(package).problem);
  });
}

// A firmware tree as an archive (tar, tar.gz): found by file names in any layout, analysed, planned,
// and its as-built plan exported back into the tree's own layout.
void firmware_tree(std::string_view data) {
  guarded([&] {
    auto package = std::make_shared<const MlfPackage>(read_mlf_bytes(data, "fuzz.tar"));
    const MlfModel model = analyse(package);
    plan(model.problem);
    if (!model.as_built || model.problem.buffers.size() > 2000) return;
    Plan built = *model.as_built;
    finish_plan(model.problem, built);
    if (!built.has_errors() && plan_fits(model.problem, built)) (void)export_mlf(model, model.problem, built);
  });
}

// The data replaces the CMSIS-NN fixture's default_lib2.c: calls into code without a body,
// descriptor structs (cmsis_nn_context, cmsis_nn_dims), missing headers, damaged functions.
void external_operators(std::string_view data) {
  static const MlfPackage base = read_mlf(USMPX_FUZZ_CMSIS_FIXTURE);
  guarded([&] {
    auto package = std::make_shared<MlfPackage>(base);
    for (ArchiveFile& file : package->contents.files) {
      if (file.path == "codegen/host/src/default_lib2.c") file.data = std::string(data);
    }
    const MlfModel model = analyse(package);
    if (const std::optional<Plan> plan = exportable_plan(model.problem)) (void)export_mlf(model, model.problem, *plan);
  });
}

// The data replaces default_lib2.c of the CMSIS-NN fixture's original bundle (with its harness):
// what selftest reads before compiling (functions called and defined, headers, intrinsics).
void selftest_checks(std::string_view data) {
  static const ExportBundle base = [] {
    ExportOptions options;
    options.harness = true;
    return mlf_original_bundle(load_mlf_model(USMPX_FUZZ_CMSIS_FIXTURE), options);
  }();
  ExportBundle bundle = base;
  bundle.put("codegen/host/src/default_lib2.c", std::string(data));
  (void)analyse_code_needs(bundle, {});
  (void)selftest_obstacle(bundle, {});
}

// A .tflite read and analysed, planned as TFLM plans it, the plan written into a copy of the model
// and the copy read back.
void tflite(std::string_view data) {
  guarded([&] {
    const std::string bytes(data);
    const TfliteAnalysis a = analyse_tflite(bytes, "fuzz.tflite", {});
    if (a.problem.buffers.size() > 2000) return;
    const Plan plan = run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{});
    if (plan.has_errors()) return;
    const TfliteExport e = export_tflite(a, bytes, "fuzz.tflite", plan);
    (void)analyse_tflite(e.bytes, "copy.tflite", {});
  });
}

// A .pte read and analysed, planned with ExecuTorch's greedy, the plan written into a copy of the
// program and the copy read back; the copy run on the project's operators when it can be (selftest).
void executorch(std::string_view data) {
  guarded([&] {
    const std::string bytes(data);
    const EtAnalysis a = analyse_et(bytes, "fuzz.pte", {});
    if (a.problem.buffers.size() > 2000 || a.pools.empty()) return;
    const Plan plan = run_planner(*make_planner("et_greedy"), a.problem, PlannerOptions{});
    if (plan.has_errors()) return;
    const EtExport e = export_et(a, bytes, "fuzz.pte", a.problem, plan);
    (void)analyse_et(e.bytes, "copy.pte", {});
    if (et_run_obstacle(a.program).empty()) (void)run_et_program(e.bytes, "copy.pte");
  });
}

void firmware_file(std::string_view data) {
  guarded([&] {
    const FirmwareSpec spec = parse_firmware_text(data, "fuzz.usmpx-firmware.json");
    // Every model the same small problem: a pool "arena", a chain of three buffers named as
    // TFLM and ExecuTorch name theirs (input, t1, output).
    Problem model;
    model.pools.push_back(Pool{"arena"});
    model.conflict_source = ConflictSource::kLifetimes;
    const char* names[] = {"input", "t1", "output"};
    for (int i = 0; i < 3; ++i) {
      Buffer b;
      b.name = names[i];
      b.size_bytes = 16 * (i + 1);
      b.pool_candidates = {0};
      b.lifetime = Lifetime::closed(i, i + 1);
      model.buffers.push_back(std::move(b));
    }
    if (spec.models.size() > 16) return;  // keep each run short
    const std::vector<const Problem*> problems(spec.models.size(), &model);
    const JointProblem joint = build_joint_problem(spec, problems);
    const Plan plan = run_planner(*make_planner("greedy_by_size"), joint.problem, PlannerOptions{});
    for (size_t m = 0; m < spec.models.size(); ++m)
      (void)model_plan(joint, static_cast<int>(m), model, plan);
    (void)firmware_file_text(spec);
  });
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"problem_json", problem_json},       {"minimalloc_csv", minimalloc_csv},
      {"session_file", session_file},       {"tvmscript", tvmscript},
      {"legacy_tir", legacy_tir},           {"mlf_metadata", mlf_metadata},
      {"c_analysis", c_analysis},           {"mlf_archive", mlf_archive},
      {"mlf_export", mlf_export},           {"tir_export", tir_export},
      {"firmware_tree", firmware_tree},     {"external_operators", external_operators},
      {"selftest_checks", selftest_checks}, {"tflite", tflite},
      {"executorch", executorch},           {"firmware_file", firmware_file},
  };
  return all;
}

}  // namespace usmpx::fuzz
