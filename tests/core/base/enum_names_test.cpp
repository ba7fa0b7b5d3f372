#include "base/enum_names.h"

#include <gtest/gtest.h>

namespace usmpx {
namespace {

enum class Colour { kRed, kGreen, kBlue };

constexpr EnumName<Colour> kColourNames[] = {
    {Colour::kRed, "red"}, {Colour::kGreen, "green"}, {Colour::kGreen, "verde"}};

TEST(EnumNames, TheFirstRowOfAValueIsWrittenEveryRowIsRead) {
  EXPECT_EQ(name_of(kColourNames, Colour::kRed), "red");
  EXPECT_EQ(name_of(kColourNames, Colour::kGreen), "green");
  EXPECT_EQ(value_named(kColourNames, "verde"), Colour::kGreen);
  EXPECT_EQ(value_named(kColourNames, "green"), Colour::kGreen);
}

TEST(EnumNames, AValueWithoutARowHasNoNameAndAnUnknownWordNoValue) {
  EXPECT_EQ(name_of(kColourNames, Colour::kBlue), "");
  EXPECT_EQ(value_named(kColourNames, "blue"), std::nullopt);
  EXPECT_EQ(value_named(kColourNames, "Red"), std::nullopt);  // words are matched exactly
}

struct LabelledColour {
  Colour value;
  std::string_view name;
  std::string_view label = {};
};
constexpr LabelledColour kLabelled[] = {{Colour::kRed, "red", "Red (warm)"}, {Colour::kRed, "rouge"}};

TEST(EnumNames, AnyRowWithAValueAndANameServesAndItsFirstRowSaysTheRest) {
  ASSERT_NE(row_of(kLabelled, Colour::kRed), nullptr);
  EXPECT_EQ(row_of(kLabelled, Colour::kRed)->label, "Red (warm)");
  EXPECT_EQ(row_of(kLabelled, Colour::kBlue), nullptr);
  EXPECT_EQ(value_named(kLabelled, "rouge"), Colour::kRed);
  EXPECT_EQ(name_of(kLabelled, Colour::kRed), "red");
}

static_assert(name_of(kColourNames, Colour::kGreen) == "green", "usable in constant expressions");

}  // namespace
}  // namespace usmpx
