#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace usmpx {

// Parses JSON text; syntax errors and numbers beyond what a double holds throw InputError at
// their position.
nlohmann::ordered_json parse_json_text(std::string_view text, const std::string& file);

// Typed access to a parsed JSON document that reports every problem as an InputError at the
// file:line:column of the offending value.
class JsonReader {
 public:
  using Json = nlohmann::ordered_json;
  using Pointer = nlohmann::json::json_pointer;

  // Parses `text`; syntax errors throw InputError at their position.
  JsonReader(std::string_view text, std::string file);

  const Json& root() const { return root_; }

  [[noreturn]] void fail(const Pointer& where, const std::string& message) const;
  void expect_object(const Json& j, const Pointer& where) const;
  // The root is an object whose "format" is `format` and whose "version" is `version`.
  void expect_document(const std::string& format, int64_t version) const;
  void check_keys(const Json& j, const Pointer& where, std::initializer_list<std::string_view> known) const;
  const Json* member(const Json& j, const std::string& key) const;
  // Missing keys give `fallback`, or an error "missing "key"" when there is none.
  std::string get_string(const Json& j, const Pointer& where, const std::string& key,
                         std::optional<std::string> fallback) const;
  int64_t get_int(const Json& j, const Pointer& where, const std::string& key, std::optional<int64_t> fallback) const;
  double get_number(const Json& j, const Pointer& where, const std::string& key, double fallback) const;
  bool get_bool(const Json& j, const Pointer& where, const std::string& key, bool fallback) const;
  const Json& get_array(const Json& j, const Pointer& where, const std::string& key) const;
  // The array `key` of `j` whose every element is an object with no key beyond `known`:
  // read(element, its pointer) for each, in order.
  template <typename Read>
  void for_each_object(const Json& j, const Pointer& where, const std::string& key,
                       std::initializer_list<std::string_view> known, Read&& read) const {
    const Json& items = get_array(j, where, key);
    for (size_t i = 0; i < items.size(); ++i) {
      const Pointer at = where / key / i;
      expect_object(items[i], at);
      check_keys(items[i], at, known);
      read(items[i], at);
    }
  }

 private:
  std::string_view text_;
  std::string file_;
  Json root_;
};

}  // namespace usmpx
