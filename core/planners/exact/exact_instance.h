#pragma once

// Builds the single-pool instance the exact search works on from some buffers of a Problem.
//
// Lifetime problems become interval instances: time is compressed to the segments between the
// members' lifetime ends, each segment is a section, and neighbours come from a sweep. Problems
// with conflict lists become general instances: the sections are cliques found greedily around
// each buffer (heaviest neighbours first), which is all the section inference needs to be sound.
// Buffers with a fixed offset in the pool (pins, or buffers a caller keeps) become fixed ranges
// the items must avoid. Members without conflicts (no lifetime, or size 0) are not items: they go
// at offset 0.

#include <cstdint>
#include <utility>
#include <vector>

#include "model/problem.h"

namespace usmpx::exact {

struct FixedRange {
  int64_t start;
  int64_t end;
};

// A single-pool placement problem. Items conflict when they share a section or are listed as
// neighbours; in interval mode the sections of item i are the contiguous range [lo[i], hi[i]).
struct Instance {
  int items = 0;
  int sections = 0;
  bool intervals = false;
  std::vector<int64_t> size;
  std::vector<int64_t> alignment;
  std::vector<std::vector<int>> neighbours;     // symmetric, no duplicates
  std::vector<int> lo, hi;                      // interval mode
  std::vector<std::vector<int>> item_sections;  // every mode (interval mode: lo..hi-1)
  // Pinned ranges the items must avoid: per item (those it conflicts with, by start) and per section.
  std::vector<std::vector<FixedRange>> item_fixed;
  std::vector<std::vector<FixedRange>> section_fixed;
  // Keys for the static preorders.
  std::vector<int64_t> width;          // lifetime length (or degree without lifetimes)
  std::vector<int64_t> section_total;  // max over the item's sections of their total size
  std::vector<int64_t> lower;          // first tick (or 0)

  // Lowest peak any packing can reach (heaviest section, or heaviest item end / fixed range).
  int64_t lower_bound() const;
};

// Static preorder named by letters, most significant first, each descending: W width, A area,
// T heaviest section, Z size, C sections spanned, O neighbours, L first tick (ascending).
// Returns rank[item] (0 = first).
std::vector<int> preorder(const Instance& instance, const char* keys);

// Sorts `items` by the letters of `keys` (as preorder()), with `total` as each item's heaviest
// section total (the T key); ties go to the lower index.
void sort_by_keys(const Instance& instance, const char* keys, const std::vector<int64_t>& total,
                  std::vector<int>& items);

struct BuiltInstance {
  Instance instance;
  std::vector<int> buffer_of_item;  // Problem buffer index of each item
  std::vector<int> free_members;    // members that conflict with nothing (placed at 0)
};

// Overlapping lifetime pairs beyond which building an instance is not worth it (memory, time).
inline constexpr int64_t kMaxInstancePairs = 4'000'000;

BuiltInstance build_instance(const Problem& problem, const std::vector<int>& members,
                             const std::vector<std::pair<int, int64_t>>& fixed);

// The granule every end a packing of the instance reaches is a multiple of: offsets are sums of
// sizes rounded up to alignments, or pinned offsets (`fixed`, buffer and offset).
int64_t packing_granule(const Instance& instance, const std::vector<std::pair<int, int64_t>>& fixed,
                        const Problem& problem);

}  // namespace usmpx::exact
