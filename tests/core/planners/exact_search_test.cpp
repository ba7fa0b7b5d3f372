// The exact planner against a brute-force enumerator on small problems, the explanations of plans
// that do not fit, and the choice of pools when there are several.
#include <algorithm>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "checks/fit_check.h"
#include "model/conflict_graph.h"
#include "planners/registry.h"
#include "random_problems.h"
#include "test_support.h"

namespace usmpx {
namespace {

// Smallest peak of `subset` in one pool by trying every aligned offset below a growing capacity
// (pinned offsets fixed). -1 when no capacity up to `max_capacity` works.
class BruteForce {
 public:
  BruteForce(const Problem& problem, std::vector<int> subset) : problem_(problem), subset_(std::move(subset)) {
    const ConflictLists all = symmetric_conflicts(problem);
    conflicts_.assign(problem.buffers.size(), std::vector<char>(problem.buffers.size(), 0));
    for (size_t b = 0; b < all.size(); ++b) {
      for (int c : all[b])
        conflicts_[b][static_cast<size_t>(c)] = 1;
    }
    // Pinned buffers first, so that the free ones are checked against them.
    std::stable_sort(subset_.begin(), subset_.end(), [&](int a, int b) { return pinned(a) > pinned(b); });
    offset_.assign(problem.buffers.size(), -1);
  }

  bool fits(int64_t capacity) {
    capacity_ = capacity;
    return place(0);
  }
  int64_t minimum(int64_t max_capacity) {
    for (int64_t c = 0; c <= max_capacity; ++c) {
      if (fits(c)) return c;
    }
    return -1;
  }

 private:
  bool pinned(int b) const {
    return problem_.buffers[static_cast<size_t>(b)].pin && problem_.buffers[static_cast<size_t>(b)].pin->offset;
  }
  bool clash(int b, int64_t offset) const {
    const int64_t size = problem_.buffers[static_cast<size_t>(b)].size_bytes;
    for (int c : subset_) {
      const int64_t o = offset_[static_cast<size_t>(c)];
      if (c == b || o < 0 || !conflicts_[static_cast<size_t>(b)][static_cast<size_t>(c)]) continue;
      const int64_t s = problem_.buffers[static_cast<size_t>(c)].size_bytes;
      if (size > 0 && s > 0 && offset < o + s && o < offset + size) return true;
    }
    return false;
  }
  bool place(size_t k) {
    if (k == subset_.size()) return true;
    const int b = subset_[k];
    const Buffer& buf = problem_.buffers[static_cast<size_t>(b)];
    const int64_t align = std::max<int64_t>(1, buf.alignment);
    const int64_t lo = pinned(b) ? *buf.pin->offset : 0;
    const int64_t hi = pinned(b) ? *buf.pin->offset : capacity_ - buf.size_bytes;
    for (int64_t o = lo; o <= hi; o += pinned(b) ? 1 : align) {
      if (o + buf.size_bytes > capacity_ || clash(b, o)) continue;
      offset_[static_cast<size_t>(b)] = o;
      if (place(k + 1)) return true;
    }
    offset_[static_cast<size_t>(b)] = -1;
    return false;
  }

