#include "frontends/executorch/et_runtime_memory.h"

#include <array>
#include <stdexcept>

#include "base/alignment.h"

namespace usmpx {
namespace {

namespace sc = et_schema;

// x86-64 sizes were checked against ExecuTorch's own method_allocator_used figures
// (shared/executorch/et_runtime.json: every method of six programs, to the byte). The 32-bit
// ones follow from the same structures' fields under the Arm EABI (int64 and double 8-aligned).
// BackendDelegate: ExecuTorch 1.x's FreeableBuffer (a variant of two pointer-and-function pairs,
// a context pointer, a size: 40 B on x86-64) and two pointers; on a Cortex-M at least a 16-byte
// FreeableBuffer of older runtimes. PlatformMemoryAllocator: vtable, three pointers, size and
// profiler id, list head.
constexpr std::array<EtRuntimeTarget, 2> kTargets = {{
    {"cortex-m", 4, 16, 32, 16, 8, 12, 8, false, 24, 12, 12, 28},
    {"x86-64", 8, 16, 64, 32, 16, 24, 16, true, 56, 24, 24, 48},
}};

// What ExecuTorch's runtime (cff6f4d, x86-64) took per XNNPACK delegate from the method allocator,
// its BackendDelegate entry and compile specs included: 224 B above the two pointers counted
// before (shared/executorch/et_delegates.json: 360 -> 584 with one delegate call, 536 -> 984 with
// two, and xnnpack_quantized 496), with no compile spec.
constexpr int64_t kXnnpackDelegateBytesX86 = 240;

// ExecuTorch's MemoryAllocator: each allocation starts at the next multiple of its alignment.
class Bump {
 public:
  void allocate(int64_t size, int64_t alignment) { used_ = align_up(used_, alignment) + size; }
  int64_t used() const { return used_; }

