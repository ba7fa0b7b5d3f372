// The Cortex-M operators of ExecuTorch's backends/cortex_m (int8, CMSIS-NN underneath), as the
// Arduino keyword spotter calls them: argument lists as the program's calls give them, arithmetic
// as CMSIS-NN's reference C states it (requantisation by a 32-bit multiplier and a shift with
// round-half-away rounding; padding skipped, not read). Not compared with CMSIS-NN bit for bit:
// selftest compares a program with its re-plan on this same code.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontends/executorch/et_kernel_args.h"

namespace usmpx {
namespace {

using namespace et_kernel_args;

using Values = std::vector<EtRtValue>;
using Args = std::vector<int32_t>;

int32_t doubling_high_multiply(int32_t a, int32_t b) {
  const int64_t product = static_cast<int64_t>(a) * b + (int64_t{1} << 30);
  return static_cast<int32_t>(product >> 31);
}

int32_t divide_by_power_of_two(int32_t dividend, int32_t exponent) {
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = dividend & mask;
  int32_t result = dividend >> exponent;
  int32_t threshold = mask >> 1;
  if (result < 0) ++threshold;
  if (remainder > threshold) ++result;
  return result;
}

int32_t requantize(int32_t value, int32_t multiplier, int32_t shift) {
  shift = std::clamp(shift, -31, 31);
  const int32_t left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto scaled = static_cast<int32_t>(static_cast<uint32_t>(value) << left);  // wraps as the C does
  return divide_by_power_of_two(doubling_high_multiply(scaled, multiplier), right);
}

// The byte position of a logical (n, c, h, w) element of a 4-d tensor.
struct Nchw {
  explicit Nchw(const EtRtTensor& t) : s(t.strides()) {}
  int64_t at(int64_t n, int64_t c, int64_t h, int64_t w) const { return n * s[0] + c * s[1] + h * s[2] + w * s[3]; }
  std::vector<int64_t> s;
};

int8_t* i8(const EtRtTensor& t) {
  return reinterpret_cast<int8_t*>(t.data);
}
int32_t i32(const EtRtTensor& t, int64_t i) {
  int32_t x;
  std::memcpy(&x, t.data + i * 4, 4);
  return x;
}

void need_rank(const EtRtTensor& t, size_t rank, const char* op) {
  if (t.sizes.size() != rank)
    fail(std::string(op) + ": a tensor of rank " + std::to_string(t.sizes.size()) + ", expected " +
         std::to_string(rank));
}

// Copies every element by its logical position (the layouts may differ).
void copy_logical(const EtRtTensor& in, const EtRtTensor& out, int64_t element, const char* op) {
  if (in.sizes != out.sizes) fail(std::string(op) + ": input and output sizes differ");
  const auto si = in.strides(), so = out.strides();
  const int64_t n = in.numel();
  std::vector<int64_t> index(in.sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t a = 0, b = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      a += index[d] * si[d];
      b += index[d] * so[d];
    }
    std::memmove(out.data + b * element, in.data + a * element, static_cast<size_t>(element));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < in.sizes[d]) break;
      index[d] = 0;
    }
  }
}

// quantize_per_tensor.out(input, scale, zero_point, quant_min, quant_max, dtype, *, out)
void quantize_out(Values& v, const Args& args) {
  const char* op = "cortex_m::quantize_per_tensor.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kFloat, false);
  const double scale = scalar_arg(v, args, 1, op);
  const int64_t zp = offset_arg(v, args, 2, op);
  const int64_t lo = std::max<int64_t>(-128, int_arg(v, args, 3, op)),
                hi = std::min<int64_t>(127, int_arg(v, args, 4, op));
  const EtRtTensor& out = tensor_arg(v, args, 6, op, kChar, false);
  if (in.sizes != out.sizes || in.strides() != out.strides())
    fail(std::string(op) + ": input and output differ in shape or layout");
  if (scale == 0) fail(std::string(op) + ": scale 0");
  for (int64_t i = 0; i < in.numel(); ++i) {
    float x;
    std::memcpy(&x, in.data + i * 4, 4);
    const double q = std::nearbyint(static_cast<double>(x) / scale) + static_cast<double>(zp);
    const double clamped = std::isnan(q) ? static_cast<double>(zp) : q;
    i8(out)[i] = static_cast<int8_t>(
        std::clamp<double>(clamped, static_cast<double>(std::min(lo, hi)), static_cast<double>(std::max(lo, hi))));
  }
}