  const Problem& problem_;
  std::vector<int> subset_;
  std::vector<std::vector<char>> conflicts_;
  std::vector<int64_t> offset_;
  int64_t capacity_ = 0;
};

std::vector<int> all_buffers(const Problem& problem) {
  std::vector<int> all(problem.buffers.size());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

// A step budget, not a time limit: the searches below end where they end on any machine.
Plan run(const std::string& name, const Problem& problem, int64_t steps = 20'000'000) {
  return run_planner(*make_planner(name), problem, testing::step_budget(steps));
}

testing::RandomProblemSpec small_spec(int round) {
  testing::RandomProblemSpec spec;
  spec.buffers = 2 + round % 6;
  spec.max_size = 6;
  spec.horizon = 8;
  spec.mixed_alignment = round % 3 == 0;
  spec.pin_fraction = round % 4 == 0 ? 0.3 : 0.0;
  return spec;
}

TEST(ExactPlanner, MatchesBruteForceOnSmallLifetimeProblems) {
  std::mt19937_64 rng(4242);
  for (int round = 0; round < 400; ++round) {
    const Problem problem = testing::random_interval_problem(rng, small_spec(round));
    const int64_t optimum = BruteForce(problem, all_buffers(problem)).minimum(200);
    ASSERT_GE(optimum, 0) << "round " << round;
    const Plan plan = run("exact", problem);
    ASSERT_FALSE(plan.has_errors()) << "round " << round;
    ASSERT_EQ(plan.total_size(), optimum) << "round " << round;
    ASSERT_TRUE(plan.proven_optimal) << "round " << round;
  }
}

TEST(ExactPlanner, MatchesBruteForceOnSmallGeneralGraphs) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 300; ++round) {
    const Problem problem = testing::random_graph_problem(rng, small_spec(round), 0.5);
    const int64_t optimum = BruteForce(problem, all_buffers(problem)).minimum(200);
    ASSERT_GE(optimum, 0) << "round " << round;
    const Plan plan = run("exact", problem);
    ASSERT_FALSE(plan.has_errors()) << "round " << round;
    ASSERT_EQ(plan.total_size(), optimum) << "round " << round;
    ASSERT_TRUE(plan.proven_optimal) << "round " << round;
  }
}

TEST(ExactPlanner, FindsOptimaTheMaxLiveBoundMisses) {
  // Search small problems until brute force shows an optimum above the max-live bound, then the
  // exact planner must reach that optimum and prove it (its bound is raised by the search).
  std::mt19937_64 rng(7);
  int found = 0;
  for (int round = 0; round < 3000 && found < 20; ++round) {
    testing::RandomProblemSpec spec = small_spec(round);
    spec.pin_fraction = 0.0;
    spec.mixed_alignment = false;
    const Problem problem = testing::random_interval_problem(rng, spec);
    const int64_t optimum = BruteForce(problem, all_buffers(problem)).minimum(200);
    const Plan plan = run("exact", problem);
    ASSERT_EQ(plan.total_size(), optimum) << "round " << round;
    if (optimum <= problem.memory_pressure) continue;
    ++found;
    EXPECT_TRUE(plan.proven_optimal) << "round " << round;
    EXPECT_EQ(plan.lower_bound_bytes, optimum) << "round " << round;
  }
  EXPECT_GT(found, 0);
}

// The explanation of a plan that does not fit names buffers that provably cannot fit together,
// and (when it says so) each of them is needed.
TEST(Infeasibility, NamedBuffersCannotFitTogether) {
  std::mt19937_64 rng(2718);
  int explained = 0;
  for (int round = 0; round < 400; ++round) {
    testing::RandomProblemSpec spec = small_spec(round);
    spec.buffers = 3 + round % 5;
    Problem problem =
        round % 3 == 2 ? testing::random_graph_problem(rng, spec, 0.6) : testing::random_interval_problem(rng, spec);
    const int64_t optimum = BruteForce(problem, all_buffers(problem)).minimum(200);
    problem.pools[0].size_hint_bytes = std::max<int64_t>(1, optimum - 1 - static_cast<int64_t>(round % 3));
    const Plan plan = run("best", problem);
    ASSERT_FALSE(plan_fits(problem, plan)) << "round " << round;
    const auto it = std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(),
                                 [](const Diagnostic& d) { return d.code == "infeasible"; });
    ASSERT_NE(it, plan.diagnostics.end()) << "round " << round;  // tiny problems are always proven
    ++explained;
    EXPECT_EQ(it->pool, 0);
    EXPECT_NE(it->message.find("pool 'pool0' is "), std::string::npos) << it->message;
    const int64_t hint = problem.pools[0].size_hint_bytes;
    ASSERT_FALSE(BruteForce(problem, it->buffers).fits(hint)) << "round " << round << ": " << it->message;
    if (it->message.find("without any one of them the rest fits") != std::string::npos ||
        it->message.find("pinned at offset") != std::string::npos ||
        it->message.find("on its own") != std::string::npos) {
      for (int drop : it->buffers) {
        std::vector<int> rest;
        for (int b : it->buffers) {
          if (b != drop) rest.push_back(b);
        }
        EXPECT_TRUE(BruteForce(problem, rest).fits(hint)) << "round " << round << ": " << it->message;
      }
    }
  }
  EXPECT_EQ(explained, 400);
}

TEST(Infeasibility, CliqueOverTheHintIsReportedWithTheMissingBytes) {
  Problem problem;
  problem.conflict_source = ConflictSource::kLifetimes;
  Pool sram;
  sram.name = "sram";
  sram.size_hint_bytes = 100;
  problem.pools = {sram};
  auto add = [&](const char* name, int64_t size, int64_t first, int64_t last) {
    Buffer b;
    b.name = name;
    b.size_bytes = size;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(first, last);
    problem.buffers.push_back(b);
  };
  add("a", 60, 0, 5);
  add("b", 30, 2, 6);
  add("c", 20, 4, 9);
  add("d", 5, 4, 4);
  add("e", 90, 7, 9);  // does not overlap a: a and e can share bytes
  const Plan plan = run("best", problem);
  EXPECT_FALSE(plan_fits(problem, plan));
  const auto it = std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(),
                               [](const Diagnostic& d) { return d.code == "infeasible"; });
  ASSERT_NE(it, plan.diagnostics.end());
  // a, b, c and d are live at tick 4 and need 115 bytes; a, b, c alone already need 110 > 100.
  EXPECT_EQ(it->buffers, (std::vector<int>{0, 1, 2}));
  EXPECT_NE(it->message.find("pool 'sram' is 15 bytes short (size hint 100, the best plan found needs 115)"),
            std::string::npos)
      << it->message;
  EXPECT_NE(it->message.find("'a', 'b', 'c' cannot fit in it together"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("need 110 bytes"), std::string::npos) << it->message;
}

