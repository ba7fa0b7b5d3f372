#include "frontends/tvm/c_analysis/tvm_code.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/input_error.h"

namespace usmpx {
namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                                                    : '_';
  return out;
}

std::optional<int64_t> constant_of(const CExpr& e) {
  const CExpr& x = strip_casts(e);
  if (x.kind == CExprKind::kIntLiteral) return x.value;
  if (x.kind == CExprKind::kUnary && x.text == "-" && x.args.size() == 1) {
    if (auto v = constant_of(x.args[0])) return -*v;
  }
  return std::nullopt;
}

std::optional<int64_t> macro_integer(const std::string& value) {
  std::string digits;
  for (char c : value) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c != ' ' && c != '(' && c != ')' && c != 'u' && c != 'U' && c != 'l' && c != 'L') {
      return std::nullopt;
    }
  }
  int64_t v = 0;
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

// "<pool>_<k>_var" -> (pool, k)
std::optional<std::pair<std::string, int64_t>> pool_param_name(std::string_view name) {
  if (!name.ends_with("_var")) return std::nullopt;
  std::string_view rest = name.substr(0, name.size() - 4);
  size_t digits = rest.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(rest[digits - 1])))
    --digits;
  if (digits == rest.size() || digits < 2 || rest[digits - 1] != '_') return std::nullopt;
  int64_t k = 0;
  std::from_chars(rest.data() + digits, rest.data() + rest.size(), k);
  return std::make_pair(std::string(rest.substr(0, digits - 1)), k);
}

// Does the expression mention variable `var` (of the current function)?
bool mentions(const CExpr& e, int var) {
  if (e.kind == CExprKind::kName && e.decl == var) return true;
  return std::any_of(e.args.begin(), e.args.end(), [&](const CExpr& a) { return mentions(a, var); });
}

bool calls(const CExpr& e, std::string_view callee) {
  if (e.kind == CExprKind::kCall && e.text == callee) return true;
  return std::any_of(e.args.begin(), e.args.end(), [&](const CExpr& a) { return calls(a, callee); });
}

// `X == NULL`, `NULL == X`, `!X`, `X == 0`
bool is_null_test(const CExpr& cond, int var) {
  const CExpr& c = strip_casts(cond);
  if (c.kind == CExprKind::kUnary && c.text == "!" && c.args.size() == 1) {
    const CExpr& x = strip_casts(c.args[0]);
    return x.kind == CExprKind::kName && x.decl == var;
  }
  if (c.kind != CExprKind::kBinary || c.text != "==" || c.args.size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    const CExpr& x = strip_casts(c.args[static_cast<size_t>(side)]);
    const CExpr& other = strip_casts(c.args[static_cast<size_t>(1 - side)]);
    if (x.kind == CExprKind::kName && x.decl == var &&
        (other.kind == CExprKind::kIntLiteral || other.kind == CExprKind::kOther)) {
      return true;
    }
  }
  return false;
}

class Recogniser {
 public:
  Recogniser(const CProgram& program, TvmCode& code, const std::string& root)
      : program_(program), code_(code), root_(root) {}

  void run() {
    read_file_targets();
    find_entry();
    find_operators();
    for (size_t f = 0; f < program_.functions.size(); ++f) {
      const CFunction& fn = program_.functions[f];
      if (!fn.is_definition) continue;
      fn_ = static_cast<int>(f);
      find_pool_params(fn);
      scan(fn.body, fn);
    }
    if (code_.entry >= 0) read_entry_calls();
    read_inner_calls();
    read_internal_pools();
    read_header();
    count_static_constants();
  }

 private:
  void warn(const CRange& at, const std::string& code, const std::string& message) {
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.code = code;
    if (at.valid()) {
      d.location = {root_ + "/" + program_.files[static_cast<size_t>(at.file)].path, at.line, at.column};
    }
    d.message = message;
    code_.warnings.push_back(std::move(d));
  }

  void read_file_targets() {
    for (const CSourceFile& f : program_.files) {
      constexpr std::string_view kTag = "// tvm target: ";
      if (!f.text.starts_with(kTag)) continue;
      const size_t end = f.text.find('\n');
      std::string target(
          f.text.substr(kTag.size(), end == std::string_view::npos ? std::string_view::npos : end - kTag.size()));
      if (!target.empty() && target.back() == '\r') target.pop_back();
      code_.file_targets[f.path] = target;
    }
  }

