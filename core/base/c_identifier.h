#pragma once

// Names turned into C identifiers for generated code.

#include <string>
#include <string_view>

namespace usmpx {

// A macro name part: letters and digits upper-cased, everything else '_' ("my-pool.1" -> "MY_POOL_1").
std::string c_macro_name(std::string_view text);

}  // namespace usmpx
