// Input that would overflow libclang's stack is kept away from it, with the position named.
#include "frontends/tvm/c_analysis/nesting_guard.h"

#include <gtest/gtest.h>

#include <string>

#include "frontends/tvm/c_analysis/clang_reader.h"
#include "test_support.h"

namespace usmpx {
namespace {

std::string repeat(const std::string& s, int n, const std::string& sep) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i ? sep : "") + s;
  return out;
}

TEST(NestingGuard, OrdinaryTvmCodePasses) {
  const std::string code =
      "// tvm target: c\n#define TVM_EXPORTS\n#include <math.h>\n"
      "static const int8_t w[4] = {\n    +0x01, -0x7f, +0x00, -0x02\n};\n"
      "int32_t f(int8_t* p0, int8_t* T) {\n  for (int32_t i = 0; i < 4; ++i) {\n"
      "    T[i] = (int8_t)((p0[i] * w[i]) >> 2);\n  }\n  if (p0[0] == 1) { T[0] = 0; } else if (p0[0] == 2) { T[0] = "
      "1; }\n"
      "  return 0;\n}\n";
  EXPECT_FALSE(find_excessive_c_nesting(code).has_value());
}

TEST(NestingGuard, LongOperatorChainsAreFoundAtTheirStatement) {
  const std::string code = "int f(int* p) {\n  int x = 1;\n  return " + repeat("p[0]", 5000, "+") + ";\n}\n";
  const auto finding = find_excessive_c_nesting(code);
  ASSERT_TRUE(finding.has_value());
  EXPECT_EQ(finding->offset, code.find("return"));
  EXPECT_EQ(finding->message, "a statement with more than 4000 operators");
  // Each item of a long initializer list is its own expression.
  const std::string data = "static const int8_t w[6000] = {" + repeat("-0x01", 6000, ", ") + "};\n";
  EXPECT_FALSE(find_excessive_c_nesting(data).has_value());
}

TEST(NestingGuard, ElseIfChainsAndMacroBombs) {
  const std::string chain = "void f(int a) {\n  if (a == 0) {}" + repeat(" else if (a == 1) {}", 4001, "") + "\n}\n";
  const auto c = find_excessive_c_nesting(chain);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->message, "an else-if chain of more than 4000 links");
  EXPECT_EQ(c->offset, chain.find("else"));
  // Each macro doubles the one before: 2^20 tokens from twenty short lines.
  std::string bomb = "#define M0 x+x\n";
  for (int i = 1; i <= 20; ++i)
    bomb += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + " + M" + std::to_string(i - 1) + "\n";
  bomb += "int f(int x) { return M20; }\n";
  const auto m = find_excessive_c_nesting(bomb);
  ASSERT_TRUE(m.has_value());
  EXPECT_NE(m->message.find("expands to more than 100000 tokens"), std::string::npos) << m->message;
  // A macro naming itself does not expand again.
  EXPECT_FALSE(find_excessive_c_nesting("#define A A + 1\nint g(void) { return A; }\n").has_value());
}

TEST(NestingGuard, TheParserLeavesTheFileOutWithAWarning) {
  const std::string deep = "int f(int* p) {\n  return " + repeat("p[0]", 30000, "+") + ";\n}\n";
  CParseInput input;
  input.sources.push_back({"codegen/host/src/default_lib1.c", deep});
  input.display_root = "model.tar";
  const CProgram program = parse_c_program(input);  // would crash inside libclang without the guard
  EXPECT_TRUE(program.functions.empty());
  ASSERT_EQ(program.diagnostics.size(), 1u);
  EXPECT_EQ(testing::located(program.diagnostics[0]),
            "model.tar/codegen/host/src/default_lib1.c:2:3: a statement with more than 4000 operators is beyond what "
            "the C analysis reads safely; the file is left out");
}

}  // namespace
}  // namespace usmpx
