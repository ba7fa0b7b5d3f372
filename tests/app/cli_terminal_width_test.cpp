// `usmpx info` in a terminal: the buffer table keeps to the terminal's width (COLUMNS, the tty's
// width, else 100) by eliding long names in the middle; --json keeps every name whole.
#include <cstdlib>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/text_table.h"
#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

using testing::CliRun;
using testing::run_usmpx;

// Characters shown (UTF-8 code points) of the widest line of the tables: from the buffer table's
// header to the end (the input's own tables, TFLite's operators and tensors, follow it), rows only
// (the headings and the arena figure are sentences).
size_t widest_buffer_line(const std::string& out, std::string* table = nullptr) {
  std::istringstream lines(out);
  std::string line;
  bool in_table = false;
  size_t widest = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("  buffer ", 0) == 0) in_table = true;
    if (!in_table || line.rfind("  ", 0) != 0) continue;  // table rows are indented, headings are not
    size_t shown = 0;
    for (char c : line)
      shown += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    widest = std::max(widest, shown);
    if (table) *table += line + "\n";
  }
  return widest;
}

class ScopedColumns {
 public:
  explicit ScopedColumns(const char* value) {
    if (const char* old = std::getenv("COLUMNS")) old_ = old;
    if (value) {
      setenv("COLUMNS", value, 1);
    } else {
      unsetenv("COLUMNS");
    }
  }
  ~ScopedColumns() {
    if (old_.empty()) {
      unsetenv("COLUMNS");
    } else {
      setenv("COLUMNS", old_.c_str(), 1);
    }
  }

 private:
  std::string old_;
};

TEST(CliTerminalWidth, InfoElidesLongTensorNamesToTheTerminal) {
  USMPX_REQUIRE_SHARED(model, "tflite/models/kws_ref_model.tflite");  // names of 258 characters
  std::string longest;
  {
    const CliRun json = run_usmpx({"info", model, "--json"});
    ASSERT_EQ(json.code, 0) << json.err;
    const nlohmann::json info = nlohmann::json::parse(json.out);
    for (const auto& b : info["buffers"]) {
      const std::string name = b["name"];
      if (name.size() > longest.size()) longest = name;
    }
  }
  ASSERT_GT(longest.size(), 80u);  // TFLite's long names, whole in --json
  {
    const ScopedColumns columns("100");
    const CliRun run = run_usmpx({"info", model});
    ASSERT_EQ(run.code, 0) << run.err;
    std::string table;
    EXPECT_LE(widest_buffer_line(run.out, &table), 100u) << table;
    EXPECT_NE(table.find("\u2026"), std::string::npos) << table;  // names cut in the middle
    EXPECT_EQ(table.find(longest), std::string::npos);
    // The start and the end of the longest name are kept around the cut.
    EXPECT_NE(table.find(longest.substr(0, 8)), std::string::npos) << table;
    EXPECT_NE(table.find(longest.substr(longest.size() - 6)), std::string::npos) << table;
  }
  {
    const ScopedColumns columns("400");
    const CliRun run = run_usmpx({"info", model});
    std::string table;
    EXPECT_GT(widest_buffer_line(run.out, &table), 100u);
    EXPECT_NE(table.find(longest), std::string::npos);  // room for the whole name
  }
  {
    const ScopedColumns columns(nullptr);  // not a terminal (the test's output is a string): 100
    const CliRun run = run_usmpx({"info", model});
    EXPECT_LE(widest_buffer_line(run.out), 100u);
  }
}

TEST(CliTerminalWidth, TextTableElidesOnlyTheColumnsItMay) {
  TextTable table({{"name", TextTable::Align::kLeft}, {"size", TextTable::Align::kRight}});
  table.add_row({"model/sequential/conv2d/Conv2D;model/sequential/conv2d/BiasAdd", "1,024"});
  table.add_row({"in", "16"});
  table.fit_width(30, {0});
  std::ostringstream out;
  table.print(out, "  ");
  // Too narrow for any elision to help: the names stay whole.
  TextTable narrow = table;
  narrow.fit_width(10, {0});
  std::ostringstream whole;
  narrow.print(whole);
  EXPECT_NE(whole.str().find("model/sequential/conv2d/Conv2D;model/sequential/conv2d/BiasAdd"), std::string::npos);
  EXPECT_EQ(out.str(),
            "  name                    size\n"
            "  model/sequ\u20262d/BiasAdd  1,024\n"
            "  in                        16\n");
}

}  // namespace
}  // namespace usmpx
