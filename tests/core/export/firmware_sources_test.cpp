// export/firmware_sources: the files a firmware compiles of a model file, and the rule that a
// figure that is only a lower bound never appears under the exact name. Also the writer's errors
// when a target cannot be written: the path and the cause, never "Success".
#include "export/firmware_sources.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;

TEST(FirmwareSources, IdentifiersAreCppNames) {
  EXPECT_EQ(cpp_identifier("person-detect.v2"), "person_detect_v2");
  EXPECT_EQ(cpp_identifier("2nd"), "m_2nd");
  EXPECT_EQ(cpp_identifier("kws_ref_model"), "kws_ref_model");
  ExportOptions options;
  EXPECT_EQ(model_sources_name(options, "/models/hello world.tflite"), "hello_world");
  options.model_name = "first";
  EXPECT_EQ(model_sources_name(options, "/models/hello world.tflite"), "first");
}

TEST(FirmwareSources, AnExactFigureHasItsNameALowerBoundDoesNot) {
  FirmwareFigure f;
  f.name = "kTensorArenaSize";
  f.type = "int";
  f.value = "1596";
  f.comment = {"The tensor arena."};
  f.basis = "TFLM 90b983c, reference, cortex-m, the best plan";
  EXPECT_EQ(figure_declaration(f), "// The tensor arena.\n// Exact (usmpx " USMPX_VERSION
                                   "; TFLM 90b983c, reference, cortex-m, the best plan).\n"
                                   "constexpr int kTensorArenaSize = 1596;\n");
  f.exact = false;
  f.basis = "b";
  f.unknown = {"PAD x3"};
  const std::string bound = figure_declaration(f, "  ");
  EXPECT_EQ(bound.find("kTensorArenaSize ="), std::string::npos) << bound;
  EXPECT_NE(bound.find("  constexpr int kTensorArenaSizeAtLeast = 1596;\n"), std::string::npos) << bound;
  EXPECT_NE(bound.find("  // AT LEAST this many bytes, not an exact figure (usmpx " USMPX_VERSION
                       "; b): it does not count PAD x3."),
            std::string::npos)
      << bound;
}

TEST(FirmwareSources, TheModelBecomesAnAlignedArrayOfItsBytesAndAMemoryHeader) {
  ExportBundle bundle = ExportBundle::model_file("/in/net.tflite", std::string("\x1c\0\0\0TFL3\xff", 9), true);
  bundle.summary = "what was written";
  ModelSourcesSpec spec;
  spec.name = "net";
  spec.section = ".rodata.model";
  spec.provenance = {"From net.tflite."};
  spec.limits = {"Holds for one interpreter."};
  spec.figures = "constexpr int kTensorArenaSize = 64;\n";
  add_model_sources(bundle, spec);
  EXPECT_FALSE(bundle.single_file);
  EXPECT_EQ(bundle.summary, "what was written");
  ASSERT_EQ(bundle.files.size(), 4u);
  EXPECT_EQ(bundle.files[0].path, "net.tflite");
  EXPECT_EQ(bundle.files[1].path, "net_memory.h");
  EXPECT_EQ(bundle.files[2].path, "net_model_data.cc");
  EXPECT_EQ(bundle.files[3].path, "net_model_data.h");
  EXPECT_EQ(bundle.changed.size(), 4u);
  const std::string& source = bundle.files[2].data;
  EXPECT_NE(
      source.find("#include \"net_model_data.h\"\n\nalignas(16) const unsigned char net_model_data[net_model_data_len]"
                  "\n    __attribute__((section(\".rodata.model\"))) = {\n    0x1c, 0x00, 0x00, 0x00, 0x54, 0x46, "
                  "0x4c, 0x33, 0xff,\n};\n"),
      std::string::npos)
      << source;
  const std::string& header = bundle.files[3].data;
  EXPECT_NE(header.find("inline constexpr unsigned int net_model_data_len = 9;\n"
                        "alignas(16) extern const unsigned char net_model_data[net_model_data_len];\n"),
            std::string::npos)
      << header;
  const std::string& memory = bundle.files[1].data;
  EXPECT_EQ(memory.rfind("// net_memory.h: written by usmpx " USMPX_VERSION, 0), 0u) << memory;
  EXPECT_NE(memory.find("// From net.tflite.\n"), std::string::npos);
  EXPECT_NE(memory.find("// - Holds for one interpreter.\n"), std::string::npos);
  EXPECT_NE(memory.find("namespace net {\n\nconstexpr int kTensorArenaSize = 64;\n}  // namespace net\n"),
            std::string::npos)
      << memory;
}

TEST(FirmwareSources, ASectionNameThatIsNotOneIsRefused) {
  ExportBundle bundle = ExportBundle::model_file("net.tflite", "x", true);
  ModelSourcesSpec spec;
  spec.name = "net";
  spec.section = ".data\"))) int x; //";
  EXPECT_THROW(add_model_sources(bundle, spec), ExportError);
}

TEST(BundleWriterErrors, ReplacingAFolderWithAFileNamesThePathAndTheCause) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-bundle-writer-errors";
  fs::remove_all(dir);
  fs::create_directories(dir / "model.tflite");
  try {
    write_file_atomically((dir / "model.tflite").string(), "bytes");
    FAIL() << "a folder was replaced by a file";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot replace " + (dir / "model.tflite").string() + ": it is a folder ("), std::string::npos)
        << what;
    EXPECT_EQ(what.find("Success"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

TEST(BundleWriterErrors, AMissingParentIsMadeAndATrailingSlashNamesTheFolder) {
  const fs::path dir = fs::temp_directory_path() / "usmpx-bundle-writer-parents";
  fs::remove_all(dir);
  ExportBundle bundle;
  bundle.put("a.h", "// a\n");
  write_bundle(bundle, (dir / "x" / "gen").string() + "/");
  EXPECT_EQ(read_text_file((dir / "x" / "gen" / "a.h").string()), "// a\n");
  // A file where the parent folder should be: the error names it and says why.
  std::ofstream(dir / "file") << "not a folder";
  try {
    write_bundle(bundle, (dir / "file" / "gen").string());
    FAIL() << "wrote below a file";
  } catch (const ExportError& e) {
    const std::string what = e.what();
    EXPECT_NE(
        what.find("cannot create the folder " + (dir / "file").string() + " for " + (dir / "file" / "gen").string()),
        std::string::npos)
        << what;
    EXPECT_EQ(what.find("Success"), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

TEST(SystemErrorText, AZeroErrnoIsNoReason) {
  EXPECT_EQ(system_error_text(0), "no reason given by the system");
  EXPECT_EQ(system_error_text(ENOENT), "No such file or directory");
}

}  // namespace
}  // namespace usmpx
