#include "base/text_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace usmpx {
namespace {

std::string printed(const TextTable& table) {
  std::ostringstream out;
  table.print(out);
  return out.str();
}

TEST(TextTable, AlignmentLettersAreThePairsColumns) {
  TextTable letters({"pool", "bytes", "note"}, "lrl");
  TextTable pairs(
      {{"pool", TextTable::Align::kLeft}, {"bytes", TextTable::Align::kRight}, {"note", TextTable::Align::kLeft}});
  for (TextTable* t : {&letters, &pairs}) {
    t->add_row({"sram", "1,024", "-"});
    t->add_row({"flash_memory", "16", "constants"});
  }
  EXPECT_EQ(printed(letters),
            "pool          bytes  note\n"
            "sram          1,024  -\n"
            "flash_memory     16  constants\n");
  EXPECT_EQ(printed(letters), printed(pairs));
}

TEST(TextTable, OneAlignmentLetterPerColumn) {
  EXPECT_THROW(TextTable({"pool", "bytes"}, "l"), std::logic_error);
}

}  // namespace
}  // namespace usmpx
