#include "frontends/tflite/tflm_version_rules.h"

#include <algorithm>
#include <array>

#include "frontends/tflite/kernels/tflm_kernel.h"
#include "frontends/tflite/tflm_kernels.h"

namespace usmpx {
namespace {

using C = TflmChange;
using V = TflmVersion;

// One difference of a kernel from its 90b983c rule, holding for the versions first..last.
struct KernelChange {
  std::string_view kernel;
  V first, last;
  C change;
  TflmOptionsStruct options{};  // kOptions: {bytes, align} on Cortex-M and on x86-64
  int64_t bytes = 0;            // kInitOpData: the op data's size (no pointers in it: the same on both widths)
  std::string_view variant;     // kRefused*: the variants refused ("*" matches any text)
  std::string_view message;     // kRefused*: TFLM's message as it prints it (some begin with the file)
};

constexpr V kOldest = V::k2023_06_30;

// Read from tflm_versions.json (what TFLM printed at each commit) and the kernels' sources:
// - the versions' op resolvers lack BATCH_MATMUL and EMBEDDING_LOOKUP before 2024, REDUCE_MIN,
//   REVERSE_V2 and DYNAMIC_UPDATE_SLICE before 90b983c;
// - TfLiteConvParams, TfLiteFullyConnectedParams and TfLiteTransposeConvParams gained
//   quantized_bias_type after 2023-06 (4 bytes on x86-64);
// - OpDataFullyConnected was nine ints (36 bytes) until its per-channel arrays came (2024-09);
//   2023-06 runs per-channel weights without them, 2024-05 refuses them;
// - CONCATENATION kept the int8 inputs' scales and zero points until 2025;
// - reduce_common.cc's MEAN/SUM asked one scratch buffer (int8/int16 sums) until 2026-01-16,
//   and OpDataReduce was 40 bytes; RELU6's op data was 2 bytes until 2025;
// - the int16 paths of DEPTHWISE_CONV_2D (2023-06), MAXIMUM, MINIMUM, RELU6 (until 2024-05),
//   RELU, PACK, UNPACK and TRANSPOSE (until 2025-02) were missing.
constexpr std::array kChanges = {
    KernelChange{"BATCH_MATMUL", kOldest, V::k2023_06_30, C::kUnregistered},
    KernelChange{"EMBEDDING_LOOKUP", kOldest, V::k2023_06_30, C::kUnregistered},
    KernelChange{"DYNAMIC_UPDATE_SLICE", kOldest, V::k2025_02_07, C::kUnregistered},
    KernelChange{"REDUCE_MIN", kOldest, V::k2025_02_07, C::kUnregistered},
    KernelChange{"REVERSE_V2", kOldest, V::k2025_02_07, C::kUnregistered},
    KernelChange{"CONV_2D", kOldest, V::k2023_06_30, C::kOptions, {24, 4, 24, 4}},
    KernelChange{"FULLY_CONNECTED", kOldest, V::k2023_06_30, C::kOptions, {4, 1, 12, 4}},
    KernelChange{"TRANSPOSE_CONV", kOldest, V::k2023_06_30, C::kOptions, {16, 4, 16, 4}},
    KernelChange{"FULLY_CONNECTED", kOldest, V::k2024_05_29, C::kInitOpData, {}, 36},
    KernelChange{"FULLY_CONNECTED", kOldest, V::k2023_06_30, C::kNoPerChannelArrays},
    KernelChange{"FULLY_CONNECTED",
                 V::k2024_05_29,
                 V::k2024_05_29,
                 C::kRefusedAtAllocate,
                 {},
                 0,
                 "FULLY_CONNECTED * per-channel",
                 "tensorflow/lite/micro/kernels/fully_connected_common.cc FullyConnected per-channel quantization "
                 "not yet supported. Please set "
                 "converter._experimental_disable_per_channel_quantization_for_dense_layers = True."},
    KernelChange{"CONCATENATION", kOldest, V::k2024_05_29, C::kInt8InputArrays},
    KernelChange{"MEAN", kOldest, V::k2025_02_07, C::kReduceTempSumOnly},
    KernelChange{"SUM", kOldest, V::k2025_02_07, C::kReduceTempSumOnly},
    KernelChange{"MEAN", kOldest, V::k2025_02_07, C::kInitOpData, {}, 40},
    KernelChange{"SUM", kOldest, V::k2025_02_07, C::kInitOpData, {}, 40},
    KernelChange{"REDUCE_MAX", kOldest, V::k2025_02_07, C::kInitOpData, {}, 40},
    KernelChange{"RELU6", kOldest, V::k2024_05_29, C::kInitOpData, {}, 2},
    KernelChange{"DEPTHWISE_CONV_2D",
                 kOldest,
                 V::k2023_06_30,
                 C::kRefusedAtAllocate,
                 {},
                 0,
                 "DEPTHWISE_CONV_2D INT16>*",
                 "tensorflow/lite/micro/kernels/depthwise_conv_common.cc Hybrid models are not supported on TFLite "
                 "Micro."},
    KernelChange{"MAXIMUM",
                 kOldest,
                 V::k2024_05_29,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "MAXIMUM INT16>*",
                 "Type INT16 (7) is not supported by Maximum/Minimum."},
    KernelChange{"MINIMUM",
                 kOldest,
                 V::k2024_05_29,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "MINIMUM INT16>*",
                 "Type INT16 (7) is not supported by Maximum/Minimum."},
    KernelChange{"RELU6",
                 kOldest,
                 V::k2024_05_29,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "RELU6 INT16>*",
                 "Only float32 is supported currently, got INT16"},
    KernelChange{"RELU",
                 kOldest,
                 V::k2025_02_07,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "RELU INT16>*",
                 "Only float32 is supported currently, got INT16"},
    KernelChange{"PACK",
                 kOldest,
                 V::k2025_02_07,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "PACK INT16>*",
                 "Type 'INT16' is not supported by pack."},
    KernelChange{"UNPACK",
                 kOldest,
                 V::k2025_02_07,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "UNPACK INT16>*",
                 "Type 'INT16' is not supported by unpack."},
    KernelChange{"TRANSPOSE",
                 kOldest,
                 V::k2025_02_07,
                 C::kRefusedAtInvoke,
                 {},
                 0,
                 "TRANSPOSE INT16>*",
                 "Type INT16 is currently not supported by Transpose. Only float32 and int8 is supported"},
};

// The kernels CMSIS-NN replaces: their rules are measured for 90b983c's CMSIS-NN only.
constexpr std::string_view kCmsisNnKernels[] = {
    "AVERAGE_POOL_2D", "BATCH_MATMUL", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED",
    "MAX_POOL_2D",     "SOFTMAX",      "SVDF",    "TRANSPOSE_CONV",    "UNIDIRECTIONAL_SEQUENCE_LSTM",
};

// The variants the versions' measurements hold no figure of: the resource variables (the
// versions' driver created no MicroResourceVariables store, so TFLM refused them) and the variants
// every version refuses at Invoke (the recordings, which invoke, kept no figure for them).
constexpr std::string_view kNotMeasured[] = {"ASSIGN_VARIABLE *", "CALL_ONCE *",       "READ_VARIABLE *",
                                             "VAR_HANDLE *",      "FLOOR_DIV INT32>*", "FLOOR_MOD INT32>*",
                                             "NEG INT8>*"};

bool holds(const KernelChange& c, V version) {
  return version >= c.first && version <= c.last;
}

const KernelChange* find(V version, std::string_view kernel, C change) {
  for (const KernelChange& c : kChanges)
    if (c.kernel == kernel && c.change == change && holds(c, version)) return &c;
  return nullptr;
}

std::string_view kernel_of(const std::string& variant) {
  return std::string_view(variant).substr(0, variant.find(' '));
}

// `text` matches `pattern`, where '*' stands for any run of characters.
bool glob(std::string_view pattern, std::string_view text) {
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  if (text.substr(0, star) != pattern.substr(0, star)) return false;
  const std::string_view rest = pattern.substr(star + 1);
  for (size_t k = star; k <= text.size(); ++k)
    if (glob(rest, text.substr(k))) return true;
  return false;
}

// Whether the version's ground truth was measured for the build's target (x86-64 only).
bool measured_target(const TflmBuild& build) {
  return build.target == TflmTarget::kX86_64;
}

// Whether the version's rule for the kernel has a struct size of its own (options, op data):
// those depend on the target's layout, which only x86-64's figures show.
bool layout_differs(V version, std::string_view kernel) {
  return find(version, kernel, C::kOptions) || find(version, kernel, C::kInitOpData);
}

}  // namespace

bool tflm_version_has(TflmVersion version, std::string_view kernel, TflmChange change) {
  return find(version, kernel, change) != nullptr;
}

bool tflm_version_registers(TflmVersion version, std::string_view kernel) {
  return !find(version, kernel, C::kUnregistered);
}

std::optional<TflmVersionRefusal> tflm_version_refusal(const std::string& variant, TflmVersion version) {
  for (const KernelChange& c : kChanges) {
    if (!holds(c, version) || c.variant.empty() || !glob(c.variant, variant)) continue;
    return TflmVersionRefusal{std::string(c.message), c.change == C::kRefusedAtInvoke};
  }
  return std::nullopt;
}

void apply_tflm_version(TflmKernelRecord& r, const TflmBuild& build, int64_t input_count) {
  const V version = build.version;
  if (version == V::k90b983c || !r.known) return;
  const std::string kernel(kernel_of(r.variant));
  const std::string who = "TFLM " + std::string(to_string(version));
  if (!tflm_version_registers(version, kernel)) {
    r = TflmKernelRecord{false, false, r.variant, kernel + ": " + who + " has no kernel for it"};
    return;
  }
  if (const auto refused = tflm_version_refusal(r.variant, version); refused && !refused->at_invoke) {
    r = TflmKernelRecord{false, false, r.variant, kernel + ": " + who + " refuses it at AllocateTensors"};
    return;
  }
  const bool x64 = build.target == TflmTarget::kX86_64;
  // On a target the version was not measured on, a struct of another size takes the larger one.
  auto size = [&](int64_t version_bytes, int64_t current) {
    return measured_target(build) ? version_bytes : std::max(version_bytes, current);
  };
  if (const KernelChange* c = find(version, kernel, C::kOptions)) {
    r.options_bytes = size(x64 ? c->options.bytes64 : c->options.bytes32, r.options_bytes);
    r.options_align = x64 ? c->options.align64 : c->options.align32;
  }
  if (const KernelChange* c = find(version, kernel, C::kInitOpData); c && build.kernels == TflmKernels::kReference) {
    if (!r.init.empty()) r.init.front() = size(c->bytes, r.init.front());
  }
  if (find(version, kernel, C::kNoPerChannelArrays)) r.prepare.clear();
  if (find(version, kernel, C::kInt8InputArrays) && r.variant.find(" INT8>") != std::string::npos)
    r.prepare.insert(r.prepare.end(), {4 * input_count, 4 * input_count});
}

std::string tflm_version_unverified(const std::string& variant, const TflmBuild& build) {
  const V version = build.version;
  if (version == V::k90b983c) return "";
  const std::string_view kernel = kernel_of(variant);
  const std::string v(to_string(version));
  if (!tflm_version_registers(version, kernel)) return "TFLM " + v + " has no " + std::string(kernel) + " kernel";
  if (tflm_version_refusal(variant, version)) return "TFLM " + v + " refuses it";
  if (std::any_of(std::begin(kNotMeasured), std::end(kNotMeasured),
                  [&](std::string_view p) { return glob(p, variant); }))
    return "not measured on TFLM " + v;
  if (build.kernels == TflmKernels::kCmsisNn &&
      std::find(std::begin(kCmsisNnKernels), std::end(kCmsisNnKernels), kernel) != std::end(kCmsisNnKernels))
    return "CMSIS-NN measured on TFLM 90b983c only";
  if (!measured_target(build) && layout_differs(version, kernel))
    return "its structs on TFLM " + v + " measured on x86-64 only";
  return "";
}

}  // namespace usmpx
