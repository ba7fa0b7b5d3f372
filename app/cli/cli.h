#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace usmpx::cli {

// Exit codes of usmpx (DESIGN.md).
enum ExitCode : int { kOk = 0, kDoesNotFit = 1, kUsage = 2, kBadInput = 3, kUndecided = 4 };

// Runs one command: what it throws becomes its message on `err` and the exit code that says what
// went wrong (kUsage for a usage error, followed by `usage_hint()` when that says something;
// kBadInput for the input's and every other error).
int with_exit_codes(std::ostream& err, const std::function<int()>& command,
                    const std::function<std::string()>& usage_hint = {});

// Runs `usmpx` with the arguments after the program name, writing to `out` and `err`.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace usmpx::cli
