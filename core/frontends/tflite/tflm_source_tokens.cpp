#include "frontends/tflite/tflm_source_tokens.h"

#include <clang-c/Index.h>

#include <filesystem>
#include <memory>

namespace usmpx {
namespace {

struct IndexDeleter {
  void operator()(void* index) const { clang_disposeIndex(index); }
};

struct UnitDeleter {
  void operator()(CXTranslationUnit tu) const { clang_disposeTranslationUnit(tu); }
};

SourceToken::Kind kind_of(CXTokenKind kind) {
  switch (kind) {
    case CXToken_Keyword: return SourceToken::Kind::kKeyword;
    case CXToken_Identifier: return SourceToken::Kind::kIdentifier;
    case CXToken_Literal: return SourceToken::Kind::kLiteral;
    case CXToken_Comment: return SourceToken::Kind::kComment;
    default: return SourceToken::Kind::kPunctuation;
  }
}

}  // namespace

std::optional<std::vector<SourceToken>> lex_source_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || !std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::unique_ptr<void, IndexDeleter> index(clang_createIndex(0, 0));
  // SingleFileParse: the file's own text only, its #includes are not followed.
  const char* args[] = {"-x", "c++", "-std=c++17", "-fsyntax-only"};
  CXTranslationUnit raw = nullptr;
  const unsigned flags = CXTranslationUnit_SingleFileParse | CXTranslationUnit_Incomplete | CXTranslationUnit_KeepGoing;
  if (clang_parseTranslationUnit2(index.get(), path.c_str(), args, 4, nullptr, 0, flags, &raw) != CXError_Success)
    return std::nullopt;
  std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> tu(raw);
  CXFile file = clang_getFile(tu.get(), path.c_str());
  if (!file) return std::nullopt;
  const CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu.get(), file, 0),
                                             clang_getLocationForOffset(tu.get(), file, static_cast<unsigned>(size)));
  CXToken* tokens = nullptr;
  unsigned count = 0;
  clang_tokenize(tu.get(), range, &tokens, &count);
  std::vector<SourceToken> out;
  out.reserve(count);
  for (unsigned k = 0; k < count; ++k) {
    CXString spelling = clang_getTokenSpelling(tu.get(), tokens[k]);
    out.push_back({kind_of(clang_getTokenKind(tokens[k])), clang_getCString(spelling)});
    clang_disposeString(spelling);
  }
  clang_disposeTokens(tu.get(), tokens, count);
  return out;
}

std::vector<SourceToken> braced_body(const std::vector<SourceToken>& tokens, size_t from) {
  size_t open = from;
  while (open < tokens.size() && tokens[open].text != "{")
    ++open;
  int depth = 0;
  for (size_t k = open; k < tokens.size(); ++k) {
    if (tokens[k].text == "{") ++depth;
    if (tokens[k].text == "}" && --depth == 0)
      return {tokens.begin() + static_cast<std::ptrdiff_t>(open) + 1, tokens.begin() + static_cast<std::ptrdiff_t>(k)};
  }
  return {};
}

}  // namespace usmpx
