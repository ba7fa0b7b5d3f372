#include "options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "base/config_error.h"
#include "planners/registry.h"

namespace usmpx::cli {
namespace {

const std::set<std::string> kCommands = {"info", "plan", "compare", "check", "export", "selftest"};

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

int64_t parse_steps(const std::string& text) {
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value <= 0)
    throw UsageError("--steps: expected a positive whole number of steps, got \"" + text + "\"");
  return value;
}

const std::map<std::string, OptionSpec>& option_specs() {
  static const std::map<std::string, OptionSpec> specs = {
      {"--algorithm", {true, [](Options& o, const std::string& v) { o.algorithm = v; }}},
      {"--algorithms",
       {true, [](Options& o, const std::string& v) { o.algorithms = parse_name_list("--algorithms", v); }}},
      {"--workspace-pools",
       {true,
        [](Options& o, const std::string& v) { o.pools.workspace_pools = parse_name_list("--workspace-pools", v); }}},
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
       {true,
        [](Options& o, const std::string& v) { o.pools.constant_pools = parse_name_list("--constant-pools", v); }}},
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
      {"--capacity",
       {true, [](Options& o, const std::string& v) { o.pools.capacity = parse_byte_count("--capacity", v); }}},
      {"--use-workspace-io", {false, [](Options& o, const std::string&) { o.pools.use_workspace_io = true; }}},
      {"--io-live-throughout", {false, [](Options& o, const std::string&) { o.pools.io_live_throughout = true; }}},
      {"--module", {true, [](Options& o, const std::string& v) { o.module = v; }}},
      {"--tflm-log", {true, [](Options& o, const std::string& v) { o.runtime_log = v; }}},
      {"--tflm-kernels", {true, [](Options& o, const std::string& v) { o.runtime_kernels = v; }}},
      {"--tflm-target", {true, [](Options& o, const std::string& v) { o.runtime_target = v; }}},
      {"--tflm-version", {true, [](Options& o, const std::string& v) { o.runtime_version = v; }}},
      {"--tflm-tree", {true, [](Options& o, const std::string& v) { o.runtime_tree = v; }}},
      {"--pin", {true, [](Options& o, const std::string& v) { o.pins.push_back(parse_pin(v)); }}},
      {"--time-limit",
       {true,
        [](Options& o, const std::string& v) {
          o.time_limit_seconds = parse_seconds(v);
          o.time_limit_given = true;
        }}},
      {"--steps", {true, [](Options& o, const std::string& v) { o.steps = parse_steps(v); }}},
      {"--session", {true, [](Options& o, const std::string& v) { o.session = v; }}},
      {"--json", {false, [](Options& o, const std::string&) { o.json = true; }}},
      {"--allocations", {false, [](Options& o, const std::string&) { o.allocations = true; }}},
      {"--out", {true, [](Options& o, const std::string& v) { o.out = v; }}},
      {"--harness", {false, [](Options& o, const std::string&) { o.harness = true; }}},
      {"--force", {false, [](Options& o, const std::string&) { o.force = true; }}},
      {"--model-section", {true, [](Options& o, const std::string& v) { o.model_section = v; }}},
      {"--pool-section",
       {true,
        [](Options& o, const std::string& v) {
          for (const std::string& item : parse_name_list("--pool-section", v)) {
            const size_t eq = item.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
              throw UsageError("--pool-section: expected POOL=SECTION, got \"" + item + "\"");
            o.pool_sections.emplace_back(item.substr(0, eq), item.substr(eq + 1));
          }
        }}},
      {"--targets", {true, [](Options& o, const std::string& v) { o.targets = parse_name_list("--targets", v); }}},
      {"--keep", {true, [](Options& o, const std::string& v) { o.keep = v; }}},
      {"--cmsis-nn", {true, [](Options& o, const std::string& v) { o.cmsis_nn = v; }}},
      {"--kernels", {true, [](Options& o, const std::string& v) { o.kernels = v; }}},
      {"--seed",
       {true,
        [](Options& o, const std::string& v) {
          unsigned long value = 0;
          const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
          if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || value > 0xffffffffUL)
            throw UsageError("--seed: expected a number, got \"" + v + "\"");
          o.seed = static_cast<uint32_t>(value);
        }}},
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
  if (positional.empty()) throw UsageError("missing command (one of info, plan, compare, check, export, selftest)");
  options.command = positional[0];
  if (!kCommands.count(options.command)) throw UsageError("unknown command '" + options.command + "'");
  if (options.help) return options;
  if (!options.session.empty() && options.command == "info")
    throw UsageError("usmpx info: --session applies to plan, compare, check, export and selftest");
  if (positional.size() < 2 && options.session.empty())
    throw UsageError("usmpx " + options.command + ": missing INPUT");
  if (positional.size() > 2)
    throw UsageError("usmpx " + options.command + ": unexpected argument '" + positional[2] + "'");
  // With --session and no INPUT, the session's input is read (see session_options.h).
  if (positional.size() > 1) options.input = positional[1];
  if (options.command == "export" && options.out.empty()) throw UsageError("usmpx export: missing --out DIR|FILE.tar");
  return options;
}

