#include "frontends/tvm/mlf/mlf_model.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "base/config_error.h"
#include "base/input_error.h"
#include "frontends/tvm/mlf/model_notes.h"
#include "frontends/tvm/mlf/module_refusals.h"
#include "frontends/tvm/mlf/pool_evidence.h"
#include "frontends/tvm/mlf/relay_signature.h"
#include "frontends/tvm/mlf/reserved_bytes.h"
#include "frontends/tvm/usmp/liveness_sweep.h"
#include "frontends/tvm/usmp/pool_assignment.h"
#include "model/conflict_graph.h"
#include "model/live_ranges.h"
#include "model/problem_limits.h"

namespace usmpx {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

constexpr int64_t kDefaultAlignment = 16;  // TVM's workspace- and constant-byte-alignment defaults

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

// TVMBackendAllocWorkspace's dtype hint (DLPack type code and bits) as a TVM dtype name.
std::string alloc_dtype(int64_t code, int64_t bits) {
  static const char* const kinds[] = {"int", "uint", "float", "handle", "bfloat"};
  if (code < 0 || code > 4 || bits <= 0) return "";
  return std::string(kinds[code]) + std::to_string(bits);
}

// The TVM dtype of a C element type ("const int8_t" -> "int8"), "" when it is not one.
std::string c_dtype(std::string type) {
  if (type.starts_with("const ")) type = type.substr(6);
  static const std::map<std::string, std::string> names = {
      {"int8_t", "int8"},   {"uint8_t", "uint8"},   {"int16_t", "int16"},    {"uint16_t", "uint16"},
      {"int32_t", "int32"}, {"uint32_t", "uint32"}, {"int64_t", "int64"},    {"uint64_t", "uint64"},
      {"float", "float32"}, {"double", "float64"},  {"signed char", "int8"}, {"unsigned char", "uint8"},
      {"_Bool", "bool"},    {"bool", "bool"}};
  const auto it = names.find(type);
  return it == names.end() ? "" : it->second;
}

class ModelBuilder {
 public:
  ModelBuilder(MlfModel& model, const MlfModule& module, const MlfLoadOptions& options)
      : m_(model), module_(module), options_(options), root_(model.package->path) {}

