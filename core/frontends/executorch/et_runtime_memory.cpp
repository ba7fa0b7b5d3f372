#include "frontends/executorch/et_runtime_memory.h"

#include <array>
#include <stdexcept>

namespace usmpx {
namespace {

namespace sc = et_schema;

// x86-64 sizes were checked against ExecuTorch's own method_allocator_used figures
// (shared/executorch/et_runtime.json: every method of six programs, to the byte). The 32-bit
// ones follow from the same structures' fields under the Arm EABI (int64 and double 8-aligned).
constexpr std::array<EtRuntimeTarget, 2> kTargets = {{
    {"cortex-m", 4, 16, 32, 16, 8, 12, 8, false},
    {"x86-64", 8, 16, 64, 32, 16, 24, 16, true},
}};

// ExecuTorch's MemoryAllocator: each allocation starts at the next multiple of its alignment.
class Bump {
 public:
  void allocate(int64_t size, int64_t alignment) { used_ = (used_ + alignment - 1) / alignment * alignment + size; }
  int64_t used() const { return used_; }

 private:
  int64_t used_ = 0;
};

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

EtMethodMemory et_method_memory(const EtMethod& m, const EtRuntimeTarget& t) {
  EtMethodMemory out;
  Bump a;
  const int64_t p = t.pointer;
  const int64_t evalue_align = 8;  // the payload holds int64 and double
  // parse_values: the EValue array, the input-set flags, external constants.
  a.allocate(t.evalue * static_cast<int64_t>(m.values.size()), evalue_align);
  a.allocate(static_cast<int64_t>(m.inputs.size()), 1);
  int64_t external = 0;
  for (const EtValue& v : m.values)
    external += v.tensor && v.tensor->external ? 1 : 0;
  if (external > 0) {
    a.allocate(p * external, p);  // NamedData: at least its key pointer
    out.exact = false;
    out.unknown.push_back(std::to_string(external) + " tensor(s) with data in a .ptd file (NamedData entries)");
  }
  for (const EtValue& v : m.values) {
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
      default:
        break;
    }
  }
  // Delegates: BackendDelegate objects (at least a backend and a handle pointer each) and what
  // each backend's init takes from the method allocator.
  a.allocate(2 * p * static_cast<int64_t>(m.delegates.size()), p);
  for (const EtDelegate& d : m.delegates) {
    out.exact = false;
    out.unknown.push_back("delegate " + d.id + ": its BackendDelegate object and its init allocations");
  }
  // Chains: one Chain each, then per chain the kernel pointers, the argument lists and each
  // kernel or delegate call's EValue pointers.
  a.allocate(t.chain * static_cast<int64_t>(std::max<size_t>(m.chains, 1)), p);
  if (m.chains > 0) {
    const auto n = static_cast<int64_t>(m.instructions.size());
    a.allocate(p * n, p);
    a.allocate(t.span * n, p);
    for (const EtInstruction& in : m.instructions) {
      if (in.type == sc::InstructionType::kKernelCall || in.type == sc::InstructionType::kDelegateCall)
        a.allocate(p * static_cast<int64_t>(in.args.size()), p);
    }
  }
  if (m.chains > 1) {
    out.exact = false;
    out.unknown.push_back("chains after the first (not read)");
  }
  out.method_allocator_bytes = a.used();
  return out;
}

}  // namespace usmpx
