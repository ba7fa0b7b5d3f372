#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace usmpx {

// libclang analyses expressions recursively on a thread with an 8 MB stack: a statement of some
// ten thousand operators (a+a+...+a, - - - x), an else-if chain of some ten thousand links, or
// macros that expand to such things crash the whole process. No TVM output comes near; these
// limits keep hostile input away from clang, well below where it fails.
struct CNestingLimits {
  int64_t max_statement_operators = 4000;  // operator tokens of one statement, macros expanded
  int64_t max_else_if_chain = 4000;        // "else if" links in one function
  int64_t max_macro_expansion = 100000;    // tokens one macro expands to
};

struct CNestingFinding {
  size_t offset = 0;  // where the statement, chain or macro starts
  std::string message;
};

// Scans C text (comments, strings, character literals and preprocessor lines understood) for
// constructs beyond the limits; nullopt when there is none.
std::optional<CNestingFinding> find_excessive_c_nesting(std::string_view text, const CNestingLimits& limits = {});

}  // namespace usmpx
