#include "base/json_reader.h"

#include "base/input_error.h"
#include "base/json_locator.h"

namespace usmpx {
namespace {

std::string syntax_error_text(const nlohmann::json::parse_error& e) {
  std::string what = e.what();
  const size_t pos = what.find("parse error");
  if (pos != std::string::npos) what = what.substr(pos);
  const size_t colon = what.find(": ");
  return colon == std::string::npos ? what : "JSON " + what.substr(colon + 2);
}

}  // namespace

nlohmann::ordered_json parse_json_text(std::string_view text, const std::string& file) {
  try {
    return nlohmann::ordered_json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(location_in_text(text, e.byte > 0 ? e.byte - 1 : 0, file), syntax_error_text(e));
  } catch (const nlohmann::json::out_of_range& e) {
    // nlohmann reports a number too large for a double without a position; it quotes the number,
    // so look it up in the text.
    const std::string what = e.what();
    const size_t open = what.find('\'');
    const size_t close = what.rfind('\'');
    const std::string number = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const size_t at = number.empty() ? 0 : text.find(number);
    throw InputError(location_in_text(text, at == std::string_view::npos ? 0 : at, file),
                     "number out of range: " + (number.empty() ? what : number));
  }
}

JsonReader::JsonReader(std::string_view text, std::string file)
    : text_(text), file_(std::move(file)), root_(parse_json_text(text, file_)) {}

void JsonReader::fail(const Pointer& where, const std::string& message) const {
  throw InputError(locate_json_value(text_, where, file_), message);
}

void JsonReader::expect_object(const Json& j, const Pointer& where) const {
  if (!j.is_object()) fail(where, "expected an object");
}

void JsonReader::expect_document(const std::string& format, int64_t version) const {
  const Pointer top("");
  expect_object(root_, top);
  if (get_string(root_, top, "format", "") != format) fail(top / "format", "expected \"format\": \"" + format + "\"");
  if (get_int(root_, top, "version", 0) != version)
    fail(top / "version", "unsupported version (expected " + std::to_string(version) + ")");
}

void JsonReader::check_keys(const Json& j, const Pointer& where, std::initializer_list<std::string_view> known) const {
  for (const auto& [key, value] : j.items()) {
    bool ok = false;
    for (std::string_view k : known)
      ok = ok || key == k;
    if (!ok) fail(where / key, "unknown key \"" + key + "\"");
  }
}

const JsonReader::Json* JsonReader::member(const Json& j, const std::string& key) const {
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::string JsonReader::get_string(const Json& j, const Pointer& where, const std::string& key,
                                   std::optional<std::string> fallback) const {
  const Json* v = member(j, key);
  if (!v) {
    if (fallback) return *fallback;
    fail(where, "missing \"" + key + "\"");
  }
  if (!v->is_string()) fail(where / key, "\"" + key + "\" must be a string");
  return v->get<std::string>();
}

int64_t JsonReader::get_int(const Json& j, const Pointer& where, const std::string& key,
                            std::optional<int64_t> fallback) const {
  const Json* v = member(j, key);
  if (!v) {
    if (fallback) return *fallback;
    fail(where, "missing \"" + key + "\"");
  }
  if (!v->is_number_integer()) fail(where / key, "\"" + key + "\" must be an integer");
  return v->get<int64_t>();
}

double JsonReader::get_number(const Json& j, const Pointer& where, const std::string& key, double fallback) const {
  const Json* v = member(j, key);
  if (!v) return fallback;
  if (!v->is_number()) fail(where / key, "\"" + key + "\" must be a number");
  return v->get<double>();
}

bool JsonReader::get_bool(const Json& j, const Pointer& where, const std::string& key, bool fallback) const {
  const Json* v = member(j, key);
  if (!v) return fallback;
  if (!v->is_boolean()) fail(where / key, "\"" + key + "\" must be true or false");
  return v->get<bool>();
}

const JsonReader::Json& JsonReader::get_array(const Json& j, const Pointer& where, const std::string& key) const {
  const Json* v = member(j, key);
  if (!v) fail(where, "missing \"" + key + "\"");
  if (!v->is_array()) fail(where / key, "\"" + key + "\" must be an array");
  return *v;
}

}  // namespace usmpx
