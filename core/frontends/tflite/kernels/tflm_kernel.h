#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tflite/kernels/tflm_version_change.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// One entry per builtin kernel TFLite Micro registers: everything its registration does to the
// arena, in one place, as TFLM's own Register_<OP>() gathers Init, Prepare and Eval. The shape:
//
//   name      the BuiltinOperator's schema name ("CONV_2D").
//   options   the builtin options struct the flatbuffer parser allocates (TfLite*Params), sized
//             and aligned per pointer width (arm-none-eabi: one-byte enums; x86-64: four; the
//             ESP32 layout takes x86-64's: four-byte enums, and no options struct holds a pointer).
//   init      Init's op data (sizeof the kernel's OpData) for the reference kernels on 32- and
//             64-bit targets, for CMSIS-NN and for ESP-NN; `init_for`, when set, replaces it.
//   prepare   Prepare's AllocatePersistentBuffer sizes, in call order (nullptr: none).
//   scratch   Prepare's RequestScratchBufferInArena sizes, in request order (nullptr: none).
//   refusal   what the kernel's Prepare (or Eval) refuses, with TFLM's message (nullptr: none).
//   data_input, key_words  what the variant key (tflm_variant) is made of: the operator's name,
//             its data input's and output's types, and `key_words` for whatever else selects the
//             kernel's code path or the formula of its buffers (words that only one kernel set
//             reads start with its name: "cmsis:1x1"). Whatever prepare and scratch read through
//             TflmOp beyond the two types, key_words must read too (TflmKernelKeys.* checks it on
//             every model the tests know), so a variant proven on one path never vouches for another.
//   temp_tensors  the TfLiteTensors Prepare allocates temporarily (default: all its inputs and
//             outputs), which the smallest-arena replay counts.
//   custom, assumes  a custom operator's kernel (name = its custom code), and what the firmware
//             must do for it to run (register it), said beside the figure.
//   versions  how the rules above differ in the older TFLM versions (--tflm-version), as
//             differences: TflmVersionChange (tflm_version_rules.h applies them).
//   proven    the variants ("INT8>INT8 per-channel") the tests hold to TFLM's own figures
//             (tests/core/frontends/tflite/tflm_ops_test.cpp) in both kernel sets, or in one when
//             prefixed "reference: " or "cmsis_nn: "; on the ESP32 targets only those prefixed
//             "esp32: " (held to ../shared/tflite/tflm_esp_nn.json for every ESP32 target, reference
//             and ESP-NN kernels, tflm_esp_nn_test.cpp); any other variant's figure is "at least".
//
// Everything a rule reads comes through TflmOp, which carries the build (kernel set, target and,
// where rules differ between TFLM versions, the version): a rule that differs by version or kernel
// set branches on `op.build` inside its entry, and data that differs gets a function field like
// `init_for`, so one kernel's knowledge stays in one entry. The entries live in kernels/<family>.cpp
// and are registered in kernels/tflm_kernel_registry.cpp.

// A builtin options struct: {bytes, alignment} on arm-none-eabi and on x86-64.
struct TflmOptionsStruct {
  int64_t bytes32 = 0, align32 = 1, bytes64 = 0, align64 = 1;
};

// Init's op data: reference kernels on 32-bit and 64-bit targets, CMSIS-NN (Cortex-M only),
// ESP-NN (ESP32 targets only; 0: the kernel is the reference one, reference32).
struct TflmInitBytes {
  int64_t reference32 = 0, reference64 = 0, cmsis32 = 0, esp_nn32 = 0;
};

// The scratch buffers a kernel requests in Prepare, when the rule is known.
struct ScratchNeed {
  bool known = true;
  std::vector<int64_t> bytes;  // unrounded, as requested
  std::string rule;            // how they were computed, or why they are unknown
};

// What a kernel refuses: `unless` is what the firmware can do about it (empty when nothing),
// `why` the reason with TFLM's message, `when` the call that fails.
struct TflmRefusal {
  std::string unless;
  std::string why;
  std::string when = "at AllocateTensors";  // or "at Invoke" for a check in Eval
};

