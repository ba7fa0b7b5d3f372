#pragma once

#include <string>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

// A self-contained HTML review of a plan: pools (size, hint, use, lower bound, gap), the
// algorithms compared on the same constraints, the chosen plan's allocations, its diagnostics,
// and the given chart images.
struct ReportContent {
  std::string title;
  std::string input;
  Problem problem;
  Plan chosen;
  std::vector<Plan> compared;
  std::vector<std::string> images;  // relative paths of chart images to embed
};

std::string html_report(const ReportContent& content);

}  // namespace usmpx
