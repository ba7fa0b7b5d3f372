#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace usmpx::cli {

// Exit codes of usmpx (DESIGN.md).
enum ExitCode : int { kOk = 0, kDoesNotFit = 1, kUsage = 2, kBadInput = 3, kUndecided = 4 };

// Runs `usmpx` with the arguments after the program name, writing to `out` and `err`.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace usmpx::cli
