#include "frontends/tvm/mlf/mlf_package.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "base/input_error.h"

namespace usmpx {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The members the analysis reads; the runtime sources, parameters and templates are only listed.
bool wanted(std::string_view path) {
  if (path == "metadata.json" || path == "relay.txt") return true;
  if (is_firmware_member(path)) return true;
  if (path.starts_with("codegen/host/src/") || path.starts_with("codegen/host/include/")) return true;
  if (path.starts_with("src/")) return true;
  return path.starts_with("runtime/include/") && path.ends_with(".h");
}

// Reads the input again with another filter (recognition by content needs every C file).
using Reread = std::function<ArchiveContents(const MemberFilter&)>;

FirmwareLayout layout_of(const ArchiveContents& contents) {
  std::map<std::string_view, const std::string*> texts;
  for (const ArchiveFile& f : contents.files)
    texts.emplace(f.path, &f.data);
  return find_firmware_modules(contents.members, [&](const std::string& member) -> const std::string* {
    const auto it = texts.find(member);
    return it == texts.end() ? nullptr : it->second;
  });
}

// Whether some source of every module defines an entry (else the C files named otherwise must be read).
bool entries_found(const FirmwareLayout& layout, const ArchiveContents& contents) {
  if (layout.modules.empty()) return false;
  return std::all_of(layout.modules.begin(), layout.modules.end(), [&](const FirmwareModuleFiles& m) {
    return std::any_of(m.sources.begin(), m.sources.end(), [&](const std::string& s) {
      const ArchiveFile* f = contents.find(s);
      return f && defined_entry(f->data).has_value();
    });
  });
}

// A firmware tree: its modules by file names, else by what its C files define. C files read for
// that and belonging to no module are dropped again.
void find_firmware(MlfPackage& package, const Reread& reread) {
  package.firmware = layout_of(package.contents);
  if (entries_found(package.firmware, package.contents)) return;
  package.contents = reread([](std::string_view path) { return wanted(path) || is_c_source(path); });
  package.firmware = layout_of(package.contents);
  std::erase_if(package.contents.files, [&](const ArchiveFile& f) {
    if (wanted(f.path)) return false;
    return std::none_of(package.firmware.modules.begin(), package.firmware.modules.end(),
                        [&](const FirmwareModuleFiles& m) {
                          return std::find(m.sources.begin(), m.sources.end(), f.path) != m.sources.end();
                        });
  });
}

MlfPackage finish(MlfPackage package, const Reread& reread) {
  const ArchiveFile* meta = package.contents.find("metadata.json");
  package.metadata_path = package.display_path("metadata.json");
  if (const std::string runtime = bundled_runtime_header(package.contents.members); !runtime.empty()) {
    if (const ArchiveFile* f = package.contents.find(runtime)) {
      package.tvm_version = tvm_version_in_runtime_header(f->data).value_or("");
    }
  }
  if (meta) {
    package.metadata = read_mlf_metadata(meta->data, package.metadata_path);
    // A flat MLF folder keeps its sources beside metadata.json rather than under codegen/host.
    const bool codegen = std::any_of(package.contents.members.begin(), package.contents.members.end(),
                                     [](const std::string& m) { return m.starts_with("codegen/host/src/"); });
    if (!codegen) package.firmware = layout_of(package.contents);
    return package;
  }
  package.has_metadata = false;
  package.metadata_path.clear();
  find_firmware(package, reread);
  if (package.firmware.modules.empty()) {
    throw InputError({package.path, 0, 0},
                     "neither a Model Library Format archive (no metadata.json at its root) nor a firmware tree "
                     "(no tvmgen_<mod>.h with <mod>_lib<N>.c files below it, and no C file defining "
                     "tvmgen_<mod>___tvm_main__ or tvmgen_<mod>_run_model)");
  }
  for (const FirmwareModuleFiles& f : package.firmware.modules) {
    MlfModuleMetadata m;
    m.name = f.name;
    package.metadata.modules.push_back(std::move(m));
  }
  return package;
}

std::string parent_folder(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// A module's sources and header where the firmware layout found them.
void take_layout_files(const MlfPackage& package, const FirmwareModuleFiles& f, MlfModule& module) {
  for (const std::string& source : f.sources) {
    if (const ArchiveFile* file = package.contents.find(source)) module.sources.push_back(file);
  }
  module.header = f.header.empty() ? nullptr : package.contents.find(f.header);
  module.include_dir = parent_folder(f.header.empty() ? f.sources.front() : f.header);
}

// The files of a firmware tree's module, where the layout found them.
void select_firmware_files(const MlfPackage& package, MlfModule& module) {
  for (const FirmwareModuleFiles& f : package.firmware.modules) {
    if (f.name == module.name()) take_layout_files(package, f, module);
  }
}

// The Relay text and the runtime's headers an MLF carries beside the module's C.
void select_relay_and_runtime(const MlfPackage& package, MlfModule& module) {
  const std::string& mod = module.name();
  for (const std::string& candidate :
       {"src/" + mod + ".relay", std::string("src/relay.txt"), std::string("relay.txt")}) {
    if (!module.relay) module.relay = package.contents.find(candidate);
  }
  for (const ArchiveFile& f : package.contents.files) {
    if (f.path.starts_with("runtime/include/")) module.runtime_headers.push_back(&f);
  }
}

// A flat MLF (no codegen/host/src): the sources and header sit where the firmware layout finds
// them. False when the layout found none for this module.
bool select_flat_files(const MlfPackage& package, MlfModule& module) {
  const auto& found = package.firmware.modules;
  const auto same =
      std::find_if(found.begin(), found.end(), [&](const FirmwareModuleFiles& f) { return f.name == module.name(); });
  if (same == found.end() && (found.size() != 1 || package.metadata.modules.size() != 1)) return false;
  take_layout_files(package, same != found.end() ? *same : found.front(), module);
  select_relay_and_runtime(package, module);
  return true;
}

// An MLF's codegen/host: <mod>_libN.c (v3+), else with one module libN.c (v1, v2, operator style)
// or any other C file; the header tvmgen_<mod>.h, else with one module any header.
void select_codegen_files(const MlfPackage& package, MlfModule& module) {
  const std::string& mod = module.name();
  module.include_dir = "codegen/host/include";
  const bool several = package.metadata.modules.size() > 1;
  std::vector<const ArchiveFile*> named;  // <mod>_libN.c (v3+)
  std::vector<const ArchiveFile*> plain;  // libN.c (v1, v2, operator style)
  std::vector<const ArchiveFile*> other;
  for (const ArchiveFile& f : package.contents.files) {
    if (!f.path.starts_with("codegen/host/src/") || !(f.path.ends_with(".c") || f.path.ends_with(".cc"))) continue;
    const std::string_view file = std::string_view(f.path).substr(17);
    if (file.starts_with(mod + "_lib")) {
      named.push_back(&f);
    } else if (file.starts_with("lib")) {
      plain.push_back(&f);
    } else {
      other.push_back(&f);
    }
  }
  module.sources = !named.empty()   ? named
                   : several        ? std::vector<const ArchiveFile*>{}
                   : !plain.empty() ? plain
                                    : other;
  std::stable_sort(module.sources.begin(), module.sources.end(), [](const ArchiveFile* a, const ArchiveFile* b) {
    return library_number(a->path) < library_number(b->path);
  });
  module.header = package.contents.find("codegen/host/include/tvmgen_" + mod + ".h");
  if (!module.header && !several) {
    for (const ArchiveFile& f : package.contents.files) {
      if (f.path.starts_with("codegen/host/include/") && f.path.ends_with(".h") && !module.header) module.header = &f;
    }
  }
  select_relay_and_runtime(package, module);
}

// The module named `name` (the first when empty), or an error listing the package's modules.
const MlfModuleMetadata* module_metadata(const MlfPackage& package, const std::string& name) {
  const auto& modules = package.metadata.modules;
  if (name.empty()) return &modules.front();
  const MlfModuleMetadata* found = nullptr;
  for (const MlfModuleMetadata& m : modules) {
    if (m.name == name) found = &m;
  }
  if (found) return found;
  std::string names;
  for (const MlfModuleMetadata& m : modules)
    names += (names.empty() ? "" : ", ") + m.name;
  throw InputError({package.has_metadata ? package.metadata_path : package.path, 0, 0},
                   "no module '" + name + "' (modules: " + names + ")");
}

}  // namespace

std::string MlfPackage::display_path(const std::string& member) const {
  return path + "/" + member;
}

bool looks_like_mlf(const std::string& path) {
  const std::string l = lower(path);
  if (l.ends_with(".tar") || l.ends_with(".tar.gz") || l.ends_with(".tgz")) return true;
  std::error_code ec;
  return std::filesystem::is_directory(path, ec) &&
         std::filesystem::is_regular_file(std::filesystem::path(path) / "metadata.json", ec);
}

MlfPackage read_mlf(const std::string& path, const ArchiveLimits& limits) {
  MlfPackage package;
  package.path = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    package.contents = read_folder(path, wanted, limits);
    return finish(std::move(package), [&](const MemberFilter& want) { return read_folder(path, want, limits); });
  }
  package.contents = read_archive_file(path, wanted, limits);
  return finish(std::move(package), [&](const MemberFilter& want) { return read_archive_file(path, want, limits); });
}

MlfPackage read_mlf_bytes(std::string_view bytes, const std::string& name, const ArchiveLimits& limits) {
  MlfPackage package;
  package.path = name;
  package.contents = read_archive_bytes(bytes, name, wanted, limits);
  return finish(std::move(package),
                [&](const MemberFilter& want) { return read_archive_bytes(bytes, name, want, limits); });
}

MlfModule select_module(const MlfPackage& package, const std::string& name) {
  MlfModule module;
  module.metadata = module_metadata(package, name);
  if (!package.has_metadata) {
    select_firmware_files(package, module);
    return module;
  }
  const bool codegen = std::any_of(package.contents.files.begin(), package.contents.files.end(),
                                   [](const ArchiveFile& f) { return f.path.starts_with("codegen/host/src/"); });
  if (!codegen && select_flat_files(package, module)) return module;
  select_codegen_files(package, module);
  return module;
}

}  // namespace usmpx
