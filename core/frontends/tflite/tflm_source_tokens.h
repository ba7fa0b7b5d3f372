#pragma once

#include <optional>
#include <string>
#include <vector>

namespace usmpx {

// One token of a C or C++ source file as libclang lexes it.
struct SourceToken {
  enum class Kind { kPunctuation, kKeyword, kIdentifier, kLiteral, kComment };
  Kind kind = Kind::kPunctuation;
  std::string text;
};

// The tokens of a source file, lexed by libclang as C++ without reading its includes: the file is
// read as data, nothing of it is compiled or run. nullopt when the file cannot be read.
std::optional<std::vector<SourceToken>> lex_source_file(const std::string& path);

// The tokens of the braced body that follows token `from` (the first '{' at or after it), without
// the braces; empty when there is none.
std::vector<SourceToken> braced_body(const std::vector<SourceToken>& tokens, size_t from);

}  // namespace usmpx
