#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"

namespace usmpx {

// How many elements one pointer argument of a call into an operator library spans, as that
// library's documented API states it (CMSIS-NN: a cmsis_nn_dims passed just before the data, an
// element-wise block size, softmax rows x row size).
struct ExternalExtent {
  size_t arg = 0;
  int64_t elements = 0;
};

// Evaluates what the call site knows: the integer value of an argument, and the element count of
// a `&dims` argument whose cmsis_nn_dims local was initialised with constants.
struct ExternalCallContext {
  std::function<std::optional<int64_t>(const CExpr&)> value;
  std::function<std::optional<int64_t>(const CExpr&)> dims_elements;
};

// The extents the API of `call`'s callee states; empty for functions it knows nothing of.
std::vector<ExternalExtent> external_call_extents(const CExpr& call, const ExternalCallContext& context);

// Whether a call needs hardware that is not in a host or emulated build (the Ethos-U NPU).
bool needs_npu(std::string_view callee);

// The scratch buffer size of `cmsis_nn_context ctx = {buffer, size};` when `type` is that struct.
bool is_cmsis_context_type(std::string_view type);
bool is_cmsis_dims_type(std::string_view type);

}  // namespace usmpx
