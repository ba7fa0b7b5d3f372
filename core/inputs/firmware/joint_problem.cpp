#include "inputs/firmware/joint_problem.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/input_error.h"
#include "model/conflict_graph.h"

namespace usmpx {
namespace {

constexpr int64_t kMaxJointConflictPairs = int64_t{20} << 20;

// Where each model's ticks start on the joint timeline, and the last tick it uses.
int64_t last_tick(const Problem& p) {
  int64_t last = -1;
  for (const Buffer& b : p.buffers) {
    if (b.lifetime && !b.lifetime->empty()) last = std::max(last, b.lifetime->last());
    for (const Lifetime& r : b.live_ranges)
      if (!r.empty()) last = std::max(last, r.last());
  }
  for (const TimelineSpan& s : p.timeline)
    last = std::max(last, s.last);
  return last;
}

Lifetime shifted(Lifetime l, int64_t by) {
  return {l.begin + by, l.end + by};
}

bool share_a_pool(const Buffer& a, const Buffer& b) {
  for (int p : a.pool_candidates)
    if (std::find(b.pool_candidates.begin(), b.pool_candidates.end(), p) != b.pool_candidates.end()) return true;
  return false;
}

class Builder {
 public:
  Builder(const FirmwareSpec& spec, const std::vector<const Problem*>& models) : spec_(spec), models_(models) {}

  JointProblem build() {
    j_.buffer_of.resize(models_.size());
    j_.pool_of.resize(models_.size());
    add_pools();
    std::vector<std::set<int>> conflicts;
    int64_t start = 0;
    for (size_t m = 0; m < models_.size(); ++m) {
      const int64_t offset = spec_.schedule == FirmwareSchedule::kConcurrent ? 0 : start;
      add_buffers(static_cast<int>(m), offset);
      const int64_t last = last_tick(*models_[m]);
      j_.span.emplace_back(offset, offset + std::max<int64_t>(last, 0));
      start = offset + last + 1;
    }
    add_conflicts();
    j_.problem.conflict_source = ConflictSource::kExplicit;
    std::stable_sort(j_.problem.timeline.begin(), j_.problem.timeline.end(),
                     [](const TimelineSpan& a, const TimelineSpan& b) { return a.first < b.first; });
    for (const Problem* p : models_) {
      j_.problem.memory_pressure = spec_.schedule == FirmwareSchedule::kConcurrent
                                       ? j_.problem.memory_pressure + p->memory_pressure
                                       : std::max(j_.problem.memory_pressure, p->memory_pressure);
    }
    return std::move(j_);
  }

 private:
  [[noreturn]] void fail(const SourceLocation& at, const std::string& message) const { throw InputError(at, message); }

  std::string pool_list(const Problem& p) const {
    std::string list;
    for (const Pool& pool : p.pools)
      list += (list.empty() ? "" : ", ") + pool.name;
    return list.empty() ? "none" : list;
  }

  void add_pools() {
    for (size_t m = 0; m < models_.size(); ++m)
      j_.pool_of[m].assign(models_[m]->pools.size(), -1);
    for (const SharedPool& s : spec_.shared) {
      const int joint = static_cast<int>(j_.problem.pools.size());
      bool first = true;
      for (const auto& [model, local] : s.members) {
        const int m = *spec_.find_model(model);
        const auto p = models_[static_cast<size_t>(m)]->find_pool(local);
        if (!p)
          fail(s.where, "\"" + model + "\" has no pool \"" + local +
                            "\" (its pools: " + pool_list(*models_[static_cast<size_t>(m)]) + ")");
        if (first) {
          Pool pool = models_[static_cast<size_t>(m)]->pools[static_cast<size_t>(*p)];
          pool.name = s.name;
          pool.size_hint_bytes = s.size_bytes;
          pool.internal = false;
          j_.problem.pools.push_back(std::move(pool));
          j_.pool_owner.push_back("");
          first = false;
        }
        j_.pool_of[static_cast<size_t>(m)][static_cast<size_t>(*p)] = joint;
      }
    }
    for (size_t m = 0; m < models_.size(); ++m) {
      const std::string& name = spec_.models[m].name;
      for (size_t p = 0; p < models_[m]->pools.size(); ++p) {
        if (j_.pool_of[m][p] >= 0) continue;
        Pool pool = models_[m]->pools[p];
        pool.name = name + "/" + pool.name;
        for (const PrivatePool& priv : spec_.private_pools) {
          if (priv.model == name && priv.pool == models_[m]->pools[p].name) pool.size_hint_bytes = priv.size_bytes;
        }
        j_.pool_of[m][p] = static_cast<int>(j_.problem.pools.size());
        j_.problem.pools.push_back(std::move(pool));
        j_.pool_owner.push_back(name);
      }
    }
    for (const PrivatePool& priv : spec_.private_pools) {
      const auto m = static_cast<size_t>(*spec_.find_model(priv.model));
      if (!models_[m]->find_pool(priv.pool))
        fail(priv.where,
             "\"" + priv.model + "\" has no pool \"" + priv.pool + "\" (its pools: " + pool_list(*models_[m]) + ")");
    }
  }

