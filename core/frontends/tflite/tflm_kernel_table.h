#pragma once

#include <cstdint>
#include <string_view>

namespace usmpx {

// What every builtin kernel TFLite Micro (tflite-micro 90b983c) registers keeps in the arena's tail
// before its Prepare runs: the builtin options struct the flatbuffer parser allocates for it
// (TfLite*Params, sized as each target's compiler lays it out: on arm-none-eabi enums are one byte,
// on x86-64 four) and the op data its Init allocates (sizeof the kernel's OpData, per kernel set
// and pointer width). Prepare's allocations depend on tensors and options and are rules of their
// own (TflmPrepare, tflm_kernels.cpp).

// What a kernel's Prepare allocates in the tail (beyond Init's op data).
enum class TflmPrepare {
  kNone,
  kPerChannel,         // CONV_2D, DEPTHWISE_CONV_2D: multipliers and shifts, int32 per output channel
  kFcPerChannel,       // FULLY_CONNECTED: the same, only for a per-channel quantized filter
  kTransposeConv,      // TRANSPOSE_CONV: multipliers and shifts per output channel, every type
  kSoftmaxLuts,        // SOFTMAX: int16 input: the exp and 1/(1+x) tables, 513 int16 each
  kBatchMatmul,        // BATCH_MATMUL: quantization data, transposed operands, the output's dims
  kQuantizedOpData,    // ADD_N, CUMSUM, LOG_SOFTMAX: op data allocated in Prepare for int8 input
  kOutputDims,         // a writable copy of the output's dims (TfLiteIntArray of its rank)
  kEmbeddingLookup,    // the output's dims, then OpData {float scale; size_t columns}
  kLstmSums,           // CMSIS-NN int8 LSTM: the gates' precomputed weight sums
  kResourceAssignment  // ASSIGN_VARIABLE: the resource's buffer, the first time it is assigned
};

struct TflmOptionsStruct {
  int64_t bytes32 = 0, align32 = 1, bytes64 = 0, align64 = 1;
};

struct TflmKernelEntry {
  std::string_view name;  // the BuiltinOperator's schema name
  TflmOptionsStruct options;
  int64_t init_reference32 = 0, init_reference64 = 0, init_cmsis32 = 0;
  TflmPrepare prepare = TflmPrepare::kNone;
  int64_t prepare32 = 0, prepare64 = 0;  // kQuantizedOpData: the op data's size per width
};

// The entry of a builtin by schema name; nullptr for a builtin TFLM registers no kernel for.
const TflmKernelEntry* tflm_kernel_entry(std::string_view name);

// Every entry, in name order (the table docs/tflite.md prints).
const TflmKernelEntry* tflm_kernel_entries_begin();
const TflmKernelEntry* tflm_kernel_entries_end();

}  // namespace usmpx
