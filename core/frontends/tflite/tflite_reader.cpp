// Reads a TFLite flatbuffer through flatbuffers' Verifier and Table primitives, one field at a
// time by the ids in tflite_schema.h: every position is checked before it is followed, so a
// hostile file ends in an InputError, never in a read out of bounds.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "base/input_error.h"
#include "frontends/flatbuffer_walker.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace fb = flatbuffers;
namespace sc = tflite_schema;

class Reader : FlatbufferWalker {
 public:
  Reader(std::string_view bytes, const std::string& path)
      : FlatbufferWalker(bytes, bytes.size(), path, {"file", "model", "lists and names", 4}, 1000000) {}

  TfliteModel read() {
    if (bytes_.size() < 8) fail("too short for a TFLite model (" + std::to_string(bytes_.size()) + " bytes)");
    if (!has_tflite_identifier(bytes_)) {
      fail("not a TFLite model: the flatbuffer identifier at bytes 4..8 is '" + printable_bytes(bytes_.substr(4, 4)) +
           "', expected 'TFL3'");
    }
    TfliteModel model;
    model.root_position = offset_target(0, "the root offset");
    const fb::Table* root = table(model.root_position, "the Model table");
    model.model_offset_targets.assign(sc::model::kFieldCount, 0);
    for (int id = 1; id < sc::model::kFieldCount; ++id)
      model.model_offset_targets[static_cast<size_t>(id)] = offset_field(root, id, "a Model field");
    model.model_has_version = root->GetOptionalFieldOffset(flatbuffer_slot(sc::model::kVersion)) != 0;
    for (uint32_t id = sc::model::kFieldCount; id < field_count(model.root_position); ++id) {
      if (root->GetOptionalFieldOffset(flatbuffer_slot(static_cast<int>(id))) != 0)
        model.model_has_unknown_fields = true;
    }
    model.version = scalar<uint32_t>(root, sc::model::kVersion, 0, "Model.version");
    model.description = string_field(root, sc::model::kDescription, "Model.description");
    for (uint64_t pos : table_vector(root, sc::model::kOperatorCodes, "Model.operator_codes"))
      model.operator_codes.push_back(operator_code(pos));
    for (uint64_t pos : table_vector(root, sc::model::kBuffers, "Model.buffers"))
      model.buffers.push_back(buffer(pos));
    for (uint64_t pos : table_vector(root, sc::model::kMetadata, "Model.metadata"))
      model.metadata.push_back(metadata(pos, model.buffers.size()));
    const auto subgraphs = table_vector(root, sc::model::kSubgraphs, "Model.subgraphs");
    if (subgraphs.empty()) fail("the model has no subgraph");
    for (size_t s = 0; s < subgraphs.size(); ++s)
      model.subgraphs.push_back(subgraph(subgraphs[s], s, model));
    verifier_.EndTable();
    return model;
  }

 private:
  std::vector<int32_t> int_vector(const fb::Table* t, int id, const std::string& what) {
    return scalar_vector<int32_t>(t, id, what);
  }

  TfliteOperatorCode operator_code(uint64_t pos) {
    const fb::Table* t = table(pos, "an OperatorCode");
    TfliteOperatorCode code;
    const int8_t deprecated = scalar<int8_t>(t, sc::opcode::kDeprecatedBuiltinCode, 0, "OperatorCode field");
    const int32_t builtin = scalar<int32_t>(t, sc::opcode::kBuiltinCode, 0, "OperatorCode field");
    code.builtin_code = std::max<int32_t>(deprecated, builtin);
    code.custom_code = string_field(t, sc::opcode::kCustomCode, "OperatorCode.custom_code");
    code.version = scalar<int32_t>(t, sc::opcode::kVersion, 1, "OperatorCode.version");
    verifier_.EndTable();
    return code;
  }

  TfliteBuffer buffer(uint64_t pos) {
    const fb::Table* t = table(pos, "a Buffer");
    TfliteBuffer b;
    b.table_position = pos;
    const uint64_t data = offset_field(t, sc::buffer::kData, "Buffer.data");
    if (data != 0) {
      b.data_size = vector_length(data, 1, "Buffer.data");
      b.data_position = data + 4;
    }
    b.external_offset = scalar<uint64_t>(t, sc::buffer::kOffset, 0, "Buffer.offset");
    b.external_size = scalar<uint64_t>(t, sc::buffer::kSize, 0, "Buffer.size");
    if (b.external_offset > 1 &&
        (b.external_offset > bytes_.size() || b.external_size > bytes_.size() - b.external_offset))
      fail("a Buffer's external data (offset " + std::to_string(b.external_offset) + ", size " +
           std::to_string(b.external_size) + ") lies past the end of the file (" + std::to_string(bytes_.size()) +
           " bytes)");
    verifier_.EndTable();
    return b;
  }

