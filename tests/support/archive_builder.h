#pragma once

#include <string>
#include <vector>

namespace usmpx::testing {

// One member of a tar archive written by a test.
struct TarEntry {
  enum class Type { kFile, kDirectory, kSymlink, kHardlink };
  std::string path;
  std::string data;  // file contents, or the link target
  Type type = Type::kFile;
};

// A tar archive (ustar/pax, as TVM writes it) in memory, gzip-compressed when asked.
std::string make_tar(const std::vector<TarEntry>& entries, bool gzip = false);

// A ustar header of one regular file declaring `declared_size` bytes, followed by no data:
// an archive whose member claims an absurd size.
std::string make_tar_header_only(const std::string& path, unsigned long long declared_size);

// Every file under a folder, as archive entries with the "./" prefix TVM uses.
std::vector<TarEntry> folder_entries(const std::string& folder);

}  // namespace usmpx::testing
