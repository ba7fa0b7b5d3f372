#include "frontends/tflite/tflm_kernels.h"

#include <algorithm>

#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_kernel_table.h"
#include "frontends/tflite/tflm_version_rules.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

const TfliteTensor* tensor(const TfliteSubgraph& g, const std::vector<int32_t>& list, size_t k) {
  if (k >= list.size() || list[k] < 0) return nullptr;
  return &g.tensors[static_cast<size_t>(list[k])];
}

int64_t last_dim(const TfliteTensor* t) {
  return t && !t->shape.empty() ? t->shape.back() : -1;
}

int64_t first_dim(const TfliteTensor* t) {
  return t && !t->shape.empty() ? t->shape.front() : -1;
}

int64_t rank(const TfliteTensor* t) {
  return t ? static_cast<int64_t>(t->shape.size()) : 0;
}

// TfLiteIntArrayGetSizeInBytes: the size field and one int per dimension.
int64_t int_array_bytes(int64_t size) {
  return 4 + 4 * size;
}

bool per_channel(const TfliteTensor* filter) {
  return filter && filter->quant_scales > 1;
}

bool quantized(const TfliteTensor* t) {
  return t && (t->type == sc::kInt8 || t->type == sc::kInt16);
}

int64_t elements(const TfliteTensor& t) {
  int64_t n = 1;
  for (int32_t d : t.shape)
    n *= d;
  return n;
}

// BATCH_MATMUL's Prepare (batch_matmul.cc, the same in CMSIS-NN's): for int8/int16 a quantization
// record of seven int32; for each operand it transposes (LHS when adj_x, RHS unless adj_y) a
// TfLiteEvalTensor, its dims and its data; then a writable copy of the output's dims, of the rank
// of the larger operand.
std::vector<int64_t> batch_matmul(const TfliteSubgraph& g, const TfliteOperator& op, int64_t eval_tensor) {
  std::vector<int64_t> out;
  const TfliteTensor* lhs = tensor(g, op.inputs, 0);
  const TfliteTensor* rhs = tensor(g, op.inputs, 1);
  if (!lhs || !rhs) return out;
  const bool adj_x = !op.option_ints.empty() && op.option_ints[0] != 0;
  const bool adj_y = op.option_ints.size() > 1 && op.option_ints[1] != 0;
  if (quantized(lhs)) out.push_back(28);
  auto transposed = [&](const TfliteTensor& t) {
    out.push_back(eval_tensor);
    out.push_back(int_array_bytes(rank(&t)));
    out.push_back(elements(t) * sc::type_size(t.type).value_or(4));
  };
  if (adj_x) transposed(*lhs);
  if (!adj_y) transposed(*rhs);
  out.push_back(int_array_bytes(std::max(rank(lhs), rank(rhs))));
  return out;
}

// Resource key of the tensor a VAR_HANDLE in the subgraph writes, "" when none does.
std::string resource_key(const TfliteModel& model, const TfliteSubgraph& g, int32_t tensor_index) {
  for (const TfliteOperator& producer : g.operators) {
    if (sc::builtin_name(model.operator_codes[producer.opcode_index].builtin_code) != "VAR_HANDLE") continue;
    if (std::find(producer.outputs.begin(), producer.outputs.end(), tensor_index) != producer.outputs.end())
      return producer.resource_name;
  }
  return "";
}

}  // namespace

std::string tflm_variant(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op) {
  const TfliteSubgraph& g = subgraph;
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const std::string name = code.builtin_code == sc::kCustom ? code.custom_code : sc::builtin_name(code.builtin_code);
  // TRANSPOSE_CONV's data input is its third (the first is the output shape).
  const size_t data_input = name == "TRANSPOSE_CONV" ? 2 : 0;
  const TfliteTensor* in = tensor(g, op.inputs, data_input);
  const TfliteTensor* out = tensor(g, op.outputs, 0);
  std::string v = name + " " + (in ? sc::type_name(in->type) : "-") + ">" + (out ? sc::type_name(out->type) : "-");
  if (name == "CONV_2D" || name == "DEPTHWISE_CONV_2D" || name == "FULLY_CONNECTED" || name == "TRANSPOSE_CONV") {
    const TfliteTensor* filter = tensor(g, op.inputs, 1);
    if (filter && in && in->type != sc::kFloat32)
      v += std::string(" ") + (per_channel(filter) ? "per-channel" : "per-tensor");
  }
  return v;
}

