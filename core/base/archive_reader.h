#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// Bounds on what one archive or folder may hold. Every member counts against max_members and,
// by its declared size, against max_total_bytes, read or not, so skipping a member costs no
// more than the limits allow either.
struct ArchiveLimits {
  uint64_t max_members = 100'000;
  uint64_t max_member_bytes = 256ull << 20;
  uint64_t max_total_bytes = 1ull << 30;
};

// One regular file of an archive, read into memory. `path` is relative to the archive root,
// without a "./" prefix, with "/" separators.
struct ArchiveFile {
  std::string path;
  std::string data;
};

struct ArchiveContents {
  std::vector<std::string> members;  // every regular file, in archive order
  std::vector<ArchiveFile> files;    // the members the filter selected, in archive order
  uint64_t declared_bytes = 0;       // sum of all members' sizes

  const ArchiveFile* find(std::string_view path) const;
};

// Which members to read into memory; the others are only listed.
using MemberFilter = std::function<bool(std::string_view path)>;

// Reads a tar archive (plain or compressed: gzip, bzip2, xz, zstd) without extracting anything.
// Rejects, with an InputError naming the archive and the member: absolute paths, ".." components,
// links, devices and other special files, duplicate members, members or totals beyond the limits.
ArchiveContents read_archive_file(const std::string& path, const MemberFilter& want, const ArchiveLimits& limits = {});
ArchiveContents read_archive_bytes(std::string_view bytes, const std::string& name, const MemberFilter& want,
                                   const ArchiveLimits& limits = {});

// The same for an unpacked folder; symbolic links inside it are rejected like archive links.
ArchiveContents read_folder(const std::string& path, const MemberFilter& want, const ArchiveLimits& limits = {});

// "./codegen//x.c" -> "codegen/x.c"; "" for the root itself. Throws InputError (file = `archive`)
// for absolute paths and paths with ".." components.
std::string normalize_member_path(std::string_view raw, const std::string& archive);

}  // namespace usmpx
