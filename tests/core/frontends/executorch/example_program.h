#pragma once

#include <string>

namespace usmpx::testing {

// resources/examples/six_step_chain.pte, written by this project: one method "forward" of six
// kernel calls over seven float tensors (an input of 64, an output of 32), planned by ExecuTorch's
// greedy into one 864-byte buffer (the bytes every instant needs at most: 576), with the extended
// header. Operators are named "example::step_N.out": a planning example, not a runnable model.
std::string example_program_bytes();

}  // namespace usmpx::testing
