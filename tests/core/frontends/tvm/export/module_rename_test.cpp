// Renaming a TVM module on export, as `tvmc --module-name` would have named it: two real outputs
// compiled with the default name ("default") can then be linked into one firmware.
#include "frontends/tvm/export/module_rename.h"

#include <gtest/gtest.h>

#include "export/export_error.h"
#include "frontends/tvm/export/harness/tvm_selftest.h"
#include "frontends/tvm/export/mlf_export.h"
#include "mlf_bundle_support.h"
#include "test_support.h"

namespace usmpx {
namespace {

TEST(ModuleRename, NamesFilesAndMetadataAsModuleNameWouldHave) {
  ExportBundle b;
  b.put("codegen/host/include/tvmgen_default.h",
        "#ifndef TVMGEN_DEFAULT_H_\n#define TVMGEN_DEFAULT_INPUT_SIZE 5\nstruct tvmgen_default_inputs { void* "
        "serving_default_input_1_0; };\n");
  b.put("codegen/host/src/default_lib0.c",
        "#include <tvmgen_default.h>\nint32_t tvmgen_default_run(struct tvmgen_default_inputs* i) {\n"
        "  return tvmgen_default___tvm_main__(i->serving_default_input_1_0); }\n");
  b.put("metadata.json",
        "{\n  \"modules\": {\n    \"default\": {\n      \"model_name\": \"default\",\n      \"memory\": "
        "{\"functions\": {\"operator_functions\": [{\"function_name\": \"tvmgen_default_fused_add\"}]}}\n    }\n  "
        "},\n  \"version\": 7\n}\n");
  b.put("parameters/default.params", std::string("\0\1default", 9));
  b.put("src/default.relay", "def @main(%serving_default_input_1: Tensor[(5), int8])\n");
  b.put("harness/Makefile", "MODEL_SRCS := $(ROOT)/codegen/host/src/default_lib0.c\n");
  b.changed = {"harness/Makefile"};
  rename_tvm_module(b, "default", "sine");
  EXPECT_EQ(b.find("codegen/host/include/tvmgen_default.h"), nullptr);
  ASSERT_NE(b.find("codegen/host/include/tvmgen_sine.h"), nullptr);
  EXPECT_EQ(b.find("codegen/host/include/tvmgen_sine.h")->data,
            "#ifndef TVMGEN_SINE_H_\n#define TVMGEN_SINE_INPUT_SIZE 5\nstruct tvmgen_sine_inputs { void* "
            "serving_default_input_1_0; };\n");
  ASSERT_NE(b.find("codegen/host/src/sine_lib0.c"), nullptr);
  EXPECT_EQ(b.find("codegen/host/src/sine_lib0.c")->data,
            "#include <tvmgen_sine.h>\nint32_t tvmgen_sine_run(struct tvmgen_sine_inputs* i) {\n"
            "  return tvmgen_sine___tvm_main__(i->serving_default_input_1_0); }\n");
  EXPECT_EQ(b.find("metadata.json")->data,
            "{\n  \"modules\": {\n    \"sine\": {\n      \"model_name\": \"sine\",\n      \"memory\": "
            "{\"functions\": {\"operator_functions\": [{\"function_name\": \"tvmgen_sine_fused_add\"}]}}\n    }\n  },\n"
            "  \"version\": 7\n}\n");
  ASSERT_NE(b.find("parameters/sine.params"), nullptr);
  EXPECT_EQ(b.find("parameters/sine.params")->data, std::string("\0\1default", 9));  // bytes kept
  EXPECT_NE(b.find("src/sine.relay"), nullptr);
  EXPECT_EQ(b.find("harness/Makefile")->data, "MODEL_SRCS := $(ROOT)/codegen/host/src/sine_lib0.c\n");
  EXPECT_EQ(b.changed, (std::vector<std::string>{"codegen/host/include/tvmgen_sine.h", "codegen/host/src/sine_lib0.c",
                                                 "harness/Makefile", "metadata.json", "parameters/sine.params",
                                                 "src/sine.relay"}));
}

TEST(ModuleRename, AnExportOfTheSharedArchiveUnderAnotherNameBuildsAndComputesTheSame) {
  USMPX_REQUIRE_SHARED(tar, "mlf/sine_aot_v5.tar");
  const MlfModel m = load_mlf_model(tar);
  ExportOptions eo;
  eo.harness = true;
  eo.module_name = "sine";
  const ExportBundle renamed = export_mlf(m, m.problem, testing::plan_with("best", m.problem), eo);
  for (const ExportFile& f : renamed.files) {
    EXPECT_EQ(f.data.find("tvmgen_default_"), std::string::npos) << f.path;
    EXPECT_EQ(f.data.find("TVMGEN_DEFAULT_"), std::string::npos) << f.path;
  }
  ASSERT_NE(renamed.find("codegen/host/src/sine_lib0.c"), nullptr);
  EXPECT_NE(renamed.find("codegen/host/src/sine_lib0.c")->data.find("tvmgen_sine_run_model"), std::string::npos);
  eo.module_name = "sine-2";
  EXPECT_THROW(export_mlf(m, m.problem, testing::plan_with("best", m.problem), eo), ExportError);
  std::string missing;
  if (!selftest_target_available("host", &missing)) GTEST_SKIP() << missing << " is not installed";
  testing::expect_same_outputs(testing::original_with_harness(m), renamed, {"host"}, "module-rename", "output", 4);
}

}  // namespace
}  // namespace usmpx