TEST(Infeasibility, PinBeyondTheHint) {
  Problem problem;
  problem.conflict_source = ConflictSource::kLifetimes;
  Pool sram;
  sram.name = "sram";
  sram.size_hint_bytes = 64;
  problem.pools = {sram};
  Buffer a;
  a.name = "a";
  a.size_bytes = 16;
  a.pool_candidates = {0};
  a.lifetime = Lifetime::closed(0, 1);
  a.pin = Pin{0, 56};
  problem.buffers.push_back(a);
  const Plan plan = run("best", problem);
  const auto it = std::find_if(plan.diagnostics.begin(), plan.diagnostics.end(),
                               [](const Diagnostic& d) { return d.code == "infeasible"; });
  ASSERT_NE(it, plan.diagnostics.end());
  EXPECT_EQ(it->buffers, std::vector<int>{0});
  EXPECT_NE(it->message.find("pool 'sram' is 8 bytes short"), std::string::npos) << it->message;
  EXPECT_NE(it->message.find("pinned at offset 56 and ends at 72"), std::string::npos) << it->message;
}

// Several pools: fit first, then as many bytes as possible in the preferred pool, then total.
TEST(PoolChoice, KeepsTheMostBytesInThePreferredPool) {
  Problem problem;
  problem.conflict_source = ConflictSource::kLifetimes;
  Pool fast;
  fast.name = "fast";
  fast.size_hint_bytes = 100;
  Pool slow;
  slow.name = "slow";
  problem.pools = {fast, slow};
  for (const auto& [name, size] : std::vector<std::pair<const char*, int64_t>>{{"a", 60}, {"b", 50}, {"c", 50}}) {
    Buffer b;
    b.name = name;
    b.size_bytes = size;
    b.pool_candidates = {0, 1};
    b.lifetime = Lifetime::closed(0, 3);
    problem.buffers.push_back(b);
  }
  // Every greedy pass puts a (60) into fast first; b and c (100 together) fill it better.
  const Plan greedy = run("best_fit_size", problem);
  EXPECT_EQ(testing::pool_of(problem, greedy, "a"), "fast");
  const Plan plan = run("best", problem);
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(testing::pool_of(problem, plan, "a"), "slow");
  EXPECT_EQ(testing::pool_of(problem, plan, "b"), "fast");
  EXPECT_EQ(testing::pool_of(problem, plan, "c"), "fast");
  EXPECT_EQ(plan.pool_sizes, (std::vector<int64_t>{100, 60}));
}

