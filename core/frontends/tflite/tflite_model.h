#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// The parts of a TFLite flatbuffer (schema "TFL3") that arena planning needs, copied out of a
// verified file. Positions are byte offsets into the file, kept for the exporter.
struct TfliteTensor {
  std::string name;
  std::vector<int32_t> shape;  // empty: a scalar
  int type = 0;                // TensorType enum value
  uint32_t buffer = 0;         // index into TfliteModel::buffers; 0 is the empty sentinel
  bool is_variable = false;
  uint32_t quant_scales = 0;  // QuantizationParameters.scale length (0: none; >1: per channel)
  uint32_t quant_zero_points = 0;
};

struct TfliteOperator {
  uint32_t opcode_index = 0;
  std::vector<int32_t> inputs;  // -1: an omitted optional input
  std::vector<int32_t> outputs;
  std::vector<int32_t> intermediates;
  int options_type = 0;              // BuiltinOptions union type, 0 when absent
  std::vector<int64_t> option_ints;  // the options table's scalar fields by id (see tflite_schema.h)
  std::string resource_name;         // VAR_HANDLE: container and shared_name, joined by '/'
};

struct TfliteSubgraph {
  std::string name;
  std::vector<TfliteTensor> tensors;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<TfliteOperator> operators;
};

struct TfliteOperatorCode {
  int32_t builtin_code = 0;  // the larger of deprecated_builtin_code and builtin_code, as TFLite reads it
  std::string custom_code;
  int32_t version = 1;
};

struct TfliteBuffer {
  uint64_t data_size = 0;        // bytes of the inline data vector
  uint64_t data_position = 0;    // file offset of the data's first byte (valid when data_size > 0)
  uint64_t external_offset = 0;  // Buffer.offset: data stored outside the flatbuffer (>2 GB models)
  uint64_t external_size = 0;
  uint64_t table_position = 0;
  bool constant() const { return data_size > 0 || (external_offset > 1 && external_size > 0); }
};

struct TfliteMetadata {
  std::string name;
  uint32_t buffer = 0;
  uint64_t table_position = 0;
};

struct TfliteModel {
  uint32_t version = 0;
  std::string description;
  std::vector<TfliteOperatorCode> operator_codes;
  std::vector<TfliteSubgraph> subgraphs;
  std::vector<TfliteBuffer> buffers;
  std::vector<TfliteMetadata> metadata;
  uint64_t root_position = 0;  // the Model table
  // Per Model field id (0..7): the position its offset points to (0: absent); version is a scalar.
  std::vector<uint64_t> model_offset_targets;
  bool model_has_version = false;
  bool model_has_unknown_fields = false;  // fields past signature_defs (a newer schema)

  size_t tensor_count() const;  // over all subgraphs
};

// Largest .tflite read (flatbuffers address at most 2 GB).
inline constexpr uint64_t kMaxTfliteBytes = (uint64_t{1} << 31) - 1;

// Verifies `bytes` as a TFLite model and copies out what the tool needs. Every offset and length
// is checked before it is followed; a bad file throws InputError "path: message".
TfliteModel read_tflite_model(std::string_view bytes, const std::string& path);

// Reads the file (bounded by kMaxTfliteBytes) and then read_tflite_model.
std::string read_tflite_file(const std::string& path);

// The four identifier bytes at offset 4 are "TFL3".
bool has_tflite_identifier(std::string_view bytes);

// The int32 words of an OfflineMemoryAllocation entry, or nullopt when the model has none (the
// last entry of that name wins, as in TFLM). Throws InputError when its data is not whole words.
std::optional<std::vector<int32_t>> offline_plan_words(const TfliteModel& model, std::string_view bytes,
                                                       const std::string& path);

inline constexpr std::string_view kOfflinePlanMetadataName = "OfflineMemoryAllocation";

}  // namespace usmpx
