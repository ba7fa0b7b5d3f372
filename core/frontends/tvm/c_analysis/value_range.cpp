#include "frontends/tvm/c_analysis/value_range.h"

#include <algorithm>
#include <map>
#include <optional>

namespace usmpx {
namespace {

__extension__ typedef __int128 Wide;  // GCC and clang extension; wide enough for every product below

// Values beyond this are treated as unknown, so that no arithmetic below can overflow.
constexpr Wide kLimit = static_cast<Wide>(1) << 62;

bool in_limit(Wide v) {
  return v > -kLimit && v < kLimit;
}

ValueRange interval(Wide lo, Wide hi) {
  if (!in_limit(lo) || !in_limit(hi) || lo > hi) return ValueRange::unknown();
  return ValueRange::between(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
}

std::optional<int64_t> single(const ValueRange& r) {
  if (r.known && r.lo == r.hi) return r.lo;
  return std::nullopt;
}

}  // namespace

ValueRange RangeContext::symbol(int64_t lo, int64_t hi) {
  const int id = static_cast<int>(symbols_.size());
  symbols_.emplace_back(lo, hi);
  ValueRange r = ValueRange::between(lo, hi);
  r.affine = true;
  r.terms = {{id, 1}};
  return r;
}

ValueRange RangeContext::from_affine(int64_t constant, std::vector<std::pair<int, int64_t>> terms) const {
  Wide lo = constant;
  Wide hi = constant;
  for (const auto& [s, c] : terms) {
    const auto& [slo, shi] = symbols_[static_cast<size_t>(s)];
    const Wide a = static_cast<Wide>(c) * slo;
    const Wide b = static_cast<Wide>(c) * shi;
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  ValueRange r = interval(lo, hi);
  if (!r.known) return r;
  r.affine = true;
  r.constant = constant;
  r.terms = std::move(terms);
  return r;
}

ValueRange RangeContext::add(const ValueRange& a, const ValueRange& b) const {
  if (!a.known || !b.known) return ValueRange::unknown();
  if (a.affine && b.affine) {
    const Wide c = static_cast<Wide>(a.constant) + b.constant;
    if (!in_limit(c)) return ValueRange::unknown();
    std::map<int, Wide> sum;
    for (const auto& [s, k] : a.terms)
      sum[s] += k;
    for (const auto& [s, k] : b.terms)
      sum[s] += k;
    std::vector<std::pair<int, int64_t>> terms;
    for (const auto& [s, k] : sum) {
      if (!in_limit(k)) return ValueRange::unknown();
      if (k != 0) terms.emplace_back(s, static_cast<int64_t>(k));
    }
    return from_affine(static_cast<int64_t>(c), std::move(terms));
  }
  return interval(static_cast<Wide>(a.lo) + b.lo, static_cast<Wide>(a.hi) + b.hi);
}

ValueRange RangeContext::negate(const ValueRange& a) const {
  if (!a.known) return a;
  if (a.affine) {
    std::vector<std::pair<int, int64_t>> terms = a.terms;
    for (auto& t : terms)
      t.second = -t.second;
    return from_affine(-a.constant, std::move(terms));
  }
  return interval(-static_cast<Wide>(a.hi), -static_cast<Wide>(a.lo));
}

ValueRange RangeContext::sub(const ValueRange& a, const ValueRange& b) const {
  return add(a, negate(b));
}

ValueRange RangeContext::mul(const ValueRange& a, const ValueRange& b) const {
  if (!a.known || !b.known) return ValueRange::unknown();
  for (int side = 0; side < 2; ++side) {
    const ValueRange& x = side == 0 ? a : b;
    const ValueRange& y = side == 0 ? b : a;
    const auto k = single(y);
    if (k && x.affine) {
      const Wide c = static_cast<Wide>(x.constant) * *k;
      if (!in_limit(c)) return ValueRange::unknown();
      std::vector<std::pair<int, int64_t>> terms;
      for (const auto& [s, v] : x.terms) {
        const Wide p = static_cast<Wide>(v) * *k;
        if (!in_limit(p)) return ValueRange::unknown();
        if (p != 0) terms.emplace_back(s, static_cast<int64_t>(p));
      }
      return from_affine(static_cast<int64_t>(c), std::move(terms));
    }
  }
  const Wide p[] = {static_cast<Wide>(a.lo) * b.lo, static_cast<Wide>(a.lo) * b.hi, static_cast<Wide>(a.hi) * b.lo,
                    static_cast<Wide>(a.hi) * b.hi};
  return interval(*std::min_element(std::begin(p), std::end(p)), *std::max_element(std::begin(p), std::end(p)));
}

ValueRange RangeContext::div(const ValueRange& a, const ValueRange& b) const {
  const auto d = single(b);
  if (!a.known || !d || *d <= 0) return ValueRange::unknown();
  return interval(a.lo / *d, a.hi / *d);  // truncation is monotonic for a positive divisor
}

ValueRange RangeContext::mod(const ValueRange& a, const ValueRange& b) const {
  const auto d = single(b);
  if (!a.known || !d || *d <= 0) return ValueRange::unknown();
  if (a.lo >= 0) return a.hi < *d ? interval(a.lo, a.hi) : interval(0, *d - 1);
  return interval(-(*d - 1), *d - 1);
}

ValueRange RangeContext::shl(const ValueRange& a, const ValueRange& b) const {
  const auto k = single(b);
  if (!k || *k < 0 || *k > 60) return ValueRange::unknown();
  return mul(a, ValueRange::exactly(static_cast<int64_t>(1) << *k));
}

ValueRange RangeContext::shr(const ValueRange& a, const ValueRange& b) const {
  const auto k = single(b);
  if (!a.known || !k || *k < 0 || *k > 62) return ValueRange::unknown();
  return interval(a.lo >> *k, a.hi >> *k);  // arithmetic shift is monotonic
}

ValueRange RangeContext::bit_and(const ValueRange& a, const ValueRange& b) const {
  for (const ValueRange* m : {&b, &a}) {
    const auto mask = single(*m);
    const ValueRange& other = m == &b ? a : b;
    if (mask && *mask >= 0) return interval(0, other.known && other.lo >= 0 ? std::min(other.hi, *mask) : *mask);
  }
  return ValueRange::unknown();
}

ValueRange RangeContext::hull(const ValueRange& a, const ValueRange& b) const {
  if (!a.known || !b.known) return ValueRange::unknown();
  return interval(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

}  // namespace usmpx
