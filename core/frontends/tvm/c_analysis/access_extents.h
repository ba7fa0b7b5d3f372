#pragma once

// What the accesses the liveness walk meets reveal about each buffer's size: indexed loads and
// stores, the sizes an operator library's API states (CMSIS-NN descriptors, external calls), and
// how far a function defined here reaches into a buffer it receives through a pointer to another
// element type. The walk (liveness_walk.cpp) decides where buffers live and when; this says how
// large their accesses show them to be.

#include <cstdint>
#include <vector>

#include "frontends/tvm/c_analysis/c_model.h"
#include "frontends/tvm/c_analysis/liveness_walk.h"
#include "frontends/tvm/c_analysis/value_range.h"

namespace usmpx {

enum class AccessUse { kLoad, kStore, kAddress };

// How the walk reads an expression of the function it is in at the moment.
class PointerView {
 public:
  virtual ~PointerView() = default;
  virtual int buffer_of(const CExpr& e) = 0;  // the buffer a pointer names (casts aside), -1 when none
  virtual bool is_view(const CExpr& e) = 0;   // it points into its buffer at an offset the walk does not track
  virtual ValueRange evaluate(const CExpr& e) = 0;
  virtual int64_t dims_elements(int decl) = 0;      // a cmsis_nn_dims variable's n*h*w*c, -1 when unknown
  virtual const CVariable& variable(int decl) = 0;  // of the current function
};

class AccessExtents {
 public:
  AccessExtents(const CProgram& program, RangeContext& ranges, PointerView& view, std::vector<WalkBuffer>& buffers)
      : program_(program), ranges_(ranges), view_(view), buffers_(buffers) {}

  // An indexed access `buf[index]` to buffer `b` (not through a view).
  void record(int b, const CExpr& subscript, AccessUse use, const ValueRange& index);
  // CMSIS-NN descriptors: `cmsis_nn_context c = {buffer, bytes};` states a scratch buffer's size;
  // returns, for `cmsis_nn_dims d = {n, h, w, c};`, the tensor's element count (-1 otherwise).
  int64_t read_descriptor(const CVariable& var);
  // A call into code without a body here: its API may state how far each pointer reaches.
  void external_call(const CExpr& call);
  // A function defined here that receives a buffer through a pointer to another element type (TVM's
  // Arm tensordot kernels take `uint32_t*` for int16 data and count 4-byte words) reaches it in its
  // own elements: that reach, measured in the callee from the address it receives, is added to the
  // argument's offset. A module function walked here (`walked`) sizes its own accesses to a buffer
  // it gets as `void*`; a pasted kernel is not walked, so every pun into it counts.
  void punned_arguments(const CExpr& call, const CFunction& callee, bool walked);

 private:
  // Where a call's argument points: its buffer, the byte offset into it, and the size of the
  // element type the caller passes it as (0 for void*).
  struct ArgumentPointer {
    int buffer = -1;
    ValueRange offset;
    int64_t element_bytes = 0;
  };
  ArgumentPointer argument_pointer(const CExpr& arg);
  void state_size(int b, int64_t bytes);
  void unsized_pun(int b, const CRange& at, const std::string& why);
  BufferAccesses& accesses(int b) { return buffers_[static_cast<size_t>(b)].accesses; }

  const CProgram& program_;
  RangeContext& ranges_;
  PointerView& view_;
  std::vector<WalkBuffer>& buffers_;
};

}  // namespace usmpx