 private:
  int64_t used_ = 0;
};

// Method::resolve_operator without a temp allocator: the TensorMeta list (one per argument) and
// each tensor argument's dim order (one byte per dimension) stay in the method allocator.
void operator_lookup(Bump& a, const EtMethod& m, const EtInstruction& in, const EtRuntimeTarget& t) {
  a.allocate(t.tensor_meta * static_cast<int64_t>(in.args.size()), t.pointer);
  for (int32_t v : in.args) {
    if (v < 0 || static_cast<size_t>(v) >= m.values.size()) continue;
    const EtValue& value = m.values[static_cast<size_t>(v)];
    if (value.type == sc::ValueType::kTensor && value.tensor)
      a.allocate(static_cast<int64_t>(value.tensor->sizes.size()), 1);
  }
}

// What one value takes beyond its EValue: a tensor's TensorImpl and strides, a list's boxes.
void value_payload(Bump& a, const EtValue& v, const EtRuntimeTarget& t) {
  const int64_t p = t.pointer;
  const auto n = static_cast<int64_t>(v.list_length);
  switch (v.type) {
    case sc::ValueType::kTensor: {
      const auto dim = static_cast<int64_t>(v.tensor->sizes.size());
      if (v.tensor->shape_dynamism != 0) {  // sizes and dim order copied out of the program
        a.allocate(4 * dim, 4);
        a.allocate(dim, 1);
      }
      a.allocate(4 * dim, 4);  // strides
      a.allocate(t.tensor_impl, p);
      break;
    }
    case sc::ValueType::kIntList:
      a.allocate(p * n, p);  // the boxed list: EValue pointers
      a.allocate(8 * n, 8);  // the unboxed int64 values
      a.allocate(t.boxed_list, p);
      break;
    case sc::ValueType::kBoolList:
    case sc::ValueType::kDoubleList:
    case sc::ValueType::kString:
      a.allocate(t.span, p);  // an ArrayRef into the program
      break;
    case sc::ValueType::kTensorList:
      a.allocate(p * n, p);
      a.allocate(p * n, p);  // Tensor: a pointer to its TensorImpl
      a.allocate(t.boxed_list, p);
      break;
    case sc::ValueType::kOptionalTensorList:
      a.allocate(p * n, p);
      a.allocate(t.optional_tensor * n, p);
      a.allocate(t.boxed_list, p);
      break;
    default: break;
  }
}

// Method::parse_values: the EValue array, the input-set flags, external constants, then what
// each value holds beyond its EValue.
void parse_values(Bump& a, const EtMethod& m, const EtRuntimeTarget& t, EtMethodMemory& out) {
  const int64_t p = t.pointer;
  const int64_t evalue_align = 8;  // the payload holds int64 and double
  a.allocate(t.evalue * static_cast<int64_t>(m.values.size()), evalue_align);
  a.allocate(static_cast<int64_t>(m.inputs.size()), 1);
  // External constants (data in a .ptd file, not memory-planned) get a NamedData entry each. An
  // external tensor that is memory-planned (a training program's weights) has its data copied into
  // its planned bytes at load and takes nothing here.
  int64_t external = 0;
  for (const EtValue& v : m.values)
    external += v.tensor && v.tensor->external && !v.tensor->allocation ? 1 : 0;
  if (external > 0) {
    a.allocate(p * external, p);  // NamedData: at least its key pointer
    out.exact = false;
    out.unknown.push_back(std::to_string(external) +
                          " constant tensor(s) with data in a .ptd file (NamedData entries)");
  }
  for (const EtValue& v : m.values)
    value_payload(a, v, t);
}

// Delegates: the BackendDelegate array, then per delegate its compile-spec list and what its
// backend's init takes (measured for XNNPACK on x86-64, else unknown).
void init_delegates(Bump& a, const EtMethod& m, const EtRuntimeTarget& t, EtMethodMemory& out) {
  const int64_t p = t.pointer;
  a.allocate(t.backend_delegate * static_cast<int64_t>(m.delegates.size()), p);
  for (const EtDelegate& d : m.delegates) {
    a.allocate(t.compile_spec * static_cast<int64_t>(d.compile_specs), p);
    const int64_t init = et_backend_init_bytes(d.id, t, d.compile_specs);
    if (init >= 0) {
      a.allocate(init, p);
      continue;
    }
    out.exact = false;
    out.unknown.push_back("delegate " + d.id + ": what its init allocates (not measured on " + std::string(t.name) +
                          ")");
  }
}

// Chains: one Chain each, then per chain the kernel pointers, the argument lists and each
// kernel or delegate call's EValue pointers; without a temp allocator each kernel call's operator
// lookup adds its TensorMeta list and its tensor arguments' dim orders right after.
void init_chains(Bump& a, const EtMethod& m, const EtRuntimeTarget& t, const EtAllocatorSetup& setup,
                 EtMethodMemory& out) {
  const int64_t p = t.pointer;
  a.allocate(t.chain * static_cast<int64_t>(std::max<size_t>(m.chains, 1)), p);
  if (m.chains > 0) {
    const auto n = static_cast<int64_t>(m.instructions.size());
    a.allocate(p * n, p);
    a.allocate(t.span * n, p);
    for (const EtInstruction& in : m.instructions) {
      if (in.type != sc::InstructionType::kKernelCall && in.type != sc::InstructionType::kDelegateCall) continue;
      a.allocate(p * static_cast<int64_t>(in.args.size()), p);
      if (in.type == sc::InstructionType::kKernelCall && !setup.temp_allocator) operator_lookup(a, m, in, t);
    }
  }
  if (m.chains > 1) {
    out.exact = false;
    out.unknown.push_back("chains after the first (not read)");
  }
}

}  // namespace

const EtRuntimeTarget& et_target(std::string_view name) {
  for (const EtRuntimeTarget& t : kTargets) {
    if (t.name == name) return t;
  }
  throw std::out_of_range("unknown ExecuTorch target '" + std::string(name) + "' (cortex-m, x86-64)");
}

std::vector<std::string_view> et_target_names() {
  std::vector<std::string_view> names;
  for (const EtRuntimeTarget& t : kTargets)
    names.push_back(t.name);
  return names;
}

int64_t et_backend_init_bytes(std::string_view backend, const EtRuntimeTarget& target, size_t compile_specs) {
  if (backend == "XnnpackBackend" && target.name == "x86-64" && compile_specs == 0)
    return kXnnpackDelegateBytesX86 - target.backend_delegate;
  return -1;
}

EtMethodMemory et_method_memory(const EtMethod& m, const EtRuntimeTarget& t, const EtAllocatorSetup& setup) {
  EtMethodMemory out;
  Bump a;
  if (!setup.temp_allocator) a.allocate(t.platform_allocator, t.pointer);  // Method::load's stand-in temp allocator
  parse_values(a, m, t, out);
  init_delegates(a, m, t, out);
  init_chains(a, m, t, setup, out);
  out.method_allocator_bytes = a.used();
  return out;
}

}  // namespace usmpx