// dequantize_per_tensor.out(input, scale, zero_point, quant_min, quant_max, dtype, *, out)
void dequantize_out(Values& v, const Args& args) {
  const char* op = "cortex_m::dequantize_per_tensor.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kChar, false);
  const double scale = scalar_arg(v, args, 1, op);
  if (!std::isfinite(scale) || std::abs(scale) > 1e30) fail(std::string(op) + ": scale out of range");
  const int64_t zp = offset_arg(v, args, 2, op);
  const EtRtTensor& out = tensor_arg(v, args, 6, op, kFloat, false);
  if (in.sizes != out.sizes || in.strides() != out.strides())
    fail(std::string(op) + ": input and output differ in shape or layout");
  for (int64_t i = 0; i < in.numel(); ++i) {
    const auto f = static_cast<float>(static_cast<double>(i8(in)[i] - zp) * scale);
    std::memcpy(out.data + i * 4, &f, 4);
  }
}

// _clone_dim_order.out(self, non_blocking, dim_order, *, out): a copy into out's layout.
void clone_dim_order_out(Values& v, const Args& args) {
  const char* op = "dim_order_ops::_clone_dim_order.out";
  const EtRtValue& self = arg(v, args, 0, op);
  const int type = self.tensor.scalar_type;
  const EtRtTensor& in = tensor_arg(v, args, 0, op, type, false);
  const EtRtTensor& out = tensor_arg(v, args, 3, op, type, false);
  copy_logical(in, out, et_schema::scalar_type_size(type).value_or(1), op);
}

// pad.out(input, pre_pad, post_pad, pad_value, *, out): implemented for no padding (a copy).
void pad_out(Values& v, const Args& args) {
  const char* op = "cortex_m::pad.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kChar, false);
  const EtRtTensor& out = tensor_arg(v, args, 4, op, kChar, false);
  for (size_t i : {size_t{1}, size_t{2}}) {
    const EtRtValue& p = arg(v, args, i, op);
    if (std::any_of(p.ints.begin(), p.ints.end(), [](int64_t x) { return x != 0; }))
      fail(std::string(op) + " with non-zero padding is not implemented");
  }
  copy_logical(in, out, 1, op);
}

// A 2-d convolution, depthwise when depth_multiplier > 0. Arguments: input, weight, bias, stride,
// padding, dilation, [depth_multiplier], input_offset, output_offset, requantize_multipliers,
// requantize_shifts, activation_min, activation_max, scratch, *, out.
void conv(Values& v, const Args& args, const char* op, bool depthwise) {
  const size_t k = depthwise ? 1 : 0;
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kChar, false);
  const EtRtTensor& w = tensor_arg(v, args, 1, op, kChar, true);
  const bool has_bias = !is_null(v, args, 2, op);
  const EtRtTensor* bias = has_bias ? &tensor_arg(v, args, 2, op, kInt, true) : nullptr;
  const auto stride = ints_arg(v, args, 3, op, 2, 1), padding = ints_arg(v, args, 4, op, 2),
             dilation = ints_arg(v, args, 5, op, 2, 1);
  const int64_t multiplier_per_channel = depthwise ? int_arg(v, args, 6, op) : 1;
  const int64_t input_offset = offset_arg(v, args, 6 + k, op);
  const int64_t output_offset = offset_arg(v, args, 7 + k, op);
  const EtRtTensor& mult = tensor_arg(v, args, 8 + k, op, kInt, true);
  const EtRtTensor& shift = tensor_arg(v, args, 9 + k, op, kInt, true);
  const int64_t a = int_arg(v, args, 10 + k, op), b = int_arg(v, args, 11 + k, op);
  const int64_t act_min = std::min(a, b), act_max = std::max(a, b);
  const EtRtTensor& out = tensor_arg(v, args, 13 + k, op, kChar, false);
  need_rank(in, 4, op);
  need_rank(w, 4, op);
  need_rank(out, 4, op);
  if (out.numel() == 0) return;
  if (w.numel() == 0 || in.numel() == 0) fail(std::string(op) + ": empty weights or input");
  const int64_t batches = in.sizes[0], cin = in.sizes[1], ih = in.sizes[2], iw = in.sizes[3];
  const int64_t cout = out.sizes[1], oh = out.sizes[2], ow = out.sizes[3];
  // Weights: [1, KH, KW, C_out] depthwise, [C_out, KH, KW, C_in] otherwise (CMSIS-NN's layouts).
  const int64_t kh = w.sizes[1], kw = w.sizes[2];
  const bool shapes = depthwise ? (w.sizes[0] == 1 && w.sizes[3] == cout && multiplier_per_channel > 0 &&
                                   cin * multiplier_per_channel == cout)
                                : (w.sizes[0] == cout && w.sizes[3] == cin);
  if (!shapes || out.sizes[0] != batches || mult.numel() < cout || shift.numel() < cout ||
      (bias && bias->numel() < cout) || stride[0] <= 0 || stride[1] <= 0 || dilation[0] <= 0 || dilation[1] <= 0)
    fail(std::string(op) + ": weight, bias, quantisation or output sizes do not fit the input");
  check_work(out.numel(), kh * kw * (depthwise ? 1 : cin), op);
  const Nchw pin(in), pout(out);
  for (int64_t n = 0; n < batches; ++n) {
    for (int64_t co = 0; co < cout; ++co) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          int64_t acc = bias ? i32(*bias, co) : 0;
          for (int64_t ky = 0; ky < kh; ++ky) {
            const int64_t sy = y * stride[0] - padding[0] + ky * dilation[0];
            if (sy < 0 || sy >= ih) continue;
            for (int64_t kx = 0; kx < kw; ++kx) {
              const int64_t sx = x * stride[1] - padding[1] + kx * dilation[1];
              if (sx < 0 || sx >= iw) continue;
              if (depthwise) {
                const int64_t ci = co / multiplier_per_channel;
                acc += (i8(in)[pin.at(n, ci, sy, sx)] + input_offset) * int64_t{i8(w)[(ky * kw + kx) * cout + co]};
              } else {
                for (int64_t ci = 0; ci < cin; ++ci)
                  acc += (i8(in)[pin.at(n, ci, sy, sx)] + input_offset) *
                         int64_t{i8(w)[((co * kh + ky) * kw + kx) * cin + ci]};
              }
            }
          }
          const int64_t r = requantize(static_cast<int32_t>(acc), i32(mult, co), i32(shift, co)) + output_offset;
          i8(out)[pout.at(n, co, y, x)] = static_cast<int8_t>(std::clamp(r, act_min, act_max));
        }
      }
    }
  }
}

