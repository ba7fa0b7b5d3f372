#include "frontends/tvm/usmp/tir_input.h"

#include "base/input_error.h"
#include "base/utf8_check.h"
#include "frontends/loaded_model.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"
#include "model/problem_limits.h"

namespace usmpx {

std::optional<InputFormat> detect_tir_format(std::string_view text) {
  if (looks_like_tvmscript(text)) return InputFormat::kTvmScript;
  if (looks_like_legacy_tir(text)) return InputFormat::kLegacyTir;
  return std::nullopt;
}

TirProblem analyze_tir_dump(std::string_view text, const std::string& path, InputFormat format,
                            const LoadOptions& options) {
  require_utf8(text, path);
  const tir::Module module =
      format == InputFormat::kTvmScript ? read_tvmscript(text, path) : read_legacy_tir(text, path);
  TirProblem analysed = analyze_tir_module(module, options.pools);
  if (auto error = problem_limit_error(analysed.problem)) throw InputError({path, 0, 0}, *error);
  return analysed;
}

LoadedInput loaded_tir_dump(const TirProblem& analysed, const std::string& path, InputFormat format) {
  LoadedInput input = loaded_model(path, format, analysed, "greedy_by_size", "TVM");
  for (Diagnostic& d : input.warnings) {
    if (d.location.file.empty() && d.location.line == 0) d.location.file = path;
  }
  return input;
}

}  // namespace usmpx
