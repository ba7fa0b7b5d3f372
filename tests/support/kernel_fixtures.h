#pragma once

#include <string>

namespace usmpx::testing {

// Small models of kernel code paths the shared ground truth lacks, written with
// write_fixture_tflite (deterministic constant data).

// A Keras Dense on a sequence (keep_num_dims): FULLY_CONNECTED of an INT8 [1, 10, 128] input with a
// [257, 128] INT8 filter and an INT32 bias into an INT8 [1, 10, 257] output. CMSIS-NN runs it as a
// 1x1 convolution over the 10 batches (output rank 3, accumulation depth 128 a multiple of 4).
// `empty_subgraphs` subgraphs without tensors or operators follow the first.
std::string fully_connected_sequence_tflite(int empty_subgraphs = 0);

}  // namespace usmpx::testing
