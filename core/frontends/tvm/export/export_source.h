#pragma once

#include <memory>
#include <string>

#include "frontends/frontend.h"
#include "frontends/tvm/export/mlf_export.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/usmp/tir_problem.h"

namespace usmpx {

// What a TVM input writes back: a Model Library Format model or firmware tree (its C is
// rewritten) or an analysed TIR dump (C is generated from it).
class TvmExporter : public ModelExporter {
 public:
  explicit TvmExporter(std::shared_ptr<const MlfModel> mlf) : mlf_(std::move(mlf)) {}
  // `input` is the dump's problem and as-built plan as loaded; `text` the dump itself.
  TvmExporter(std::shared_ptr<const TirProblem> tir, std::string path, std::string text)
      : tir_(std::move(tir)), path_(std::move(path)), text_(std::move(text)) {}

  std::string refusal(const Plan& plan) const override;
  ExportForm form() const override {
    ExportForm f;
    f.what = mlf_ ? "The generated C of {input} is rewritten for the {plan} plan; everything else is copied."
                  : "C is generated from the TIR of {input} with the {plan} plan, as a Model Library Format module.";
    return f;
  }
  ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const override;
  // An MLF input as it is; a TIR dump with the plan it carries (post-USMP) or TVM's default
  // greedy_by_size.
  ExportBundle original(const ExportOptions& options) const override;
  // The pools TVM's code generation hands on (export_pools.h), with their linker sections.
  std::vector<ExportedPool> exported_pools(const Problem& problem, const Plan& plan) const override;
  // The C test harness on the host and emulated Cortex-M boards (harness/tvm_selftest.h).
  std::shared_ptr<const Selftest> selftest() const override;

 private:
  std::shared_ptr<const MlfModel> mlf_;
  std::shared_ptr<const TirProblem> tir_;
  std::string path_;
  std::string text_;  // the TIR dump
};

}  // namespace usmpx
