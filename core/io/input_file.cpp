#include "io/input_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "io/input_error.h"
#include "io/minimalloc_csv.h"
#include "io/problem_json.h"
#include "io/text_file.h"
#include "io/tir_input.h"
#include "mlf/mlf_model.h"

namespace usmpx {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

}  // namespace

std::string_view to_string(InputFormat format) {
  switch (format) {
    case InputFormat::kProblemJson:
      return "problem JSON";
    case InputFormat::kMinimallocCsv:
      return "MiniMalloc CSV";
    case InputFormat::kMlf:
      return "Model Library Format";
    case InputFormat::kTvmScript:
      return "TVMScript TIR";
    case InputFormat::kLegacyTir:
      return "legacy TIR text";
  }
  return "unknown";
}

LoadedInput load_input(const std::string& path, const LoadOptions& options) {
  LoadedInput input;
  input.path = path;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError({path, 0, 0}, "no such file or folder");
  if (looks_like_mlf(path)) {
    input.format = InputFormat::kMlf;
    MlfModel model = load_mlf_model(path, MlfLoadOptions{options.pools, options.module});
    input.problem = std::move(model.problem);
    input.as_built = std::move(model.as_built);
    input.warnings = std::move(model.warnings);
    return input;
  }
  if (ends_with(path, ".csv")) {
    input.format = InputFormat::kMinimallocCsv;
    input.problem = read_minimalloc_csv(read_text_file(path), path);
    apply_pool_options(input.problem, options.pools);
    return input;
  }
  if (ends_with(path, ".json")) {
    input.format = InputFormat::kProblemJson;
    input.problem = read_problem_json(read_text_file(path), path);
    apply_pool_options(input.problem, options.pools);
    return input;
  }
  if (std::filesystem::is_regular_file(path, ec)) {
    const std::string text = read_text_file(path);
    if (const std::optional<InputFormat> tir = detect_tir_format(text)) return load_tir_dump(text, path, *tir, options);
  }
  throw InputError({path, 0, 0},
                   "unknown input kind: expected a problem .json, a MiniMalloc .csv, a TIR dump (TVMScript or "
                   "primfn text), an MLF archive (.tar, .tar.gz, .tgz) or an MLF folder holding metadata.json");
}

std::vector<std::string> input_modules(const std::string& path) {
  if (!looks_like_mlf(path)) return {};
  std::vector<std::string> names;
  for (const MlfModuleMetadata& module : read_mlf(path).metadata.modules) names.push_back(module.name);
  return names;
}

}  // namespace usmpx
