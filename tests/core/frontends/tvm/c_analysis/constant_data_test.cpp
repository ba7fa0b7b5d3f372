#include "frontends/tvm/c_analysis/constant_data.h"

#include <gtest/gtest.h>

#include "frontends/tvm/c_analysis/clang_reader.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string data_row(int n) {
  std::string row;
  for (int i = 0; i < n; ++i)
    row += (i % 2 ? "-0x1.4p+2, " : "+0x7f, ");
  return row;
}

TEST(ConstantData, BlanksLargeLiteralInitializersKeepingOffsets) {
  const std::string data = "\n    " + data_row(200) + "\n    " + data_row(200) + "\n";
  const std::string src =
      "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
      "static const int8_t __attribute__((section(\".rodata.tvm\"), aligned(16))) w[400] = {" +
      data +
      "};\n#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n"
      "int32_t f(int8_t* p) { int8_t small[2] = {1, 2}; return p[0]; }\n";
  const std::string out = blank_constant_data(src);
  ASSERT_EQ(out.size(), src.size());
  const size_t open = src.find("= {") + 2;
  const size_t close = src.find("};");
  EXPECT_EQ(out.substr(0, open + 1), src.substr(0, open + 1));
  EXPECT_EQ(out.substr(close), src.substr(close));
  for (size_t i = open + 1; i < close; ++i)
    EXPECT_EQ(out[i], src[i] == '\n' ? '\n' : ' ') << i;
}

TEST(ConstantData, LeavesWhatItMustNotTouch) {
  const std::string big = data_row(300);
  // No written-out extent: clearing would change the array's size.
  const std::string unsized = "static const float w[] = {" + big + "};\n";
  EXPECT_EQ(blank_constant_data(unsized), unsized);
  // Not pure data.
  const std::string cast = "static const float w[300] = {(float)1, " + big + "};\n";
  EXPECT_EQ(blank_constant_data(cast), cast);
  // Inside a function body.
  const std::string local = "void f(void) { static const float w[600] = {" + big + "}; }\n";
  EXPECT_EQ(blank_constant_data(local), local);
  // Small groups are not worth it.
  const std::string small = "static const int8_t w[2] = {1, 2};\n";
  EXPECT_EQ(blank_constant_data(small), small);
  // A brace in a comment or a string does not confuse the lexer.
  const std::string tricky = "/* { */ static const char* s = \"{\"; // }\nstatic const int w[600] = {" + big + "};\n";
  EXPECT_NE(blank_constant_data(tricky), tricky);
  EXPECT_EQ(blank_constant_data(tricky).size(), tricky.size());
}

TEST(ConstantData, NestedGroupsOfAConstantPoolStruct) {
  const std::string big = data_row(300);
  const std::string src =
      "static struct pool {\n  float a_let[300] __attribute__((aligned(16)));\n} pool = {\n  .a_let = {\n" + big +
      "\n  },\n};\n";
  const std::string out = blank_constant_data(src);
  EXPECT_NE(out, src);
  EXPECT_NE(out.find(".a_let = {"), std::string::npos);
  EXPECT_EQ(out.find("0x"), std::string::npos);
}

// The real 2 MB operator file reads the same with and without its weights shown to clang.
TEST(ConstantData, LetscopeModelIsTheSameEitherWay) {
  USMPX_REQUIRE_SHARED(path, "mlf/letscope_v7.tar");
  auto package = std::make_shared<const MlfPackage>(read_mlf(path));
  const MlfModule module = select_module(*package, "");
  CParseInput fast = mlf_parse_input(*package, module);
  CParseInput full = fast;
  full.skip_constant_data = false;
  const CProgram a = parse_c_program(fast);
  const CProgram b = parse_c_program(full);
  ASSERT_EQ(a.globals.size(), b.globals.size());
  for (size_t i = 0; i < a.globals.size(); ++i) {
    EXPECT_EQ(a.globals[i].name, b.globals[i].name);
    EXPECT_EQ(a.globals[i].type_bytes, b.globals[i].type_bytes) << a.globals[i].name;
    EXPECT_EQ(a.globals[i].range, b.globals[i].range) << a.globals[i].name;
  }
  ASSERT_EQ(a.functions.size(), b.functions.size());
  for (size_t i = 0; i < a.functions.size(); ++i)
    EXPECT_EQ(a.functions[i].body_range, b.functions[i].body_range);
  EXPECT_TRUE(a.diagnostics.empty());
  const MlfModel ma = analyse_mlf(package, module, parse_c_program(fast), {});
  const MlfModel mb = analyse_mlf(package, module, parse_c_program(full), {});
  EXPECT_EQ(ma.problem, mb.problem);
}

}  // namespace
}  // namespace usmpx
