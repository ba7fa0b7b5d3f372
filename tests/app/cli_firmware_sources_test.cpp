// usmpx export MODEL --out DIR for model files (.tflite, .pte) and a firmware file of two .tflite:
// the folder is made, it holds the planned copy, the copy as a C++ array byte for byte, and the
// memory header with the figures `usmpx info --json` gives of that copy; a non-empty or read-only
// target is refused naming the path and the cause.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/text_file.h"
#include "cli_run.h"
#include "test_support.h"

namespace usmpx {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::run_usmpx;

// A fresh scratch folder (removed first), unique per test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("usmpx-firmware-sources-" + name);
  fs::remove_all(dir);
  return dir;
}

// The bytes of the array a <name>_model_data.cc defines.
std::string array_bytes(const std::string& source) {
  const size_t open = source.find("= {");
  EXPECT_NE(open, std::string::npos) << source.substr(0, 400);
  std::string bytes;
  const std::regex hex("0x([0-9a-f]{2}),");
  const std::string body = source.substr(open);
  for (std::sregex_iterator it(body.begin(), body.end(), hex), end; it != end; ++it)
    bytes += static_cast<char>(std::stoi((*it)[1].str(), nullptr, 16));
  return bytes;
}

// The value of `constexpr <type> <name> = <value>;` in `header` ("" when absent).
std::string constant(const std::string& header, const std::string& name) {
  const std::regex declaration("constexpr [a-z:_ ]+ " + name + " = ([^;]+);");
  std::smatch m;
  return std::regex_search(header, m, declaration) ? m[1].str() : "";
}

nlohmann::json info_json(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"info"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back("--json");
  const CliRun run = run_usmpx(all);
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  return nlohmann::json::parse(run.out);
}

std::string tflite_example() {
  return testing::source_path("resources/examples/tiny_classifier.tflite");
}

TEST(CliFirmwareSources, TfliteFolderIsMadeWithCopyArrayAndArenaOfTheBuild) {
  const fs::path root = scratch("tflite");
  const fs::path out = root / "gen" / "tiny";  // neither folder exists yet
  const CliRun run = run_usmpx({"export", tflite_example(), "--out", out.string() + "/", "--tflm-kernels", "cmsis_nn",
                                "--model-section", ".rodata.models"});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(out))
    files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"tiny_classifier.tflite", "tiny_classifier_memory.h",
                                             "tiny_classifier_model_data.cc", "tiny_classifier_model_data.h"}));
  const std::string copy = read_text_file((out / "tiny_classifier.tflite").string());
  const std::string source = read_text_file((out / "tiny_classifier_model_data.cc").string());
  const std::string data_header = read_text_file((out / "tiny_classifier_model_data.h").string());
  EXPECT_EQ(array_bytes(source), copy);
  EXPECT_EQ(constant(data_header, "tiny_classifier_model_data_len"), std::to_string(copy.size()));
  EXPECT_NE(data_header.find("alignas(16) extern const unsigned char tiny_classifier_model_data["), std::string::npos);
  EXPECT_NE(source.find("alignas(16) const unsigned char tiny_classifier_model_data["), std::string::npos);
  EXPECT_NE(source.find("__attribute__((section(\".rodata.models\")))"), std::string::npos);

  // The arena the header gives is the one info gives of the planned copy for the same build.
  const std::string memory = read_text_file((out / "tiny_classifier_memory.h").string());
  const auto arena = info_json({(out / "tiny_classifier.tflite").string(), "--tflm-kernels", "cmsis_nn"})["tflm_arena"];
  ASSERT_TRUE(arena["exact"].get<bool>()) << arena.dump();
  EXPECT_EQ(constant(memory, "kTensorArenaSize"), std::to_string(arena["kTensorArenaSize_min_bytes"].get<int64_t>()));
  EXPECT_NE(memory.find("TFLM " + arena["tflm_version"].get<std::string>().substr(13) + ", cmsis_nn, cortex-m"),
            std::string::npos)
      << memory;
  EXPECT_NE(memory.find("usmpx " USMPX_VERSION), std::string::npos);
  EXPECT_NE(memory.find("static_assert(sizeof(void*) == 4"), std::string::npos);
  EXPECT_NE(memory.find("interpreter.arena_used_bytes()"), std::string::npos);
  EXPECT_NE(memory.find("ESP-NN, Ethos-U"), std::string::npos);

  // Another build, another figure: the x86-64 header holds x86-64's.
  const CliRun host =
      run_usmpx({"export", tflite_example(), "--out", out.string(), "--force", "--tflm-target", "x86-64"});
  ASSERT_EQ(host.code, 0) << host.out;
  const auto host_arena =
      info_json({(out / "tiny_classifier.tflite").string(), "--tflm-target", "x86-64"})["tflm_arena"];
  const std::string host_memory = read_text_file((out / "tiny_classifier_memory.h").string());
  EXPECT_EQ(constant(host_memory, "kTensorArenaSize"),
            std::to_string(host_arena["kTensorArenaSize_min_bytes"].get<int64_t>()));
  EXPECT_NE(constant(host_memory, "kTensorArenaSize"), constant(memory, "kTensorArenaSize"));
  EXPECT_EQ(read_text_file((out / "tiny_classifier_model_data.cc").string()).find("__attribute__"), std::string::npos);
  fs::remove_all(root);
}

