#include "frontends/tvm/usmp/tir_problem.h"

#include <algorithm>
#include <set>

#include "base/config_error.h"
#include "base/input_error.h"
#include "frontends/tvm/usmp/buffer_info_extractor.h"
#include "frontends/tvm/usmp/create_io_allocates.h"
#include "frontends/tvm/usmp/pool_assignment.h"
#include "frontends/tvm/usmp/pool_lets.h"

namespace usmpx {
namespace {

// Searches attribute values, nested dicts and call arguments for an integer entry `key`.
std::optional<int64_t> find_int(const tir::Attrs& attrs, std::string_view key, int depth = 0) {
  if (depth > 16) return std::nullopt;
  for (const auto& [k, v] : attrs) {
    if (k == key) {
      if (const std::optional<int64_t> i = v.as_int()) return i;
    }
    if (const std::optional<int64_t> i = find_int(v.entries, key, depth + 1)) return i;
    for (const tir::AttrValue& item : v.items) {
      if (const std::optional<int64_t> i = find_int(item.entries, key, depth + 1)) return i;
    }
  }
  return std::nullopt;
}

std::vector<std::string> function_targets(const tir::Module& module, const std::string& fallback) {
  std::vector<std::string> targets;
  for (const tir::PrimFunc& f : module.functions) {
    const std::string t = f.target().empty() ? fallback : f.target();
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  }
  return targets;
}

ExtractionOptions extraction_options(const tir::Module& module, const tir::PrimFunc& main, const PoolOptions& options) {
  ExtractionOptions extraction;
  for (const tir::Attrs* attrs : {&module.attrs, &main.attrs}) {
    if (const auto a = find_int(*attrs, "workspace-byte-alignment")) extraction.workspace_alignment = *a;
    if (const auto a = find_int(*attrs, "constant-byte-alignment")) extraction.constant_alignment = *a;
  }
  if (extraction.workspace_alignment < 1 || extraction.constant_alignment < 1) {
    throw InputError(main.location, "byte alignments must be positive");
  }
  extraction.io_live_throughout = options.use_workspace_io && options.io_live_throughout;
  return extraction;
}

// ExtractBufferInfo over `analysed`'s main: the problem's pools, buffers and timeline, and the
// statement each buffer comes from.
void analyse_buffers(TirProblem& out, std::shared_ptr<const tir::Module> analysed, const std::string& main,
                     const PoolAssignment& pools, const ExtractionOptions& extraction) {
  BufferInfoAnalysis analysis = extract_buffer_info(*analysed, *analysed->find(main), pools, extraction);
  out.problem.pools = pools.pools;
  out.problem.buffers = std::move(analysis.buffers);
  out.problem.memory_pressure = analysis.memory_pressure;
  out.problem.timeline = std::move(analysis.timeline);
  out.module = std::move(analysed);
  out.statements = std::move(analysis.statements);
}

// The pools of a dump USMP already planned: every pool a let names, in main's parameter order,
// unless the options name pools themselves (then each of the dump's must be among them).
PoolAssignment dump_pools(PostUsmpDump& post, const PoolOptions& options, const std::vector<std::string>& targets) {
  for (const auto& let_info : post.lets) {
    const auto& info = let_info.second;  // clang 14 cannot capture structured bindings
    const bool known =
        std::any_of(post.pools.begin(), post.pools.end(), [&](const DumpPool& p) { return p.name == info.pool; });
    if (!known) post.pools.push_back({info.pool, 0, info.constant});
  }
  PoolOptions effective = options;
  const bool user_pools = !options.workspace_pools.empty() || !options.constant_pools.empty();
  for (const DumpPool& p : post.pools) {
    std::vector<std::string>& names = p.constant ? effective.constant_pools : effective.workspace_pools;
    const std::vector<std::string>& given = p.constant ? options.constant_pools : options.workspace_pools;
    if (given.empty() && std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  }
  PoolAssignment pools = assign_pools(effective, targets);
  for (Pool& pool : pools.pools) {
    if (!user_pools && (pool.name == kDefaultWorkspacePool || pool.name == kDefaultConstantPool)) pool.internal = true;
  }
  for (const DumpPool& p : post.pools) {
    const bool present =
        std::any_of(pools.pools.begin(), pools.pools.end(), [&](const Pool& q) { return q.name == p.name; });
    if (!present) throw ConfigError("pool '" + p.name + "' of the dump is not among the given pool options");
  }
  return pools;
}

// The plan a dump was built with: each buffer's pool and offset from its let.
Plan as_built_plan(const Problem& problem, const std::unordered_map<const tir::LetStmt*, PoolLetBuffer>& lets,
                   const std::vector<const tir::Stmt*>& statements) {
  Plan plan;
  plan.algorithm = "as-built";
  for (const tir::Stmt* s : statements) {
    const PoolLetBuffer& info = lets.at(static_cast<const tir::LetStmt*>(s));
    plan.allocations.push_back({*problem.find_pool(info.pool), info.offset});
  }
  compute_pool_sizes(problem, plan);
  return plan;
}

}  // namespace

const tir::PrimFunc& find_main_function(const tir::Module& module, std::vector<Diagnostic>* warnings) {
  if (const tir::PrimFunc* main = module.find("__tvm_main__")) return *main;
  const tir::PrimFunc* runner = nullptr;
  for (const tir::PrimFunc& f : module.functions) {
    const tir::AttrValue* a = tir::find_attr(f.attrs, "runner_function");
    if (!a || a->as_int() != 1) continue;
    if (runner) {
      throw InputError(f.location,
                       "several functions are marked \"runner_function\": '" + runner->name + "' and '" + f.name + "'");
    }
    runner = &f;
  }
  if (runner) return *runner;
  if (module.functions.size() == 1) {
    if (warnings) {
      warnings->push_back(input_warning(
          "no-main",
          "no __tvm_main__ or runner function: analysing '" + module.functions.front().name + "' as the entry",
          module.functions.front().location));
    }
    return module.functions.front();
  }
  const SourceLocation at = module.functions.empty() ? SourceLocation{} : module.functions.front().location;
  throw InputError(at, "no main function: expected a PrimFunc named __tvm_main__ or with \"runner_function\": True");
}

TirProblem analyze_tir_module(const tir::Module& module, const PoolOptions& options) {
  TirProblem out;
  const tir::PrimFunc& main = find_main_function(module, &out.warnings);
  ExtractionOptions extraction = extraction_options(module, main, options);
  const std::vector<std::string> targets = function_targets(module, extraction.default_target);

  std::set<std::string> constant_names(options.constant_pools.begin(), options.constant_pools.end());
  constant_names.insert(kDefaultConstantPool);
  std::optional<PostUsmpDump> post = find_pool_lets(module, main, constant_names);
  out.problem.conflict_source = ConflictSource::kExplicit;
  if (!post) {
    // The copy shares the statement nodes with `module`; the rewrite makes new ones.
    auto analysed =
        std::make_shared<const tir::Module>(options.use_workspace_io ? create_allocates_for_io(module, main) : module);
    analyse_buffers(out, std::move(analysed), main.name, assign_pools(options, targets), extraction);
    return out;
  }

  // After USMP: the pools are the dump's, in main's parameter order, unless options name them.
  for (Diagnostic& d : post->warnings)
    out.warnings.push_back(std::move(d));
  if (options.use_workspace_io) {
    out.warnings.push_back(
        input_warning("workspace-io-ignored", "--use-workspace-io is ignored: the dump is already planned"));
  }
  const PoolAssignment pools = dump_pools(*post, options, targets);
  extraction.pool_lets = &post->lets;
  analyse_buffers(out, std::make_shared<const tir::Module>(module), main.name, pools, extraction);
  out.as_built = as_built_plan(out.problem, post->lets, out.statements);
  return out;
}

}  // namespace usmpx
