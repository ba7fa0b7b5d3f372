#include "inputs/input_file.h"

#include "inputs/reference_plan.h"

#include "base/input_error.h"

namespace usmpx {

LoadedInput load_input(const std::string& path, const LoadOptions& options) {
  const InputFormat format = recognise_input(path);
  if (const Frontend* frontend = frontend_of(format)) {
    LoadedInput input = frontend->load(path, format, options);
    // What the firmware has today, the incumbent of the searching planners (planners/incumbent.h).
    input.problem.reference_allocations = reference_allocations(input, !options.pools.empty());
    return input;
  }
  throw InputError({path, 0, 0},
                   "an explorer session: open it with usmp-explorer, or give it to usmpx export as --session");
}

std::vector<std::string> input_modules(const std::string& path) {
  const InputFormat format = recognise_input(path);
  const Frontend* frontend = frontend_of(format);
  return frontend ? frontend->modules(path, format) : std::vector<std::string>{};
}

}  // namespace usmpx
