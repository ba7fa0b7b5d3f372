// usmpx firmware new writes a starter file every command then opens; usmpx plan of it prints the
// per-model and joint figures and exits 1 when the shared arena does not fit.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/text_file.h"
#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::run_usmpx;

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx_cli_firmware_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

TEST(CliFirmware, NewWritesAStarterFileThatPlanOpens) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string wand = testing::shared_path("tflite/models/arduino_magic_wand.tflite");
  const std::string out = fresh_dir("new") + "/two.usmpx-firmware.json";
  const CliRun made = run_usmpx({"firmware", "new", kws, wand, "--sequence", "--out", out});
  ASSERT_EQ(made.code, 0) << made.err;
  EXPECT_NE(made.out.find("2 models, schedule sequence, shared pool \"arena\" (2 models)"), std::string::npos)
      << made.out;
  const auto file = nlohmann::json::parse(read_text_file(out));
  EXPECT_EQ(file["format"], "usmpx-firmware");
  EXPECT_EQ(file["models"][0]["name"], "kws_ref_model");
  EXPECT_EQ(file["models"][1]["family"], "tflite");
  EXPECT_EQ(file["memory"]["shared"][0]["name"], "arena");
  // Refuses to replace it without --force.
  EXPECT_EQ(run_usmpx({"firmware", "new", kws, wand, "--out", out}).code, 2);

  const CliRun plan = run_usmpx({"plan", out});
  EXPECT_EQ(plan.code, 0) << plan.err << plan.out;
  EXPECT_NE(plan.out.find("firmware: 2 models, schedule sequence"), std::string::npos) << plan.out;
  // Exact (both models' kernels are held to TFLM's figures): "=", as the header's USMPX_ARENA_SIZE.
  EXPECT_NE(plan.out.find("TFLM by itself (each model its own plan): kTensorArenaSize = 24,644 bytes"),
            std::string::npos)
      << plan.out;
  EXPECT_NE(plan.out.find("created in the order kws_ref_model, arduino_magic_wand"), std::string::npos);
  const CliRun json = run_usmpx({"plan", out, "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["firmware"]["tflm_arenas"][0]["tflm_own"]["head_bytes"], 16000);
  EXPECT_EQ(j["pools"][0]["name"], "arena");
  EXPECT_EQ(run_usmpx({"info", out}).code, 0);
}

// The file's "tflm" build reaches every model: ESP-NN on the ESP32-S3 gives each TFLite model the
// head ../shared/tflite/tflm_esp_nn.json holds (kws 28,688, magic wand 43,456), the larger TFLM's own.
TEST(CliFirmware, TheFilesTflmBuildIsEachModelsEspNnOnTheS3) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string wand = testing::shared_path("tflite/models/arduino_magic_wand.tflite");
  const std::string out = fresh_dir("esp_nn") + "/two.usmpx-firmware.json";
  ASSERT_EQ(run_usmpx({"firmware", "new", kws, wand, "--sequence", "--out", out}).code, 0);
  auto file = nlohmann::json::parse(read_text_file(out));
  file["tflm"] = {{"kernels", "esp_nn"}, {"target", "esp32s3"}};
  write_file_atomically(out, file.dump(2));
  const CliRun json = run_usmpx({"plan", out, "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto arena = nlohmann::json::parse(json.out)["firmware"]["tflm_arenas"][0];
  EXPECT_EQ(arena["kernels"], "esp_nn");
  EXPECT_EQ(arena["target"], "esp32s3");
  EXPECT_EQ(arena["tflm_own"]["head_bytes"], 43456);
}

TEST(CliFirmware, PlanExitsOneWhenTheSharedArenaIsTooSmall) {
  USMPX_REQUIRE_SHARED(kws, "tflite/models/kws_ref_model.tflite");
  const std::string dir = fresh_dir("small");
  const std::string path = dir + "/small.usmpx-firmware.json";
  write_file_atomically(path, R"({"format": "usmpx-firmware", "version": 1, "models": [{"path": ")" + kws +
                                  R"("}, {"path": ")" +
                                  testing::shared_path("tflite/models/arduino_magic_wand.tflite") +
                                  R"("}], "memory": {"shared": [{"name": "arena", "size_bytes": 20000}]}})");
  const CliRun plan = run_usmpx({"plan", path});
  EXPECT_EQ(plan.code, 1) << plan.err << plan.out;
  EXPECT_NE(plan.out.find("declared: 20,000 bytes, DOES NOT FIT"), std::string::npos) << plan.out;
}

TEST(CliFirmware, AMalformedFileExitsThreeWithItsPosition) {
  const std::string path = fresh_dir("bad") + "/bad.usmpx-firmware.json";
  write_file_atomically(
      path, "{\"format\": \"usmpx-firmware\", \"version\": 1,\n \"models\": [{\"path\": \"nowhere.tflite\"}]}");
  const CliRun plan = run_usmpx({"plan", path});
  EXPECT_EQ(plan.code, 3);
  EXPECT_NE(plan.err.find(path + ":2:13: no such file: "), std::string::npos) << plan.err;
}

TEST(CliFirmware, ExportWritesEveryModelAndTheHeaderAndSelftestRunsTheTvmPair) {
  const std::string fixture = testing::fixture_path("firmware/tvm_pair/tvm_pair.usmpx-firmware.json");
  const std::string out = fresh_dir("export") + "/out";
  fs::create_directories(out);
  const CliRun exported = run_usmpx({"export", fixture, "--out", out, "--algorithm", "greedy_by_size"});
  ASSERT_EQ(exported.code, 0) << exported.err << exported.out;
  EXPECT_TRUE(fs::exists(out + "/first/codegen/host/src/first_lib0.c"));
  EXPECT_TRUE(fs::exists(out + "/second/codegen/host/src/second_lib0.c"));
  EXPECT_NE(read_text_file(out + "/usmpx_firmware.c").find("uint8_t usmpx_firmware_global_workspace[208];"),
            std::string::npos);
  const CliRun selftest = run_usmpx({"selftest", fixture});
  EXPECT_EQ(selftest.code, 0) << selftest.err << selftest.out;
  EXPECT_NE(selftest.out.find("same outputs (2 modules run in order on the shared pools"), std::string::npos)
      << selftest.out;
}

}  // namespace
}  // namespace usmpx
