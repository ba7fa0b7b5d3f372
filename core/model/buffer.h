#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/source_location.h"

namespace usmpx {

// kReserved: bytes of a pool that code the tool cannot read may use (an NPU operator, a vendor
// library given the pool, or a pool declared larger than its known buffers reach). A reserved
// buffer is pinned where TVM left those bytes and conflicts with every buffer of its pool.
enum class BufferKind { kIntermediate, kInput, kOutput, kConstant, kReserved };

std::string_view to_string(BufferKind kind);
std::optional<BufferKind> buffer_kind_from_string(std::string_view text);

// Half-open range of ticks [begin, end) in which a buffer is live. TVM and the problem JSON
// speak of closed [first, last]; first() and last() give that view.
struct Lifetime {
  int64_t begin = 0;
  int64_t end = 0;

  static Lifetime closed(int64_t first, int64_t last) { return {first, last + 1}; }
  int64_t first() const { return begin; }
  int64_t last() const { return end - 1; }
  bool empty() const { return end <= begin; }
  bool overlaps(const Lifetime& other) const {
    return begin < other.end && other.begin < end && !empty() && !other.empty();
  }
  bool operator==(const Lifetime&) const = default;
};

// A hard placement constraint: the buffer goes into `pool`, at `offset` when given.
struct Pin {
  int pool = -1;
  std::optional<int64_t> offset;
  bool operator==(const Pin&) const = default;
};

// Where a buffer comes from: the function and statement that allocate it.
struct Origin {
  std::string function;
  SourceLocation location;
  bool operator==(const Origin&) const = default;
};

// One buffer to plan (TVM's BufferInfo).
struct Buffer {
  std::string name;
  int64_t size_bytes = 0;
  int64_t alignment = 1;
  BufferKind kind = BufferKind::kIntermediate;
  std::vector<int> pool_candidates;  // indices into Problem::pools, in order of preference
  std::vector<int> conflicts;        // indices into Problem::buffers; read one-directionally
  std::optional<Lifetime> lifetime;
  Origin origin;
  std::string dtype;
  std::vector<int64_t> shape;
  std::optional<Pin> pin;
  std::optional<int64_t> hint;  // MiniMalloc's solver hint column, kept for round trips
  // The analysis could not establish when the buffer is used (code it could not read), so it is
  // assumed live for the whole run: it conflicts with every buffer of its pools.
  bool lifetime_assumed = false;
  // The separate ranges in which the buffer is live, when the analysis saw more than one (an
  // operator called twice: its own buffers live in each call, not between); the conflicts were
  // computed from these, `lifetime` spans them. Empty: `lifetime` is the one range. See live_ranges.h.
  std::vector<Lifetime> live_ranges;

  bool operator==(const Buffer&) const = default;
};

}  // namespace usmpx
