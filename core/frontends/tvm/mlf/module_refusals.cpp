#include "frontends/tvm/mlf/module_refusals.h"

#include <algorithm>

#include "base/input_error.h"

namespace usmpx {

void check_plannable(const MlfPackage& package, const MlfModule& module) {
  const std::vector<std::string>& executors = module.metadata->executors;
  const bool graph = std::find(executors.begin(), executors.end(), "graph") != executors.end();
  const bool aot = std::find(executors.begin(), executors.end(), "aot") != executors.end();
  if (graph && !aot) {
    throw InputError({package.has_metadata ? package.metadata_path : package.path, 0, 0},
                     "module '" + module.name() +
                         "' was built for the graph executor (\"executors\": [\"graph\"]), which has no static "
                         "memory plan: its tensors are allocated at run time, so there is nothing to plan; compile "
                         "with the AOT executor (tvmc --executor aot, or relay.build(..., "
                         "executor=Executor(\"aot\")))");
  }
  if (module.sources.empty()) {
    const std::string& mod = module.name();
    throw InputError({package.path, 0, 0}, "module '" + mod + "' has no C sources (none under codegen/host/src, no " +
                                               mod + "_lib<N>.c beside tvmgen_" + mod + ".h); nothing to plan");
  }
}

void refuse_without_entry(const MlfModel& model, const MlfModule& module) {
  const std::string& prefix = model.code.prefix;
  std::string files;
  for (const ArchiveFile* f : module.sources)
    files += (files.empty() ? "" : ", ") + f->path;
  std::string text = "no entry function " + prefix + "__tvm_main__ (or " + prefix + "run_model) is defined in " +
                     files + "; nothing to plan";
  if (module.metadata->style == "operator")
    text += " (an operator-style MLF holds single operators, not a model: export the full model)";
  int errors = 0;
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : model.program.diagnostics) {
    if (d.code != "c-parse-error") continue;
    if (++errors == 1) first = &d;
  }
  if (first) {
    text += "; the C did not parse cleanly (" + std::to_string(errors) + (errors == 1 ? " error" : " errors") +
            ", the first at " + format_location(first->location) + ": " + first->message + ")";
  }
  throw InputError({model.package->path, 0, 0}, text);
}

}  // namespace usmpx
