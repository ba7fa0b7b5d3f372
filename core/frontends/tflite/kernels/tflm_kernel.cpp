#include "frontends/tflite/kernels/tflm_kernel.h"

#include <algorithm>

#include "frontends/tflite/tflite_schema.h"

namespace usmpx {

const TfliteTensor* TflmOp::tensor(const std::vector<int32_t>& list, size_t k) const {
  if (k >= list.size() || list[k] < 0 || static_cast<size_t>(list[k]) >= subgraph.tensors.size()) return nullptr;
  return &subgraph.tensors[static_cast<size_t>(list[k])];
}

int TflmOp::input_type(size_t k, TflmKeyPart part) const {
  note(part);
  const TfliteTensor* t = input(k);
  return t ? t->type : -1;
}

int TflmOp::output_type(size_t k) const {
  note(TflmKeyPart::kOutputType);
  const TfliteTensor* t = output(k);
  return t ? t->type : -1;
}

bool TflmOp::per_channel(size_t filter_input) const {
  note(TflmKeyPart::kFilterGranularity);
  const TfliteTensor* filter = input(filter_input);
  return filter && filter->quant_scales > 1;
}

int64_t TflmOp::output_rank() const {
  note(TflmKeyPart::kOutputRank);
  return rank(output(0));
}

bool TflmOp::constant_input(size_t k) const {
  note(TflmKeyPart::kConstantFilter);
  const TfliteTensor* t = input(k);
  return t && t->buffer < model.buffers.size() && model.buffers[t->buffer].constant();
}

int64_t TflmOp::option(size_t k, int64_t fallback, bool path) const {
  if (path) note(TflmKeyPart::kOptionPath);
  return k < op.option_ints.size() ? op.option_ints[k] : fallback;
}

bool TflmOp::shape_path(bool result) const {
  note(TflmKeyPart::kShapePath);
  return result;
}

int64_t elements(const TfliteTensor& t) {
  int64_t n = 1;
  for (int32_t d : t.shape) {
    if (d != 0 && n > kMaxScratchBytes / d) return -1;
    n *= d;
  }
  return n;
}

int64_t dim(const TfliteTensor* t, size_t k) {
  return t && k < t->shape.size() ? t->shape[k] : -1;
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

int64_t int_array_bytes(int64_t size) {
  return 4 + 4 * size;
}

int64_t padding_before(int64_t in, int64_t filter, int64_t stride, int64_t dilation, bool same) {
  const int64_t effective = (filter - 1) * dilation + 1;
  if (stride <= 0) return 0;
  const int64_t out = same ? (in + stride - 1) / stride : (in - effective + stride) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + effective - in, 0);
  return total / 2;
}

ScratchNeed scratch_unknown(std::string why) {
  return {false, {}, std::move(why)};
}

ScratchNeed scratch_none(std::string why) {
  return {true, {}, std::move(why)};
}

// Reference kernels: one buffer of the filter's element count when the filter is INT4 (unpacked
// to int8), none otherwise.
ScratchNeed int4_unpack_scratch(const TflmOp& op) {
  const TfliteTensor* filter = op.input(1);
  if (!filter || op.input_type(1, TflmKeyPart::kOtherTypes) != tflite_schema::kInt4)
    return scratch_none("no scratch (filter not INT4)");
  const int64_t n = elements(*filter);
  if (n < 0) return scratch_unknown("INT4 filter too large");
  return {true, {n}, "INT4 filter unpacked to int8: filter elements"};
}

std::vector<int64_t> output_dims_copy(const TflmOp& op, TflmResourceState* /*resources*/) {
  if (!op.output(0)) return {};
  return {int_array_bytes(rank(op.output(0)))};
}

std::vector<int64_t> int8_op_data(const TflmOp& op, int64_t bytes32, int64_t bytes64) {
  if (op.input_type(0) != tflite_schema::kInt8) return {};
  return {op.x64() ? bytes64 : bytes32};
}

}  // namespace usmpx
