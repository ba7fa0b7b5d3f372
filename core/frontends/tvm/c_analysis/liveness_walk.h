#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "frontends/tvm/usmp/liveness_sweep.h"
#include "model/diagnostic.h"

namespace usmpx {

enum class WalkBufferSource {
  kWorkspaceAlloc,  // TvmCode::allocs[index]
  kPoolLet,         // TvmCode::lets[index]
  kIo,              // the entry's parameter number `index` (with --use-workspace-io)
};

// What the indexed accesses of one buffer reveal about its size, over all its aliases.
struct BufferAccesses {
  int64_t store_bytes = -1;   // largest (index + 1) * element size over stores and addresses taken
  int64_t load_bytes = -1;    // the same over loads
  int64_t element_bytes = 0;  // of the first indexed access
  std::string element_type;   // C spelling of that element's type
  bool stored = false;
  bool loaded = false;
  int unbounded = 0;  // indexed accesses whose index range could not be bounded
  CRange first_unbounded;
  int64_t stated_bytes = -1;  // the largest extent an operator library's API states (CMSIS-NN dims, scratch size)
  // A function defined here reads or writes it through a pointer to another element type further
  // than the analysis can bound: where, and what it could not bound.
  CRange unsized_pun;
  std::string unsized_pun_why;

  // The size the accesses imply: stores (and addresses passed on) first, else loads, and never
  // less than an external operator's API states; -1 when nothing tells.
  int64_t implied_bytes() const {
    const int64_t accessed = store_bytes >= 0 ? store_bytes : load_bytes;
    return accessed > stated_bytes ? accessed : stated_bytes;
  }
};

struct WalkBuffer {
  std::string name;  // unique: TVM's rule "x", "x2", "x3", ... in the order the walk meets them
  WalkBufferSource source = WalkBufferSource::kWorkspaceAlloc;
  int index = -1;
  int function = -1;  // where it is allocated (the entry for I/O)
  CRange origin;
  BufferAccesses accesses;
  // The walk cannot vouch for its accesses: it is allocated or used in a function clang could not
  // parse whole, or never seen used while part of the code is missing. Plan it live throughout.
  bool lifetime_uncertain = false;
  // Where its address is stored somewhere the walk does not follow (through a pointer, into a
  // member or a file-scope variable); invalid when it never is.
  CRange escaped;
};

// A TVMBackendAllocWorkspace whose extent or lifetime the walk cannot bound: it is not planned,
// its allocation stays in the code (the runtime's allocator gives it a block of its own).
struct KeptAllocation {
  int alloc = -1;  // index into TvmCode::allocs
  std::string name;
  std::string reason;          // "an index it cannot bound (default_lib1.c:12:5)", ...
  bool unbounded = false;      // an index the walk cannot bound: how far it reaches is unknown
  int64_t reached_bytes = -1;  // else the extent its accesses reach, -1 when none tells
};

struct WalkOptions {
  // Names of buffers for the entry's leading parameters (its inputs and outputs), planned with
  // --use-workspace-io; empty to leave the I/O out, as USMP does by default.
  std::vector<std::string> io_names;
};

// The ticks one operator call of the entry spans: from its body's first statement to its last.
struct CallSpan {
  std::string callee;
  int64_t first = 0;
  int64_t last = 0;
};

struct WalkResult {
  std::vector<WalkBuffer> buffers;
  std::vector<KeptAllocation> kept;            // allocations left to the runtime, not among `buffers`
  std::vector<AccessInterval> intervals;       // first and last tick per (call, buffer)
  std::vector<CallSpan> calls;                 // the entry's operator calls, in order
  std::map<std::string, int> external_calls;   // functions without a body here (CMSIS-NN, ...) -> calls
  std::vector<std::string> missing_operators;  // operators of the module called but without a body
  int64_t ticks = 0;
  std::vector<Diagnostic> warnings;
};

// Walks the entry as USMP's ExtractBufferInfo walks __tvm_main__: one tick per statement, operator
// bodies walked at their call site (their arguments not visited, their parameters aliased to the
// caller's buffers and never un-aliased), accesses recorded per call, and on leaving a loop every
// buffer accessed inside it extended to the start of the outermost loop of the nest and to the
// end of this loop. Statements the lowering added for TVMBackendAllocWorkspace (null checks,
// frees) are not counted. A call into code without a body here (an operator library such as
// CMSIS-NN, a vendor kernel) accesses every buffer it receives, also through a local struct that
// holds the buffer (CMSIS-NN's context). Along the way, indexed accesses are bounded over the loop ranges to
// infer sizes that the code does not state.
WalkResult walk_entry(const CProgram& program, const TvmCode& code, const WalkOptions& options,
                      const std::string& display_root);

}  // namespace usmpx
