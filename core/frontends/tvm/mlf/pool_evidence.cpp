#include "frontends/tvm/mlf/pool_evidence.h"

#include <algorithm>

namespace usmpx {

int64_t alignment_dividing(const std::vector<int64_t>& offsets, int64_t cap) {
  int64_t align = 1;
  while (align * 2 <= cap)
    align *= 2;
  for (const int64_t offset : offsets) {
    while (align > 1 && offset % align != 0)
      align /= 2;
  }
  return align;
}

std::vector<PoolSizeFromTotal> sizes_from_totals(const std::vector<Pool>& pools,
                                                 const std::map<std::string, int64_t>& known,
                                                 const std::vector<PoolTotal>& totals) {
  std::vector<PoolSizeFromTotal> out;
  for (const PoolTotal& total : totals) {
    const Pool* unknown = nullptr;
    int unknowns = 0;
    int64_t rest = total.bytes;
    for (const Pool& p : pools) {
      if (p.kind != total.kind) continue;
      const auto it = known.find(p.name);
      if (it != known.end()) {
        rest -= it->second;
      } else {
        unknown = &p;
        ++unknowns;
      }
    }
    // Several pools of unknown size share the total in a way nothing tells; a negative rest means
    // the total counts something else.
    if (unknowns != 1 || rest < 0) continue;
    const bool again = std::any_of(out.begin(), out.end(), [&](const auto& s) { return s.pool == unknown->name; });
    if (!again) out.push_back({unknown->name, rest, total.source});
  }
  return out;
}

}  // namespace usmpx
