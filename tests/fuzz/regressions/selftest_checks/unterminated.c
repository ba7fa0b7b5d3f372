#include <arm_nnfunctions.h>
int f(void) { return arm_softmax_s8("open /* never closed
#define \
