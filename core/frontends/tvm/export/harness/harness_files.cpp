#include "frontends/tvm/export/harness/harness_files.h"

#include <string>

namespace usmpx {

std::string_view harness_platform_c() {
  return R"(/* TVM backend calls for the test harness (USMP Explorer): TVMBackendAllocWorkspace on a static
 * arena, freed in last-in first-out order as TVM's generated code frees. */
#include <stddef.h>
#include <stdint.h>

#include "tvm/runtime/c_backend_api.h"

#ifndef USMPX_ARENA_BYTES
#define USMPX_ARENA_BYTES 65536
#endif
#define USMPX_MAX_LIVE 256

#if USMPX_ARENA_BYTES > 0
static uint8_t arena[USMPX_ARENA_BYTES] __attribute__((aligned(16)));
#else
static uint8_t* const arena = NULL; /* every allocation was planned into a pool */
#endif
static size_t live_end[USMPX_MAX_LIVE];
static void* live_ptr[USMPX_MAX_LIVE];
static int live_count = 0;

void* TVMBackendAllocWorkspace(int device_type, int device_id, uint64_t nbytes, int dtype_code_hint,
                               int dtype_bits_hint) {
  (void)device_type;
  (void)device_id;
  (void)dtype_code_hint;
  (void)dtype_bits_hint;
  size_t begin = live_count > 0 ? live_end[live_count - 1] : 0;
  begin = (begin + 15u) & ~(size_t)15u;
  if (live_count == USMPX_MAX_LIVE || begin > USMPX_ARENA_BYTES || nbytes > USMPX_ARENA_BYTES - begin) return NULL;
  live_ptr[live_count] = arena + begin;
  live_end[live_count] = begin + (size_t)nbytes;
  return live_ptr[live_count++];
}

int TVMBackendFreeWorkspace(int device_type, int device_id, void* ptr) {
  (void)device_type;
  (void)device_id;
  for (int i = live_count - 1; i >= 0; --i) {
    if (live_ptr[i] != ptr) continue;
    live_ptr[i] = NULL;
    while (live_count > 0 && live_ptr[live_count - 1] == NULL)
      --live_count;
    return 0;
  }
  return -1;
}

void TVMAPISetLastError(const char* msg) { (void)msg; }
)";
}

