#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/allocation.h"
#include "model/buffer.h"
#include "model/pool.h"

namespace usmpx {

// Whether conflicts were given as lists or follow from overlapping lifetimes.
enum class ConflictSource { kExplicit, kLifetimes };

// What runs during a range of ticks (closed), e.g. the operator a call step executes; for display.
struct TimelineSpan {
  int64_t first = 0;
  int64_t last = 0;
  std::string label;
  bool operator==(const TimelineSpan&) const = default;
};

// Everything a planner needs: pools, buffers and the memory pressure TVM's hill climb aims for.
struct Problem {
  std::vector<Pool> pools;
  std::vector<Buffer> buffers;
  int64_t memory_pressure = 0;
  ConflictSource conflict_source = ConflictSource::kExplicit;
  std::vector<TimelineSpan> timeline;  // optional, sorted by first tick
  // The input's reference plan (what its firmware has today: as-built, TFLM's or ExecuTorch's own
  // planner, TVM's greedy_by_size), one allocation per buffer, or empty. The searching planners take
  // it as their incumbent: they never return a worse plan and stop as soon as it meets the lower
  // bound (planners/anytime/incumbent.h). Set by load_input; a plan that no longer suits the problem (pins,
  // edited pools, buffers added) is ignored there.
  std::vector<Allocation> reference_allocations;

  // The label of the timeline span containing `tick`, or nullptr.
  const TimelineSpan* span_at(int64_t tick) const;

  std::optional<int> find_pool(std::string_view name) const;
  std::optional<int> find_buffer(std::string_view name) const;
  // The pools a buffer may go into: its pin's pool when pinned, else its candidates.
  std::vector<int> effective_candidates(int buffer) const;
  bool interval_conflicts() const { return conflict_source == ConflictSource::kLifetimes; }

  bool operator==(const Problem&) const = default;
};

}  // namespace usmpx
