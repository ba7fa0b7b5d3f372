#include "frontends/tvm/export/emit/constant_bytes.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "export/export_error.h"
#include "frontends/tvm/export/constant_text.h"
#include "frontends/tvm/export/emit/lib0_source.h"
#include "frontends/tvm/export/export_pools.h"

namespace usmpx {
namespace {

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return std::string(s);
}

void append_le(std::string& out, uint64_t bits, int64_t bytes) {
  for (int64_t i = 0; i < bytes; ++i)
    out += static_cast<char>((bits >> (8 * i)) & 0xff);
}

}  // namespace

std::string constant_bytes(std::string_view data_text, int64_t element_bytes, bool floating) {
  std::string out;
  size_t at = 0;
  while (at <= data_text.size()) {
    size_t comma = data_text.find(',', at);
    if (comma == std::string_view::npos) comma = data_text.size();
    const std::string token = trimmed(data_text.substr(at, comma - at));
    at = comma + 1;
    if (token.empty()) continue;
    char* end = nullptr;
    errno = 0;
    if (floating) {
      const double v = std::strtod(token.c_str(), &end);
      if (end == token.c_str()) throw ExportError("cannot read constant value '" + token + "'");
      if (element_bytes == 4) {
        const float f = static_cast<float>(v);
        uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        append_le(out, bits, 4);
      } else if (element_bytes == 8) {
        uint64_t bits = 0;
        std::memcpy(&bits, &v, 8);
        append_le(out, bits, 8);
      } else {
        throw ExportError("floating point constants of " + std::to_string(element_bytes) + " bytes are not supported");
      }
    } else {
      const long long v = std::strtoll(token.c_str(), &end, 0);
      const bool negative_hex = token.size() > 1 && token[0] == '-';
      if (end == token.c_str() || (errno == ERANGE && !negative_hex))
        throw ExportError("cannot read constant value '" + token + "'");
      append_le(out, static_cast<uint64_t>(v), element_bytes);
    }
  }
  return out;
}

std::string pool_data_text(const ExportPool& pool, const std::vector<PoolConstant>& constants) {
  std::string blob(static_cast<size_t>(std::max<int64_t>(0, pool.size_bytes)), '\0');
  for (const PoolConstant& c : constants) {
    const bool floating = c.c_type == "float" || c.c_type == "double";
    const std::string bytes = constant_bytes(c.data_text, c.element_bytes, floating);
    if (static_cast<int64_t>(bytes.size()) != c.elements * c.element_bytes ||
        c.offset + static_cast<int64_t>(bytes.size()) > pool.size_bytes)
      throw ExportError("the data of constant '" + c.name + "' does not have " + std::to_string(c.elements) +
                        " values");
    blob.replace(static_cast<size_t>(c.offset), bytes.size(), bytes);
  }
  const std::vector<uint8_t> bytes(blob.begin(), blob.end());
  return format_constant_data(tir::DataType::uint(8), bytes, 4, "\\\n");
}

}  // namespace usmpx