TEST(PoolChoice, OverflowingPoolIsRepairedByMovingToTheNextCandidate) {
  Problem problem;
  problem.conflict_source = ConflictSource::kLifetimes;
  Pool dtcm;
  dtcm.name = "dtcm";
  dtcm.size_hint_bytes = 96;
  Pool sram;
  sram.name = "sram";
  sram.size_hint_bytes = 1000;
  problem.pools = {dtcm, sram};
  for (int i = 0; i < 6; ++i) {
    Buffer b;
    b.name = "t" + std::to_string(i);
    b.size_bytes = 32;
    b.pool_candidates = {0, 1};
    b.lifetime = Lifetime::closed(i, i + 3);  // four live at once: 128 bytes > 96
    problem.buffers.push_back(b);
  }
  Buffer pinned;
  pinned.name = "p";
  pinned.size_bytes = 32;
  pinned.pool_candidates = {0, 1};
  pinned.lifetime = Lifetime::closed(0, 9);
  pinned.pin = Pin{0, std::nullopt};
  problem.buffers.push_back(pinned);
  const Plan plan = run("best", problem);
  EXPECT_TRUE(plan_fits(problem, plan));
  EXPECT_FALSE(plan.has_errors());
  EXPECT_EQ(testing::pool_of(problem, plan, "p"), "dtcm");
  // dtcm holds p plus two of the others at any time: 64 bytes of the six stay there at each tick.
  int in_dtcm = 0;
  for (const Allocation& a : plan.allocations)
    in_dtcm += a.pool == 0 ? 1 : 0;
  EXPECT_GE(in_dtcm, 4);
  EXPECT_LE(plan.pool_sizes[0], 96);
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// Inputs at the edges: nothing to plan, buffers without pools or lifetimes, zero sizes, pins that
// collide. Every project planner returns a plan of the right shape without crashing, and a valid
// one whenever the input allows it.
TEST(EdgeCases, EveryProjectPlannerCopes) {
  const char* const planners[] = {"first_fit", "best_fit_size", "best_fit_breadth", "multi_start", "exact", "best"};
  Problem empty;
  Problem no_pools;
  no_pools.conflict_source = ConflictSource::kLifetimes;
  Buffer orphan;
  orphan.name = "orphan";
  orphan.size_bytes = 8;
  orphan.lifetime = Lifetime{0, 2};
  no_pools.buffers.push_back(orphan);
  Problem odd;
  odd.conflict_source = ConflictSource::kLifetimes;
  Pool pool;
  pool.name = "sram";
  odd.pools = {pool};
  for (int i = 0; i < 6; ++i) {
    Buffer b;
    b.name = "b" + std::to_string(i);
    b.size_bytes = i % 3 == 0 ? 0 : 16 * i;
    b.alignment = i % 2 == 0 ? 64 : 1;
    b.pool_candidates = {0};
    if (i != 5) b.lifetime = Lifetime{i, i + 3};  // b5 has no lifetime: conflicts with nothing
    odd.buffers.push_back(b);
  }
  Problem colliding = odd;
  colliding.buffers[1].pin = Pin{0, 0};
  colliding.buffers[2].pin = Pin{0, 8};  // overlaps b1's pinned range while both are live
  for (const char* name : planners) {
    const PlannerOptions options = testing::step_budget(1'000'000);
    const auto planner = make_planner(name);
    const Plan p0 = run_planner(*planner, empty, options);
    EXPECT_TRUE(p0.allocations.empty()) << name;
    EXPECT_FALSE(p0.has_errors()) << name;
    const Plan p1 = run_planner(*planner, no_pools, options);
    ASSERT_EQ(p1.allocations.size(), 1u) << name;
    EXPECT_FALSE(p1.allocations[0].placed()) << name;  // nowhere to go: the validator says so
    const Plan p2 = run_planner(*planner, odd, options);
    EXPECT_FALSE(p2.has_errors()) << name << "\n" << p2.diagnostics.front().message;
    EXPECT_EQ(p2.total_size(), BruteForce(odd, all_buffers(odd)).minimum(1000)) << name;
    const Plan p3 = run_planner(*planner, colliding, options);
    EXPECT_EQ(p3.allocations[1].offset, 0) << name;  // pins hold even when they collide
    EXPECT_EQ(p3.allocations[2].offset, 8) << name;
    EXPECT_TRUE(p3.has_errors()) << name;  // the overlap is reported
  }
}

}  // namespace
}  // namespace usmpx

namespace usmpx {
namespace {

// check's question, "does it fit?", against brute force: with stop_at_fit, best and exact give a
// plan within the hint exactly when one exists, and check_fit proves it otherwise.
TEST(StopAtFit, DecidesLikeBruteForce) {
  std::mt19937_64 rng(1618);
  int fits = 0;
  int proven = 0;
  for (int round = 0; round < 300; ++round) {
    testing::RandomProblemSpec spec = small_spec(round);
    spec.buffers = 3 + round % 5;
    Problem problem =
        round % 3 == 2 ? testing::random_graph_problem(rng, spec, 0.6) : testing::random_interval_problem(rng, spec);
    const int64_t optimum = BruteForce(problem, all_buffers(problem)).minimum(200);
    ASSERT_GE(optimum, 0) << "round " << round;
    problem.pools[0].size_hint_bytes = std::max<int64_t>(1, optimum - 2 + static_cast<int64_t>(round % 5));
    const bool exists = optimum <= problem.pools[0].size_hint_bytes;
    for (const char* name : {"best", "exact"}) {
      PlannerOptions options;
      options.stop_at_fit = true;
      const Plan plan = run_planner(*make_planner(name), problem, options);
      Deadline deadline(options);
      const FitCheck check = check_fit(problem, plan, deadline);
      if (exists) {
        EXPECT_EQ(check.verdict, FitVerdict::kFits) << name << " round " << round;
        fits += check.verdict == FitVerdict::kFits;
      } else {
        ASSERT_EQ(check.verdict, FitVerdict::kCannotFit) << name << " round " << round;  // tiny: always proven
        ASSERT_FALSE(check.proofs.empty());
        EXPECT_FALSE(BruteForce(problem, check.proofs[0].buffers).fits(problem.pools[0].size_hint_bytes));
        EXPECT_GE(check.missing_bytes[0], 1);
        EXPECT_GT(check.shortfall_bytes(), 0);
        ++proven;
      }
    }
  }
  EXPECT_GT(fits, 200);
  EXPECT_GT(proven, 100);
}

}  // namespace
}  // namespace usmpx
