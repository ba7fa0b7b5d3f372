#pragma once

// What `usmp-explorer` answers without opening a window: --help and --version are printed before
// any QApplication exists, so they work without a display (over ssh, in CI, in packaging checks).

#include <optional>
#include <ostream>
#include <string>

namespace usmpx::app {

// The help text: usage, options and every input kind the tool reads (from the input-kind table).
std::string explorer_help_text();

// For --help/-h/--help-all or --version/-v among the arguments: prints the answer to `out` and
// returns the exit code; nullopt when the window is to be opened.
std::optional<int> answer_without_display(int argc, const char* const* argv, std::ostream& out);

}  // namespace usmpx::app
