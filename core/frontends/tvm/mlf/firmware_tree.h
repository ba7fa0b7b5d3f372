#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// Where one module's generated files sit in a firmware tree: what a firmware project keeps of
// TVM's output (codegen/host/{src,include}, host/..., src + include or inc, one flat folder,
// codegen/<mod>/... beside other modules), found by file name alone.
struct FirmwareModuleFiles {
  std::string name;                  // <mod> of tvmgen_<mod>.h, or of the entry's prefix
  std::string header;                // member path of tvmgen_<mod>.h, "" when the tree has none
  std::vector<std::string> sources;  // member paths of <mod>_lib<N>.c, in library order
  // Set when the module was recognised by what a C file defines rather than by file names: that
  // file and the entry it defines (an operator library kept on its own, a renamed library).
  std::string entry_file;
  std::string entry;
  bool has_lib0 = true;  // a <mod>_lib0.c (TVM's run wrapper, internal pools) is among the sources
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

// An AoT entry a C text defines (with a body, not only declares): `<prefix>__tvm_main__`, or
// `tvmgen_<mod>_run_model` (TVM 0.8). Found by scanning the text; the parse comes later.
struct DefinedEntry {
  std::string name;    // "tvmgen_default___tvm_main__"
  std::string prefix;  // "tvmgen_default_"
  std::string module;  // "default"
};
std::optional<DefinedEntry> defined_entry(std::string_view text);

// Whether the text defines function `name` (a body follows its parameter list).
bool defines_function(std::string_view text, std::string_view name);

// .c and .cc files: what recognition by content reads.
bool is_c_source(std::string_view path);

// The text of a member, or nullptr when it was not read.
using MemberText = std::function<const std::string*(const std::string& member)>;

// find_firmware_modules, then the modules recognised by content: a C file defining an AoT
// entry, whatever it is called (lib1.c as export_library writes it, a library renamed model.c),
// with the C files beside it that use the entry's prefix. A module found by name whose sources
// define no entry takes the file that does.
FirmwareLayout find_firmware_modules(const std::vector<std::string>& members, const MemberText& text);

// "0.10.dev0" from a bundled tvm/runtime/c_runtime_api.h (`#define TVM_VERSION "0.10.dev0"`).
std::optional<std::string> tvm_version_in_runtime_header(std::string_view text);

// The runtime header member the version is read from, among `members`, or "".
std::string bundled_runtime_header(const std::vector<std::string>& members);

// "default_lib12.c" -> 12 for ordering; files without a number go last.
long library_number(std::string_view file);

}  // namespace usmpx
