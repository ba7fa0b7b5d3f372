#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// A Relay tensor type: Tensor[(1, 5), int8].
struct RelayTensorType {
  std::vector<int64_t> shape;
  std::string dtype;

  // USMP's size: bytes per element ((bits + 7) / 8) times the element count; nullopt for an
  // unknown dtype.
  std::optional<int64_t> size_bytes() const;
};

struct RelayParam {
  std::string name;  // without the leading '%', e.g. "serving_default_input_1:0"
  std::optional<RelayTensorType> type;
};

// The signature of `def @main(...)` in a Relay text: parameters with their tensor types and the
// result type when the text states it ("-> Tensor[...]").
struct RelaySignature {
  std::vector<RelayParam> params;
  std::optional<RelayTensorType> result;

  const RelayParam* find(std::string_view name) const;
};

// Reads only the main signature; nullopt when the text has no `def @main(` or it cannot be read.
std::optional<RelaySignature> read_relay_signature(std::string_view text);

// Every tensor type the Relay text states: the annotations `/* ty=Tensor[...] */` of its
// expressions (present when TVM printed the module with types) and the main parameters' types.
std::vector<RelayTensorType> read_relay_tensor_types(std::string_view text);

// Bytes per element of a TVM dtype name ("int8", "float32", "uint1", "bool", "float16x4"):
// (bits + 7) / 8 times lanes; nullopt when the name is not a dtype.
std::optional<int64_t> dtype_bytes(std::string_view dtype);

// TVM's SanitizeName: every character that is not a letter or digit becomes '_'.
std::string sanitize_c_name(std::string_view name);

}  // namespace usmpx
