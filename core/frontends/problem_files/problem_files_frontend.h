#pragma once

// The problem-files frontend: planning problems without a model (usmpx-problem JSON, MiniMalloc
// CSV). They carry no code, so nothing is exported from them.

#include "frontends/frontend.h"

namespace usmpx {

const Frontend& problem_files_frontend();

}  // namespace usmpx
