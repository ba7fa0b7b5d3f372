#include "frontends/executorch/et_export.h"

#include <cstring>
#include <map>

#include "base/alignment.h"
#include "base/input_error.h"
#include "export/export_error.h"
#include "model/diagnostic.h"

namespace usmpx {
namespace {

template <typename T>
void put(std::string& out, uint64_t pos, T value) {
  std::memcpy(out.data() + pos, &value, sizeof(T));  // little-endian file, little-endian host
}

template <typename T>
void append(std::string& out, T value) {
  out.append(sizeof(T), '\0');
  put(out, out.size() - sizeof(T), value);
}

// The largest power of two up to 4096 dividing `offset`: how the writer aligned its segments.
uint64_t segment_alignment(uint64_t offset) {
  uint64_t a = 16;
  while (a < 4096 && offset % (a * 2) == 0)
    a *= 2;
  return a;
}

using Place = std::pair<uint32_t, uint64_t>;  // a tensor's memory id and offset

void require_valid_plan(const EtAnalysis& a, const std::string& at, const Problem& problem, const Plan& plan) {
  if (plan.allocations.size() != problem.buffers.size() || problem.buffers.size() != a.problem.buffers.size() ||
      problem.pools.size() != a.pools.size())
    throw ExportError(at + "the plan is not of this program's buffers and planned buffers");
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.severity == Severity::kError)
      throw ExportError(
          at + "the " + plan.algorithm + " plan is invalid (" + d.message +
          "); ExecuTorch's runtime would run it unchecked and compute wrong outputs, so it is not written");
  }
}

// Where each tensor goes: its buffer's pool (a memory id of its own method) and offset; counts
// the tensors that move in e.changed_tensors.
std::vector<Place> tensor_places(const EtAnalysis& a, const std::string& at, const Problem& problem, const Plan& plan,
                                 EtExport& e) {
  std::vector<Place> place(a.tensors.size());
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const EtTensorInfo& info = a.tensors[t];
    const Allocation& alloc = plan.allocations[static_cast<size_t>(info.buffer)];
    const std::string& name = problem.buffers[static_cast<size_t>(info.buffer)].name;
    if (!alloc.placed()) throw ExportError(at + "buffer '" + name + "' is not placed");
    const EtPoolInfo& pool = a.pools[static_cast<size_t>(alloc.pool)];
    if (pool.method != info.method)
      throw ExportError(at + "buffer '" + name + "' is placed in pool '" +
                        problem.pools[static_cast<size_t>(alloc.pool)].name + "' of another method");
    if (alloc.offset < 0 || (alloc.offset + info.delta) % kEtAlignment != 0)
      throw ExportError(at + "buffer '" + name + "' at offset " + std::to_string(alloc.offset) +
                        " is not 16-byte aligned");
    place[t] = {pool.memory_id, static_cast<uint64_t>(alloc.offset + info.delta)};
    if (place[t] != Place{info.memory_id, static_cast<uint64_t>(info.offset)}) ++e.changed_tensors;
  }
  return place;
}

// The new non_const_buffer_sizes per method, by memory id; sets `changed` when any differs.
std::vector<std::vector<int64_t>> buffer_sizes(const EtAnalysis& a, const Problem& problem, const Plan& plan,
                                               EtExport& e, bool& changed) {
  std::vector<std::vector<int64_t>> sizes;
  for (const EtMethod& m : a.program.methods)
    sizes.push_back(m.buffer_sizes);
  changed = false;
  for (size_t p = 0; p < a.pools.size(); ++p) {
    const int64_t size = et_buffer_bytes(a.pools[p], plan.pool_sizes[p]);
    if (a.pools[p].tail_bytes > 0)
      e.notes.push_back(input_warning("et-buffer-tail", "planned buffer " + problem.pools[p].name + " keeps the " +
                                                            std::to_string(a.pools[p].tail_bytes) +
                                                            " bytes the program holds past its last tensor"));
    e.pool_bytes.push_back(size);
    auto& entry = sizes[static_cast<size_t>(a.pools[p].method)][a.pools[p].memory_id];
    changed = changed || entry != size;
    entry = size;
  }
  return sizes;
}

