#pragma once

#include <filesystem>
#include <string>

// Builds and runs generated C in tests: finds the host C compiler, prepares a scratch folder
// with our stand-in TVM runtime headers, and runs commands capturing their output.
namespace usmpx::testing {

// $CC when set, else the first of cc, gcc, clang that runs; "" when there is none.
std::string find_c_compiler();

// A fresh folder under the system temporary directory, with include/tvm/runtime/*.h and
// include/dlpack/dlpack.h written from standin_tvm_headers(); removed on destruction.
class CScratch {
 public:
  CScratch();
  ~CScratch();
  CScratch(const CScratch&) = delete;
  CScratch& operator=(const CScratch&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path include() const { return root_ / "include"; }
  // Writes `text` to root()/name and returns the path.
  std::filesystem::path write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path root_;
};

struct CommandResult {
  int status = -1;     // exit status (0 = success)
  std::string output;  // stdout and stderr
};

CommandResult run_command(const std::string& command);

// Single-quoted for /bin/sh.
std::string shell_quote(const std::string& text);

}  // namespace usmpx::testing

// Skips the current test when no C compiler is available.
#define USMPX_REQUIRE_CC(variable)                                  \
  const std::string variable = ::usmpx::testing::find_c_compiler(); \
  if (variable.empty()) GTEST_SKIP() << "no C compiler found (set CC or install cc/gcc/clang)"
