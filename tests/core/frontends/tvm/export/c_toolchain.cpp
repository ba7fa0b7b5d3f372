#include "c_toolchain.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>

#include <sys/wait.h>

#include "frontends/tvm/c_analysis/standin_headers.h"

namespace usmpx::testing {

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string find_c_compiler() {
  static const std::string found = [] {
    std::vector<std::string> candidates;
    if (const char* cc = std::getenv("CC"); cc && *cc) candidates.push_back(cc);
    for (const char* c : {"cc", "gcc", "clang"})
      candidates.push_back(c);
    for (const std::string& c : candidates) {
      if (run_command(c + " --version").status == 0) return c;
    }
    return std::string();
  }();
  return found;
}

CScratch::CScratch() {
  std::random_device random;
  const std::filesystem::path base = std::filesystem::temp_directory_path();
  do {
    root_ = base / ("usmpx-c-" + std::to_string(random()));
  } while (std::filesystem::exists(root_));
  std::filesystem::create_directories(root_);
  for (const StandinHeader& h : standin_tvm_headers()) {
    const std::filesystem::path path = include() / std::string(h.path);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << h.text;
  }
}

CScratch::~CScratch() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

std::filesystem::path CScratch::write(const std::string& name, const std::string& text) const {
  const std::filesystem::path path = root_ / name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace usmpx::testing