  TfliteMetadata metadata(uint64_t pos, size_t buffer_count) {
    const fb::Table* t = table(pos, "a Metadata entry");
    TfliteMetadata m;
    m.table_position = pos;
    m.name = string_field(t, sc::metadata::kName, "Metadata.name");
    m.buffer = scalar<uint32_t>(t, sc::metadata::kBuffer, 0, "Metadata.buffer");
    if (m.buffer >= buffer_count)
      fail("metadata '" + m.name + "' names buffer " + std::to_string(m.buffer) + " of " +
           std::to_string(buffer_count));
    verifier_.EndTable();
    return m;
  }

  TfliteTensor tensor(uint64_t pos, const std::string& where, size_t buffer_count) {
    const fb::Table* t = table(pos, where);
    TfliteTensor x;
    x.shape = int_vector(t, sc::tensor::kShape, where + ".shape");
    x.type = scalar<int8_t>(t, sc::tensor::kType, 0, where + ".type");
    x.buffer = scalar<uint32_t>(t, sc::tensor::kBuffer, 0, where + ".buffer");
    x.name = string_field(t, sc::tensor::kName, where + ".name");
    x.is_variable = scalar<uint8_t>(t, sc::tensor::kIsVariable, 0, where + ".is_variable") != 0;
    if (const uint64_t q = offset_field(t, sc::tensor::kQuantization, where + ".quantization")) {
      const fb::Table* qt = table(q, where + ".quantization");
      if (const uint64_t scale = offset_field(qt, sc::quantization::kScale, where + ".quantization.scale"))
        x.quant_scales = vector_length(scale, sizeof(float), where + ".quantization.scale");
      if (const uint64_t zp = offset_field(qt, sc::quantization::kZeroPoint, where + ".quantization.zero_point"))
        x.quant_zero_points = vector_length(zp, sizeof(int64_t), where + ".quantization.zero_point");
      verifier_.EndTable();
    }
    if (x.buffer >= buffer_count && !(x.buffer == 0 && buffer_count == 0))
      fail(where + " ('" + x.name + "') names buffer " + std::to_string(x.buffer) + " but the model has " +
           std::to_string(buffer_count));
    for (int32_t d : x.shape) {
      if (d < 0) fail(where + " ('" + x.name + "') has a negative dimension " + std::to_string(d));
    }
    verifier_.EndTable();
    return x;
  }

  void check_indices(const std::vector<int32_t>& indices, size_t tensor_count, bool optional_allowed,
                     const std::string& what) {
    for (int32_t i : indices) {
      if ((i == -1 && optional_allowed) || (i >= 0 && static_cast<size_t>(i) < tensor_count)) continue;
      fail(what + " names tensor " + std::to_string(i) + " of " + std::to_string(tensor_count));
    }
  }