  const PassedTensor* passed_into(int m, const std::string& buffer) const {
    for (const PassedTensor& p : spec_.passed) {
      if (p.to == spec_.models[static_cast<size_t>(m)].name && p.input == buffer) return &p;
    }
    return nullptr;
  }

  std::vector<int> joint_candidates(int m, const std::vector<int>& local) const {
    std::vector<int> out;
    for (int p : local)
      out.push_back(j_.pool_of[static_cast<size_t>(m)][static_cast<size_t>(p)]);
    return out;
  }

  void add_buffers(int m, int64_t offset) {
    const Problem& p = *models_[static_cast<size_t>(m)];
    const std::string& name = spec_.models[static_cast<size_t>(m)].name;
    for (size_t b = 0; b < p.buffers.size(); ++b) {
      const Buffer& local = p.buffers[b];
      Buffer buffer = local;
      buffer.name = name + "/" + local.name;
      buffer.pool_candidates = joint_candidates(m, local.pool_candidates);
      buffer.conflicts.clear();
      if (buffer.lifetime) buffer.lifetime = shifted(*buffer.lifetime, offset);
      for (Lifetime& r : buffer.live_ranges)
        r = shifted(r, offset);
      if (buffer.pin) buffer.pin->pool = j_.pool_of[static_cast<size_t>(m)][static_cast<size_t>(buffer.pin->pool)];
      if (const PassedTensor* pass = passed_into(m, local.name)) {
        const int joint = producer(*pass);
        Buffer& out = j_.problem.buffers[static_cast<size_t>(joint)];
        if (out.size_bytes != buffer.size_bytes)
          fail(pass->where, "\"" + pass->from + "\" output \"" + pass->output + "\" has " +
                                std::to_string(out.size_bytes) + " bytes, \"" + pass->to + "\" input \"" + pass->input +
                                "\" " + std::to_string(buffer.size_bytes));
        std::vector<int> both;
        for (int c : out.pool_candidates)
          if (std::find(buffer.pool_candidates.begin(), buffer.pool_candidates.end(), c) !=
              buffer.pool_candidates.end())
            both.push_back(c);
        if (both.empty())
          fail(pass->where, "\"" + pass->output + "\" and \"" + pass->input + "\" are in no pool both models share");
        out.pool_candidates = both;
        out.alignment = std::max(out.alignment, buffer.alignment);
        if (out.lifetime && buffer.lifetime) out.lifetime->end = std::max(out.lifetime->end, buffer.lifetime->end);
        if (!out.live_ranges.empty() || !buffer.live_ranges.empty()) out.live_ranges.clear();
        out.name += "=" + buffer.name;
        j_.buffer_of[static_cast<size_t>(m)].push_back(joint);
        continue;
      }
      j_.buffer_of[static_cast<size_t>(m)].push_back(static_cast<int>(j_.problem.buffers.size()));
      j_.problem.buffers.push_back(std::move(buffer));
    }
    for (const TimelineSpan& s : p.timeline)
      j_.problem.timeline.push_back({s.first + offset, s.last + offset, name + ": " + s.label});
    if (p.timeline.empty()) {
      const int64_t last = last_tick(p);
      if (last >= 0) j_.problem.timeline.push_back({offset, offset + last, name});
    }
  }

