#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace usmpx::cli {

// `usmpx firmware new MODEL... [--sequence|--exclusive|--concurrent] [--out FILE] [--force]`:
// writes a starter firmware file (docs/several-models.md). `args` starts after "firmware".
int run_firmware(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string firmware_usage_text();

}  // namespace usmpx::cli