std::string_view harness_host_arm_acle() {
  return R"(/* The ARM C Language Extensions intrinsics that TVM's arm_cpu schedules call, written in plain C
 * for building the generated code on a machine that is not an ARM M-profile core (USMP Explorer
 * test harness). Values are computed as the instructions compute them, without the Q flag. */
#ifndef USMPX_HOST_ARM_ACLE_H
#define USMPX_HOST_ARM_ACLE_H
#include <stdint.h>

static inline int32_t usmpx_lo16(int32_t x) { return (int16_t)(uint16_t)((uint32_t)x & 0xffffu); }
static inline int32_t usmpx_hi16(int32_t x) { return (int16_t)(uint16_t)((uint32_t)x >> 16); }
static inline int32_t usmpx_pack16(int32_t lo, int32_t hi) {
  return (int32_t)(((uint32_t)lo & 0xffffu) | ((uint32_t)hi << 16));
}
static inline int32_t usmpx_sat32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
static inline int32_t usmpx_sat16(int32_t v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : v; }

static inline uint32_t __ror(uint32_t x, uint32_t n) {
  n %= 32u;
  return n == 0u ? x : (x >> n) | (x << (32u - n));
}
static inline int32_t __sxtb16(int32_t x) {
  return usmpx_pack16((int8_t)(uint8_t)((uint32_t)x & 0xffu), (int8_t)(uint8_t)(((uint32_t)x >> 16) & 0xffu));
}
static inline uint32_t __uxtb16(uint32_t x) { return x & 0x00ff00ffu; }
static inline int32_t __sxtab16(int32_t a, int32_t x) {
  int32_t b = __sxtb16(x);
  return usmpx_pack16(usmpx_lo16(a) + usmpx_lo16(b), usmpx_hi16(a) + usmpx_hi16(b));
}
static inline int32_t __smuad(int32_t a, int32_t b) {
  return (int32_t)((int64_t)usmpx_lo16(a) * usmpx_lo16(b) + (int64_t)usmpx_hi16(a) * usmpx_hi16(b));
}
static inline int32_t __smusd(int32_t a, int32_t b) {
  return (int32_t)((int64_t)usmpx_lo16(a) * usmpx_lo16(b) - (int64_t)usmpx_hi16(a) * usmpx_hi16(b));
}
static inline int32_t __smlad(int32_t a, int32_t b, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)__smuad(a, b));
}
static inline int32_t __smladx(int32_t a, int32_t b, int32_t acc) {
  int64_t p = (int64_t)usmpx_lo16(a) * usmpx_hi16(b) + (int64_t)usmpx_hi16(a) * usmpx_lo16(b);
  return (int32_t)((uint32_t)acc + (uint32_t)p);
}
static inline int32_t __smulbb(int32_t a, int32_t b) { return usmpx_lo16(a) * usmpx_lo16(b); }
static inline int32_t __smlabb(int32_t a, int32_t b, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(usmpx_lo16(a) * usmpx_lo16(b)));
}
static inline int32_t __smlabt(int32_t a, int32_t b, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(usmpx_lo16(a) * usmpx_hi16(b)));
}
static inline int32_t __smlatb(int32_t a, int32_t b, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(usmpx_hi16(a) * usmpx_lo16(b)));
}
static inline int32_t __smlatt(int32_t a, int32_t b, int32_t acc) {
  return (int32_t)((uint32_t)acc + (uint32_t)(usmpx_hi16(a) * usmpx_hi16(b)));
}
static inline int32_t __qadd(int32_t a, int32_t b) { return usmpx_sat32((int64_t)a + b); }
static inline int32_t __qsub(int32_t a, int32_t b) { return usmpx_sat32((int64_t)a - b); }
static inline int32_t __qadd16(int32_t a, int32_t b) {
  return usmpx_pack16(usmpx_sat16(usmpx_lo16(a) + usmpx_lo16(b)), usmpx_sat16(usmpx_hi16(a) + usmpx_hi16(b)));
}
static inline int32_t __qsub16(int32_t a, int32_t b) {
  return usmpx_pack16(usmpx_sat16(usmpx_lo16(a) - usmpx_lo16(b)), usmpx_sat16(usmpx_hi16(a) - usmpx_hi16(b)));
}
static inline int32_t __sadd16(int32_t a, int32_t b) {
  return usmpx_pack16(usmpx_lo16(a) + usmpx_lo16(b), usmpx_hi16(a) + usmpx_hi16(b));
}
static inline int32_t __ssub16(int32_t a, int32_t b) {
  return usmpx_pack16(usmpx_lo16(a) - usmpx_lo16(b), usmpx_hi16(a) - usmpx_hi16(b));
}
/* TVM's schedules define these two as inline assembly unless ARM_CPU_INTRINSICS_EXIST is set. */
#define __pkhbt(a, b, s) ((int32_t)(((uint32_t)(a) & 0xffffu) | (((uint32_t)(b) << (s)) & 0xffff0000u)))
#define __pkhtb(a, b, s) \
  ((int32_t)(((uint32_t)(a) & 0xffff0000u) | ((uint32_t)((int32_t)(b) >> (s)) & 0xffffu)))
#endif
)";
}

// The vector table's reset entry: data copy, bss clear, FPU enable, semihosting, main's exit code.
constexpr std::string_view kStartupReset =
    R"(/* Cortex-M start-up for the test harness on qemu-system-arm's MPS2 boards (USMP Explorer):
 * vector table, data copy, bss clear, FPU enable, newlib semihosting, exit code to the host. */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
extern void initialise_monitor_handles(void);
int main(void);

void Reset_Handler(void) {
  uint32_t* src = &_sidata;
  for (uint32_t* dst = &_sdata; dst < &_edata;)
    *dst++ = *src++;
  for (uint32_t* dst = &_sbss; dst < &_ebss;)
    *dst++ = 0;
#if defined(__ARM_FP)
  *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20; /* CPACR: full access to CP10 and CP11 */
  __asm volatile("dsb\n\tisb");
#endif
  initialise_monitor_handles();
  exit(main());
}

)";

// What a fault prints before the harness exits 99.
constexpr std::string_view kStartupFaultReport =
    R"(/* A fault prints its registers over semihosting (SYS_WRITE0, no C library: the heap or the stack
 * may be what broke), on a stack of its own, then exits 99:
 * "usmpx-fault exception=3 pc=0x... lr=0x... sp=0x... cfsr=0x... hfsr=0x... mmfar=0x... bfar=0x..."
 * pc and lr are those the fault stacked, 0 when stacking itself failed. */
static uint32_t usmpx_fault_stack[128] __attribute__((aligned(8)));
uint32_t* const usmpx_fault_stack_top = usmpx_fault_stack + 128;

static void usmpx_fault_put(char* at, const char* name, uint32_t value) {
  while (*at) ++at;
  while (*name) *at++ = *name++;
  *at++ = '0';
  *at++ = 'x';
  for (int shift = 28; shift >= 0; shift -= 4) *at++ = "0123456789abcdef"[(value >> shift) & 0xFu];
  *at = 0;
}

