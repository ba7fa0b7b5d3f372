// A TFLite Micro firmware's memory declarations, from the generated files.
#include "expected_figures.h"
#include "model_check.h"
#include "tiny_classifier_memory.h"
#include "tiny_classifier_model_data.h"

static_assert(tiny_classifier::kTensorArenaSize == EXPECTED_TFLITE_ARENA, "kTensorArenaSize is not usmpx plan's");
static_assert(__alignof__(tiny_classifier_model_data) == 16, "the model array is not declared 16-byte aligned");
static_assert(sizeof(tiny_classifier_model_data) == tiny_classifier_model_data_len, "the array's length");

// As a TFLM firmware declares it: MicroInterpreter(model, resolver, tensor_arena, kTensorArenaSize).
alignas(16) static unsigned char tensor_arena[tiny_classifier::kTensorArenaSize];

int main() {
  if (!same_as_file(tiny_classifier_model_data, tiny_classifier_model_data_len, PLANNED_MODEL)) return 1;
  std::printf("tflite ok: kTensorArenaSize %d, model %u bytes, arena at %p\n", tiny_classifier::kTensorArenaSize,
              tiny_classifier_model_data_len, static_cast<void*>(tensor_arena));
  return 0;
}
