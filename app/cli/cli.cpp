#include "cli.h"

#include <exception>

#include "base/input_error.h"
#include "commands.h"
#include "firmware_command.h"
#include "options.h"
#include "session_options.h"

namespace usmpx::cli {

int with_exit_codes(std::ostream& err, const std::function<int()>& command,
                    const std::function<std::string()>& usage_hint) {
  try {
    return command();
  } catch (const UsageError& e) {
    err << "usmpx: " << e.what() << "\n" << (usage_hint ? usage_hint() : "");
    return kUsage;
  } catch (const InputError& e) {
    err << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    err << "usmpx: " << e.what() << "\n";
    return kBadInput;
  }
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args[0] == "firmware") return run_firmware({args.begin() + 1, args.end()}, out, err);
  Options options;
  const auto hint = [&] { return options.command.empty() ? std::string("Run 'usmpx --help' for usage.\n") : ""; };
  return with_exit_codes(
      err,
      [&] {
        options = parse_options(args);
        if (options.version) {
          out << "usmpx " << USMPX_VERSION << '\n';
          return static_cast<int>(kOk);
        }
        if (options.help) {
          out << usage_text(options.command);
          return static_cast<int>(kOk);
        }
        options.session_edits = read_session_options(options);
        if (options.command == "info") return run_info(options, out);
        if (options.command == "plan") return run_plan(options, out, err);
        if (options.command == "compare") return run_compare(options, out);
        if (options.command == "check") return run_check(options, out, err);
        if (options.command == "export") return run_export(options, out);
        if (options.command == "selftest") return run_selftest(options, out);
        throw UsageError("unknown command '" + options.command + "'");
      },
      hint);
}

}  // namespace usmpx::cli