// Resource variables already given a buffer while the model's kernels are prepared in order:
// ASSIGN_VARIABLE allocates a resource's buffer only the first time (MicroResourceVariables).
struct TflmResourceState {
  std::vector<std::string> assigned;  // VAR_HANDLE resource names (container/shared_name) assigned so far
};

// What a rule may read of an operator to choose its code path; TflmOp notes each one read, so the
// rules can be held to the variant key (tflm_rule_reads_outside_key).
enum class TflmKeyPart : uint32_t {
  kInputType = 1u << 0,          // the data input's type (always in the key)
  kOutputType = 1u << 1,         // the first output's type (always in the key)
  kFilterGranularity = 1u << 2,  // per-channel or per-tensor filter quantization
  kOtherTypes = 1u << 3,         // types of inputs other than the data input (filter, bias, weights)
  kOutputRank = 1u << 4,         // the output's rank
  kShapePath = 1u << 5,          // a shape test that selects a code path (1x1, 3x3, depth % 4, ...)
  kOptionPath = 1u << 6,         // an option that selects a code path (adj_x, strides <= 2, ...)
  kConstantFilter = 1u << 7,     // whether a weight tensor is constant
};

// The operator a rule looks at, with the build it is for. Reads that can select a code path go
// through the accessors that note them (`reads`).
class TflmOp {
 public:
  TflmOp(const TfliteModel& m, const TfliteSubgraph& g, const TfliteOperator& o, const TflmBuild& b)
      : model(m), subgraph(g), op(o), build(b) {}

  const TfliteModel& model;
  const TfliteSubgraph& subgraph;
  const TfliteOperator& op;
  const TflmBuild& build;

  const TfliteTensor* input(size_t k) const { return tensor(op.inputs, k); }
  const TfliteTensor* output(size_t k) const { return tensor(op.outputs, k); }
  // The type of an input or output (-1 when absent), noted as the key part `part`.
  int input_type(size_t k, TflmKeyPart part = TflmKeyPart::kInputType) const;
  int output_type(size_t k = 0) const;
  bool per_channel(size_t filter_input) const;  // the filter's quantization has more than one scale
  int64_t output_rank() const;
  bool constant_input(size_t k) const;  // the input's data is in the model
  // An option value (TfliteOperator::option_ints), `fallback` when absent; `path` when the rule
  // chooses a code path by it (a size factor is not).
  int64_t option(size_t k, int64_t fallback, bool path) const;
  // A shape test that selects a code path, noted as kShapePath; returns `result`.
  bool shape_path(bool result) const;

  bool cmsis() const { return build.kernels == TflmKernels::kCmsisNn; }
  bool esp_nn() const { return build.kernels == TflmKernels::kEspNn; }
  bool x64() const { return build.target == TflmTarget::kX86_64; }
  // Enums are four bytes (x86-64 and the ESP32 layout; arm-none-eabi's are one).
  bool wide_enums() const { return x64() || esp32_layout(build.target); }
  int64_t pointer_bytes() const { return x64() ? 8 : 4; }

  // The key parts read so far (a bit set of TflmKeyPart).
  uint32_t reads() const { return reads_; }

 private:
  const TfliteTensor* tensor(const std::vector<int32_t>& list, size_t k) const;
  void note(TflmKeyPart part) const { reads_ |= static_cast<uint32_t>(part); }
  mutable uint32_t reads_ = 0;
};

