#pragma once

#include <string>
#include <vector>

#include "frontends/frontend.h"
#include "inputs/input_kinds.h"

namespace usmpx {

// Recognises `path` through the input table and loads it with its frontend (pool options
// applied). Throws InputError when the input cannot be read, is of an unknown kind, or is
// malformed, and ConfigError when the pool options do not fit the input.
LoadedInput load_input(const std::string& path, const LoadOptions& options = {});

// The modules an input offers (MLF archives and firmware trees may hold several), in file order
// (firmware trees: by name); empty for inputs without modules. Throws InputError when an MLF archive cannot be read.
std::vector<std::string> input_modules(const std::string& path);

}  // namespace usmpx
