#include "export/bundle_writer.h"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <memory>
#include <random>
#include <set>

#include "base/text_file.h"
#include "export/export_error.h"

namespace usmpx {
namespace fs = std::filesystem;
namespace {

constexpr time_t kArchiveTime = 1577836800;  // 2020-01-01 00:00:00 UTC: fixed, so archives are reproducible

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_archive_target(const std::string& target) {
  return ends_with(target, ".tar") || ends_with(target, ".tar.gz") || ends_with(target, ".tgz");
}

// The folders an archive lists before the files, as tar does.
std::set<std::string> folders_of(const ExportBundle& bundle) {
  std::set<std::string> folders;
  for (const ExportFile& f : bundle.files) {
    for (size_t slash = f.path.find('/'); slash != std::string::npos; slash = f.path.find('/', slash + 1))
      folders.insert(f.path.substr(0, slash));
  }
  return folders;
}

struct ArchiveWriteDeleter {
  void operator()(struct archive* a) const { archive_write_free(a); }
};
struct EntryDeleter {
  void operator()(struct archive_entry* e) const { archive_entry_free(e); }
};

void write_entry(struct archive* a, const std::string& path, const std::string* data) {
  std::unique_ptr<struct archive_entry, EntryDeleter> e(archive_entry_new());
  archive_entry_set_pathname(e.get(), ("./" + path + (data ? "" : "/")).c_str());
  archive_entry_set_filetype(e.get(), data ? AE_IFREG : AE_IFDIR);
  archive_entry_set_perm(e.get(), data ? 0644 : 0755);
  archive_entry_set_size(e.get(), data ? static_cast<la_int64_t>(data->size()) : 0);
  archive_entry_set_uid(e.get(), 0);
  archive_entry_set_gid(e.get(), 0);
  archive_entry_set_uname(e.get(), "root");
  archive_entry_set_gname(e.get(), "root");
  archive_entry_set_mtime(e.get(), kArchiveTime, 0);
  if (archive_write_header(a, e.get()) != ARCHIVE_OK)
    throw ExportError("cannot write archive entry " + path + ": " + archive_error_string(a));
  if (data && !data->empty() &&
      archive_write_data(a, data->data(), data->size()) != static_cast<la_ssize_t>(data->size()))
    throw ExportError("cannot write archive entry " + path + ": " + archive_error_string(a));
}

std::string unique_temp_name(const fs::path& target) {
  std::random_device rd;
  return (target.parent_path() / ("." + target.filename().string() + ".tmp" + std::to_string(rd()))).string();
}

// "gen/" and "gen" name the same folder; the trailing separator would make "gen" its own parent.
std::string without_trailing_separators(std::string target) {
  while (target.size() > 1 && target.back() == '/')
    target.pop_back();
  return target;
}

// The folder the target goes into, made when missing (as mkdir -p does).
void make_parent_folder(const std::string& target) {
  const fs::path parent = fs::absolute(target).parent_path();
  std::error_code ec;
  if (fs::is_directory(parent, ec)) return;
  fs::create_directories(parent, ec);
  if (ec) throw ExportError("cannot create the folder " + parent.string() + " for " + target + ": " + ec.message());
}

// Renames the written folder `temp` to `target`, replacing what is there (already allowed by
// check_target); on failure puts the old target back and says why.
void move_into_place(const fs::path& temp, const std::string& target) {
  std::error_code ec;
  std::error_code ignored;
  if (!fs::exists(target, ignored)) {
    fs::rename(temp, target, ec);
    if (ec) {
      const std::string cause = ec.message();
      fs::remove_all(temp, ignored);
      throw ExportError("cannot create " + target + ": " + cause);
    }
    return;
  }
  const fs::path old = unique_temp_name(fs::absolute(target));
  fs::rename(target, old, ec);
  if (ec) {
    const std::string cause = ec.message();  // before the clean-up resets ec
    fs::remove_all(temp, ignored);
    throw ExportError("cannot replace " + target + ": cannot move it aside to " + old.string() + ": " + cause);
  }
  fs::rename(temp, target, ec);
  if (ec) {
    const std::string cause = ec.message();
    fs::rename(old, target, ignored);
    fs::remove_all(temp, ignored);
    throw ExportError("cannot replace " + target + ": " + cause);
  }
  fs::remove_all(old, ignored);
}

void check_target(const std::string& target, const WriteOptions& options, const std::string& input_path) {
  std::error_code ec;
  if (!input_path.empty() && fs::exists(input_path, ec) && fs::exists(target, ec) &&
      fs::equivalent(input_path, target, ec))
    throw ExportError("refusing to overwrite the input " + input_path + " with the export");
  if (!fs::exists(target, ec)) return;
  const bool empty_folder = fs::is_directory(target, ec) && fs::is_empty(target, ec);
  if (!empty_folder && !options.force)
    throw ExportError(target + " exists and is not empty; use --force to replace it");
}

}  // namespace

std::string bundle_archive_bytes(const ExportBundle& bundle, bool gzip) {
  // libarchive writes into a fixed buffer: start with room for the files and double until it fits.
  size_t capacity = 1 << 16;
  for (const ExportFile& f : bundle.files)
    capacity += f.data.size() + 1024;
  for (;; capacity *= 2) {
    std::string out(capacity, '\0');
    size_t used = 0;
    std::unique_ptr<struct archive, ArchiveWriteDeleter> a(archive_write_new());
    archive_write_set_format_pax_restricted(a.get());
    if (gzip) {
      archive_write_add_filter_gzip(a.get());
      archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);  // no time in the gzip header
    }
    archive_write_set_bytes_in_last_block(a.get(), 1);
    if (archive_write_open_memory(a.get(), out.data(), out.size(), &used) != ARCHIVE_OK)
      throw ExportError(std::string("cannot create archive: ") + archive_error_string(a.get()));
    try {
      write_entry(a.get(), "", nullptr);
      for (const std::string& folder : folders_of(bundle))
        write_entry(a.get(), folder, nullptr);
      for (const ExportFile& f : bundle.files)
        write_entry(a.get(), f.path, &f.data);
      if (archive_write_close(a.get()) == ARCHIVE_OK) {
        out.resize(used);
        return out;
      }
    } catch (const ExportError&) {
      // the buffer was too small; retry with a larger one
    }
    if (capacity > (size_t{1} << 34)) throw ExportError("the export is too large for an archive");
  }
}