TflmKernelRecord tflm_kernel_record(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                                    const TflmBuild& build, TflmResourceState* resources) {
  const TfliteSubgraph& g = subgraph;
  TflmKernelRecord r;
  const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
  const std::string name = code.builtin_code == sc::kCustom ? code.custom_code : sc::builtin_name(code.builtin_code);
  r.variant = tflm_variant(model, g, op);
  const TflmKernelEntry* kernel = code.builtin_code == sc::kCustom ? nullptr : tflm_kernel_entry(name);
  if (!kernel) {
    r.why_unknown = name + (code.builtin_code == sc::kCustom ? ": a custom operator (its kernel is the firmware's)"
                                                             : ": TFLM has no kernel for it");
    return r;
  }
  const bool x64 = build.target == TflmTarget::kX86_64;
  const bool cmsis = build.kernels == TflmKernels::kCmsisNn;
  r.options_bytes = x64 ? kernel->options.bytes64 : kernel->options.bytes32;
  r.options_align = x64 ? kernel->options.align64 : kernel->options.align32;
  const int64_t data = cmsis ? kernel->init_cmsis32 : (x64 ? kernel->init_reference64 : kernel->init_reference32);
  if (data > 0) r.init.push_back(data);

  const TfliteTensor* input = tensor(g, op.inputs, 0);
  const TfliteTensor* filter = tensor(g, op.inputs, 1);
  const TfliteTensor* output = tensor(g, op.outputs, 0);
  switch (kernel->prepare) {
    case TflmPrepare::kNone:
      break;
    case TflmPrepare::kPerChannel: {
      // The reference kernels allocate the arrays whatever the type (float too); CMSIS-NN's
      // float path is the reference code without them.
      const int64_t channels = last_dim(output);
      if (channels > 0 && !(cmsis && input && input->type == sc::kFloat32)) r.prepare = {4 * channels, 4 * channels};
      break;
    }
    case TflmPrepare::kFcPerChannel:
      if (per_channel(filter) && first_dim(filter) > 0) r.prepare = {4 * first_dim(filter), 4 * first_dim(filter)};
      break;
    case TflmPrepare::kTransposeConv:
      if (first_dim(filter) > 0) r.prepare = {4 * first_dim(filter), 4 * first_dim(filter)};
      break;
    case TflmPrepare::kSoftmaxLuts:
      if (input && input->type == sc::kInt16)
        r.prepare = {int64_t{513} * 2, int64_t{513} * 2};  // 513 int16 entries each
      break;
    case TflmPrepare::kBatchMatmul:
      r.prepare = batch_matmul(g, op, x64 ? 24 : 12);
      break;
    case TflmPrepare::kQuantizedOpData:
      if (input && input->type == sc::kInt8) r.prepare = {x64 ? kernel->prepare64 : kernel->prepare32};
      break;
    case TflmPrepare::kOutputDims:
      if (output) r.prepare = {int_array_bytes(rank(output))};
      break;
    case TflmPrepare::kEmbeddingLookup:
      // OpData {float scale; size_t num_columns}.
      if (output) r.prepare = {int_array_bytes(rank(output)), x64 ? 16 : 8};
      break;
    case TflmPrepare::kLstmSums:
      if (cmsis) {
        // CMSIS-NN precomputes the sums of the four gates' input and recurrent weights.
        const int64_t cells = last_dim(tensor(g, op.inputs, 19));
        if (input && input->type == sc::kInt8 && cells > 0) r.prepare.assign(8, 4 * cells);
      }
      break;
    case TflmPrepare::kResourceAssignment: {
      const TfliteTensor* value = tensor(g, op.inputs, 1);
      const std::string key = op.inputs.empty() ? "" : resource_key(model, g, op.inputs[0]);
      bool first = true;
      if (resources) {
        first = std::find(resources->assigned.begin(), resources->assigned.end(), key) == resources->assigned.end();
        if (first) resources->assigned.push_back(key);
      }
      if (first && value) r.prepare = {elements(*value) * sc::type_size(value->type).value_or(4)};
      break;
    }
  }
  r.known = true;
  apply_tflm_version(r, build, static_cast<int64_t>(op.inputs.size()));
  r.proven = r.known && tflm_variant_proven(r.variant, build);
  return r;
}

}  // namespace usmpx
