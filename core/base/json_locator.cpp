#include "base/json_locator.h"

#include <cctype>
#include <iterator>
#include <vector>

#include "base/input_error.h"

namespace usmpx {
namespace {

// A character iterator that tells how far the parser has read.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* at, const char* base, size_t* consumed) : at_(at), base_(base), consumed_(consumed) {}
  reference operator*() const { return *at_; }
  TrackingIterator& operator++() {
    ++at_;
    if (consumed_) *consumed_ = static_cast<size_t>(at_ - base_);
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const TrackingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  const char* base_;
  size_t* consumed_;
};

enum class ValueShape { kContainer, kString, kNumber, kLiteral };

// SAX handler that follows the path of every value and stops at the wanted one.
class Locator : public nlohmann::json_sax<nlohmann::json> {
 public:
  Locator(std::vector<std::string> target, std::string_view text, const size_t* consumed)
      : target_(std::move(target)), text_(text), consumed_(consumed) {}

  bool null() override { return scalar(ValueShape::kLiteral); }
  bool boolean(bool) override { return scalar(ValueShape::kLiteral); }
  bool number_integer(number_integer_t) override { return scalar(ValueShape::kNumber); }
  bool number_unsigned(number_unsigned_t) override { return scalar(ValueShape::kNumber); }
  bool number_float(number_float_t, const string_t&) override { return scalar(ValueShape::kNumber); }
  bool string(string_t&) override { return scalar(ValueShape::kString); }
  bool binary(binary_t&) override { return scalar(ValueShape::kLiteral); }
  bool start_object(std::size_t) override { return open(false); }
  bool key(string_t& key) override {
    frames_.back().key = key;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

  // Offset of the deepest value on the target path that was seen.
  size_t found_offset() const { return best_offset_; }

 private:
  struct Frame {
    bool array = false;
    size_t index = 0;
    std::string key;
  };

  // How many leading target tokens the current path matches, or -1 if it leaves the path.
  int matched_depth() const {
    if (frames_.size() > target_.size()) return -1;
    for (size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      const std::string token = f.array ? std::to_string(f.index) : f.key;
      if (token != target_[i]) return -1;
    }
    return static_cast<int>(frames_.size());
  }

  bool record(ValueShape shape) {
    const int depth = matched_depth();
    if (depth >= 0 && depth >= best_depth_) {
      best_depth_ = depth;
      best_offset_ = start_of_value(shape);
    }
    return depth != static_cast<int>(target_.size());  // stop once the target itself is found
  }

  bool scalar(ValueShape shape) {
    const bool go_on = record(shape);
    advance();
    return go_on;
  }
  bool open(bool array) {
    const bool go_on = record(ValueShape::kContainer);
    frames_.push_back({array, 0, {}});
    return go_on;
  }
  bool close() {
    frames_.pop_back();
    advance();
    return true;
  }
  void advance() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }

  // The parser reports a value right after reading it (numbers: one character further).
  size_t start_of_value(ValueShape shape) const {
    size_t end = std::min(*consumed_, text_.size());
    auto number_char = [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    };
    switch (shape) {
      case ValueShape::kContainer: return end > 0 ? end - 1 : 0;
      case ValueShape::kNumber: {
        if (end > 0 && !number_char(text_[end - 1])) --end;
        while (end > 0 && number_char(text_[end - 1]))
          --end;
        return end;
      }
      case ValueShape::kLiteral:
        while (end > 0 && std::isalpha(static_cast<unsigned char>(text_[end - 1])))
          --end;
        return end;
      case ValueShape::kString: {
        if (end == 0) return 0;
        size_t i = end - 1;  // closing quote
        while (i > 0) {
          --i;
          if (text_[i] != '"') continue;
          size_t backslashes = 0;
          for (size_t j = i; j > 0 && text_[j - 1] == '\\'; --j)
            ++backslashes;
          if (backslashes % 2 == 0) return i;
        }
        return 0;
      }
    }
    return end;
  }

  std::vector<std::string> target_;
  std::string_view text_;
  const size_t* consumed_;
  std::vector<Frame> frames_;
  int best_depth_ = -1;
  size_t best_offset_ = 0;
};

}  // namespace

SourceLocation locate_json_value(std::string_view text, const nlohmann::json::json_pointer& pointer,
                                 const std::string& file) {
  std::vector<std::string> tokens;
  for (nlohmann::json::json_pointer p = pointer; !p.empty(); p = p.parent_pointer()) {
    tokens.insert(tokens.begin(), p.back());
  }
  size_t consumed = 0;
  Locator locator(std::move(tokens), text, &consumed);
  TrackingIterator first(text.data(), text.data(), &consumed);
  TrackingIterator last(text.data() + text.size(), text.data(), nullptr);
  nlohmann::json::sax_parse(first, last, &locator);
  return location_in_text(text, locator.found_offset(), file);
}

}  // namespace usmpx
