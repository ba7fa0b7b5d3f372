#include "frontends/tvm/c_analysis/nesting_guard.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

namespace usmpx {
namespace {

struct Token {
  size_t offset;
  std::string_view text;
  bool identifier;
};

struct Macro {
  std::vector<std::string_view> body;  // identifiers of the body; other tokens only counted
  int64_t other_tokens = 0;
  std::set<std::string_view> params;
  size_t offset = 0;
};

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Tokens of the text outside preprocessor lines; #define lines become macros.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : t_(text) {}

  void run(std::vector<Token>& tokens, std::map<std::string_view, Macro>& macros) {
    bool line_start = true;
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '\n') {
        line_start = true;
        ++i_;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
        continue;
      }
      if (skip_comment()) continue;
      if (line_start && c == '#') {
        directive(macros);
        continue;
      }
      line_start = false;
      const std::optional<Token> tok = next();
      if (tok) tokens.push_back(*tok);
    }
  }

 private:
  bool skip_comment() {
    if (t_.compare(i_, 2, "//") == 0) {
      while (i_ < t_.size() && t_[i_] != '\n')
        ++i_;
      return true;
    }
    if (t_.compare(i_, 2, "/*") == 0) {
      const size_t end = t_.find("*/", i_ + 2);
      i_ = end == std::string_view::npos ? t_.size() : end + 2;
      return true;
    }
    return false;
  }

  std::optional<Token> next() {
    const size_t start = i_;
    const char c = t_[i_];
    if (c == '"' || c == '\'') {
      ++i_;
      while (i_ < t_.size() && t_[i_] != c && t_[i_] != '\n') {
        i_ += t_[i_] == '\\' ? 2 : 1;
      }
      if (i_ < t_.size()) ++i_;
      return Token{start, t_.substr(start, i_ - start), false};
    }
    if (ident_start(c) || std::isdigit(static_cast<unsigned char>(c))) {
      while (i_ < t_.size() && (ident_char(t_[i_]) || t_[i_] == '.')) {
        // exponents of numbers: 1e+5, 0x1p-3
        if ((t_[i_] == 'e' || t_[i_] == 'E' || t_[i_] == 'p' || t_[i_] == 'P') && i_ + 1 < t_.size() &&
            (t_[i_ + 1] == '+' || t_[i_ + 1] == '-') && std::isdigit(static_cast<unsigned char>(t_[start])))
          ++i_;
        ++i_;
      }
      return Token{start, t_.substr(start, i_ - start), ident_start(c)};
    }
    // Punctuators: two-character operators count once.
    static const char* const kTwo[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                                       "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
    for (const char* two : kTwo) {
      if (t_.compare(i_, 2, two) == 0) {
        i_ += 2;
        return Token{start, t_.substr(start, 2), false};
      }
    }
    ++i_;
    return Token{start, t_.substr(start, 1), false};
  }

  // A preprocessor line (with continuations); #define NAME[(params)] body is recorded.
  void directive(std::map<std::string_view, Macro>& macros) {
    size_t end = i_;
    while (end < t_.size() && t_[end] != '\n') {
      if (t_[end] == '\\' && end + 1 < t_.size() && t_[end + 1] == '\n') ++end;
      ++end;
    }
    const size_t line_start = i_;
    std::string_view line = t_.substr(i_, end - i_);
    i_ = end;
    size_t p = 1;
    auto skip_blank = [&] {
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '\\' || line[p] == '\n'))
        ++p;
    };
    skip_blank();
    if (line.compare(p, 6, "define") != 0) return;
    p += 6;
    skip_blank();
    const size_t name_start = p;
    while (p < line.size() && ident_char(line[p]))
      ++p;
    const std::string_view name = line.substr(name_start, p - name_start);
    if (name.empty()) return;
    Macro m;
    m.offset = line_start;
    if (p < line.size() && line[p] == '(') {
      const size_t close = line.find(')', p);
      if (close == std::string_view::npos) return;
      std::string_view params = line.substr(p + 1, close - p - 1);
      size_t q = 0;
      while (q < params.size()) {
        while (q < params.size() && !ident_start(params[q]))
          ++q;
        const size_t s = q;
        while (q < params.size() && ident_char(params[q]))
          ++q;
        if (q > s) m.params.insert(params.substr(s, q - s));
      }
      p = close + 1;
    }
    Scanner body(line.substr(p));
    std::vector<Token> tokens;
    std::map<std::string_view, Macro> ignored;
    body.run(tokens, ignored);
    for (const Token& t : tokens) {
      if (t.identifier && !m.params.count(t.text)) {
        m.body.push_back(t.text);
      } else {
        ++m.other_tokens;
      }
    }
    macros[name] = std::move(m);
  }

  std::string_view t_;
  size_t i_ = 0;
};

