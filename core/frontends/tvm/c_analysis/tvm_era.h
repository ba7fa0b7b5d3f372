#pragma once

#include <string>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/tvm_code.h"

namespace usmpx {

// Which TVM releases write C in the style of this code, judged by what changed between them:
// "0.17 or later" (`static const struct` constant pools), "0.15 to 0.16" (`((uint8_t*)&pool)`
// in the run wrapper), "0.11 to 0.14" (I/O size macros in the header), "0.9 to 0.10",
// "before 0.9" (`tvmgen_<mod>_run_model` entry); "" when the code shows none of these.
std::string tvm_era_of_code(const CProgram& program, const TvmCode& code);

}  // namespace usmpx
