#include "frontends/tvm/export/codegen/tir_c_codegen.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "base/text_join.h"
#include "export/export_error.h"
#include "frontends/tvm/export/codegen/c_context.h"
#include "frontends/tvm/export/codegen/c_stmt_printer.h"
#include "frontends/tvm/tir/walk.h"
#include "frontends/tvm/usmp/pool_lets.h"

namespace usmpx {
namespace {

using cexport::CFunction;
using cexport::CVar;
using cexport::FunctionContext;
using cexport::ModuleState;
using cexport::sanitize_identifier;

constexpr const char* kExternC = "#ifdef __cplusplus\nextern \"C\"\n#endif\n";

bool is_runner(const tir::PrimFunc& f) {
  const tir::AttrValue* a = tir::find_attr(f.attrs, "runner_function");
  return a && a->as_int() == 1;
}

// The C name: the global_symbol, else the name mangled with the module name as TVM does.
std::string symbol_of(const tir::PrimFunc& f, const std::string& module_name) {
  if (std::optional<std::string> s = f.global_symbol()) return *s;
  if (f.name.starts_with("tvmgen_")) return f.name;
  return "tvmgen_" + sanitize_identifier(module_name) + "_" + f.name;
}

// A parameter <pool>_<k>_var bound to a uint8 buffer: a pool parameter of a post-USMP dump.
std::optional<std::string> old_pool_parameter(const tir::PrimFunc& f, const tir::Var& p) {
  std::optional<std::string> pool = pool_of_parameter(p.name);
  const tir::BufferRef b = pool ? f.buffer_of(&p) : nullptr;
  if (!b || b->dtype != tir::DataType::uint(8)) return std::nullopt;
  return pool;
}

std::string param_type(const tir::PrimFunc& f, const tir::Var& p) {
  if (const tir::BufferRef b = f.buffer_of(&p)) return cexport::c_type(b->dtype, b->location) + "*";
  if (p.dtype.is_handle()) return p.pointee ? cexport::c_type(*p.pointee, p.location) + "*" : "void*";
  return cexport::c_type(p.dtype, p.location);
}

void check_placements(const TirCodegenInput& input) {
  for (const auto& [stmt, placement] : input.placements) {
    const bool kind_ok = stmt->as<tir::Allocate>() || stmt->as<tir::AllocateConst>() || stmt->as<tir::LetStmt>();
    if (!kind_ok) throw ExportError(stmt->location, "only allocations and pool lets can be placed");
    if (std::find(input.pools.begin(), input.pools.end(), placement.pool) == input.pools.end()) {
      throw ExportError(stmt->location,
                        "the placement names pool '" + placement.pool + "', which is not in the list of pools");
    }
    if (placement.offset < 0) throw ExportError(stmt->location, "negative offset in pool '" + placement.pool + "'");
  }
}

// One CFunction per PrimFunc: symbol, kept parameters and their C types.
void plan_functions(ModuleState& m) {
  const tir::Module& module = *m.input->module;
  const tir::PrimFunc& main = *m.input->main;
  // Pool parameters are dropped only from post-USMP dumps, recognised by main having some.
  const bool post_usmp = std::any_of(main.params.begin(), main.params.end(),
                                     [&](const tir::VarRef& p) { return old_pool_parameter(main, *p).has_value(); });
  for (const tir::PrimFunc& f : module.functions) {
    CFunction cf;
    cf.function = &f;
    cf.symbol = symbol_of(f, m.input->module_name);
    if (sanitize_identifier(cf.symbol) != cf.symbol) {
      throw ExportError(f.location, "the function name '" + cf.symbol + "' is not a C identifier");
    }
    if (m.globals.contains(cf.symbol)) {
      throw ExportError(f.location, "the function name '" + cf.symbol + "' is taken (twice in the module, or by C)");
    }
    m.globals.reserve(cf.symbol);
    for (const tir::VarRef& p : f.params) {
      if (post_usmp) {
        if (const std::optional<std::string> pool = old_pool_parameter(f, *p)) {
          cf.old_pools[p.get()] = *pool;
          cf.old_pools[f.buffer_of(p.get())->data.get()] = *pool;
          continue;
        }
      }
      cf.params.push_back(p.get());
      cf.param_types.push_back(param_type(f, *p));
    }
    cf.trailing_handle = !cf.params.empty() && !f.buffer_of(cf.params.back());
    m.by_function[&f] = m.functions.size();
    m.by_name.emplace(f.name, &f);
    m.by_name.emplace(cf.symbol, &f);
    m.functions.push_back(std::move(cf));
  }
}

// ConvertPoolAllocationsToOffsets' parameter naming: main first, then each function the first
// time it is called, depth first; k counts pool parameters across functions.
void assign_pool_vars(ModuleState& m, size_t index, int& k, std::vector<bool>& visited) {
  visited[index] = true;
  CFunction& cf = m.functions[index];
  for (const std::string& pool : m.input->pools)
    cf.pool_vars.push_back(sanitize_identifier(pool) + "_" + std::to_string(k++) + "_var");
  std::vector<size_t> callees;
  tir::walk(
      *cf.function, [](const tir::Stmt&) {},
      [&](const tir::Expr& e) {
        const auto* call = e.as<tir::Call>();
        const tir::PrimFunc* f = call ? m.callee(*call) : nullptr;
        if (f) callees.push_back(m.by_function.at(f));
      });
  for (size_t callee : callees) {
    if (!visited[callee]) assign_pool_vars(m, callee, k, visited);
  }
}

// Module-unique names for constants (they become file-scope arrays or pool struct members).
void name_constants(ModuleState& m, const std::vector<size_t>& order) {
  const auto& placements = m.input->placements;
  for (size_t index : order) {
    tir::walk(
        *m.functions[index].function,
        [&](const tir::Stmt& s) {
          if (const auto* c = s.as<tir::AllocateConst>()) {
            const bool planned = placements.count(c) > 0;
            m.constant_names[c] = m.globals.fresh(sanitize_identifier(c->var->name), planned ? "_let" : "");
          } else if (const auto* l = s.as<tir::LetStmt>()) {
            const auto it = placements.find(l);
            if (it != placements.end() && it->second.constant) {
              m.constant_names[l] = m.globals.fresh(sanitize_identifier(l->var->name));
            }
          }
        },
        [](const tir::Expr&) {});
  }
}

Diagnostic note(std::string code, std::string message) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = std::move(code);
  d.message = std::move(message);
  return d;
}

Diagnostic parameter_note(const std::string& name, const std::string& symbol) {
  return note("external-parameter", "parameter " + name + " (lookup_param) is referenced as " + symbol +
                                        ", which the application must define");
}

struct EmittedFunction {
  std::string declaration;
  std::string definition;
  std::vector<std::string> params;
};

EmittedFunction emit_function(ModuleState& m, const CFunction& cf) {
  const tir::PrimFunc& f = *cf.function;
  FunctionContext ctx(m, cf);
  ctx.names = m.globals;
  tir::walk(
      f,
      [&](const tir::Stmt& s) {
        if (const auto* store = s.as<tir::BufferStore>()) ctx.used.insert(store->buffer->data.get());
      },
      [&](const tir::Expr& e) {
        const auto* use = e.as<tir::VarUse>();
        const auto* load = e.as<tir::BufferLoad>();
        const tir::Var* v = use ? use->var.get() : load ? load->buffer->data.get() : nullptr;
        if (v) {
          ctx.used.insert(v);
          ctx.read.insert(v);
        }
      });
  for (const std::string& pool_var : cf.pool_vars)
    ctx.names.reserve(pool_var);

  EmittedFunction out;
  for (size_t i = 0; i < cf.params.size(); ++i) {
    const tir::Var& p = *cf.params[i];
    const tir::BufferRef b = f.buffer_of(&p);
    // A parameter bound to a buffer is the buffer's data pointer, named after the buffer.
    CVar cv{ctx.names.fresh(sanitize_identifier(b ? b->name : p.name)), CVar::Kind::kScalar, "", false};
    if (b || p.dtype.is_handle()) {
      cv.kind = CVar::Kind::kPointer;
      const std::string& type = cf.param_types[i];
      cv.element = type == "void*" ? "" : type.substr(0, type.size() - 1);
    }
    if (b) ctx.vars[b->data.get()] = cv;
    ctx.vars[&p] = cv;
    out.params.push_back(cf.param_types[i] + " " + cv.name);
  }
  const auto at = out.params.begin() + static_cast<std::ptrdiff_t>(out.params.size() - (cf.trailing_handle ? 1 : 0));
  std::vector<std::string> pools;
  for (const std::string& pool_var : cf.pool_vars)
    pools.push_back("uint8_t* " + pool_var);
  out.params.insert(at, pools.begin(), pools.end());

  cexport::StmtPrinter printer(ctx);
  if (f.body) printer.print(*f.body, 2);
  const std::string signature =
      "TVM_DLL int32_t " + cf.symbol + "(" + (out.params.empty() ? std::string("void") : join(out.params, ", ")) + ")";
  out.declaration = kExternC + signature + ";\n";
  out.definition = kExternC + signature + " {\n";
  for (const std::string& line : printer.lines())
    out.definition += line + "\n";
  out.definition += "  return 0;\n}\n\n";
  return out;
}

}  // namespace

