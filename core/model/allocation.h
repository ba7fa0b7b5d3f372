#pragma once

#include <cstdint>

namespace usmpx {

// Where one buffer was placed. pool == -1 means it was not placed.
struct Allocation {
  int pool = -1;
  int64_t offset = 0;
  bool placed() const { return pool >= 0; }
  bool operator==(const Allocation&) const = default;
};

}  // namespace usmpx
