#pragma once

#include <string>
#include <vector>

#include "frontends/tvm/export/export_pools.h"
#include "frontends/tvm/mlf/mlf_model.h"

namespace usmpx {

// USMP-on operators kept without the <mod>_lib0.c TVM wrote beside them (a lone operator library:
// the pools and the run wrapper are defined where the firmware keeps that file). An export
// rewrites the operators' lets and writes no lib0.c of its own; it says what the pools must now
// hold.

// Constants cannot move: their data is in the lib0.c the input lacks. Throws ExportError naming
// the first constant the plan puts elsewhere than TVM's plan.
void check_constants_stay(const MlfModel& m, const Problem& problem, const Plan& plan);

// One line per pool: the bytes and alignment the firmware's own definition must give it now,
// beside TVM's, for pools that change.
std::vector<std::string> pools_defined_elsewhere(const MlfModel& m, const Problem& problem, const Plan& plan,
                                                 const std::vector<ExportPool>& pools);

}  // namespace usmpx