void conv2d_out(Values& v, const Args& args) {
  conv(v, args, "cortex_m::quantized_conv2d.out", false);
}
void depthwise_conv2d_out(Values& v, const Args& args) {
  conv(v, args, "cortex_m::quantized_depthwise_conv2d.out", true);
}

// quantized_avg_pool2d.out(input, kernel_size, stride, padding, ceil_mode, zero_point, multiplier,
// shift, scratch, *, out): the rounded mean of the window's elements inside the input (the
// quantisation arguments are not used: input and output share them); each output position's
// per-channel sums go through the scratch tensor as CMSIS-NN's do.
void avg_pool2d_out(Values& v, const Args& args) {
  const char* op = "cortex_m::quantized_avg_pool2d.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kChar, false);
  const auto kernel = ints_arg(v, args, 1, op, 2, 1), stride = ints_arg(v, args, 2, op, 2, 1),
             padding = ints_arg(v, args, 3, op, 2);
  const EtRtTensor& scratch = tensor_arg(v, args, 8, op, kByte, false);
  const EtRtTensor& out = tensor_arg(v, args, 9, op, kChar, false);
  need_rank(in, 4, op);
  need_rank(out, 4, op);
  if (out.numel() == 0) return;
  if (out.sizes[0] != in.sizes[0] || out.sizes[1] != in.sizes[1] || stride[0] <= 0 || stride[1] <= 0)
    fail(std::string(op) + ": output sizes do not fit the input");
  const int64_t channels = in.sizes[1];
  if (scratch.nbytes < channels * 4)
    fail(std::string(op) + ": the scratch tensor holds fewer than 4 bytes per channel");
  const Nchw pin(in), pout(out);
  for (int64_t n = 0; n < in.sizes[0]; ++n) {
    for (int64_t y = 0; y < out.sizes[2]; ++y) {
      for (int64_t x = 0; x < out.sizes[3]; ++x) {
        const int64_t y0 = std::max<int64_t>(0, y * stride[0] - padding[0]);
        const int64_t y1 = std::min(in.sizes[2], y * stride[0] - padding[0] + kernel[0]);
        const int64_t x0 = std::max<int64_t>(0, x * stride[1] - padding[1]);
        const int64_t x1 = std::min(in.sizes[3], x * stride[1] - padding[1] + kernel[1]);
        const int64_t count = std::max<int64_t>(0, y1 - y0) * std::max<int64_t>(0, x1 - x0);
        if (count == 0) fail(std::string(op) + ": a window holds no input element");
        check_work(channels, count, op);
        for (int64_t c = 0; c < channels; ++c) {
          int64_t total = 0;
          for (int64_t sy = y0; sy < y1; ++sy) {
            for (int64_t sx = x0; sx < x1; ++sx)
              total += i8(in)[pin.at(n, c, sy, sx)];
          }
          const auto sum = static_cast<int32_t>(total);  // CMSIS-NN's 32-bit accumulator
          std::memcpy(scratch.data + c * 4, &sum, 4);
        }
        for (int64_t c = 0; c < channels; ++c) {
          int32_t sum;
          std::memcpy(&sum, scratch.data + c * 4, 4);
          const int64_t mean = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
          i8(out)[pout.at(n, c, y, x)] = static_cast<int8_t>(std::clamp<int64_t>(mean, -128, 127));
        }
      }
    }
  }
}