__attribute__((used, noreturn)) void usmpx_fault_report(const uint32_t* frame) {
  const uint32_t cfsr = *(volatile uint32_t*)0xE000ED28u, hfsr = *(volatile uint32_t*)0xE000ED2Cu;
  const uint32_t mmfar = *(volatile uint32_t*)0xE000ED34u, bfar = *(volatile uint32_t*)0xE000ED38u;
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  const int stacked = (cfsr & ((1u << 12) | (1u << 4))) == 0; /* STKERR, MSTKERR */
  static char line[160];
  line[0] = 0;
  usmpx_fault_put(line, "usmpx-fault exception=", ipsr & 0x1FFu);
  usmpx_fault_put(line, " pc=", stacked ? frame[6] : 0u);
  usmpx_fault_put(line, " lr=", stacked ? frame[5] : 0u);
  usmpx_fault_put(line, " sp=", (uint32_t)(uintptr_t)frame);
  usmpx_fault_put(line, " cfsr=", cfsr);
  usmpx_fault_put(line, " hfsr=", hfsr);
  usmpx_fault_put(line, " mmfar=", mmfar);
  usmpx_fault_put(line, " bfar=", bfar);
  char* end = line;
  while (*end) ++end;
  end[0] = '\n';
  end[1] = 0;
  register uint32_t op __asm("r0") = 0x04u; /* SYS_WRITE0 */
  register const char* text __asm("r1") = line;
  __asm volatile("bkpt 0xab" : "+r"(op) : "r"(text) : "memory");
  /* SYS_EXIT_EXTENDED (ADP_Stopped_ApplicationExit, 99) without the C library, which the fault
   * may have overwritten; newlib's exit if the emulator does not know it. */
  static const uint32_t exit_block[2] = {0x20026u, 99u};
  register uint32_t exit_op __asm("r0") = 0x20u;
  register const uint32_t* block __asm("r1") = exit_block;
  __asm volatile("bkpt 0xab" : "+r"(exit_op) : "r"(block) : "memory");
  _Exit(99);
}

)";

// The vector table: every fault goes to the reporter on its own stack.
constexpr std::string_view kStartupVectors = R"(__attribute__((naked)) void Fault_Handler(void) {
  __asm volatile(
      "tst lr, #4\n\t"
      "ite eq\n\t"
      "mrseq r0, msp\n\t"
      "mrsne r0, psp\n\t"
      "ldr r1, =usmpx_fault_stack_top\n\t"
      "ldr r1, [r1]\n\t"
      "mov sp, r1\n\t"
      "b usmpx_fault_report\n\t");
}

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&_estack, Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
    Fault_Handler, Fault_Handler, 0, 0, 0, 0, Fault_Handler, Fault_Handler, 0, Fault_Handler, Fault_Handler};
)";

std::string_view harness_startup_c() {
  static const std::string text =
      std::string(kStartupReset) + std::string(kStartupFaultReport) + std::string(kStartupVectors);
  return text;
}

// The tools, the model's sources and the flags every target uses.
constexpr std::string_view kMakeToolsAndFlags = R"(
HOST_CC ?= cc
ARM_CC ?= arm-none-eabi-gcc
ARM_SIZE ?= arm-none-eabi-size
ARM_AR ?= arm-none-eabi-ar
QEMU ?= qemu-system-arm
# KERNELS=DIR: the user's vendor kernels, DIR/*.c built with the model, headers in DIR, DIR/include.
KERNELS ?=
ifneq ($(KERNELS),)
MODEL_SRCS += $(sort $(wildcard $(KERNELS)/*.c))
MODEL_INCLUDE_DIRS += $(KERNELS) $(KERNELS)/include
endif
# TVM's files build as TVM's users build them: warnings shown (kept in the log), never errors (TVM
# up to 0.14 passes &pool to a uint8_t* parameter). The harness's own files include TVM's headers,
# so a warning there is no error either.
vpath %.c $(sort $(dir $(MODEL_SRCS)))
MODEL_OBJS = $(patsubst %.c,build/$(1)/%.o,$(notdir $(MODEL_SRCS)))
INCLUDES := -Iinclude $(addprefix -I,$(MODEL_INCLUDE_DIRS))
ifneq ($(CMSIS_NN),)
INCLUDES += -I$(CMSIS_NN)/Include
CMSIS_NN_SRCS := $(sort $(wildcard $(CMSIS_NN)/Source/*/*.c))
endif
CMSIS_NN_BUILD ?= build/cmsis-nn
cmsis_lib = $(if $(CMSIS_NN),$(CMSIS_NN_BUILD)/$(1)/libcmsis-nn.a)
MODEL_FLAGS := -std=gnu11 -O2 -Wno-error -Wno-error=incompatible-pointer-types -Wno-error=int-conversion -DARM_CPU_INTRINSICS_EXIST $(INCLUDES)
HARNESS_FLAGS := -std=c11 -O2 -Wall -Wextra -Wno-error -DUSMPX_ARENA_BYTES=$(ARENA_BYTES) -Iinclude $(addprefix -I,$(MODEL_INCLUDE_DIRS))
)";

