#include "chart/chart_data.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/live_ranges.h"

namespace usmpx::views {
namespace {

BufferBox box_of(const Problem& problem, const ChartData& data, int b, const Allocation& a) {
  const Buffer& buffer = problem.buffers[static_cast<size_t>(b)];
  BufferBox box;
  box.buffer = b;
  // display_lifetime's rule (constants span the run) without its scan of all buffers per call.
  const std::optional<Lifetime> lifetime = buffer.kind == BufferKind::kConstant
                                               ? std::optional<Lifetime>(Lifetime{static_cast<int64_t>(data.tick_first),
                                                                                  static_cast<int64_t>(data.tick_end)})
                                               : buffer.lifetime;
  if (data.buffer_columns) {
    box.x0 = static_cast<double>(b);
    box.x1 = static_cast<double>(b) + 1.0;
  } else if (lifetime && !lifetime->empty()) {
    box.x0 = static_cast<double>(lifetime->begin);
    box.x1 = static_cast<double>(lifetime->end);
    // The ticks its conflicts were computed from, when finer than one range.
    if (buffer.kind != BufferKind::kConstant) {
      for (const Lifetime& range : buffer.live_ranges)
        box.segments.emplace_back(static_cast<double>(range.begin), static_cast<double>(range.end));
    }
  } else {
    box.x0 = data.tick_first;
    box.x1 = data.tick_end;
  }
  box.y0 = static_cast<double>(a.offset);
  box.y1 = static_cast<double>(a.offset + buffer.size_bytes);
  box.role = buffer_role(buffer);
  box.pinned = buffer.pin.has_value();
  box.label = QString::fromStdString(buffer.name);
  if (!data.label_prefix.isEmpty() && box.label.startsWith(data.label_prefix))
    box.label = box.label.mid(data.label_prefix.size());
  return box;
}

// Bytes in use at each tick by the buffers the plan put into `pool`, over the ticks they are drawn
// (constants hold their bytes across the whole run, as drawn, though planned by their lifetimes;
// other buffers by their live ranges): the length of the union of their address ranges, so buffers
// that share memory count once and the line never rises above the pool's used size.
std::vector<LiveStep> occupied_bytes(const Problem& problem, const Plan& plan, int pool, Lifetime run) {
  std::map<int64_t, std::vector<std::pair<int, bool>>> events;  // tick -> (buffer, starts)
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    if (plan.allocations[b].pool != pool) continue;
    const Buffer& buffer = problem.buffers[b];
    const std::vector<Lifetime> ranges =
        buffer.kind == BufferKind::kConstant ? std::vector<Lifetime>{run} : live_ranges_of(buffer);
    for (const Lifetime& lt : ranges) {
      events[lt.begin].emplace_back(static_cast<int>(b), true);
      events[lt.end].emplace_back(static_cast<int>(b), false);
    }
  }
  std::set<std::pair<int64_t, int>> active;  // (offset, buffer), so the union is one ordered pass
  std::vector<LiveStep> steps;
  for (const auto& [tick, changes] : events) {
    for (const auto& [b, starts] : changes) {
      const std::pair<int64_t, int> key{plan.allocations[static_cast<size_t>(b)].offset, b};
      if (starts) {
        active.insert(key);
      } else {
        active.erase(key);
      }
    }
    int64_t bytes = 0;
    int64_t reached = INT64_MIN;
    for (const auto& [offset, b] : active) {
      const int64_t end = offset + problem.buffers[static_cast<size_t>(b)].size_bytes;
      if (end <= reached) continue;
      bytes += end - std::max(offset, reached);
      reached = end;
    }
    if (!steps.empty() && steps.back().bytes == bytes) continue;
    steps.push_back({tick, bytes});
  }
  return steps;
}

// The scopes most buffer names start with ("model/" of TFLite tensors beside the model's I/O
// names, or "MobilenetV1/MobilenetV1/" of a whole network): scope after scope up to a separator,
// as long as at least half of the names share it and it leaves them a name of their own.
QString common_name_prefix(const Problem& problem) {
  if (problem.buffers.size() < 2) return QString();
  std::string prefix;
  for (;;) {
    std::map<std::string, size_t> scopes;
    for (const Buffer& b : problem.buffers) {
      if (b.name.size() <= prefix.size() || b.name.compare(0, prefix.size(), prefix) != 0) continue;
      const size_t cut = b.name.find_first_of("/.:", prefix.size());
      if (cut != std::string::npos && cut + 1 < b.name.size()) ++scopes[b.name.substr(0, cut + 1)];
    }
    const auto most = std::max_element(scopes.begin(), scopes.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most == scopes.end() || 2 * most->second < problem.buffers.size()) break;
    prefix = most->first;
  }
  return QString::fromStdString(prefix);
}

}  // namespace

