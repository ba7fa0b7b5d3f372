// usmpx with --tflm-version and --tflm-tree: the figure for an older TFLM (TFLM's own figures in
// ../shared/tflite/versions/tflm_versions.json), its refusals before any figure, the version read
// from a firmware's TFLM tree (test trees of the project's own making in tests/fixtures/tflm_trees).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

std::string last_line(const std::string& out) {
  const size_t end = out.size() - (out.ends_with('\n') ? 1 : 0);
  return out.substr(out.rfind('\n', end - 1) + 1, end - out.rfind('\n', end - 1) - 1);
}

TEST(CliTflmVersion, TheFigureIsTheVersionsOwn) {
  USMPX_REQUIRE_SHARED(model, "tflite/ops/models/MEAN_int8.tflite");
  // TFLM 2025-02-07 on x86-64: head 1,104 (one scratch buffer), smallest arena 1,760; 90b983c: 1,808.
  const CliRun old = run_usmpx({"plan", model, "--tflm-version", "2025-02-07", "--tflm-target", "x86-64", "--json"});
  ASSERT_EQ(old.code, 0) << old.err;
  const auto arena = nlohmann::json::parse(old.out)["tflm_arena"];
  EXPECT_EQ(arena["tflm_version"], "tflite-micro 2025-02-07 (ef64591)");
  EXPECT_EQ(arena["head_bytes"], 1104);
  EXPECT_EQ(arena["kTensorArenaSize_min_bytes"], 1760);
  EXPECT_EQ(arena["exact"], true);
  const CliRun now = run_usmpx({"plan", model, "--tflm-target", "x86-64"});
  EXPECT_EQ(last_line(now.out),
            "kTensorArenaSize = 1808 bytes (head 1136 + persistent 672, planning needs 1120; TFLM 90b983c, "
            "reference, x86-64)");
}

// ESP32-S3 with ESP-NN (esp-tflite-micro 1.4.0): the head holds ESP-NN's 29 scratch buffers
// (95,456 where the reference kernels need 55,296) and the recording's head + tail is the
// 122,684 of ../shared/tflite/tflm_esp_nn.json; a path the file does not cover is "at least".
TEST(CliTflmVersion, EspNnOnTheS3GivesTheExactFigure) {
  USMPX_REQUIRE_SHARED(model, "tflite/models/person_detect.tflite");
  const CliRun info = run_usmpx({"info", model, "--tflm-kernels", "esp_nn", "--tflm-target", "esp32s3"});
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_EQ(last_line(info.out),
            "kTensorArenaSize = 122572 bytes (head 95456 + persistent 27116, planning needs 32764; TFLM 90b983c, "
            "esp_nn, esp32s3; assumes the arena starts 16-byte aligned (an arena from heap_caps_malloc needs up to "
            "15 bytes more))");
  const CliRun json = run_usmpx({"plan", model, "--tflm-kernels", "esp_nn", "--tflm-target", "esp32s3", "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto arena = nlohmann::json::parse(json.out)["tflm_arena"];
  EXPECT_EQ(arena["head_bytes"], 95456);
  EXPECT_EQ(arena["tail_bytes"], 27228);
  EXPECT_EQ(arena["arena_bytes"], 122684);
  EXPECT_EQ(arena["exact"], true);
  USMPX_REQUIRE_SHARED(mult2, "tflite/ops/models/DEPTHWISE_CONV_2D_mult2_int8_perchannel.tflite");
  const CliRun other = run_usmpx({"info", mult2, "--tflm-kernels", "esp_nn", "--tflm-target", "esp32s3"});
  EXPECT_NE(last_line(other.out).find("kTensorArenaSize >= 3804 bytes"), std::string::npos) << other.out;
  EXPECT_NE(last_line(other.out).find("unverified: DEPTHWISE_CONV_2D INT8>INT8 per-channel esp_nn:s3-other"),
            std::string::npos)
      << other.out;
  const CliRun wrong = run_usmpx({"info", model, "--tflm-kernels", "esp_nn", "--tflm-target", "cortex-m"});
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.err.find("--tflm-kernels esp_nn with --tflm-target cortex-m"), std::string::npos) << wrong.err;
}

TEST(CliTflmVersion, WhatTheVersionRefusesGetsItsMessageAndNoFigure) {
  USMPX_REQUIRE_SHARED(model, "tflite/ops/models/FULLY_CONNECTED_int8_perchannel.tflite");
  const CliRun run = run_usmpx({"plan", model, "--tflm-version", "2024-05-29"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(
      run.out.find("refuses operator 0 of subgraph 0 (FULLY_CONNECTED) at AllocateTensors: its "
                   "FULLY_CONNECTED kernel does not take INT8>INT8 per-channel (TFLM: \"tensorflow/lite/micro/"
                   "kernels/fully_connected_common.cc FullyConnected per-channel quantization not yet supported."),
      std::string::npos)
      << run.out;
  EXPECT_EQ(last_line(run.out),
            "kTensorArenaSize: none: TFLM 2024-05-29, reference, cortex-m refuses this model at AllocateTensors "
            "(FULLY_CONNECTED; see the warning)");
  const CliRun check = run_usmpx({"check", model, "--tflm-version", "2024-05-29"});
  EXPECT_EQ(check.code, 1) << check.out;
  // 2023-06-30 runs it (without per-channel arrays), 2025-02-07 as 90b983c does.
  EXPECT_EQ(run_usmpx({"check", model, "--tflm-version", "2023-06-30"}).code, 0);
  USMPX_REQUIRE_SHARED(reverse, "tflite/ops/models/REVERSE_V2_int8.tflite");
  const CliRun missing = run_usmpx({"plan", reverse, "--tflm-version", "2025-02-07"});
  EXPECT_NE(missing.out.find("it has no REVERSE_V2 kernel (TFLM: \"Didn't find op for builtin opcode 'REVERSE_V2'\")"),
            std::string::npos)
      << missing.out;
}

TEST(CliTflmVersion, TheTreeNamesTheVersionOrTheCommandStops) {
  USMPX_REQUIRE_SHARED(model, "tflite/ops/models/MEAN_int8.tflite");
  const std::string tree = testing::fixture_path("tflm_trees/2025-02-07");
  const CliRun run = run_usmpx({"plan", model, "--tflm-tree", tree, "--tflm-target", "x86-64"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("note: TFLM tree " + tree + ": its kernels are TFLM 2025-02-07 ("), std::string::npos)
      << run.out;
  EXPECT_EQ(last_line(run.out),
            "kTensorArenaSize = 1760 bytes (head 1104 + persistent 656, planning needs 928; TFLM 2025-02-07, "
            "reference, x86-64)");
  const CliRun unknown = run_usmpx({"plan", model, "--tflm-tree", testing::fixture_path("tflm_trees/facts_missing")});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("cannot tell: missing FULLY_CONNECTED's op data"), std::string::npos) << unknown.err;
  const CliRun bad = run_usmpx({"plan", model, "--tflm-version", "2022-01-01"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--tflm-version: '2022-01-01' is not one of 2023-06-30, 2024-05-29, 2025-02-07, 90b983c"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace usmpx
