/* A keyword-spotting firmware in miniature: it owns its input and output tensors, fills the input
 * as a sensor front end would (here from a fixed pseudo-random sequence, so every build computes
 * the same), calls the model through TVM's C interface exactly as firmware does, and reports the
 * result. The memory pools live in the generated code, where usmpx placed them. */
#include <stdint.h>
#include <stdio.h>

#include "tvmgen_default.h"

static int8_t features[TVMGEN_DEFAULT_INPUT_1_SIZE] __attribute__((aligned(16)));
static int8_t scores[TVMGEN_DEFAULT_OUTPUT_SIZE] __attribute__((aligned(16)));

static uint32_t noise_state = 1u;

static uint32_t noise(void) {
  noise_state ^= noise_state << 13;
  noise_state ^= noise_state >> 17;
  noise_state ^= noise_state << 5;
  return noise_state;
}

static uint32_t fnv1a(const void* data, uint32_t bytes) {
  const uint8_t* p = (const uint8_t*)data;
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

int main(void) {
  for (uint32_t i = 0; i < sizeof features; ++i) features[i] = (int8_t)(noise() >> 24);
  struct tvmgen_default_inputs inputs = {.input_1 = features};
  struct tvmgen_default_outputs outputs = {.output = scores};
  const int32_t rc = tvmgen_default_run(&inputs, &outputs);
  printf("kws rc %d\n", (int)rc);
  printf("kws scores");
  for (uint32_t i = 0; i < sizeof scores; ++i) printf(" %d", scores[i]);
  printf("\nkws checksum %08lx\n", (unsigned long)fnv1a(scores, sizeof scores));
  return rc == 0 ? 0 : 1;
}
