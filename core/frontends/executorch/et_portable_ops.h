#pragma once

// The project's own implementation of the ExecuTorch portable operators the programs in
// ../shared/executorch call (aten::add, aten::mul, aten::_softmax, aten::max_pool2d_with_indices,
// out variants): what `usmpx selftest` runs a .pte on. Written from the operators' documented
// semantics (PyTorch's), float32 contiguous tensors; what they do not cover is refused by name.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "frontends/executorch/et_schema.h"

namespace usmpx {

// A tensor as a kernel sees it: its bytes where the plan put them.
struct EtRtTensor {
  int scalar_type = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> dim_order;  // physical order of the logical dims (empty: contiguous)
  uint8_t* data = nullptr;
  int64_t nbytes = 0;
  // Elements; -1 for a negative size or more than 2^40 elements (no kernel runs on those).
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) {
      if (s < 0 || (s > 0 && n > (int64_t{1} << 40) / s)) return -1;
      n *= s;
    }
    return n;
  }
  // Elements between neighbours of each logical dim, from the dim order.
  std::vector<int64_t> strides() const {
    std::vector<int64_t> out(sizes.size(), 1);
    int64_t step = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
      const size_t d = k < dim_order.size() ? static_cast<size_t>(dim_order[k]) : k;
      if (d >= sizes.size()) return {};
      out[d] = step;
      step *= std::max<int64_t>(1, sizes[d]);
    }
    return out;
  }
  // Laid out as its logical order (dims of one element may be anywhere).
  bool contiguous() const {
    const std::vector<int64_t> s = strides();
    int64_t step = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      if (sizes[d] > 1 && s[d] != step) return false;
      step *= std::max<int64_t>(1, sizes[d]);
    }
    return s.size() == sizes.size();
  }
};

// One value of a running method.
struct EtRtValue {
  et_schema::ValueType type = et_schema::ValueType::kNone;
  int64_t i = 0;              // Int, Bool
  double d = 0;               // Double
  std::vector<int64_t> ints;  // IntList (resolved), BoolList
  EtRtTensor tensor;
  std::vector<int32_t> items;  // TensorList: value indices
};

// A kernel: its arguments are the call's value indices into `values`. Throws EtKernelError.
using EtKernel = void (*)(std::vector<EtRtValue>& values, const std::vector<int32_t>& args);

struct EtKernelError {
  std::string message;
};

// The element type (ExecuTorch ScalarType) a kernel implements for one tensor argument of a call.
struct EtArgType {
  size_t arg = 0;  // index into the call's arguments
  int scalar_type = 0;
};

// One operator of the project: its kernel and the element types it implements, per tensor
// argument (an argument not listed takes any type; an optional one given as None is not checked).
struct EtKernelEntry {
  std::string name;
  EtKernel run = nullptr;
  std::vector<EtArgType> types;
};

// The kernel for an operator's full name ("aten::add.out"), or nullptr when not implemented.
EtKernel et_portable_kernel(const std::string& full_name);

// The element types the kernel of `full_name` implements (empty when it is not implemented).
std::vector<EtArgType> et_portable_kernel_types(const std::string& full_name);

// The Cortex-M (CMSIS-NN) operators of backends/cortex_m, added to `table` (et_cortex_m_ops.cpp).
void add_et_cortex_m_kernels(std::vector<EtKernelEntry>& table);

// The operators implemented, for messages and docs.
std::vector<std::string> et_portable_kernel_names();

}  // namespace usmpx