  void build() {
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

 private:
  // A tree without <mod>_lib0.c, which the firmware tree note names already.
  bool lib0_named_missing() const {
    if (m_.package->has_metadata) return false;
    return std::any_of(m_.package->firmware.modules.begin(), m_.package->firmware.modules.end(),
                       [&](const FirmwareModuleFiles& f) { return f.name == m_.module && !f.has_lib0; });
  }

  void append(const std::vector<Diagnostic>& ds) { m_.warnings.insert(m_.warnings.end(), ds.begin(), ds.end()); }

  const CFunction* entry() const {
    return m_.code.entry >= 0 ? &m_.program.functions[static_cast<size_t>(m_.code.entry)] : nullptr;
  }

  SourceLocation location(const CRange& r) const {
    if (!r.valid()) return {};
    return {m_.program.files[static_cast<size_t>(r.file)].path, r.line, r.column};
  }
  SourceLocation display(const CRange& r) const {
    SourceLocation at = location(r);
    if (!at.file.empty()) at.file = root_ + "/" + at.file;
    return at;
  }

  bool is_pool_param(int fn, int var) const {
    return std::any_of(m_.code.pool_params.begin(), m_.code.pool_params.end(),
                       [&](const PoolParam& p) { return p.function == fn && p.variable == var; });
  }

  // Names of the entry's leading I/O parameters: the interface header's struct fields when there
  // is a header, else metadata.json's, else the parameter names without "_buffer_var".
  void find_io() {
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

  // metadata.json's targets, then any other target named by a source's "// tvm target:" line
  // (compared without surrounding blanks: TVM prints them with a trailing space).
  std::vector<std::string> targets() const {
    std::vector<std::string> out = module_.metadata->targets;
    for (const auto& file_target : m_.code.file_targets) {
      const std::string& target = file_target.second;  // clang 14 cannot capture structured bindings
      const bool known =
          std::any_of(out.begin(), out.end(), [&](const std::string& t) { return trimmed(t) == trimmed(target); });
      if (!known) out.push_back(target);
    }
    if (out.empty()) out.push_back("c");
    return out;
  }

  std::string target_of(int function) const {
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

  void build_default_pools() {
    assignment_ = assign_pools(options_.pools, targets());
    m_.problem.pools = assignment_.pools;
  }

  // USMP on: the pools named by the pool parameters, in the entry's order (TVM sorts them by
  // name); internal ones defined in the code, external ones sized by the interface header.
  void build_usmp_pools() {
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

  // A pool whose alignment the code does not state (no lib0.c, no aligned attribute) has the
  // alignment TVM's plan shows: the largest power of two up to TVM's default that divides every
  // offset TVM placed in it. TVM's own plan is then never judged by a rule the tool assumed.
  void alignment_from_plan(Pool& pool) {
    std::vector<int64_t> offsets;
    for (const PoolLet& let : m_.code.lets) {
      if (let.pool == pool.name) offsets.push_back(let.offset);
    }
    if (offsets.empty()) return;
    pool.alignment = alignment_dividing(offsets, kDefaultAlignment);
    plan_alignment_[pool.name] = pool.alignment;
    if (pool.kind == PoolKind::kWorkspace) workspace_alignment_ = std::min(workspace_alignment_, pool.alignment);
  }

  void note_alignments_from_plan() {
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

  // The sizes TVM wrote elsewhere bound the pools lib0.c does not declare: the header's
  // TVMGEN_<MOD>_WORKSPACE_SIZE and metadata.json's totals are sums of the pools of one kind.
  void sizes_from_totals_written() {
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

  // metadata.json's main workspace adds the largest workspace an operator function allocates for
  // itself (0 with USMP, which gives them pools).
  int64_t largest_operator_workspace() const {
    int64_t largest = 0;
    for (const MlfOperatorWorkspace& op : module_.metadata->operators)
      largest = std::max(largest, op.workspace_size_bytes);
    return largest;
  }

  std::optional<int64_t> io_declared_size(const std::string& name) const {
    for (const auto* list : {&module_.metadata->inputs, &module_.metadata->outputs}) {
      for (const MlfTensor& t : *list) {
        if (sanitize_c_name(t.name) == name && t.size_bytes >= 0) return t.size_bytes;
      }
    }
    const auto it = m_.code.io_sizes.find(name);
    if (it != m_.code.io_sizes.end()) return it->second;
    return std::nullopt;
  }

  const RelayParam* relay_param(const std::string& name) const {
    if (!relay_) return nullptr;
    for (const RelayParam& p : relay_->params) {
      if (sanitize_c_name(p.name) == name) return &p;
    }
    return nullptr;
  }

  void build_buffers() {
    const auto& walk = m_.walk.buffers;
    for (size_t i = 0; i < walk.size(); ++i) {
      const WalkBuffer& w = walk[i];
      Buffer b;
      b.name = w.name;
      b.alignment = workspace_alignment_;
      b.origin = {m_.program.functions[static_cast<size_t>(w.function)].name, location(w.origin)};
      std::string element_dtype = c_dtype(w.accesses.element_type);
      switch (w.source) {
        case WalkBufferSource::kWorkspaceAlloc: {
          const WorkspaceAlloc& a = m_.code.allocs[static_cast<size_t>(w.index)];
          b.size_bytes = a.nbytes;
          b.dtype = alloc_dtype(a.dtype_code, a.dtype_bits);
          if (const auto bytes = dtype_bytes(b.dtype); bytes && a.nbytes % *bytes == 0) b.shape = {a.nbytes / *bytes};
          break;
        }
        case WalkBufferSource::kPoolLet:
          let_buffer(w, b);
          if (const auto it = plan_alignment_.find(m_.code.lets[static_cast<size_t>(w.index)].pool);
              it != plan_alignment_.end())
            b.alignment = it->second;
          break;
        case WalkBufferSource::kIo:
          io_buffer(w, b);
          break;
      }
      if (b.dtype.empty() && !element_dtype.empty()) {
        b.dtype = element_dtype;
        const auto bytes = dtype_bytes(element_dtype);
        if (bytes && b.size_bytes % *bytes == 0) b.shape = {b.size_bytes / *bytes};
      }
      if (w.source == WalkBufferSource::kPoolLet) {
        const int pool = *m_.problem.find_pool(m_.code.lets[static_cast<size_t>(w.index)].pool);
        b.pool_candidates.push_back(pool);
        for (size_t p = 0; p < m_.problem.pools.size(); ++p) {
          if (static_cast<int>(p) != pool &&
              m_.problem.pools[p].kind == m_.problem.pools[static_cast<size_t>(pool)].kind) {
            b.pool_candidates.push_back(static_cast<int>(p));
          }
        }
      } else if (m_.code.usmp()) {
        for (size_t p = 0; p < m_.problem.pools.size(); ++p) {
          if (m_.problem.pools[p].kind == PoolKind::kWorkspace) b.pool_candidates.push_back(static_cast<int>(p));
        }
      } else {
        b.pool_candidates = assignment_.workspace_candidates(target_of(w.function));
      }
      m_.problem.buffers.push_back(std::move(b));
    }
  }

  void let_buffer(const WalkBuffer& w, Buffer& b) {
    const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
    const std::string& var =
        m_.program.functions[static_cast<size_t>(let.function)].variables[static_cast<size_t>(let.variable)].name;
    const Pool& pool = m_.problem.pools[static_cast<size_t>(*m_.problem.find_pool(let.pool))];
    if (pool.kind == PoolKind::kConstant) b.kind = BufferKind::kConstant;
    for (const InternalPool& p : m_.code.internal_pools) {
      if (p.name != let.pool || !p.constant) continue;
      for (const CField& f : p.constants) {
        if (f.name != var) continue;
        b.size_bytes = f.size_bytes;
        b.alignment = f.alignment > 0 ? f.alignment : kDefaultAlignment;
        std::string element = f.type.substr(0, f.type.find('['));
        while (!element.empty() && element.back() == ' ')
          element.pop_back();
        b.dtype = c_dtype(element);
        if (f.array_elements >= 0) b.shape = {f.array_elements};
        if (f.offset_bytes != let.offset) {
          m_.warnings.push_back(input_warning("mlf-constant-offset",
                                              "constant '" + var + "' is at offset " + std::to_string(f.offset_bytes) +
                                                  " of pool '" + p.name + "' but its let line says " +
                                                  std::to_string(let.offset),
                                              display(let.statement)));
        }
        return;
      }
      m_.warnings.push_back(input_warning(
          "mlf-constant-missing", "constant '" + var + "' is not a member of pool '" + p.name + "'; size inferred",
          display(let.statement)));
    }
    b.size_bytes = inferred_size(w, let);
    inferred_.insert(static_cast<int>(&w - m_.walk.buffers.data()));
  }

  // Sizes the code does not state: the accesses, else (warned) the room up to the next buffer.
  int64_t inferred_size(const WalkBuffer& w, const PoolLet& let) {
    const BufferAccesses& acc = w.accesses;
    if (acc.unbounded > 0) {
      m_.warnings.push_back(
          input_warning("mlf-unbounded-access",
                        "'" + w.name + "': " + std::to_string(acc.unbounded) +
                            " accesses with an index the analysis cannot bound; its size comes from the others",
                        display(acc.first_unbounded)));
    }
    if (acc.implied_bytes() > 0) return acc.implied_bytes();
    // Nothing tells: the room TVM left up to the next buffer (widened to the next conflicting
    // one once conflicts are known, see fit_sizes_to_layout).
    int64_t next = declared_size_.count(let.pool) ? declared_size_[let.pool] : -1;
    for (const PoolLet& other : m_.code.lets) {
      if (other.pool == let.pool && other.offset > let.offset && (next < 0 || other.offset < next)) next = other.offset;
    }
    unknown_size_.insert(static_cast<int>(&w - m_.walk.buffers.data()));
    return next > let.offset ? next - let.offset : 0;
  }

  // The room TVM's plan leaves a let buffer: up to the nearest buffer above it that it conflicts
  // with, or the pool's end; -1 when nothing bounds it.
  int64_t room_in_layout(size_t b, const ConflictLists& neighbours) const {
    const WalkBuffer& w = m_.walk.buffers[b];
    if (w.source != WalkBufferSource::kPoolLet) return -1;
    const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
    const auto declared = declared_size_.find(let.pool);
    int64_t end = declared != declared_size_.end() ? declared->second : -1;
    for (int c : neighbours[b]) {
      const WalkBuffer& o = m_.walk.buffers[static_cast<size_t>(c)];
      if (o.source != WalkBufferSource::kPoolLet) continue;
      const PoolLet& other = m_.code.lets[static_cast<size_t>(o.index)];
      if (other.pool == let.pool && other.offset > let.offset && (end < 0 || other.offset < end)) end = other.offset;
    }
    return end >= 0 ? end - let.offset : -1;
  }

  // Where TVM's plan exists, a size the code does not state never reaches into the bytes TVM gave
  // a conflicting neighbour (accesses may over-read, e.g. vector loads past a tensor's end), and a
  // size nothing tells takes the whole room TVM left. Returns whether a size changed.
  bool fit_sizes_to_layout() {
    bool changed = false;
    std::vector<std::string> clamped, assumed;
    const ConflictLists neighbours = symmetric_conflicts(m_.problem);
    for (size_t b = 0; b < m_.problem.buffers.size(); ++b) {
      if (!inferred_.count(static_cast<int>(b))) continue;
      Buffer& buffer = m_.problem.buffers[b];
      const int64_t room = room_in_layout(b, neighbours);
      if (room < 0) continue;
      if (unknown_size_.count(static_cast<int>(b))) {
        if (room != buffer.size_bytes) changed = true;
        buffer.size_bytes = room;
        assumed.push_back("'" + buffer.name + "' " + std::to_string(room));
      } else if (buffer.size_bytes > room) {
        clamped.push_back("'" + buffer.name + "' " + std::to_string(buffer.size_bytes) + " -> " + std::to_string(room));
        buffer.size_bytes = room;
        changed = true;
      }
    }
    const auto listed = [](const std::vector<std::string>& items) {
      std::string out;
      for (size_t i = 0; i < items.size() && i < 8; ++i)
        out += (i ? ", " : "") + items[i];
      return items.size() > 8 ? out + ", ... (" + std::to_string(items.size()) + " in all)" : out;
    };
    if (!clamped.empty()) {
      Diagnostic d = input_warning("mlf-size-clamped",
                                   "sizes inferred from accesses reach into a conflicting neighbour in "
                                   "TVM's plan; kept within TVM's layout (bytes): " +
                                       listed(clamped));
      d.severity = Severity::kNote;
      m_.warnings.push_back(std::move(d));
    }
    if (!assumed.empty()) {
      m_.warnings.push_back(input_warning("mlf-size-unknown",
                                          "no access in the code tells the size of " + std::to_string(assumed.size()) +
                                              (assumed.size() == 1 ? " buffer" : " buffers") +
                                              "; each is given the room TVM's plan left it (bytes): " + listed(assumed),
                                          {m_.package->path, 0, 0}));
    }
    return changed;
  }

  void io_buffer(const WalkBuffer& w, Buffer& b) {
    const bool input = inputs_ >= 0 ? w.index < inputs_ : !w.accesses.stored;
    b.kind = input ? BufferKind::kInput : BufferKind::kOutput;
    const auto declared = io_declared_size(w.name);
    const RelayParam* relay = relay_param(w.name);
    std::optional<int64_t> relay_size;
    if (relay && relay->type) relay_size = relay->type->size_bytes();
    if (!input && relay_ && relay_->result && io_names_.size() - static_cast<size_t>(std::max(inputs_, 0)) == 1) {
      relay_size = relay_->result->size_bytes();
    }
    const int64_t accessed = w.accesses.implied_bytes();
    b.size_bytes = declared ? *declared : relay_size ? *relay_size : accessed;
    if (relay && relay->type) {
      b.dtype = relay->type->dtype;
      b.shape = relay->type->shape;
    }
    const std::string what = std::string(input ? "input" : "output") + " '" + w.name + "'";
    if (relay_size && b.size_bytes != *relay_size) {
      m_.warnings.push_back(input_warning(
          "mlf-relay-mismatch", what + ": the Relay text gives " + std::to_string(*relay_size) +
                                    " bytes but metadata.json or the header says " + std::to_string(b.size_bytes)));
    }
    if (accessed > 0 && accessed != b.size_bytes && w.accesses.unbounded == 0) {
      m_.warnings.push_back(input_warning("mlf-size-mismatch",
                                          what + ": " + std::to_string(b.size_bytes) +
                                              " bytes declared but the code accesses " + std::to_string(accessed),
                                          display(w.origin)));
    }
    if (b.size_bytes < 0) {
      b.size_bytes = 0;
      m_.warnings.push_back(input_warning("mlf-size-unknown", what + ": size unknown; planned as 0 bytes"));
    }
  }

  // Sizes inferred from accesses for the tensors passed between operators (the entry's lets)
  // that TVM's layout does not bound must be the size of some tensor type of the Relay text.
  void check_relay_types() {
    if (!module_.relay) return;
    std::set<int64_t> sizes;
    for (const RelayTensorType& t : read_relay_tensor_types(module_.relay->data)) {
      if (const auto bytes = t.size_bytes()) sizes.insert(*bytes);
    }
    if (sizes.empty()) return;
    const ConflictLists neighbours = symmetric_conflicts(m_.problem);
    for (size_t i = 0; i < m_.walk.buffers.size(); ++i) {
      const WalkBuffer& w = m_.walk.buffers[i];
      if (w.source != WalkBufferSource::kPoolLet || w.function != m_.code.entry ||
          inferred_.count(static_cast<int>(i)) == 0)
        continue;
      const Buffer& b = m_.problem.buffers[i];
      if (b.kind == BufferKind::kConstant || sizes.count(b.size_bytes)) continue;
      // TVM's own layout already bounds (and checks) this size; a storage id may also hold a
      // tensor of a type the Relay text prints differently, so only unbounded sizes are doubted.
      if (room_in_layout(i, neighbours) >= 0) continue;
      m_.warnings.push_back(input_warning("mlf-relay-mismatch",
                                          "'" + b.name + "': the code's accesses make it " +
                                              std::to_string(b.size_bytes) + " bytes, the size of no tensor type in " +
                                              module_.relay->path,
                                          display(w.origin)));
    }
  }

  void sweep() {
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

  // Buffers whose accesses the walk cannot vouch for are live from the first tick to the last:
  // no plan may overlap them with anything the analysis did not see apart from them. Returns the
  // memory pressure of what the walk did see, to tell what the assumption costs.
  int64_t assume_uncertain_lifetimes(const std::vector<int64_t>& sizes, const std::vector<bool>& constant,
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

  void finish_as_built() {
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
                                          "'" + fn.variables[static_cast<size_t>(let.variable)].name + "' in " +
                                              fn.name + " is not reached from the entry; left out",
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
  }

  MlfModel& m_;
  const MlfModule& module_;
  const MlfLoadOptions& options_;
  const std::string& root_;
  std::optional<RelaySignature> relay_;
  std::vector<std::string> io_names_;
  int inputs_ = -1;  // how many of io_names_ are inputs, -1 when unknown
  PoolAssignment assignment_;
  std::map<std::string, int64_t> declared_size_;
  int64_t workspace_alignment_ = kDefaultAlignment;
  std::map<std::string, int64_t> plan_alignment_;  // pools whose alignment comes from TVM's plan
  std::set<int> inferred_;                         // buffers whose size comes from their accesses
  std::set<int> unknown_size_;                     // of those, buffers nothing in the code gives a size
};

}  // namespace

CParseInput mlf_parse_input(const MlfPackage& package, const MlfModule& module) {
  CParseInput input;
  input.display_root = package.path;
  for (const ArchiveFile* f : module.sources)
    input.sources.push_back({f->path, f->data});
  if (module.header) input.macro_headers.push_back({module.header->path, module.header->data});
  const std::string include_prefix = module.include_dir.empty() ? "" : module.include_dir + "/";
  for (const ArchiveFile& f : package.contents.files) {
    const bool in_folder = f.path.starts_with(include_prefix) &&
                           f.path.find('/', include_prefix.size()) == std::string::npos && f.path.ends_with(".h");
    if (in_folder || f.path.starts_with("codegen/host/include/")) input.include_files.push_back({f.path, f.data});
  }
  for (const ArchiveFile* f : module.runtime_headers)
    input.include_files.push_back({f->path, f->data});
  input.include_dirs = {module.include_dir};
  if (!module.runtime_headers.empty()) input.include_dirs.emplace_back("runtime/include");
  input.standin_runtime = module.runtime_headers.empty();
  return input;
}

MlfModel analyse_mlf(std::shared_ptr<const MlfPackage> package, const MlfModule& module, CProgram program,
                     const MlfLoadOptions& options) {
  MlfModel model;
  model.package = std::move(package);
  model.module = module.name();
  model.program = std::move(program);
  ModelBuilder(model, module, options).build();
  if (model.code.usmp() && !options.pools.empty()) {
    const bool replaces = !options.pools.workspace_pools.empty() || !options.pools.constant_pools.empty();
    apply_pool_options(model.problem, options.pools);
    if (replaces && model.as_built) {
      model.as_built.reset();
      model.warnings.push_back(
          input_warning("mlf-as-built", "the pool options replace the pools TVM planned into; as-built not available"));
    }
  }
  return model;
}

MlfModel load_mlf_model(const std::string& path, const MlfLoadOptions& options) {
  const auto started = Clock::now();
  auto package = std::make_shared<const MlfPackage>(read_mlf(path));
  const MlfModule module = select_module(*package, options.module);
  check_plannable(*package, module);
  const double archive_ms = ms_since(started);
  const auto parse_started = Clock::now();
  CProgram program = parse_c_program(mlf_parse_input(*package, module));
  const double parse_ms = ms_since(parse_started);
  const auto analysis_started = Clock::now();
  MlfModel model = analyse_mlf(package, module, std::move(program), options);
  model.timings = {archive_ms, parse_ms, ms_since(analysis_started)};
  return model;
}

}  // namespace usmpx