TEST(CliFirmwareSources, AFileOfTheInputsExtensionIsTheCopyAlone) {
  const fs::path root = scratch("copy");
  const CliRun run = run_usmpx({"export", tflite_example(), "--out", (root / "a" / "planned.tflite").string()});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_TRUE(fs::is_regular_file(root / "a" / "planned.tflite"));
  EXPECT_EQ(std::distance(fs::directory_iterator(root / "a"), fs::directory_iterator()), 1);
  fs::remove_all(root);
}

TEST(CliFirmwareSources, ExecuTorchHeaderHoldsEachMethodsBuffersAndAllocator) {
  const fs::path out = scratch("pte");
  const std::string pte = testing::source_path("resources/examples/six_step_chain.pte");
  const CliRun run = run_usmpx({"export", pte, "--algorithm", "best", "--time-limit", "0.5", "--out", out.string()});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const std::string copy = read_text_file((out / "six_step_chain.pte").string());
  EXPECT_EQ(array_bytes(read_text_file((out / "six_step_chain_model_data.cc").string())), copy);
  const std::string memory = read_text_file((out / "six_step_chain_memory.h").string());
  const auto methods = info_json({(out / "six_step_chain.pte").string()})["executorch"]["methods"];
  ASSERT_EQ(methods.size(), 1u);
  const auto& m = methods[0];
  EXPECT_NE(memory.find("namespace " + m["name"].get<std::string>() + " {"), std::string::npos) << memory;
  const auto planned = m["planned_buffer_bytes"];
  EXPECT_EQ(constant(memory, "kPlannedBufferCount"), std::to_string(planned.size()));
  ASSERT_FALSE(planned.empty());
  for (size_t i = 0; i < planned.size(); ++i)
    EXPECT_EQ(constant(memory, "kPlannedBuffer" + std::to_string(i + 1) + "Bytes"),
              std::to_string(planned[i].get<int64_t>()));
  const auto& alloc = m["method_allocator"];
  ASSERT_TRUE(alloc["cortex-m"]["exact"].get<bool>());
  EXPECT_EQ(constant(memory, "kMethodAllocatorBytes"),
            "sizeof(void*) == 4 ? " + std::to_string(alloc["cortex-m"]["bytes"].get<int64_t>()) + " : " +
                std::to_string(alloc["x86-64"]["bytes"].get<int64_t>()));
  EXPECT_EQ(constant(memory, "kUnplannedInputOutputBytes"), std::to_string(m["unplanned_io_bytes"].get<int64_t>()));
  EXPECT_NE(memory.find("ExecuTorch cff6f4dd"), std::string::npos);
  EXPECT_NE(memory.find("the best plan"), std::string::npos);
  fs::remove_all(out);
}

TEST(CliFirmwareSources, ADelegatesMethodAllocatorIsOnlyDeclaredAtLeast) {
  USMPX_REQUIRE_SHARED(pte, "executorch/models/xnnpack_quantized.pte");
  const fs::path out = scratch("delegate");
  const CliRun run = run_usmpx({"export", pte, "--out", out.string()});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const std::string memory = read_text_file((out / "xnnpack_quantized_memory.h").string());
  const auto alloc =
      info_json({(out / "xnnpack_quantized.pte").string()})["executorch"]["methods"][0]["method_allocator"];
  ASSERT_FALSE(alloc["cortex-m"]["exact"].get<bool>());
  EXPECT_EQ(constant(memory, "kMethodAllocatorBytes"), "");  // never under the exact name
  EXPECT_EQ(constant(memory, "kMethodAllocatorBytesAtLeast"),
            "sizeof(void*) == 4 ? " + std::to_string(alloc["cortex-m"]["bytes"].get<int64_t>()) + " : " +
                std::to_string(alloc["x86-64"]["bytes"].get<int64_t>()));
  EXPECT_NE(memory.find("AT LEAST this many bytes"), std::string::npos);
  EXPECT_NE(memory.find("delegate XnnpackBackend"), std::string::npos) << memory;
  EXPECT_EQ(constant(memory, "kTempAllocatorBytes"), "");
  EXPECT_EQ(constant(memory, "kTempAllocatorBytesAtLeast"), "0");
  fs::remove_all(out);
}

