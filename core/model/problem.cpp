#include "model/problem.h"

namespace usmpx {
namespace {

template <typename T>
std::optional<int> find_by_name(const std::vector<T>& items, std::string_view name) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> Problem::find_pool(std::string_view name) const {
  return find_by_name(pools, name);
}

std::optional<int> Problem::find_buffer(std::string_view name) const {
  return find_by_name(buffers, name);
}

const TimelineSpan* Problem::span_at(int64_t tick) const {
  for (const TimelineSpan& span : timeline) {
    if (span.first <= tick && tick <= span.last) return &span;
  }
  return nullptr;
}

std::vector<int> Problem::effective_candidates(int buffer) const {
  const Buffer& b = buffers[static_cast<size_t>(buffer)];
  if (b.pin) return {b.pin->pool};
  return b.pool_candidates;
}

}  // namespace usmpx
