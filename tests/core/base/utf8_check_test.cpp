#include "base/utf8_check.h"

#include <gtest/gtest.h>

#include "base/input_error.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "frontends/tvm/usmp/tir_input.h"

namespace usmpx {
namespace {

TEST(Utf8Check, AcceptsAsciiAndEveryWellFormedLength) {
  EXPECT_EQ(first_invalid_utf8(""), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("sid_1 = T.allocate"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("\xC2\xB5s \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"), std::nullopt);
}

TEST(Utf8Check, FindsTheFirstBadByte) {
  EXPECT_EQ(first_invalid_utf8("ab\xFF"), 2u);                 // never a lead byte
  EXPECT_EQ(first_invalid_utf8("a\x80"), 1u);                  // lone continuation
  EXPECT_EQ(first_invalid_utf8("\xC0\x80"), 0u);               // overlong NUL
  EXPECT_EQ(first_invalid_utf8("x\xE0\x80\x80"), 1u);          // overlong three-byte form
  EXPECT_EQ(first_invalid_utf8("\xED\xA0\x80"), 0u);           // UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xF4\x90\x80\x80"), 0u);       // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("ok \xE2\x82"), 3u);            // truncated at the end
  EXPECT_EQ(first_invalid_utf8("\xE2\x82\xAC\xE2(\xAC"), 3u);  // second byte not a continuation
}

TEST(Utf8Check, ErrorNamesLineAndColumnOfTheByte) {
  try {
    require_utf8("line one\nab\x8E\n", "model.py");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.location().column, 3);
    EXPECT_STREQ(e.what(), "model.py:2:3: invalid UTF-8 (byte 0x8E); the file must be UTF-8 text");
  }
}

// Found by fuzzing tir_export: a Latin-1 byte in a target string reached metadata.json, whose
// writer cannot encode it. The readers now refuse such text with its position.
TEST(Utf8Check, TextReadersRefuseInvalidUtf8) {
  EXPECT_THROW((void)read_minimalloc_csv("id,lower,upper,size\n\xFF"
                                         "a,0,2,16\n",
                                         "in.csv"),
               InputError);
  const std::string tir = "@T.prim_func\ndef f(a: T.handle):\n    T.func_attr({\"target\": \"\xE9\"})\n";
  try {
    (void)analyze_tir_dump(tir, "in.py", InputFormat::kTvmScript, LoadOptions{});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().line, 3);
  }
}

}  // namespace
}  // namespace usmpx