  TfliteOperator op(uint64_t pos, const std::string& where, const TfliteModel& model, size_t tensor_count) {
    const fb::Table* t = table(pos, where);
    TfliteOperator o;
    o.opcode_index = scalar<uint32_t>(t, sc::op::kOpcodeIndex, 0, where + ".opcode_index");
    if (o.opcode_index >= model.operator_codes.size())
      fail(where + " uses operator code " + std::to_string(o.opcode_index) + " of " +
           std::to_string(model.operator_codes.size()));
    o.inputs = int_vector(t, sc::op::kInputs, where + ".inputs");
    o.outputs = int_vector(t, sc::op::kOutputs, where + ".outputs");
    o.intermediates = int_vector(t, sc::op::kIntermediates, where + ".intermediates");
    check_indices(o.inputs, tensor_count, true, where + ".inputs");
    check_indices(o.outputs, tensor_count, false, where + ".outputs");
    check_indices(o.intermediates, tensor_count, false, where + ".intermediates");
    o.options_type = scalar<uint8_t>(t, sc::op::kOptionsType, 0, where + ".builtin_options_type");
    const auto fields = sc::option_fields(model.operator_codes[o.opcode_index].builtin_code);
    const uint64_t options = offset_field(t, sc::op::kOptions, where + ".builtin_options");
    if (options != 0) {
      const fb::Table* ot = table(options, where + ".builtin_options");
      for (const sc::OptionField& f : fields) {
        o.option_ints.push_back(f.is_bool
                                    ? scalar<uint8_t>(ot, f.id, static_cast<uint8_t>(f.fallback), where + " options")
                                    : scalar<int32_t>(ot, f.id, static_cast<int32_t>(f.fallback), where + " options"));
      }
      if (sc::builtin_name(model.operator_codes[o.opcode_index].builtin_code) == "VAR_HANDLE") {
        // VarHandleOptions {container: string; shared_name: string}: the resource's identity.
        o.resource_name = string_field(ot, 0, where + " options.container") + "/" +
                          string_field(ot, 1, where + " options.shared_name");
      }
      verifier_.EndTable();
    } else {
      for (const sc::OptionField& f : fields)
        o.option_ints.push_back(f.fallback);
    }
    verifier_.EndTable();
    return o;
  }

  TfliteSubgraph subgraph(uint64_t pos, size_t index, const TfliteModel& model) {
    const std::string where = "subgraph " + std::to_string(index);
    const fb::Table* t = table(pos, where);
    TfliteSubgraph g;
    g.name = string_field(t, sc::subgraph::kName, where + ".name");
    const auto tensors = table_vector(t, sc::subgraph::kTensors, where + ".tensors");
    for (size_t i = 0; i < tensors.size(); ++i)
      g.tensors.push_back(tensor(tensors[i], where + " tensor " + std::to_string(i), model.buffers.size()));
    g.inputs = int_vector(t, sc::subgraph::kInputs, where + ".inputs");
    g.outputs = int_vector(t, sc::subgraph::kOutputs, where + ".outputs");
    check_indices(g.inputs, g.tensors.size(), false, where + ".inputs");
    check_indices(g.outputs, g.tensors.size(), false, where + ".outputs");
    const auto ops = table_vector(t, sc::subgraph::kOperators, where + ".operators");
    for (size_t i = 0; i < ops.size(); ++i)
      g.operators.push_back(op(ops[i], where + " operator " + std::to_string(i), model, g.tensors.size()));
    verifier_.EndTable();
    return g;
  }
};

}  // namespace

size_t TfliteModel::tensor_count() const {
  size_t n = 0;
  for (const TfliteSubgraph& g : subgraphs)
    n += g.tensors.size();
  return n;
}

bool has_tflite_identifier(std::string_view bytes) {
  return bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3";
}

TfliteModel read_tflite_model(std::string_view bytes, const std::string& path) {
  if (bytes.size() >= kMaxTfliteBytes)
    throw InputError({path, 0, 0}, "larger than 2 GB, which no flatbuffer can address");
  return Reader(bytes, path).read();
}

std::string read_tflite_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError({path, 0, 0}, "cannot read: " + ec.message());
  if (size >= kMaxTfliteBytes) throw InputError({path, 0, 0}, "larger than 2 GB, which no flatbuffer can address");
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) throw InputError({path, 0, 0}, "cannot read");
  return bytes;
}

std::optional<std::vector<int32_t>> offline_plan_words(const TfliteModel& model, std::string_view bytes,
                                                       const std::string& path) {
  const TfliteMetadata* found = nullptr;
  for (const TfliteMetadata& m : model.metadata) {
    if (m.name == kOfflinePlanMetadataName) found = &m;  // the last one wins, as in TFLM
  }
  if (!found) return std::nullopt;
  const TfliteBuffer& b = model.buffers[found->buffer];
  if (b.data_size % 4 != 0 || b.data_size < 12) {
    throw InputError({path, 0, 0}, std::string(kOfflinePlanMetadataName) + " metadata holds " +
                                       std::to_string(b.data_size) +
                                       " bytes; expected whole int32 words [version, subgraphs, count, offsets...]");
  }
  std::vector<int32_t> words(b.data_size / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    int32_t w = 0;
    std::memcpy(&w, bytes.data() + b.data_position + 4 * i, 4);  // little-endian file, little-endian host
    words[i] = w;
  }
  return words;
}

}  // namespace usmpx
