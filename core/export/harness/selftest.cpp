#include "export/harness/selftest.h"

#include <sys/wait.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "export/bundle_writer.h"
#include "export/export_error.h"

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

}  // namespace

bool selftest_target_available(const std::string& target, std::string* missing) {
  const std::vector<std::string> tools = target == "host" ? std::vector<std::string>{"make", "cc"}
                                                           : std::vector<std::string>{"make", "arm-none-eabi-gcc", "qemu-system-arm"};
  for (const std::string& t : tools) {
    if (!on_path(t)) {
      if (missing) *missing = t;
      return false;
    }
  }
  return true;
}

HarnessRun run_harness(const std::string& root, const std::string& target) {
  HarnessRun run;
  const std::string harness = (std::filesystem::path(root) / "harness").string();
  const std::string goal = target == "host" ? "host" : "build/" + target + "/model.elf";
  const int build = run_command("make -s -C " + shell_quote(harness) + " " + goal, run.log);
  run.built = build == 0;
  if (!run.built) return run;
  std::string ran;
  run_command("make -s -C " + shell_quote(harness) + " " + (target == "host" ? "run" : target), ran);
  run.log += ran;
  if (target != "host") {
    std::string sizes;
    run_command("arm-none-eabi-size " + shell_quote(harness + "/build/" + target + "/model.elf"), sizes);
    run.log += sizes;
  }
  parse_run(run);
  return run;
}

std::vector<SelftestResult> run_selftest(const ExportBundle& original, const ExportBundle& replanned,
                                         const std::vector<std::string>& targets, const std::string& work_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  const std::string before = (fs::path(work_dir) / "original").string();
  const std::string after = (fs::path(work_dir) / "replanned").string();
  write_bundle(original, before, {true});
  write_bundle(replanned, after, {true});
  std::vector<SelftestResult> results;
  for (const std::string& target : targets) {
    SelftestResult r;
    r.target = target;
    r.original = run_harness(before, target);
    r.replanned = run_harness(after, target);
    if (!r.original.built || !r.replanned.built) {
      r.verdict = std::string("build failed (") + (r.original.built ? "re-planned" : "original") + ")";
    } else if (!r.original.ran || !r.replanned.ran) {
      r.verdict = std::string("run failed (") + (r.original.ran ? "re-planned" : "original") + ")";
    } else if (r.original.model_rc != 0 || r.replanned.model_rc != 0) {
      r.verdict = "the model returned " + std::to_string(r.original.model_rc) + " (original) and " +
                  std::to_string(r.replanned.model_rc) + " (re-planned)";
    } else if (r.original.outputs.empty() || r.original.outputs != r.replanned.outputs) {
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

}  // namespace usmpx