TEST(CliFirmwareSources, FirmwareFileWritesEachModelAndTheSharedArena) {
  const fs::path root = scratch("firmware");
  fs::create_directories(root);
  const fs::path file = root / "pair.usmpx-firmware.json";
  std::ofstream(file) << R"({"format": "usmpx-firmware", "version": 1, "schedule": "sequence",
    "models": [{"name": "first", "path": ")"
                      << tflite_example() << R"("}, {"name": "second", "path": ")" << tflite_example()
                      << R"("}], "memory": {"shared": [{"name": "arena"}]}})";
  const fs::path out = root / "gen";
  const CliRun run = run_usmpx({"export", file.string(), "--out", out.string()});
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  for (const std::string name : {"first", "second"}) {
    const std::string copy = read_text_file((out / name / "tiny_classifier.tflite").string());
    EXPECT_EQ(array_bytes(read_text_file((out / name / (name + "_model_data.cc")).string())), copy) << name;
    const std::string memory = read_text_file((out / name / (name + "_memory.h")).string());
    const auto arena = info_json({(out / name / "tiny_classifier.tflite").string()})["tflm_arena"];
    EXPECT_EQ(constant(memory, "kTensorArenaSize"), std::to_string(arena["kTensorArenaSize_min_bytes"].get<int64_t>()))
        << name;
    EXPECT_NE(memory.find("namespace " + name + " {"), std::string::npos);
  }
  const std::string shared = read_text_file((out / "usmpx_firmware.h").string());
  const auto firmware = info_json({file.string()})["firmware"]["tflm_arenas"][0];
  const std::regex size("#define USMPX_ARENA_SIZE ([0-9]+)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(shared, m, size)) << shared;
  EXPECT_EQ(m[1].str(), std::to_string(firmware["this_plan"]["kTensorArenaSize_min_bytes"].get<int64_t>()));
  fs::remove_all(root);
}

TEST(CliFirmwareSources, ANonEmptyTargetNeedsForceAndForceReplacesItsContents) {
  const fs::path out = scratch("non-empty");
  fs::create_directories(out);
  std::ofstream(out / "stray.txt") << "old";
  const CliRun refused = run_usmpx({"export", tflite_example(), "--out", out.string() + "/"});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find(out.string() + "/ exists and is not empty; use --force to replace it"), std::string::npos)
      << refused.err;
  const CliRun forced = run_usmpx({"export", tflite_example(), "--out", out.string() + "/", "--force"});
  ASSERT_EQ(forced.code, 0) << forced.out << forced.err;
  EXPECT_FALSE(fs::exists(out / "stray.txt"));
  EXPECT_TRUE(fs::exists(out / "tiny_classifier_memory.h"));
  // An empty folder that exists is written into without --force (once "cannot replace gen/: Success").
  fs::remove_all(out);
  fs::create_directories(out);
  const CliRun empty = run_usmpx({"export", tflite_example(), "--out", out.string() + "/"});
  ASSERT_EQ(empty.code, 0) << empty.out << empty.err;
  EXPECT_TRUE(fs::exists(out / "tiny_classifier_model_data.cc"));
  fs::remove_all(out);
}

// A folder nobody may write in: a folder made read-only, or, for root (whom permissions do not
// stop), a folder of the kernel's /sys. "" when neither refuses a write here.
fs::path read_only_folder(const fs::path& root) {
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_read | fs::perms::owner_exec);
  if (access(root.c_str(), W_OK) != 0) return root;
  std::error_code ec;
  if (fs::create_directory("/sys/usmpx-export-probe", ec) || ec.value() == 0) return "";
  return "/sys";
}

TEST(CliFirmwareSources, AReadOnlyTargetIsRefusedNamingThePathAndTheCause) {
  const fs::path root = scratch("read-only");
  const fs::path folder = read_only_folder(root);
  if (folder.empty()) {
    fs::permissions(root, fs::perms::owner_all);
    fs::remove_all(root);
    GTEST_SKIP() << "no folder here refuses a write (neither a read-only folder nor /sys)";
  }
  const fs::path out = folder / "usmpx-gen";
  const CliRun run = run_usmpx({"export", tflite_example(), "--out", out.string()});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.out.find("usmpx export: cannot write " + out.string() + ": cannot create the folder "),
            std::string::npos)
      << run.out;
  EXPECT_TRUE(run.out.find("Permission denied") != std::string::npos ||
              run.out.find("Operation not permitted") != std::string::npos ||
              run.out.find("Read-only file system") != std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("Success"), std::string::npos) << run.out;
  fs::permissions(root, fs::perms::owner_all);
  fs::remove_all(root);
}

}  // namespace
}  // namespace usmpx