  // The joint buffer of the tensor `pass` takes from an earlier model.
  int producer(const PassedTensor& pass) const {
    const auto m = static_cast<size_t>(*spec_.find_model(pass.from));
    const auto b = models_[m]->find_buffer(pass.output);
    if (!b) fail(pass.where, "\"" + pass.from + "\" has no buffer \"" + pass.output + "\"");
    return j_.buffer_of[m][static_cast<size_t>(*b)];
  }

  void add_conflicts() {
    std::vector<std::set<int>> lists(j_.problem.buffers.size());
    const auto link = [&](int a, int b) {
      if (a == b) return;
      lists[static_cast<size_t>(a)].insert(b);
      lists[static_cast<size_t>(b)].insert(a);
    };
    for (size_t m = 0; m < models_.size(); ++m) {
      const ConflictLists local = symmetric_conflicts(*models_[m]);
      for (size_t b = 0; b < local.size(); ++b)
        for (int c : local[b])
          link(j_.buffer_of[m][b], j_.buffer_of[m][static_cast<size_t>(c)]);
    }
    for (const PassedTensor& pass : spec_.passed) {
      const auto to = static_cast<size_t>(*spec_.find_model(pass.to));
      if (!models_[to]->find_buffer(pass.input))
        fail(pass.where, "\"" + pass.to + "\" has no buffer \"" + pass.input + "\"");
      const int joint = producer(pass);
      for (auto m = static_cast<size_t>(*spec_.find_model(pass.from)) + 1; m < to; ++m)
        for (int b : j_.buffer_of[m])
          if (share_a_pool(j_.problem.buffers[static_cast<size_t>(joint)], j_.problem.buffers[static_cast<size_t>(b)]))
            link(joint, b);
    }
    if (spec_.schedule == FirmwareSchedule::kConcurrent) {
      int64_t pairs = 0;
      for (size_t a = 0; a < models_.size(); ++a)
        for (size_t b = a + 1; b < models_.size(); ++b)
          pairs += static_cast<int64_t>(j_.buffer_of[a].size() * j_.buffer_of[b].size());
      if (pairs > kMaxJointConflictPairs)
        fail({spec_.path, 0, 0}, "too many buffers to run concurrently in shared pools (" + std::to_string(pairs) +
                                     " pairs); give each model its own pools");
      for (size_t a = 0; a < models_.size(); ++a)
        for (size_t b = a + 1; b < models_.size(); ++b)
          for (int x : j_.buffer_of[a])
            for (int y : j_.buffer_of[b])
              if (share_a_pool(j_.problem.buffers[static_cast<size_t>(x)], j_.problem.buffers[static_cast<size_t>(y)]))
                link(x, y);
    }
    for (size_t b = 0; b < lists.size(); ++b)
      j_.problem.buffers[b].conflicts.assign(lists[b].begin(), lists[b].end());
  }

  const FirmwareSpec& spec_;
  const std::vector<const Problem*>& models_;
  JointProblem j_;
};

}  // namespace

JointProblem build_joint_problem(const FirmwareSpec& spec, const std::vector<const Problem*>& models) {
  return Builder(spec, models).build();
}

Plan model_plan(const JointProblem& joint, int m, const Problem& model_problem, const Plan& joint_plan) {
  Plan plan;
  plan.algorithm = joint_plan.algorithm;
  plan.runtime_ms = joint_plan.runtime_ms;
  const auto& buffers = joint.buffer_of[static_cast<size_t>(m)];
  const auto& pools = joint.pool_of[static_cast<size_t>(m)];
  plan.allocations.resize(model_problem.buffers.size());
  for (size_t b = 0; b < buffers.size() && b < plan.allocations.size(); ++b) {
    const Allocation& a = joint_plan.allocations[static_cast<size_t>(buffers[b])];
    if (!a.placed()) continue;
    // The model's pool that is this joint pool among the buffer's own candidates (several of a
    // model's pools may be one joint pool).
    for (int local : model_problem.effective_candidates(static_cast<int>(b))) {
      if (pools[static_cast<size_t>(local)] == a.pool) {
        plan.allocations[b] = {local, a.offset};
        break;
      }
    }
  }
  compute_pool_sizes(model_problem, plan);
  return plan;
}

}  // namespace usmpx
