// Firmware trees: TVM's generated sources as firmware projects keep them, without metadata.json,
// in every layout seen in real projects (built here from this project's USMP-on fixtures), and
// the real CMSIS-NN model of ../shared/mlf/firmware.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "archive_builder.h"
#include "base/input_error.h"
#include "checks/as_built_check.h"
#include "frontends/tvm/mlf/firmware_tree.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "inputs/input_file.h"
#include "mlf_test_support.h"
#include "planners/common/validator.h"
#include "planners/registry.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::buffer_named;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The generated files of a fixture module, renamed to module `mod`.
struct ModuleFiles {
  std::string header;                                     // tvmgen_<mod>.h text
  std::vector<std::pair<std::string, std::string>> libs;  // <mod>_libN.c name and text
};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

ModuleFiles fixture_module(const std::string& fixture, const std::string& from, const std::string& mod) {
  const fs::path root = testing::fixture_path("mlf/" + fixture);
  auto rename = [&](std::string text) {
    text = replace_all(text, "tvmgen_" + from, "tvmgen_" + mod);
    text = replace_all(text, "TVMGEN_" + std::string(from == "default" ? "DEFAULT" : "MINI"),
                       "TVMGEN_" + std::string(mod == "kws"    ? "KWS"
                                               : mod == "mini" ? "MINI"
                                                               : "DEFAULT"));
    return text;
  };
  ModuleFiles m;
  m.header = rename(read_all(root / "codegen/host/include" / ("tvmgen_" + from + ".h")));
  for (const auto& entry : fs::directory_iterator(root / "codegen/host/src")) {
    const std::string name = entry.path().filename().string();
    m.libs.emplace_back(mod + name.substr(from.size()), rename(read_all(entry.path())));
  }
  std::sort(m.libs.begin(), m.libs.end());
  return m;
}

class FirmwareTrees : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("usmpx_fw_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void put(const std::string& rel, const std::string& text) {
    const fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  // The module's header into `include_dir` and its libraries into `src_dir`.
  void put_module(const ModuleFiles& m, const std::string& mod, const std::string& src_dir,
                  const std::string& include_dir) {
    put(include_dir + "tvmgen_" + mod + ".h", m.header);
    for (const auto& [name, text] : m.libs)
      put(src_dir + name, text);
  }
  std::string folder() const { return root_.string(); }

  fs::path root_;
};

// The fixture as TVM planned it: 9 buffers, as-built reproduced by greedy_by_size.
void expect_default_pools_model(const LoadedInput& in) {
  EXPECT_EQ(in.format, InputFormat::kFirmwareTree);
  EXPECT_EQ(in.problem.buffers.size(), 9u);
  ASSERT_TRUE(in.as_built) << (in.warnings.empty() ? "" : in.warnings.front().message);
  EXPECT_EQ(match_as_built(in.problem, *in.as_built).matching, 9);
  Plan built = *in.as_built;
  finish_plan(in.problem, built);
  EXPECT_FALSE(built.has_errors());
  ASSERT_TRUE(in.problem.find_pool("global_workspace"));
  EXPECT_EQ(built.pool_sizes[static_cast<size_t>(*in.problem.find_pool("global_workspace"))], 208);
}

TEST_F(FirmwareTrees, EveryLayoutOpens) {
  const ModuleFiles m = fixture_module("usmp_default_pools", "default", "default");
  const std::vector<std::pair<std::string, std::string>> layouts = {
      {"codegen/host/src/", "codegen/host/include/"},
      {"host/src/", "host/include/"},
      {"src/", "include/"},
      {"src/", "inc/"},
      {"", ""},
      {"project/model/codegen/host/src/", "project/model/codegen/host/include/"},
  };
  for (const auto& [src, inc] : layouts) {
    SCOPED_TRACE(src + " + " + inc);
    fs::remove_all(root_);
    put_module(m, "default", src, inc);
    put("project/app/main.c", "int main(void) { return 0; }\n");  // the application's own code
    EXPECT_EQ(recognise_input(folder()), InputFormat::kFirmwareTree);
    expect_default_pools_model(load_input(folder()));
    // The same tree as an archive.
    const fs::path tar = root_.parent_path() / (root_.filename().string() + ".tar");
    std::ofstream(tar, std::ios::binary) << testing::make_tar(testing::folder_entries(folder()));
    EXPECT_EQ(recognise_input(tar.string()), InputFormat::kFirmwareTree);
    expect_default_pools_model(load_input(tar.string()));
    fs::remove(tar);
  }
}

