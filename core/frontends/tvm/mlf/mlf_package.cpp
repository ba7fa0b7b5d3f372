#include "frontends/tvm/mlf/mlf_package.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "base/input_error.h"

namespace usmpx {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

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
  if (starts_with(path, "codegen/host/src/") || starts_with(path, "codegen/host/include/")) return true;
  if (starts_with(path, "src/")) return true;
  return starts_with(path, "runtime/include/") && ends_with(path, ".h");
}

MlfPackage finish(MlfPackage package) {
  const ArchiveFile* meta = package.contents.find("metadata.json");
  package.metadata_path = package.display_path("metadata.json");
  if (const std::string runtime = bundled_runtime_header(package.contents.members); !runtime.empty()) {
    if (const ArchiveFile* f = package.contents.find(runtime)) {
      package.tvm_version = tvm_version_in_runtime_header(f->data).value_or("");
    }
  }
  if (meta) {
    package.metadata = read_mlf_metadata(meta->data, package.metadata_path);
    return package;
  }
  package.has_metadata = false;
  package.metadata_path.clear();
  package.firmware = find_firmware_modules(package.contents.members);
  if (package.firmware.modules.empty()) {
    throw InputError({package.path, 0, 0},
                     "neither a Model Library Format archive (no metadata.json at its root) nor a firmware tree "
                     "(no tvmgen_<mod>.h with <mod>_lib<N>.c files below it)");
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

// The files of a firmware tree's module, where the layout found them.
void select_firmware_files(const MlfPackage& package, MlfModule& module) {
  for (const FirmwareModuleFiles& f : package.firmware.modules) {
    if (f.name != module.name()) continue;
    for (const std::string& source : f.sources) {
      if (const ArchiveFile* file = package.contents.find(source)) module.sources.push_back(file);
    }
    module.header = package.contents.find(f.header);
    module.include_dir = parent_folder(f.header);
  }
}

}  // namespace

std::string MlfPackage::display_path(const std::string& member) const {
  return path + "/" + member;
}

bool looks_like_mlf(const std::string& path) {
  const std::string l = lower(path);
  if (ends_with(l, ".tar") || ends_with(l, ".tar.gz") || ends_with(l, ".tgz")) return true;
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
  } else {
    package.contents = read_archive_file(path, wanted, limits);
  }
  return finish(std::move(package));
}

MlfPackage read_mlf_bytes(std::string_view bytes, const std::string& name, const ArchiveLimits& limits) {
  MlfPackage package;
  package.path = name;
  package.contents = read_archive_bytes(bytes, name, wanted, limits);
  return finish(std::move(package));
}

MlfModule select_module(const MlfPackage& package, const std::string& name) {
  const auto& modules = package.metadata.modules;
  MlfModule module;
  if (name.empty()) {
    module.metadata = &modules.front();
  } else {
    for (const MlfModuleMetadata& m : modules) {
      if (m.name == name) module.metadata = &m;
    }
    if (!module.metadata) {
      std::string names;
      for (const MlfModuleMetadata& m : modules)
        names += (names.empty() ? "" : ", ") + m.name;
      throw InputError({package.has_metadata ? package.metadata_path : package.path, 0, 0},
                       "no module '" + name + "' (modules: " + names + ")");
    }
  }
  const std::string& mod = module.name();
  if (!package.has_metadata) {
    select_firmware_files(package, module);
    return module;
  }
  module.include_dir = "codegen/host/include";
  const bool several = modules.size() > 1;
  std::vector<const ArchiveFile*> named;  // <mod>_libN.c (v3+)
  std::vector<const ArchiveFile*> plain;  // libN.c (v1, v2, operator style)
  std::vector<const ArchiveFile*> other;
  for (const ArchiveFile& f : package.contents.files) {
    if (!starts_with(f.path, "codegen/host/src/") || !(ends_with(f.path, ".c") || ends_with(f.path, ".cc"))) continue;
    const std::string_view file = std::string_view(f.path).substr(17);
    if (starts_with(file, mod + "_lib")) {
      named.push_back(&f);
    } else if (starts_with(file, "lib")) {
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
      if (starts_with(f.path, "codegen/host/include/") && ends_with(f.path, ".h") && !module.header) module.header = &f;
    }
  }
  for (const std::string& candidate :
       {"src/" + mod + ".relay", std::string("src/relay.txt"), std::string("relay.txt")}) {
    if (!module.relay) module.relay = package.contents.find(candidate);
  }
  for (const ArchiveFile& f : package.contents.files) {
    if (starts_with(f.path, "runtime/include/")) module.runtime_headers.push_back(&f);
  }
  return module;
}

}  // namespace usmpx
