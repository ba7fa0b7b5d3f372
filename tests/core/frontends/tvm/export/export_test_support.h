#pragma once

#include <string>
#include <vector>

#include "c_toolchain.h"
#include "frontends/tvm/export/codegen/tir_c_codegen.h"
#include "frontends/tvm/usmp/tir_problem.h"
#include "model/plan.h"

// Shared by the C export tests: loading TIR files, the plans to apply (TVM's planners and
// simple hand-made ones), and a test driver that runs the generated main on given inputs.
namespace usmpx::testing {

// Reads a TVMScript or legacy dump (by content) and analyses it with `options`.
TirProblem analyze_tir_file(const std::string& path, const PoolOptions& options = {});

// Every buffer in its first candidate pool, one after the other (16-byte aligned): no reuse.
Plan distinct_plan(const Problem& problem);
// Every buffer after the previous ones in its candidate pools, taken in turn (buffer i in
// candidate i mod n): no reuse, spread over the pools.
Plan spread_plan(const Problem& problem);

// A model tensor of main: how the driver declares it, fills it (inputs) and prints it (outputs).
struct DriverTensor {
  std::string param;   // main's C parameter name (when I/O are parameters)
  std::string buffer;  // the buffer name, for use_workspace_io (where the tensor lives in a pool)
  std::string c_type;  // "int8_t", "float", ...
  size_t count = 0;
  std::vector<std::string> values;  // inputs: C initialisers; empty for outputs
};

// A C program that allocates the pools (sizes from the plan), copies pool constants in, fills
// the inputs, calls main and prints "rc=<n>" then one line per output: "<param>: v v v"
// (integers in decimal, floats with %.9g). With use_workspace_io the tensors are copied into and
// out of their pools at the plan's offsets.
std::string driver_source(const TirProblem& tir, const Plan& plan, const TirCodegenInput& input,
                          const TirCodegenResult& result, const std::vector<DriverTensor>& tensors);

// Compiles the host module and the driver with `cc -std=c11 -Wall -Werror -O2` and runs the
// program; its output, or a failure naming the step.
struct RunOutcome {
  bool ok = false;
  std::string output;  // program output, or the failing step's messages
};
RunOutcome compile_and_run(const std::string& cc, const std::string& host_module, const std::string& driver);

// Compiles one C source to an object file with `-std=c11 -Wall -Werror`; messages on failure.
RunOutcome compile_only(const std::string& cc, const std::string& source, const std::string& flags = "-O2");

// Generates the host module for `plan` and runs it through the driver.
struct PlannedRun {
  std::string source;  // the host module
  RunOutcome run;
};
PlannedRun run_with_plan(const std::string& cc, const TirProblem& tir, const Plan& plan,
                         const std::vector<DriverTensor>& tensors);

}  // namespace usmpx::testing
