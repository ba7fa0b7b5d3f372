#include "base/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

#include "base/input_error.h"

namespace usmpx {

std::string read_text_file(const std::string& path, uint64_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError({path, 0, 0}, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "cannot open: " + system_error_text(errno));
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw InputError({path, 0, 0},
                     "file is " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(max_bytes));
  }
  std::string text;
  text.resize(ec ? 0 : size);
  if (!text.empty()) in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (!in && !text.empty()) throw InputError({path, 0, 0}, "read error");
  return text;
}

std::string system_error_text(int err) {
  return err != 0 ? std::string(std::strerror(err)) : std::string("no reason given by the system");
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::random_device rd;
  const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp" + std::to_string(rd()));
  {
    errno = 0;
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error("cannot write " + path + ": cannot create " + temp.string() + ": " +
                               system_error_text(errno));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) {
      const int err = errno;
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw std::runtime_error("cannot write " + path + ": writing " + temp.string() +
                               " failed: " + system_error_text(err));
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    const std::string cause = ec.message();  // before the clean-up below resets ec
    std::error_code ignored;
    fs::remove(temp, ignored);
    if (fs::is_directory(target, ignored))
      throw std::runtime_error("cannot replace " + path + ": it is a folder (" + cause + ")");
    throw std::runtime_error("cannot replace " + path + ": " + cause);
  }
}

}  // namespace usmpx
