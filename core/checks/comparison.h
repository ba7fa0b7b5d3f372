#pragma once

// How each plan of a comparison stands, in the words the explorer's Compare dialog, its HTML
// report and `usmpx compare` all use: only plans that fit and are valid are ranked (a gap, a
// difference to the best, a chance to be the best); the others say why not.

#include <string>
#include <vector>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx {

struct ComparedPlan {
  bool made = true;  // false: the plan could not be made (TVM's own after its pools were edited)
  bool fits = false;
  bool valid = false;
  bool ranked = false;  // made, fits and valid
  bool best = false;    // ranked, with the smallest total of the ranked plans
  std::string gap;      // ranked plans only: format_gap against the comparison's highest bound
  // Why the plan is not ranked, "" when it is: "not comparable: …", "does not fit: sram needs
  // 48.6 KiB of 40 KiB", "does not fit: 3 buffers not placed", "invalid: …".
  std::string reason;
};

// One entry per plan, parallel to `plans`.
std::vector<ComparedPlan> rank_plans(const Problem& problem, const std::vector<Plan>& plans);

}  // namespace usmpx
