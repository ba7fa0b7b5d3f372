#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace usmpx {

// Generated operators carry their weights as file-scope arrays with megabytes of literal data
// (`static const int8_t x[262144] = { +0x01, -0x7f, ... };`), and libclang spends almost all of
// its time on them although the analysis never looks inside. This returns a copy of `source` in
// which every brace group of such an initializer whose contents are only numbers, signs, commas
// and blanks, and at least `min_bytes` long, is overwritten with spaces (newlines kept): byte
// offsets, lines and columns stay those of the original, the braces stay, and array sizes are
// unchanged because a group is only cleared when the array's extent is written out (`[N]`) or
// the group is nested inside another initializer. A small C lexer (comments, strings, character
// literals, preprocessor lines) finds the groups; anything it does not recognise is left alone.
std::string blank_constant_data(std::string_view source, size_t min_bytes = 1024);

}  // namespace usmpx
