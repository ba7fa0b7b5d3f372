#include "inputs/firmware/firmware_input.h"

#include <algorithm>
#include <filesystem>

#include "base/config_error.h"
#include "base/input_error.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflm_tree.h"
#include "inputs/input_file.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

// The plan a model runs with when nothing else is said: the one it carries, else its runtime's.
Plan own_plan(const LoadedInput& input) {
  if (input.as_built) {
    Plan plan = *input.as_built;
    finish_plan(input.problem, plan);
    return plan;
  }
  if (input.details) {
    if (auto reference = input.details->reference_plan(input.problem)) return *reference;
  }
  return run_planner(*make_planner(input.default_algorithm), input.problem, PlannerOptions{});
}

}  // namespace

std::string firmware_family(InputFormat format) {
  switch (format) {
    case InputFormat::kTflite:
      return "tflite";
    case InputFormat::kExecuTorch:
      return "executorch";
    case InputFormat::kMlf:
    case InputFormat::kFirmwareTree:
    case InputFormat::kTvmScript:
    case InputFormat::kLegacyTir:
      return "tvm";
    case InputFormat::kProblemJson:
    case InputFormat::kMinimallocCsv:
      return "problem";
    default:
      return "";
  }
}

std::vector<int32_t> tflite_offsets(const TfliteAnalysis& a, const Plan& plan) {
  std::vector<int32_t> offsets(a.tensors.size(), -1);
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const int b = a.tensors[t].buffer;
    if (b < 0 || static_cast<size_t>(b) >= plan.allocations.size()) continue;
    const Allocation& alloc = plan.allocations[static_cast<size_t>(b)];
    if (alloc.placed()) offsets[t] = static_cast<int32_t>(alloc.offset);
  }
  return offsets;
}

Plan combined_own_plans(const FirmwareInput& input) {
  Plan plan;
  plan.algorithm = "as-built";
  plan.allocations.resize(input.joint.problem.buffers.size());
  std::vector<char> set(plan.allocations.size(), 0);
  for (size_t m = 0; m < input.models.size(); ++m) {
    const Plan& own = input.own_plans[m];
    for (size_t b = 0; b < own.allocations.size() && b < input.joint.buffer_of[m].size(); ++b) {
      const auto joint = static_cast<size_t>(input.joint.buffer_of[m][b]);
      const Allocation& a = own.allocations[b];
      if (set[joint] || !a.placed()) continue;
      plan.allocations[joint] = {input.joint.pool_of[m][static_cast<size_t>(a.pool)], a.offset};
      set[joint] = 1;
    }
  }
  compute_pool_sizes(input.joint.problem, plan);
  return plan;
}

TflmSharedArena tflm_arena_for(const FirmwareInput& input, const TflmArenaGroup& group, const Plan& joint_plan) {
  std::vector<TflmTenant> tenants;
  for (int m : group.models) {
    const TfliteAnalysis& a = *input.tflite[static_cast<size_t>(m)];
    const Plan mine = model_plan(input.joint, m, a.problem, joint_plan);
    Plan runs = tflm_plan_with_offsets(a, tflite_offsets(a, mine));
    compute_pool_sizes(a.problem, runs);
    tenants.push_back(tflm_tenant(input.spec.models[static_cast<size_t>(m)].name, a,
                                  runs.pool_sizes.empty() ? 0 : runs.pool_sizes[0]));
  }
  return tflm_shared_arena(tenants, input.tflite[static_cast<size_t>(group.models.front())]->build);
}

