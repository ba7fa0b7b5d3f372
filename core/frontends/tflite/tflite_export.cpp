#include "frontends/tflite/tflite_export.h"

#include <cstring>

#include "base/alignment.h"
#include "base/input_error.h"
#include "export/export_error.h"
#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_schema.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// Little-endian writes into a byte string at absolute positions.
class Bytes {
 public:
  explicit Bytes(size_t size) : data_(size, '\0') {}
  void u16(size_t pos, uint16_t v) { std::memcpy(&data_[pos], &v, 2); }
  void u32(size_t pos, uint32_t v) { std::memcpy(&data_[pos], &v, 4); }
  void i32(size_t pos, int32_t v) { std::memcpy(&data_[pos], &v, 4); }
  // A uoffset at `pos` pointing forward to `target`.
  void offset(size_t pos, size_t target) {
    if (target <= pos) throw ExportError("internal: a flatbuffer offset must point forward");
    u32(pos, static_cast<uint32_t>(target - pos));
  }
  void text(size_t pos, std::string_view s) { std::memcpy(&data_[pos], s.data(), s.size()); }
  std::string& str() { return data_; }

 private:
  std::string data_;
};

std::vector<int32_t> offline_words(const TfliteModel& model, const std::vector<int32_t>& offsets) {
  std::vector<int32_t> words = {1, static_cast<int32_t>(model.subgraphs.size()), static_cast<int32_t>(offsets.size())};
  words.insert(words.end(), offsets.begin(), offsets.end());
  return words;
}

std::string patch_in_place(const std::string& bytes, const TfliteBuffer& buffer, const std::vector<int32_t>& words) {
  std::string out = bytes;
  std::memcpy(&out[buffer.data_position], words.data(), words.size() * 4);
  return out;
}

void require_rewritable(const TfliteModel& model) {
  for (const TfliteBuffer& b : model.buffers) {
    if (b.external_offset > 1)
      throw ExportError(
          "the model keeps buffer data outside the flatbuffer (Buffer.offset, models over 2 GB); adding metadata "
          "would move the bytes those absolute offsets name");
  }
  if (model.model_has_unknown_fields)
    throw ExportError("the Model table has fields of a newer schema than this tool knows; it cannot be rewritten");
  if (model.buffers.empty()) throw ExportError("the model has no buffers (not even the empty buffer 0)");
}

// Where prepend_root puts each part of the new region, from byte 8, and how far the old bytes move.
struct RootLayout {
  size_t model_vtable = 8, model_vtable_size = 0;
  std::vector<int> fields;  // model field ids written, in order
  size_t model_table = 0, model_table_size = 0, buffers_vector = 0, metadata_vector = 0, metadata_vtable = 0,
         metadata_table = 0, buffer_vtable = 0, buffer_table = 0, name_string = 0, data_vector = 0, shift = 0;

  RootLayout(const TfliteModel& model, size_t name_bytes, size_t words) {
    model_vtable_size = 4 + 2 * sc::model::kFieldCount;
    for (int id = 0; id < sc::model::kFieldCount; ++id) {
      const bool present = id == sc::model::kVersion ? model.model_has_version
                                                     : model.model_offset_targets[static_cast<size_t>(id)] != 0;
      if (present || id == sc::model::kBuffers || id == sc::model::kMetadata) fields.push_back(id);
    }
    model_table = align_up(model_vtable + model_vtable_size, 4);
    model_table_size = 4 + 4 * fields.size();
    buffers_vector = model_table + model_table_size;
    metadata_vector = buffers_vector + 4 + 4 * (model.buffers.size() + 1);
    metadata_vtable = metadata_vector + 4 + 4 * (model.metadata.size() + 1);
    metadata_table = metadata_vtable + 8;
    buffer_vtable = metadata_table + 12;
    buffer_table = buffer_vtable + 8;
    name_string = buffer_table + 8;
    data_vector = align_up(name_string + 4 + name_bytes + 1 + 4, 16) - 4;  // data 16-aligned
    const size_t region_end = data_vector + 4 + 4 * words;
    shift = align_up(region_end - 8, 16);
  }
};

