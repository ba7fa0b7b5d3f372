#include "input_reading.h"

#include "inputs/input_facts.h"
#include "inputs/input_file.h"
#include "planners/exact/bound_search.h"

namespace usmpx::app {

std::shared_ptr<InputReading> read_input(const std::string& file, const LoadOptions& options) {
  auto result = std::make_shared<InputReading>();
  try {
    result->input = std::make_unique<LoadedInput>(load_input(file, options));
    result->source = result->input->exporter;
    // The bound search of the input's pools, here rather than on the window's thread when the
    // plan the input carries is completed (its results are cached per pool).
    searched_pool_bounds(result->input->problem);
    if (!result->source) result->source_error = QString::fromStdString(result->input->no_export);
    // The check of the plan the input carries, the one `usmpx info` prints (core/inputs/input_facts).
    result->fidelity = QString::fromStdString(as_built_note(*result->input).verdict);
    if (!result->input->as_built && result->input->details)
      result->runtime_plan = result->input->details->reference_plan(result->input->problem);
  } catch (const std::exception& e) {
    result->error = QString::fromStdString(e.what());
  }
  return result;
}

}  // namespace usmpx::app
