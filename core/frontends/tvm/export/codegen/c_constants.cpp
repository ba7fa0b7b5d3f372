#include "frontends/tvm/export/codegen/c_constants.h"

#include "export/export_error.h"
#include "frontends/tvm/export/constant_text.h"

namespace usmpx::cexport {
namespace {

ConstantData empty_data(tir::DataType dtype, const std::vector<tir::ExprRef>& extents, const SourceLocation& at) {
  if (!constant_text_supports(dtype)) throw ExportError::unsupported(at, "a constant of type " + dtype.to_string());
  ConstantData d;
  d.dtype = dtype;
  // float16 / bfloat16 data is kept as its bit patterns.
  d.c_type = dtype.bits == 16 && dtype.is_float() ? "uint16_t" : c_type(dtype, at);
  d.elements = 1;
  for (const tir::ExprRef& e : extents) {
    const std::optional<int64_t> n = tir::constant_int(e.get());
    if (!n || *n < 0) throw ExportError::unsupported(at, "a constant with a dynamic shape");
    d.elements *= *n;
  }
  return d;
}

void append_value(const tir::Expr& e, tir::DataType dtype, std::vector<uint8_t>& bytes) {
  const tir::Expr* v = &e;
  while (const auto* cast = v->as<tir::Cast>())
    v = cast->value.get();
  if (const auto* i = v->as<tir::IntImm>()) {
    append_constant_element(dtype, i->value, bytes);
  } else if (const auto* f = v->as<tir::FloatImm>()) {
    if (!dtype.is_float() && f->value != static_cast<double>(static_cast<int64_t>(f->value))) {
      throw ExportError(e.location,
                        "the constant value " + std::to_string(f->value) + " is not a " + dtype.to_string());
    }
    append_constant_element(dtype, f->value, bytes);
  } else {
    throw ExportError::unsupported(e.location, "a constant element that is not a number");
  }
}

}  // namespace

ConstantData constant_data(const tir::AllocateConst& a) {
  ConstantData d = empty_data(a.dtype, a.extents, a.location);
  if (static_cast<int64_t>(a.data.size()) > d.elements) {
    throw ExportError(a.location, "the constant has " + std::to_string(a.data.size()) + " values for " +
                                      std::to_string(d.elements) + " elements");
  }
  d.printed = static_cast<int64_t>(a.data.size());
  for (const tir::ExprRef& e : a.data)
    append_value(*e, a.dtype, d.bytes);
  for (int64_t i = d.printed; i < d.elements; ++i)
    append_constant_element(a.dtype, int64_t{0}, d.bytes);
  return d;
}

ConstantData zero_constant_data(tir::DataType dtype, int64_t elements, const SourceLocation& at) {
  ConstantData d = empty_data(dtype, {}, at);
  d.elements = elements;
  for (int64_t i = 0; i < elements; ++i)
    append_constant_element(dtype, int64_t{0}, d.bytes);
  return d;
}

void note_truncated(ModuleState& module, const std::string& name, const ConstantData& data, const SourceLocation& at) {
  if (data.printed >= data.elements) return;
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = "truncated-constant";
  d.message = "constant " + name + ": the dump printed " + std::to_string(data.printed) + " of " +
              std::to_string(data.elements) + " values; the rest are zero";
  d.location = at;
  module.notes.push_back(std::move(d));
}

std::string constant_array_block(const std::string& name, const ConstantData& data, bool used) {
  // Zero-sized arrays are not C; an empty constant still gets one (zero) element.
  const int64_t elements = data.elements > 0 ? data.elements : 1;
  const std::vector<uint8_t> zero(static_cast<size_t>(data.dtype.lane_bytes()), 0);
  const std::string text = format_constant_data(data.dtype, data.elements > 0 ? data.bytes : zero, 4, "\n");
  return "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\nstatic const " + data.c_type +
         " __attribute__((section(\".rodata.tvm\"), aligned(16)" + (used ? "" : ", unused") + ")) " + name + "[" +
         std::to_string(elements) + "] = {\n" + text + "};\n#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n";
}

TirConstant pool_constant(const std::string& name, const ConstantData& data, const TirPlacement& placement) {
  TirConstant c;
  c.name = name;
  c.c_type = data.c_type;
  c.elements = data.elements;
  c.offset = placement.offset;
  c.pool = placement.pool;
  c.data_text = format_constant_data(data.dtype, data.bytes, 4, "\n");
  c.truncated = data.printed < data.elements;
  return c;
}

}  // namespace usmpx::cexport