// The new Metadata {name, buffer = the new buffer's index}, its Buffer {data}, the name and the data.
void write_plan_entries(Bytes& out, const RootLayout& l, size_t buffer_index, const std::string& name,
                        const std::vector<int32_t>& words) {
  out.u16(l.metadata_vtable, 8);
  out.u16(l.metadata_vtable + 2, 12);
  out.u16(l.metadata_vtable + 4, 4);
  out.u16(l.metadata_vtable + 6, 8);
  out.i32(l.metadata_table, static_cast<int32_t>(l.metadata_table - l.metadata_vtable));
  out.offset(l.metadata_table + 4, l.name_string);
  out.u32(l.metadata_table + 8, static_cast<uint32_t>(buffer_index));
  out.u16(l.buffer_vtable, 6);
  out.u16(l.buffer_vtable + 2, 8);
  out.u16(l.buffer_vtable + 4, 4);
  out.i32(l.buffer_table, static_cast<int32_t>(l.buffer_table - l.buffer_vtable));
  out.offset(l.buffer_table + 4, l.data_vector);
  out.u32(l.name_string, static_cast<uint32_t>(name.size()));
  out.text(l.name_string + 4, name);
  out.u32(l.data_vector, static_cast<uint32_t>(words.size() * 4));
  for (size_t i = 0; i < words.size(); ++i)
    out.i32(l.data_vector + 4 + 4 * i, words[i]);
}

std::string prepend_root(const std::string& bytes, const TfliteModel& model, const std::vector<int32_t>& words) {
  require_rewritable(model);
  const size_t nb = model.buffers.size();
  const size_t nm = model.metadata.size();
  const std::string name(kOfflinePlanMetadataName);
  const RootLayout l(model, name.size(), words.size());
  const auto moved = [&](uint64_t old_position) { return static_cast<size_t>(old_position) + l.shift; };

  Bytes out(bytes.size() + l.shift);
  out.offset(0, l.model_table);
  out.text(4, "TFL3");
  // The Model: every old field copied (offsets re-aimed at the moved tables), buffers and
  // metadata replaced by the extended vectors.
  out.u16(l.model_vtable, static_cast<uint16_t>(l.model_vtable_size));
  out.u16(l.model_vtable + 2, static_cast<uint16_t>(l.model_table_size));
  out.i32(l.model_table, static_cast<int32_t>(l.model_table - l.model_vtable));
  const auto* old_root = reinterpret_cast<const flatbuffers::Table*>(bytes.data() + model.root_position);
  for (size_t k = 0; k < l.fields.size(); ++k) {
    const int id = l.fields[k];
    const size_t pos = l.model_table + 4 + 4 * k;
    out.u16(l.model_vtable + 4 + 2 * static_cast<size_t>(id), static_cast<uint16_t>(4 + 4 * k));
    if (id == sc::model::kVersion) {
      out.u32(pos, old_root->GetField<uint32_t>(flatbuffer_slot(id), 0));
    } else if (id == sc::model::kBuffers) {
      out.offset(pos, l.buffers_vector);
    } else if (id == sc::model::kMetadata) {
      out.offset(pos, l.metadata_vector);
    } else {
      out.offset(pos, moved(model.model_offset_targets[static_cast<size_t>(id)]));
    }
  }
  out.u32(l.buffers_vector, static_cast<uint32_t>(nb + 1));
  for (size_t i = 0; i < nb; ++i)
    out.offset(l.buffers_vector + 4 + 4 * i, moved(model.buffers[i].table_position));
  out.offset(l.buffers_vector + 4 + 4 * nb, l.buffer_table);
  out.u32(l.metadata_vector, static_cast<uint32_t>(nm + 1));
  for (size_t i = 0; i < nm; ++i)
    out.offset(l.metadata_vector + 4 + 4 * i, moved(model.metadata[i].table_position));
  out.offset(l.metadata_vector + 4 + 4 * nm, l.metadata_table);
  write_plan_entries(out, l, nb, name, words);
  std::memcpy(&out.str()[8 + l.shift], bytes.data() + 8, bytes.size() - 8);
  return std::move(out.str());
}

}  // namespace

