#include "io/input_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "frontends/tflite/tflite_problem.h"
#include "io/input_error.h"
#include "io/minimalloc_csv.h"
#include "io/problem_json.h"
#include "io/text_file.h"
#include "io/tir_input.h"
#include "mlf/mlf_model.h"

namespace usmpx {
LoadedInput load_input(const std::string& path, const LoadOptions& options) {
  LoadedInput input;
  input.path = path;
  input.format = recognise_input(path);
  switch (input.format) {
    case InputFormat::kMlf:
    case InputFormat::kFirmwareTree: {
      MlfModel model = load_mlf_model(path, MlfLoadOptions{options.pools, options.module});
      input.problem = std::move(model.problem);
      input.as_built = std::move(model.as_built);
      input.warnings = std::move(model.warnings);
      return input;
    }
    case InputFormat::kMinimallocCsv:
      input.problem = read_minimalloc_csv(read_text_file(path), path);
      apply_pool_options(input.problem, options.pools);
      return input;
    case InputFormat::kProblemJson:
      input.problem = read_problem_json(read_text_file(path), path);
      apply_pool_options(input.problem, options.pools);
      return input;
    case InputFormat::kTvmScript:
    case InputFormat::kLegacyTir:
      return load_tir_dump(read_text_file(path), path, input.format, options);
    case InputFormat::kTflite: {
      auto analysis = std::make_shared<TfliteAnalysis>(
          analyse_tflite(read_tflite_file(path), path, TfliteLoadOptions{options.pools, options.tflm_log}));
      input.problem = analysis->problem;
      input.as_built = analysis->as_built;
      input.warnings = analysis->warnings;
      input.tflite = std::move(analysis);
      return input;
    }
    case InputFormat::kSession:
      break;
  }
  throw InputError({path, 0, 0},
                   "an explorer session: open it with usmp-explorer, or give it to usmpx export as --session");
}

std::vector<std::string> input_modules(const std::string& path) {
  if (!holds_generated_c(recognise_input(path))) return {};
  std::vector<std::string> names;
  for (const MlfModuleMetadata& module : read_mlf(path).metadata.modules)
    names.push_back(module.name);
  return names;
}

}  // namespace usmpx
