#include "options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "config/config_error.h"
#include "planners/registry.h"

namespace usmpx::cli {
namespace {

const std::set<std::string> kCommands = {"info", "plan", "compare", "check"};

struct OptionSpec {
  bool takes_value;
  std::function<void(Options&, const std::string&)> apply;
};

double parse_seconds(const std::string& text) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !(value > 0) || !std::isfinite(value)) {
    throw UsageError("--time-limit: expected a positive number of seconds, got \"" + text + "\"");
  }
  return value;
}

const std::map<std::string, OptionSpec>& option_specs() {
  static const std::map<std::string, OptionSpec> specs = {
      {"--algorithm", {true, [](Options& o, const std::string& v) { o.algorithm = v; }}},
      {"--algorithms",
       {true, [](Options& o, const std::string& v) { o.algorithms = parse_name_list("--algorithms", v); }}},
      {"--workspace-pools",
       {true, [](Options& o, const std::string& v) { o.pools.workspace_pools = parse_name_list("--workspace-pools", v); }}},
      {"--workspace-pools-size-hint-bytes",
       {true,
        [](Options& o, const std::string& v) {
          auto hints = parse_size_hints("--workspace-pools-size-hint-bytes", v);
          o.pools.workspace_size_hints.insert(o.pools.workspace_size_hints.end(), hints.begin(), hints.end());
        }}},
      {"--workspace-pools-targets",
       {true,
        [](Options& o, const std::string& v) {
          auto targets = parse_targets("--workspace-pools-targets", v);
          o.pools.workspace_targets.insert(o.pools.workspace_targets.end(), targets.begin(), targets.end());
        }}},
      {"--constant-pools",
       {true, [](Options& o, const std::string& v) { o.pools.constant_pools = parse_name_list("--constant-pools", v); }}},
      {"--constant-pools-size-hint-bytes",
       {true,
        [](Options& o, const std::string& v) {
          auto hints = parse_size_hints("--constant-pools-size-hint-bytes", v);
          o.pools.constant_size_hints.insert(o.pools.constant_size_hints.end(), hints.begin(), hints.end());
        }}},
      {"--constant-pools-targets",
       {true,
        [](Options& o, const std::string& v) {
          auto targets = parse_targets("--constant-pools-targets", v);
          o.pools.constant_targets.insert(o.pools.constant_targets.end(), targets.begin(), targets.end());
        }}},
      {"--capacity", {true, [](Options& o, const std::string& v) { o.pools.capacity = parse_byte_count("--capacity", v); }}},
      {"--use-workspace-io", {false, [](Options& o, const std::string&) { o.pools.use_workspace_io = true; }}},
      {"--module", {true, [](Options& o, const std::string& v) { o.module = v; }}},
      {"--pin", {true, [](Options& o, const std::string& v) { o.pins.push_back(parse_pin(v)); }}},
      {"--time-limit", {true, [](Options& o, const std::string& v) { o.time_limit_seconds = parse_seconds(v); }}},
      {"--json", {false, [](Options& o, const std::string&) { o.json = true; }}},
      {"--allocations", {false, [](Options& o, const std::string&) { o.allocations = true; }}},
      {"--help", {false, [](Options& o, const std::string&) { o.help = true; }}},
      {"-h", {false, [](Options& o, const std::string&) { o.help = true; }}},
      {"--version", {false, [](Options& o, const std::string&) { o.version = true; }}},
  };
  return specs;
}

}  // namespace

Options parse_options(const std::vector<std::string>& args) {
  Options options;
  std::vector<std::string> positional;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (arg.size() > 1 && arg[0] == '-') {
        std::string name = arg;
        std::optional<std::string> value;
        const size_t eq = arg.find('=');
        if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
          name = arg.substr(0, eq);
          value = arg.substr(eq + 1);
        }
        auto spec = option_specs().find(name);
        if (spec == option_specs().end()) throw UsageError("unknown option " + name);
        if (spec->second.takes_value && !value) {
          if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
          value = args[++i];
        } else if (!spec->second.takes_value && value) {
          throw UsageError(name + " takes no value");
        }
        spec->second.apply(options, value.value_or(""));
      } else {
        positional.push_back(arg);
      }
    }
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  }
  if (options.version || (options.help && positional.empty())) return options;
  if (positional.empty()) throw UsageError("missing command (one of info, plan, compare, check)");
  options.command = positional[0];
  if (!kCommands.count(options.command)) throw UsageError("unknown command '" + options.command + "'");
  if (options.help) return options;
  if (positional.size() < 2) throw UsageError("usmpx " + options.command + ": missing INPUT");
  if (positional.size() > 2) throw UsageError("usmpx " + options.command + ": unexpected argument '" + positional[2] + "'");
  options.input = positional[1];
  return options;
}

