// An ExecuTorch firmware's memory declarations, from the generated files.
#include "expected_figures.h"
#include "model_check.h"
#include "six_step_chain_memory.h"
#include "six_step_chain_model_data.h"

namespace method = six_step_chain::forward;
static_assert(method::kPlannedBufferCount == 1, "one planned buffer");
static_assert(method::kPlannedBuffer1Bytes == EXPECTED_PTE_PLANNED_BUFFER1, "planned buffer 1 is not usmpx plan's");
static_assert(method::kMethodAllocatorBytes == EXPECTED_PTE_METHOD_ALLOCATOR, "the method allocator is not usmpx's");
static_assert(__alignof__(six_step_chain_model_data) == 16, "the program array is not declared 16-byte aligned");

// As an ExecuTorch firmware declares them: the planned buffer (HierarchicalAllocator) and the
// method allocator's pool (MemoryAllocator).
alignas(16) static unsigned char planned_buffer1[method::kPlannedBuffer1Bytes];
alignas(16) static unsigned char method_allocator_pool[method::kMethodAllocatorBytes];

int main() {
  if (!same_as_file(six_step_chain_model_data, six_step_chain_model_data_len, PLANNED_MODEL)) return 1;
  std::printf("pte ok: planned buffer 1 %zu bytes, method allocator %zu bytes (%p %p)\n", sizeof(planned_buffer1),
              sizeof(method_allocator_pool), static_cast<void*>(planned_buffer1),
              static_cast<void*>(method_allocator_pool));
  return 0;
}
