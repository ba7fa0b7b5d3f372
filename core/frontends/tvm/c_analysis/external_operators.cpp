#include "frontends/tvm/c_analysis/external_operators.h"

#include <algorithm>
#include <cctype>

#include "frontends/tvm/c_analysis/tvm_code.h"

namespace usmpx {
namespace {

bool contains_word(std::string_view type, std::string_view word) {
  const size_t at = type.find(word);
  if (at == std::string_view::npos) return false;
  const size_t end = at + word.size();
  return end == type.size() || !(std::isalnum(static_cast<unsigned char>(type[end])) || type[end] == '_');
}

bool is_pointer_argument(const CExpr& e) {
  const CExpr& x = strip_casts(e);
  return x.kind == CExprKind::kName && x.decl >= 0;
}

// CMSIS-NN kernels whose every data pointer spans the last argument's element count.
bool is_elementwise(std::string_view callee) {
  return callee.starts_with("arm_elementwise_add_") || callee.starts_with("arm_elementwise_mul_");
}

bool is_softmax(std::string_view callee) {
  return callee == "arm_softmax_s8" || callee == "arm_softmax_s16" || callee == "arm_softmax_u8" ||
         callee == "arm_softmax_s8_s16";
}

}  // namespace

std::vector<ExternalExtent> external_call_extents(const CExpr& call, const ExternalCallContext& context) {
  std::vector<ExternalExtent> out;
  const std::string_view callee = call.text;
  if (!callee.starts_with("arm_")) return out;
  const std::vector<CExpr>& args = call.args;
  if (is_elementwise(callee) && !args.empty()) {
    const std::optional<int64_t> block = context.value(args.back());
    if (!block || *block <= 0) return out;
    for (size_t i = 0; i + 1 < args.size(); ++i) {
      if (is_pointer_argument(args[i])) out.push_back({i, *block});
    }
    return out;
  }
  if (is_softmax(callee) && args.size() >= 7) {
    const std::optional<int64_t> rows = context.value(args[1]);
    const std::optional<int64_t> row_size = context.value(args[2]);
    if (!rows || !row_size || *rows <= 0 || *row_size <= 0) return out;
    for (size_t i : {size_t{0}, args.size() - 1}) {
      if (is_pointer_argument(args[i])) out.push_back({i, *rows * *row_size});
    }
    return out;
  }
  // The convention of every other kernel: a tensor's data follows the dims that describe it.
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    const CExpr& dims = strip_casts(args[i]);
    if (dims.kind != CExprKind::kUnary || dims.text != "&" || dims.args.size() != 1) continue;
    const std::optional<int64_t> elements = context.dims_elements(dims.args[0]);
    if (elements && *elements > 0 && is_pointer_argument(args[i + 1])) out.push_back({i + 1, *elements});
  }
  return out;
}

bool needs_npu(std::string_view callee) {
  return callee.starts_with("TVMEthosULaunch") || callee.starts_with("ethosu_");
}

bool is_cmsis_context_type(std::string_view type) {
  return contains_word(type, "cmsis_nn_context");
}

bool is_cmsis_dims_type(std::string_view type) {
  return contains_word(type, "cmsis_nn_dims");
}

}  // namespace usmpx
