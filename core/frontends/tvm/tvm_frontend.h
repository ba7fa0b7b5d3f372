#pragma once

// The TVM frontend: Model Library Format archives and folders, firmware trees (TVM's generated C
// as firmware projects keep it) and TIR dumps, read and analysed as TVM's USMP would, and written
// back as C for any plan. Its parts, from the ground up: tir/ (the TIR tree), tir_readers/
// (TVMScript and legacy text), usmp/ (USMP's buffer-info extraction and pool assignment),
// c_analysis/ (libclang reading of the generated C), mlf/ (archives, metadata, firmware trees,
// the model as analysed) and export/ (rewriting the C, generating it from TIR, the proof harness).

#include <string>

#include "frontends/families.h"

namespace usmpx {

// A TVM input loaded for export (the TVM frontend's load, refusing inputs of other families).
class ExportSource {
 public:
  // Throws InputError or ConfigError like loading, and ExportError for inputs without code
  // (problem JSON, CSV).
  static ExportSource load(const std::string& path, const LoadOptions& options);

  const LoadedInput& input() const { return input_; }  // the problem as analysed, its as-built plan, warnings
  bool is_mlf() const { return input_.format == InputFormat::kMlf || input_.format == InputFormat::kFirmwareTree; }
  ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const {
    return input_.exporter->export_plan(problem, plan, options);
  }
  ExportBundle original(const ExportOptions& options) const { return input_.exporter->original(options); }

 private:
  LoadedInput input_;
};

}  // namespace usmpx