TEST_F(FirmwareTrees, SeveralModulesSideBySideAndModuleNamesOtherThanDefault) {
  put_module(fixture_module("usmp_default_pools", "default", "kws"), "kws", "codegen/kws/src/", "codegen/kws/include/");
  put_module(fixture_module("usmp_external_pools", "mini", "mini"), "mini", "codegen/mini/src/",
             "codegen/mini/include/");
  EXPECT_EQ(input_modules(folder()), (std::vector<std::string>{"kws", "mini"}));
  LoadOptions kws;
  kws.module = "kws";
  const LoadedInput a = load_input(folder(), kws);
  EXPECT_EQ(a.problem.buffers.size(), 9u);
  ASSERT_TRUE(a.as_built);
  LoadOptions mini;
  mini.module = "mini";
  const LoadedInput b = load_input(folder(), mini);
  ASSERT_TRUE(b.as_built);
  EXPECT_TRUE(b.problem.find_pool("sram")) << "the external pools of the mini fixture";
  LoadOptions none;
  none.module = "nope";
  try {
    load_input(folder(), none);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), folder() + ": no module 'nope' (modules: kws, mini)");
  }
}

TEST_F(FirmwareTrees, TheModuleIsReadBesideItsHeaderAndCopiesAreLeftAside) {
  const ModuleFiles m = fixture_module("usmp_default_pools", "default", "default");
  put_module(m, "default", "model/src/", "model/include/");
  put("build/stale/default_lib1.c", "int broken(;\n");  // a lone copy without its lib0
  const MlfPackage p = read_mlf(folder());
  EXPECT_FALSE(p.has_metadata);
  ASSERT_EQ(p.firmware.modules.size(), 1u);
  EXPECT_EQ(p.firmware.modules[0].header, "model/include/tvmgen_default.h");
  EXPECT_EQ(p.firmware.modules[0].sources,
            (std::vector<std::string>{"model/src/default_lib0.c", "model/src/default_lib1.c"}));
  ASSERT_EQ(p.firmware.ignored.size(), 1u);
  EXPECT_EQ(
      p.firmware.ignored[0],
      "another copy of module 'default' in build/stale (1 files) is left aside; the module is read from model/src");
}

TEST_F(FirmwareTrees, NeitherKindListsWhatEachKindLooksLike) {
  put("notes/readme.txt", "nothing generated here\n");
  try {
    recognise_input(folder());
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown input kind"), std::string::npos) << what;
    EXPECT_NE(what.find("Model Library Format: a .tar, .tar.gz or .tgz archive, or a folder, with metadata.json"),
              std::string::npos);
  }
}

TEST(FirmwareTreeNames, RuntimeVersionAndLibraryOrder) {
  EXPECT_EQ(tvm_version_in_runtime_header("#ifndef X\n#define TVM_VERSION \"0.10.dev0\"\n#endif\n"), "0.10.dev0");
  EXPECT_FALSE(tvm_version_in_runtime_header("// #define TVM_VERSION \"1\"\n#define TVM_VERSIONS \"2\"\n"));
  EXPECT_TRUE(is_firmware_member("a/b/tvmgen_kws.h"));
  EXPECT_TRUE(is_firmware_member("kws_lib12.c"));
  EXPECT_FALSE(is_firmware_member("kws_library.c"));
  EXPECT_FALSE(is_firmware_member("tvmgen_.h"));
  const FirmwareLayout l = find_firmware_modules(
      {"inc/tvmgen_a.h", "src/a_lib10.c", "src/a_lib2.c", "src/a_lib0.c", "src/ab_lib0.c", "inc/tvmgen_b.h"});
  ASSERT_EQ(l.modules.size(), 1u) << "b has no library files";
  EXPECT_EQ(l.modules[0].sources, (std::vector<std::string>{"src/a_lib0.c", "src/a_lib2.c", "src/a_lib10.c"}));
}

}  // namespace
}  // namespace usmpx
