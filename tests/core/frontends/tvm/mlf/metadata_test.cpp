#include "frontends/tvm/mlf/metadata.h"

#include <gtest/gtest.h>

#include "base/input_error.h"

namespace usmpx {
namespace {

std::string error_of(const std::string& text) {
  try {
    read_mlf_metadata(text, "m/metadata.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MlfMetadata, Version7ModulesInFileOrder) {
  const MlfMetadata m = read_mlf_metadata(R"({
  "modules": {
    "vision": {"executors": ["aot"], "model_name": "vision", "style": "full-model", "target": ["c -keys=cpu "],
               "memory": {"functions": {"main": [{"constants_size_bytes": 312, "device": 1, "io_size_bytes": 48,
                 "inputs": {"serving_default_input_1:0": {"dtype": "int8", "size": 5}},
                 "outputs": {"output": {"dtype": "float32", "size": 16}},
                 "workspace_size_bytes": 208}],
                 "operator_functions": [{"function_name": "tvmgen_vision_fused_add",
                                         "workspace": [{"device": 1, "workspace_size_bytes": 64}]}]}}},
    "audio": {"executors": ["aot"], "model_name": "audio", "style": "full-model", "target": ["c"]}
  },
  "version": 7
})",
                                          "metadata.json");
  EXPECT_EQ(m.version, 7);
  ASSERT_EQ(m.modules.size(), 2u);
  const MlfModuleMetadata& v = m.modules[0];
  EXPECT_EQ(v.name, "vision");
  EXPECT_EQ(m.modules[1].name, "audio");
  EXPECT_EQ(v.targets, std::vector<std::string>{"c -keys=cpu "});
  EXPECT_EQ(v.executors, std::vector<std::string>{"aot"});
  EXPECT_EQ(v.style, "full-model");
  EXPECT_EQ(v.workspace_size_bytes, 208);
  EXPECT_EQ(v.constants_size_bytes, 312);
  EXPECT_EQ(v.io_size_bytes, 48);
  ASSERT_EQ(v.inputs.size(), 1u);
  EXPECT_EQ(v.inputs[0].name, "serving_default_input_1:0");
  EXPECT_EQ(v.inputs[0].dtype, "int8");
  EXPECT_EQ(v.inputs[0].size_bytes, 5);
  EXPECT_EQ(v.outputs[0].size_bytes, 16);
  ASSERT_EQ(v.operators.size(), 1u);
  EXPECT_EQ(v.operators[0].function, "tvmgen_vision_fused_add");
  EXPECT_EQ(v.operators[0].workspace_size_bytes, 64);
  EXPECT_EQ(m.modules[1].workspace_size_bytes, -1);
}

TEST(MlfMetadata, FlatVersionsWithTargetMapsAndRuntimes) {
  const MlfMetadata v5 = read_mlf_metadata(
      R"({"executors": ["aot"], "memory": {"functions": {"main": [{"device": 1, "workspace_size_bytes": 1184}]}},
          "model_name": "default", "style": "full-model", "target": {"1": "c -keys=cpu -link-params=0"}, "version": 5})",
      "metadata.json");
  ASSERT_EQ(v5.modules.size(), 1u);
  EXPECT_EQ(v5.modules[0].name, "default");
  EXPECT_EQ(v5.modules[0].targets, std::vector<std::string>{"c -keys=cpu -link-params=0"});
  EXPECT_EQ(v5.modules[0].workspace_size_bytes, 1184);
  EXPECT_TRUE(v5.modules[0].inputs.empty());

  // v1: graph-executor sid list under "memory", "runtimes" instead of "executors", no style.
  const MlfMetadata v1 = read_mlf_metadata(
      R"({"export_datetime": "2021-03-10 10:00:00Z", "memory": [{"storage_id": 0, "size_bytes": 4}],
          "model_name": "net", "runtimes": ["graph"], "target": {"1": "llvm"}, "version": 1})",
      "metadata.json");
  EXPECT_EQ(v1.modules[0].name, "net");
  EXPECT_EQ(v1.modules[0].executors, std::vector<std::string>{"graph"});
  EXPECT_EQ(v1.modules[0].style, "");

  const MlfMetadata v6 =
      read_mlf_metadata(R"({"model_name": "m", "target": ["c", "llvm"], "version": 6})", "metadata.json");
  EXPECT_EQ(v6.modules[0].targets, (std::vector<std::string>{"c", "llvm"}));

  // Operator style (v7, no "modules" is not allowed; the per-function memory map is skipped).
  const MlfMetadata op = read_mlf_metadata(
      R"({"modules": {"default": {"model_name": "default", "style": "operator", "executors": [],
          "memory": {"add": [{"size_bytes": 4, "shape": [1], "dtype": "float32", "input_binding": "a"}]}, "target": ["c"]}},
          "version": 7})",
      "metadata.json");
  EXPECT_EQ(op.modules[0].style, "operator");
}

TEST(MlfMetadata, RejectsBadInputWithPositions) {
  EXPECT_EQ(error_of("{\"version\": 8}"), "m/metadata.json:1:13: unsupported MLF version 8 (expected 1 to 7)");
  EXPECT_EQ(error_of("{\"version\": \"7\"}"), "m/metadata.json:1:13: \"version\" must be an integer");
  EXPECT_EQ(error_of("[]"), "m/metadata.json:1:1: metadata.json: expected an object");
  EXPECT_EQ(error_of("{}"), "m/metadata.json:1:1: metadata.json has no \"version\"");
  EXPECT_EQ(error_of("{\"version\": 7}"), "m/metadata.json:1:1: MLF version 7 metadata needs a \"modules\" object");
  EXPECT_EQ(error_of("{\"version\": 7,\n \"modules\": {}}"), "m/metadata.json:2:13: \"modules\" is empty");
  EXPECT_EQ(error_of("{\"version\": 5, \"target\": 3}"),
            "m/metadata.json:1:26: \"target\" must be a list or an object of target strings");
  EXPECT_EQ(
      error_of("{\"version\": 5,\n \"memory\": {\"functions\": {\"main\": [{\"workspace_size_bytes\": \"big\"}]}}}"),
      "m/metadata.json:2:61: \"workspace_size_bytes\" must be an integer");
  EXPECT_NE(error_of("{\"version\": 7,").find("m/metadata.json:1:15: JSON syntax error"), std::string::npos)
      << error_of("{\"version\": 7,");
}

}  // namespace
}  // namespace usmpx
