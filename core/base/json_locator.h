#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/source_location.h"

namespace usmpx {

// Where the value at `pointer` starts in the JSON `text` (or, when it does not exist, the closest
// enclosing value that does). nlohmann::json keeps no positions, so this runs its SAX parser over
// the text once more, watching how far it has read when the value is reported.
SourceLocation locate_json_value(std::string_view text, const nlohmann::json::json_pointer& pointer,
                                 const std::string& file);

}  // namespace usmpx
