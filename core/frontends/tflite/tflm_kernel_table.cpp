#include "frontends/tflite/tflm_kernel_table.h"

#include <algorithm>
#include <array>
#include <iterator>

namespace usmpx {
namespace {

using P = TflmPrepare;

// Options structs, {bytes, alignment} on arm-none-eabi (32-bit, one-byte enums) and on x86-64.
constexpr TflmOptionsStruct kNoOptions{0, 1, 0, 1};
constexpr TflmOptionsStruct kActivation{1, 1, 4, 4};       // {TfLiteFusedActivation activation}
constexpr TflmOptionsStruct kActivationPot{2, 1, 8, 4};    // {activation; bool pot_scale_int16}
constexpr TflmOptionsStruct kOneType{1, 1, 4, 4};          // {TfLiteType type}
constexpr TflmOptionsStruct kTwoTypes{2, 1, 8, 4};         // {TfLiteType in, out}
constexpr TflmOptionsStruct kOneInt{4, 4, 4, 4};           // {int} or {float}
constexpr TflmOptionsStruct kTwoInts{8, 4, 8, 4};          // {int, int}
constexpr TflmOptionsStruct kTwoBools{2, 1, 2, 1};         // {bool, bool}
constexpr TflmOptionsStruct kReducer{1, 1, 1, 1};          // {bool keep_dims}
constexpr TflmOptionsStruct kPool{40, 4, 40, 4};           // TfLitePoolParams
constexpr TflmOptionsStruct kConv{28, 4, 28, 4};           // TfLiteConvParams / TfLiteDepthwiseConvParams
constexpr TflmOptionsStruct kDims{36, 4, 36, 4};           // {int dims[8]; int count} (reshape, squeeze)
constexpr TflmOptionsStruct kFullyConnected{5, 1, 16, 4};  // five one-byte fields on Cortex-M
constexpr TflmOptionsStruct kBatchMatmul{3, 1, 3, 1};      // {bool adj_x, adj_y, asymmetric}
constexpr TflmOptionsStruct kStridedSlice{24, 4, 24, 4};   // five int masks and a bool
constexpr TflmOptionsStruct kSvdf{8, 4, 12, 4};            // {int rank; activation; bool}
constexpr TflmOptionsStruct kTransposeConv{16, 4, 20, 4};  // {padding; int stride_w, stride_h; activation; type}
constexpr TflmOptionsStruct kLstm{16, 4, 16, 4};           // {activation; float clips x2; three bools}
constexpr TflmOptionsStruct kVarHandle{8, 4, 16, 8};       // {const char* container, shared_name}

// Op data that is the same struct in every build (no pointers, no enums).
constexpr TflmKernelEntry plain(std::string_view name, TflmOptionsStruct options, int64_t init,
                                TflmPrepare prepare = P::kNone) {
  return {name, options, init, init, init, prepare, 0, 0};
}

// One row per builtin kernel MicroMutableOpResolver registers at tflite-micro 90b983c, sorted by
// name. Init sizes: reference kernels 32-bit, 64-bit, CMSIS-NN kernels (Cortex-M only). Where
// CMSIS-NN does not replace a kernel, its column repeats the reference 32-bit one.
constexpr std::array kEntries = {
    plain("ABS", kNoOptions, 28),  // elementwise OpDataAbsRsqrt (ABS and RSQRT)
    plain("ADD", kActivationPot, 60),
    TflmKernelEntry{"ADD_N", kNoOptions, 0, 0, 0, P::kQuantizedOpData, 40, 40},
    plain("ARG_MAX", kOneType, 0),
    plain("ARG_MIN", kOneType, 0),
    plain("ASSIGN_VARIABLE", kNoOptions, 0, P::kResourceAssignment),
    TflmKernelEntry{"AVERAGE_POOL_2D", kPool, 32, 32, 36},
    TflmKernelEntry{"BATCH_MATMUL", kBatchMatmul, 16, 32, 36, P::kBatchMatmul},
    plain("BATCH_TO_SPACE_ND", kNoOptions, 0),
    plain("BROADCAST_ARGS", kNoOptions, 0),
    plain("BROADCAST_TO", kNoOptions, 0),
    plain("CALL_ONCE", kOneInt, 8),
    plain("CAST", kTwoTypes, 0),
    plain("CEIL", kNoOptions, 0),
    TflmKernelEntry{"CONCATENATION", kTwoInts, 24, 40, 24},
    TflmKernelEntry{"CONV_2D", kConv, 56, 72, 60, P::kPerChannel},
    plain("COS", kNoOptions, 0),
    TflmKernelEntry{"CUMSUM", kTwoBools, 0, 0, 0, P::kQuantizedOpData, 36, 36},
    TflmKernelEntry{"DEPTHWISE_CONV_2D", kConv, 56, 72, 60, P::kPerChannel},  // OpDataConv, as CONV_2D
    plain("DEPTH_TO_SPACE", kOneInt, 0, P::kOutputDims),
    plain("DEQUANTIZE", kNoOptions, 32),
    plain("DIV", kActivation, 28),
    plain("DYNAMIC_UPDATE_SLICE", kNoOptions, 0),
    plain("ELU", kNoOptions, 256),  // an int8 lookup table of 256 entries, whatever the type
    plain("EMBEDDING_LOOKUP", kNoOptions, 0, P::kEmbeddingLookup),
    plain("EQUAL", kNoOptions, 32),  // comparisons' OpData
    plain("EXP", kNoOptions, 0),
    plain("EXPAND_DIMS", kNoOptions, 0),
    plain("FILL", kNoOptions, 0),
    plain("FLOOR", kNoOptions, 0),
    plain("FLOOR_DIV", kNoOptions, 0),
    plain("FLOOR_MOD", kNoOptions, 0),
    TflmKernelEntry{"FULLY_CONNECTED", kFullyConnected, 48, 64, 72, P::kFcPerChannel},
    plain("GATHER", kTwoInts, 0, P::kOutputDims),
    plain("GATHER_ND", kNoOptions, 0, P::kOutputDims),
    plain("GREATER", kNoOptions, 32),
    plain("GREATER_EQUAL", kNoOptions, 32),
    plain("HARD_SWISH", kNoOptions, 20),
    plain("IF", kTwoInts, 8),
    plain("L2_NORMALIZATION", kActivation, 4),
    plain("L2_POOL_2D", kPool, 0, P::kOutputDims),
    plain("LEAKY_RELU", kOneInt, 24),
    plain("LESS", kNoOptions, 32),
    plain("LESS_EQUAL", kNoOptions, 32),
    plain("LOG", kNoOptions, 0),
    plain("LOGICAL_AND", kNoOptions, 0),
    plain("LOGICAL_NOT", kNoOptions, 0),
    plain("LOGICAL_OR", kNoOptions, 0),
    plain("LOGISTIC", kNoOptions, 16),
    TflmKernelEntry{"LOG_SOFTMAX", kNoOptions, 0, 0, 0, P::kQuantizedOpData, 28, 40},
    plain("MAXIMUM", kNoOptions, 0),
    TflmKernelEntry{"MAX_POOL_2D", kPool, 32, 32, 36},
    plain("MEAN", kReducer, 44),
    plain("MINIMUM", kNoOptions, 0),
    plain("MIRROR_PAD", kActivation, 20),  // {TfLiteMirrorPaddingMode mode}: one enum
    plain("MUL", kActivation, 36),
    plain("NEG", kNoOptions, 0),
    plain("NOT_EQUAL", kNoOptions, 32),
    plain("PACK", kTwoInts, 0),
    plain("PAD", kNoOptions, 56),
    plain("PADV2", kNoOptions, 56),
    plain("PRELU", kNoOptions, 28),
    plain("QUANTIZE", kNoOptions, 32),
    plain("READ_VARIABLE", kNoOptions, 0),
    plain("REDUCE_MAX", kReducer, 44),
    plain("REDUCE_MIN", kReducer, 44),
    plain("RELU", kNoOptions, 28),
    plain("RELU6", kNoOptions, 8),
    plain("RESHAPE", kDims, 0),
    plain("RESIZE_BILINEAR", kTwoBools, 0),
    plain("RESIZE_NEAREST_NEIGHBOR", kTwoBools, 0),
    plain("REVERSE_V2", kNoOptions, 0),
    plain("ROUND", kNoOptions, 0),
    plain("RSQRT", kNoOptions, 28),
    plain("SELECT_V2", kNoOptions, 1),
    plain("SHAPE", kOneType, 0),
    plain("SIN", kNoOptions, 0),
    plain("SLICE", kNoOptions, 0),
    TflmKernelEntry{"SOFTMAX", kOneInt, 56, 80, 64, P::kSoftmaxLuts},
    plain("SPACE_TO_BATCH_ND", kNoOptions, 4),
    plain("SPACE_TO_DEPTH", kOneInt, 0, P::kOutputDims),
    plain("SPLIT", kOneInt, 0),
    plain("SPLIT_V", kOneInt, 0),
    plain("SQRT", kNoOptions, 0),
    plain("SQUARE", kNoOptions, 0),
    plain("SQUARED_DIFFERENCE", kNoOptions, 112),
    plain("SQUEEZE", kDims, 0),
    plain("STRIDED_SLICE", kStridedSlice, 84),
    plain("SUB", kActivationPot, 52),
    plain("SUM", kReducer, 44),
    TflmKernelEntry{"SVDF", kSvdf, 36, 36, 40},
    plain("TANH", kNoOptions, 16),
    plain("TRANSPOSE", kNoOptions, 0),
    TflmKernelEntry{"TRANSPOSE_CONV", kTransposeConv, 72, 80, 76, P::kTransposeConv},
    TflmKernelEntry{"UNIDIRECTIONAL_SEQUENCE_LSTM", kLstm, 688, 688, 912, P::kLstmSums},
    plain("UNPACK", kTwoInts, 0),
    plain("VAR_HANDLE", kVarHandle, 4),
    plain("WHILE", kTwoInts, 8),
    plain("ZEROS_LIKE", kNoOptions, 0),
};

constexpr const auto& kTable = kEntries;

static_assert(kTable.size() == 99, "one row per builtin kernel TFLM 90b983c registers");

constexpr bool sorted_by_name() {
  for (size_t k = 1; k < kTable.size(); ++k)
    if (!(kTable[k - 1].name < kTable[k].name)) return false;
  return true;
}
static_assert(sorted_by_name());

}  // namespace

const TflmKernelEntry* tflm_kernel_entry(std::string_view name) {
  const auto it = std::lower_bound(kTable.begin(), kTable.end(), name,
                                   [](const TflmKernelEntry& e, std::string_view n) { return e.name < n; });
  return it != kTable.end() && it->name == name ? &*it : nullptr;
}

const TflmKernelEntry* tflm_kernel_entries_begin() {
  return kTable.data();
}

const TflmKernelEntry* tflm_kernel_entries_end() {
  return kTable.data() + kTable.size();
}

}  // namespace usmpx
