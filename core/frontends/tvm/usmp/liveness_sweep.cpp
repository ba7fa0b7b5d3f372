#include "frontends/tvm/usmp/liveness_sweep.h"

#include <algorithm>

namespace usmpx {

LivenessResult sweep_liveness(const std::vector<int64_t>& sizes, const std::vector<bool>& is_constant,
                              const std::vector<AccessInterval>& intervals) {
  struct Event {
    int64_t tick;
    bool start;
    int buffer;
  };
  std::vector<Event> events;
  events.reserve(intervals.size() * 2);
  for (const AccessInterval& i : intervals) {
    events.push_back({i.first, true, i.buffer});
    events.push_back({i.last, false, i.buffer});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.tick != b.tick) return a.tick < b.tick;
    if (a.start != b.start) return a.start;
    return a.buffer < b.buffer;
  });

  LivenessResult result;
  result.conflicts.resize(sizes.size());
  std::vector<int> open;  // in the order buffers were opened
  int64_t live = 0;
  for (const Event& e : events) {
    const size_t b = static_cast<size_t>(e.buffer);
    if (e.start) {
      for (int o : open) {
        result.conflicts[static_cast<size_t>(o)].push_back(e.buffer);
        if (o != e.buffer) result.conflicts[b].push_back(o);
      }
      live += sizes[b];
      result.memory_pressure = std::max(result.memory_pressure, live);
      if (std::find(open.begin(), open.end(), e.buffer) == open.end()) open.push_back(e.buffer);
    } else {
      live -= sizes[b];
      std::erase(open, e.buffer);
    }
  }

  std::vector<int> constants;
  for (size_t b = 0; b < sizes.size(); ++b) {
    if (b < is_constant.size() && is_constant[b]) constants.push_back(static_cast<int>(b));
  }
  for (size_t b = 0; b < sizes.size(); ++b) {
    auto& list = result.conflicts[b];
    if (b < is_constant.size() && is_constant[b]) {
      list.clear();
      for (int c : constants) {
        if (c != static_cast<int>(b)) list.push_back(c);
      }
    } else {
      std::erase_if(list, [&](int c) {
        return static_cast<size_t>(c) < is_constant.size() && is_constant[static_cast<size_t>(c)];
      });
    }
  }
  return result;
}

void keep_io_live(std::vector<AccessInterval>& intervals, const std::vector<int>& inputs,
                  const std::vector<int>& outputs, int64_t last_tick) {
  auto rewrite = [&](int buffer, bool input) {
    int64_t first = input ? 0 : last_tick;
    int64_t last = input ? 0 : last_tick;
    for (const AccessInterval& i : intervals) {
      if (i.buffer != buffer) continue;
      first = std::min(first, i.first);
      last = std::max(last, i.last);
    }
    if (input) first = 0;
    if (!input) last = last_tick;
    intervals.erase(
        std::remove_if(intervals.begin(), intervals.end(), [&](const AccessInterval& i) { return i.buffer == buffer; }),
        intervals.end());
    intervals.push_back({buffer, first, last});
  };
  for (int b : inputs)
    rewrite(b, true);
  for (int b : outputs)
    rewrite(b, false);
}

}  // namespace usmpx
