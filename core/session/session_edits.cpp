#include "session/session_edits.h"

#include <algorithm>
#include <set>

#include "base/config_error.h"

namespace usmpx {

SessionEdits initial_edits(const Problem& base, const std::string& algorithm) {
  SessionEdits edits;
  for (const Pool& p : base.pools)
    edits.pools.push_back({p, p.name});
  edits.algorithm = algorithm;
  return edits;
}

Problem apply_edits(const Problem& base, const SessionEdits& edits) {
  Problem problem = base;
  problem.pools.clear();
  std::set<std::string> names;
  for (const PoolSetting& setting : edits.pools) {
    if (setting.pool.name.empty()) throw ConfigError("a pool needs a name");
    if (!names.insert(setting.pool.name).second) throw ConfigError("two pools are named '" + setting.pool.name + "'");
    problem.pools.push_back(setting.pool);
  }
  for (Buffer& b : problem.buffers) {
    const bool constant = b.kind == BufferKind::kConstant;
    std::vector<int> candidates;
    for (size_t p = 0; p < edits.pools.size(); ++p) {
      const PoolSetting& setting = edits.pools[p];
      bool allowed = false;
      if (setting.base.empty()) {
        allowed = (setting.pool.kind == PoolKind::kConstant) == constant;
      } else {
        for (int c : b.pool_candidates) {
          allowed = allowed || base.pools[static_cast<size_t>(c)].name == setting.base;
        }
      }
      if (allowed) candidates.push_back(static_cast<int>(p));
    }
    b.pool_candidates = std::move(candidates);
    b.pin.reset();
  }
  // Pins of the input file itself (problem JSON, CSV offsets) stay unless the edits override them.
  for (size_t i = 0; i < base.buffers.size(); ++i) {
    const auto& pin = base.buffers[i].pin;
    if (!pin) continue;
    const std::string& base_pool = base.pools[static_cast<size_t>(pin->pool)].name;
    for (size_t p = 0; p < edits.pools.size(); ++p) {
      if (edits.pools[p].base == base_pool) problem.buffers[i].pin = Pin{static_cast<int>(p), pin->offset};
    }
  }
  // Reserved bytes (code the tool cannot read may use them) stay where TVM left them, in their pool.
  for (size_t i = 0; i < base.buffers.size(); ++i) {
    const Buffer& b = base.buffers[i];
    if (b.kind != BufferKind::kReserved || !b.pin) continue;
    if (find_pin(edits, b.name))
      throw ConfigError("'" + b.name +
                        "' holds bytes that code the tool cannot read may use; it stays where TVM left it");
    const std::string& pool = base.pools[static_cast<size_t>(b.pin->pool)].name;
    const auto kept = std::find_if(edits.pools.begin(), edits.pools.end(),
                                   [&](const PoolSetting& setting) { return setting.base == pool; });
    if (kept == edits.pools.end())
      throw ConfigError("pool '" + pool + "' holds " + std::to_string(b.size_bytes) +
                        " reserved bytes that code the tool cannot read may use; it cannot be removed");
    problem.buffers[i].pool_candidates = {static_cast<int>(kept - edits.pools.begin())};
  }
  apply_pins(problem, edits.pins);
  return problem;
}

const PinSpec* find_pin(const SessionEdits& edits, const std::string& buffer) {
  for (const PinSpec& pin : edits.pins) {
    if (pin.buffer == buffer) return &pin;
  }
  return nullptr;
}

SessionEdits with_pin(SessionEdits edits, const std::string& buffer, std::optional<PinSpec> pin) {
  std::erase_if(edits.pins, [&](const PinSpec& p) { return p.buffer == buffer; });
  if (pin) {
    pin->buffer = buffer;
    edits.pins.push_back(std::move(*pin));
  }
  return edits;
}

}  // namespace usmpx
