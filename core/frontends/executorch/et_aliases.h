#pragma once

// Which planned tensors of an ExecuTorch program share storage, and why. A `.pte` does not record
// views (ExecuTorch's memory.view shares its base's TensorSpec), so two tensors on the same bytes
// while both are live are one buffer only for a reason the program states:
//  - a view: a tensor the method reads before any instruction writes it (not an input, not a
//    constant or mutable buffer) sits on the bytes of a tensor written before it;
//  - an et_view prim op: its output is its input's storage;
//  - an out-variant's returned value on the bytes of the `out=` tensor the same call writes.
// Any other overlap of live tensors is a broken plan (ExecuTorch's runtime would run it and
// compute other outputs), reported with both tensors and the bytes they share.

#include <cstdint>
#include <vector>

#include "frontends/executorch/et_problem.h"
#include "model/diagnostic.h"

namespace usmpx {

// What the instruction chain says of one planned tensor (indexed like EtAnalysis::tensors).
struct EtUse {
  bool read_first = false;      // a kernel reads it before any instruction writes it
  bool delegate_first = false;  // first named by a delegate call (read or written: its own business)
  int instructions = 0;         // distinct instructions naming it
};

// Two tensors the program says share storage (indices into EtAnalysis::tensors).
struct EtStatedAlias {
  int tensor = -1;
  int other = -1;
  enum class Reason { kEtView, kReturned } reason = Reason::kEtView;
};

struct EtAliasResult {
  std::vector<size_t> root;  // per tensor: the first tensor of its storage group
  int views = 0;             // tensors joined to the tensor they view
  int delegate_views = 0;    // ... of which read first by a delegate call
  int stated = 0;            // tensors joined by an et_view or an out-variant's returned value
  int pinned = 0;            // tensors kept where the program put them (cannot tell what they alias)
  // Tensors a delegate is given first on the exact bytes of a tensor read again after its write
  // (a view, or the delegate's output on dead bytes): joined only when asked.
  int uncertain_views = 0;
  std::vector<Diagnostic> notes;  // warnings: unexplained overlaps of live tensors, pins
};

// Finds views, joins stated aliases, pins what cannot be told, and reports every other overlap
// of live tensors in the program's plan. Sets EtTensorInfo::alias_of, view and pinned.
EtAliasResult resolve_et_aliases(EtAnalysis& a, const std::vector<EtUse>& uses,
                                 const std::vector<EtStatedAlias>& stated, bool join_uncertain);

}  // namespace usmpx
