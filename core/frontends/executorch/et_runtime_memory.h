#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/executorch/et_program.h"

namespace usmpx {

// The ExecuTorch runtime the method allocator model was checked against (shared/executorch/et_runtime.json).
inline constexpr std::string_view kEtRuntimeVersion = "ExecuTorch cff6f4dd";

// A build of ExecuTorch's runtime the method allocator is modelled for: the sizes of the
// structures Method::init allocates (runtime/executor/method.cpp, tensor_parser_portable.cpp).
struct EtRuntimeTarget {
  std::string_view name;  // "cortex-m" (32-bit pointers), "x86-64"
  int64_t pointer;
  int64_t evalue;       // sizeof(EValue): 8-byte payload and a tag
  int64_t tensor_impl;  // sizeof(TensorImpl)
  int64_t chain;        // sizeof(Method::Chain)
  int64_t span;         // sizeof(Span<T>) = InstructionArgs, ArrayRef<T>
  int64_t boxed_list;   // sizeof(BoxedEvalueList<T>)
  int64_t optional_tensor;
  bool measured;               // the model was checked against the runtime's own figure on this target
  int64_t backend_delegate;    // sizeof(BackendDelegate): its FreeableBuffer and two pointers
  int64_t compile_spec;        // sizeof(CompileSpec): a key pointer and a (pointer, size) value
  int64_t tensor_meta;         // sizeof(TensorMeta): a scalar type and a Span of its dim order
  int64_t platform_allocator;  // sizeof(PlatformMemoryAllocator): a MemoryAllocator and a list head
};

const EtRuntimeTarget& et_target(std::string_view name);  // throws std::out_of_range for other names
std::vector<std::string_view> et_target_names();

// What a method needs from the method allocator beyond its planned buffers.
struct EtMethodMemory {
  int64_t method_allocator_bytes = 0;  // EValues, tensor objects, lists, chains, kernel argument lists
  bool exact = true;                   // false: delegates or external data add bytes the model cannot know
  std::vector<std::string> unknown;    // what is not counted ("delegate ArmBackend: its init allocations")
};

// How the application hands ExecuTorch its memory.
struct EtAllocatorSetup {
  // The MemoryManager has a temp allocator. Without one (ExecuTorch's Arduino examples give a
  // MemoryManager only the method allocator) Method::load takes a PlatformMemoryAllocator from the
  // method allocator, and the operator lookup of every kernel call takes its TensorMeta list and
  // each tensor argument's dim order from the method allocator too, for good.
  bool temp_allocator = true;
};

// ExecuTorch's method allocator use after load_method(), allocation by allocation with the
// allocator's alignment, for `target` and the application's allocator `setup`.
EtMethodMemory et_method_memory(const EtMethod& method, const EtRuntimeTarget& target,
                                const EtAllocatorSetup& setup = {});

// What one delegate's backend init takes from the method allocator on `target`, when measured
// (XnnpackBackend on x86-64: its XNNExecutor and what its compiler keeps); -1 when unknown.
int64_t et_backend_init_bytes(std::string_view backend, const EtRuntimeTarget& target, size_t compile_specs);

}  // namespace usmpx
