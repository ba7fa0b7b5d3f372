#include "frontends/tvm/mlf/relay_signature.h"

#include <cctype>
#include <charconv>
#include <cstdint>

namespace usmpx {
namespace {

// A forward-only reader over the Relay text with whitespace and /* */ comments skipped between
// items. Everything beyond the main signature is left unread.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool starts(std::string_view s) const { return pos_ <= text_.size() && text_.substr(pos_, s.size()) == s; }

  void skip_blank() {
    while (!at_end()) {
      if (std::isspace(static_cast<unsigned char>(peek()))) {
        ++pos_;
      } else if (starts("/*")) {
        const size_t end = text_.find("*/", pos_ + 2);
        pos_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else if (starts("//")) {
        const size_t end = text_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
      } else {
        return;
      }
    }
  }

  bool consume(std::string_view s) {
    skip_blank();
    if (!starts(s)) return false;
    pos_ += s.size();
    return true;
  }

  bool find_main() {
    for (;;) {
      const size_t at = text_.find("def @main", pos_);
      if (at == std::string_view::npos) return false;
      pos_ = at + 9;
      if (consume("(")) return true;
    }
  }

  // A parameter name: up to ':' followed by blank (names may hold ':', as in "input_1:0"), ',' or ')'.
  std::string name() {
    const size_t start = pos_;
    while (!at_end()) {
      const char c = peek();
      if (c == ',' || c == ')' || std::isspace(static_cast<unsigned char>(c))) break;
      if (c == ':' && (pos_ + 1 >= text_.size() || std::isspace(static_cast<unsigned char>(text_[pos_ + 1])))) break;
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  std::optional<int64_t> integer() {
    skip_blank();
    int64_t value = 0;
    const char* begin = text_.data() + pos_;
    const auto [end, ec] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (ec != std::errc() || value < 0) return std::nullopt;
    pos_ += static_cast<size_t>(end - begin);
    return value;
  }

  std::string word() {
    skip_blank();
    const size_t start = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_'))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // Skips one item up to a ',' or ')' at bracket depth 0, honouring strings.
  void skip_item() {
    int depth = 0;
    while (!at_end()) {
      skip_blank();
      const char c = peek();
      if (depth == 0 && (c == ',' || c == ')')) return;
      if (c == '"') {
        ++pos_;
        while (!at_end() && peek() != '"')
          pos_ += peek() == '\\' ? 2 : 1;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      }
      ++pos_;
    }
  }

  std::optional<RelayTensorType> tensor_type() {
    skip_blank();
    if (!consume("Tensor[")) return std::nullopt;
    RelayTensorType type;
    if (!consume("(")) return std::nullopt;
    while (!consume(")")) {
      const auto dim = integer();
      if (!dim) return std::nullopt;  // dynamic shapes (?, Any) are not static tensor types
      type.shape.push_back(*dim);
      consume(",");
    }
    if (!consume(",")) return std::nullopt;
    type.dtype = word();
    if (!consume("]")) return std::nullopt;
    return type;
  }

  size_t pos() const { return pos_; }
  void seek(size_t p) { pos_ = p; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<int64_t> RelayTensorType::size_bytes() const {
  const auto bytes = dtype_bytes(dtype);
  if (!bytes) return std::nullopt;
  int64_t n = *bytes;
  for (int64_t d : shape) {
    if (d != 0 && n > INT64_MAX / d) return std::nullopt;
    n *= d;
  }
  return n;
}

const RelayParam* RelaySignature::find(std::string_view name) const {
  for (const RelayParam& p : params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::optional<RelaySignature> read_relay_signature(std::string_view text) {
  Scanner s(text);
  if (!s.find_main()) return std::nullopt;
  RelaySignature sig;
  for (;;) {
    s.skip_blank();
    if (s.at_end()) return std::nullopt;
    if (s.consume(")")) break;
    if (s.consume("%")) {
      RelayParam p;
      p.name = s.name();
      if (s.consume(":")) {
        const size_t before = s.pos();
        p.type = s.tensor_type();
        if (!p.type) s.seek(before);
      }
      s.skip_item();
      sig.params.push_back(std::move(p));
    } else {
      s.skip_item();  // attributes such as output_tensor_names=[...]
    }
    if (!s.consume(",") && s.peek() != ')') {
      s.skip_blank();
      if (s.peek() != ')') return std::nullopt;
    }
  }
  if (s.consume("->")) sig.result = s.tensor_type();
  return sig;
}

std::vector<RelayTensorType> read_relay_tensor_types(std::string_view text) {
  std::vector<RelayTensorType> out;
  if (const auto sig = read_relay_signature(text)) {
    for (const RelayParam& p : sig->params) {
      if (p.type) out.push_back(*p.type);
    }
    if (sig->result) out.push_back(*sig->result);
  }
  constexpr std::string_view kTag = "ty=";
  for (size_t at = text.find(kTag); at != std::string_view::npos; at = text.find(kTag, at + kTag.size())) {
    Scanner s(text.substr(at + kTag.size()));
    if (auto type = s.tensor_type()) out.push_back(std::move(*type));
  }
  return out;
}

std::optional<int64_t> dtype_bytes(std::string_view dtype) {
  if (dtype == "bool") return 1;
  std::string_view base = dtype;
  int64_t lanes = 1;
  if (const size_t x = dtype.find('x'); x != std::string_view::npos) {
    base = dtype.substr(0, x);
    const std::string_view l = dtype.substr(x + 1);
    const auto [p, ec] = std::from_chars(l.data(), l.data() + l.size(), lanes);
    if (ec != std::errc() || p != l.data() + l.size() || lanes <= 0) return std::nullopt;
  }
  size_t digits = base.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(base[digits - 1])))
    --digits;
  const std::string_view kind = base.substr(0, digits);
  if (kind != "int" && kind != "uint" && kind != "float" && kind != "bfloat") return std::nullopt;
  const std::string_view bits_text = base.substr(digits);
  int64_t bits = 0;
  const auto [p, ec] = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
  if (ec != std::errc() || p != bits_text.data() + bits_text.size() || bits <= 0 || bits > 1024) return std::nullopt;
  return (bits + 7) / 8 * lanes;
}

std::string sanitize_c_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

}  // namespace usmpx