void write_bundle(const ExportBundle& bundle, const std::string& target_text, const WriteOptions& options,
                  const std::string& input_path) {
  const std::string target = without_trailing_separators(target_text);
  check_target(target, options, input_path);
  make_parent_folder(target);
  if (bundle.single_file) {
    if (bundle.files.size() != 1)
      throw ExportError("a single-file export holds " + std::to_string(bundle.files.size()) + " files");
    try {
      write_file_atomically(target, bundle.files.front().data);
    } catch (const std::runtime_error& e) {
      throw ExportError(e.what());
    }
    return;
  }
  if (is_archive_target(target)) {
    const bool gzip = !ends_with(target, ".tar");
    try {
      write_file_atomically(target, bundle_archive_bytes(bundle, gzip));
    } catch (const std::runtime_error& e) {
      throw ExportError(e.what());
    }
    return;
  }
  const fs::path temp = unique_temp_name(fs::absolute(target));
  std::error_code ec;
  if (fs::create_directory(temp, ec); ec)
    throw ExportError("cannot write " + target + ": cannot create the folder " + temp.string() +
                      " beside it: " + ec.message());
  try {
    for (const ExportFile& f : bundle.files) {
      const fs::path file = temp / f.path;
      fs::create_directories(file.parent_path());
      write_file_atomically(file.string(), f.data);
    }
  } catch (const std::exception& e) {
    fs::remove_all(temp, ec);
    throw ExportError("cannot write " + target + ": " + e.what());
  }
  move_into_place(temp, target);
}

}  // namespace usmpx
