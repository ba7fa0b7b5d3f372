#include "model/problem_limits.h"

#include <gtest/gtest.h>

#include "base/input_error.h"
#include "frontends/problem_files/minimalloc_csv.h"
#include "frontends/problem_files/problem_json.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

Problem two_buffers(int64_t size) {
  Problem p;
  p.pools.push_back(Pool{});
  p.pools[0].name = "sram";
  for (const char* name : {"a", "b"}) {
    Buffer b;
    b.name = name;
    b.size_bytes = size;
    b.alignment = 1;
    p.buffers.push_back(b);
  }
  p.buffers[0].conflicts = {1};
  p.buffers[1].conflicts = {0};
  return p;
}

TEST(ProblemLimits, AcceptsSizesWhoseTotalStaysBelowTheLimit) {
  EXPECT_EQ(problem_limit_error(two_buffers(kMaxPlannableBytes / 4)), std::nullopt);
}

TEST(ProblemLimits, NamesWhatIsTooLarge) {
  EXPECT_EQ(problem_limit_error(two_buffers(kMaxPlannableBytes / 2)),
            "the total size of the buffers is beyond the 2^60 bytes planning supports");
  EXPECT_EQ(problem_limit_error(two_buffers(kMaxPlannableBytes + 1)),
            "buffer 'a' (size or alignment) is beyond the 2^60 bytes planning supports");
  Problem pinned = two_buffers(16);
  pinned.buffers[1].pin = Pin{0, int64_t{1} << 62};
  EXPECT_EQ(problem_limit_error(pinned), "the pinned offset of buffer 'b' is beyond the 2^60 bytes planning supports");
  Problem hinted = two_buffers(16);
  hinted.pools[0].size_hint_bytes = int64_t{1} << 61;
  EXPECT_EQ(problem_limit_error(hinted), "the size hint of pool 'sram' is beyond the 2^60 bytes planning supports");
}

// Offsets of 2^62-byte buffers used to overflow in the planners (end offsets came out negative).
TEST(ProblemLimits, ReadersRefuseAndPlannersDoNotPlan) {
  const std::string json = R"({"format": "usmpx-problem", "version": 1,
    "pools": [{"name": "sram", "kind": "workspace"}],
    "buffers": [{"name": "a", "size_bytes": 4611686018427387904, "conflicts": ["b"]},
                {"name": "b", "size_bytes": 4611686018427387904, "conflicts": ["a"]}]})";
  EXPECT_THROW((void)read_problem_json(json, "huge.json"), InputError);
  EXPECT_THROW((void)read_minimalloc_csv("id,lower,upper,size\na,0,2,4611686018427387904\n", "huge.csv"), InputError);
  const Plan plan = run_planner(*make_planner("greedy_by_size"), two_buffers(int64_t{1} << 62), PlannerOptions{});
  ASSERT_TRUE(plan.has_errors());
  EXPECT_EQ(plan.diagnostics[0].message, "buffer 'a' (size or alignment) is beyond the 2^60 bytes planning supports");
  EXPECT_EQ(plan.allocations.size(), 2u);
  EXPECT_FALSE(plan.allocations[0].placed());
}

}  // namespace
}  // namespace usmpx
