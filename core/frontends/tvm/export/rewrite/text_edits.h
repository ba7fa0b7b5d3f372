#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// Replacements of byte ranges of one text, applied together so that every range refers to the
// original text. Ranges must not overlap (insertions at the same point keep their order).
class TextEdits {
 public:
  void replace(uint32_t begin, uint32_t end, std::string text);
  void insert(uint32_t at, std::string text) { replace(at, at, std::move(text)); }
  // Adds another set of edits of the same text (after this one's, for insertions at one point).
  void append(const TextEdits& other);
  // Removes a statement: with its ';' when one follows, and the whole line(s) when nothing but
  // blanks share them.
  void erase_statement(std::string_view text, uint32_t begin, uint32_t end);

  bool empty() const { return edits_.empty(); }
  // Throws std::logic_error when two edits overlap.
  std::string apply(std::string_view text) const;

 private:
  struct Edit {
    uint32_t begin;
    uint32_t end;
    std::string text;
    size_t order;
  };
  std::vector<Edit> edits_;
};

}  // namespace usmpx
