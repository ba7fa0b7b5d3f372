#pragma once

// The TFLite Micro frontend: .tflite models read as TFLM plans their arena (tensors of every
// subgraph, lifetimes and scratch buffers as TFLM computes them, one pool `arena`), planned by
// default with tflm_greedy, and written back as a copy of the model whose OfflineMemoryAllocation
// metadata holds the plan.

#include "frontends/frontend.h"

namespace usmpx {

const Frontend& tflite_frontend();

}  // namespace usmpx
