#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontends/tvm/tir/node.h"
#include "frontends/tvm/usmp/pool_assignment.h"
#include "model/buffer.h"
#include "model/problem.h"

namespace usmpx {

// A LetStmt that a post-USMP dump uses in place of an allocation (`x_let = address_of(pool[off])`),
// to be treated by the extraction like the Allocate it replaced.
struct PoolLetBuffer {
  std::string name;  // the allocation's name (the let variable without "_let")
  int64_t size_bytes = 0;
  bool constant = false;  // placed in a constant pool (it replaced an AllocateConst)
  tir::DataType dtype;
  std::vector<int64_t> shape;
  std::string pool;    // where USMP put it: the pool's name
  int64_t offset = 0;  // and the byte offset in it
};

struct ExtractionOptions {
  int64_t workspace_alignment = 16;  // executor attribute workspace-byte-alignment
  int64_t constant_alignment = 16;   // executor attribute constant-byte-alignment
  std::string default_target = "c";  // for functions without a "target" attribute
  bool io_live_throughout = false;   // keep_io_live for the input_tensor / output_tensor allocations
  // When set, the extraction records these lets instead of Allocate/AllocateConst statements.
  const std::unordered_map<const tir::LetStmt*, PoolLetBuffer>* pool_lets = nullptr;
};

// What TVM's ExtractBufferInfo finds: one buffer per planned statement, with conflicts (explicit
// lists, possibly repeating names and holding the buffer itself) and memory pressure.
struct BufferInfoAnalysis {
  std::vector<Buffer> buffers;               // in the order the walk met them
  std::vector<const tir::Stmt*> statements;  // parallel: the Allocate, AllocateConst or LetStmt
  int64_t memory_pressure = 0;
  // One span per call made from main: from the call's tick to the callee's last, named after it.
  std::vector<TimelineSpan> timeline;
};

// Walks `main` as ExtractBufferInfo does (src/tir/usmp/analysis/extract_buffer_info.cc, v0.18):
// - one tick per statement visit (the bodies of Allocate and AllocateConst are entered without
//   one); calls to functions of the module through call_extern / tvm_call_cpacked are walked at
//   the call site, their arguments unvisited;
// - a callee's parameter buffers alias the caller's allocations passed to them, and aliases are
//   never cleared;
// - recorded: Allocate with a static size, global storage scope and no enclosing loop other than
//   a serial innermost one; AllocateConst when constant pools exist;
// - accesses keyed per call: by the allocation's call when the access is in another function,
//   else by the current call, so a function called twice gives its buffers two intervals;
// - leaving a loop extends the allocations accessed inside it from the start of the outermost
//   loop of the nest to the current tick;
// - names are made unique as name, name2, name3, ...; input_tensor / output_tensor annotations
//   give the name and the kind;
// then runs sweep_liveness. Candidate pools follow each function's target ("target" attribute,
// else options.default_target). Throws InputError on calls it cannot follow and ConfigError when
// a target has no pool.
BufferInfoAnalysis extract_buffer_info(const tir::Module& module, const tir::PrimFunc& main,
                                       const PoolAssignment& pools, const ExtractionOptions& options = {});

// Whether a storage scope is in TVM's global rank ("", "global", "global.workspace", ...).
bool is_global_scope(const std::string& scope);

// The buffers bound to a function's parameters as ExtractBufferInfo pairs them with call
// arguments: every parameter but the last, plus the last when it has a buffer (otherwise it is
// the resource handle). Null entries for parameters without a buffer.
std::vector<tir::BufferRef> matched_buffers(const tir::PrimFunc& function);

// The module function a call_extern / tvm_call_cpacked calls, or null.
const tir::PrimFunc* called_function(const tir::Module& module, const tir::Call& call);

}  // namespace usmpx