// New AllocationDetails tables (one per distinct place, sharing one vtable) appended to the
// flatbuffer `out`, and every tensor's allocation_info pointed at its place's.
void write_places(const EtAnalysis& a, const std::vector<Place>& place, std::string& out) {
  const EtProgram& prog = a.program;
  out.resize(align_up(out.size(), 8), '\0');
  // One vtable for every new AllocationDetails: all three fields present.
  const uint64_t vtable = out.size();
  for (uint16_t v : {uint16_t{10}, uint16_t{16}, uint16_t{4}, uint16_t{8}, uint16_t{12}, uint16_t{0}})
    append<uint16_t>(out, v);
  std::map<Place, uint64_t> tables;
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    auto [it, fresh] = tables.try_emplace(place[t], 0);
    if (fresh) {
      it->second = out.size();
      append<int32_t>(out, static_cast<int32_t>(it->second - vtable));
      append<uint32_t>(out, place[t].first);
      append<uint32_t>(out, static_cast<uint32_t>(place[t].second & 0xffffffffu));
      append<uint32_t>(out, static_cast<uint32_t>(place[t].second >> 32));
    }
    const EtTensor& x =
        *prog.methods[static_cast<size_t>(a.tensors[t].method)].values[static_cast<size_t>(a.tensors[t].value)].tensor;
    const uint64_t field = x.allocation->field_position;
    put<uint32_t>(out, field, static_cast<uint32_t>(it->second - field));
  }
}

// Each method whose buffer sizes change gets a new vector, its field pointed at it.
void write_buffer_sizes(const EtProgram& prog, const std::string& at, const std::vector<std::vector<int64_t>>& sizes,
                        std::string& out) {
  for (size_t m = 0; m < prog.methods.size(); ++m) {
    if (sizes[m] == prog.methods[m].buffer_sizes) continue;
    const uint64_t field = prog.methods[m].buffer_sizes_field;
    if (field == 0)
      throw ExportError(at + "method '" + prog.methods[m].name + "' has no non_const_buffer_sizes to rewrite");
    while ((out.size() + 4) % 8 != 0)
      out.push_back('\0');
    const uint64_t vec = out.size();
    append<uint32_t>(out, static_cast<uint32_t>(sizes[m].size()));
    for (int64_t s : sizes[m])
      append<int64_t>(out, s);
    put<uint32_t>(out, field, static_cast<uint32_t>(vec - field));
  }
}

// The segments after the program, moved to the new segment base, and the extended header's sizes.
void write_segments(const EtProgram& prog, const std::string& bytes, std::string& out) {
  const uint64_t program_size = out.size();
  if (!prog.header) return;
  const EtExtendedHeader& h = *prog.header;
  uint64_t base = 0;
  if (h.segment_base_offset != 0) {
    base = align_up(program_size, segment_alignment(h.segment_base_offset));
    out.resize(base, '\0');
    out.append(bytes, h.segment_base_offset, std::string::npos);
  } else {
    out.append(bytes, prog.flatbuffer_size, std::string::npos);  // whatever followed the program, unchanged
  }
  put<uint64_t>(out, 16, program_size);
  put<uint64_t>(out, 24, base);
}

// The copy must read back as this plan.
void require_read_back(const EtAnalysis& a, const std::string& out, const std::string& path, const std::string& at,
                       const std::vector<Place>& place, const std::vector<std::vector<int64_t>>& sizes) {
  EtAnalysis back;
  try {
    back = analyse_et(out, path, PoolOptions{});
  } catch (const InputError& err) {
    throw ExportError(at + "the rewritten program does not read back: " + err.what());
  }
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const EtTensorInfo& info = a.tensors[t];
    const auto& alloc = back.program.methods[static_cast<size_t>(info.method)]
                            .values[static_cast<size_t>(info.value)]
                            .tensor->allocation;
    if (!alloc || alloc->memory_id != place[t].first || alloc->offset != place[t].second)
      throw ExportError(at + "the rewritten program does not hold the plan for value " + std::to_string(info.value));
  }
  for (size_t m = 0; m < a.program.methods.size(); ++m) {
    if (back.program.methods[m].buffer_sizes != sizes[m])
      throw ExportError(at + "the rewritten program does not hold the new buffer sizes of method '" +
                        a.program.methods[m].name + "'");
  }
}

}  // namespace

EtExport export_et(const EtAnalysis& a, const std::string& bytes, const std::string& path, const Problem& problem,
                   const Plan& plan) {
  const std::string at = path + ": ";
  require_valid_plan(a, at, problem, plan);
  EtExport e;
  const std::vector<Place> place = tensor_places(a, at, problem, plan, e);
  bool sizes_changed = false;
  const std::vector<std::vector<int64_t>> sizes = buffer_sizes(a, problem, plan, e, sizes_changed);
  if (e.changed_tensors == 0 && !sizes_changed) {
    e.bytes = bytes;  // the program's own plan: nothing to change
    return e;
  }
  std::string out = bytes.substr(0, a.program.flatbuffer_size);
  write_places(a, place, out);
  write_buffer_sizes(a.program, at, sizes, out);
  if (out.size() >= kMaxEtFlatbufferBytes) throw ExportError(at + "the rewritten program would pass 2 GB");
  write_segments(a.program, bytes, out);
  require_read_back(a, out, path, at, place, sizes);
  e.bytes = std::move(out);
  return e;
}

}  // namespace usmpx