// Tokens a macro expands to, following the macros it names (each once per path: macros do not
// expand themselves). Saturates at `cap`.
int64_t expansion(std::string_view name, const std::map<std::string_view, Macro>& macros,
                  std::map<std::string_view, int64_t>& memo, std::set<std::string_view>& active, int64_t cap) {
  const auto it = macros.find(name);
  if (it == macros.end() || active.count(name)) return 1;
  if (const auto m = memo.find(name); m != memo.end()) return m->second;
  active.insert(name);
  int64_t total = it->second.other_tokens;
  for (std::string_view id : it->second.body) {
    total += expansion(id, macros, memo, active, cap);
    if (total > cap) break;
  }
  active.erase(name);
  total = std::min(total, cap + 1);
  memo[name] = total;
  return total;
}

bool is_operator(const Token& t) {
  if (t.identifier || t.text.empty()) return false;
  const char c = t.text[0];
  if (std::isdigit(static_cast<unsigned char>(c)) || c == '"' || c == '\'') return false;
  return t.text != "(" && t.text != ")" && t.text != "[" && t.text != "]" && t.text != "{" && t.text != "}" &&
         t.text != ";" && t.text != "," && t.text != "." && t.text != "->";
}

}  // namespace

std::optional<CNestingFinding> find_excessive_c_nesting(std::string_view text, const CNestingLimits& limits) {
  std::vector<Token> tokens;
  std::map<std::string_view, Macro> macros;
  Scanner(text).run(tokens, macros);
  std::map<std::string_view, int64_t> memo;
  for (const auto& [name, macro] : macros) {
    std::set<std::string_view> active;
    if (expansion(name, macros, memo, active, limits.max_macro_expansion) > limits.max_macro_expansion)
      return CNestingFinding{macro.offset, "macro '" + std::string(name) + "' expands to more than " +
                                               std::to_string(limits.max_macro_expansion) + " tokens"};
  }
  int64_t operators = 0;
  size_t statement = 0;
  int64_t else_ifs = 0;
  size_t chain = 0;
  std::vector<char> open;  // brackets not yet closed
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    // Statements end at ; { }, and the items of an initializer list ({+0x01, -0x7f, ...}) are
    // separate expressions too.
    const bool item_end = t.text == "," && !open.empty() && open.back() == '{';
    if (t.text == "(" || t.text == "[" || t.text == "{") open.push_back(t.text[0]);
    if ((t.text == ")" || t.text == "]" || t.text == "}") && !open.empty()) open.pop_back();
    if (t.text == ";" || t.text == "{" || t.text == "}" || item_end) {
      operators = 0;
      statement = i + 1 < tokens.size() ? tokens[i + 1].offset : t.offset;
      if (t.text == "}" && std::count(open.begin(), open.end(), '{') == 0) else_ifs = 0;  // a function ends
      continue;
    }
    if (is_operator(t)) ++operators;
    if (t.identifier && macros.count(t.text)) {
      std::set<std::string_view> active;
      operators += expansion(t.text, macros, memo, active, limits.max_macro_expansion);
    }
    if (operators > limits.max_statement_operators)
      return CNestingFinding{
          statement, "a statement with more than " + std::to_string(limits.max_statement_operators) + " operators"};
    if (t.text == "else" && i + 1 < tokens.size() && tokens[i + 1].text == "if") {
      if (else_ifs++ == 0) chain = t.offset;
      if (else_ifs > limits.max_else_if_chain)
        return CNestingFinding{chain,
                               "an else-if chain of more than " + std::to_string(limits.max_else_if_chain) + " links"};
    }
  }
  return std::nullopt;
}

}  // namespace usmpx
