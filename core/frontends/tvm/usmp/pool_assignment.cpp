#include "frontends/tvm/usmp/pool_assignment.h"

#include <algorithm>

#include "base/config_error.h"

namespace usmpx {
namespace {

std::string kind_of(const std::string& target) {
  return target.substr(0, target.find(' '));
}

std::vector<int> candidates(const std::vector<Pool>& pools, PoolKind kind, const std::string& target) {
  std::vector<int> out;
  for (size_t p = 0; p < pools.size(); ++p) {
    if (pools[p].kind != kind) continue;
    const bool serves = std::any_of(pools[p].targets.begin(), pools[p].targets.end(),
                                    [&](const PoolTarget& t) { return target_matches(t.target, target); });
    if (serves) out.push_back(static_cast<int>(p));
  }
  return out;
}

void add_pools(std::vector<Pool>& pools, PoolKind kind, const std::vector<std::string>& names,
               const NamedValues<std::string>& pool_targets, const std::vector<std::string>& targets) {
  const std::string access = kind == PoolKind::kConstant ? "ro" : "rw";
  for (const std::string& name : names) {
    Pool pool;
    pool.name = name;
    pool.kind = kind;
    for (const auto& [pool_name, target] : pool_targets) {
      if (pool_name == name) pool.targets.push_back({target, access});
    }
    if (pool.targets.empty()) {
      for (const std::string& t : targets)
        pool.targets.push_back({t, access});
    }
    pools.push_back(std::move(pool));
  }
}

}  // namespace

bool target_matches(const std::string& pool_target, const std::string& function_target) {
  return pool_target == function_target || kind_of(pool_target) == kind_of(function_target);
}

std::vector<int> PoolAssignment::workspace_candidates(const std::string& target) const {
  return candidates(pools, PoolKind::kWorkspace, target);
}

std::vector<int> PoolAssignment::constant_candidates(const std::string& target) const {
  return candidates(pools, PoolKind::kConstant, target);
}

bool PoolAssignment::has_constant_pools() const {
  return std::any_of(pools.begin(), pools.end(), [](const Pool& p) { return p.kind == PoolKind::kConstant; });
}

PoolAssignment assign_pools(const PoolOptions& options, const std::vector<std::string>& targets) {
  PoolAssignment assignment;
  std::vector<Pool>& pools = assignment.pools;
  const bool user_workspace = !options.workspace_pools.empty();
  if (user_workspace) {
    add_pools(pools, PoolKind::kWorkspace, options.workspace_pools, options.workspace_targets, targets);
  } else {
    add_pools(pools, PoolKind::kWorkspace, {kDefaultWorkspacePool}, {}, targets);
    pools.back().internal = true;
  }
  if (!options.constant_pools.empty()) {
    add_pools(pools, PoolKind::kConstant, options.constant_pools, options.constant_targets, targets);
  } else if (!user_workspace) {
    add_pools(pools, PoolKind::kConstant, {kDefaultConstantPool}, {}, targets);
    pools.back().internal = true;
  }
  for (const auto* list : {&options.workspace_targets, &options.constant_targets}) {
    for (const auto& entry : *list) {
      const std::string& name = entry.first;  // clang 14 cannot capture structured bindings
      const bool known = std::any_of(pools.begin(), pools.end(), [&](const Pool& p) { return p.name == name; });
      if (!known) throw ConfigError("pool targets: unknown pool '" + name + "'");
    }
  }
  // Hints, retargeting and --capacity for pools that exist now (default ones included).
  Problem holder;
  holder.pools = pools;
  PoolOptions rest = options;
  rest.workspace_pools.clear();
  rest.constant_pools.clear();
  rest.workspace_targets.clear();
  rest.constant_targets.clear();
  apply_pool_options(holder, rest);
  pools = std::move(holder.pools);
  return assignment;
}

}  // namespace usmpx
