#pragma once

// Helpers of the C export's text tests: analysing inline TVMScript, emitting with a plan,
// looking for whole lines, and compiling what was emitted.
#include <gtest/gtest.h>

#include <string>

#include "export/export_error.h"
#include "export_test_support.h"
#include "frontends/tvm/export/codegen/tir_c_codegen.h"
#include "frontends/tvm/export/codegen/tir_codegen_input.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"
#include "frontends/tvm/usmp/tir_problem.h"
#include "test_support.h"

namespace usmpx::testing {

inline TirProblem analyze_text(const std::string& source, const PoolOptions& options = {}) {
  return analyze_tir_module(read_tvmscript(source, "m.py"), options);
}

inline TirCodegenResult emit(const TirProblem& tir, const Plan& plan) {
  return emit_tir_host_module(tir_codegen_input(tir, plan));
}

inline TirCodegenResult emit_greedy(const TirProblem& tir) {
  return emit(tir, plan_with("greedy_by_size", tir.problem));
}

inline bool has_line(const std::string& source, const std::string& line) {
  return source.find("\n" + line + "\n") != std::string::npos;
}

#define EXPECT_LINE(source, line) \
  EXPECT_TRUE(::usmpx::testing::has_line(source, line)) << "missing line:\n" << (line) << "\nin:\n" << (source)

// Compiles the source with -Wall -Werror when a C compiler is at hand (the run and compile
// tests skip visibly without one).
inline void expect_compiles(const std::string& source) {
  const std::string cc = find_c_compiler();
  if (cc.empty()) return;
  const RunOutcome built = compile_only(cc, source, "-O0");
  EXPECT_TRUE(built.ok) << built.output << "\n" << source;
}

inline std::string export_error(const TirProblem& tir) {
  try {
    emit_greedy(tir);
  } catch (const ExportError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace usmpx::testing
