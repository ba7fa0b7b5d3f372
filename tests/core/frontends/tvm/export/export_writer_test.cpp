// Writing exports: deterministic archives in TVM's layout, folders replaced atomically, nothing
// overwritten without being asked, the input never touched.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/archive_reader.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "frontends/tvm/export/rewrite/text_edits.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

ExportBundle sample_bundle() {
  ExportBundle b;
  b.put("metadata.json", "{}");
  b.put("codegen/host/src/default_lib0.c", "int x;\n");
  b.put("codegen/host/include/tvmgen_default.h", "#pragma once\n");
  b.sort();
  return b;
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("usmpx-writer-test-" + name);
  fs::remove_all(p);
  return p;
}

TEST(BundleWriter, ArchivesAreDeterministicAndLaidOutLikeTvms) {
  const ExportBundle b = sample_bundle();
  for (bool gzip : {false, true}) {
    const std::string first = bundle_archive_bytes(b, gzip);
    EXPECT_EQ(first, bundle_archive_bytes(b, gzip));
    std::vector<std::string> names;
    const ArchiveContents back = read_archive_bytes(first, "x.tar", [&](std::string_view p) {
      names.emplace_back(p);
      return true;
    });
    EXPECT_EQ(back.members, (std::vector<std::string>{"codegen/host/include/tvmgen_default.h",
                                                      "codegen/host/src/default_lib0.c", "metadata.json"}));
    EXPECT_EQ(back.find("codegen/host/src/default_lib0.c")->data, "int x;\n");
  }
  // Entries carry TVM's "./" prefix and root ownership.
  const std::string tar = bundle_archive_bytes(b, false);
  EXPECT_EQ(tar.substr(0, 2), "./");
  EXPECT_NE(tar.find("root"), std::string::npos);
}

TEST(BundleWriter, FoldersAreRefusedUnlessEmptyOrForced) {
  const fs::path dir = fresh("folder");
  write_bundle(sample_bundle(), dir.string());
  EXPECT_TRUE(fs::exists(dir / "codegen/host/src/default_lib0.c"));
  EXPECT_THROW(write_bundle(sample_bundle(), dir.string()), ExportError);
  std::ofstream(dir / "stale.txt") << "old";
  write_bundle(sample_bundle(), dir.string(), {true});
  EXPECT_FALSE(fs::exists(dir / "stale.txt"));  // replaced whole, not merged
  EXPECT_TRUE(fs::exists(dir / "metadata.json"));
  // No temporary folder is left beside it.
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".usmpx-writer-test-folder.tmp"), std::string::npos);
  fs::remove_all(dir);
}

TEST(BundleWriter, TheInputIsNeverOverwritten) {
  const fs::path input = fresh("input.tar");
  { std::ofstream(input) << "original"; }
  EXPECT_THROW(write_bundle(sample_bundle(), input.string(), {true}, input.string()), ExportError);
  std::ifstream in(input);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "original");
  fs::remove(input);
}

TEST(TextEdits, ReplacementsApplyToTheOriginalRanges) {
  TextEdits e;
  const std::string text =
      "int f(int a, int b) {\n  x = alloc(8);\n  if (x == 0) {\n    return -1;\n  }\n  return 0;\n}\n";
  e.replace(6, 18, "int a, int b, uint8_t* p");
  const uint32_t at = static_cast<uint32_t>(text.find("alloc(8)"));
  e.replace(at, at + 8, "(&(p[16]))");
  const uint32_t check = static_cast<uint32_t>(text.find("if (x"));
  e.erase_statement(text, check, static_cast<uint32_t>(text.find("}\n  return 0")) + 1);
  EXPECT_EQ(e.apply(text), "int f(int a, int b, uint8_t* p) {\n  x = (&(p[16]));\n  return 0;\n}\n");
  TextEdits overlapping;
  overlapping.replace(0, 5, "a");
  overlapping.replace(3, 8, "b");
  EXPECT_THROW(overlapping.apply(text), std::logic_error);
}

}  // namespace
}  // namespace usmpx
