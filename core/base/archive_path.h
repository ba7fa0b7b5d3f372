#pragma once

#include <string>

namespace usmpx {

// Paths inside an archive or an export bundle, always '/'-separated.

// The folder part: "codegen/host/src/default_lib1.c" -> "codegen/host/src"; "" for a bare name.
std::string folder_of(const std::string& path);

// The file name: "codegen/host/src/default_lib1.c" -> "default_lib1.c".
std::string base_name(const std::string& path);

}  // namespace usmpx
