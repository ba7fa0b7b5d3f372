#pragma once

#include <cstdint>

namespace usmpx {

// glibc's rand_r, reproduced so that TVM's hill_climb draws the same numbers on every platform:
// three steps of the linear congruential generator next = next * 1103515245 + 12345 (mod 2^32)
// contribute 11, 10 and 10 bits of (next / 65536).
inline int glibc_rand_r(uint32_t* seed) {
  uint32_t next = *seed;
  next = next * 1103515245u + 12345u;
  uint32_t result = (next / 65536u) % 2048u;
  next = next * 1103515245u + 12345u;
  result = (result << 10) ^ ((next / 65536u) % 1024u);
  next = next * 1103515245u + 12345u;
  result = (result << 10) ^ ((next / 65536u) % 1024u);
  *seed = next;
  return static_cast<int>(result);
}

}  // namespace usmpx
