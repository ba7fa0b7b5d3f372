#include "frontends/tvm/export/harness/tvm_selftest.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "base/size_text.h"
#include "base/text_file.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/harness/board_fault.h"
#include "frontends/tvm/export/harness/board_layout.h"
#include "frontends/tvm/export/harness/builtin_kernels.h"
#include "frontends/tvm/export/harness/crash_diagnosis.h"

namespace usmpx {
namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct CommandStatus {
  int exit_code = -1;
  int signal = 0;  // what killed it
};

// Runs a shell command, returning how it ended and everything it printed.
CommandStatus run_command_status(const std::string& command, std::string& output) {
  CommandStatus result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // A shell that did not exec reports a program killed by signal N as 128 + N.
    if (result.exit_code > 128 && result.exit_code < 128 + 32) result.signal = result.exit_code - 128;
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

int run_command(const std::string& command, std::string& output) {
  const CommandStatus status = run_command_status(command, output);
  return status.signal ? -1 : status.exit_code;
}

// The exit code of the board's program from make's "make: *** [Makefile:NN: cortex-m4] Error 99".
int make_error_code(const std::string& log) {
  const size_t at = log.rfind("] Error ");
  return at == std::string::npos ? -1 : std::atoi(log.c_str() + at + 8);
}

bool on_path(const std::string& program) {
  std::string ignored;
  return run_command("command -v " + shell_quote(program) + " >/dev/null", ignored) == 0;
}

void parse_run(HarnessRun& run) {
  std::istringstream in(run.log);
  std::string line;
  bool size_header = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (first == "usmpx-harness") {
      std::string module_word, module, rc_word;
      words >> module_word >> module >> rc_word >> run.model_rc;
      run.ran = true;
    } else if (first == "output") {
      std::string name, bytes, sum;
      words >> name >> bytes >> sum;
      run.outputs.emplace_back(name, bytes.append(" ").append(sum));
    } else if (first == "text" && line.find("bss") != std::string::npos) {
      size_header = true;
    } else if (size_header) {
      std::istringstream numbers(line);
      numbers >> run.text >> run.data >> run.bss;
      size_header = false;
    }
  }
}

// Flash and RAM from the image's program headers: a LOAD segment's file bytes are stored at its
// physical (load) address, its memory bytes occupy its virtual address; MPS2's RAM starts at 0x20000000.
void parse_segments(const std::string& readelf, HarnessRun& run) {
  std::istringstream in(readelf);
  std::string line;
  int64_t flash = 0, ram = 0;
  bool any = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string type, offset, vaddr, paddr, filesz, memsz;
    if (!(words >> type) || type != "LOAD") continue;
    words >> offset >> vaddr >> paddr >> filesz >> memsz;
    const auto number = [](const std::string& hex) {
      return static_cast<int64_t>(std::strtoull(hex.c_str(), nullptr, 16));
    };
    if (number(paddr) < 0x20000000) flash += number(filesz);
    if (number(vaddr) >= 0x20000000) ram += number(memsz);
    any = true;
  }
  if (any) {
    run.flash_bytes = flash;
    run.ram_bytes = ram;
  }
}

}  // namespace

bool selftest_target_available(const std::string& target, std::string* missing) {
  const std::vector<std::string> tools = target == "host"
                                             ? std::vector<std::string>{"make", "cc"}
                                             : std::vector<std::string>{"make", "arm-none-eabi-gcc", "qemu-system-arm"};
  for (const std::string& t : tools) {
    if (!on_path(t)) {
      if (missing) *missing = t;
      return false;
    }
  }
  return true;
}

