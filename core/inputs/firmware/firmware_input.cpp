#include "inputs/firmware/firmware_input.h"

#include <algorithm>
#include <filesystem>

#include "base/config_error.h"
#include "base/input_error.h"
#include "inputs/input_kinds.h"
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

// One model of the file, recognised and read once by its frontend.
void load_model(const FirmwareModel& m, const LoadOptions& options, FirmwareInput& in) {
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
  lo.runtime_kernels = options.runtime_kernels.empty() ? in.spec.tflm_kernels : options.runtime_kernels;
  lo.runtime_target = options.runtime_target.empty() ? in.spec.tflm_target : options.runtime_target;
  lo.runtime_tree = options.runtime_tree;
  lo.runtime_version =
      options.runtime_version.empty() && options.runtime_tree.empty() ? in.spec.tflm_version : options.runtime_version;
  auto model = std::make_shared<const LoadedInput>(frontend_of(format)->load(m.resolved_path, format, lo));
  in.own_plans.push_back(own_plan(*model));
  in.models.push_back(std::move(model));
  in.family.push_back(family);
}

// The size the file gives the pool of `arena` (-1: none).
int64_t declared_size(const FirmwareInput& in, const RuntimeArenaPool& arena) {
  int64_t declared = in.joint.problem.pools[static_cast<size_t>(arena.joint_pool)].size_hint_bytes;
  for (const PrivatePool& priv : in.spec.private_pools) {
    if (in.spec.models[static_cast<size_t>(arena.models[0])].name == priv.model && arena.models.size() == 1)
      declared = priv.size_bytes;
  }
  return declared;
}

// Joint pool `p` when a runtime lays it out itself: the models in it, in the file's order, the
// arena their family makes of it; the pool itself becomes the arena's head (what the declared
// size leaves once the runtime's own bytes are in). nullopt when no runtime lays it out.
std::optional<RuntimeArenaPool> runtime_arena(FirmwareInput& in, size_t p) {
  RuntimeArenaPool pool;
  pool.joint_pool = static_cast<int>(p);
  const FirmwareRole* role = nullptr;
  std::vector<FirmwareTenant> tenants;
  std::vector<Plan> own;
  for (size_t m = 0; m < in.models.size(); ++m) {
    const auto& pools = in.joint.pool_of[m];
    if (std::find(pools.begin(), pools.end(), static_cast<int>(p)) == pools.end()) continue;
    const FirmwareRole* mine = in.models[m]->firmware.get();
    if (!role && mine && mine->runtime_arena()) role = mine;
    pool.models.push_back(static_cast<int>(m));
    tenants.push_back(in.tenant(m));
    own.push_back(in.own_plans[m]);
  }
  if (!role) return std::nullopt;
  Pool& joint_pool = in.joint.problem.pools[p];
  const SharedPool* shared = nullptr;
  for (const SharedPool& s : in.spec.shared)
    if (s.name == joint_pool.name) shared = &s;
  std::string why;
  pool.arena = role->arena(joint_pool.name, tenants, own, in.spec.schedule == FirmwareSchedule::kConcurrent, why);
  if (!pool.arena)
    throw InputError(shared ? shared->where : in.spec.models[static_cast<size_t>(pool.models[0])].where, why);
  pool.declared_bytes = declared_size(in, pool);
  if (pool.declared_bytes >= 0)
    joint_pool.size_hint_bytes = std::max<int64_t>(0, pool.declared_bytes - pool.arena->overhead_bytes());
  return pool;
}

}  // namespace

FirmwareTenant FirmwareInput::tenant(size_t m) const {
  return {spec.models[m].name, spec.models[m].path, models[m]};
}

std::vector<Plan> FirmwareInput::parts(const RuntimeArenaPool& pool, const Plan& joint_plan) const {
  std::vector<Plan> parts;
  for (int m : pool.models)
    parts.push_back(model_plan(joint, m, models[static_cast<size_t>(m)]->problem, joint_plan));
  return parts;
}

std::string firmware_family(InputFormat format) {
  const Frontend* frontend = frontend_of(format);
  return frontend ? frontend->family() : "";
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

FirmwareInput load_firmware(const std::string& path, const LoadOptions& options) {
  if (!options.pools.empty())
    throw ConfigError("a firmware file gives its pools and sizes in its \"memory\"; pool options do not apply");
  FirmwareInput in;
  in.spec = read_firmware_file(path);
  for (const FirmwareModel& m : in.spec.models)
    load_model(m, options, in);
  std::vector<const Problem*> problems;
  for (const auto& l : in.models)
    problems.push_back(&l->problem);
  in.joint = build_joint_problem(in.spec, problems);
  for (size_t p = 0; p < in.joint.problem.pools.size(); ++p) {
    if (auto arena = runtime_arena(in, p)) in.arenas.push_back(std::move(*arena));
  }
  return in;
}

}  // namespace usmpx
