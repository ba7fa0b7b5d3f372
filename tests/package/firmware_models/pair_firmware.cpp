// A firmware running two TFLite Micro models on one shared arena, from the generated files.
#include <string>

#include "expected_figures.h"
#include "first/first_memory.h"
#include "first/first_model_data.h"
#include "model_check.h"
#include "second/second_memory.h"
#include "second/second_model_data.h"
#include "usmpx_firmware.h"

static_assert(USMPX_ARENA_SIZE == EXPECTED_PAIR_ARENA, "the shared arena is not usmpx plan's");
static_assert(first::kTensorArenaSize == EXPECTED_PAIR_FIRST_ARENA, "the first model's own arena");
static_assert(__alignof__(first_model_data) == 16 && __alignof__(second_model_data) == 16, "16-byte aligned arrays");

// One arena, one tflite::MicroAllocator::Create(arena, USMPX_ARENA_SIZE), an interpreter per model.
alignas(16) static unsigned char arena[USMPX_ARENA_SIZE];

int main() {
  const std::string dir = PLANNED_DIR;
  if (!same_as_file(first_model_data, first_model_data_len, (dir + "/first/tiny_classifier.tflite").c_str()) ||
      !same_as_file(second_model_data, second_model_data_len, (dir + "/second/tiny_classifier.tflite").c_str()))
    return 1;
  std::printf("pair ok: shared arena %d bytes at %p\n", USMPX_ARENA_SIZE, static_cast<void*>(arena));
  return 0;
}
