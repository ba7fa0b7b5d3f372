#include "frontends/tvm/export/export_source.h"

#include "export/export_error.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/tir_export.h"
#include "frontends/tvm/mlf/mlf_package.h"
#include "planners/registry.h"

namespace usmpx {

// A re-plan moves buffers the code it could not read may still use at TVM's offsets (operators
// without a body, files left out): exporting it would write firmware nobody can vouch for.
std::string TvmExporter::refusal(const Plan& plan) const {
  if (!mlf_ || plan.algorithm == "as-built") return "";
  std::string blind;
  for (const std::string& f : mlf_->program.left_out_files)
    blind += (blind.empty() ? "" : ", ") + f;
  for (const std::string& op : mlf_->walk.missing_operators)
    blind += (blind.empty() ? "operator " : ", operator ") + op;
  if (blind.empty()) return "";
  return "the model's code is not all readable (" + blind +
         "); a re-plan could move buffers that code uses where TVM put them, so only the as-built plan is exported";
}

ExportBundle TvmExporter::export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const {
  if (mlf_) {
    if (std::string why = refusal(plan); !why.empty()) throw ExportError(why);
    return export_mlf(*mlf_, problem, plan, options);
  }
  return export_tir(*tir_, path_, text_, problem, plan, options);
}

ExportBundle TvmExporter::original(const ExportOptions& options) const {
  if (mlf_) return mlf_original_bundle(*mlf_, options);
  Plan plan;
  if (tir_->as_built) {
    plan = *tir_->as_built;
    finish_plan(tir_->problem, plan);
  } else {
    plan = run_planner(*make_planner("greedy_by_size"), tir_->problem, PlannerOptions{});
  }
  return export_tir(*tir_, path_, text_, tir_->problem, plan, options);
}

std::vector<ExportedPool> TvmExporter::exported_pools(const Problem& problem, const Plan& plan) const {
  std::vector<ExportedPool> out;
  for (const ExportPool& pool : export_pools(problem, plan))
    out.push_back({pool.name, pool.size_bytes, pool.internal, pool_section(pool)});
  return out;
}

std::shared_ptr<const Selftest> TvmExporter::selftest() const {
  return std::make_shared<TvmSelftest>();
}

}  // namespace usmpx
