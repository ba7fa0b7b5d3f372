#include "test_support.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "base/text_file.h"
#include "frontends/problem_files/problem_json.h"
#include "planners/registry.h"

namespace usmpx::testing {

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
