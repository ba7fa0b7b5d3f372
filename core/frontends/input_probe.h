#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// Whether `text` ends with `suffix`, ignoring the case of `text` (`suffix` is lower case).
bool ends_with_lower(std::string_view text, std::string_view suffix);

// What recognising an input looks at, each part read at most once and only when a kind asks:
// whether it is a folder, a file or an archive, the members of a folder or archive, the text.
class InputProbe {
 public:
  explicit InputProbe(std::string path);

  const std::string& path() const { return path_; }
  bool folder() const { return folder_; }
  bool file() const { return file_; }
  bool archive() const;  // a file named .tar, .tar.gz or .tgz
  // A model file: one file, not an archive, named *`extension` or with the identifier
  // `identified` finds in its head (a flatbuffer's file identifier).
  bool model_file(std::string_view extension, bool (*identified)(std::string_view head));

  // Every regular file of a folder or archive (names only).
  const std::vector<std::string>& members();
  bool has_member(std::string_view name);
  // The whole file, read once (a file only).
  const std::string& text();
  // The file's first 16 bytes (fewer when it is shorter), for kinds known by an identifier.
  const std::string& head();

 private:
  std::string path_;
  bool folder_ = false;
  bool file_ = false;
  std::optional<std::vector<std::string>> members_;
  std::optional<std::string> text_;
  std::optional<std::string> head_;
};

}  // namespace usmpx
