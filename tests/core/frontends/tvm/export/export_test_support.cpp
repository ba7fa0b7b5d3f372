#include "export_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "base/alignment.h"
#include "base/text_file.h"
#include "frontends/tvm/export/codegen/c_names.h"
#include "frontends/tvm/export/codegen/tir_codegen_input.h"
#include "frontends/tvm/tir_readers/legacy_tir_reader.h"
#include "frontends/tvm/tir_readers/tvmscript_reader.h"

namespace usmpx::testing {
namespace {

Plan sequential_plan(const Problem& problem, bool spread) {
  Plan plan;
  plan.algorithm = spread ? "spread" : "distinct";
  std::vector<int64_t> end(problem.pools.size(), 0);
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer& b = problem.buffers[i];
    const std::vector<int>& candidates = b.pool_candidates;
    const int pool = candidates.at(spread ? i % candidates.size() : 0);
    const int64_t offset = align_up(end[static_cast<size_t>(pool)], std::max<int64_t>(16, b.alignment));
    plan.allocations.push_back({pool, offset});
    end[static_cast<size_t>(pool)] = offset + b.size_bytes;
  }
  compute_pool_sizes(problem, plan);
  return plan;
}

bool is_float(const std::string& c_type) {
  return c_type == "float" || c_type == "double";
}

}  // namespace

TirProblem analyze_tir_file(const std::string& path, const PoolOptions& options) {
  const std::string text = read_text_file(path);
  const tir::Module module = looks_like_tvmscript(text) ? read_tvmscript(text, path) : read_legacy_tir(text, path);
  return analyze_tir_module(module, options);
}

Plan distinct_plan(const Problem& problem) {
  return sequential_plan(problem, false);
}
Plan spread_plan(const Problem& problem) {
  return sequential_plan(problem, true);
}

