#include "frontends/tvm/usmp/pool_lets.h"

#include <cctype>

#include "base/input_error.h"
#include "frontends/tvm/tir/walk.h"

namespace usmpx {
namespace {

// The largest buffer seen through one variable.
struct View {
  int64_t size_bytes = -1;
  tir::DataType dtype;
  std::vector<int64_t> shape;
};

void add_view(std::unordered_map<const tir::Var*, View>& views, const tir::Var* var, const tir::Buffer& buffer) {
  const std::optional<int64_t> size = buffer.static_size_bytes();
  if (!size) return;
  View& v = views[var];
  if (*size <= v.size_bytes) return;
  v.size_bytes = *size;
  v.dtype = buffer.dtype;
  v.shape.clear();
  for (const tir::ExprRef& e : buffer.shape)
    v.shape.push_back(tir::constant_int(e.get()).value_or(-1));
}

std::string strip_let(const std::string& name) {
  constexpr std::string_view kSuffix = "_let";
  if (name.size() > kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
    return name.substr(0, name.size() - kSuffix.size());
  }
  return name;
}

}  // namespace

std::optional<std::string> pool_of_parameter(const std::string& parameter) {
  constexpr std::string_view kSuffix = "_var";
  if (parameter.size() <= kSuffix.size() ||
      parameter.compare(parameter.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return std::nullopt;
  }
  const std::string stem = parameter.substr(0, parameter.size() - kSuffix.size());
  size_t digits = stem.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(stem[digits - 1])))
    --digits;
  if (digits == stem.size() || digits < 2 || stem[digits - 1] != '_') return std::nullopt;
  return stem.substr(0, digits - 1);
}

std::optional<PostUsmpDump> find_pool_lets(const tir::Module& module, const tir::PrimFunc& main,
                                           const std::set<std::string>& constant_pool_names) {
  PostUsmpDump dump;
  for (const tir::VarRef& p : main.params) {
    const std::optional<std::string> pool = pool_of_parameter(p->name);
    const tir::BufferRef buffer = main.buffer_of(p.get());
    if (!pool || !buffer) continue;
    dump.pools.push_back({*pool, buffer->static_size_bytes().value_or(0), constant_pool_names.count(*pool) > 0});
  }

  struct Found {
    const tir::LetStmt* let;
    std::string pool;
    int64_t offset;
  };
  std::vector<Found> found;
  std::unordered_map<const tir::Var*, View> views;
  for (const tir::PrimFunc& f : module.functions) {
    // This function's pool buffers: those bound to its <pool>_<k>_var parameters.
    std::unordered_map<const tir::Buffer*, std::string> pool_buffers;
    for (const tir::BufferBinding& b : f.buffer_map) {
      if (const auto pool = pool_of_parameter(b.param->name)) pool_buffers[b.buffer.get()] = *pool;
    }
    tir::walk(
        f,
        [&](const tir::Stmt& s) {
          if (const auto* store = s.as<tir::BufferStore>()) add_view(views, store->buffer->data.get(), *store->buffer);
          if (const auto* decl = s.as<tir::DeclBuffer>()) add_view(views, decl->buffer->data.get(), *decl->buffer);
          const auto* let = s.as<tir::LetStmt>();
          const auto* call = let ? let->value->as<tir::Call>() : nullptr;
          if (!call || call->global || call->op != "address_of" || call->args.size() != 1) return;
          const auto* load = call->args.front()->as<tir::BufferLoad>();
          if (!load || load->indices.size() != 1) return;
          const auto pool = pool_buffers.find(load->buffer.get());
          if (pool == pool_buffers.end()) return;
          const std::optional<int64_t> index = tir::constant_int(load->indices.front().get());
          if (!index || *index < 0)
            throw InputError(let->location, "the offset into pool '" + pool->second + "' is not a constant");
          found.push_back({let, pool->second, *index * load->buffer->dtype.bytes()});
        },
        [&](const tir::Expr& e) {
          if (const auto* load = e.as<tir::BufferLoad>()) add_view(views, load->buffer->data.get(), *load->buffer);
          const auto* call = e.as<tir::Call>();
          const tir::PrimFunc* callee = call ? called_function(module, *call) : nullptr;
          if (!callee) return;
          const std::vector<tir::BufferRef> params = matched_buffers(*callee);
          for (size_t i = 0; i < params.size() && i + 1 < call->args.size(); ++i) {
            const auto* use = call->args[i + 1]->as<tir::VarUse>();
            if (use && params[i]) add_view(views, use->var.get(), *params[i]);
          }
        });
  }
  if (found.empty()) return std::nullopt;

  for (const Found& f : found) {
    const auto view = views.find(f.let->var.get());
    if (view == views.end()) {
      Diagnostic d;
      d.severity = Severity::kWarning;
      d.code = "unknown-size";
      d.message = "no buffer views '" + f.let->var->name + "', so its size is unknown; it is left out";
      d.location = f.let->location;
      dump.warnings.push_back(std::move(d));
      continue;
    }
    PoolLetBuffer b;
    b.name = strip_let(f.let->var->name);
    b.size_bytes = view->second.size_bytes;
    b.constant = constant_pool_names.count(f.pool) > 0;
    b.dtype = view->second.dtype;
    b.shape = view->second.shape;
    b.pool = f.pool;
    b.offset = f.offset;
    dump.lets.emplace(f.let, std::move(b));
  }
  return dump;
}

}  // namespace usmpx
