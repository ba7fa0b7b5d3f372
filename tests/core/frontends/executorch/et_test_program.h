#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace usmpx::testing {

// A small ExecuTorch program written with the project's field ids (et_schema.h), for tests: one
// method "forward" of float tensors, kernel and delegate calls (the delegate list is left out
// when there is none).
struct EtTestTensor {
  std::vector<int32_t> sizes;
  uint32_t memory_id = 1;  // 0: not memory-planned
  uint64_t offset = 0;
  int8_t scalar_type = 6;  // ExecuTorch ScalarType: FLOAT
};

struct EtTestCall {
  bool delegate = false;
  int32_t index = 0;  // operator or delegate
  std::vector<int32_t> args;
};

struct EtTestProgram {
  std::vector<EtTestTensor> tensors;   // values 0..n-1
  std::vector<int64_t> ints;           // Int values n.. after the tensors
  std::vector<std::string> operators;  // "name.overload"
  std::vector<std::string> delegates;  // backend ids
  std::vector<EtTestCall> calls;
  std::vector<int32_t> inputs, outputs;
  std::vector<int64_t> buffer_sizes;  // non_const_buffer_sizes, entry 0 included
  bool extended_header = false;       // ExecuTorch's 32-byte "eh00" header after the identifier
};

std::string et_test_program_bytes(const EtTestProgram& p);

// Two XnnpackBackend delegate calls joined by a view no instruction writes (a reshape folded away
// between them): call 0 reads value 0 (an input of 4 MiB) and writes value 1 (float [1,16,1,1]);
// call 1 reads value 2 (float [1,16], a view of value 1) and writes value 3 (the output). Offsets
// as ExecuTorch's greedy gives them with the view sharing its base's storage: v0 and v3 at 0,
// v1 and v2 at 4,194,304; buffer 4,194,304 + 64 + XNNPACK's 64-byte tail.
EtTestProgram two_delegates_joined_by_a_view();

// A chain x[16] -> a[32] -> b[32] -(XnnpackBackend)-> c[32] -> y[16] of kernel calls with one delegate
// call, planned by ExecuTorch's greedy with c as the delegate's output: c lands on the bytes of a,
// which died before (offset 0, 128 bytes); a is read again after its write, so c could be a view
// of it, but only c apart from a gives the program's offsets.
EtTestProgram delegate_output_on_dead_bytes();

// One aten::add.out on LONG (int64) tensors, as a program that adds int64 tensors has it: values
// 0 and 1 the inputs [4], 2 the output [4] (planned at 0, 32 and 64 of a 96-byte buffer), 3 alpha
// (Int 1). ExecuTorch's portable kernels run it; the project's add is for FLOAT tensors only.
EtTestProgram add_on_long_tensors();

// resources/examples/six_step_chain.pte, written by this project: one method "forward" of six
// kernel calls over seven float tensors (an input of 64, an output of 32), planned by ExecuTorch's
// greedy into one 864-byte buffer (the bytes every instant needs at most: 576), with the extended
// header. Operators are named "example::step_N.out": a planning example, not a runnable model.
std::string example_program_bytes();

}  // namespace usmpx::testing
