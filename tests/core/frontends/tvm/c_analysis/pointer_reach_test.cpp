// How far a function defined in the model reaches through a pointer parameter, in the element type
// it reads through: TVM's Arm tensordot kernels take `uint32_t*` for int16 data and count 4-byte words.
#include "frontends/tvm/c_analysis/pointer_reach.h"

#include <gtest/gtest.h>

#include "frontends/tvm/c_analysis/clang_reader.h"

namespace usmpx {
namespace {

struct Parsed {
  std::string text;
  CProgram program;
};

Parsed parse(const std::string& body) {
  Parsed p;
  p.text = "#include <stdint.h>\n#include <string.h>\n" + body;
  CParseInput input;
  input.display_root = "m";
  input.sources.push_back({"default_lib1.c", p.text});
  p.program = parse_c_program(input);
  EXPECT_TRUE(p.program.diagnostics.empty()) << p.program.diagnostics.front().message;
  return p;
}

PointerReach reach(const Parsed& p, const std::string& function, int param, std::vector<ValueRange> args = {}) {
  const CFunction* f = p.program.find_function(function);
  EXPECT_NE(f, nullptr) << function;
  if (args.empty()) args.assign(f->params.size(), ValueRange::unknown());
  return parameter_reach(p.program, static_cast<int>(f - p.program.functions.data()), param, args);
}

// The shape of TVM's dual-int16 depthwise kernel (multi_channel_convolve) for a 10-pixel-wide
// tensor of 4 int16 channels: two channels per word, a row of 20 words.
const char* kDualInt16 = R"(
int32_t kernel_convolve_int16_w10_c4_kh3_kw3_abc(uint32_t *out, uint32_t *tensor, uint32_t *kernel) {
  uint32_t sum_c0 = 0;
  uint32_t sum_c1 = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      uint32_t tensor_c10 = *(tensor + j * 2 + i * 20);
      uint32_t kernel_c10 = *kernel++;
      sum_c0 += (tensor_c10 & 0xFFFF) * (kernel_c10 & 0xFFFF);
      sum_c1 += (tensor_c10 >> 16) * (kernel_c10 >> 16);
    }
  }
  out[0] = sum_c0;
  out[1] = sum_c1;
  return 0;
}
)";

TEST(PointerReach, WordsThroughPointerArithmeticAndStepsCountInTheCalleesElementType) {
  const Parsed p = parse(kDualInt16);
  const PointerReach out = reach(p, "kernel_convolve_int16_w10_c4_kh3_kw3_abc", 0);
  ASSERT_TRUE(out.bounded) << out.why;
  EXPECT_EQ(out.bytes, 8);  // out[0], out[1]
  EXPECT_TRUE(out.written);
  const PointerReach tensor = reach(p, "kernel_convolve_int16_w10_c4_kh3_kw3_abc", 1);
  ASSERT_TRUE(tensor.bounded) << tensor.why;
  EXPECT_EQ(tensor.bytes, (2 * 2 + 2 * 20 + 1) * 4);  // word 44 is the last read: 180 bytes
  EXPECT_FALSE(tensor.written);
  const PointerReach kernel = reach(p, "kernel_convolve_int16_w10_c4_kh3_kw3_abc", 2);
  ASSERT_TRUE(kernel.bounded) << kernel.why;
  EXPECT_EQ(kernel.bytes, 9 * 4);  // `*kernel++` nine times: 36 bytes, not one word more
}

TEST(PointerReach, LocalCopiesArgumentValuesCallsAndCopiesAreFollowed) {
  const Parsed p = parse(R"(
static void fill(int16_t* dst, int n) {
  for (int k = 0; k < n; ++k) dst[k] = 0;
}
int32_t kernel_copy(uint32_t *tensor, int32_t stride, int8_t* dst) {
  int16_t* halves = (int16_t*)tensor;
  uint32_t words[5];
  memcpy(words, tensor + stride, 5 * sizeof(uint32_t));
  fill(halves + 3, stride);
  dst[0] = (int8_t)words[0];
  return 0;
}
)");
  // stride 8: memcpy reads words 8..12 (bytes 32..51); fill writes int16 3..10 (bytes 6..21).
  const PointerReach r =
      reach(p, "kernel_copy", 0, {ValueRange::unknown(), ValueRange::exactly(8), ValueRange::unknown()});
  ASSERT_TRUE(r.bounded) << r.why;
  EXPECT_EQ(r.bytes, 52);
  EXPECT_TRUE(r.written);
  // Without the stride's value nothing bounds it.
  const PointerReach unknown = reach(p, "kernel_copy", 0);
  EXPECT_FALSE(unknown.bounded);
  EXPECT_NE(unknown.why.find("default_lib1.c:"), std::string::npos) << unknown.why;
}

TEST(PointerReach, WhatTheAnalysisCannotFollowIsUnbounded) {
  const Parsed p = parse(R"(
extern void vendor_kernel(uint32_t* p);
static uint32_t* kept;
int32_t stepped_until_zero(uint32_t *tensor) {
  int32_t sum = 0;
  while (*tensor != 0) sum += (int32_t)*tensor++;
  return sum;
}
int32_t handed_on(uint32_t *tensor) { vendor_kernel(tensor + 1); return 0; }
int32_t stored(uint32_t *tensor) { kept = tensor; return 0; }
int32_t read_before(uint32_t *tensor) { return (int32_t)tensor[-1]; }
)");
  const PointerReach loop = reach(p, "stepped_until_zero", 0);
  EXPECT_FALSE(loop.bounded);
  EXPECT_NE(loop.why.find("a pointer stepped in a loop whose count the analysis cannot bound"), std::string::npos)
      << loop.why;
  const PointerReach external = reach(p, "handed_on", 0);
  EXPECT_FALSE(external.bounded);
  EXPECT_NE(external.why.find("passed to 'vendor_kernel', whose code is not here"), std::string::npos) << external.why;
  const PointerReach escaped = reach(p, "stored", 0);
  EXPECT_FALSE(escaped.bounded);
  EXPECT_NE(escaped.why.find("stored where the analysis does not follow it"), std::string::npos) << escaped.why;
  const PointerReach before = reach(p, "read_before", 0);
  EXPECT_FALSE(before.bounded);
  EXPECT_NE(before.why.find("an access before the address it receives"), std::string::npos) << before.why;
}

}  // namespace
}  // namespace usmpx