// quantized_linear.out(input, weights, bias, kernel_sum, input_offset, filter_offset,
// output_offset, requantize_multipliers, requantize_shifts, activation_max, activation_min, *, out)
void linear_out(Values& v, const Args& args) {
  const char* op = "cortex_m::quantized_linear.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op, kChar, true);
  const EtRtTensor& w = tensor_arg(v, args, 1, op, kChar, true);
  const EtRtTensor* bias = is_null(v, args, 2, op) ? nullptr : &tensor_arg(v, args, 2, op, kInt, true);
  const int64_t input_offset = offset_arg(v, args, 4, op), filter_offset = offset_arg(v, args, 5, op),
                output_offset = offset_arg(v, args, 6, op);
  const EtRtValue& mult = arg(v, args, 7, op);
  const EtRtValue& shift = arg(v, args, 8, op);
  const int64_t a = int_arg(v, args, 9, op), b = int_arg(v, args, 10, op);
  const EtRtTensor& out = tensor_arg(v, args, 11, op, kChar, true);
  need_rank(w, 2, op);
  const int64_t outs = w.sizes[0], ins = w.sizes[1];
  if (ins <= 0 || in.numel() % ins != 0 || out.numel() != in.numel() / ins * outs || (bias && bias->numel() < outs) ||
      mult.ints.empty() || shift.ints.size() != mult.ints.size() ||
      (mult.ints.size() != 1 && static_cast<int64_t>(mult.ints.size()) < outs))
    fail(std::string(op) + ": weight, bias, quantisation or output sizes do not fit the input");
  const int64_t batches = in.numel() / ins;
  check_work(batches * outs, ins, op);
  for (int64_t n = 0; n < batches; ++n) {
    for (int64_t o = 0; o < outs; ++o) {
      int64_t acc = bias ? i32(*bias, o) : 0;
      for (int64_t i = 0; i < ins; ++i)
        acc += (i8(in)[n * ins + i] + input_offset) * (i8(w)[o * ins + i] + filter_offset);
      const size_t q = mult.ints.size() == 1 ? 0 : static_cast<size_t>(o);
      const int64_t r = requantize(static_cast<int32_t>(acc), static_cast<int32_t>(mult.ints[q]),
                                   static_cast<int32_t>(shift.ints[q])) +
                        output_offset;
      i8(out)[n * outs + o] = static_cast<int8_t>(std::clamp(r, std::min(a, b), std::max(a, b)));
    }
  }
}

}  // namespace

void add_et_cortex_m_kernels(std::vector<EtKernelEntry>& table) {
  // Convolutions: input, weight, bias (optional), multipliers, shifts, output (one argument later
  // for the depthwise one, after its depth multiplier).
  auto conv_types = [](size_t k) {
    return std::vector<EtArgType>{{0, kChar}, {1, kChar}, {2, kInt}, {8 + k, kInt}, {9 + k, kInt}, {13 + k, kChar}};
  };
  table.insert(table.end(),
               {
                   {"cortex_m::quantize_per_tensor.out", quantize_out, {{0, kFloat}, {6, kChar}}},
                   {"cortex_m::dequantize_per_tensor.out", dequantize_out, {{0, kChar}, {6, kFloat}}},
                   {"cortex_m::quantized_conv2d.out", conv2d_out, conv_types(0)},
                   {"cortex_m::quantized_depthwise_conv2d.out", depthwise_conv2d_out, conv_types(1)},
                   {"cortex_m::quantized_avg_pool2d.out", avg_pool2d_out, {{0, kChar}, {8, kByte}, {9, kChar}}},
                   {"cortex_m::quantized_linear.out", linear_out, {{0, kChar}, {1, kChar}, {2, kInt}, {11, kChar}}},
                   {"cortex_m::pad.out", pad_out, {{0, kChar}, {4, kChar}}},
                   {"dim_order_ops::_clone_dim_order.out", clone_dim_order_out, {}},
               });
}

}  // namespace usmpx
