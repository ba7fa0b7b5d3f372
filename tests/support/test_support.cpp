#include "test_support.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/problem_files/problem_json.h"
#include "planners/registry.h"

namespace usmpx::testing {
namespace {

// Every test process gets a temporary folder of its own (TMPDIR, which std::filesystem, Qt and
// the compilers a selftest runs all honour), so suites of two checkouts, or of two builds, running
// at once never share the fixed folder names tests use under it. Removed when the process ends.
class ProcessTempDir {
 public:
  ProcessTempDir() {
    const char* base = std::getenv("TMPDIR");
    const std::filesystem::path root = base && *base ? base : "/tmp";
    path_ = root / ("usmpx-test-" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::create_directories(path_, ec);
    if (!ec) ::setenv("TMPDIR", path_.c_str(), 1);
  }
  ~ProcessTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }

 private:
  std::filesystem::path path_;
};

const ProcessTempDir process_temp_dir;

}  // namespace

std::string fixture_path(const std::string& relative) {
  return std::string(USMPX_FIXTURES_DIR) + "/" + relative;
}

std::string source_path(const std::string& relative) {
  return std::string(USMPX_SOURCE_DIR) + "/" + relative;
}

std::string shared_path(const std::string& relative) {
  const std::string path = std::string(USMPX_SHARED_DIR) + "/" + relative;
  std::error_code ec;
  return std::filesystem::exists(path, ec) ? path : std::string();
}

Problem load_problem_fixture(const std::string& relative) {
  const std::string path = fixture_path(relative);
  return read_problem_json(read_text_file(path), path);
}

int64_t offset_of(const Problem& problem, const Plan& plan, const std::string& buffer) {
  const auto index = problem.find_buffer(buffer);
  EXPECT_TRUE(index.has_value()) << "no buffer " << buffer;
  if (!index) return -2;
  const Allocation& a = plan.allocations.at(static_cast<size_t>(*index));
  return a.placed() ? a.offset : -1;
}

std::string pool_of(const Problem& problem, const Plan& plan, const std::string& buffer) {
  const auto index = problem.find_buffer(buffer);
  EXPECT_TRUE(index.has_value()) << "no buffer " << buffer;
  if (!index) return {};
  const Allocation& a = plan.allocations.at(static_cast<size_t>(*index));
  return a.placed() ? problem.pools.at(static_cast<size_t>(a.pool)).name : std::string();
}

Plan plan_with(const std::string& algorithm, const Problem& problem) {
  auto planner = make_planner(algorithm);
  EXPECT_NE(planner, nullptr) << algorithm;
  if (!planner) return {};
  return run_planner(*planner, problem, step_budget(kPlanWithSteps));
}

}  // namespace usmpx::testing
