#include "archive_builder.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace usmpx::testing {

std::string make_tar(const std::vector<TarEntry>& entries, bool gzip) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (gzip) archive_write_add_filter_gzip(a);
  std::string out(1 << 22, '\0');
  size_t used = 0;
  if (archive_write_open_memory(a, out.data(), out.size(), &used) != ARCHIVE_OK) {
    throw std::runtime_error(archive_error_string(a));
  }
  for (const TarEntry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (e.type) {
      case TarEntry::Type::kFile:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
        break;
      case TarEntry::Type::kDirectory: archive_entry_set_filetype(entry, AE_IFDIR); break;
      case TarEntry::Type::kSymlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.data.c_str());
        break;
      case TarEntry::Type::kHardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.data.c_str());
        break;
    }
    archive_write_header(a, entry);
    if (e.type == TarEntry::Type::kFile && !e.data.empty()) archive_write_data(a, e.data.data(), e.data.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  out.resize(used);
  return out;
}

std::string make_tar_header_only(const std::string& path, unsigned long long declared_size) {
  std::string header(512, '\0');
  std::memcpy(header.data(), path.data(), std::min<size_t>(path.size(), 99));
  std::snprintf(header.data() + 100, 8, "%07o", 0644);
  std::snprintf(header.data() + 108, 8, "%07o", 0);
  std::snprintf(header.data() + 116, 8, "%07o", 0);
  std::snprintf(header.data() + 124, 12, "%011llo", declared_size);
  std::snprintf(header.data() + 136, 12, "%011o", 0);
  header[156] = '0';
  std::memcpy(header.data() + 257,
              "ustar\0"
              "00",
              8);
  std::memset(header.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : header)
    sum += c;
  std::snprintf(header.data() + 148, 8, "%06o", sum);
  header[155] = ' ';
  return header + std::string(1024, '\0');
}

std::vector<TarEntry> folder_entries(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<TarEntry> out;
  for (const auto& e : fs::recursive_directory_iterator(folder)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream data;
    data << in.rdbuf();
    out.push_back({"./" + fs::relative(e.path(), folder).generic_string(), data.str(), TarEntry::Type::kFile});
  }
  std::sort(out.begin(), out.end(), [](const TarEntry& a, const TarEntry& b) { return a.path < b.path; });
  return out;
}

}  // namespace usmpx::testing
