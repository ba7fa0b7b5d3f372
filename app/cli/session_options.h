#pragma once

// --session FILE: a session saved in usmp-explorer drives a command. Its input (unless INPUT is
// given), module, algorithm and time limit fill what the command line leaves open, and its pools
// and pins replace the input's own pools once the input is loaded.

#include <optional>

#include "inputs/input_file.h"
#include "options.h"
#include "session/session_edits.h"

namespace usmpx::cli {

// Reads the session named by options.session (nothing when none) and completes `options` from it.
// Returns the edits to apply after loading. Throws UsageError, or InputError for a malformed file.
std::optional<SessionEdits> read_session_options(Options& options);

// The session's pools and pins applied to the loaded input (before the command line's pins).
// Throws UsageError when they no longer fit the input.
void apply_session(LoadedInput& input, const SessionEdits& edits, const Options& options);

}  // namespace usmpx::cli
