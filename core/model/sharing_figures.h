#pragma once

// What sharing a pool between the models of one firmware saves, for one plan of the firmware: each
// model's own figure, their sum (one pool or arena per model) against the one shared pool, and the
// number the firmware is given. The explorer (a panel), its reports and the command line read the
// same figures and words.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace usmpx {

struct SharedPoolFigures {
  std::string pool;  // the shared pool's name
  // A runtime's arena (TFLite Micro's): the figures are the arena size the runtime needs
  // (kTensorArenaSize: the plan's head and the runtime's own tail), not only the pool's bytes.
  bool runtime_arena = false;
  std::vector<std::pair<std::string, int64_t>> alone;  // each member model by itself, in order
  int64_t separate = 0;                                // the sum of `alone`: one pool per model
  int64_t shared = 0;                                  // the one pool this plan needs
  bool exact = true;                                   // false: `shared` may be low ("at least")
  // What the firmware is given and where: "USMPX_ARENA_SIZE in usmpx_firmware.h (kTensorArenaSize)".
  std::string paste_as;
};

// "first 45,000 B + second 44,096 B = 89,096 B separately; shared 83,092 B: saves 6,004 B"
// (a shared pool larger than the separate ones says "costs").
std::string sharing_text(const SharedPoolFigures& figures);
// "saves 6,004 B", or "costs 16 B more".
std::string saving_text(const SharedPoolFigures& figures);
// "paste 83,092 as USMPX_ARENA_SIZE in usmpx_firmware.h (kTensorArenaSize)"; "at least" when not exact.
std::string paste_text(const SharedPoolFigures& figures);

}  // namespace usmpx
