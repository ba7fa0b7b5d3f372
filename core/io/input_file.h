#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/pool_options.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

enum class InputFormat { kProblemJson, kMinimallocCsv, kMlf, kTvmScript, kLegacyTir };

std::string_view to_string(InputFormat format);

// What a reader made of one input file.
struct LoadedInput {
  std::string path;
  InputFormat format = InputFormat::kProblemJson;
  Problem problem;
  std::optional<Plan> as_built;       // the plan already present in the input, if any
  std::vector<Diagnostic> warnings;  // things the reader could not use but did not reject
};

// How to read an input: the pool options (applied after reading a problem file, or used to
// assign pools while analysing a model) and, for MLF archives with several modules, which one.
struct LoadOptions {
  PoolOptions pools;
  std::string module;  // empty: the first module
};

// Picks the reader by the file's name and content and applies the pool options (TIR dumps:
// any other name whose content is TVMScript or legacy primfn text). Throws
// InputError when the input cannot be read, is of an unknown kind, or is malformed, and
// ConfigError when the pool options do not fit the input.
LoadedInput load_input(const std::string& path, const LoadOptions& options = {});

// The modules an input offers (MLF archives may hold several), in file order; empty for inputs
// without modules. Throws InputError when an MLF archive cannot be read.
std::vector<std::string> input_modules(const std::string& path);

}  // namespace usmpx
