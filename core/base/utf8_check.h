#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace usmpx {

// Byte offset of the first byte that does not start a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included), or nullopt for valid text.
std::optional<size_t> first_invalid_utf8(std::string_view text);

// Text inputs must be UTF-8: names read from them end up in JSON, which cannot carry other
// bytes. Throws InputError at the first invalid byte.
void require_utf8(std::string_view text, const std::string& file);

}  // namespace usmpx
