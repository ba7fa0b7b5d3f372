// Every input a fuzzing campaign found (and every seed kept for it) goes through its reader again:
// it must end in a clean InputError or a result, never a crash, hang or sanitizer report.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "fuzz_entries.h"

namespace {

namespace fs = std::filesystem;

TEST(FuzzRegressions, EveryKeptInputIsHandled) {
  const fs::path root = fs::path(USMPX_FUZZ_REGRESSIONS_DIR);
  size_t inputs = 0;
  for (const usmpx::fuzz::Target& target : usmpx::fuzz::targets()) {
    const fs::path folder = root / target.name;
    if (!fs::exists(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      SCOPED_TRACE(entry.path().string());
      EXPECT_NO_THROW(target.run(bytes.str()));
      ++inputs;
    }
  }
  EXPECT_GT(inputs, 0u) << "no regression inputs under " << root;
}

}  // namespace
