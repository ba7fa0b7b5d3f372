// Two TVM outputs compiled with the default module name in one firmware file: both define
// tvmgen_default_*, so they cannot be linked together. The firmware file says so when it is read;
// a "module_name" renames a model's module on export as `tvmc --module-name` would have, and the
// two shared MLF archives then build into one program and compute what each computes alone.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/text_file.h"
#include "export/selftest.h"
#include "inputs/input_file.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

// A firmware file of the shared letscope and sine archives, `sine_module_name` given to sine.
std::string firmware_of_shared_archives(const std::string& letscope, const std::string& sine,
                                        const std::string& sine_module_name) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-module-names-" + sine_module_name);
  fs::create_directories(dir);
  const std::string extra = sine_module_name.empty() ? "" : ", \"module_name\": \"" + sine_module_name + "\"";
  const std::string path = (dir / "pair.usmpx-firmware.json").string();
  write_file_atomically(path,
                        "{\"format\": \"usmpx-firmware\", \"version\": 1, \"schedule\": \"sequence\",\n"
                        " \"models\": [{\"name\": \"letscope\", \"path\": \"" +
                            letscope + "\"},\n  {\"name\": \"sine\", \"path\": \"" + sine + "\"" + extra +
                            "}],\n \"memory\": {\"shared\": [{\"name\": \"global_workspace\"}]}}\n");
  return path;
}

const Diagnostic* find_code(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const Diagnostic& d : ds) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

TEST(FirmwareModuleNames, TwoDefaultModulesAreSaidWhenTheFileIsRead) {
  USMPX_REQUIRE_SHARED(letscope, "mlf/letscope_v7.tar");
  USMPX_REQUIRE_SHARED(sine, "mlf/sine_aot_v5.tar");
  const LoadedInput input = load_input(firmware_of_shared_archives(letscope, sine, ""));
  const Diagnostic* clash = find_code(input.warnings, "firmware-module-names");
  ASSERT_NE(clash, nullptr);
  EXPECT_EQ(clash->severity, Severity::kWarning);
  EXPECT_EQ(clash->message,
            "models 'letscope' and 'sine' both define the C names tvmgen_default_*: they "
            "cannot be linked into one firmware; give one of them a \"module_name\" (its export then renames its "
            "module and every name made from it)");
}

TEST(FirmwareModuleNames, ARenamedModuleExportsBuildsAndComputesTheSameTogether) {
  USMPX_REQUIRE_SHARED(letscope, "mlf/letscope_v7.tar");
  USMPX_REQUIRE_SHARED(sine, "mlf/sine_aot_v5.tar");
  const LoadedInput input = load_input(firmware_of_shared_archives(letscope, sine, "sine"));
  EXPECT_EQ(find_code(input.warnings, "firmware-module-names"), nullptr);
  const Plan plan = testing::plan_with("best", input.problem);
  ASSERT_FALSE(plan.has_errors());
  ExportOptions eo;
  eo.harness = true;
  const ExportBundle replanned = input.exporter->export_plan(input.problem, plan, eo);
  // sine's module is "sine" in every file; letscope's stays "default".
  ASSERT_NE(replanned.find("sine/codegen/host/src/sine_lib0.c"), nullptr);
  ASSERT_NE(replanned.find("sine/codegen/host/include/tvmgen_sine.h"), nullptr);
  EXPECT_NE(replanned.find("sine/metadata.json")->data.find("\"model_name\": \"sine\""), std::string::npos);
  EXPECT_NE(replanned.find("letscope/codegen/host/src/default_lib0.c"), nullptr);
  for (const ExportFile& f : replanned.files) {
    if (f.path.starts_with("sine/")) {
      EXPECT_EQ(f.data.find("tvmgen_default_"), std::string::npos) << f.path;
    }
  }
  const std::shared_ptr<const Selftest> selftest = input.exporter->selftest();
  ASSERT_TRUE(selftest);
  std::string missing;
  if (!selftest->target_available("host", &missing)) GTEST_SKIP() << "no host compiler: " << missing;
  const ExportBundle original = input.exporter->original(eo);
  EXPECT_EQ(selftest->obstacle(original, SelftestOptions{}), "");
  const fs::path work = fs::temp_directory_path() / "usmpx-module-names-selftest";
  fs::remove_all(work);
  const std::vector<SelftestResult> results = selftest->run(original, replanned, {"host"}, work.string(), {});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].same) << results[0].verdict << "\n" << results[0].replanned.log;
  EXPECT_EQ(results[0].replanned.log.find("undefined reference"), std::string::npos) << results[0].replanned.log;
  ASSERT_EQ(results[0].replanned.outputs.size(), 2u);
  EXPECT_EQ(results[0].replanned.outputs[0].first, "letscope/StatefulPartitionedCall_0");
  EXPECT_EQ(results[0].replanned.outputs[1].first, "sine/output");
  fs::remove_all(work);
}

}  // namespace
}  // namespace usmpx
