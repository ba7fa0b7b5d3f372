#include "frontends/tvm/export/harness/selftest.h"

#include <sys/wait.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/harness/builtin_kernels.h"

namespace usmpx {
namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command, returning its exit status and everything it printed.
int run_command(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

HarnessRun run_harness(const std::string& root, const std::string& target, const std::string& make_variables) {
  HarnessRun run;
  const std::string harness = (std::filesystem::path(root) / "harness").string();
  const std::string make =
      "make -s -j2 -C " + shell_quote(harness) + (make_variables.empty() ? "" : " " + make_variables);
  const std::string goal = target == "host" ? "host" : "build/" + target + "/model.elf";
  const int build = run_command(make + " " + goal, run.log);
  run.built = build == 0;
  if (!run.built) return run;
  std::string ran;
  run_command(make + " " + (target == "host" ? "run" : target), ran);
  run.log += ran;
  if (target != "host") {
    const std::string elf = shell_quote(harness + "/build/" + target + "/model.elf");
    std::string sizes;
    run_command("arm-none-eabi-size " + elf, sizes);
    run.log += sizes;
    std::string segments;
    run_command("arm-none-eabi-readelf -lW " + elf, segments);
    parse_segments(segments, run);
  }
  parse_run(run);
  return run;
}

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
  std::vector<SelftestResult> results;
  for (const std::string& target : targets) {
    SelftestResult r;
    r.target = target;
    r.original = run_harness(before, target, variables);
    r.replanned = run_harness(after, target, variables);
    if (!r.original.built || !r.replanned.built) {
      r.verdict = std::string("build failed (") + (r.original.built ? "re-planned" : "original") + ")";
    } else if (!r.original.ran || !r.replanned.ran) {
      r.verdict = std::string("run failed (") + (r.original.ran ? "re-planned" : "original") + ")";
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
