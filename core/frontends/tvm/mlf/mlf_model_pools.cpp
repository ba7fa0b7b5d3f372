#include "frontends/tvm/mlf/mlf_model_builder.h"

#include <algorithm>

#include "frontends/tvm/mlf/pool_evidence.h"

namespace usmpx {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> MlfModelBuilder::targets() const {
  std::vector<std::string> out = module_.metadata->targets;
  for (const auto& file_target : m_.code.file_targets) {
    const std::string& target = file_target.second;  // clang 14 cannot capture structured bindings
    const bool known =
        std::any_of(out.begin(), out.end(), [&](const std::string& t) { return trimmed(t) == trimmed(target); });
    if (!known) out.push_back(target);
  }
  if (out.empty()) out.emplace_back("c");
  return out;
}

std::string MlfModelBuilder::target_of(int function) const {
  const std::vector<std::string> all = targets();
  if (function >= 0) {
    const CRange& r = m_.program.functions[static_cast<size_t>(function)].range;
    if (r.valid()) {
      const auto it = m_.code.file_targets.find(m_.program.files[static_cast<size_t>(r.file)].path);
      if (it != m_.code.file_targets.end()) {
        for (const std::string& t : all) {
          if (trimmed(t) == trimmed(it->second)) return t;
        }
      }
    }
  }
  return all.front();
}

void MlfModelBuilder::build_default_pools() {
  assignment_ = assign_pools(options_.pools, targets());
  m_.problem.pools = assignment_.pools;
}

void MlfModelBuilder::build_usmp_pools() {
  std::vector<std::string> names;
  for (const PoolParam& p : m_.code.pool_params) {
    if (p.function == m_.code.entry && std::find(names.begin(), names.end(), p.pool) == names.end())
      names.push_back(p.pool);
  }
  for (const PoolParam& p : m_.code.pool_params) {
    if (std::find(names.begin(), names.end(), p.pool) == names.end()) names.push_back(p.pool);
  }
  std::vector<std::string> unsized;
  for (const std::string& name : names) {
    Pool pool;
    pool.name = name;
    const auto internal = std::find_if(m_.code.internal_pools.begin(), m_.code.internal_pools.end(),
                                       [&](const InternalPool& p) { return p.name == name; });
    if (internal != m_.code.internal_pools.end()) {
      pool.internal = true;
      pool.kind = internal->constant ? PoolKind::kConstant : PoolKind::kWorkspace;
      if (internal->alignment > 0) pool.alignment = internal->alignment;
      declared_size_[name] = internal->size_bytes;
      if (!internal->constant && internal->alignment > 0) workspace_alignment_ = internal->alignment;
    } else {
      // Without a definition, TVM's default constant pool is still known by its name.
      const bool constant = m_.code.external_constant_pools.count(name) || name == kDefaultConstantPool;
      pool.kind = constant ? PoolKind::kConstant : PoolKind::kWorkspace;
      const auto size = m_.code.external_pool_sizes.find(name);
      if (size != m_.code.external_pool_sizes.end()) declared_size_[name] = size->second;
      if (size == m_.code.external_pool_sizes.end() && !lib0_named_missing() &&
          (name == kDefaultWorkspacePool || name == kDefaultConstantPool)) {
        unsized.push_back(name);
      }
    }
    // (The members of a constant struct state their own alignments.)
    if (internal == m_.code.internal_pools.end() || (internal->alignment <= 0 && !internal->constant))
      alignment_from_plan(pool);
    for (const std::string& t : targets())
      pool.targets.push_back({t, pool.kind == PoolKind::kConstant ? "ro" : "rw"});
    m_.problem.pools.push_back(std::move(pool));
  }
  sizes_from_totals_written();
  note_alignments_from_plan();
  for (const std::string& name : unsized) {
    if (declared_size_.count(name)) continue;
    m_.warnings.push_back(input_warning("mlf-missing-pool",
                                        "pool '" + name + "' is not defined in the sources (missing or truncated " +
                                            m_.module + "_lib0.c?); its size is not known",
                                        {m_.package->path, 0, 0}));
  }
}

void MlfModelBuilder::alignment_from_plan(Pool& pool) {
  std::vector<int64_t> offsets;
  for (const PoolLet& let : m_.code.lets) {
    if (let.pool == pool.name) offsets.push_back(let.offset);
  }
  if (offsets.empty()) return;
  pool.alignment = alignment_dividing(offsets, kDefaultAlignment);
  plan_alignment_[pool.name] = pool.alignment;
  if (pool.kind == PoolKind::kWorkspace) workspace_alignment_ = std::min(workspace_alignment_, pool.alignment);
}

void MlfModelBuilder::note_alignments_from_plan() {
  std::string pools;
  for (const auto& [name, align] : plan_alignment_) {
    if (align == kDefaultAlignment) continue;  // TVM's default, which the plan confirms
    pools += (pools.empty() ? "" : ", ") + ("'" + name + "' " + std::to_string(align));
  }
  if (pools.empty()) return;
  Diagnostic d = input_warning("mlf-alignment-from-plan",
                               "no " + m_.module +
                                   "_lib0.c or aligned attribute states the alignment of the pools; taken from "
                                   "TVM's plan, the largest power of two up to 16 dividing every offset TVM "
                                   "placed in the pool (bytes): " +
                                   pools,
                               {m_.package->path, 0, 0});
  d.severity = Severity::kNote;
  m_.warnings.push_back(std::move(d));
}

void MlfModelBuilder::sizes_from_totals_written() {
  std::vector<PoolTotal> totals;
  if (m_.code.header_workspace_size >= 0) {
    const std::string& path = module_.header ? module_.header->path : "the header";
    totals.push_back({PoolKind::kWorkspace, m_.code.header_workspace_size - largest_operator_workspace(),
                      path.substr(path.rfind('/') + 1) + "'s " + m_.code.header_workspace_macro});
  }
  const MlfModuleMetadata& meta = *module_.metadata;
  if (meta.workspace_size_bytes >= 0) {
    totals.push_back({PoolKind::kWorkspace, meta.workspace_size_bytes - largest_operator_workspace(),
                      "metadata.json's workspace_size_bytes"});
  }
  if (meta.constants_size_bytes >= 0)
    totals.push_back({PoolKind::kConstant, meta.constants_size_bytes, "metadata.json's constants_size_bytes"});
  for (const PoolSizeFromTotal& s : sizes_from_totals(m_.problem.pools, declared_size_, totals)) {
    declared_size_[s.pool] = s.bytes;
    Diagnostic d = input_warning("mlf-pool-size-from-total",
                                 "pool '" + s.pool + "' is not declared in " + m_.module + "_lib0.c; its size, " +
                                     std::to_string(s.bytes) + " bytes, comes from " + s.source,
                                 {m_.package->path, 0, 0});
    d.severity = Severity::kNote;
    m_.warnings.push_back(std::move(d));
  }
}

int64_t MlfModelBuilder::largest_operator_workspace() const {
  int64_t largest = 0;
  for (const MlfOperatorWorkspace& op : module_.metadata->operators)
    largest = std::max(largest, op.workspace_size_bytes);
  return largest;
}

}  // namespace usmpx
