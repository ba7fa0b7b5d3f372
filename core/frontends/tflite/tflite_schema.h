#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <flatbuffers/flatbuffers.h>

// Facts of the published TFLite schema (schema.fbs, identifier "TFL3") the tool relies on: field
// ids of the tables it reads, enum values it names. Only these; the rest of the schema is skipped.
namespace usmpx::tflite_schema {

namespace model {
inline constexpr int kVersion = 0, kOperatorCodes = 1, kSubgraphs = 2, kDescription = 3, kBuffers = 4,
                     kMetadataBuffer = 5, kMetadata = 6, kSignatureDefs = 7, kFieldCount = 8;
}
namespace subgraph {
inline constexpr int kTensors = 0, kInputs = 1, kOutputs = 2, kOperators = 3, kName = 4;
}
namespace tensor {
inline constexpr int kShape = 0, kType = 1, kBuffer = 2, kName = 3, kQuantization = 4, kIsVariable = 5;
}
namespace quantization {
inline constexpr int kScale = 2, kZeroPoint = 3;
}
namespace op {
inline constexpr int kOpcodeIndex = 0, kInputs = 1, kOutputs = 2, kOptionsType = 3, kOptions = 4, kIntermediates = 8;
}
namespace opcode {
inline constexpr int kDeprecatedBuiltinCode = 0, kCustomCode = 1, kVersion = 2, kBuiltinCode = 3;
}
namespace buffer {
inline constexpr int kData = 0, kOffset = 1, kSize = 2;
}
namespace metadata {
inline constexpr int kName = 0, kBuffer = 1;
}

// BuiltinOperator values with special meaning for planning.
inline constexpr int32_t kConv2d = 3, kDepthwiseConv2d = 4, kAveragePool2d = 1, kMaxPool2d = 17, kFullyConnected = 9,
                         kSvdf = 27, kCall = 31, kCustom = 32, kUnidirectionalSequenceLstm = 44, kIf = 118,
                         kWhile = 119, kCallOnce = 129, kTransposeConv = 67, kBatchMatmul = 126;

// The builtin options read, by operator (the options table is the one of the operator's own
// type): SVDFOptions.rank (id 0, int32); IfOptions then/else (0, 1); WhileOptions cond/body
// (0, 1); CallOnceOptions init (0); UnidirectionalSequenceLSTMOptions.time_major (3, bool);
// Conv2DOptions padding, stride w/h, dilation w/h (ids 0, 1, 2, 4, 5; dilations default 1);
// DepthwiseConv2DOptions padding, stride w/h, depth_multiplier, dilation w/h (0, 1, 2, 3, 5, 6);
// Pool2DOptions padding, stride w/h, filter w/h (0..4). Padding: 0 SAME, 1 VALID.
struct OptionField {
  int id;
  bool is_bool;          // a one-byte field (bool or byte enum); else int32
  int64_t fallback = 0;  // the schema's default when the field is absent
};
// The fields read for `builtin`, stored in TfliteOperator::option_ints in this order.
std::vector<OptionField> option_fields(int32_t builtin);

// TensorType values.
inline constexpr int kFloat32 = 0, kInt8 = 9, kInt16 = 7, kInt32 = 2, kInt4 = 17;

// The builtin operator's schema name ("CONV_2D"), or "BUILTIN_<n>" for values past the table.
std::string builtin_name(int32_t code);

// The TensorType's schema name ("INT8"), or "TYPE_<n>".
std::string type_name(int type);

// Bytes per element as TFLM sizes arena tensors (int4 takes one byte), or nullopt for types
// TFLM cannot place in the arena (STRING, VARIANT, unknown).
std::optional<int64_t> type_size(int type);

}  // namespace usmpx::tflite_schema
