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
  bool measured;  // the model was checked against the runtime's own figure on this target
};

const EtRuntimeTarget& et_target(std::string_view name);  // throws std::out_of_range for other names
std::vector<std::string_view> et_target_names();

// What a method needs from the method allocator beyond its planned buffers.
struct EtMethodMemory {
  int64_t method_allocator_bytes = 0;  // EValues, tensor objects, lists, chains, kernel argument lists
  bool exact = true;                   // false: delegates or external data add bytes the model cannot know
  std::vector<std::string> unknown;    // what is not counted ("delegate ArmBackend: its init allocations")
};

// ExecuTorch's method allocator use after load_method(), allocation by allocation with the
// allocator's alignment, for `target`; assumes the application gives a temp allocator (else
// Method::load takes a PlatformMemoryAllocator and operator lookup takes TensorMeta lists from
// the method allocator too).
EtMethodMemory et_method_memory(const EtMethod& method, const EtRuntimeTarget& target);

}  // namespace usmpx
