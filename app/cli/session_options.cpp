#include "session_options.h"

#include "base/config_error.h"
#include "base/text_file.h"
#include "session/session_file.h"

namespace usmpx::cli {

std::optional<SessionEdits> read_session_options(Options& options) {
  if (options.session.empty()) return std::nullopt;
  const PoolOptions& p = options.pools;
  if (!p.workspace_pools.empty() || !p.workspace_size_hints.empty() || !p.workspace_targets.empty() ||
      !p.constant_pools.empty() || !p.constant_size_hints.empty() || !p.constant_targets.empty() || p.capacity) {
    throw UsageError(
        "--session: the session's pools apply; pool options cannot be combined with it (edit the pools "
        "in usmp-explorer, or leave --session out)");
  }
  const SessionFile session = read_session_json(read_text_file(options.session), options.session);
  if (options.input.empty()) options.input = session.input;
  if (options.module.empty()) options.module = session.module;
  if (options.runtime_kernels.empty()) options.runtime_kernels = session.runtime_kernels;
  if (options.runtime_target.empty()) options.runtime_target = session.runtime_target;
  if (options.runtime_version.empty() && options.runtime_tree.empty())
    options.runtime_version = session.runtime_version;
  if (!options.algorithm) options.algorithm = session.edits.algorithm;
  if (!options.time_limit_given) options.time_limit_seconds = session.edits.time_limit_seconds;
  return session.edits;
}

void apply_session(LoadedInput& input, const SessionEdits& edits, const Options& options) {
  const SessionEdits unedited = initial_edits(input.problem, edits.algorithm);
  if (options.algorithm == "as-built" && (edits.pools != unedited.pools || !edits.pins.empty())) {
    throw UsageError(
        "--session " + options.session +
        ": the as-built plan belongs to the input's own pools, and the session edits them; choose a planner "
        "with --algorithm");
  }
  try {
    input.problem = apply_edits(input.problem, edits);
  } catch (const ConfigError& e) {
    throw UsageError("--session " + options.session + " does not fit " + input.path + ": " + e.what());
  }
}

}  // namespace usmpx::cli