FirmwareInput load_firmware(const std::string& path, const LoadOptions& options) {
  if (!options.pools.empty())
    throw ConfigError("a firmware file gives its pools and sizes in its \"memory\"; pool options do not apply");
  FirmwareInput in;
  in.spec = read_firmware_file(path);
  const FirmwareSpec& spec = in.spec;
  for (const FirmwareModel& m : spec.models) {
    std::error_code ec;
    if (!std::filesystem::exists(m.resolved_path, ec)) throw InputError(m.where, "no such file: " + m.resolved_path);
    const InputFormat format = recognise_input(m.resolved_path);
    const std::string family = firmware_family(format);
    if (family.empty())
      throw InputError(m.where, "\"" + m.path + "\" is a " + std::string(to_string(format)) + ", not a model");
    if (!m.family.empty() && m.family != family)
      throw InputError(
          m.where, "\"" + m.path + "\" is a " + std::string(to_string(format)) + " (" + family + "), not " + m.family);
    LoadOptions lo;
    lo.module = m.module;
    lo.runtime_kernels = options.runtime_kernels.empty() ? spec.tflm_kernels : options.runtime_kernels;
    lo.runtime_target = options.runtime_target.empty() ? spec.tflm_target : options.runtime_target;
    lo.runtime_tree = options.runtime_tree;
    lo.runtime_version =
        options.runtime_version.empty() && options.runtime_tree.empty() ? spec.tflm_version : options.runtime_version;
    in.models.push_back(load_input(m.resolved_path, lo));
    in.own_plans.push_back(own_plan(in.models.back()));
    in.family.push_back(family);
    if (family == "tflite") {
      TfliteLoadOptions to;
      to.build = tflm_build_from(lo.runtime_kernels, lo.runtime_target,
                                 tflm_version_from_tree(lo.runtime_tree, lo.runtime_version, nullptr));
      in.tflite.push_back(std::make_shared<const TfliteAnalysis>(
          analyse_tflite(read_tflite_file(m.resolved_path), m.resolved_path, to)));
    } else {
      in.tflite.push_back(nullptr);
    }
  }
  std::vector<const Problem*> problems;
  for (const LoadedInput& l : in.models)
    problems.push_back(&l.problem);
  in.joint = build_joint_problem(spec, problems);

  // TFLM arenas: every joint pool holding a TFLite model's arena.
  for (size_t p = 0; p < in.joint.problem.pools.size(); ++p) {
    TflmArenaGroup group;
    group.joint_pool = static_cast<int>(p);
    bool other = false;
    for (size_t m = 0; m < in.models.size(); ++m) {
      const auto& pools = in.joint.pool_of[m];
      if (std::find(pools.begin(), pools.end(), static_cast<int>(p)) == pools.end()) continue;
      if (in.family[m] == "tflite") {
        group.models.push_back(static_cast<int>(m));
      } else {
        other = true;
      }
    }
    if (group.models.empty()) continue;
    const SharedPool* shared = nullptr;
    for (const SharedPool& s : spec.shared)
      if (s.name == in.joint.problem.pools[p].name) shared = &s;
    const SourceLocation at = shared ? shared->where : spec.models[static_cast<size_t>(group.models[0])].where;
    if (other)
      throw InputError(at, "a TFLite Micro arena is one MicroAllocator's: it cannot be shared with other runtimes");
    if (group.models.size() > 1 && spec.schedule == FirmwareSchedule::kConcurrent)
      throw InputError(at,
                       "TFLite Micro interpreters on one MicroAllocator run one at a time; models that run "
                       "concurrently need arenas of their own (list them under \"private\")");
    for (int m : group.models) {
      if (in.tflite[static_cast<size_t>(m)]->build.kernels !=
          in.tflite[static_cast<size_t>(group.models[0])]->build.kernels)
        throw InputError(at, "the models of one arena run in one TFLM build");
    }
    std::vector<TflmTenant> tenants;
    for (int m : group.models) {
      const Plan& own = in.own_plans[static_cast<size_t>(m)];
      tenants.push_back(tflm_tenant(spec.models[static_cast<size_t>(m)].name, *in.tflite[static_cast<size_t>(m)],
                                    own.pool_sizes.empty() ? 0 : own.pool_sizes[0]));
    }
    group.own = tflm_shared_arena(tenants, in.tflite[static_cast<size_t>(group.models[0])]->build);
    // The pool is the arena's head: what the declared arena leaves once the tails are in.
    Pool& pool = in.joint.problem.pools[p];
    group.declared_bytes = pool.size_hint_bytes;
    for (const PrivatePool& priv : spec.private_pools) {
      if (spec.models[static_cast<size_t>(group.models[0])].name == priv.model && group.models.size() == 1)
        group.declared_bytes = priv.size_bytes;
    }
    if (group.declared_bytes >= 0) {
      const int64_t overhead = group.own.arena - group.own.head;
      pool.size_hint_bytes = std::max<int64_t>(0, group.declared_bytes - overhead);
    }
    in.tflm_arenas.push_back(std::move(group));
  }
  return in;
}

}  // namespace usmpx