  void find_entry() {
    const auto& fns = program_.functions;
    for (const std::string& name : {code_.prefix + "__tvm_main__", code_.prefix + "run_model"}) {
      const CFunction* f = program_.find_function(name);
      if (f && f->is_definition) {
        code_.entry = static_cast<int>(f - fns.data());
        return;
      }
    }
    for (size_t i = 0; i < fns.size(); ++i) {  // a module named differently from the metadata
      if (fns[i].is_definition && (fns[i].name.ends_with("___tvm_main__") || fns[i].name.ends_with("_run_model"))) {
        code_.entry = static_cast<int>(i);
        const std::string& n = fns[i].name;
        code_.prefix = n.substr(0, n.size() - (n.ends_with("___tvm_main__") ? 12 : 9));
        return;
      }
    }
  }

  // The module's PrimFuncs: functions with the module's prefix (operator helpers pasted in by
  // tensorize intrinsics are static or named otherwise).
  void find_operators() {
    for (const CFunction& f : program_.functions) {
      if (f.is_static || !f.name.starts_with(code_.prefix)) continue;
      if (code_.entry >= 0 && f.name == program_.functions[static_cast<size_t>(code_.entry)].name) continue;
      if (f.name == code_.prefix + "run") continue;
      code_.operators.insert(f.name);
    }
  }

  void find_pool_params(const CFunction& fn) {
    for (int p : fn.params) {
      const CVariable& v = fn.variables[static_cast<size_t>(p)];
      const auto parsed = pool_param_name(v.name);
      if (!parsed || v.element_bytes != 1) continue;
      code_.pool_params.push_back({fn_, p, parsed->first, parsed->second});
    }
  }

  const PoolParam* pool_param(int variable) const {
    for (const PoolParam& p : code_.pool_params) {
      if (p.function == fn_ && p.variable == variable) return &p;
    }
    return nullptr;
  }

  void scan(const CStmt& s, const CFunction& fn) {
    if (s.kind == CStmtKind::kDecl) {
      for (int v : s.decls) {
        const CVariable& var = fn.variables[static_cast<size_t>(v)];
        if (var.init) classify(v, *var.init, s.range);
      }
    } else if (s.kind == CStmtKind::kExpr && !s.exprs.empty()) {
      const CExpr& e = s.exprs[0];
      if (e.kind == CExprKind::kBinary && e.text == "=" && e.args.size() == 2 && e.args[0].kind == CExprKind::kName &&
          e.args[0].decl >= 0) {
        classify(e.args[0].decl, e.args[1], s.range);
      }
      if (calls(e, "TVMBackendFreeWorkspace")) mark_free(e, s.range);
    } else if (s.kind == CStmtKind::kIf && !s.exprs.empty()) {
      if (calls(s.exprs[0], "TVMBackendFreeWorkspace")) {
        mark_free(s.exprs[0], s.range);
        return;
      }
      for (auto& [key, index] : code_.alloc_of) {
        if (key.first == fn_ && is_null_test(s.exprs[0], key.second)) {
          code_.allocs[static_cast<size_t>(index)].null_check = s.range;
          code_.skipped_statements.insert({s.range.file, s.range.begin});
          return;
        }
      }
    }
    for (const CStmt& child : s.body)
      scan(child, fn);
  }

  void mark_free(const CExpr& e, const CRange& statement) {
    code_.skipped_statements.insert({statement.file, statement.begin});
    for (auto& [key, index] : code_.alloc_of) {
      if (key.first == fn_ && mentions(e, key.second)) code_.allocs[static_cast<size_t>(index)].free = statement;
    }
  }

