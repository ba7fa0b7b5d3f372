#pragma once

// What the command line and the explorer say of a loaded input, computed here once for both: the
// check of the plan it carries, its memory pressure, whether and how it can be exported, and the
// runtime build its figures are for. Each family's part comes from its frontend (InputDetails,
// ModelExporter); nothing above core names a family.

#include <cstdint>
#include <string>

#include "frontends/frontend.h"

namespace usmpx {

// The check of the plan an input carries (empty texts when it carries none).
struct AsBuiltNote {
  std::string text;     // as `info` and `check` print it: "as-built plan: ...", one or more lines
  std::string verdict;  // the same in one short clause for a status bar ("greedy_by_size reproduces 9 of 9 offsets")
};

// The family's own check where its frontend gives one; else TVM's: which of TVM's algorithms,
// re-run on the analysed problem, reproduces the offsets (AsBuiltMatch).
AsBuiltNote as_built_note(const LoadedInput& input);

// The peak of bytes live at once, as `info` reports it (InputDetails::memory_pressure).
int64_t input_memory_pressure(const LoadedInput& input);

// Why the input cannot be exported ("" when it can: it has an exporter).
std::string export_refusal(const LoadedInput& input);

// How an export of the input is offered (the exporter's form; a plain folder export without one).
ExportForm export_form(const LoadedInput& input);

// The proposed export target's file or folder name for `input_path` and `form`: the input's name
// without its extension(s) and the form's suffix ("person_detect_planned.tflite", "sine_replanned").
std::string proposed_export_name(const std::string& input_path, const ExportForm& form);

// Whether an export target names a copy of the model file itself (`out` has the input's extension,
// "planned.tflite") rather than a folder for the copy and what a firmware compiles of it.
bool names_model_copy(const std::string& out, const std::string& input_path);

// The runtime builds the input's figures depend on (none when they do not).
RuntimeBuilds runtime_builds(const LoadedInput& input);

// Whether `kernels`, `target` and `version` ("" = default) name the input's default build.
bool is_default_build(const LoadedInput& input, const std::string& kernels, const std::string& target,
                      const std::string& version = "");

// The build the input's figures are for, in words ("" when they do not depend on one).
std::string runtime_build_text(const LoadedInput& input);

}  // namespace usmpx