// One kernel's entry. A field left out means "none": no options struct, no op data in Init, no
// Prepare buffers, no scratch, no refusal, no variant proven.
struct TflmKernel {
  std::string_view name;
  TflmOptionsStruct options;  // {} = kNoOptions
  TflmInitBytes init;         // {} = same_init(0)
  std::vector<int64_t> (*prepare)(const TflmOp& op, TflmResourceState* resources) = nullptr;
  ScratchNeed (*scratch)(const TflmOp& op) = nullptr;
  std::optional<TflmRefusal> (*refusal)(const TflmOp& op) = nullptr;
  std::span<const std::string_view> proven;
  size_t data_input = 0;                                 // the input whose type names the variant
  std::string (*key_words)(const TflmOp& op) = nullptr;  // the key's words for those parts
  int64_t (*init_for)(const TflmOp& op) = nullptr;       // replaces `init` where it varies
  // The temporary TfLiteTensors Prepare asks for, in order (nullptr: every input, then every output).
  std::vector<const TfliteTensor*> (*temp_tensors)(const TflmOp& op) = nullptr;
  bool custom = false;       // a custom operator's kernel (name = its custom code), not a builtin
  bool cmsis_nn = false;     // kernels/cmsis_nn/ has its own version of the kernel (measured on 90b983c only)
  std::string_view assumes;  // what the firmware must provide for the kernel to run ("" = nothing)
  // How the kernel's rules differ in older TFLM versions (nothing listed: as above in all of them).
  std::span<const TflmVersionChange> versions;
};

// Options structs shared by many kernels, {bytes, alignment} on arm-none-eabi and x86-64.
inline constexpr TflmOptionsStruct kNoOptions{0, 1, 0, 1};
inline constexpr TflmOptionsStruct kActivationOptions{1, 1, 4, 4};     // {TfLiteFusedActivation activation}
inline constexpr TflmOptionsStruct kActivationPotOptions{2, 1, 8, 4};  // {activation; bool pot_scale_int16}
inline constexpr TflmOptionsStruct kOneTypeOptions{1, 1, 4, 4};        // {TfLiteType type}
inline constexpr TflmOptionsStruct kTwoTypesOptions{2, 1, 8, 4};       // {TfLiteType in, out}
inline constexpr TflmOptionsStruct kOneIntOptions{4, 4, 4, 4};         // {int} or {float}
inline constexpr TflmOptionsStruct kTwoIntsOptions{8, 4, 8, 4};        // {int, int}
inline constexpr TflmOptionsStruct kTwoBoolsOptions{2, 1, 2, 1};       // {bool, bool}
inline constexpr TflmOptionsStruct kReducerOptions{1, 1, 1, 1};        // {bool keep_dims}
inline constexpr TflmOptionsStruct kPoolOptions{40, 4, 40, 4};         // TfLitePoolParams
inline constexpr TflmOptionsStruct kDimsOptions{36, 4, 36, 4};         // {int dims[8]; int count}

// Op data that is the same struct in every build (no pointers, no enums).
constexpr TflmInitBytes same_init(int64_t bytes) {
  return {bytes, bytes, bytes};
}

// Largest scratch request taken as computed (TFLM sizes are ints).
inline constexpr int64_t kMaxScratchBytes = int64_t{1} << 31;

// Element count, or -1 past kMaxScratchBytes.
int64_t elements(const TfliteTensor& t);
// A dimension of a tensor's shape, or -1 when it has no such dimension.
int64_t dim(const TfliteTensor* t, size_t k);
int64_t last_dim(const TfliteTensor* t);   // -1 when absent
int64_t first_dim(const TfliteTensor* t);  // -1 when absent
int64_t rank(const TfliteTensor* t);       // 0 when absent
// TfLiteIntArrayGetSizeInBytes: the size field and one int per dimension.
int64_t int_array_bytes(int64_t size);
// TFLite's SAME/VALID padding before the first element (ComputePaddingHeightWidth).
int64_t padding_before(int64_t in, int64_t filter, int64_t stride, int64_t dilation, bool same);

ScratchNeed scratch_unknown(std::string why);
// The reference convolutions' and fully connected layer's one scratch request: the filter's
// element count when it is INT4 (unpacked to int8), none otherwise.
ScratchNeed int4_unpack_scratch(const TflmOp& op);
// A Prepare that allocates a writable copy of the output's dims (a TfLiteIntArray of its rank).
std::vector<int64_t> output_dims_copy(const TflmOp& op, TflmResourceState* resources);
// A Prepare that allocates its op data only for int8 input (ADD_N, CUMSUM, LOG_SOFTMAX), sized
// per pointer width.
std::vector<int64_t> int8_op_data(const TflmOp& op, int64_t bytes32, int64_t bytes64);
ScratchNeed scratch_none(std::string why);

}  // namespace usmpx