  void classify(int variable, const CExpr& init, const CRange& statement) {
    const CExpr& value = strip_casts(init);
    if (value.kind == CExprKind::kCall && value.text == "TVMBackendAllocWorkspace") {
      WorkspaceAlloc a;
      a.function = fn_;
      a.variable = variable;
      a.statement = statement;
      a.call = value.range;
      if (value.args.size() == 5) {
        a.device_type = constant_of(value.args[0]).value_or(0);
        a.device_id = constant_of(value.args[1]).value_or(0);
        a.nbytes = constant_of(value.args[2]).value_or(-1);
        a.dtype_code = constant_of(value.args[3]).value_or(0);
        a.dtype_bits = constant_of(value.args[4]).value_or(0);
      }
      if (a.nbytes < 0) {
        warn(statement, "mlf-dynamic-workspace",
             "TVMBackendAllocWorkspace with a size that is not a constant is left out (USMP plans static sizes only)");
        return;
      }
      code_.alloc_of[{fn_, variable}] = static_cast<int>(code_.allocs.size());
      code_.allocs.push_back(a);
      return;
    }
    // (&(<pool>_<k>_var[offset]))
    if (value.kind == CExprKind::kUnary && value.text == "&" && value.args.size() == 1) {
      const CExpr& sub = strip_casts(value.args[0]);
      if (sub.kind != CExprKind::kSubscript || sub.args.size() != 2) return;
      const CExpr& base = strip_casts(sub.args[0]);
      if (base.kind != CExprKind::kName || base.decl < 0) return;
      const PoolParam* p = pool_param(base.decl);
      if (!p) return;
      const auto offset = constant_of(sub.args[1]);
      if (!offset) {
        warn(statement, "mlf-let-offset", "pool address with an offset that is not a constant is ignored");
        return;
      }
      PoolLet let;
      let.function = fn_;
      let.variable = variable;
      let.pool = p->pool;
      let.pool_param = base.text;
      let.offset = *offset;
      let.statement = statement;
      let.offset_range = strip_casts(sub.args[1]).range;
      code_.let_of[{fn_, variable}] = static_cast<int>(code_.lets.size());
      code_.lets.push_back(std::move(let));
    }
  }

  void read_entry_calls() {
    const CFunction& entry = program_.functions[static_cast<size_t>(code_.entry)];
    for (const CStmt& s : entry.body.body) {
      const CExpr* call = nullptr;
      EntryCallForm form = EntryCallForm::kNested;
      if (s.kind == CStmtKind::kIf && !s.exprs.empty()) {
        const CExpr& c = s.exprs[0];
        if (c.kind == CExprKind::kBinary && c.text == "!=" && c.args.size() == 2 &&
            strip_casts(c.args[0]).kind == CExprKind::kCall) {
          call = &strip_casts(c.args[0]);
          form = EntryCallForm::kChecked;
        }
      } else if (s.kind == CStmtKind::kExpr && !s.exprs.empty()) {
        const CExpr& e = s.exprs[0];
        if (e.kind == CExprKind::kCast && e.type == "void" && !e.args.empty() &&
            strip_casts(e.args[0]).kind == CExprKind::kCall) {
          call = &strip_casts(e.args[0]);
          form = EntryCallForm::kVoid;
        } else if (e.kind == CExprKind::kCall) {
          call = &e;
          form = EntryCallForm::kPlain;
        }
      }
      if (call && !code_.operators.count(call->text)) call = nullptr;
      if (!call) {
        find_nested_calls(s, s.range);
        continue;
      }
      add_call(*call, form, s.range);
    }
  }

  void add_call(const CExpr& call, EntryCallForm form, const CRange& statement) {
    code_.calls.push_back(entry_call(call, form, statement));
  }

  static EntryCall entry_call(const CExpr& call, EntryCallForm form, const CRange& statement) {
    EntryCall c{call.text, form, statement, call.range, {}};
    for (const CExpr& a : call.args)
      c.args.push_back(a.range);
    return c;
  }

  // Calls from an operator's body to another function of the module.
  void read_inner_calls() {
    for (size_t f = 0; f < program_.functions.size(); ++f) {
      const CFunction& fn = program_.functions[f];
      if (!fn.is_definition || static_cast<int>(f) == code_.entry || !code_.operators.count(fn.name)) continue;
      std::vector<const CStmt*> statements = {&fn.body};
      while (!statements.empty()) {
        const CStmt* s = statements.back();
        statements.pop_back();
        std::vector<const CExpr*> exprs;
        for (const CExpr& e : s->exprs)
          exprs.push_back(&e);
        for (int v : s->decls) {
          const CVariable& var = fn.variables[static_cast<size_t>(v)];
          if (var.init) exprs.push_back(&*var.init);
        }
        while (!exprs.empty()) {
          const CExpr* e = exprs.back();
          exprs.pop_back();
          if (e->kind == CExprKind::kCall && code_.operators.count(e->text))
            code_.inner_calls.push_back({static_cast<int>(f), entry_call(*e, EntryCallForm::kNested, s->range)});
          for (auto it = e->args.rbegin(); it != e->args.rend(); ++it)
            exprs.push_back(&*it);
        }
        for (auto it = s->body.rbegin(); it != s->body.rend(); ++it)
          statements.push_back(&*it);
      }
    }
  }

