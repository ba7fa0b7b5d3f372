#include "frontends/input_probe.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "base/archive_reader.h"
#include "base/text_file.h"

namespace usmpx {

bool ends_with_lower(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

InputProbe::InputProbe(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  folder_ = std::filesystem::is_directory(path_, ec);
  file_ = std::filesystem::is_regular_file(path_, ec);
}

bool InputProbe::archive() const {
  return file_ &&
         (ends_with_lower(path_, ".tar") || ends_with_lower(path_, ".tar.gz") || ends_with_lower(path_, ".tgz"));
}

bool InputProbe::model_file(std::string_view extension, bool (*identified)(std::string_view head)) {
  return file_ && !archive() && (ends_with_lower(path_, extension) || identified(head()));
}

const std::vector<std::string>& InputProbe::members() {
  if (!members_) {
    const MemberFilter none = [](std::string_view) { return false; };
    members_ = folder_ ? read_folder(path_, none).members : read_archive_file(path_, none).members;
  }
  return *members_;
}

bool InputProbe::has_member(std::string_view name) {
  if (folder_) {
    std::error_code ec;
    return std::filesystem::is_regular_file(std::filesystem::path(path_) / name, ec);
  }
  const auto& m = members();
  return std::find(m.begin(), m.end(), name) != m.end();
}

const std::string& InputProbe::head() {
  if (!head_) {
    std::string bytes(16, '\0');
    std::ifstream in(path_, std::ios::binary);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(file_ ? static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)) : 0);
    head_ = std::move(bytes);
  }
  return *head_;
}

const std::string& InputProbe::text() {
  if (!text_) text_ = read_text_file(path_);
  return *text_;
}

}  // namespace usmpx
