// The firmware file: what it holds, how it is written back, and the precise errors of its reader.
#include <gtest/gtest.h>

#include "base/input_error.h"
#include "inputs/firmware/firmware_file.h"

namespace usmpx {
namespace {

const char* const kGood = R"({
  "format": "usmpx-firmware", "version": 1,
  "schedule": "sequence",
  "models": [
    {"name": "first", "path": "models/hello.tflite"},
    {"name": "second", "path": "/abs/hello.tflite", "family": "tflite"}
  ],
  "passed": [{"from": "first", "output": "t9", "to": "second", "input": "t0"}],
  "memory": {"shared": [{"name": "arena", "size_bytes": 4096}],
             "private": []},
  "tflm": {"kernels": "cmsis_nn", "version": "2024-05-29"}
})";

std::string error_of(const std::string& text) {
  try {
    parse_firmware_text(text, "fw.usmpx-firmware.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FirmwareFile, ReadsModelsScheduleTensorsPassedAndSharedPools) {
  const FirmwareSpec spec = parse_firmware_text(kGood, "dir/fw.usmpx-firmware.json");
  ASSERT_EQ(spec.models.size(), 2u);
  EXPECT_EQ(spec.models[0].name, "first");
  EXPECT_EQ(spec.models[0].resolved_path, "dir/models/hello.tflite");
  EXPECT_EQ(spec.models[1].resolved_path, "/abs/hello.tflite");
  EXPECT_EQ(spec.models[1].family, "tflite");
  EXPECT_EQ(spec.models[1].where.line, 6);
  EXPECT_EQ(spec.schedule, FirmwareSchedule::kSequence);
  ASSERT_EQ(spec.passed.size(), 1u);
  EXPECT_EQ(spec.passed[0].output, "t9");
  EXPECT_EQ(spec.passed[0].input, "t0");
  ASSERT_EQ(spec.shared.size(), 1u);
  EXPECT_EQ(spec.shared[0].size_bytes, 4096);
  // No members given: every model's pool of the shared pool's name.
  ASSERT_EQ(spec.shared[0].members.size(), 2u);
  EXPECT_EQ(spec.shared[0].members[1], (std::pair<std::string, std::string>{"second", "arena"}));
  EXPECT_EQ(spec.tflm_kernels, "cmsis_nn");
  EXPECT_EQ(spec.tflm_version, "2024-05-29");
}

TEST(FirmwareFile, WrittenTextReadsBackTheSame) {
  const FirmwareSpec spec = parse_firmware_text(kGood, "fw.usmpx-firmware.json");
  const std::string text = firmware_file_text(spec);
  const FirmwareSpec again = parse_firmware_text(text, "fw.usmpx-firmware.json");
  EXPECT_EQ(firmware_file_text(again), text);
  EXPECT_EQ(again.models.size(), 2u);
  EXPECT_EQ(again.passed.size(), 1u);
  EXPECT_EQ(again.shared[0].members.size(), 2u);
  EXPECT_EQ(again.shared[0].size_bytes, 4096);
  EXPECT_EQ(again.tflm_version, "2024-05-29");
}

TEST(FirmwareFile, ErrorsSayWhereAndWhat) {
  EXPECT_EQ(error_of(R"({"format": "usmpx-firmware", "version": 2, "models": []})"),
            "fw.usmpx-firmware.json:1:41: unsupported version (expected 1)");
  EXPECT_EQ(error_of("{\"format\": \"usmpx-firmware\", \"version\": 1,\n \"models\": [{\"path\": \"a.tflite\"}],\n"
                     " \"schedule\": \"parallel\"}"),
            "fw.usmpx-firmware.json:3:14: unknown schedule \"parallel\" (sequence, exclusive, concurrent)");
  EXPECT_EQ(error_of("{\"format\": \"usmpx-firmware\", \"version\": 1,\n \"models\": [{\"path\": \"a.tflite\"},\n"
                     "  {\"path\": \"x/a.tflite\"}]}"),
            "fw.usmpx-firmware.json:3:3: duplicate model name \"a\"");
  // Passing a tensor needs a sequence, and a later model.
  EXPECT_EQ(error_of("{\"format\": \"usmpx-firmware\", \"version\": 1, \"schedule\": \"exclusive\",\n"
                     " \"models\": [{\"path\": \"a.tflite\"}, {\"path\": \"b.tflite\"}],\n"
                     " \"passed\": [{\"from\": \"a\", \"output\": \"o\", \"to\": \"b\", \"input\": \"i\"}]}"),
            "fw.usmpx-firmware.json:3:13: a tensor passes without a copy only in a sequence (the schedule is "
            "exclusive)");
  EXPECT_EQ(error_of("{\"format\": \"usmpx-firmware\", \"version\": 1,\n"
                     " \"models\": [{\"path\": \"a.tflite\"}, {\"path\": \"b.tflite\"}],\n"
                     " \"passed\": [{\"from\": \"b\", \"output\": \"o\", \"to\": \"a\", \"input\": \"i\"}]}"),
            "fw.usmpx-firmware.json:3:48: \"a\" does not run after \"b\" in the sequence");
  EXPECT_EQ(error_of("{\"format\": \"usmpx-firmware\", \"version\": 1,\n"
                     " \"models\": [{\"path\": \"a.tflite\"}],\n"
                     " \"memory\": {\"shared\": [{\"name\": \"arena\", \"members\": {\"z\": \"arena\"}}]}}"),
            "fw.usmpx-firmware.json:3:59: no model named \"z\"");
  EXPECT_EQ(error_of(R"({"format": "usmpx-firmware", "version": 1, "models": [], "extra": 1})"),
            "fw.usmpx-firmware.json:1:67: unknown key \"extra\"");
}

TEST(FirmwareFile, RecognisedByNameOrFormat) {
  EXPECT_TRUE(looks_like_firmware_file("a/b.usmpx-firmware.json", ""));
  EXPECT_TRUE(looks_like_firmware_file("b.json", R"({"format": "usmpx-firmware"})"));
  EXPECT_FALSE(looks_like_firmware_file("b.json", R"({"format": "usmpx-problem"})"));
}

}  // namespace
}  // namespace usmpx
