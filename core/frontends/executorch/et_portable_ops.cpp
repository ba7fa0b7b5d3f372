#include "frontends/executorch/et_portable_ops.h"

#include "frontends/executorch/et_kernel_args.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

namespace usmpx {
namespace {

namespace sc = et_schema;

using namespace et_kernel_args;

float load(const EtRtTensor& t, int64_t i) {
  float f;
  std::memcpy(&f, t.data + i * 4, 4);
  return f;
}
void store(const EtRtTensor& t, int64_t i, float f) {
  std::memcpy(t.data + i * 4, &f, 4);
}

void check_room(const EtRtTensor& t, const char* op) {
  if (t.numel() < 0 || t.numel() * 4 > t.nbytes) fail(std::string(op) + ": a tensor's bytes do not hold its elements");
}

// Element-wise with broadcasting (PyTorch's rules: sizes aligned at the right, 1 stretches).
template <typename F>
void broadcast(const EtRtTensor& a, const EtRtTensor& b, const EtRtTensor& out, const char* op, F f) {
  const size_t rank = std::max({a.sizes.size(), b.sizes.size(), out.sizes.size()});
  auto padded = [&](const std::vector<int64_t>& s) {
    std::vector<int64_t> p(rank - s.size(), 1);
    p.insert(p.end(), s.begin(), s.end());
    return p;
  };
  const auto sa = padded(a.sizes), sb = padded(b.sizes), so = padded(out.sizes);
  for (size_t d = 0; d < rank; ++d) {
    if ((sa[d] != so[d] && sa[d] != 1) || (sb[d] != so[d] && sb[d] != 1))
      fail(std::string(op) + ": operand sizes do not broadcast to the output's");
  }
  check_room(a, op);
  check_room(b, op);
  check_room(out, op);
  const int64_t n = out.numel();
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < rank; ++d) {
      ia = ia * sa[d] + (sa[d] == 1 ? 0 : index[d]);
      ib = ib * sb[d] + (sb[d] == 1 ? 0 : index[d]);
    }
    store(out, i, f(load(a, ia), load(b, ib)));
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < so[d]) break;
      index[d] = 0;
    }
  }
}

// add.out(self, other, *, alpha, out)
void add_out(std::vector<EtRtValue>& v, const std::vector<int32_t>& args) {
  const char* op = "aten::add.out";
  const float alpha = static_cast<float>(scalar_arg(v, args, 2, op));
  broadcast(tensor_arg(v, args, 0, op), tensor_arg(v, args, 1, op), tensor_arg(v, args, 3, op), op,
            [alpha](float x, float y) { return x + alpha * y; });
}

// mul.out(self, other, *, out)
void mul_out(std::vector<EtRtValue>& v, const std::vector<int32_t>& args) {
  const char* op = "aten::mul.out";
  broadcast(tensor_arg(v, args, 0, op), tensor_arg(v, args, 1, op), tensor_arg(v, args, 2, op), op,
            [](float x, float y) { return x * y; });
}

// _softmax.out(self, dim, half_to_float, *, out): along dim, the largest subtracted first.
void softmax_out(std::vector<EtRtValue>& v, const std::vector<int32_t>& args) {
  const char* op = "aten::_softmax.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op);
  const EtRtTensor& out = tensor_arg(v, args, 3, op);
  if (in.sizes != out.sizes) fail(std::string(op) + ": input and output sizes differ");
  check_room(in, op);
  check_room(out, op);
  if (in.numel() == 0) return;
  const int64_t rank = static_cast<int64_t>(in.sizes.size());
  int64_t dim = int_arg(v, args, 1, op);
  if (dim < 0) dim += rank;
  if (rank == 0) dim = 0;
  if (dim < 0 || (rank > 0 && dim >= rank)) fail(std::string(op) + ": dim out of range");
  int64_t outer = 1, inner = 1, length = rank == 0 ? 1 : in.sizes[static_cast<size_t>(dim)];
  for (int64_t d = 0; d < dim; ++d)
    outer *= in.sizes[static_cast<size_t>(d)];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= in.sizes[static_cast<size_t>(d)];
  std::vector<float> row(static_cast<size_t>(length));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < inner; ++k) {
      const int64_t base = o * length * inner + k;
      float top = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < length; ++j) {
        row[static_cast<size_t>(j)] = load(in, base + j * inner);
        top = std::max(top, row[static_cast<size_t>(j)]);
      }
      float sum = 0;
      for (float& x : row) {
        x = std::exp(x - top);
        sum += x;
      }
      for (int64_t j = 0; j < length; ++j)
        store(out, base + j * inner, row[static_cast<size_t>(j)] / sum);
    }
  }
}

std::vector<int64_t> pair_arg(std::vector<EtRtValue>& v, const std::vector<int32_t>& args, size_t i, const char* op,
                              int64_t fallback) {
  const EtRtValue& x = arg(v, args, i, op);
  std::vector<int64_t> p = x.type == sc::ValueType::kIntList ? x.ints : std::vector<int64_t>{};
  if (p.empty()) p = {fallback};
  if (p.size() == 1) p.push_back(p[0]);
  return p;
}

