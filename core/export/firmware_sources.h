#pragma once

// What a firmware compiles of a model file (a .tflite, a .pte): beside the planned copy, the copy
// as a C++ array (<name>_model_data.h/.cc, 16-byte aligned, const, its length a constexpr, in a
// linker section when asked) and <name>_memory.h, the memory the firmware declares for it. Every
// family that exports a model file writes these through here, so the array and the rule for a
// figure that is only a lower bound are written once.

#include <string>
#include <string_view>
#include <vector>

#include "export/export_bundle.h"

namespace usmpx {

// The model's name as a C++ identifier: every character other than a letter, digit or '_'
// becomes '_', and a leading digit gets "m_" before it ("person-detect" -> "person_detect").
std::string cpp_identifier(std::string_view name);

// The name a model's firmware sources take: `options.model_name`, else the input's file name
// without its extension, as a cpp_identifier.
std::string model_sources_name(const ExportOptions& options, const std::string& input_path);

// One figure the memory header declares.
struct MemoryConstant {
  std::string name;                  // its name when exact ("kTensorArenaSize")
  std::string type = "std::size_t";  // the constexpr's type
  std::string value;                 // a C++ constant expression (usually digits)
  bool exact = true;
  std::vector<std::string> comment;  // what the figure is (one line each)
  std::string basis;                 // the runtime version and build and the plan it is worked out for
  std::vector<std::string> unknown;  // when not exact: what it leaves out
};

// The declaration of `figure` with its comment, which ends naming the usmpx version, the basis
// and whether the figure is exact. A figure that is not exact is declared as
// "<name>AtLeast" under a comment that says it is a lower bound and what is unknown, so a lower
// bound never appears under the exact name a firmware uses.
std::string figure_declaration(const MemoryConstant& figure, std::string_view indent = "");

// What the files say of a model besides its bytes.
struct ModelSourcesSpec {
  std::string name;                     // the files' and symbols' base: a cpp_identifier
  std::string section;                  // the array's linker section ("" = the compiler's choice)
  std::vector<std::string> provenance;  // the memory header's opening lines: runtime, build, plan
  std::vector<std::string> limits;      // where its figures stop being true and how to check them
  std::string preamble;                 // code before the figures (checks of the target)
  std::string figures;                  // declarations (figure_declaration), inside namespace <name>
};

// The file names add_model_sources writes for a model named `name`.
std::string model_data_header(std::string_view name);  // "<name>_model_data.h"
std::string model_data_source(std::string_view name);  // "<name>_model_data.cc"
std::string memory_header(std::string_view name);      // "<name>_memory.h"

// Turns a model-file bundle (ExportBundle::model_file: one file, the planned copy) into the
// folder a firmware compiles: the copy, its array and the memory header, all listed as changed.
void add_model_sources(ExportBundle& bundle, const ModelSourcesSpec& spec);
// The same under the name and in the section `options` give (model_sources_name of `input_path`).
void add_model_sources(ExportBundle& bundle, ModelSourcesSpec spec, const ExportOptions& options,
                       const std::string& input_path);

}  // namespace usmpx