  void find_nested_calls(const CStmt& s, const CRange& statement) {
    std::vector<const CExpr*> stack;
    for (const CExpr& e : s.exprs)
      stack.push_back(&e);
    while (!stack.empty()) {
      const CExpr* e = stack.back();
      stack.pop_back();
      if (e->kind == CExprKind::kCall && code_.operators.count(e->text))
        add_call(*e, EntryCallForm::kNested, statement);
      for (auto it = e->args.rbegin(); it != e->args.rend(); ++it)
        stack.push_back(&*it);
    }
    for (const CStmt& child : s.body)
      find_nested_calls(child, statement);
  }

  void read_internal_pools() {
    std::set<std::string> pools;
    for (const PoolParam& p : code_.pool_params)
      pools.insert(p.pool);
    for (const CGlobal& g : program_.globals) {
      if (!pools.count(g.name)) continue;
      InternalPool pool;
      pool.name = g.name;
      pool.alignment = g.alignment;
      pool.range = g.range;
      if (g.is_struct) {
        pool.constant = true;
        pool.constants = g.fields;
        for (const CField& f : g.fields)
          pool.size_bytes = std::max(pool.size_bytes, f.offset_bytes + f.size_bytes);
      } else if (g.array_elements >= 0 && g.element_bytes == 1) {
        pool.size_bytes = g.array_elements;
      } else {
        warn(g.range, "mlf-pool", "pool '" + g.name + "' is neither a byte array nor a struct of constants; ignored");
        continue;
      }
      code_.internal_pools.push_back(std::move(pool));
    }
  }

  void read_header() {
    const std::string mod = upper(code_.module);
    for (const char* kind : {"inputs", "outputs"}) {
      const CRecord* r = program_.find_record(code_.prefix + kind);
      if (!r) continue;
      auto& names = std::string(kind) == "inputs" ? code_.inputs : code_.outputs;
      for (const CField& f : r->fields)
        names.push_back(f.name);
    }
    std::set<std::string> pools;
    for (const PoolParam& p : code_.pool_params)
      pools.insert(p.pool);
    for (const CMacro& m : program_.macros) {
      const auto value = macro_integer(m.value);
      if (!value) continue;
      if (m.name == "TVMGEN_" + mod + "_WORKSPACE_SIZE") {
        code_.header_workspace_size = *value;
        code_.header_workspace_macro = m.name;
      }
      for (const std::string& pool : pools) {
        const std::string stem = "TVMGEN_" + mod + "_" + upper(pool);
        if (m.name == stem + "_WORKSPACE_POOL_SIZE") code_.external_pool_sizes[pool] = *value;
        if (m.name == stem + "_CONSTANT_POOL_SIZE") {
          code_.external_pool_sizes[pool] = *value;
          code_.external_constant_pools.insert(pool);
        }
      }
      for (const auto* names : {&code_.inputs, &code_.outputs}) {
        for (const std::string& n : *names) {
          if (m.name == "TVMGEN_" + mod + "_" + upper(n) + "_SIZE") code_.io_sizes[n] = *value;
        }
      }
    }
  }

  void count_static_constants() {
    for (const CGlobal& g : program_.globals) {
      if (!g.is_const || g.array_elements < 0 || g.is_struct) continue;
      ++code_.static_constant_count;
      code_.static_constant_bytes += g.type_bytes;
    }
  }

  const CProgram& program_;
  TvmCode& code_;
  const std::string& root_;
  int fn_ = -1;
};

}  // namespace

const CExpr& strip_casts(const CExpr& e) {
  const CExpr* x = &e;
  while (x->kind == CExprKind::kCast && x->args.size() == 1)
    x = &x->args[0];
  return *x;
}

TvmCode recognise_tvm_code(const CProgram& program, const std::string& module, const std::string& display_root) {
  TvmCode code;
  code.module = module;
  code.prefix = "tvmgen_" + module + "_";
  Recogniser(program, code, display_root).run();
  return code;
}

}  // namespace usmpx
