#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_build.h"

namespace usmpx {

// The scratch buffers an operator's TFLM kernel requests in Prepare (RequestScratchBufferInArena),
// in request order, when the rule is known.
struct ScratchNeed {
  bool known = true;
  std::vector<int64_t> bytes;  // unrounded, as requested
  std::string rule;            // how they were computed, or why they are unknown
};

// Rules of tflite-micro 90b983c's kernels (reference) and of its CMSIS-NN kernels built for a core
// with the DSP extension (CMSIS-NN 4ab83cc's arm_*_get_buffer_size, DSP code paths):
//   SVDF (both sets): int8 input: batch x filters x 4 and batch x units x 4 (units = filters /
//     rank); float: batch x filters x 4.
//   UNIDIRECTIONAL_SEQUENCE_LSTM: reference: 4 buffers of the cell state's bytes; CMSIS-NN (int8):
//     3 buffers of the cell state's bytes.
//   MEAN, SUM (reduce_common.cc): int8/int16 input: 4 x output elements (int32 sums); then, every
//     type, 4 x input rank (iteration index) and 4 x axis count (resolved axes).
//   REDUCE_MAX, REDUCE_MIN: 4 x input rank and 4 x axis count.
//   CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, reference: one buffer of the filter's element
//     count when the filter is INT4 (unpacked to int8), none otherwise.
//   CMSIS-NN int8 CONV_2D: none for a 1x1 filter without padding or dilation; otherwise im2col of
//     2 x align4(filter w x filter h x input channels) x 2 bytes.
//   CMSIS-NN int8 DEPTHWISE_CONV_2D: with one output channel per input channel, batch 1 and no
//     dilation, none for a 3x3 filter with padding <= 1, else input channels x filter w x h x 2
//     bytes; none for other shapes (the generic kernel).
//   CMSIS-NN int8 AVERAGE_POOL_2D: 4 x channels. CMSIS-NN int8 FULLY_CONNECTED: none.
//   CMSIS-NN int16 CONV_2D: 2 x filter w x h x input channels x 2 bytes; int16 DEPTHWISE_CONV_2D
//   and FULLY_CONNECTED: none; int16 AVERAGE_POOL_2D: 4 x channels.
//   ADD_N: one pointer per input. MIRROR_PAD: 4 x input rank, twice.
//   TRANSPOSE_CONV: int8: 4 x output elements (CMSIS-NN: its rolling buffer or, with strides <= 2
//     and more than 16 input channels, im2col and a reversed filter); int16: 8 x output elements,
//     and 8 x bias elements for an int16 bias; float: none.
//   Custom operators: unknown here. Every other builtin: none.
ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op,
                         const TflmBuild& build = {});

}  // namespace usmpx
