#include "frontends/tvm/mlf/mlf_model_builder.h"

#include <algorithm>

#include "base/input_error.h"
#include "base/text_join.h"

namespace usmpx {

namespace {

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

}  // namespace

std::optional<int64_t> MlfModelBuilder::io_declared_size(const std::string& name) const {
  for (const auto* list : {&module_.metadata->inputs, &module_.metadata->outputs}) {
    for (const MlfTensor& t : *list) {
      if (sanitize_c_name(t.name) == name && t.size_bytes >= 0) return t.size_bytes;
    }
  }
  const auto it = m_.code.io_sizes.find(name);
  if (it != m_.code.io_sizes.end()) return it->second;
  return std::nullopt;
}

const RelayParam* MlfModelBuilder::relay_param(const std::string& name) const {
  if (!relay_) return nullptr;
  for (const RelayParam& p : relay_->params) {
    if (sanitize_c_name(p.name) == name) return &p;
  }
  return nullptr;
}

void MlfModelBuilder::build_buffers() {
  for (const WalkBuffer& w : m_.walk.buffers) {
    Buffer b;
    b.name = w.name;
    b.alignment = workspace_alignment_;
    b.origin = {m_.program.functions[static_cast<size_t>(w.function)].name, location(w.origin)};
    std::string element_dtype = c_dtype(w.accesses.element_type);
    switch (w.source) {
      case WalkBufferSource::kWorkspaceAlloc: {
        const WorkspaceAlloc& a = m_.code.allocs[static_cast<size_t>(w.index)];
        b.size_bytes = a.nbytes;
        // Code that indexes past what it allocates (harmless at the top of the runtime's stack of
        // allocations) needs those bytes in a plan, or it writes into a neighbour.
        if (const int64_t reached = w.accesses.implied_bytes(); reached > a.nbytes) {
          b.size_bytes = reached;
          grown_.push_back("'" + w.name + "' " + std::to_string(a.nbytes) + " -> " + std::to_string(reached));
        }
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
      case WalkBufferSource::kIo: io_buffer(w, b); break;
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

void MlfModelBuilder::let_buffer(const WalkBuffer& w, Buffer& b) {
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

int64_t MlfModelBuilder::inferred_size(const WalkBuffer& w, const PoolLet& let) {
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

int64_t MlfModelBuilder::room_in_layout(size_t b, const ConflictLists& neighbours) const {
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

bool MlfModelBuilder::fit_sizes_to_layout() {
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
  if (!clamped.empty()) {
    Diagnostic d = input_warning("mlf-size-clamped",
                                 "sizes inferred from accesses reach into a conflicting neighbour in "
                                 "TVM's plan; kept within TVM's layout (bytes): " +
                                     join_first(clamped, 8));
    d.severity = Severity::kNote;
    m_.warnings.push_back(std::move(d));
  }
  if (!assumed.empty()) {
    m_.warnings.push_back(
        input_warning("mlf-size-unknown",
                      "no access in the code tells the size of " + std::to_string(assumed.size()) +
                          (assumed.size() == 1 ? " buffer" : " buffers") +
                          "; each is given the room TVM's plan left it (bytes): " + join_first(assumed, 8),
                      {m_.package->path, 0, 0}));
  }
  return changed;
}

void MlfModelBuilder::io_buffer(const WalkBuffer& w, Buffer& b) {
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

void MlfModelBuilder::check_relay_types() {
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

}  // namespace usmpx
