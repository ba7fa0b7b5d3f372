#include "config/pool_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "base/config_error.h"
#include "base/utf8_check.h"

namespace usmpx {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

std::pair<std::string_view, std::string_view> split_pair(std::string_view option, std::string_view entry) {
  const size_t colon = entry.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == entry.size()) {
    throw ConfigError(std::string(option) + ": expected POOL:VALUE, got \"" + std::string(entry) + "\"");
  }
  return {entry.substr(0, colon), entry.substr(colon + 1)};
}

}  // namespace

bool PoolOptions::empty() const {
  return workspace_pools.empty() && workspace_size_hints.empty() && workspace_targets.empty() &&
         constant_pools.empty() && constant_size_hints.empty() && constant_targets.empty() && !capacity &&
         !use_workspace_io;
}

std::vector<std::string> parse_name_list(std::string_view option, std::string_view value) {
  std::vector<std::string> names;
  std::set<std::string_view> seen;
  for (std::string_view name : split(value, ',')) {
    if (name.empty()) throw ConfigError(std::string(option) + ": empty pool name in \"" + std::string(value) + "\"");
    if (!seen.insert(name).second)
      throw ConfigError(std::string(option) + ": pool '" + std::string(name) + "' listed twice");
    if (first_invalid_utf8(name)) throw ConfigError(std::string(option) + ": pool names must be UTF-8 text");
    names.emplace_back(name);
  }
  return names;
}

int64_t parse_byte_count(std::string_view option, std::string_view value) {
  // What the tool prints reads back: "262,144", "4.57 MiB", "96 KiB", "4.6M", "40k", "9,999 B".
  std::string text;
  for (char c : value) {
    if (c != ' ' && c != ',') text += c;
  }
  const auto fail = [&] {
    return ConfigError(std::string(option) + ": expected a byte count (e.g. 262144, 256k, 4.5M, 96 KiB or -1), got \"" +
                       std::string(value) + "\"");
  };
  if (text == "-1") return -1;
  size_t digits = 0;
  while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  const std::string number = text.substr(0, digits);
  const std::string suffix = text.substr(digits);
  int64_t scale = 0;
  if (suffix.empty() || suffix == "B")
    scale = 1;
  else if (suffix == "k" || suffix == "K" || suffix == "KiB")
    scale = 1024;
  else if (suffix == "m" || suffix == "M" || suffix == "MiB")
    scale = 1024 * 1024;
  const size_t point = number.find('.');
  const bool well_formed =
      !number.empty() && number.front() != '.' && number.back() != '.' &&
      number.find('.', point == std::string::npos ? number.size() : point + 1) == std::string::npos;
  // Decimals only with a unit: a byte count itself is whole.
  if (scale == 0 || !well_formed || (point != std::string::npos && scale == 1) || digits > 18) throw fail();
  // Whole and fraction in integers (no locale, no rounding error): 4.57 MiB = 4 MiB + 57/100 MiB.
  const std::string whole_text = number.substr(0, point == std::string::npos ? number.size() : point);
  const std::string fraction_text = point == std::string::npos ? "" : number.substr(point + 1);
  if (fraction_text.size() > 9) throw fail();
  int64_t whole = 0;
  std::from_chars(whole_text.data(), whole_text.data() + whole_text.size(), whole);
  if (whole > (int64_t{1} << 60) / scale) throw fail();
  int64_t fraction = 0;
  int64_t denominator = 1;
  for (char c : fraction_text) {
    fraction = fraction * 10 + (c - '0');
    denominator *= 10;
  }
  return whole * scale + (2 * fraction * scale + denominator) / (2 * denominator);
}

NamedValues<int64_t> parse_size_hints(std::string_view option, std::string_view value) {
  NamedValues<int64_t> hints;
  for (std::string_view entry : split(value, ',')) {
    const auto [name, bytes] = split_pair(option, entry);
    hints.emplace_back(std::string(name), parse_byte_count(option, bytes));
  }
  return hints;
}

NamedValues<std::string> parse_targets(std::string_view option, std::string_view value) {
  NamedValues<std::string> targets;
  for (std::string_view entry : split(value, ',')) {
    const auto [name, target] = split_pair(option, entry);
    targets.emplace_back(std::string(name), std::string(target));
  }
  return targets;
}

