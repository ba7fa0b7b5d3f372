#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tflite/tflite_model.h"

namespace usmpx {

// The scratch buffers an operator's TFLM reference kernel requests in Prepare
// (RequestScratchBufferInArena), in request order, when the rule is known.
struct ScratchNeed {
  bool known = true;
  std::vector<int64_t> bytes;  // unrounded, as requested
  std::string rule;            // how they were computed, or why they are unknown
};

// Rules (tflite-micro 90b983c reference kernels):
//   SVDF: int8 input: batch x filters x 4 and batch x units x 4 (units = filters / rank); float:
//     batch x filters x 4.
//   UNIDIRECTIONAL_SEQUENCE_LSTM: 4 buffers of the cell state's size (batch x cells x its type size).
//   CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED: one buffer of the filter's element count when the
//     filter is INT4 (unpacked to int8), none otherwise.
//   ADD_N, MIRROR_PAD, the reductions, TRANSPOSE_CONV and custom operators: unknown here.
//   Every other builtin: none.
ScratchNeed scratch_need(const TfliteModel& model, const TfliteSubgraph& subgraph, const TfliteOperator& op);

}  // namespace usmpx
