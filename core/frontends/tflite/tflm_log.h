#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// What TFLM printed about its arena: PrintMemoryPlan's buffer lines
// ("<c> (id=<n>): size=<s>, offset=<o>, first_used=<f> last_used=<l>", built with
// TF_LITE_SHOW_MEMORY_USE) and RecordingMicroAllocator::PrintAllocations' totals
// ("Arena allocation total|head|tail <n> bytes"). Other lines are ignored.
struct TflmLog {
  struct Buffer {
    int id = 0;
    int64_t size = 0;
    int64_t offset = 0;
    int64_t first_used = 0;
    int64_t last_used = 0;
  };
  std::vector<Buffer> buffers;  // in id order, ids 0..n-1
  std::optional<int64_t> total_bytes;
  std::optional<int64_t> head_bytes;
  std::optional<int64_t> tail_bytes;
};

// Throws InputError "path:line: message" on a damaged buffer line, repeated or missing ids, and
// when the text holds neither a memory plan nor allocation totals.
TflmLog parse_tflm_log(std::string_view text, const std::string& path);

}  // namespace usmpx
