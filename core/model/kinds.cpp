#include <array>
#include <utility>

#include "model/buffer.h"
#include "model/pool.h"

namespace usmpx {
namespace {

constexpr std::array<std::pair<PoolKind, std::string_view>, 2> kPoolKinds{{
    {PoolKind::kWorkspace, "workspace"},
    {PoolKind::kConstant, "constant"},
}};

constexpr std::array<std::pair<BufferKind, std::string_view>, 5> kBufferKinds{{
    {BufferKind::kIntermediate, "intermediate"},
    {BufferKind::kInput, "input"},
    {BufferKind::kOutput, "output"},
    {BufferKind::kConstant, "constant"},
    {BufferKind::kReserved, "reserved"},
}};

template <typename Kind, size_t N>
std::string_view name_of(const std::array<std::pair<Kind, std::string_view>, N>& table, Kind kind) {
  for (const auto& [k, name] : table) {
    if (k == kind) return name;
  }
  return "unknown";
}

template <typename Kind, size_t N>
std::optional<Kind> kind_of(const std::array<std::pair<Kind, std::string_view>, N>& table, std::string_view text) {
  for (const auto& [k, name] : table) {
    if (name == text) return k;
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(PoolKind kind) {
  return name_of(kPoolKinds, kind);
}
std::optional<PoolKind> pool_kind_from_string(std::string_view text) {
  return kind_of(kPoolKinds, text);
}
std::string_view to_string(BufferKind kind) {
  return name_of(kBufferKinds, kind);
}
std::optional<BufferKind> buffer_kind_from_string(std::string_view text) {
  return kind_of(kBufferKinds, text);
}

}  // namespace usmpx