namespace {

// One line per planner of the catalog: name, summary, and a star for the searching ones.
std::string algorithm_list() {
  size_t width = 0;
  for (const PlannerInfo& info : planner_catalog()) width = std::max(width, info.name.size());
  std::string out;
  for (const PlannerInfo& info : planner_catalog()) {
    out += "  " + info.name + (info.searching ? " *" : "  ") + std::string(width - info.name.size() + 1, ' ') + info.summary + "\n";
  }
  return out;
}

}  // namespace

std::string usage_text(const std::string& command) {
  const std::string pool_options =
      "Pool options (as tvmc):\n"
      "  --workspace-pools A,B                      workspace pools, in order of preference\n"
      "  --workspace-pools-size-hint-bytes A:N,...  pool capacities in bytes (-1 = unrestricted; 256k, 1M accepted)\n"
      "  --workspace-pools-targets A:c,...          targets that may use each pool\n"
      "  --constant-pools, --constant-pools-size-hint-bytes, --constant-pools-targets   the same for constants\n"
      "  --capacity N                               limit of the only (unrestricted) workspace pool\n"
      "  --use-workspace-io                         plan the model inputs and outputs in the workspace pools\n"
      "  --module NAME                              MLF module to load (default: the first)\n";
  const std::string plan_options =
      "Plan options:\n"
      "  --algorithm NAME         a planner below (default greedy_by_size, as in TVM), or as-built\n"
      "                           (the plan in USMP-generated code; the default of check for such input)\n"
      "  --pin BUF=POOL[@OFFSET]  place BUF in POOL (at OFFSET); repeatable; a hard constraint\n"
      "  --time-limit SEC         time budget of the searching planners (*): multi_start, exact, best\n"
      "                           (default 5; they stop earlier when the plan is proven optimal)\n"
      "\nAlgorithms:\n" + algorithm_list();
  if (command == "plan") {
    return "usage: usmpx plan INPUT [--algorithm NAME] [pool options] [--pin BUF=POOL[@OFFSET]]...\n"
           "                  [--time-limit SEC] [--json] [--allocations]\n\n"
           "Plans every buffer of INPUT and prints a table per pool (size, hint, use, lower bound, gap)\n"
           "followed by the allocations (always with --allocations, else for small inputs).\n"
           "--json prints one JSON object instead. Exit code 1 when the plan does not fit or is invalid.\n\n" +
           plan_options + "\n" + pool_options;
  }
  if (command == "compare") {
    return "usage: usmpx compare INPUT [--algorithms a,b,...] [pool options] [--pin ...] [--json]\n\n"
           "Runs several planners on the same constraints and tabulates pool sizes, total, gap to the\n"
           "lower bound, time and whether each fits. Default: every planner except the searching\n"
           "multi_start and exact (best runs their searches, within --time-limit), plus as-built when the\n"
           "input carries a plan.\n\n" +
           plan_options + "\n" + pool_options;
  }
  if (command == "check") {
    return "usage: usmpx check INPUT [plan options] [pool options]\n\n"
           "Plans INPUT (with --algorithm, default greedy_by_size) and validates the result: overlaps,\n"
           "alignment, candidate pools, pins and pool size hints. Exit code 1 when a pool overflows or\n"
           "the plan is invalid, so it can gate CI.\n\n" +
           plan_options + "\n" + pool_options;
  }
  if (command == "info") {
    return "usage: usmpx info INPUT [pool options] [--json]\n\n"
           "Lists every buffer: size, alignment, kind, lifetime, conflicts, candidate pools and origin\n"
           "(function and file:line:column of the allocation in a TIR dump). --json prints the problem\n"
           "in the usmpx-problem format.\n\n" +
           pool_options;
  }
  return "usage: usmpx COMMAND INPUT [options]\n\n"
         "Static memory planning for TVM models (USMP), from the command line.\n\n"
         "Commands:\n"
         "  info     list the buffers of INPUT\n"
         "  plan     plan INPUT and print the plan\n"
         "  compare  compare planners on INPUT\n"
         "  check    validate a plan of INPUT; non-zero exit when it does not fit\n\n"
         "INPUT: a usmpx-problem .json file, a MiniMalloc .csv file, a Model Library Format archive\n"
         "(.tar, .tar.gz, .tgz) or folder as TVM exports it (USMP off or on), or a TIR dump: TVMScript\n"
         "(@I.ir_module / @T.prim_func, usually .py) or the legacy primfn text (usually .txt), written\n"
         "before USMP (allocates; planned as USMP would) or after it (pool lets; --algorithm as-built).\n"
         "Run 'usmpx COMMAND --help' for a command's options.\n\n"
         "Exit codes: 0 ok, 1 does not fit / invalid plan, 2 usage error, 3 unreadable or malformed input.\n";
}

}  // namespace usmpx::cli
