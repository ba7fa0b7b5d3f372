#pragma once

#include <string>
#include <vector>

#include "frontends/executorch/et_problem.h"
#include "model/diagnostic.h"
#include "model/plan.h"

namespace usmpx {

// What export writes for a plan of a .pte: the new program and the planned buffer sizes it holds.
struct EtExport {
  std::string bytes;
  std::vector<int64_t> pool_bytes;  // per pool of the Problem: the planned buffer's new size
  int64_t changed_tensors = 0;      // tensors whose memory id or offset changed
  std::vector<Diagnostic> notes;
};

// Checks the plan (ExecuTorch's runtime only refuses offsets past a buffer's end), then writes a
// copy of `bytes` (the program `analysis` was read from) with every planned tensor at the plan's
// offset and every planned buffer at the plan's size. The tables whose fields change are
// written anew after the flatbuffer (a fresh AllocationDetails per distinct memory id and offset,
// with every field present, since an offset of 0 has no field in the file; a fresh
// non_const_buffer_sizes vector) and the fields pointing at them are patched; the old tables stay
// unreferenced. Segments move to the next multiple of their alignment after it and the extended
// header follows. The copy is read back and must hold exactly that plan. A plan equal to the
// program's own gives the input's bytes unchanged. Throws ExportError.
EtExport export_et(const EtAnalysis& analysis, const std::string& bytes, const std::string& path,
                   const Problem& problem, const Plan& plan);

}  // namespace usmpx
