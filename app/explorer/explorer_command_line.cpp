#include "explorer_command_line.h"

#include <string_view>

#include "inputs/input_kinds.h"

namespace usmpx::app {

std::string explorer_help_text() {
  std::string text =
      "Usage: usmp-explorer [options] [input]\n"
      "Explore and edit static memory plans: see every buffer's lifetime and offset, pin, resize pools,\n"
      "compare planners and export the plan back into the firmware.\n\n"
      "Options:\n"
      "  -h, --help          Displays help on commandline options.\n"
      "  -v, --version       Displays version information.\n"
      "  --screenshot <png>  Render the main window offscreen, save it as PNG and exit.\n"
      "  --size <WxH>        Window size of --screenshot (default 1500x900).\n\n"
      "Arguments:\n"
      "  input               One of these kinds of input:\n";
  for (const InputKind& kind : input_kinds())
    text += "                        " + std::string(kind.name) + ": " + std::string(kind.identified_by) + "\n";
  return text;
}

std::optional<int> answer_without_display(int argc, const char* const* argv, std::ostream& out) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // what follows is an input, even if named "--help"
    if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "-?") {
      out << explorer_help_text();
      return 0;
    }
    if (arg == "--version" || arg == "-v") {
      out << "USMP Explorer " << USMPX_VERSION << "\n";
      return 0;
    }
  }
  return std::nullopt;
}

}  // namespace usmpx::app
