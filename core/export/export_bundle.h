#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/diagnostic.h"

namespace usmpx {

struct ExportFile {
  std::string path;  // relative to the output root, "/" separators, no "./"
  std::string data;
};

// Everything an export writes, in memory: the files sorted by path, and what the user should know.
struct ExportBundle {
  std::vector<ExportFile> files;
  std::vector<std::string> changed;  // paths whose bytes differ from the input's (or that are new)
  std::vector<Diagnostic> notes;
  // One file written at the target path itself (a model with its plan inside), not a folder or archive.
  bool single_file = false;
  std::string summary;  // what was written, for the user ("" = the list of changed files says it)

  // A model file with its plan inside (a .tflite or .pte copy): one file, named as the input.
  static ExportBundle model_file(const std::string& input_path, std::string bytes, bool changed);

  const ExportFile* find(const std::string& path) const;
  void put(std::string path, std::string data);  // adds or replaces
  void sort();
};

// The part of `bundle` under "<prefix>/", with that prefix removed.
ExportBundle bundle_part(const ExportBundle& bundle, const std::string& prefix);

// What an export adds beside the model's own files.
struct ExportOptions {
  bool harness = false;       // add harness/: main.c, Makefile, stand-in headers, startup code
  uint32_t harness_seed = 1;  // of the generator filling the inputs
  // The name the exported model's module takes, where its family names modules (TVM: as
  // `--module-name` names its C symbols and files); "" keeps the input's.
  std::string module_name;
  // For a model file (a .tflite, a .pte): a folder with the planned copy and what a firmware
  // compiles of it (export/firmware_sources.h) instead of the copy alone.
  bool firmware_sources = false;
  std::string model_name;     // those files' and symbols' base ("" = the input's file name without extension)
  std::string model_section;  // the model array's linker section ("" = none)
};

}  // namespace usmpx
