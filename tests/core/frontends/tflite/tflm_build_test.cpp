// The TFLM build's option words (frontends/tflite/tflm_build.cpp): every kernel set and target
// the menus offer is written and read back by the same word, the other spellings users type are
// read, and each has a menu label of its own.
#include "frontends/tflite/tflm_build.h"

#include <gtest/gtest.h>

#include <set>

#include "frontends/frontend.h"

namespace usmpx {
namespace {

TEST(TflmBuild, EveryOfferedKernelSetAndTargetReadsBackAsItself) {
  const RuntimeBuilds builds = tflm_runtime_builds();
  ASSERT_EQ(builds.kernels.size(), 3u);
  ASSERT_EQ(builds.targets.size(), 6u);
  std::set<std::string> labels;
  for (const std::string& k : builds.kernels) {
    const auto parsed = parse_tflm_kernels(k);
    ASSERT_TRUE(parsed) << k;
    EXPECT_EQ(to_string(*parsed), k);
    labels.insert(builds.label(k));
  }
  for (const std::string& t : builds.targets) {
    const auto parsed = parse_tflm_target(t);
    ASSERT_TRUE(parsed) << t;
    EXPECT_EQ(to_string(*parsed), t);
    labels.insert(builds.label(t));
  }
  EXPECT_EQ(labels.size(), 9u);  // no two options share a label
  EXPECT_TRUE(labels.count("CMSIS-NN Kernels (Cortex-M4/M7/M33, DSP)"));
  EXPECT_TRUE(labels.count("ESP32 with esp-nn's C Fallback"));
}

TEST(TflmBuild, OtherSpellingsReadAsTheirValueAndAreWrittenTheUsualWay) {
  EXPECT_EQ(parse_tflm_kernels("cmsis-nn"), TflmKernels::kCmsisNn);
  EXPECT_EQ(parse_tflm_kernels("esp-nn"), TflmKernels::kEspNn);
  EXPECT_EQ(parse_tflm_target("x86_64"), TflmTarget::kX86_64);
  EXPECT_EQ(parse_tflm_target("esp32-s3"), TflmTarget::kEsp32S3);
  for (const char* chip : {"esp32s2", "esp32-s2", "esp32c3", "esp32-c3", "esp32c6", "esp32-c6"})
    EXPECT_EQ(parse_tflm_target(chip), TflmTarget::kEsp32) << chip;
  EXPECT_EQ(to_string(TflmTarget::kX86_64), "x86-64");
  EXPECT_EQ(to_string(TflmKernels::kCmsisNn), "cmsis_nn");
  EXPECT_EQ(parse_tflm_kernels("CMSIS_NN"), std::nullopt);
  EXPECT_EQ(parse_tflm_target("esp32p4"), std::nullopt);  // the P4 is not modelled
}

}  // namespace
}  // namespace usmpx
