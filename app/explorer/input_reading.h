#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <string>

#include "frontends/frontend.h"

namespace usmpx::app {

// What reading an input on a worker thread gives the explorer: the input, its exporter (or why it
// has none), the check of the plan it carries and, for an input its runtime plans itself (TFLM),
// the runtime's plan, which a better one is measured against.
struct InputReading {
  std::unique_ptr<LoadedInput> input;
  std::shared_ptr<const ModelExporter> source;
  QString source_error;              // why the input's code could not be read for an export
  QString fidelity;                  // the check of the plan the input carries, as `usmpx info` prints it
  std::optional<Plan> runtime_plan;  // for inputs whose runtime plans itself (TFLM): that plan
  QString error;                     // why the input could not be read ("" when it was)
};

// Reads `file` with `options` and does the work the window needs before showing it (the pools'
// bound search, the as-built check). Safe on any thread; never throws: the error is in `error`.
std::shared_ptr<InputReading> read_input(const std::string& file, const LoadOptions& options);

}  // namespace usmpx::app