std::string write_offline_plan(const std::string& bytes, const TfliteModel& model,
                               const std::vector<int32_t>& offsets) {
  const std::vector<int32_t> words = offline_words(model, offsets);
  const TfliteMetadata* existing = nullptr;
  for (const TfliteMetadata& m : model.metadata) {
    if (m.name == kOfflinePlanMetadataName) existing = &m;
  }
  if (existing && model.buffers[existing->buffer].data_size == words.size() * 4 &&
      model.buffers[existing->buffer].data_position % 4 == 0)
    return patch_in_place(bytes, model.buffers[existing->buffer], words);
  return prepend_root(bytes, model, words);
}

TfliteExport export_tflite(const TfliteAnalysis& analysis, const std::string& bytes, const std::string& path,
                           const Plan& plan) {
  TfliteExport e;
  e.offsets.assign(analysis.tensors.size(), -1);
  for (size_t t = 0; t < analysis.tensors.size(); ++t) {
    const int b = analysis.tensors[t].buffer;
    if (b < 0) continue;
    const Allocation& a = plan.allocations.at(static_cast<size_t>(b));
    if (!a.placed())
      throw ExportError("buffer '" + analysis.problem.buffers[static_cast<size_t>(b)].name + "' is not placed");
    if (a.offset > INT32_MAX) throw ExportError("an offset past 2 GB cannot be written");
    e.offsets[t] = static_cast<int32_t>(a.offset);
  }
  // What TFLM will do with the written offsets: scratch buffers are always planned at run time.
  e.tflm_plan = tflm_plan_with_offsets(analysis, e.offsets);
  e.tflm_plan.algorithm = "as-built";
  finish_plan(analysis.problem, e.tflm_plan);
  if (e.tflm_plan.has_errors()) {
    std::string first;
    for (const Diagnostic& d : e.tflm_plan.diagnostics) {
      if (d.severity == Severity::kError) {
        first = d.message;
        break;
      }
    }
    throw ExportError("the plan TFLM would run from these offsets is invalid (TFLM does not check it): " + first);
  }
  const int64_t planned = plan.pool_sizes.empty() ? 0 : plan.pool_sizes[0];
  const int64_t tflm = e.tflm_plan.pool_sizes.empty() ? 0 : e.tflm_plan.pool_sizes[0];
  if (tflm != planned) {
    e.notes.push_back({Severity::kNote,
                       "tflm-scratch-moved",
                       "TFLM places the scratch buffers itself at run time: with these tensor offsets its arena head "
                       "is " +
                           std::to_string(tflm) + " bytes (the " + plan.algorithm + " plan had " +
                           std::to_string(planned) + ")",
                       {},
                       0,
                       {}});
  }
  if (!analysis.unknown_scratch.empty()) {
    e.notes.push_back({Severity::kWarning,
                       "tflm-unknown-scratch",
                       "scratch buffers of " + std::to_string(analysis.unknown_scratch.size()) +
                           " operator(s) are unknown: TFLM adds them around the written plan, so the head may grow "
                           "by up to their total size",
                       {},
                       0,
                       {}});
  }
  e.bytes = write_offline_plan(bytes, analysis.model, e.offsets);
  // Read the copy back: it must verify and carry exactly these offsets.
  try {
    const TfliteModel copy = read_tflite_model(e.bytes, path);
    const auto words = offline_plan_words(copy, e.bytes, path);
    if (!words || std::vector<int32_t>(words->begin() + 3, words->end()) != e.offsets)
      throw ExportError("the written model does not read back with the plan's offsets");
  } catch (const InputError& error) {
    throw ExportError(std::string("the written model does not verify: ") + error.what());
  }
  return e;
}

}  // namespace usmpx
