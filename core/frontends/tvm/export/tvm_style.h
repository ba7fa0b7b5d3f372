#pragma once

namespace usmpx {

// The details of TVM's generated text that changed between releases. An export keeps the style
// of the model it rewrites, so that an unchanged plan gives unchanged files; new models get the
// style of TVM v0.18.
struct TvmStyle {
  bool io_size_macros = true;         // TVMGEN_<MOD>_<IO>_SIZE macros in the header (v0.11+)
  bool workspace_brief_blank = true;  // "Workspace size ... \"<mod>\" " ends with a blank (v0.9+)
  bool pool_casts = true;             // ((uint8_t*)&pool) in the run wrapper (v0.15+)
  bool const_struct = true;           // "static const struct" for constant pools (v0.17+)
};

}  // namespace usmpx
