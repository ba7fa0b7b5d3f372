#include "frontends/tvm/export/harness/firmware_selftest.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "export/bundle_writer.h"
#include "export/export_error.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command; its exit code (-1 when killed) and everything it printed.
int shell(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    output.append(buffer, n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class FirmwareSelftest : public Selftest {
 public:
  explicit FirmwareSelftest(std::vector<FirmwareTenant> modules) : modules_(std::move(modules)) {}

  std::string obstacle(const ExportBundle& original, const SelftestOptions& options) const override {
    for (size_t m = 0; m < modules_.size(); ++m) {
      const std::string& name = modules_[m].name;
      const auto test = module_test(m);
      if (!test) return name + ": its input cannot be run";
      if (const std::string why = test->obstacle(bundle_part(original, name), options); !why.empty())
        return name + ": " + why;
    }
    return "";
  }

  SelftestTargets choose_targets(const ExportBundle&, const SelftestOptions&) const override {
    return {{"host"}, "the modules run one after the other in one program on this machine"};
  }

  bool target_available(const std::string& target, std::string* missing) const override {
    const auto test = module_test(0);
    return target == "host" && test && test->target_available(target, missing);
  }

  std::vector<SelftestResult> run(const ExportBundle& original, const ExportBundle& replanned,
                                  const std::vector<std::string>&, const std::string& work_dir,
                                  const SelftestOptions& options) const override {
    SelftestResult r;
    r.target = "host";
    r.original.built = true;
    r.original.ran = true;
    r.original.model_rc = 0;
    // Each module alone, from its input as it is.
    for (size_t m = 0; m < modules_.size(); ++m) {
      const std::string& name = modules_[m].name;
      const ExportBundle alone = bundle_part(original, name);
      const auto results =
          module_test(m)->run(alone, alone, {"host"}, (fs::path(work_dir) / ("alone-" + name)).string(), options);
      if (results.empty()) throw ExportError(name + ": its selftest did not run");
      const HarnessRun& run = results.front().original;
      r.original.built = r.original.built && run.built;
      r.original.ran = r.original.ran && run.ran;
      if (run.model_rc != 0) r.original.model_rc = run.model_rc;
      r.original.log += run.log;
      for (const auto& [output, sum] : run.outputs)
        r.original.outputs.emplace_back(name + "/" + output, sum);
    }
    r.replanned = build_together(replanned, (fs::path(work_dir) / "together").string());
    if (!r.original.built || !r.replanned.built) {
      r.verdict = std::string("build failed (") + (r.original.built ? "modules together" : "a module alone") + ")";
    } else if (!r.original.ran || !r.replanned.ran) {
      r.verdict = std::string("run failed (") + (r.original.ran ? "modules together" : "a module alone") + ")";
    } else if (r.original.model_rc != 0 || r.replanned.model_rc != 0) {
      r.verdict = "a module returned " + std::to_string(r.original.model_rc) + " (alone) and " +
                  std::to_string(r.replanned.model_rc) + " (together)";
    } else if (r.original.outputs != r.replanned.outputs || r.original.outputs.empty()) {
      r.verdict = r.original.outputs.empty() ? "no outputs to compare" : "outputs differ";
    } else {
      r.same = true;
      r.verdict = "same outputs (" + std::to_string(modules_.size()) +
                  " modules run in order on the shared pools, each against its input run alone)";
    }
    return {r};
  }

 private:
  std::shared_ptr<const Selftest> module_test(size_t m) const {
    const LoadedInput& model = *modules_[m].input;
    return model.exporter ? model.exporter->selftest() : nullptr;
  }

  // Every module's objects from its own harness Makefile (its main renamed), one platform, the
  // shared pools, and a main running the modules in order.
  HarnessRun build_together(const ExportBundle& replanned, const std::string& dir) const {
    HarnessRun result;
    write_bundle(replanned, dir, {true});
    std::string pair_main = "/* Written by usmpx: the firmware's modules in order. */\n";
    for (size_t m = 0; m < modules_.size(); ++m)
      pair_main += "int usmpx_main_" + std::to_string(m) + "(void);\n";
    pair_main += "int main(void) {\n  int rc = 0;\n";
    for (size_t m = 0; m < modules_.size(); ++m)
      pair_main += "  rc |= usmpx_main_" + std::to_string(m) + "();\n";
    pair_main += "  return rc;\n}\n";
    ExportBundle extra;
    extra.put("usmpx_pair_main.c", pair_main);
    write_bundle(extra, (fs::path(dir) / "pair").string(), {true});
    std::string objects;
    for (size_t m = 0; m < modules_.size(); ++m) {
      const fs::path harness = fs::path(dir) / modules_[m].name / "harness";
      // Only the module's objects (host-objects): alone it has no main, and the pools it shares are
      // defined in usmpx_firmware.c, so its own link would fail.
      shell(("make -C " + quote(harness.string()) + " HOST_CC=" + quote("cc -Dmain=usmpx_main_" + std::to_string(m)) +
             " host-objects"),
            result.log);
      for (const auto& entry : fs::directory_iterator(harness / "build" / "host")) {
        const std::string file = entry.path().filename().string();
        if (entry.path().extension() != ".o") continue;
        if (file == "platform.o" && m > 0) continue;
        objects += " " + quote(entry.path().string());
      }
    }
    const std::string program = (fs::path(dir) / "firmware").string();
    const fs::path shared = fs::path(dir) / "usmpx_firmware.c";
    const std::string sources = quote((fs::path(dir) / "pair" / "usmpx_pair_main.c").string()) +
                                (fs::exists(shared) ? " " + quote(shared.string()) : "");
    result.built = shell("cc -std=gnu11 -O2 " + sources + objects + " -lm -o " + quote(program), result.log) == 0;
    if (!result.built) return result;
    std::string out;
    result.exit_code = shell("timeout 60 " + quote(program), out);
    result.log += out;
    // Outputs are named per module: "<model>/<output>", in the order the modules ran.
    std::istringstream in(out);
    std::string line;
    size_t module = 0;
    bool seen = false;
    while (std::getline(in, line)) {
      if (line.rfind("usmpx-harness", 0) == 0) {
        if (seen) ++module;
        seen = true;
        std::istringstream words(line);
        std::string w0, w1, name, w2;
        int rc = -1;
        words >> w0 >> w1 >> name >> w2 >> rc;
        result.ran = true;
        if (rc != 0)
          result.model_rc = rc;
        else if (result.model_rc < 0)
          result.model_rc = 0;
      } else if (line.rfind("output ", 0) == 0 && module < modules_.size()) {
        std::istringstream words(line);
        std::string w0, name, bytes, sum;
        words >> w0 >> name >> bytes >> sum;
        result.outputs.emplace_back(modules_[module].name + "/" + name, bytes + " " + sum);
      }
    }
    return result;
  }

  std::vector<FirmwareTenant> modules_;
};

}  // namespace

std::shared_ptr<const Selftest> tvm_firmware_selftest(std::vector<FirmwareTenant> modules) {
  return std::make_shared<FirmwareSelftest>(std::move(modules));
}

}  // namespace usmpx
