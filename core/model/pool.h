#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// TVM's kUnrestrictedPoolSizeHint: a pool without a capacity.
inline constexpr int64_t kUnrestrictedPoolSize = -1;

enum class PoolKind { kWorkspace, kConstant };

std::string_view to_string(PoolKind kind);
std::optional<PoolKind> pool_kind_from_string(std::string_view text);

// A target that may use the pool, with its access ("rw" for workspace, "ro" for constants).
struct PoolTarget {
  std::string target;
  std::string access;
  bool operator==(const PoolTarget&) const = default;
};

// A memory region buffers are planned into (TVM's WorkspacePoolInfo / ConstantPoolInfo).
struct Pool {
  std::string name;
  PoolKind kind = PoolKind::kWorkspace;
  int64_t size_hint_bytes = kUnrestrictedPoolSize;
  int64_t alignment = 16;  // of the pool's base address in generated code
  std::vector<PoolTarget> targets;
  bool internal = false;  // defined by the generated code rather than passed in by the application
  std::string section;    // linker section chosen by the user; empty means TVM's default

  bool restricted() const { return size_hint_bytes != kUnrestrictedPoolSize; }
  // TVM's IsValidPlacement: does [offset, offset + size) stay within the size hint?
  bool fits(int64_t offset, int64_t size) const { return !restricted() || offset + size <= size_hint_bytes; }
  bool operator==(const Pool&) const = default;
};

}  // namespace usmpx
