#pragma once

#include <string>
#include <vector>

#include "frontends/tflite/tflite_problem.h"
#include "model/diagnostic.h"
#include "model/plan.h"

namespace usmpx {

// The bytes of `bytes` (the model `model` was read from) with an OfflineMemoryAllocation metadata
// entry holding `offsets` (one per tensor of every subgraph, -1: plan at run time), as
// [version 1, subgraph count, tensor count, offsets...]. An existing entry of the right length is
// overwritten in place; otherwise a new root Model table with the old tables plus one Metadata
// and one Buffer is prepended after the 8-byte header, shifting the old bytes by a multiple of 16
// (every alignment kept, the old root left unreferenced). Throws ExportError when that is not
// possible (buffers stored outside the flatbuffer, Model fields of a newer schema).
std::string write_offline_plan(const std::string& bytes, const TfliteModel& model, const std::vector<int32_t>& offsets);

// What export writes for a plan of a .tflite: the new model and the plan TFLM will make from it.
struct TfliteExport {
  std::string bytes;
  std::vector<int32_t> offsets;  // per tensor
  Plan tflm_plan;                // tensors at the written offsets, scratch buffers placed by TFLM
  std::vector<Diagnostic> notes;
};

// Checks the plan TFLM will run (TFLM does not), writes it, and reads the copy back to confirm
// it holds those offsets. Throws ExportError when the plan is invalid or the copy does not verify.
TfliteExport export_tflite(const TfliteAnalysis& analysis, const std::string& bytes, const std::string& path,
                           const Plan& plan);

}  // namespace usmpx