namespace {

// One line per planner of the catalog: name, summary, and a star for the searching ones.
std::string algorithm_list() {
  size_t width = 0;
  for (const PlannerInfo& info : planner_catalog())
    width = std::max(width, info.name.size());
  std::string out;
  for (const PlannerInfo& info : planner_catalog()) {
    out += "  " + info.name + (info.searching ? " *" : "  ") + std::string(width - info.name.size() + 1, ' ') +
           info.summary + "\n";
  }
  return out;
}

// Each command's usage and what it does, followed by the plan options (with the algorithms)
// and the pool options, or the pool options alone.
enum class HelpOptions { kPool, kPlanAndPool };

struct CommandHelp {
  const char* command;
  const char* text;
  HelpOptions options;
};

const char* const kPoolOptions =
    "Pool options (as tvmc):\n"
    "  --workspace-pools A,B                      workspace pools, in order of preference\n"
    "  --workspace-pools-size-hint-bytes A:N,...  pool capacities in bytes (-1 = unrestricted; 256k, 1M accepted)\n"
    "  --workspace-pools-targets A:c,...          targets that may use each pool\n"
    "  --constant-pools, --constant-pools-size-hint-bytes, --constant-pools-targets   the same for constants\n"
    "  --capacity N                               limit of the only (unrestricted) workspace pool\n"
    "  --use-workspace-io                         plan the model inputs and outputs in the workspace pools\n"
    "  --io-live-throughout                       with it: inputs live from the start, outputs to the end\n"
    "                                             (TVM keeps them live only while accessed; the export\n"
    "                                             refuses plans where that lets other buffers clobber them)\n"
    "  --module NAME                              MLF module to load (default: the first)\n"
    "  --tflm-log FILE                            .tflite: TFLM's PrintMemoryPlan / PrintAllocations output\n"
    "                                             (scratch buffer sizes; the arena tail: wins over the model)\n"
    "  --tflm-kernels reference|cmsis_nn|esp_nn   .tflite: the kernels TFLM is built with (default reference;\n"
    "                                             cmsis_nn: CMSIS-NN for a core with DSP, Cortex-M4/M7/M33;\n"
    "                                             esp_nn: esp-tflite-micro 1.4.0's ESP-NN, esp-nn 1.2.3)\n"
    "  --tflm-target cortex-m|cortex-m55|x86-64|esp32s3|esp32|esp32-ansi\n"
    "                                             .tflite: the target's layout (default cortex-m); the ESP32\n"
    "                                             ones also choose ESP-NN's code path (esp32: every chip but\n"
    "                                             the S3 and P4; esp32-ansi: CONFIG_NN_ANSI_C)\n"
    "  --tflm-version 2023-06-30|2024-05-29|2025-02-07|90b983c\n"
    "                                             .tflite: the TFLM version the firmware ships (default 90b983c),\n"
    "                                             or a date between two of them (YYYY-MM-DD)\n"
    "  --tflm-tree DIR                            .tflite: read that version from the firmware's TFLM sources\n"
    "                                             (the folder holding tensorflow/lite/micro)\n";

const char* const kPlanOptions =
    "Plan options:\n"
    "  --algorithm NAME         a planner below (default greedy_by_size, as in TVM; tflm_greedy for\n"
    "                           .tflite, as TFLM at run time; as-built for .pte, ExecuTorch's own plan),\n"
    "                           or as-built\n"
    "                           (the plan in USMP-generated code; the default of check for such input)\n"
    "  --pin BUF=POOL[@OFFSET]  place BUF in POOL (at OFFSET); repeatable; a hard constraint\n"
    "  --time-limit SEC         time budget of the searching planners (*): multi_start, exact, best\n"
    "                           (default 5; they stop earlier when the plan is proven optimal)\n"
    "  --steps N                a work budget instead of a time limit: the searching planners stop\n"
    "                           after N steps (search nodes, greedy placements, hill-climb moves),\n"
    "                           so the same input gives the same plan and verdict on any machine,\n"
    "                           however busy (no time limit applies unless --time-limit is given too)\n"
    "  --session FILE           a session saved in usmp-explorer (.usmpx.json): its pools, pins,\n"
    "                           algorithm and time limit; INPUT defaults to the session's input;\n"
    "                           --algorithm, --time-limit and --pin given here win; pool options\n"
    "                           other than --use-workspace-io cannot be combined with it\n";

const CommandHelp kCommandHelp[] = {
    {"plan",
     "usage: usmpx plan INPUT [--algorithm NAME] [pool options] [--pin BUF=POOL[@OFFSET]]...\n"
     "                  [--time-limit SEC] [--json] [--allocations]\n\n"
     "Plans every buffer of INPUT and prints a table per pool (size, hint, use, lower bound, gap)\n"
     "followed by the allocations (always with --allocations, else for small inputs).\n"
     "--json prints one JSON object instead. Exit code 1 when the plan does not fit or is invalid.\n\n",
     HelpOptions::kPlanAndPool},
    {"compare",
     "usage: usmpx compare INPUT [--algorithms a,b,...] [pool options] [--pin ...] [--json]\n\n"
     "Runs several planners on the same constraints and tabulates pool sizes, total, gap to the\n"
     "lower bound, time and whether each fits. Default: every planner except the searching\n"
     "multi_start and exact (best runs their searches, within --time-limit), plus as-built when the\n"
     "input carries a plan.\n\n",
     HelpOptions::kPlanAndPool},
    {"check",
     "usage: usmpx check INPUT [plan options] [pool options] [--json]\n\n"
     "Does INPUT fit its pools' size hints? A CI gate. The searching planners stop as soon as a\n"
     "plan fits every hint, or as soon as they prove that none can. The default algorithm is best;\n"
     "for an input that carries a plan (USMP-generated code) it is as-built: the plan its firmware\n"
     "has. The verdict is the last line: 'check passed' (exit 0); 'does not fit' with the buffers\n"
     "that cannot fit together in a pool and the bytes missing (exit 1); an invalid plan (exit 1);\n"
     "or 'undecided' when the search ended (--time-limit, or --steps) before finding a plan that\n"
     "fits or a proof that none can, with the best plan's shortfall (exit 4; a plan that is not\n"
     "searched, as-built or one pass, that does not fit exits 1 and says whether another could).\n"
     "For a gate that gives the same verdict on any machine, however busy, use --steps instead of\n"
     "--time-limit.\n"
     "--json prints {verdict, algorithm, runtime_ms, time_limit_seconds, shortfall_bytes, pools:\n"
     "[{name, need_bytes, size_hint_bytes, short_bytes}], proofs: [{pool, buffers,\n"
     "missing_bytes_at_least, message}], diagnostics: [{severity, code, message}], plan}.\n\n",
     HelpOptions::kPlanAndPool},
    {"export",
     "usage: usmpx export INPUT --out DIR|FILE.tar[.gz] [plan options] [pool options]\n"
     "                    [--pool-section POOL=SECTION]... [--harness [--seed N]] [--force]\n\n"
     "Plans INPUT and writes firmware-ready sources for the plan. For a Model Library Format\n"
     "input: the whole archive again, with the generated C rewritten (pool parameters, offsets,\n"
     "TVMBackendAllocWorkspace calls turned into pool offsets), <mod>_lib0.c, tvmgen_<mod>.h and\n"
     "metadata.json regenerated in the input's TVM style, plus codegen/host/usmpx_plan.json and\n"
     "codegen/host/usmpx_pools.ld (a GNU ld fragment placing each pool's section).\n"
     "For a model file (.tflite, .pte) and a firmware file of several models: a copy of the model\n"
     "with the plan inside when --out names a file of the input's extension; otherwise a folder with\n"
     "the copy, <name>_model_data.h/.cc (the copy as a 16-byte aligned const array and its length)\n"
     "and <name>_memory.h (kTensorArenaSize for the --tflm-kernels/--tflm-target build; for a .pte\n"
     "each method's planned buffers and method allocator), each model in a folder of its name for\n"
     "a firmware file, beside usmpx_firmware.h. See docs/firmware-build.md.\n"
     "The folder (and its parents) is made when missing; an existing non-empty target needs\n"
     "--force; the input is never written.\n\n"
     "  --out DIR|FILE.tar[.gz]   a folder, or a deterministic tar archive\n"
     "  --model-section S         put the model array in linker section S (default: none given)\n"
     "  --pool-section P=S,...    put pool P in linker section S (default .bss.noinit.tvm / .rodata.tvm)\n"
     "  --harness                 add harness/: main.c (seeded inputs, output checksums), Makefile\n"
     "                            (make: this machine; make cortex-m4 / cortex-m7: qemu-system-arm)\n"
     "  --seed N                  seed of the harness's input generator (default 1)\n\n",
     HelpOptions::kPlanAndPool},
    {"selftest",
     "usage: usmpx selftest INPUT [plan options] [pool options] [--targets host,cortex-m4,cortex-m7]\n"
     "                      [--keep DIR] [--seed N] [--cmsis-nn DIR] [--kernels DIR]\n\n"
     "Exports INPUT as it is and re-planned (both with the test harness), builds both, runs both\n"
     "on every target and compares the outputs' checksums. Prints pool bytes and, for the boards,\n"
     "the firmware's flash and RAM before and after. Exit code 1 on any difference or failure.\n"
     "Targets: without --targets, those that can build the model's code (one line says which and\n"
     "why): host (needs make and cc) for portable C; cortex-m4 and cortex-m7 (MPS2 boards on\n"
     "qemu-system-arm; need arm-none-eabi-gcc) for code calling Arm intrinsics or including\n"
     "arm_acle.h. A target whose tools are missing is skipped with a message. --keep DIR keeps\n"
     "the two builds in DIR. CMSIS-NN calls run on the project's own CMSIS-NN-compatible kernels\n"
     "(TFLite's int8/int16 arithmetic, built once per target), or on a real CMSIS-NN built from\n"
     "DIR/Include and DIR/Source with --cmsis-nn DIR. --kernels DIR adds vendor kernel sources\n"
     "(DIR/*.c; headers in DIR and DIR/include) to both builds. What the input cannot build (no\n"
     "lib0.c, vendor kernels or headers it lacks, a vendor SDK heap call, an Ethos-U NPU) is\n"
     "refused before compiling, with one line naming it. When the original build crashes on the\n"
     "host, one line says why (an operator's locals beyond the host's stack, a pointer kept in a\n"
     "32-bit integer, a pool array smaller than the code uses) and both builds are retried where\n"
     "the cause does not apply (the host with a bigger stack, else cortex-m4), or refused naming\n"
     "it. The boards' linker script places what SSRAM cannot hold in their 16 MiB PSRAM.\n\n",
     HelpOptions::kPlanAndPool},
    {"info",
     "usage: usmpx info INPUT [pool options] [--json]\n\n"
     "Lists every buffer: size, alignment, kind, lifetime, conflicts, candidate pools and origin\n"
     "(function and file:line:column of the allocation in a TIR dump). --json prints the problem\n"
     "in the usmpx-problem format.\n\n",
     HelpOptions::kPool},
};

const char* const kGeneralUsage =
    "usage: usmpx COMMAND INPUT [options]\n\n"
    "Static memory planning for TVM output, TFLite Micro models and ExecuTorch programs: see every\n"
    "buffer's place in its memory pool, re-plan it, export firmware-ready output.\n\n"
    "Commands:\n"
    "  info      list the buffers of INPUT\n"
    "  plan      plan INPUT and print the plan\n"
    "  compare   compare planners on INPUT\n"
    "  check     does INPUT fit its pools? stops at the first plan that fits, or at a proof that\n"
    "            none can; exit 1 when it does not fit, 4 when undecided\n"
    "  export    write firmware-ready sources (MLF archive or folder) for a plan of INPUT, or for a\n"
    "            .tflite or .pte a copy of the model holding the plan (--out FILE.tflite|FILE.pte)\n"
    "  selftest  build and run INPUT as it is and re-planned, and compare their outputs\n"
    "  firmware new MODEL...  write a firmware file for several models sharing memory\n\n"
    "INPUT: a usmpx-problem .json file, a MiniMalloc .csv file, a Model Library Format archive\n"
    "(.tar, .tar.gz, .tgz) or folder as TVM exports it (USMP off or on), or a TIR dump: TVMScript\n"
    "(@I.ir_module / @T.prim_func, usually .py) or the legacy primfn text (usually .txt), written\n"
    "before USMP (allocates; planned as USMP would) or after it (pool lets; --algorithm as-built).\n"
    "Or a TFLite Micro model (.tflite): planned as TFLM plans its arena (default tflm_greedy).\n"
    "Or an ExecuTorch program (.pte): its planned buffers, one pool per method and memory id\n"
    "(default: the plan the program carries; et_greedy is ExecuTorch's greedy).\n"
    "Or a firmware file (.usmpx-firmware.json): several models planned together.\n"
    "Run 'usmpx COMMAND --help' for a command's options.\n\n"
    "Exit codes: 0 ok, 1 does not fit / invalid plan, 2 usage error, 3 unreadable or malformed input,\n"
    "4 undecided (check: the search ended before a plan fitted or a proof that none can).\n";

}  // namespace

std::string usage_text(const std::string& command) {
  for (const CommandHelp& help : kCommandHelp) {
    if (command != help.command) continue;
    std::string text = help.text;
    if (help.options == HelpOptions::kPlanAndPool)
      text += std::string(kPlanOptions) + "\nAlgorithms:\n" + algorithm_list() + "\n";
    return text + kPoolOptions;
  }
  return kGeneralUsage;
}

}  // namespace usmpx::cli
