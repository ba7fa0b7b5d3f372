#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// Where one module's generated files sit in a firmware tree: what a firmware project keeps of
// TVM's output (codegen/host/{src,include}, host/..., src + include or inc, one flat folder,
// codegen/<mod>/... beside other modules), found by file name alone.
struct FirmwareModuleFiles {
  std::string name;                  // <mod> of tvmgen_<mod>.h
  std::string header;                // member path of tvmgen_<mod>.h
  std::vector<std::string> sources;  // member paths of <mod>_lib<N>.c, in library order
};

// What the search found: the modules, and copies of a module left aside (e.g. a second
// tvmgen_default.h with its sources under build/), one line each.
struct FirmwareLayout {
  std::vector<FirmwareModuleFiles> modules;  // sorted by name
  std::vector<std::string> ignored;
};

// Whether a member may belong to a firmware tree's generated code: tvmgen_<mod>.h,
// <mod>_lib<N>.c, or a bundled TVM runtime's c_runtime_api.h (for its TVM_VERSION).
bool is_firmware_member(std::string_view path);

// Groups the members into modules: tvmgen_<mod>.h and the <mod>_lib<N>.c files beside it. When
// the same module appears in several folders, the folder with the most library files wins (the
// first in path order on a tie) and the others are listed as ignored.
FirmwareLayout find_firmware_modules(const std::vector<std::string>& members);

// "0.10.dev0" from a bundled tvm/runtime/c_runtime_api.h (`#define TVM_VERSION "0.10.dev0"`).
std::optional<std::string> tvm_version_in_runtime_header(std::string_view text);

// The runtime header member the version is read from, among `members`, or "".
std::string bundled_runtime_header(const std::vector<std::string>& members);

// "default_lib12.c" -> 12 for ordering; files without a number go last.
long library_number(std::string_view file);

}  // namespace usmpx
