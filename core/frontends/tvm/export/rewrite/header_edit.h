#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace usmpx {

// The input's interface header with the value of each object-like #define changed to what
// `generated` (the header written for the new plan) defines it as: the workspace size, the pool
// size and constant data macros. Everything else of the input stays byte for byte. nullopt when
// `generated` defines a macro the input does not (a pool the input did not have), unless
// `skip_missing`, which leaves such macros out.
std::optional<std::string> edit_header_macros(std::string_view input, std::string_view generated,
                                              bool skip_missing = false);

}  // namespace usmpx