ChartData build_chart_data(const Problem& problem, const Plan& plan, const PlanSummary& summary) {
  ChartData data;
  const auto [first, end] = tick_range(problem);
  data.tick_first = static_cast<double>(first);
  data.tick_end = static_cast<double>(end);
  data.buffer_columns = !problem.interval_conflicts() && !problem.buffers.empty() &&
                        std::none_of(problem.buffers.begin(), problem.buffers.end(),
                                     [](const Buffer& b) { return b.lifetime.has_value(); });
  if (data.buffer_columns) {
    data.tick_first = 0;
    data.tick_end = static_cast<double>(problem.buffers.size());
  }
  data.plan_fits = summary.fits;
  data.label_prefix = common_name_prefix(problem);
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    PoolChartData pd;
    pd.name = QString::fromStdString(pool.name);
    pd.constant = pool.kind == PoolKind::kConstant;
    pd.size_hint_bytes = pool.size_hint_bytes;
    pd.alignment = pool.alignment;
    if (p < summary.pools.size()) {
      pd.size_bytes = summary.pools[p].size_bytes;
      pd.lower_bound_bytes = summary.pools[p].lower_bound_bytes;
      pd.over_hint = summary.pools[p].over_hint;
      pd.live_bytes = occupied_bytes(problem, plan, static_cast<int>(p), Lifetime{first, end});
    }
    data.pools.push_back(std::move(pd));
  }
  for (size_t b = 0; b < problem.buffers.size() && b < plan.allocations.size(); ++b) {
    const Allocation& a = plan.allocations[b];
    if (!a.placed() || static_cast<size_t>(a.pool) >= data.pools.size()) continue;
    data.pools[static_cast<size_t>(a.pool)].boxes.push_back(box_of(problem, data, static_cast<int>(b), a));
  }
  return data;
}

void add_reference(ChartData& data, const Problem& problem, const std::vector<Allocation>& allocations,
                   const std::vector<qint64>& pool_bytes, const QString& reference_name) {
  for (size_t p = 0; p < data.pools.size() && p < pool_bytes.size(); ++p) {
    data.pools[p].reference_bytes = pool_bytes[p];
    data.pools[p].reference_name = reference_name;
  }
  for (size_t b = 0; b < problem.buffers.size() && b < allocations.size(); ++b) {
    const Allocation& a = allocations[b];
    if (!a.placed() || static_cast<size_t>(a.pool) >= data.pools.size()) continue;
    data.pools[static_cast<size_t>(a.pool)].reference_boxes.push_back(box_of(problem, data, static_cast<int>(b), a));
  }
}

void add_models(ChartData& data, const std::vector<ModelSpan>& models) {
  data.models.clear();
  std::map<int, int> model_of;  // buffer -> model
  for (size_t m = 0; m < models.size(); ++m) {
    const ModelSpan& span = models[m];
    data.models.push_back({QString::fromStdString(span.name), static_cast<double>(span.first_tick),
                           static_cast<double>(span.last_tick + 1)});
    for (int b : span.buffers)
      model_of[b] = static_cast<int>(m);
  }
  // The time axis spans every model whole (a model's first ticks may hold no buffer), constants
  // drawn across it as before.
  const double old_first = data.tick_first;
  const double old_end = data.tick_end;
  if (!data.models.empty() && !data.buffer_columns) {
    for (const ModelBand& band : data.models) {
      data.tick_first = std::min(data.tick_first, band.x0);
      data.tick_end = std::max(data.tick_end, band.x1);
    }
  }
  for (PoolChartData& pool : data.pools) {
    for (std::vector<BufferBox>* boxes : {&pool.boxes, &pool.reference_boxes}) {
      for (BufferBox& box : *boxes) {
        if (box.role == BufferRole::kConstant && box.x0 == old_first && box.x1 == old_end) {
          box.x0 = data.tick_first;
          box.x1 = data.tick_end;
        }
        const auto found = model_of.find(box.buffer);
        box.model = found == model_of.end() ? -1 : found->second;
        // The band and the hue say which model a box is of: its label leaves out "model/".
        if (box.model < 0) continue;
        const QString scope = data.models[static_cast<size_t>(box.model)].name + QLatin1Char('/');
        if (box.label.startsWith(scope)) box.label = box.label.mid(scope.size());
      }
    }
  }
}

}  // namespace usmpx::views
