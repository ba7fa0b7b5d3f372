#include <gtest/gtest.h>

#include "base/input_error.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"

namespace usmpx {
namespace {

struct ErrorCase {
  const char* what;
  bool tvmscript;
  std::string source;
  std::string expected;  // file:line:column: message
};

std::string error_of(const ErrorCase& c) {
  try {
    if (c.tvmscript) {
      read_tvmscript(c.source, "e.py");
    } else {
      read_legacy_tir(c.source, "e.txt");
    }
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string parens(int n) {
  return std::string(static_cast<size_t>(n), '(') + "0" + std::string(static_cast<size_t>(n), ')');
}

TEST(TirSyntaxErrors, EveryKindNamesItsPosition) {
  const std::string f = "@T.prim_func\ndef f():\n";
  const std::string fa = "@T.prim_func\ndef f(a: T.handle):\n    A = T.match_buffer(a, (4,), \"int8\")\n";
  const std::vector<ErrorCase> cases = {
      // TVMScript: characters, strings, layout.
      {"character", true, f + "    x = $\n", "e.py:3:9: unexpected character '$'"},
      {"string", true, f + "    T.func_attr({\"a: 1})\n", "e.py:3:18: unterminated string"},
      {"tab", true, f + "\tT.evaluate(0)\n", "e.py:3:1: tab in indentation (indent with spaces)"},
      {"unindent", true, f + "    if True:\n        T.evaluate(0)\n      T.evaluate(1)\n",
       "e.py:5:7: unindent does not match any outer indentation level"},
      {"indent", true, f + "    T.evaluate(0)\n        T.evaluate(1)\n", "e.py:4:9: unexpected indentation"},
      // TVMScript: grammar and names.
      {"expected", true, fa + "    for i in range(4)\n        A[i] = T.int8(0)\n",
       "e.py:4:22: expected ':' after the loop header, got end of line"},
      {"parameter type", true, "@T.prim_func\ndef f(a):\n    T.evaluate(0)\n",
       "e.py:2:8: expected ':' and a type after parameter 'a', got ')'"},
      {"undefined", true, fa + "    A[0] = q\n", "e.py:4:12: undefined name 'q'"},
      {"dtype", true, f + "    x = T.allocate([4], \"int7x\", \"global\")\n", "e.py:3:25: unknown dtype 'int7x'"},
      {"literal", true, f + "    T.evaluate(99999999999999999999)\n",
       "e.py:3:16: integer literal 99999999999999999999 is too large"},
      {"assignment", true, "@T.prim_func\ndef f(n: T.int32):\n    n + 1 = 2\n",
       "e.py:3:5: only buffer elements can be assigned, e.g. A[i] = ..."},
      {"match_buffer", true, fa + "    B = T.match_buffer(A.data, (4,), \"int8\")\n",
       "e.py:4:24: T.match_buffer expects a parameter of the function"},
      {"nesting", true, f + "    T.evaluate" + parens(300) + "\n", "e.py:3:269: nesting deeper than 256 levels"},
      {"duplicate", true, f + "    T.evaluate(0)\n" + f + "    T.evaluate(1)\n", "e.py:5:1: duplicate function 'f'"},
      {"empty", true, "x = 1\n",
       "e.py:1:1: no @T.prim_func function found (expected TVMScript with @I.ir_module or @T.prim_func)"},
      // Legacy text.
      {"character", false, "@f = primfn() -> () {\n  x = $\n}\n", "e.txt:2:7: unexpected character '$'"},
      {"string", false, "@f = primfn() -> ()\n  attr = {\"a: 1} {\n}\n", "e.txt:2:11: unterminated string"},
      {"expected", false,
       "@f = primfn(a: handle) -> ()\n  attr = {} {\n  for (i: int32, 0, 4) \n    @tir.call_extern(\"g\", "
       "dtype=int32)\n  }\n}\n",
       "e.txt:4:5: expected '{' to open the loop body, got '@'"},
      {"section", false, "@f = primfn() -> (); @g",
       "e.txt:1:20: expected 'attr', 'buffers', 'buffer_map' or the body '{', got ';'"},
      {"semicolon", false,
       "@f = primfn() -> () {\n  allocate(x: Pointer(global int8), int8, [4]), storage_scope = global\n  "
       "@tir.nop(dtype=int32)\n}\n",
       "e.txt:3:3: expected ';' or '{' after the statement header, got '@'"},
      {"undefined", false, "@f = primfn() -> () {\n  @tir.call_extern(\"g\", y, dtype=int32)\n}\n",
       "e.txt:2:25: undefined name 'y'"},
      {"suffix", false, "@f = primfn() -> () {\n  @tir.call_extern(\"g\", 5i7x, dtype=int32)\n}\n",
       "e.txt:2:25: unknown dtype suffix 'i7x'"},
      {"unclosed", false,
       "@f = primfn() -> () {\n  allocate(x: Pointer(global int8), int8, [4]), storage_scope = global {\n    "
       "@tir.call_extern(\"g\", x, "
       "dtype=int32)\n",
       "e.txt:4:1: expected '}' to close the block opened at line 2, got end of file"},
      {"nameless", false, "primfn() -> () {\n  @tir.nop(dtype=int32)\n}\n",
       "e.txt:1:1: function without a name (no '@name =' prefix and no \"global_symbol\" attribute)"},
      {"nesting", false, "@f = primfn() -> () {\n  @tir.nop(" + parens(300) + ", dtype=int32)\n}\n",
       "e.txt:2:265: nesting deeper than 256 levels"},
  };
  for (const ErrorCase& c : cases)
    EXPECT_EQ(error_of(c), c.expected) << c.what;
}

TEST(TirSyntaxErrors, ExpressionsDeeperThanTheAnalysesAcceptAreRefused) {
  // 1100 additions in a row make a left-deep tree 1100 levels deep; the error points at the first
  // node found beyond level 1000 (the index of the 103rd A[1]).
  std::string script = "@T.prim_func\ndef f(a: T.handle):\n    A = T.match_buffer(a, (4,), \"int8\")\n    A[0] = A[1]";
  std::string legacy =
      "@f = primfn(a: handle) -> ()\n  buffers = {A: Buffer(A_1: Pointer(global int8), int8, [4], [])}\n"
      "  buffer_map = {a: A} {\n  A[0] = A[1]";
  for (int i = 0; i < 1100; ++i) {
    script += " + A[1]";
    legacy += " + A[1]";
  }
  script += "\n";
  legacy += "\n}\n";
  EXPECT_EQ(error_of({"script", true, script, ""}),
            "e.py:4:735: statements and expressions nested more than 1000 levels deep in function 'f'");
  EXPECT_EQ(error_of({"legacy", false, legacy, ""}),
            "e.txt:4:733: statements and expressions nested more than 1000 levels deep in function 'f'");
}

TEST(TirSyntaxErrors, LongAllocationChainsAreNotNesting) {
  // Each allocate encloses the rest of its block, so 5000 of them nest 5000 deep; the walkers
  // follow such chains in a loop, and the readers accept them.
  std::string script = "@T.prim_func\ndef f():\n";
  std::string legacy = "@f = primfn() -> () {\n";
  for (int i = 0; i < 5000; ++i) {
    script += "    x" + std::to_string(i) + " = T.allocate([1], \"int8\", \"global\")\n";
    legacy += "  allocate(x" + std::to_string(i) + ": Pointer(global int8), int8, [1]), storage_scope = global;\n";
  }
  script += "    T.evaluate(0)\n";
  legacy += "  @tir.nop(dtype=int32)\n}\n";
  EXPECT_EQ(error_of({"script", true, script, ""}), "no error");
  EXPECT_EQ(error_of({"legacy", false, legacy, ""}), "no error");
}

TEST(TirSyntaxErrors, LongFlatInputIsFine) {
  // Many statements side by side are not nesting.
  std::string script = "@T.prim_func\ndef f(a: T.handle):\n    A = T.match_buffer(a, (4,), \"int8\")\n";
  for (int i = 0; i < 5000; ++i)
    script += "    A[0] = A[1] + T.int8(" + std::to_string(i % 100) + ")\n";
  EXPECT_EQ(error_of({"flat", true, script, ""}), "no error");
}

}  // namespace
}  // namespace usmpx
