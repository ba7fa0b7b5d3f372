#include "base/json_locator.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

using Pointer = nlohmann::json::json_pointer;

TEST(JsonLocator, FindsValuesOfEveryShape) {
  const std::string text = "{\"a\": [10, \"x\\\"y\", true, {\"b\": null}],\n  \"c\": -1.5e3}";
  EXPECT_EQ(locate_json_value(text, Pointer("/a"), "f").column, 7);
  EXPECT_EQ(locate_json_value(text, Pointer("/a/0"), "f").column, 8);
  EXPECT_EQ(locate_json_value(text, Pointer("/a/1"), "f").column, 12);
  EXPECT_EQ(locate_json_value(text, Pointer("/a/2"), "f").column, 20);
  EXPECT_EQ(locate_json_value(text, Pointer("/a/3/b"), "f").column, 32);
  const SourceLocation c = locate_json_value(text, Pointer("/c"), "f");
  EXPECT_EQ(c.line, 2);
  EXPECT_EQ(c.column, 8);
}

TEST(JsonLocator, MissingValuesPointAtTheDeepestExistingParent) {
  const std::string text = "{\"a\": {\"b\": 1}}";
  EXPECT_EQ(locate_json_value(text, Pointer("/a/zz"), "f").column, 7);
}

}  // namespace
}  // namespace usmpx