// max_pool2d_with_indices.out(self, kernel_size, stride, padding, dilation, ceil_mode, *, out,
// indices): (N,)C,H,W; indices are flat positions in each input plane, as PyTorch's.
void max_pool2d_with_indices_out(std::vector<EtRtValue>& v, const std::vector<int32_t>& args) {
  const char* op = "aten::max_pool2d_with_indices.out";
  const EtRtTensor& in = tensor_arg(v, args, 0, op);
  const auto kernel = pair_arg(v, args, 1, op, 1);
  auto stride = pair_arg(v, args, 2, op, 0);
  if (arg(v, args, 2, op).ints.empty()) stride = kernel;
  const auto padding = pair_arg(v, args, 3, op, 0);
  const auto dilation = pair_arg(v, args, 4, op, 1);
  const EtRtTensor& out = tensor_arg(v, args, 6, op);
  const EtRtTensor& indices = tensor_arg(v, args, 7, op, kLong);
  if (in.sizes.size() < 3 || in.sizes.size() > 4 || out.sizes.size() != in.sizes.size())
    fail(std::string(op) + ": input is not (N,)C,H,W");
  check_room(in, op);
  check_room(out, op);
  if (indices.numel() * 8 > indices.nbytes || indices.numel() != out.numel())
    fail(std::string(op) + ": indices do not match the output");
  auto usable = [](const std::vector<int64_t>& p, int64_t lo) {
    return p.size() >= 2 && p[0] >= lo && p[1] >= lo && p[0] <= kMaxWindowValue && p[1] <= kMaxWindowValue;
  };
  if (!usable(kernel, 1) || !usable(stride, 1) || !usable(padding, 0) || !usable(dilation, 1))
    fail(std::string(op) + ": kernel, stride, padding or dilation not usable");
  if (in.numel() == 0 || out.numel() == 0) return;
  check_work(out.numel(), kernel[0] * kernel[1], op);
  const size_t r = in.sizes.size();
  if (in.sizes[r - 2] <= 0 || in.sizes[r - 1] <= 0) fail(std::string(op) + ": an empty input plane");
  const int64_t planes = in.numel() / (in.sizes[r - 2] * in.sizes[r - 1]);
  const int64_t ih = in.sizes[r - 2], iw = in.sizes[r - 1], oh = out.sizes[r - 2], ow = out.sizes[r - 1];
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        float best = -std::numeric_limits<float>::infinity();
        int64_t at = -1;
        for (int64_t ky = 0; ky < kernel[0]; ++ky) {
          const int64_t sy = y * stride[0] - padding[0] + ky * dilation[0];
          if (sy < 0 || sy >= ih) continue;
          for (int64_t kx = 0; kx < kernel[1]; ++kx) {
            const int64_t sx = x * stride[1] - padding[1] + kx * dilation[1];
            if (sx < 0 || sx >= iw) continue;
            const float value = load(in, p * ih * iw + sy * iw + sx);
            if (at < 0 || value > best || std::isnan(value)) {
              best = value;
              at = sy * iw + sx;
            }
          }
        }
        const int64_t o = p * oh * ow + y * ow + x;
        store(out, o, best);
        std::memcpy(indices.data + o * 8, &at, 8);
      }
    }
  }
}

const std::map<std::string, EtKernelEntry>& kernels() {
  static const std::map<std::string, EtKernelEntry> table = [] {
    std::vector<EtKernelEntry> list = {
        {"aten::add.out", add_out, {{0, kFloat}, {1, kFloat}, {3, kFloat}}},
        {"aten::mul.out", mul_out, {{0, kFloat}, {1, kFloat}, {2, kFloat}}},
        {"aten::_softmax.out", softmax_out, {{0, kFloat}, {3, kFloat}}},
        {"aten::max_pool2d_with_indices.out", max_pool2d_with_indices_out, {{0, kFloat}, {6, kFloat}, {7, kLong}}},
    };
    add_et_cortex_m_kernels(list);
    std::map<std::string, EtKernelEntry> by_name;
    for (EtKernelEntry& e : list)
      by_name.emplace(e.name, std::move(e));
    return by_name;
  }();
  return table;
}

}  // namespace

EtKernel et_portable_kernel(const std::string& full_name) {
  const auto it = kernels().find(full_name);
  return it == kernels().end() ? nullptr : it->second.run;
}

std::vector<EtArgType> et_portable_kernel_types(const std::string& full_name) {
  const auto it = kernels().find(full_name);
  return it == kernels().end() ? std::vector<EtArgType>{} : it->second.types;
}

std::vector<std::string> et_portable_kernel_names() {
  std::vector<std::string> names;
  for (const auto& [name, kernel] : kernels())
    names.push_back(name);
  return names;
}

}  // namespace usmpx
