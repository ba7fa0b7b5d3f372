#include "frontends/tflite/tflite_schema.h"

#include <array>

namespace usmpx::tflite_schema {
namespace {

// BuiltinOperator, values 0..161 in order.
constexpr std::array<std::string_view, 162> kBuiltinNames = {
    "ADD",
    "AVERAGE_POOL_2D",
    "CONCATENATION",
    "CONV_2D",
    "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE",
    "DEQUANTIZE",
    "EMBEDDING_LOOKUP",
    "FLOOR",
    "FULLY_CONNECTED",
    "HASHTABLE_LOOKUP",
    "L2_NORMALIZATION",
    "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION",
    "LOGISTIC",
    "LSH_PROJECTION",
    "LSTM",
    "MAX_POOL_2D",
    "MUL",
    "RELU",
    "RELU_N1_TO_1",
    "RELU6",
    "RESHAPE",
    "RESIZE_BILINEAR",
    "RNN",
    "SOFTMAX",
    "SPACE_TO_DEPTH",
    "SVDF",
    "TANH",
    "CONCAT_EMBEDDINGS",
    "SKIP_GRAM",
    "CALL",
    "CUSTOM",
    "EMBEDDING_LOOKUP_SPARSE",
    "PAD",
    "UNIDIRECTIONAL_SEQUENCE_RNN",
    "GATHER",
    "BATCH_TO_SPACE_ND",
    "SPACE_TO_BATCH_ND",
    "TRANSPOSE",
    "MEAN",
    "SUB",
    "DIV",
    "SQUEEZE",
    "UNIDIRECTIONAL_SEQUENCE_LSTM",
    "STRIDED_SLICE",
    "BIDIRECTIONAL_SEQUENCE_RNN",
    "EXP",
    "TOPK_V2",
    "SPLIT",
    "LOG_SOFTMAX",
    "DELEGATE",
    "BIDIRECTIONAL_SEQUENCE_LSTM",
    "CAST",
    "PRELU",
    "MAXIMUM",
    "ARG_MAX",
    "MINIMUM",
    "LESS",
    "NEG",
    "PADV2",
    "GREATER",
    "GREATER_EQUAL",
    "LESS_EQUAL",
    "SELECT",
    "SLICE",
    "SIN",
    "TRANSPOSE_CONV",
    "SPARSE_TO_DENSE",
    "TILE",
    "EXPAND_DIMS",
    "EQUAL",
    "NOT_EQUAL",
    "LOG",
    "SUM",
    "SQRT",
    "RSQRT",
    "SHAPE",
    "POW",
    "ARG_MIN",
    "FAKE_QUANT",
    "REDUCE_PROD",
    "REDUCE_MAX",
    "PACK",
    "LOGICAL_OR",
    "ONE_HOT",
    "LOGICAL_AND",
    "LOGICAL_NOT",
    "UNPACK",
    "REDUCE_MIN",
    "FLOOR_DIV",
    "REDUCE_ANY",
    "SQUARE",
    "ZEROS_LIKE",
    "FILL",
    "FLOOR_MOD",
    "RANGE",
    "RESIZE_NEAREST_NEIGHBOR",
    "LEAKY_RELU",
    "SQUARED_DIFFERENCE",
    "MIRROR_PAD",
    "ABS",
    "SPLIT_V",
    "UNIQUE",
    "CEIL",
    "REVERSE_V2",
    "ADD_N",
    "GATHER_ND",
    "COS",
    "WHERE",
    "RANK",
    "ELU",
    "REVERSE_SEQUENCE",
    "MATRIX_DIAG",
    "QUANTIZE",
    "MATRIX_SET_DIAG",
    "ROUND",
    "HARD_SWISH",
    "IF",
    "WHILE",
    "NON_MAX_SUPPRESSION_V4",
    "NON_MAX_SUPPRESSION_V5",
    "SCATTER_ND",
    "SELECT_V2",
    "DENSIFY",
    "SEGMENT_SUM",
    "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES",
    "CUMSUM",
    "CALL_ONCE",
    "BROADCAST_TO",
    "RFFT2D",
    "CONV_3D",
    "IMAG",
    "REAL",
    "COMPLEX_ABS",
    "HASHTABLE",
    "HASHTABLE_FIND",
    "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE",
    "REDUCE_ALL",
    "CONV_3D_TRANSPOSE",
    "VAR_HANDLE",
    "READ_VARIABLE",
    "ASSIGN_VARIABLE",
    "BROADCAST_ARGS",
    "RANDOM_STANDARD_NORMAL",
    "BUCKETIZE",
    "RANDOM_UNIFORM",
    "MULTINOMIAL",
    "GELU",
    "DYNAMIC_UPDATE_SLICE",
    "RELU_0_TO_1",
    "UNSORTED_SEGMENT_PROD",
    "UNSORTED_SEGMENT_MAX",
    "UNSORTED_SEGMENT_SUM",
    "ATAN2",
    "UNSORTED_SEGMENT_MIN",
    "SIGN",
    "BITCAST",
    "BITWISE_XOR",
    "RIGHT_SHIFT",
};

// TensorType, values 0..18 in order, and bytes per element in the arena (0: not placeable).
struct TypeFact {
  std::string_view name;
  int64_t bytes;
};
constexpr std::array<TypeFact, 19> kTypes = {{
    {"FLOAT32", 4}, {"FLOAT16", 2},   {"INT32", 4},  {"UINT8", 1},   {"INT64", 8},       {"STRING", 0}, {"BOOL", 1},
    {"INT16", 2},   {"COMPLEX64", 8}, {"INT8", 1},   {"FLOAT64", 8}, {"COMPLEX128", 16}, {"UINT64", 8}, {"RESOURCE", 4},
    {"VARIANT", 0}, {"UINT32", 4},    {"UINT16", 2}, {"INT4", 1},    {"BFLOAT16", 2},
}};

}  // namespace

std::string builtin_name(int32_t code) {
  if (code >= 0 && static_cast<size_t>(code) < kBuiltinNames.size()) return std::string(kBuiltinNames[code]);
  return "BUILTIN_" + std::to_string(code);
}

std::string type_name(int type) {
  if (type >= 0 && static_cast<size_t>(type) < kTypes.size()) return std::string(kTypes[type].name);
  return "TYPE_" + std::to_string(type);
}

std::optional<int64_t> type_size(int type) {
  if (type < 0 || static_cast<size_t>(type) >= kTypes.size() || kTypes[type].bytes == 0) return std::nullopt;
  return kTypes[type].bytes;
}

std::vector<OptionField> option_fields(int32_t builtin) {
  switch (builtin) {
    case kSvdf: return {{0, false}};
    case kIf:
    case kWhile: return {{0, false}, {1, false}};
    case kCallOnce: return {{0, false}};
    case kUnidirectionalSequenceLstm: return {{3, true}};
    case kConv2d: return {{0, true}, {1, false}, {2, false}, {4, false, 1}, {5, false, 1}};
    case kDepthwiseConv2d: return {{0, true}, {1, false}, {2, false}, {3, false}, {5, false, 1}, {6, false, 1}};
    case kAveragePool2d:
    case kMaxPool2d: return {{0, true}, {1, false}, {2, false}, {3, false}, {4, false}};
    case kTransposeConv:  // padding, stride_w, stride_h
      return {{0, true}, {1, false, 1}, {2, false, 1}};
    case kBatchMatmul:  // adj_x, adj_y
      return {{0, true}, {1, true}};
    default: return {};
  }
}

}  // namespace usmpx::tflite_schema
