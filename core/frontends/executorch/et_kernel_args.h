#pragma once

// Reading a kernel call's arguments for the project's ExecuTorch operators (et_portable_ops.cpp,
// et_cortex_m_ops.cpp): every index, type and size checked, a mismatch an EtKernelError.

#include <string>
#include <vector>

#include "frontends/executorch/et_portable_ops.h"

namespace usmpx::et_kernel_args {

inline constexpr int kByte = 0, kChar = 1, kInt = 3, kLong = 4, kFloat = 6, kBool = 11;

[[noreturn]] inline void fail(const std::string& what) {
  throw EtKernelError{what};
}

inline const EtRtValue& arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i,
                            const char* op) {
  if (i >= args.size() || args[i] < 0 || static_cast<size_t>(args[i]) >= values.size())
    fail(std::string(op) + ": argument " + std::to_string(i) + " missing");
  return values[static_cast<size_t>(args[i])];
}

inline bool is_null(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i, const char* op) {
  return arg(values, args, i, op).type == et_schema::ValueType::kNull;
}

// A tensor of `type` whose bytes hold its elements; laid out in logical order when `contiguous`.
inline const EtRtTensor& tensor_arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i,
                                    const char* op, int type = kFloat, bool contiguous = true) {
  const EtRtValue& v = arg(values, args, i, op);
  if (v.type != et_schema::ValueType::kTensor || (!v.tensor.data && v.tensor.nbytes > 0))
    fail(std::string(op) + ": argument " + std::to_string(i) + " is not a tensor with data");
  const EtRtTensor& t = v.tensor;
  if (t.scalar_type != type)
    fail(std::string(op) + " on " + et_schema::scalar_type_name(t.scalar_type) +
         " tensors (implemented: " + et_schema::scalar_type_name(type) + ")");
  const auto size = et_schema::scalar_type_size(type).value_or(1);
  if (t.numel() < 0 || t.numel() * size > t.nbytes || t.strides().size() != t.sizes.size())
    fail(std::string(op) + ": argument " + std::to_string(i) + "'s bytes do not hold its elements");
  if (contiguous && !t.contiguous())
    fail(std::string(op) + ": argument " + std::to_string(i) + " is not laid out in its logical order (dim order)");
  return t;
}

inline double scalar_arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i, const char* op) {
  const EtRtValue& v = arg(values, args, i, op);
  if (v.type == et_schema::ValueType::kDouble) return v.d;
  if (v.type == et_schema::ValueType::kInt || v.type == et_schema::ValueType::kBool) return static_cast<double>(v.i);
  if (v.type == et_schema::ValueType::kNull) return 1.0;
  fail(std::string(op) + ": argument " + std::to_string(i) + " is not a scalar");
}

inline int64_t int_arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i, const char* op) {
  const EtRtValue& v = arg(values, args, i, op);
  if (v.type != et_schema::ValueType::kInt && v.type != et_schema::ValueType::kBool)
    fail(std::string(op) + ": argument " + std::to_string(i) + " is not an int");
  return v.i;
}

// Window sizes, strides, paddings and dilations are at most this (no index arithmetic overflows).
inline constexpr int64_t kMaxWindowValue = int64_t{1} << 20;

// Refuses a call whose multiply-accumulates or comparisons pass 2^34 (a damaged file, not a model).
inline void check_work(int64_t outputs, int64_t per_output, const char* op) {
  if (outputs < 0 || per_output < 0 || (per_output > 0 && outputs > (int64_t{1} << 34) / per_output))
    fail(std::string(op) + ": more than 2^34 steps of work");
}

// A quantisation offset (a zero point or its negation): within +-2^16.
inline int32_t offset_arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i, const char* op) {
  const EtRtValue& v = arg(values, args, i, op);
  if (v.type != et_schema::ValueType::kInt || v.i < -(int64_t{1} << 16) || v.i > (int64_t{1} << 16))
    fail(std::string(op) + ": argument " + std::to_string(i) + " is not a quantisation offset");
  return static_cast<int32_t>(v.i);
}

// An int list of exactly `n` entries, each in [lo, kMaxWindowValue].
inline std::vector<int64_t> ints_arg(std::vector<EtRtValue>& values, const std::vector<int32_t>& args, size_t i,
                                     const char* op, size_t n, int64_t lo = 0) {
  const EtRtValue& v = arg(values, args, i, op);
  if (v.type != et_schema::ValueType::kIntList || v.ints.size() != n)
    fail(std::string(op) + ": argument " + std::to_string(i) + " is not a list of " + std::to_string(n) + " ints");
  for (int64_t x : v.ints) {
    if (x < lo || x > kMaxWindowValue)
      fail(std::string(op) + ": argument " + std::to_string(i) + " holds " + std::to_string(x) + ", out of range");
  }
  return v.ints;
}

}  // namespace usmpx::et_kernel_args