HarnessRun run_harness(const std::string& root, const std::string& target, const std::string& make_variables,
                       int64_t stack_bytes) {
  HarnessRun run;
  const std::string harness = (std::filesystem::path(root) / "harness").string();
  const std::string make =
      "make -s -j2 -C " + shell_quote(harness) + (make_variables.empty() ? "" : " " + make_variables);
  const std::string goal = target == "host" ? "host" : "build/" + target + "/model.elf";
  const int build = run_command(make + " " + goal, run.log);
  run.built = build == 0;
  if (!run.built) return run;
  std::string ran;
  if (target == "host") {
    // `make run` runs the program; run here it tells how it ended (a signal; timeout's 124 after
    // 5 minutes, as the boards' 120 s), with the stack asked for.
    const std::string ulimit =
        stack_bytes > 0 ? "ulimit -s " + std::to_string((stack_bytes + 1023) / 1024) + " 2>/dev/null; " : "";
    const CommandStatus status =
        run_command_status(ulimit + "cd " + shell_quote(harness) + " && exec timeout 300 ./build/host/model", ran);
    run.exit_code = status.signal ? -1 : status.exit_code;
    run.signal = status.signal;
    if (status.signal) ran += "usmpx: the program was killed by " + signal_name(status.signal) + "\n";
  } else {
    const int rc = run_command(make + " " + target, ran);
    run.exit_code = rc == 0 ? 0 : make_error_code(ran);
  }
  run.log += ran;
  if (target != "host") {
    const std::string elf = shell_quote(harness + "/build/" + target + "/model.elf");
    std::string sizes;
    run_command("arm-none-eabi-size " + elf, sizes);
    run.log += sizes;
    std::string segments;
    run_command("arm-none-eabi-readelf -lW " + elf, segments);
    parse_segments(segments, run);
    if (const std::optional<BoardFault> fault = run.exit_code == 99 ? read_board_fault(ran) : std::nullopt) {
      std::string function;  // the symbol holding the faulting instruction
      if (fault->pc) {
        char address[16];
        std::snprintf(address, sizeof address, "0x%x", static_cast<unsigned>(fault->pc));
        run_command("arm-none-eabi-addr2line -f -e " + elf + " " + address, function);
        function = function.substr(0, function.find('\n'));
        if (function == "??") function.clear();
      }
      run.fault = describe_board_fault(*fault, function);
    }
  }
  parse_run(run);
  return run;
}

namespace {

// How a program that printed no result line ended, for a verdict: "SIGSEGV", "exit 99: a fault".
std::string ending(const HarnessRun& run) {
  if (run.signal) return signal_name(run.signal);
  if (run.exit_code == 99) return "exit 99: a fault" + (run.fault.empty() ? "" : ": " + run.fault);
  if (run.exit_code == 124) return "timed out";
  return run.exit_code >= 0 ? "exit " + std::to_string(run.exit_code) : "no result line";
}

void judge(SelftestResult& r) {
  if (!r.original.built || !r.replanned.built) {
    r.verdict = std::string("build failed (") + (r.original.built ? "re-planned" : "original") + ")";
  } else if (!r.original.ran || !r.replanned.ran) {
    const HarnessRun& failed = r.original.ran ? r.replanned : r.original;
    r.verdict =
        std::string("run failed (") + (r.original.ran ? "re-planned" : "original") + ": " + ending(failed) + ")";
  } else if (r.original.model_rc != 0 || r.replanned.model_rc != 0) {
    r.verdict = "the model returned " + std::to_string(r.original.model_rc) + " (original) and " +
                std::to_string(r.replanned.model_rc) + " (re-planned)";
  } else if (r.original.outputs.empty() && r.replanned.outputs.empty()) {
    r.verdict = "the model has no outputs the harness can see; nothing was compared";
  } else if (r.original.outputs != r.replanned.outputs) {
    r.verdict = "outputs differ";
  } else if (std::any_of(r.original.outputs.begin(), r.original.outputs.end(),
                         [](const auto& o) { return o.second.rfind("0 ", 0) == 0; })) {
    r.verdict = "an output's size is unknown; nothing was compared";
  } else {
    r.same = true;
    r.verdict = "same outputs";
  }
}

struct Builds {
  const ExportBundle& original;
  std::string before, after, variables;
  // What the original's C declares for the boards (board_layout.h), read with libclang once
  // however many board targets and retries need it.
  mutable std::optional<BoardMemory> memory;