std::string driver_source(const TirProblem& tir, const Plan& plan, const TirCodegenInput& input,
                          const TirCodegenResult& result, const std::vector<DriverTensor>& tensors) {
  const Problem& problem = tir.problem;
  std::string s =
      "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
      "#include \"tvm/runtime/c_backend_api.h\"\n"
      "void* TVMBackendAllocWorkspace(int t, int d, uint64_t n, int c, int b) {\n"
      "  (void)t; (void)d; (void)c; (void)b; return malloc((size_t)n);\n}\n"
      "int TVMBackendFreeWorkspace(int t, int d, void* p) { (void)t; (void)d; free(p); return 0; }\n"
      "void TVMAPISetLastError(const char* m) { printf(\"error: %s\\n\", m); }\n";
  std::string params;
  for (const std::string& p : result.main_params)
    params += (params.empty() ? "" : ", ") + p;
  s += "int32_t " + result.main_symbol + "(" + params + ");\n";

  // Pools, as big as the plan needs them, and the constants placed in them.
  std::map<std::string, std::string> pool_arrays;
  for (size_t i = 0; i < input.pools.size(); ++i) {
    const int pool = *problem.find_pool(input.pools[i]);
    const std::string name = "pool_" + std::to_string(i);
    pool_arrays[input.pools[i]] = name;
    s += "static uint8_t " + name + "[" + std::to_string(plan.pool_sizes.at(static_cast<size_t>(pool)) + 16) +
         "] __attribute__((aligned(16)));\n";
  }
  std::string setup;
  for (size_t i = 0; i < result.pool_constants.size(); ++i) {
    const TirConstant& c = result.pool_constants[i];
    const std::string name = "constant_" + std::to_string(i);
    s += "static const " + c.c_type + " " + name + "[" + std::to_string(c.elements) + "] = {\n" + c.data_text + "};\n";
    setup += "  memcpy(" + pool_arrays.at(c.pool) + " + " + std::to_string(c.offset) + ", " + name + ", sizeof " +
             name + ");\n";
  }
  // Where each buffer of the plan lives, for tensors kept in the pools (use_workspace_io).
  const auto location = [&](const std::string& buffer) {
    const int index = *problem.find_buffer(buffer);
    const Allocation& a = plan.allocations.at(static_cast<size_t>(index));
    return pool_arrays.at(problem.pools.at(static_cast<size_t>(a.pool)).name) + " + " + std::to_string(a.offset);
  };
  std::map<std::string, std::string> args;
  for (size_t i = 0; i < input.pools.size(); ++i) {
    // main's pool parameters: <pool>_<k>_var with k = 0, 1, ... in pool order.
    args[cexport::sanitize_identifier(input.pools[i]) + "_" + std::to_string(i) + "_var"] =
        pool_arrays.at(input.pools[i]);
  }
  s += "int main(void) {\n" + setup;
  const bool io_in_pools = std::none_of(tensors.begin(), tensors.end(), [&](const DriverTensor& t) {
    return std::any_of(result.main_params.begin(), result.main_params.end(),
                       [&](const std::string& p) { return p.ends_with(" " + t.param); });
  });
  for (const DriverTensor& t : tensors) {
    std::string init;
    for (const std::string& v : t.values)
      init += (init.empty() ? "" : ", ") + v;
    s += "  " + t.c_type + " " + t.param + "[" + std::to_string(t.count) + "]" +
         (t.values.empty() ? "" : " = {" + init + "}") + ";\n";
    if (io_in_pools && !t.values.empty()) {
      s += "  memcpy(" + location(t.buffer) + ", " + t.param + ", sizeof " + t.param + ");\n";
    }
    args[t.param] = t.param;
  }
  std::string call;
  for (const std::string& p : result.main_params) {
    const std::string name = p.substr(p.rfind(' ') + 1);
    call += (call.empty() ? "" : ", ") + args.at(name);
  }
  s += "  int32_t rc = " + result.main_symbol + "(" + call + ");\n  printf(\"rc=%d\\n\", (int)rc);\n";
  for (const DriverTensor& t : tensors) {
    if (!t.values.empty()) continue;
    if (io_in_pools) s += "  memcpy(" + t.param + ", " + location(t.buffer) + ", sizeof " + t.param + ");\n";
    s += "  printf(\"" + t.param + ":\");\n  for (int i = 0; i < " + std::to_string(t.count) + "; ++i) printf(" +
         (is_float(t.c_type) ? "\" %.9g\", (double)" : "\" %lld\", (long long)") + t.param + "[i]);\n" +
         "  printf(\"\\n\");\n";
  }
  return s + "  return 0;\n}\n";
}

RunOutcome compile_only(const std::string& cc, const std::string& source, const std::string& flags) {
  CScratch scratch;
  const auto path = scratch.write("module.c", source);
  const CommandResult r = run_command(shell_quote(cc) + " -std=c11 -Wall -Werror " + flags + " -I" +
                                      shell_quote(scratch.include().string()) + " -c " + shell_quote(path.string()) +
                                      " -o " + shell_quote((scratch.root() / "module.o").string()));
  return {r.status == 0, r.output};
}

RunOutcome compile_and_run(const std::string& cc, const std::string& host_module, const std::string& driver) {
  CScratch scratch;
  const auto module = scratch.write("host_module.c", host_module);
  const auto main = scratch.write("driver.c", driver);
  const std::string program = (scratch.root() / "program").string();
  const CommandResult build = run_command(shell_quote(cc) + " -std=c11 -Wall -Werror -O2 -I" +
                                          shell_quote(scratch.include().string()) + " " + shell_quote(module.string()) +
                                          " " + shell_quote(main.string()) + " -o " + shell_quote(program) + " -lm");
  if (build.status != 0) return {false, "compiling failed:\n" + build.output};
  const CommandResult run = run_command(shell_quote(program));
  if (run.status != 0) return {false, "running failed (" + std::to_string(run.status) + "):\n" + run.output};
  return {true, run.output};
}

PlannedRun run_with_plan(const std::string& cc, const TirProblem& tir, const Plan& plan,
                         const std::vector<DriverTensor>& tensors) {
  const TirCodegenInput input = tir_codegen_input(tir, plan);
  const TirCodegenResult result = emit_tir_host_module(input);
  return {result.source, compile_and_run(cc, result.source, driver_source(tir, plan, input, result, tensors))};
}

}  // namespace usmpx::testing
