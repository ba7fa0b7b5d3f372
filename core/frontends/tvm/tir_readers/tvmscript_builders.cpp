#include <algorithm>

#include "frontends/tvm/tir/make.h"
#include "frontends/tvm/tir/printer.h"
#include "frontends/tvm/tir_readers/tvmscript_parser.h"

namespace usmpx {

using tir::DataType;
using tir::ExprRef;
using Kind = ScriptValue::Kind;

namespace {

ScriptValue frame_value(std::shared_ptr<tir::Stmt> frame, tir::StmtRef* body, const SourceLocation& at) {
  ScriptValue v;
  v.kind = Kind::kFrame;
  v.location = at;
  v.frame = std::move(frame);
  v.frame_body = body;
  return v;
}

std::string describe(const ScriptValue& v) {
  switch (v.kind) {
    case Kind::kBuffer: return "buffer '" + v.buffer->name + "'";
    case Kind::kPath: return "'" + v.path + "'";
    case Kind::kList: return "a list";
    case Kind::kTuple: return "a tuple";
    case Kind::kDict: return "a dict";
    case Kind::kNone: return "None";
    case Kind::kFrame: return "a statement";
    case Kind::kCall: return "'" + v.path + "(...)'";
    case Kind::kType: return "a type";
    case Kind::kExpr: return "an expression";
  }
  return "a value";
}

}  // namespace

ExprRef TvmScriptParser::to_expr(const ScriptValue& v) const {
  if (v.kind == Kind::kExpr) return v.expr;
  if (v.kind == Kind::kBuffer) {
    fail(v.location, "buffer '" + v.buffer->name + "' used as a value (write " + v.buffer->name + ".data or " +
                         v.buffer->name + "[...])");
  }
  fail(v.location, "expected an expression, got " + describe(v));
}

std::vector<ExprRef> TvmScriptParser::to_exprs(const ScriptValue& v) const {
  std::vector<ExprRef> out;
  if (v.kind == Kind::kList || v.kind == Kind::kTuple) {
    for (const ScriptValue& item : v.items)
      out.push_back(to_expr(item));
  } else {
    out.push_back(to_expr(v));
  }
  return out;
}

std::string TvmScriptParser::to_string_arg(const ScriptValue& v, std::string_view what) const {
  if (v.kind == Kind::kExpr) {
    if (const auto* s = v.expr->as<tir::StringImm>()) return s->value;
  }
  fail(v.location, "expected a string for " + std::string(what) + ", got " + describe(v));
}

DataType TvmScriptParser::to_dtype(const ScriptValue& v) const {
  if (v.kind == Kind::kType) return v.type;
  if (v.kind == Kind::kPath) {
    const size_t dot = v.path.rfind('.');
    return dtype_from(v.location, dot == std::string::npos ? v.path : v.path.substr(dot + 1));
  }
  return dtype_from(v.location, to_string_arg(v, "the dtype"));
}

int64_t TvmScriptParser::to_int_arg(const ScriptValue& v, std::string_view what) const {
  const std::optional<int64_t> i = v.kind == Kind::kExpr ? tir::constant_int(v.expr.get()) : std::nullopt;
  if (!i) fail(v.location, "expected an integer constant for " + std::string(what));
  return *i;
}

tir::AttrValue TvmScriptParser::to_attr(const ScriptValue& v) const {
  tir::AttrValue a;
  a.location = v.location;
  using AK = tir::AttrValue::Kind;
  switch (v.kind) {
    case Kind::kExpr:
      if (const auto* i = v.expr->as<tir::IntImm>()) {
        if (i->dtype.is_bool()) {
          a.kind = AK::kBool;
          a.bool_value = i->value != 0;
        } else {
          a.kind = AK::kInt;
          a.int_value = i->value;
        }
      } else if (const auto* f = v.expr->as<tir::FloatImm>()) {
        a.kind = AK::kFloat;
        a.float_value = f->value;
      } else if (const auto* s = v.expr->as<tir::StringImm>()) {
        a.kind = AK::kString;
        a.text = s->value;
      } else {
        a.kind = AK::kExpr;
        a.expr = v.expr;
      }
      return a;
    case Kind::kNone: return a;
    case Kind::kList:
    case Kind::kTuple:
      a.kind = AK::kList;
      for (const ScriptValue& item : v.items)
        a.items.push_back(to_attr(item));
      return a;
    case Kind::kDict:
      a.kind = AK::kDict;
      for (const auto& [key, value] : v.entries) {
        const tir::AttrValue k = to_attr(key);
        a.entries.emplace_back(k.kind == AK::kString ? k.text : tir::print_expr(*to_expr(key)), to_attr(value));
      }
      return a;
    case Kind::kCall:
      a.kind = AK::kCall;
      a.text = v.path;
      for (const ScriptValue& item : v.items)
        a.items.push_back(to_attr(item));
      for (const auto& [key, value] : v.keywords)
        a.entries.emplace_back(key, to_attr(value));
      return a;
    case Kind::kBuffer:
      a.kind = AK::kRaw;
      a.text = v.buffer->name;
      return a;
    case Kind::kPath:
      a.kind = AK::kRaw;
      a.text = v.path;
      return a;
    case Kind::kType:
      a.kind = AK::kRaw;
      a.text = v.type.to_string();
      return a;
    case Kind::kFrame: break;
  }
  fail(v.location, "expected a value, got " + describe(v));
}

tir::Attrs TvmScriptParser::to_attrs(const ScriptValue& v, std::string_view what) const {
  if (v.kind == Kind::kNone) return {};
  if (v.kind != Kind::kDict) fail(v.location, "expected a dict for " + std::string(what) + ", got " + describe(v));
  return to_attr(v).entries;
}

ScriptValue TvmScriptParser::type_of_annotation(const ScriptValue& v) const {
  if (v.kind == Kind::kType) return v;
  ScriptValue t;
  t.kind = Kind::kType;
  t.location = v.location;
  if (v.kind == Kind::kNone) {
    t.type = DataType::void_();
  } else if (v.kind == Kind::kPath || (v.kind == Kind::kExpr && v.expr->as<tir::StringImm>())) {
    t.type = to_dtype(v);
  } else {
    fail(v.location, "expected a type such as T.handle or T.int32, got " + describe(v));
  }
  return t;
}

ScriptValue TvmScriptParser::make_buffer(const ScriptArgs& args, size_t first, const SourceLocation& at,
                                         bool allow_data) {
  const ScriptValue* shape = args.get(first, "shape");
  if (!shape) fail(at, "a buffer needs a shape");
  auto buffer = std::make_shared<tir::Buffer>();
  buffer->location = at;
  buffer->shape = to_exprs(*shape);
  if (const ScriptValue* d = args.get(first + 1, "dtype")) buffer->dtype = to_dtype(*d);
  if (const ScriptValue* s = args.get(first + 3, "strides"); s && s->kind != Kind::kNone)
    buffer->strides = to_exprs(*s);
  if (const ScriptValue* e = args.get(first + 4, "elem_offset"); e && e->kind != Kind::kNone) {
    buffer->elem_offset = to_expr(*e);
    if (tir::constant_int(buffer->elem_offset.get()) == 0) buffer->elem_offset = nullptr;
  }
  if (const ScriptValue* s = args.get(first + 5, "scope"); s && s->kind != Kind::kNone) {
    buffer->scope = to_string_arg(*s, "the scope");
    if (buffer->scope.empty()) buffer->scope = "global";
  }
  if (const ScriptValue* a = args.get(first + 6, "align")) buffer->data_alignment = to_int_arg(*a, "align");
  if (const ScriptValue* o = args.get(first + 7, "offset_factor"))
    buffer->offset_factor = to_int_arg(*o, "offset_factor");
  ScriptValue v;
  v.kind = Kind::kBuffer;
  v.location = at;
  const ScriptValue* data = allow_data ? args.get(first + 2, "data") : nullptr;
  if (data && data->kind != Kind::kNone) {
    const ExprRef e = to_expr(*data);
    const auto* use = e->as<tir::VarUse>();
    if (!use) fail(data->location, "data= must be a variable");
    buffer->data = use->var;
  } else {
    auto var = std::make_shared<tir::Var>();
    var->dtype = DataType::handle();
    var->pointee = buffer->dtype;
    var->storage_scope = buffer->scope;
    var->location = at;
    buffer->data = var;
    v.fresh_var = true;
  }
  v.buffer = std::move(buffer);
  return v;
}

ScriptValue TvmScriptParser::make_match_buffer(const ScriptArgs& args, const SourceLocation& at) {
  if (!function_) fail(at, "T.match_buffer outside a function");
  const ScriptValue* param = args.get(0, "param");
  if (!param) fail(at, "T.match_buffer needs the parameter to bind");
  const ExprRef e = to_expr(*param);
  const auto* use = e->as<tir::VarUse>();
  const auto& params = function_->params;
  const auto position = use ? std::find(params.begin(), params.end(), use->var) : params.end();
  if (position == params.end()) fail(param->location, "T.match_buffer expects a parameter of the function");
  if (function_->buffer_of(use->var.get()))
    fail(param->location, "parameter '" + use->var->name + "' is already bound");
  ScriptValue v = make_buffer(args, 1, at, true);
  // Keep buffer_map in parameter order, as the printers list it.
  const auto index = position - params.begin();
  auto insert_at = function_->buffer_map.begin();
  while (insert_at != function_->buffer_map.end() &&
         std::find(params.begin(), params.end(), insert_at->param) - params.begin() < index) {
    ++insert_at;
  }
  function_->buffer_map.insert(insert_at, tir::BufferBinding{use->var, v.buffer});
  return v;
}

ScriptValue TvmScriptParser::make_allocate(const ScriptArgs& args, const SourceLocation& at) {
  const ScriptValue* extents = args.get(0, "extents");
  const ScriptValue* dtype = args.get(1, "dtype");
  if (!extents || !dtype) fail(at, "T.allocate needs extents and a dtype");
  auto n = std::make_shared<tir::Allocate>();
  n->location = at;
  n->extents = to_exprs(*extents);
  n->dtype = to_dtype(*dtype);
  if (const ScriptValue* s = args.get(2, "scope")) n->scope = to_string_arg(*s, "the storage scope");
  if (const ScriptValue* c = args.get(3, "condition")) {
    const ExprRef cond = to_expr(*c);
    if (tir::constant_int(cond.get()) != 1) n->condition = cond;
  }
  if (const ScriptValue* a = args.get(4, "annotations")) n->annotations = to_attrs(*a, "the annotations");
  auto var = std::make_shared<tir::Var>();
  var->dtype = DataType::handle();
  var->pointee = n->dtype;
  var->storage_scope = n->scope;
  var->location = at;
  n->var = var;
  ScriptValue v = frame_value(n, &n->body, at);
  v.frame_var = var;
  return v;
}

ScriptValue TvmScriptParser::make_decl_buffer(const ScriptArgs& args, const SourceLocation& at) {
  ScriptValue b = make_buffer(args, 0, at, true);
  auto decl = std::make_shared<tir::DeclBuffer>();
  decl->location = at;
  decl->buffer = b.buffer;
  ScriptValue v;
  if (b.fresh_var) {
    // Without data=, T.decl_buffer also allocates: Allocate(DeclBuffer(...)).
    auto alloc = std::make_shared<tir::Allocate>();
    alloc->location = at;
    alloc->var = b.buffer->data;
    alloc->dtype = b.buffer->dtype;
    alloc->extents = b.buffer->shape;
    alloc->scope = b.buffer->scope;
    alloc->body = decl;
    v = frame_value(alloc, &decl->body, at);
  } else {
    v = frame_value(decl, &decl->body, at);
  }
  v.buffer = b.buffer;
  v.fresh_var = b.fresh_var;
  v.frame_var = b.buffer->data;
  return v;
}

ScriptValue TvmScriptParser::make_allocate_const(const ScriptArgs& args, const SourceLocation& at) {
  const ScriptValue* data = args.get(0, "data");
  const ScriptValue* dtype = args.get(1, "dtype");
  const ScriptValue* extents = args.get(2, "extents");
  if (!data || !dtype || !extents) fail(at, "T.allocate_const needs data, a dtype and extents");
  auto n = std::make_shared<tir::AllocateConst>();
  n->location = at;
  n->dtype = to_dtype(*dtype);
  n->extents = to_exprs(*extents);
  if (data->kind == Kind::kList || data->kind == Kind::kTuple) n->data = to_exprs(*data);
  if (const ScriptValue* a = args.get(3, "annotations")) n->annotations = to_attrs(*a, "the annotations");
  auto var = std::make_shared<tir::Var>();
  var->dtype = DataType::handle();
  var->pointee = n->dtype;
  var->storage_scope = "global";
  var->location = at;
  n->var = var;
  ScriptValue v = frame_value(n, &n->body, at);
  v.frame_var = var;
  return v;
}

ScriptValue TvmScriptParser::make_attr(const ScriptArgs& args, const SourceLocation& at) {
  const ScriptValue* node = args.get(0, "node");
  const ScriptValue* key = args.get(1, "attr_key");
  const ScriptValue* value = args.get(2, "value");
  if (!node || !key || !value) fail(at, "T.attr needs a node, a key and a value");
  auto n = std::make_shared<tir::AttrStmt>();
  n->location = at;
  n->node = to_attr(*node);
  n->key = to_string_arg(*key, "the attribute key");
  n->value = to_expr(*value);
  return frame_value(n, &n->body, at);
}

ScriptValue TvmScriptParser::make_let(const ScriptArgs& args, const SourceLocation& at) {
  const ScriptValue* value = args.get(0, "value");
  if (!value) fail(at, "T.LetStmt needs a value");
  auto n = std::make_shared<tir::LetStmt>();
  n->location = at;
  n->value = to_expr(*value);
  ScriptValue v = frame_value(n, &n->body, at);
  if (const ScriptValue* var = args.get(99, "var")) {
    const ExprRef e = to_expr(*var);
    const auto* use = e->as<tir::VarUse>();
    if (!use) fail(var->location, "var= must be a variable");
    n->var = use->var;
  } else {
    auto fresh = std::make_shared<tir::Var>();
    fresh->dtype = n->value->dtype;
    if (const ScriptValue* t = args.get(1, "type_annotation")) {
      const ScriptValue type = type_of_annotation(*t);
      fresh->dtype = type.type;
      fresh->pointee = type.pointee;
    }
    fresh->location = at;
    n->var = fresh;
    v.frame_var = fresh;
  }
  return v;
}

}  // namespace usmpx