  const BoardMemory& board_memory_of_original() const {
    if (!memory) memory = board_memory(parse_harness_code(original, kBoardTriple));
    return *memory;
  }
};

SelftestResult run_target(const Builds& b, const std::string& target, int64_t stack_bytes = 0) {
  SelftestResult r;
  r.target = target;
  if (target != "host") {
    // What the code declares must fit the board's memory map (board_layout.h), else nothing links.
    const BoardLayout layout = choose_board_layout(b.board_memory_of_original());
    if (!layout.fits) {
      r.verdict = "not built: does not fit the board";
      r.diagnosis = target + " not built: " + layout.why_not;
      return r;
    }
  }
  r.original = run_harness(b.before, target, b.variables, stack_bytes);
  r.replanned = run_harness(b.after, target, b.variables, stack_bytes);
  judge(r);
  return r;
}

// FRAGMENT_SECTIONS of a written harness's Makefile: the sections its mps2.ld maps for the pools.
std::vector<std::string> fragment_sections_of(const std::string& harness_dir) {
  std::istringstream in(read_text_file(harness_dir + "/harness/Makefile"));
  std::string line;
  std::vector<std::string> sections;
  while (std::getline(in, line)) {
    if (!line.starts_with("FRAGMENT_SECTIONS :=")) continue;
    std::istringstream words(line.substr(20));
    for (std::string s; words >> s;)
      sections.push_back(s);
  }
  return sections;
}

// The original faulted on a board whose stack sat at the top of RAM, sized from the locals the
// code declares: a stack deeper than they show (an array sized at run time) runs below RAM's
// start. Both builds run again with the stack in PSRAM, as deep as PSRAM leaves room for.
SelftestResult retry_with_stack_in_psram(const Builds& b, SelftestResult faulted) {
  const std::optional<BoardFault> fault = read_board_fault(faulted.original.log);
  const BoardMemory& memory = b.board_memory_of_original();
  BoardLayout layout = choose_board_layout(memory);
  if (!fault || !board_fault_may_be_the_stack(*fault) || layout.stack_in_psram) return faulted;
  layout.psram = layout.data_in_psram = layout.stack_in_psram = true;
  const int64_t used = memory.ram_bytes + (layout.rodata_in_psram ? memory.rom_bytes : 0);
  const int64_t room = (kBoardPsramBytes - used) / kMiB * kMiB;
  const std::string line = "the original faulted on " + faulted.target + " (" + faulted.original.fault + ")";
  if (room < kMiB) {
    faulted.diagnosis = line + "; not retried with the stack in PSRAM: the model's data leave it no room";
    return faulted;
  }
  layout.stack_bytes = room;
  for (const std::string& dir : {b.before, b.after})
    write_file_atomically(dir + "/harness/mps2.ld", board_linker_script(layout, fragment_sections_of(dir)));
  SelftestResult again = run_target(b, faulted.target);
  again.diagnosis = line + "; retried with a " + format_size(room) +
                    " stack in PSRAM (the stack was sized from the locals the code declares, " +
                    format_size(memory.stack_bytes) + ")";
  if (!again.original.ran && again.original.built)
    again.verdict = "not proved: the original fails with the stack in PSRAM too (" + ending(again.original) + ")";
  return again;
}

// The stack this process's children get (RLIMIT_STACK), or the most they may ask for (`hard`);
// -1 when unlimited.
int64_t host_stack_limit(bool hard = false) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) != 0) return -1;
  const rlim_t value = hard ? limit.rlim_max : limit.rlim_cur;
  return value == RLIM_INFINITY ? -1 : static_cast<int64_t>(value);
}

// The original compiled and crashed on the host: say why, and run both where the cause does not
// apply (crash_diagnosis.h). A crash is never "same outputs".
SelftestResult retry_after_crash(const Builds& b, SelftestResult crashed) {
  CrashDiagnosis d = diagnose_host_crash(b.original, crashed.original.signal, host_stack_limit());
  std::string line = "the original build crashed on the host (" + d.signal + "): " + d.because;
  SelftestResult again;
  const int64_t most = host_stack_limit(true);
  if (d.retry_target == "host" && most >= 0 && most < d.retry_stack_bytes) {
    line += "; the host allows no more than " + format_size(most) + " of stack";  // the boards then
    d.retry_target = "cortex-m4";
  }
  if (d.retry_target == "host") {
    again = run_target(b, "host", d.retry_stack_bytes);
    const std::string stack = "with a " + format_size(d.retry_stack_bytes) + " stack";
    if (again.original.signal == 0) {
      again.diagnosis = line + "; retried on the host " + stack;
      if (!again.original.ran && again.original.built)
        again.verdict = "not proved: the original fails on the host " + stack + " too (" + ending(again.original) + ")";
      return again;
    }
    // The stack was not all: what else is there, with the stack no longer counted.
    crashed = again;
    d = diagnose_host_crash(b.original, again.original.signal, -1);
    line += "; " + stack + " it crashes still (" + d.signal + "): " + d.because;
  }
  // Refused naming the cause: the verdict stays short for the table, the diagnosis says why.
  crashed.verdict = "not proved: the original crashes on the host";
  if (!d.not_retried.empty()) {
    crashed.diagnosis = line + "; not retried: " + d.not_retried;
    return crashed;
  }
  std::string missing;
  if (!selftest_target_available("cortex-m4", &missing)) {
    crashed.diagnosis = line + "; not retried: the emulated Cortex-M4 that would run it needs " + missing +
                        ", which is not installed (Debian: gcc-arm-none-eabi, libnewlib-arm-none-eabi, "
                        "qemu-system-arm)";
    return crashed;
  }
  const BoardMemory& memory = b.board_memory_of_original();
  const BoardLayout layout = choose_board_layout(memory);
  if (!layout.fits) {
    crashed.diagnosis = line + "; not retried on the emulated Cortex-M4: " + layout.why_not;
    return crashed;
  }
  again = run_target(b, "cortex-m4");
  again.diagnosis = line + "; retried on the emulated Cortex-M4 (" + describe_board_layout(layout, memory) + ")";
  if (!again.original.ran && again.original.built)
    again.verdict = "not proved: the original fails on cortex-m4 too (" + ending(again.original) + ")";
  return again;
}

}  // namespace