TirCodegenResult emit_tir_host_module(const TirCodegenInput& input) {
  if (!input.module || !input.main) throw std::invalid_argument("emit_tir_host_module needs a module and its main");
  const auto& functions = input.module->functions;
  if (std::none_of(functions.begin(), functions.end(), [&](const tir::PrimFunc& f) { return &f == input.main; })) {
    throw std::invalid_argument("emit_tir_host_module: main is not a function of the module");
  }
  check_placements(input);

  ModuleState m;
  m.input = &input;
  plan_functions(m);
  if (!input.pools.empty()) {
    int k = 0;
    std::vector<bool> visited(m.functions.size(), false);
    assign_pool_vars(m, m.by_function.at(input.main), k, visited);
  }
  // Functions sorted by (is runner function, name), so that main comes last.
  std::vector<size_t> order(m.functions.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto runner = [&](size_t i) {
    return m.functions[i].function == input.main || is_runner(*m.functions[i].function);
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(runner(a), m.functions[a].symbol) < std::make_pair(runner(b), m.functions[b].symbol);
  });
  name_constants(m, order);

  TirCodegenResult result;
  std::string declarations;
  std::string definitions;
  for (size_t index : order) {
    EmittedFunction emitted = emit_function(m, m.functions[index]);
    declarations += emitted.declaration;
    definitions += emitted.definition;
    if (m.functions[index].function == input.main) {
      result.main_symbol = m.functions[index].symbol;
      result.main_params = std::move(emitted.params);
    }
  }
  if (m.placements_emitted != input.placements.size()) {
    throw ExportError({}, std::to_string(input.placements.size() - m.placements_emitted) +
                              " placement(s) refer to statements that are not in the module");
  }

  std::string& out = result.source;
  out = "// tvm target: " + input.target +
        "\n#define TVM_EXPORTS\n#include \"tvm/runtime/c_runtime_api.h\"\n#include \"tvm/runtime/c_backend_api.h\"\n"
        "#include <math.h>\n#include <stdbool.h>\n";
  if (!m.params.empty()) {
    out += "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
    for (const auto& [name, symbol] : m.params) {
      out.append("extern const uint8_t ").append(symbol).append("[];\n");
      m.notes.push_back(parameter_note(name, symbol));
    }
    out += "#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n";
  }
  for (const std::string& name : m.extern_functions) {
    m.notes.push_back(note("external-function", "the module calls the C function " + name +
                                                    ", which the application must declare and define"));
  }
  for (const std::string& block : m.constant_blocks)
    out += block;
  out += declarations;
  out += definitions;
  result.pool_constants = std::move(m.pool_constants);
  result.notes = std::move(m.notes);
  return result;
}

}  // namespace usmpx
