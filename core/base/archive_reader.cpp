#include "base/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "base/input_error.h"

namespace usmpx {
namespace {

std::string bytes_text(uint64_t n) {
  return std::to_string(n) + " bytes";
}

// Shared bookkeeping of both readers: member count, declared bytes, duplicates.
class Budget {
 public:
  Budget(const std::string& archive, const ArchiveLimits& limits) : archive_(archive), limits_(limits) {}

  void add_member(const std::string& path, uint64_t declared_size, ArchiveContents& contents) {
    if (contents.members.size() >= limits_.max_members) {
      fail(path, "more than " + std::to_string(limits_.max_members) + " members");
    }
    if (!seen_.insert(path).second) fail(path, "appears twice in the archive");
    if (declared_size > limits_.max_member_bytes) {
      fail(path, "declares " + bytes_text(declared_size) + ", more than the limit of " +
                     bytes_text(limits_.max_member_bytes));
    }
    contents.declared_bytes += declared_size;
    if (contents.declared_bytes > limits_.max_total_bytes) {
      fail(path, "members total more than the limit of " + bytes_text(limits_.max_total_bytes));
    }
    contents.members.push_back(path);
  }

  [[noreturn]] void fail(const std::string& member, const std::string& message) const {
    throw InputError({archive_, 0, 0}, member.empty() ? message : "member '" + member + "': " + message);
  }

 private:
  const std::string& archive_;
  const ArchiveLimits& limits_;
  std::set<std::string> seen_;
};

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

ArchivePtr new_reader() {
  ArchivePtr a(archive_read_new());
  if (!a) throw std::bad_alloc();
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  return a;
}

std::string error_text(archive* a) {
  const char* s = archive_error_string(a);
  return s ? s : "truncated or damaged archive";
}

ArchiveContents read_entries(archive* a, const std::string& name, const MemberFilter& want,
                             const ArchiveLimits& limits) {
  ArchiveContents contents;
  Budget budget(name, limits);
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(a, &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      budget.fail("", contents.members.empty()
                          ? "not a readable tar archive: " + error_text(a)
                          : "damaged archive after member '" + contents.members.back() + "': " + error_text(a));
    }
    const char* raw_name = archive_entry_pathname(entry);
    const std::string raw = raw_name ? raw_name : "";
    const std::string path = normalize_member_path(raw, name);
    const auto type = archive_entry_filetype(entry);
    if (archive_entry_hardlink(entry) != nullptr || type == AE_IFLNK) {
      budget.fail(raw, "links are not accepted in a model archive");
    }
    if (type == AE_IFDIR) continue;
    if (type != AE_IFREG) budget.fail(raw, "special files are not accepted in a model archive");
    if (path.empty()) budget.fail(raw, "a file cannot be the archive root");
    const la_int64_t size = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    if (size < 0) budget.fail(raw, "negative size");
    budget.add_member(path, static_cast<uint64_t>(size), contents);
    if (!want || !want(path)) continue;  // the next header call skips the data
    ArchiveFile file{path, {}};
    file.data.reserve(static_cast<size_t>(size));
    char block[65536];
    for (;;) {
      const la_ssize_t n = archive_read_data(a, block, sizeof block);
      if (n < 0) budget.fail(raw, "cannot read: " + error_text(a));
      if (n == 0) break;
      if (file.data.size() + static_cast<size_t>(n) > static_cast<size_t>(size)) {
        budget.fail(raw, "holds more data than the " + bytes_text(static_cast<uint64_t>(size)) + " it declares");
      }
      file.data.append(block, static_cast<size_t>(n));
    }
    contents.files.push_back(std::move(file));
  }
  return contents;
}

}  // namespace

const ArchiveFile* ArchiveContents::find(std::string_view path) const {
  for (const ArchiveFile& f : files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

std::string normalize_member_path(std::string_view raw, const std::string& archive) {
  if (!raw.empty() && (raw.front() == '/' || raw.front() == '\\')) {
    throw InputError({archive, 0, 0}, "member '" + std::string(raw) + "': absolute paths are not accepted");
  }
  std::string out;
  size_t pos = 0;
  while (pos <= raw.size()) {
    size_t next = raw.find('/', pos);
    if (next == std::string_view::npos) next = raw.size();
    const std::string_view part = raw.substr(pos, next - pos);
    pos = next + 1;
    if (part.empty() || part == ".") continue;
    if (part == ".." || part.find('\\') != std::string_view::npos) {
      throw InputError({archive, 0, 0}, "member '" + std::string(raw) + "': path leaves the archive root");
    }
    if (out.empty() && part.size() == 2 && std::isalpha(static_cast<unsigned char>(part[0])) && part[1] == ':') {
      throw InputError({archive, 0, 0}, "member '" + std::string(raw) + "': absolute paths are not accepted");
    }
    if (!out.empty()) out += '/';
    out += part;
  }
  return out;
}

ArchiveContents read_archive_file(const std::string& path, const MemberFilter& want, const ArchiveLimits& limits) {
  ArchivePtr a = new_reader();
  if (archive_read_open_filename(a.get(), path.c_str(), 65536) != ARCHIVE_OK) {
    throw InputError({path, 0, 0}, "not a readable tar archive: " + error_text(a.get()));
  }
  return read_entries(a.get(), path, want, limits);
}

ArchiveContents read_archive_bytes(std::string_view bytes, const std::string& name, const MemberFilter& want,
                                   const ArchiveLimits& limits) {
  ArchivePtr a = new_reader();
  if (archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    throw InputError({name, 0, 0}, "not a readable tar archive: " + error_text(a.get()));
  }
  return read_entries(a.get(), name, want, limits);
}

ArchiveContents read_folder(const std::string& path, const MemberFilter& want, const ArchiveLimits& limits) {
  namespace fs = std::filesystem;
  ArchiveContents contents;
  Budget budget(path, limits);
  std::error_code ec;
  const fs::path root(path);
  std::vector<std::pair<std::string, fs::path>> entries;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  if (ec) throw InputError({path, 0, 0}, "cannot read folder: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw InputError({path, 0, 0}, "cannot read folder: " + ec.message());
    const fs::path& p = it->path();
    const std::string rel = p.lexically_relative(root).generic_string();
    const fs::file_status st = it->symlink_status(ec);
    if (ec) budget.fail(rel, "cannot read: " + ec.message());
    if (fs::is_symlink(st)) budget.fail(rel, "links are not accepted in a model folder");
    if (fs::is_directory(st)) continue;
    if (!fs::is_regular_file(st)) budget.fail(rel, "special files are not accepted in a model folder");
    entries.emplace_back(rel, p);
    if (entries.size() > limits.max_members)
      budget.fail(rel, "more than " + std::to_string(limits.max_members) + " members");
  }
  // Directory iteration order is unspecified; sorting keeps the result deterministic.
  std::sort(entries.begin(), entries.end());
  for (const auto& [rel, p] : entries) {
    const uint64_t size = fs::file_size(p, ec);
    if (ec) budget.fail(rel, "cannot read: " + ec.message());
    budget.add_member(rel, size, contents);
    if (!want || !want(rel)) continue;
    std::ifstream in(p, std::ios::binary);
    if (!in) budget.fail(rel, "cannot open");
    ArchiveFile file{rel, std::string(static_cast<size_t>(size), '\0')};
    in.read(file.data.data(), static_cast<std::streamsize>(size));
    if (static_cast<uint64_t>(in.gcount()) != size) budget.fail(rel, "changed while being read");
    contents.files.push_back(std::move(file));
  }
  return contents;
}

}  // namespace usmpx