std::vector<SelftestResult> run_selftest(const ExportBundle& original, const ExportBundle& replanned,
                                         const std::vector<std::string>& targets, const std::string& work_dir,
                                         const SelftestOptions& options) {
  namespace fs = std::filesystem;
  if (const std::string obstacle = selftest_obstacle(replanned, options); !obstacle.empty())
    throw ExportError("selftest cannot run this model: " + obstacle);
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  std::string variables;
  fs::path cmsis_nn;
  if (!options.cmsis_nn.empty()) {
    cmsis_nn = fs::absolute(options.cmsis_nn);
    if (!fs::is_directory(cmsis_nn / "Include") || !fs::is_directory(cmsis_nn / "Source"))
      throw ExportError("--cmsis-nn " + options.cmsis_nn + ": no Include/ and Source/ folders there");
  } else if (selftest_uses_builtin_cmsis_nn(replanned, options)) {
    // The built-in kernels, laid out as a checkout so the Makefile's CMSIS-NN rule builds them.
    cmsis_nn = fs::absolute(fs::path(work_dir) / "builtin-cmsis-nn");
    ExportBundle kernels;
    for (const EmbeddedFile& f : builtin_cmsis_nn_files())
      kernels.put(std::string(f.path), std::string(f.text));
    write_bundle(kernels, cmsis_nn.string(), {true});
  }
  if (!cmsis_nn.empty())
    variables = "CMSIS_NN=" + shell_quote(cmsis_nn.string()) +
                " CMSIS_NN_BUILD=" + shell_quote(fs::absolute(fs::path(work_dir) / "cmsis-nn").string());
  if (!options.kernels.empty()) {
    const fs::path dir = fs::absolute(options.kernels);
    if (!fs::is_directory(dir)) throw ExportError("--kernels " + options.kernels + ": no such folder");
    variables += (variables.empty() ? "" : " ") + std::string("KERNELS=") + shell_quote(dir.string());
  }
  const std::string before = (fs::path(work_dir) / "original").string();
  const std::string after = (fs::path(work_dir) / "replanned").string();
  write_bundle(original, before, {true});
  write_bundle(replanned, after, {true});
  const Builds builds{original, before, after, variables};
  std::vector<SelftestResult> results;
  std::vector<std::string> ran;
  for (const std::string& target : targets) {
    if (std::find(ran.begin(), ran.end(), target) != ran.end()) continue;  // a retry ran it already
    SelftestResult r = run_target(builds, target);
    if (target == "host" && !r.original.ran && r.original.signal != 0) r = retry_after_crash(builds, r);
    if (target != "host" && !r.original.ran && r.original.exit_code == 99) r = retry_with_stack_in_psram(builds, r);
    ran.push_back(r.target);
    results.push_back(std::move(r));
  }
  return results;
}

std::string TvmSelftest::obstacle(const ExportBundle& original, const SelftestOptions& options) const {
  return selftest_obstacle(original, options);
}

SelftestTargets TvmSelftest::choose_targets(const ExportBundle& original, const SelftestOptions& options) const {
  return choose_selftest_targets(original, options);
}

bool TvmSelftest::target_available(const std::string& target, std::string* missing) const {
  return selftest_target_available(target, missing);
}

std::vector<SelftestResult> TvmSelftest::run(const ExportBundle& original, const ExportBundle& replanned,
                                             const std::vector<std::string>& targets, const std::string& work_dir,
                                             const SelftestOptions& options) const {
  return run_selftest(original, replanned, targets, work_dir, options);
}

}  // namespace usmpx