namespace {

// The pools of one kind after --workspace-pools or --constant-pools (`replace`): those named, in
// that order (the input's own pool of that name kept, with its settings), else the input's.
void add_pools_of_kind(const Problem& problem, PoolKind kind, bool replace, const std::vector<std::string>& names,
                       std::vector<Pool>& pools, std::vector<int>& indices) {
  if (replace) {
    std::vector<Pool> source = problem.pools;
    for (const std::string& name : names) {
      auto it = std::find_if(source.begin(), source.end(), [&](const Pool& p) { return p.name == name; });
      Pool pool;
      if (it != source.end()) {
        if (it->kind != kind) {
          throw ConfigError("pool '" + name + "' is a " + std::string(to_string(it->kind)) +
                            " pool and cannot be listed as a " + std::string(to_string(kind)) + " pool");
        }
        pool = *it;
      } else {
        pool.name = name;
        pool.kind = kind;
      }
      indices.push_back(static_cast<int>(pools.size()));
      pools.push_back(std::move(pool));
    }
  } else {
    for (const Pool& p : problem.pools) {
      if (p.kind == kind) pools.push_back(p);
    }
  }
}

// Every buffer's candidate pools and pin moved to the new list of pools: a replaced kind's
// buffers may go into any pool listed for it, the others keep theirs where they remain.
void remap_buffers(Problem& problem, const std::vector<Pool>& pools, bool replace_ws, bool replace_cs,
                   const std::vector<int>& ws_indices, const std::vector<int>& cs_indices) {
  std::vector<int> remap(problem.pools.size(), -1);
  for (size_t old = 0; old < problem.pools.size(); ++old) {
    for (size_t now = 0; now < pools.size(); ++now) {
      if (pools[now].name == problem.pools[old].name) remap[old] = static_cast<int>(now);
    }
  }
  for (Buffer& b : problem.buffers) {
    const bool constant = b.kind == BufferKind::kConstant;
    if (constant ? replace_cs : replace_ws) {
      b.pool_candidates = constant ? cs_indices : ws_indices;
    } else {
      std::vector<int> mapped;
      for (int p : b.pool_candidates) {
        if (remap[static_cast<size_t>(p)] >= 0) mapped.push_back(remap[static_cast<size_t>(p)]);
      }
      b.pool_candidates = std::move(mapped);
    }
    if (b.pin) {
      const int mapped = remap[static_cast<size_t>(b.pin->pool)];
      if (mapped < 0 && b.kind == BufferKind::kReserved) {
        throw ConfigError("pool '" + problem.pools[static_cast<size_t>(b.pin->pool)].name + "' holds " +
                          std::to_string(b.size_bytes) + " reserved bytes at offset " + std::to_string(*b.pin->offset) +
                          " that code the tool cannot read may use; the pool options cannot remove it");
      }
      if (mapped < 0) {
        throw ConfigError("buffer '" + b.name + "' is pinned to pool '" +
                          problem.pools[static_cast<size_t>(b.pin->pool)].name + "', which the pool options remove");
      }
      b.pin->pool = mapped;
    }
  }
}

void replace_pools(Problem& problem, const PoolOptions& options) {
  const bool replace_ws = !options.workspace_pools.empty();
  const bool replace_cs = !options.constant_pools.empty();
  if (!replace_ws && !replace_cs) return;
  std::vector<Pool> pools;
  std::vector<int> ws_indices;
  std::vector<int> cs_indices;
  add_pools_of_kind(problem, PoolKind::kWorkspace, replace_ws, options.workspace_pools, pools, ws_indices);
  add_pools_of_kind(problem, PoolKind::kConstant, replace_cs, options.constant_pools, pools, cs_indices);
  remap_buffers(problem, pools, replace_ws, replace_cs, ws_indices, cs_indices);
  problem.pools = std::move(pools);
}

// The size hints and targets the options set on pools named by the user.
void set_hints_and_targets(Problem& problem, const PoolOptions& options) {
  auto pool_named = [&](const std::string& name, PoolKind kind, std::string_view option) -> Pool& {
    auto index = problem.find_pool(name);
    if (!index) throw ConfigError(std::string(option) + ": unknown pool '" + name + "'");
    Pool& pool = problem.pools[static_cast<size_t>(*index)];
    if (pool.kind != kind) {
      throw ConfigError(std::string(option) + ": pool '" + name + "' is a " + std::string(to_string(pool.kind)) +
                        " pool");
    }
    return pool;
  };
  for (const auto& [name, bytes] : options.workspace_size_hints) {
    pool_named(name, PoolKind::kWorkspace, "--workspace-pools-size-hint-bytes").size_hint_bytes = bytes;
  }
  for (const auto& [name, bytes] : options.constant_size_hints) {
    pool_named(name, PoolKind::kConstant, "--constant-pools-size-hint-bytes").size_hint_bytes = bytes;
  }
  std::set<std::string> retargeted;
  auto set_target = [&](const std::string& name, const std::string& target, PoolKind kind, std::string_view option) {
    Pool& pool = pool_named(name, kind, option);
    if (retargeted.insert(name).second) pool.targets.clear();
    pool.targets.push_back({target, kind == PoolKind::kConstant ? "ro" : "rw"});
  };
  for (const auto& [name, target] : options.workspace_targets) {
    set_target(name, target, PoolKind::kWorkspace, "--workspace-pools-targets");
  }
  for (const auto& [name, target] : options.constant_targets) {
    set_target(name, target, PoolKind::kConstant, "--constant-pools-targets");
  }
}

// --capacity: the size hint of the one pool, or of the one unrestricted workspace pool.
void apply_capacity(Problem& problem, int64_t capacity) {
  Pool* chosen = nullptr;
  if (problem.pools.size() == 1) {
    chosen = &problem.pools.front();
  } else {
    for (Pool& p : problem.pools) {
      if (p.kind != PoolKind::kWorkspace || p.restricted()) continue;
      if (chosen)
        throw ConfigError("--capacity: several unrestricted workspace pools; use --workspace-pools-size-hint-bytes");
      chosen = &p;
    }
  }
  if (!chosen) throw ConfigError("--capacity: no unrestricted workspace pool to limit");
  chosen->size_hint_bytes = capacity;
}

}  // namespace

void apply_pool_options(Problem& problem, const PoolOptions& options) {
  replace_pools(problem, options);
  set_hints_and_targets(problem, options);
  if (options.capacity) apply_capacity(problem, *options.capacity);
}

}  // namespace usmpx
