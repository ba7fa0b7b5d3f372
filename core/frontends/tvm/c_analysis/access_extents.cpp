#include "frontends/tvm/c_analysis/access_extents.h"

#include <algorithm>

#include "frontends/tvm/c_analysis/external_operators.h"
#include "frontends/tvm/c_analysis/pointer_reach.h"
#include "model/problem_limits.h"

namespace usmpx {

void AccessExtents::record(int b, const CExpr& subscript, AccessUse use, const ValueRange& index) {
  BufferAccesses& acc = accesses(b);
  const int64_t element = subscript.type_bytes > 0 ? subscript.type_bytes : 1;
  if (acc.element_bytes == 0) {
    acc.element_bytes = element;
    acc.element_type = subscript.type;
  }
  if (use == AccessUse::kStore) acc.stored = true;
  if (use == AccessUse::kLoad) acc.loaded = true;
  int64_t bytes = 0;
  // An index whose byte extent is beyond what can be planned counts as unbounded, like an unknown one.
  if (!index.known ||
      (index.hi >= 0 && (__builtin_mul_overflow(index.hi + 1, element, &bytes) || bytes > kMaxPlannableBytes))) {
    if (acc.unbounded++ == 0) acc.first_unbounded = subscript.range;
    return;
  }
  if (index.hi < 0) return;
  int64_t& slot = use == AccessUse::kLoad ? acc.load_bytes : acc.store_bytes;
  slot = std::max(slot, bytes);
}

int64_t AccessExtents::read_descriptor(const CVariable& var) {
  const CExpr& init = *var.init;
  if (init.kind != CExprKind::kOther || init.text != "{}") return -1;
  if (is_cmsis_context_type(var.type) && init.args.size() == 2) {
    const int b = view_.buffer_of(init.args[0]);
    const ValueRange size = view_.evaluate(init.args[1]);
    if (b >= 0 && size.known && size.lo == size.hi && size.lo > 0) state_size(b, size.lo);
  } else if (is_cmsis_dims_type(var.type) && init.args.size() == 4) {
    int64_t elements = 1;
    for (const CExpr& a : init.args) {
      const ValueRange d = view_.evaluate(a);
      if (!d.known || d.lo != d.hi || d.lo <= 0 || __builtin_mul_overflow(elements, d.lo, &elements) ||
          elements > kMaxPlannableBytes) {
        return -1;
      }
    }
    return elements;
  }
  return -1;
}

void AccessExtents::state_size(int b, int64_t bytes) {
  int64_t& stated = accesses(b).stated_bytes;
  stated = std::max(stated, bytes);
}

void AccessExtents::external_call(const CExpr& call) {
  ExternalCallContext context;
  context.value = [this](const CExpr& e) -> std::optional<int64_t> {
    const ValueRange r = view_.evaluate(e);
    if (r.known && r.lo == r.hi) return r.lo;
    return std::nullopt;
  };
  context.dims_elements = [this](const CExpr& e) -> std::optional<int64_t> {
    const CExpr& x = strip_casts(e);
    if (x.kind != CExprKind::kName || x.decl < 0) return std::nullopt;
    const int64_t n = view_.dims_elements(x.decl);
    return n > 0 ? std::optional<int64_t>(n) : std::nullopt;
  };
  for (const ExternalExtent& extent : external_call_extents(call, context)) {
    const CExpr& arg = strip_casts(call.args[extent.arg]);
    const int b = view_.buffer_of(arg);
    if (b < 0) continue;
    const CVariable& var = view_.variable(arg.decl);
    const int64_t element = var.element_bytes > 0 ? var.element_bytes : 1;
    int64_t bytes = 0;
    if (!__builtin_mul_overflow(extent.elements, element, &bytes) && bytes <= kMaxPlannableBytes) state_size(b, bytes);
  }
}

AccessExtents::ArgumentPointer AccessExtents::argument_pointer(const CExpr& arg) {
  ArgumentPointer p;
  const CExpr& x = strip_casts(arg);
  p.element_bytes = arg.pointee_bytes;
  if (const int b = view_.buffer_of(arg); b >= 0) {
    p.buffer = b;
    p.offset = view_.is_view(arg) ? ValueRange::unknown() : ValueRange::exactly(0);
    return p;
  }
  const CExpr* base = nullptr;
  const CExpr* index = nullptr;
  int64_t unit = 1;
  if (x.kind == CExprKind::kUnary && x.text == "&" && !x.args.empty() &&
      strip_casts(x.args[0]).kind == CExprKind::kSubscript && strip_casts(x.args[0]).args.size() == 2) {
    const CExpr& element = strip_casts(x.args[0]);
    base = &element.args[0];
    index = &element.args[1];
    unit = element.type_bytes;
    p.element_bytes = element.type_bytes;
  } else if (x.kind == CExprKind::kBinary && x.text == "+" && x.args.size() == 2) {
    const bool first = view_.buffer_of(x.args[0]) >= 0;
    base = &x.args[first ? 0 : 1];
    index = &x.args[first ? 1 : 0];
    unit = x.pointee_bytes;
  }
  if (!base || view_.buffer_of(*base) < 0) return p;
  p.buffer = view_.buffer_of(*base);
  p.offset = view_.is_view(*base) ? ValueRange::unknown()
                                  : ranges_.mul(view_.evaluate(*index), ValueRange::exactly(unit > 0 ? unit : 1));
  return p;
}

void AccessExtents::punned_arguments(const CExpr& call, const CFunction& callee, bool walked) {
  std::vector<ValueRange> values;
  for (const CExpr& a : call.args)
    values.push_back(view_.evaluate(a));
  const int fn = static_cast<int>(&callee - program_.functions.data());
  for (size_t i = 0; i < call.args.size() && i < callee.params.size(); ++i) {
    const ArgumentPointer p = argument_pointer(call.args[i]);
    const CVariable& param = callee.variables[static_cast<size_t>(callee.params[i])];
    if (p.buffer < 0 || p.element_bytes == param.element_bytes || (walked && p.element_bytes == 0)) continue;
    const PointerReach reach = parameter_reach(program_, fn, static_cast<int>(i), values);
    const std::string what = "'" + param.type + " " + param.name + "' of " + callee.name + ": ";
    int64_t end = 0;
    if (!reach.bounded) {
      unsized_pun(p.buffer, call.args[i].range, what + reach.why);
    } else if (reach.bytes == 0) {
      continue;
    } else if (!p.offset.known || p.offset.lo < 0 || __builtin_add_overflow(p.offset.hi, reach.bytes, &end) ||
               end > kMaxPlannableBytes) {
      unsized_pun(p.buffer, call.args[i].range, what + "an offset into the buffer the analysis cannot bound");
    } else {
      BufferAccesses& acc = accesses(p.buffer);
      (reach.written ? acc.stored : acc.loaded) = true;
      int64_t& slot = reach.written ? acc.store_bytes : acc.load_bytes;
      slot = std::max(slot, end);
    }
  }
}

void AccessExtents::unsized_pun(int b, const CRange& at, const std::string& why) {
  BufferAccesses& acc = accesses(b);
  if (acc.unsized_pun.valid()) return;
  acc.unsized_pun = at;
  acc.unsized_pun_why = why;
}

}  // namespace usmpx
