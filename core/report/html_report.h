#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/model_span.h"
#include "model/plan.h"
#include "model/problem.h"
#include "model/sharing_figures.h"

namespace usmpx {

// A self-contained HTML review of a plan: pools (size, hint, use, lower bound, gap), the
// algorithms compared on the same constraints, the chosen plan's allocations, its diagnostics,
// and the given chart images.
struct ReportContent {
  std::string title;
  std::string input;
  Problem problem;
  Plan chosen;
  std::vector<Plan> compared;  // made on `problem` as it is; empty when there are none
  // Printed under "Algorithms compared" instead of a table (why the comparison is left out); "" = none.
  std::string compared_note;
  std::vector<std::string> images;   // relative paths of chart images to embed
  std::vector<Diagnostic> warnings;  // what reading the input reported
  // TVM's own plan when the input carried one: its size per pool of `problem` (-1 where a pool
  // has no counterpart) and in total, for the difference the chosen plan makes.
  std::optional<std::vector<int64_t>> reference_pool_bytes;
  int64_t reference_total_bytes = 0;
  std::string reference_name = "TVM";  // whose plan the reference is: TVM's, or TFLM's for .tflite
  std::string runtime_memory;  // what the firmware needs beyond the pools (TFLM's kTensorArenaSize line); "" = none
  // A firmware file's models (empty for an input of one model): a table of their ticks, buffers and
  // the bytes each uses of each pool in the chosen plan.
  std::vector<ModelSpan> models;
  // What sharing saves per shared pool of those models, for the chosen plan (empty: nothing shared).
  std::vector<SharedPoolFigures> sharing;
};

std::string html_report(const ReportContent& content);

}  // namespace usmpx
