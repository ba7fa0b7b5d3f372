#include "tflm_truth.h"

#include <gtest/gtest.h>

#include "planners/registry.h"

namespace usmpx::testing {

TfliteAnalysis analyse_tflite_file(const std::string& path, const TflmBuild& build) {
  TfliteLoadOptions options;
  options.build = build;
  return analyse_tflite(read_tflite_file(path), path, options);
}

namespace {

// Counts a mismatch and reports it as gtest does.
class Checker {
 public:
  template <typename A, typename B>
  void equal(const A& actual, const B& expected, const std::string& what) {
    if (actual == static_cast<A>(expected)) return;
    ok_ = false;
    ADD_FAILURE() << what << ": " << actual << ", TFLM " << expected;
  }
  void fail(const std::string& what) {
    ok_ = false;
    ADD_FAILURE() << what;
  }
  bool ok() const { return ok_; }

 private:
  bool ok_ = true;
};

int64_t get(const nlohmann::json& j, const char* key) {
  return j[key].get<int64_t>();
}

}  // namespace

bool expect_equal_to_tflm(const TfliteAnalysis& a, const nlohmann::json& truth) {
  Checker c;
  if (!a.unknown_scratch.empty()) c.fail("scratch not known: " + a.unknown_scratch.front());
  const Plan plan = run_planner(*make_planner("tflm_greedy"), a.problem, PlannerOptions{});
  c.equal(plan.pool_sizes[0], get(truth, "head"), "head");
  c.equal(a.tail.bytes, get(truth, "tail"), "tail");
  c.equal(plan.pool_sizes[0] + a.tail.bytes, get(truth, "total"), "total");
  if (truth.contains("tail_uncategorized"))  // the older versions' figures do not split it out
    c.equal(a.tail.uncategorized, get(truth, "tail_uncategorized"), "tail uncategorized");
  for (const TflmTailCategory& cat : a.tail.categories) {
    const nlohmann::json& t = truth["categories"][cat.name];
    c.equal(cat.used, get(t, "used"), cat.name + " used");
    c.equal(cat.requested, get(t, "requested"), cat.name + " requested");
    c.equal(cat.count, get(t, "count"), cat.name + " count");
  }
  if (truth.contains("buffers")) {
    const auto& buffers = truth["buffers"];
    c.equal(a.problem.buffers.size(), buffers.size(), "planned buffers");
    for (const auto& buf : buffers) {
      const size_t id = buf["id"].get<size_t>();
      if (id >= a.problem.buffers.size()) break;
      const std::string b = "buffer " + std::to_string(id);
      c.equal(a.problem.buffers[id].size_bytes, get(buf, "size"), b + " size");
      c.equal(plan.allocations[id].offset, get(buf, "offset"), b + " offset");
      c.equal(a.problem.buffers[id].lifetime->first(), get(buf, "first_used"), b + " first use");
      c.equal(a.problem.buffers[id].lifetime->last(), get(buf, "last_used"), b + " last use");
    }
  }
  if (truth.contains("operators")) {
    const auto& ops = truth["operators"];
    c.equal(a.tail.operators.size(), ops.size(), "operators");
    for (size_t k = 0; k < ops.size() && k < a.tail.operators.size(); ++k) {
      const std::string o = "operator " + std::to_string(k) + " ";
      const TflmOperatorTail& op = a.tail.operators[k];
      c.equal(op.name, ops[k]["op"].get<std::string>(), o + "name");
      c.equal(op.init_bytes, get(ops[k], "init_persistent"), o + op.name + " init");
      c.equal(op.prepare_bytes, get(ops[k], "prepare_persistent"), o + op.name + " prepare");
      c.equal(op.scratch_requests, get(ops[k], "scratch_requests"), o + op.name + " scratch requests");
      int64_t scratch = 0;
      for (int buffer : a.operators[k].scratch_buffers)
        scratch += a.problem.buffers[static_cast<size_t>(buffer)].size_bytes;
      // The ground truth gives the bytes asked for; the plan holds them rounded up to 16.
      const int64_t asked = get(ops[k], "scratch_bytes");
      if (scratch < asked || scratch > asked + 15 * op.scratch_requests)
        c.fail(o + op.name + " scratch " + std::to_string(scratch) + ", TFLM asked " + std::to_string(asked));
    }
  }
  return c.ok();
}

}  // namespace usmpx::testing
