// usmpx --help and a command's --help: the exit codes and every input family are named.
#include <gtest/gtest.h>

#include "cli_run.h"

namespace usmpx {
namespace {

using testing::run_usmpx;

TEST(CliHelp, NamesTheExitCodesAndEveryInputFamily) {
  const auto help = run_usmpx({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.find("for TVM models (USMP)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("TFLite Micro models and ExecuTorch programs"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("4 undecided"), std::string::npos) << help.out;
  const auto check = run_usmpx({"check", "--help"});
  EXPECT_NE(check.out.find("(exit 4;"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("--steps N"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace usmpx
