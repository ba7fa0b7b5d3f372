#pragma once

#include "frontends/tvm/tir/node.h"

namespace usmpx {

// TVM's CreateAllocatesForIO (src/tir/usmp/transform/create_io_allocates.cc), run before the
// extraction when the model's inputs and outputs are planned in the workspace pools
// (--use-workspace-io): every parameter of `main` bound to a buffer leaves the signature and
// becomes an Allocate of that buffer's data, annotated {"input_tensor": name} when the callees
// load from it or {"output_tensor": name} when they store to it. The allocates enclose main's
// body, the last parameter outermost. The buffer map is kept. Returns the rewritten module;
// throws InputError with TVM's messages when a buffer is both read and written or neither.
// (TVM also requires the C interface API; a dump does not say which one was used.)
tir::Module create_allocates_for_io(const tir::Module& module, const tir::PrimFunc& main);

}  // namespace usmpx
