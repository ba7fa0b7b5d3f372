#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace usmpx {

// The integer values an index expression can take inside a loop nest: an interval [lo, hi] and,
// while the expression stays affine in the loop variables, its exact affine form, so that
// `(y * 8) + x - y` still gets the tight maximum. Symbols are loop variables with known ranges.
struct ValueRange {
  bool known = false;
  int64_t lo = 0;
  int64_t hi = 0;
  bool affine = false;
  int64_t constant = 0;
  std::vector<std::pair<int, int64_t>> terms;  // (symbol, coefficient), sorted by symbol, no zeros

  static ValueRange unknown() { return {}; }
  static ValueRange exactly(int64_t v) { return {true, v, v, true, v, {}}; }
  static ValueRange between(int64_t lo, int64_t hi) { return {true, lo, hi, false, 0, {}}; }
};

// Loop variables and the arithmetic on ranges.
class RangeContext {
 public:
  // A new symbol ranging over [lo, hi].
  ValueRange symbol(int64_t lo, int64_t hi);

  ValueRange add(const ValueRange& a, const ValueRange& b) const;
  ValueRange sub(const ValueRange& a, const ValueRange& b) const;
  ValueRange mul(const ValueRange& a, const ValueRange& b) const;
  ValueRange div(const ValueRange& a, const ValueRange& b) const;  // C truncating division
  ValueRange mod(const ValueRange& a, const ValueRange& b) const;
  ValueRange shl(const ValueRange& a, const ValueRange& b) const;
  ValueRange shr(const ValueRange& a, const ValueRange& b) const;
  ValueRange bit_and(const ValueRange& a, const ValueRange& b) const;
  ValueRange hull(const ValueRange& a, const ValueRange& b) const;  // either value (a ? b : c)
  ValueRange negate(const ValueRange& a) const;

 private:
  ValueRange from_affine(int64_t constant, std::vector<std::pair<int, int64_t>> terms) const;
  std::vector<std::pair<int64_t, int64_t>> symbols_;
};

}  // namespace usmpx