// CMSIS-NN built once per target, and the targets the Makefile offers.
constexpr std::string_view kMakeCmsisNnLibrary =
    R"(# CMSIS-NN, once per target: its portable C on this machine, its DSP paths on Cortex-M4/M7.
CMSIS_NN_FLAGS := -std=gnu11 -O2 -w -I$(CMSIS_NN)/Include
define cmsis_nn_library
$(CMSIS_NN_BUILD)/$(1)/libcmsis-nn.a: $(CMSIS_NN_SRCS)
	mkdir -p $$(@D)/obj
	for f in $$(CMSIS_NN_SRCS); do $(2) $(3) $$(CMSIS_NN_FLAGS) -c $$$$f -o $$(@D)/obj/$$$$(basename $$$$f .c).o || exit 1; done
	$(4) rcs $$@ $$(@D)/obj/*.o
endef

.PHONY: all run host host-objects cortex-m4 cortex-m7 clean
all: run

)";

// The build on this machine.
constexpr std::string_view kMakeHostRules =
    R"(# This machine: the ACLE intrinsics come from include-host/arm_acle.h. host-objects compiles
# without linking, for a program of several modules linked elsewhere (usmpx selftest of a firmware file).
host: build/host/model
host-objects: $(call MODEL_OBJS,host) build/host/main.o build/host/platform.o $(call cmsis_lib,host)
build/host/%.o: %.c | build/host
	$(HOST_CC) $(MODEL_FLAGS) -Iinclude-host -c $< -o $@
build/host/main.o: main.c | build/host
	$(HOST_CC) $(HARNESS_FLAGS) -c $< -o $@
build/host/platform.o: platform.c | build/host
	$(HOST_CC) $(HARNESS_FLAGS) -c $< -o $@
$(eval $(call cmsis_nn_library,host,$(HOST_CC),,ar))
build/host/model: $(call MODEL_OBJS,host) build/host/main.o build/host/platform.o $(call cmsis_lib,host)
	$(HOST_CC) $^ -lm -o $@
run: build/host/model
	./build/host/model

)";

// The Cortex-M boards qemu-system-arm runs.
constexpr std::string_view kMakeBoardRules = R"(# MPS2 boards on qemu-system-arm, with newlib's semihosting (rdimon).
M4_FLAGS := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
M7_FLAGS := -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16
define board
build/$(1)/%.o: %.c | build/$(1)
	$$(ARM_CC) $(2) $$(MODEL_FLAGS) -ffunction-sections -fdata-sections -c $$< -o $$@
build/$(1)/main.o: main.c | build/$(1)
	$$(ARM_CC) $(2) $$(HARNESS_FLAGS) -c $$< -o $$@
build/$(1)/platform.o: platform.c | build/$(1)
	$$(ARM_CC) $(2) $$(HARNESS_FLAGS) -c $$< -o $$@
build/$(1)/startup.o: startup.c | build/$(1)
	$$(ARM_CC) $(2) $$(HARNESS_FLAGS) -c $$< -o $$@
$$(eval $$(call cmsis_nn_library,$(1),$$(ARM_CC),$(2) -ffunction-sections -fdata-sections,$$(ARM_AR)))
build/$(1)/model.elf: $$(call MODEL_OBJS,$(1)) build/$(1)/main.o build/$(1)/platform.o build/$(1)/startup.o mps2.ld $$(call cmsis_lib,$(1))
	$$(ARM_CC) $(2) -nostartfiles --specs=rdimon.specs -Wl,--gc-sections -Wl,--defsym=USMPX_PSRAM_ORIGIN=$(5) -L$$(ROOT)/$$(FRAGMENT_DIR) -T mps2.ld $$(filter %.o %.a,$$^) -lm -Wl,--start-group -lc -lrdimon -Wl,--end-group -o $$@
	$$(ARM_SIZE) $$@
$(1): build/$(1)/model.elf
	timeout 120 $$(QEMU) -machine $(3) -cpu $(4) -nographic -monitor none -serial none -semihosting-config enable=on,target=native -kernel $$<
endef
# The boards' 16 MiB PSRAM, where mps2.ld puts what SSRAM does not hold: 0x21000000 on AN386, 0x60000000 on AN500.
$(eval $(call board,cortex-m4,$(M4_FLAGS),mps2-an386,cortex-m4,0x21000000))
$(eval $(call board,cortex-m7,$(M7_FLAGS),mps2-an500,cortex-m7,0x60000000))

build/%:
	mkdir -p $@
clean:
	rm -rf build
)";

std::string_view harness_makefile_rules() {
  static const std::string text = std::string(kMakeToolsAndFlags) + std::string(kMakeCmsisNnLibrary) +
                                  std::string(kMakeHostRules) + std::string(kMakeBoardRules);
  return text;
}

}  // namespace usmpx
