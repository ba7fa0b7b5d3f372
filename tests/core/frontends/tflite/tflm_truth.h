#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "frontends/tflite/tflite_problem.h"

namespace usmpx::testing {

// The three builds TFLM's own figures are for (../shared/tflite/tflm_arena.json and ops/).
struct TflmBuildCase {
  const char* key;
  TflmBuild build;
};
inline const TflmBuildCase kTflmBuilds[] = {
    {"reference_cortex_m4", {TflmKernels::kReference, TflmTarget::kCortexM}},
    {"cmsis_nn_cortex_m4", {TflmKernels::kCmsisNn, TflmTarget::kCortexM}},
    {"reference_x86_64", {TflmKernels::kReference, TflmTarget::kX86_64}},
};

TfliteAnalysis analyse_tflite_file(const std::string& path, const TflmBuild& build);

// Expects (gtest EXPECT_*) the analysis and TFLM's greedy plan of it to equal TFLM's own figures
// in `truth` (one build's entry): the head, every planned buffer (size, offset, lifetime), the
// tail by category and uncategorized, every operator's Init and Prepare persistent bytes and
// scratch requests, and the total. Returns whether everything was equal.
bool expect_equal_to_tflm(const TfliteAnalysis& a, const nlohmann::json& truth);

}  // namespace usmpx::testing
