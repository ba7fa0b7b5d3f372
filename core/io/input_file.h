#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/diagnostic.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

enum class InputFormat { kProblemJson, kMinimallocCsv };

std::string_view to_string(InputFormat format);

// What a reader made of one input file.
struct LoadedInput {
  std::string path;
  InputFormat format = InputFormat::kProblemJson;
  Problem problem;
  std::optional<Plan> as_built;       // the plan already present in the input, if any
  std::vector<Diagnostic> warnings;  // things the reader could not use but did not reject
};

// Picks the reader by the file's name and content. Throws InputError when the input cannot be
// read, is of an unknown kind, or is malformed.
LoadedInput load_input(const std::string& path);

}  // namespace usmpx
