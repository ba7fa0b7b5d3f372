#include "frontends/tvm/mlf/mlf_model_builder.h"

#include <algorithm>

#include "base/input_error.h"
#include "frontends/tvm/mlf/model_notes.h"
#include "frontends/tvm/mlf/module_refusals.h"
#include "frontends/tvm/mlf/reserved_bytes.h"
#include "frontends/tvm/usmp/liveness_sweep.h"
#include "model/live_ranges.h"
#include "model/problem_limits.h"

namespace usmpx {

void MlfModelBuilder::build() {
  m_.code = recognise_tvm_code(m_.program, m_.module, root_);
  append(m_.program.diagnostics);
  append(m_.code.warnings);
  if (module_.relay) relay_ = read_relay_signature(module_.relay->data);
  check_plannable(*m_.package, module_);
  if (m_.code.entry < 0) refuse_without_entry(m_, module_);
  find_io();
  WalkOptions walk;
  if (options_.pools.use_workspace_io) walk.io_names = io_names_;
  m_.walk = walk_entry(m_.program, m_.code, walk, root_);
  append(m_.walk.warnings);
  if (m_.code.usmp()) {
    build_usmp_pools();
  } else {
    build_default_pools();
  }
  build_buffers();
  if (auto note = grown_allocations_note(m_, grown_)) m_.warnings.push_back(std::move(*note));
  if (auto note = kept_allocations_note(m_)) m_.warnings.push_back(std::move(*note));
  if (auto error = problem_limit_error(m_.problem)) throw InputError({m_.package->path, 0, 0}, *error);
  sweep();
  if (m_.code.usmp() && fit_sizes_to_layout()) sweep();
  check_relay_types();
  for (const CallSpan& c : m_.walk.calls)
    m_.problem.timeline.push_back({c.first, c.last, c.callee});
  if (m_.code.usmp()) finish_as_built();
  if (!m_.package->has_metadata) {
    if (auto note = firmware_tree_note(m_, module_.relay != nullptr)) m_.warnings.push_back(std::move(*note));
  }
  if (!m_.code.usmp() && m_.code.static_constant_count > 0) {
    Diagnostic d =
        input_warning("mlf-static-constants",
                      std::to_string(m_.code.static_constant_count) + " constant arrays (" +
                          std::to_string(m_.code.static_constant_bytes) +
                          " bytes) stay static arrays in the operators' code (USMP off); they are not planned");
    d.severity = Severity::kNote;
    m_.warnings.push_back(std::move(d));
  }
}

bool MlfModelBuilder::lib0_named_missing() const {
  if (m_.package->has_metadata) return false;
  return std::any_of(m_.package->firmware.modules.begin(), m_.package->firmware.modules.end(),
                     [&](const FirmwareModuleFiles& f) { return f.name == m_.module && !f.has_lib0; });
}

void MlfModelBuilder::append(const std::vector<Diagnostic>& ds) {
  m_.warnings.insert(m_.warnings.end(), ds.begin(), ds.end());
}

const CFunction* MlfModelBuilder::entry() const {
  return m_.code.entry >= 0 ? &m_.program.functions[static_cast<size_t>(m_.code.entry)] : nullptr;
}

SourceLocation MlfModelBuilder::location(const CRange& r) const {
  if (!r.valid()) return {};
  return {m_.program.files[static_cast<size_t>(r.file)].path, r.line, r.column};
}

SourceLocation MlfModelBuilder::display(const CRange& r) const {
  SourceLocation at = location(r);
  if (!at.file.empty()) at.file = root_ + "/" + at.file;
  return at;
}

bool MlfModelBuilder::is_pool_param(int fn, int var) const {
  return std::any_of(m_.code.pool_params.begin(), m_.code.pool_params.end(),
                     [&](const PoolParam& p) { return p.function == fn && p.variable == var; });
}

void MlfModelBuilder::find_io() {
  const CFunction* fn = entry();
  if (!fn) return;
  std::vector<std::string> params;
  for (int p : fn->params) {
    if (!is_pool_param(m_.code.entry, p)) params.push_back(fn->variables[static_cast<size_t>(p)].name);
  }
  std::vector<std::string> names;
  inputs_ = -1;
  if (!m_.code.inputs.empty() || !m_.code.outputs.empty()) {
    names = m_.code.inputs;
    names.insert(names.end(), m_.code.outputs.begin(), m_.code.outputs.end());
    inputs_ = static_cast<int>(m_.code.inputs.size());
  } else if (!module_.metadata->inputs.empty() && !module_.metadata->outputs.empty()) {
    for (const auto* list : {&module_.metadata->inputs, &module_.metadata->outputs}) {
      for (const MlfTensor& t : *list)
        names.push_back(sanitize_c_name(t.name));
    }
    inputs_ = static_cast<int>(module_.metadata->inputs.size());
  } else {
    for (const std::string& p : params)
      names.push_back(p.ends_with("_buffer_var") ? p.substr(0, p.size() - 11) : p);
  }
  names.resize(std::min(names.size(), params.size()));
  io_names_ = names;
}

void MlfModelBuilder::sweep() {
  std::vector<int64_t> sizes;
  std::vector<bool> constant;
  for (const Buffer& b : m_.problem.buffers) {
    sizes.push_back(b.size_bytes);
    constant.push_back(b.kind == BufferKind::kConstant);
  }
  std::vector<AccessInterval> intervals = m_.walk.intervals;
  const int64_t pressure_seen = assume_uncertain_lifetimes(sizes, constant, intervals);
  if (options_.pools.io_live_throughout) {
    std::vector<int> inputs, outputs;
    for (size_t b = 0; b < m_.problem.buffers.size(); ++b) {
      if (m_.problem.buffers[b].kind == BufferKind::kInput) inputs.push_back(static_cast<int>(b));
      if (m_.problem.buffers[b].kind == BufferKind::kOutput) outputs.push_back(static_cast<int>(b));
    }
    keep_io_live(intervals, inputs, outputs, std::max<int64_t>(0, m_.walk.ticks - 1));
  }
  const LivenessResult live = sweep_liveness(sizes, constant, intervals);
  m_.problem.memory_pressure = live.memory_pressure;
  if (auto assumed = assumed_lifetimes_warning(m_, live.memory_pressure - pressure_seen))
    m_.warnings.push_back(std::move(*assumed));
  m_.problem.conflict_source = ConflictSource::kExplicit;
  for (size_t i = 0; i < m_.problem.buffers.size(); ++i)
    m_.problem.buffers[i].conflicts = live.conflicts[i];
  // The lifetime spans a buffer's intervals; separate ones (an operator called twice) are kept.
  std::vector<std::vector<Lifetime>> ranges(m_.problem.buffers.size());
  for (const AccessInterval& iv : intervals)
    ranges[static_cast<size_t>(iv.buffer)].push_back(Lifetime::closed(iv.first, iv.last));
  for (size_t i = 0; i < ranges.size(); ++i)
    set_live_ranges(m_.problem.buffers[i], std::move(ranges[i]));
}

int64_t MlfModelBuilder::assume_uncertain_lifetimes(const std::vector<int64_t>& sizes,
                                                    const std::vector<bool>& constant,
                                                    std::vector<AccessInterval>& intervals) {
  std::vector<bool> uncertain(m_.walk.buffers.size(), false);
  for (size_t b = 0; b < m_.walk.buffers.size(); ++b) {
    uncertain[b] = m_.walk.buffers[b].lifetime_uncertain && m_.problem.buffers[b].kind != BufferKind::kConstant;
  }
  if (std::find(uncertain.begin(), uncertain.end(), true) == uncertain.end()) return 0;
  std::vector<AccessInterval> seen;
  for (const AccessInterval& iv : intervals) {
    if (!uncertain[static_cast<size_t>(iv.buffer)]) seen.push_back(iv);
  }
  const int64_t pressure_seen = sweep_liveness(sizes, constant, seen).memory_pressure;
  const int64_t last = std::max<int64_t>(0, m_.walk.ticks);
  for (size_t b = 0; b < uncertain.size(); ++b) {
    if (!uncertain[b]) continue;
    seen.push_back({static_cast<int>(b), 0, last});
    m_.problem.buffers[b].lifetime_assumed = true;
  }
  intervals = std::move(seen);
  return pressure_seen;
}

void MlfModelBuilder::finish_as_built() {
  Plan plan;
  plan.algorithm = "as-built";
  plan.allocations.resize(m_.problem.buffers.size());
  std::vector<std::string> unplaced;
  std::set<std::pair<int, int>> reached;
  for (size_t i = 0; i < m_.walk.buffers.size(); ++i) {
    const WalkBuffer& w = m_.walk.buffers[i];
    if (w.source != WalkBufferSource::kPoolLet) {
      unplaced.push_back(w.name);
      continue;
    }
    const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
    reached.insert({let.function, let.variable});
    plan.allocations[i] = {*m_.problem.find_pool(let.pool), let.offset};
  }
  for (const PoolLet& let : m_.code.lets) {
    if (reached.count({let.function, let.variable})) continue;
    const CFunction& fn = m_.program.functions[static_cast<size_t>(let.function)];
    m_.warnings.push_back(input_warning("mlf-unreached-let",
                                        "'" + fn.variables[static_cast<size_t>(let.variable)].name + "' in " + fn.name +
                                            " is not reached from the entry; left out",
                                        display(let.statement)));
  }
  const ReservationInput reservation{declared_size_, pools_exposed_to_unreadable_code(m_.program, m_.code),
                                     std::max<int64_t>(0, m_.walk.ticks - 1), m_.package->path};
  if (auto reserved = reserve_unknown_pool_bytes(m_.problem, plan, reservation))
    m_.warnings.push_back(std::move(*reserved));
  compute_pool_sizes(m_.problem, plan);
  for (size_t p = 0; p < m_.problem.pools.size(); ++p) {
    const auto declared = declared_size_.find(m_.problem.pools[p].name);
    if (declared == declared_size_.end() || declared->second == plan.pool_sizes[p]) continue;
    m_.warnings.push_back(
        input_warning("mlf-pool-size",
                      "pool '" + m_.problem.pools[p].name + "' is " + std::to_string(declared->second) +
                          " bytes in the code but its buffers end at " + std::to_string(plan.pool_sizes[p]) +
                          " (sizes inferred from accesses may be off)",
                      {m_.package->path, 0, 0}));
  }
  if (!unplaced.empty()) {
    std::string names;
    for (const std::string& n : unplaced)
      names += (names.empty() ? "'" : ", '") + n + "'";
    m_.warnings.push_back(input_warning(
        "mlf-as-built", "buffers " + names +
                            " have no place in the code's plan (I/O with --use-workspace-io, or "
                            "TVMBackendAllocWorkspace calls next to USMP pools); as-built not available"));
    return;
  }
  m_.as_built = std::move(plan);
  pin_constants_without_data();
}

void MlfModelBuilder::pin_constants_without_data() {
  std::vector<std::string> pinned;
  for (size_t i = 0; i < m_.walk.buffers.size(); ++i) {
    const WalkBuffer& w = m_.walk.buffers[i];
    Buffer& b = m_.problem.buffers[i];
    if (w.source != WalkBufferSource::kPoolLet || b.kind != BufferKind::kConstant || b.pin) continue;
    const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
    const std::string& var =
        m_.program.functions[static_cast<size_t>(let.function)].variables[static_cast<size_t>(let.variable)].name;
    const bool has_data = std::any_of(m_.code.internal_pools.begin(), m_.code.internal_pools.end(), [&](const auto& p) {
      return p.constant && p.name == let.pool &&
             std::any_of(p.constants.begin(), p.constants.end(), [&](const CField& f) { return f.name == var; });
    });
    if (has_data) continue;
    b.pin = Pin{m_.as_built->allocations[i].pool, m_.as_built->allocations[i].offset};
    pinned.push_back(b.name);
  }
  if (pinned.empty()) return;
  std::string names;
  for (const std::string& n : pinned)
    names += (names.empty() ? "'" : ", '") + n + "'";
  Diagnostic d = input_warning("mlf-constants-pinned",
                               std::to_string(pinned.size()) + " constant(s) pinned where TVM's plan put them (" +
                                   names + "): their data is in " + m_.module +
                                   "_lib0.c, which the input does not hold, so no plan may move them",
                               {m_.package->path, 0, 0});
  d.severity = Severity::kNote;
  m_.warnings.push_back(std::move(d));
}

}  // namespace usmpx
