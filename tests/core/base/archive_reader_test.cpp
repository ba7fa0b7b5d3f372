#include "base/archive_reader.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "archive_builder.h"
#include "base/input_error.h"

namespace usmpx {
namespace {

using testing::make_tar;
using testing::TarEntry;

const MemberFilter kAll = [](std::string_view) { return true; };

std::string error_of(const std::string& tar, const ArchiveLimits& limits = {}) {
  try {
    read_archive_bytes(tar, "model.tar", kAll, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ArchiveReader, ReadsMembersIntoMemoryWithoutDotSlash) {
  const std::string tar = make_tar({{"./", "", TarEntry::Type::kDirectory},
                                    {"./metadata.json", "{}"},
                                    {"./codegen/host/src/default_lib1.c", "int x;"},
                                    {"samples/input.h", "#define N 5\n"}});
  const ArchiveContents c =
      read_archive_bytes(tar, "model.tar", [](std::string_view p) { return p != "samples/input.h"; });
  EXPECT_EQ(c.members,
            (std::vector<std::string>{"metadata.json", "codegen/host/src/default_lib1.c", "samples/input.h"}));
  ASSERT_EQ(c.files.size(), 2u);
  EXPECT_EQ(c.files[0].path, "metadata.json");
  EXPECT_EQ(c.files[0].data, "{}");
  EXPECT_EQ(c.find("codegen/host/src/default_lib1.c")->data, "int x;");
  EXPECT_EQ(c.find("samples/input.h"), nullptr) << "listed but not read";
  EXPECT_EQ(c.declared_bytes, 2u + 6u + 12u);
}

TEST(ArchiveReader, ReadsGzipCompressedArchives) {
  const std::string tgz = make_tar({{"./metadata.json", std::string(5000, 'x')}}, true);
  ASSERT_LT(tgz.size(), 1000u) << "the test archive should really be compressed";
  const ArchiveContents c = read_archive_bytes(tgz, "model.tgz", kAll);
  ASSERT_EQ(c.files.size(), 1u);
  EXPECT_EQ(c.files[0].data, std::string(5000, 'x'));
}

TEST(ArchiveReader, RejectsMembersOutsideTheRoot) {
  EXPECT_EQ(error_of(make_tar({{"./../evil.c", "x"}})),
            "model.tar: member './../evil.c': path leaves the archive root");
  EXPECT_EQ(error_of(make_tar({{"codegen/../../evil.c", "x"}})),
            "model.tar: member 'codegen/../../evil.c': path leaves the archive root");
  EXPECT_EQ(error_of(make_tar({{"/etc/passwd", "x"}})),
            "model.tar: member '/etc/passwd': absolute paths are not accepted");
  EXPECT_EQ(normalize_member_path("./a//b/./c.c", "m.tar"), "a/b/c.c");
  EXPECT_EQ(normalize_member_path("./", "m.tar"), "");
}

TEST(ArchiveReader, RejectsLinksAndSpecialFiles) {
  EXPECT_EQ(error_of(make_tar({{"./metadata.json", "/etc/passwd", TarEntry::Type::kSymlink}})),
            "model.tar: member './metadata.json': links are not accepted in a model archive");
  EXPECT_EQ(error_of(make_tar({{"./a.c", "x"}, {"./b.c", "./a.c", TarEntry::Type::kHardlink}})),
            "model.tar: member './b.c': links are not accepted in a model archive");
}

TEST(ArchiveReader, RejectsAbsurdDeclaredSizesBeforeReading) {
  // 4 GiB declared by a header with no data behind it: refused from the header alone.
  const std::string tar = testing::make_tar_header_only("huge.bin", 4ull << 30);
  EXPECT_EQ(error_of(tar),
            "model.tar: member 'huge.bin': declares 4294967296 bytes, more than the limit of 268435456 bytes");
}

TEST(ArchiveReader, EnforcesMemberCountAndTotalLimits) {
  ArchiveLimits limits;
  limits.max_members = 3;
  const std::string four = make_tar({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}});
  EXPECT_EQ(error_of(four, limits), "model.tar: member 'd': more than 3 members");
  limits = {};
  limits.max_total_bytes = 10;
  EXPECT_EQ(error_of(make_tar({{"a", "123456"}, {"b", "123456"}})), "");
  EXPECT_EQ(error_of(make_tar({{"a", "123456"}, {"b", "123456"}}), limits),
            "model.tar: member 'b': members total more than the limit of 10 bytes");
  limits = {};
  limits.max_member_bytes = 4;
  EXPECT_EQ(error_of(make_tar({{"a", "123456"}}), limits),
            "model.tar: member 'a': declares 6 bytes, more than the limit of 4 bytes");
}

TEST(ArchiveReader, RejectsDuplicatesGarbageAndTruncation) {
  EXPECT_EQ(error_of(make_tar({{"./a.c", "1"}, {"a.c", "2"}})),
            "model.tar: member 'a.c': appears twice in the archive");
  EXPECT_EQ(error_of("this is not a tar archive at all, just some text"),
            "model.tar: not a readable tar archive: Unrecognized archive format");
  std::string tar = make_tar({{"./a.c", std::string(4000, 'a')}, {"./b.c", "b"}});
  tar.resize(1500);  // cut inside a.c's data
  EXPECT_NE(error_of(tar).find("model.tar: member './a.c': cannot read"), std::string::npos) << error_of(tar);
}

class FolderReader : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("usmpx_folder_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "codegen/host/src");
    std::ofstream(root_ / "metadata.json") << "{\"version\": 7}";
    std::ofstream(root_ / "codegen/host/src/default_lib0.c") << "int x;";
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
};

TEST_F(FolderReader, ReadsFilesInNameOrder) {
  const ArchiveContents c = read_folder(root_.string(), kAll);
  EXPECT_EQ(c.members, (std::vector<std::string>{"codegen/host/src/default_lib0.c", "metadata.json"}));
  EXPECT_EQ(c.find("metadata.json")->data, "{\"version\": 7}");
}

TEST_F(FolderReader, RejectsSymlinks) {
  std::filesystem::create_symlink("/etc/passwd", root_ / "codegen/host/src/default_lib1.c");
  try {
    read_folder(root_.string(), kAll);
    FAIL() << "a symlink was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              root_.string() + ": member 'codegen/host/src/default_lib1.c': links are not accepted in a model folder");
  }
}

}  // namespace
}  // namespace usmpx
