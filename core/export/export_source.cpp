#include "export/export_source.h"

#include "export/export_error.h"
#include "export/tir_export.h"
#include "io/text_file.h"
#include "io/tir_input.h"
#include "mlf/mlf_package.h"
#include "planners/registry.h"

namespace usmpx {

ExportSource ExportSource::load(const std::string& path, const LoadOptions& options) {
  ExportSource s;
  s.input_.path = path;
  const InputFormat format = recognise_input(path);
  if (holds_generated_c(format)) {
    auto model = std::make_shared<MlfModel>(load_mlf_model(path, MlfLoadOptions{options.pools, options.module}));
    s.input_.format = format;
    s.input_.problem = model->problem;
    s.input_.as_built = model->as_built;
    s.input_.warnings = model->warnings;
    s.mlf_ = std::move(model);
    return s;
  }
  s.text_ = read_text_file(path);
  const std::optional<InputFormat> tir_format = detect_tir_format(s.text_);
  if (!tir_format) {
    throw ExportError(
        path +
        " is neither a Model Library Format archive or folder, a firmware tree nor a TIR dump; problem files "
        "carry no code to export");
  }
  auto tir = std::make_shared<TirProblem>(analyze_tir_dump(s.text_, path, *tir_format, options));
  s.input_.format = *tir_format;
  s.input_.problem = tir->problem;
  s.input_.as_built = tir->as_built;
  s.input_.warnings = tir->warnings;
  s.tir_ = std::move(tir);
  return s;
}

namespace {

// A re-plan moves buffers the code it could not read may still use at TVM's offsets (operators
// without a body, files left out): exporting it would write firmware nobody can vouch for.
void refuse_blind_replan(const MlfModel& model, const Plan& plan) {
  if (plan.algorithm == "as-built") return;
  std::string blind;
  for (const std::string& f : model.program.left_out_files)
    blind += (blind.empty() ? "" : ", ") + f;
  for (const std::string& op : model.walk.missing_operators)
    blind += (blind.empty() ? "operator " : ", operator ") + op;
  if (blind.empty()) return;
  throw ExportError("the model's code is not all readable (" + blind +
                    "); a re-plan could move buffers that code uses where TVM put them, so only the as-built plan "
                    "is exported");
}

}  // namespace

ExportBundle ExportSource::export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const {
  if (mlf_) refuse_blind_replan(*mlf_, plan);
  if (mlf_) return export_mlf(*mlf_, problem, plan, options);
  return export_tir(*tir_, input_.path, text_, problem, plan, options);
}

ExportBundle ExportSource::original(const ExportOptions& options) const {
  if (mlf_) return mlf_original_bundle(*mlf_, options);
  Plan plan;
  if (input_.as_built) {
    plan = *input_.as_built;
    finish_plan(input_.problem, plan);
  } else {
    plan = run_planner(*make_planner("greedy_by_size"), input_.problem, PlannerOptions{});
  }
  return export_tir(*tir_, input_.path, text_, input_.problem, plan, options);
}

}  // namespace usmpx
