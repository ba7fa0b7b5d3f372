#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/pool_options.h"
#include "io/input_kinds.h"
#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

struct TfliteAnalysis;

// What a reader made of one input file.
struct LoadedInput {
  std::string path;
  InputFormat format = InputFormat::kProblemJson;
  Problem problem;
  std::optional<Plan> as_built;                  // the plan already present in the input, if any
  std::vector<Diagnostic> warnings;              // things the reader could not use but did not reject
  std::shared_ptr<const TfliteAnalysis> tflite;  // .tflite inputs: tensors, operators, the model
};

// How to read an input: the pool options (applied after reading a problem file, or used to
// assign pools while analysing a model) and, for MLF archives with several modules, which one.
struct LoadOptions {
  PoolOptions pools;
  std::string module;    // empty: the first module
  std::string tflm_log;  // .tflite inputs: TFLM's PrintMemoryPlan output (scratch sizes, arena tail)
};

// Picks the reader through the input-kind table (recognise_input) and applies the pool options.
// Throws
// InputError when the input cannot be read, is of an unknown kind, or is malformed, and
// ConfigError when the pool options do not fit the input.
LoadedInput load_input(const std::string& path, const LoadOptions& options = {});

// The modules an input offers (MLF archives and firmware trees may hold several), in file order
// (firmware trees: by name); empty for inputs without modules. Throws InputError when an MLF archive cannot be read.
std::vector<std::string> input_modules(const std::string& path);

}  // namespace usmpx
