#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontends/tvm/mlf/mlf_model.h"
#include "model/diagnostic.h"

namespace usmpx {

// What the analysis tells the user about where a model's facts came from and what it assumed.

// One note for a firmware tree (no metadata.json): where each fact came from and what nothing in
// the tree says; nullopt when the module is not one of the tree's.
std::optional<Diagnostic> firmware_tree_note(const MlfModel& model, bool has_relay);

// One warning for the buffers planned live for the whole run because the analysis cannot
// establish their lifetimes, with their bytes and the memory pressure the assumption adds
// (`cost`); nullopt when there are none.
std::optional<Diagnostic> assumed_lifetimes_warning(const MlfModel& model, int64_t cost);

// USMP off: one note for the allocations left to the runtime's allocator because the analysis
// cannot bound their extent or lifetime (WalkResult::kept); nullopt when there are none.
std::optional<Diagnostic> kept_allocations_note(const MlfModel& model);

// USMP off: one note for the allocations whose accesses reach past the size they allocate, planned
// at the size the accesses reach ("'acc' 32 -> 48"); empty `grown` gives nullopt.
std::optional<Diagnostic> grown_allocations_note(const MlfModel& model, const std::vector<std::string>& grown);

}  // namespace usmpx
