__attribute__((section(".x"))) int a; int f(int x) __attribute__((unused)) { __asm__ volatile("nop" : : ); return __ssub8(x, x) + __SMLAD(x, x, 0) + p->q(x) + s.t(x) + (*fp)(x); }
#include "
#include <
