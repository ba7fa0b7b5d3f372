#include "inputs/firmware/firmware_sharing.h"

#include <algorithm>

#include <tuple>

#include "base/c_identifier.h"

namespace usmpx {
namespace {

// Model `m`'s own pool that is joint pool `joint`, -1 when it has none.
int local_pool(const FirmwareInput& in, size_t m, int joint) {
  if (m >= in.joint.pool_of.size()) return -1;
  const std::vector<int>& pools = in.joint.pool_of[m];
  const auto it = std::find(pools.begin(), pools.end(), joint);
  return it == pools.end() ? -1 : static_cast<int>(it - pools.begin());
}

// What model `m` needs of its pool `local` by itself: its own plan's size.
int64_t own_bytes(const FirmwareInput& in, size_t m, int local) {
  const Plan& own = in.own_plans[m];
  return local >= 0 && static_cast<size_t>(local) < own.pool_sizes.size() ? own.pool_sizes[static_cast<size_t>(local)]
                                                                          : 0;
}

SharedPoolFigures arena_figures(const FirmwareInput& in, const RuntimeArenaPool& a, const Plan& plan) {
  SharedPoolFigures f;
  f.pool = in.joint.problem.pools[static_cast<size_t>(a.joint_pool)].name;
  f.runtime_arena = true;
  const std::vector<int64_t> alone = a.arena->alone_bytes();
  for (size_t i = 0; i < a.models.size() && i < alone.size(); ++i) {
    f.alone.emplace_back(in.spec.models[static_cast<size_t>(a.models[i])].name, alone[i]);
    f.separate += alone[i];
  }
  std::tie(f.shared, f.exact) = a.arena->shared_bytes(in.parts(a, plan));
  f.paste_as = "USMPX_" + c_macro_name(f.pool) + "_SIZE in usmpx_firmware.h: the one MicroAllocator's kTensorArenaSize";
  return f;
}

}  // namespace

std::vector<SharedPoolFigures> firmware_sharing(const FirmwareInput& in, const Plan& plan) {
  std::vector<SharedPoolFigures> all;
  std::vector<bool> done(in.joint.problem.pools.size(), false);
  for (const RuntimeArenaPool& a : in.arenas) {
    if (a.models.size() < 2 || a.joint_pool < 0 || !a.arena) continue;
    all.push_back(arena_figures(in, a, plan));
    done[static_cast<size_t>(a.joint_pool)] = true;
  }
  for (size_t p = 0; p < in.joint.problem.pools.size(); ++p) {
    if (done[p] || p >= in.joint.pool_owner.size() || !in.joint.pool_owner[p].empty()) continue;
    SharedPoolFigures f;
    f.pool = in.joint.problem.pools[p].name;
    for (size_t m = 0; m < in.models.size(); ++m) {
      const int local = local_pool(in, m, static_cast<int>(p));
      if (local < 0) continue;
      f.alone.emplace_back(in.spec.models[m].name, own_bytes(in, m, local));
      f.separate += f.alone.back().second;
    }
    if (f.alone.size() < 2) continue;
    f.shared = p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0;
    f.paste_as = "the pool's size (USMPX_" + c_macro_name(f.pool) + "_SIZE in usmpx_firmware.h)";
    all.push_back(std::move(f));
  }
  return all;
}

}  // namespace usmpx
