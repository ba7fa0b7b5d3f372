#include "model_problems.h"

#include <iterator>
#include <random>

#include "base/text_file.h"
#include "frontends/problem_files/problem_json.h"

namespace usmpx::testing {

Problem model_shaped_problem(int buffers, int64_t constant_bytes) {
  std::mt19937_64 rng(static_cast<uint64_t>(buffers) * 7919U);
  Problem p;
  p.conflict_source = ConflictSource::kLifetimes;
  Pool dtcm{.name = "dtcm", .size_hint_bytes = 128 * 1024};
  Pool sram{.name = "sram"};
  Pool flash{.name = "flash"};
  flash.kind = PoolKind::kConstant;
  p.pools = {dtcm, sram, flash};
  const int constants = std::max(1, buffers / 8);
  const int64_t horizon = std::max<int64_t>(20, buffers / 2);
  for (int i = 0; i < buffers; ++i) {
    Buffer b;
    b.alignment = 16;
    if (i % 8 == 0 && i / 8 < constants) {
      b.name = "fused_constant_" + std::to_string(i / 8);
      b.kind = BufferKind::kConstant;
      b.size_bytes = constant_bytes / constants / 16 * 16;
      b.lifetime = Lifetime{0, horizon};
      b.pool_candidates = {2};
    } else {
      b.name = "sid_" + std::to_string(i);
      b.size_bytes = 16 * std::uniform_int_distribution<int64_t>(1, 1024)(rng);
      const int64_t start = std::uniform_int_distribution<int64_t>(0, horizon - 2)(rng);
      b.lifetime = Lifetime{start, std::min(horizon, start + std::uniform_int_distribution<int64_t>(1, 6)(rng))};
      b.pool_candidates = {0, 1};
      b.origin.function = i % 3 == 0 ? "tvmgen_default_fused_op_" + std::to_string(i) : "tvmgen_default___tvm_main__";
    }
    p.buffers.push_back(std::move(b));
  }
  return p;
}

Problem model_shaped_mixed_alignment_problem(int buffers, int64_t constant_bytes, uint64_t seed) {
  Problem p = model_shaped_problem(buffers, constant_bytes);
  std::mt19937_64 rng(seed * 104729U + static_cast<uint64_t>(buffers));
  constexpr int64_t kAlignments[] = {16, 16, 64, 4, 1, 16, 4};
  int k = 0;
  int64_t constants = 0;
  for (const Buffer& b : p.buffers)
    constants += b.kind == BufferKind::kConstant ? 1 : 0;
  const int64_t average = std::max<int64_t>(2, constant_bytes / std::max<int64_t>(1, constants));
  for (Buffer& b : p.buffers) {
    if (b.kind != BufferKind::kConstant) continue;
    b.alignment = kAlignments[k++ % std::size(kAlignments)];
    b.size_bytes = std::uniform_int_distribution<int64_t>(1, 2 * average - 1)(rng);
  }
  return p;
}

std::string write_model_shaped_problem(const std::string& path, int buffers, int64_t constant_bytes) {
  write_file_atomically(path, write_problem_json(model_shaped_problem(buffers, constant_bytes)));
  return path;
}

}  // namespace usmpx::testing
