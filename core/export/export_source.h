#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/tir_problem.h"
#include "export/export_bundle.h"
#include "export/mlf_export.h"
#include "io/input_file.h"
#include "mlf/mlf_model.h"

namespace usmpx {

// What an export starts from: a Model Library Format model (its C is rewritten) or an analysed
// TIR dump (C is generated from it). Problem files carry no code and cannot be exported.
class ExportSource {
 public:
  // Loads `path` as `load_input` would, keeping what the export needs. Throws InputError or
  // ConfigError like load_input, and ExportError for inputs without code (problem JSON, CSV).
  static ExportSource load(const std::string& path, const LoadOptions& options);

  const LoadedInput& input() const { return input_; }  // the problem as analysed, its as-built plan, warnings
  bool is_mlf() const { return mlf_ != nullptr; }

  // The sources for `plan` of `problem` (the analysed problem with the user's pools and pins).
  ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const;
  // What a re-plan is compared against: an MLF input as it is; a TIR dump with the plan it
  // carries (post-USMP) or TVM's default greedy_by_size.
  ExportBundle original(const ExportOptions& options) const;

 private:
  LoadedInput input_;
  std::shared_ptr<const MlfModel> mlf_;
  std::shared_ptr<const TirProblem> tir_;
  std::string text_;  // the TIR dump
};

}  // namespace usmpx
