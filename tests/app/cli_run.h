#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli.h"

namespace usmpx::testing {

// One run of the usmpx command line in this process: exit code, stdout and stderr.
struct CliRun {
  int code;
  std::string out;
  std::string err;
};

inline CliRun run_usmpx(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = cli::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace usmpx::testing
