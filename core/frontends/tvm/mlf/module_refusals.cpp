#include "frontends/tvm/mlf/module_refusals.h"

#include <algorithm>
#include <cctype>

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

namespace {

std::string_view file_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// TVM writes the operators and the entry function into <mod>_lib1.c (lib1.c for operator
// libraries) beside <mod>_lib0.c: the path where it should be when only a lib0 that parses and
// names the entry (it calls it) is there.
std::string missing_lib1(const MlfModel& model, const MlfModule& module) {
  const ArchiveFile* lib0 = nullptr;
  for (const ArchiveFile* f : module.sources) {
    const std::string_view name = file_name(f->path);
    if (name.ends_with("lib1.c")) return "";
    if (name == module.name() + "_lib0.c" || name == "lib0.c") lib0 = f;
  }
  const std::string& prefix = model.code.prefix;
  if (!lib0 || (lib0->data.find(prefix + "__tvm_main__") == std::string::npos &&
                lib0->data.find(prefix + "run_model") == std::string::npos))
    return "";
  const bool parsed = std::none_of(model.program.diagnostics.begin(), model.program.diagnostics.end(),
                                   [](const Diagnostic& d) { return d.code == "c-parse-error"; });
  if (!parsed) return "";
  const std::string_view name = file_name(lib0->path);
  const std::string dir = lib0->path.substr(0, lib0->path.size() - name.size());
  return dir + std::string(name.substr(0, name.size() - 6)) + "lib1.c";
}

}  // namespace

void refuse_without_entry(const MlfModel& model, const MlfModule& module) {
  const std::string& prefix = model.code.prefix;
  std::string files;
  for (const ArchiveFile* f : module.sources)
    files += (files.empty() ? "" : ", ") + f->path;
  if (const std::string lib1 = missing_lib1(model, module); !lib1.empty()) {
    throw InputError({model.package->path, 0, 0}, lib1 +
                                                      " is missing: TVM writes the operators and the entry function " +
                                                      prefix + "__tvm_main__ (or " + prefix + "run_model) there, and " +
                                                      files + " only calls it; nothing to plan without it (copy " +
                                                      std::string(file_name(lib1)) + " from the same TVM build)");
  }
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

void refuse_graph_executor_sources(const std::string& path, const std::vector<ArchiveFile>& c_files) {
  static const char* const kMarkers[] = {"_lookup_linked_param", "TVMSystemLibEntryPoint", "TVMFuncRegistry",
                                         "TVMBackendRegisterSystemLibSymbol"};
  const ArchiveFile* marked = nullptr;
  const char* marker = nullptr;
  std::string fused;  // the first operator function named like the graph executor's fused_* ones
  for (const char* m : kMarkers) {
    for (const ArchiveFile& f : c_files) {
      if (!marked && f.data.find(m) != std::string::npos) {
        marked = &f;
        marker = m;
      }
    }
  }
  for (const ArchiveFile& f : c_files) {
    for (size_t at = f.data.find("fused_"); fused.empty() && at != std::string::npos;
         at = f.data.find("fused_", at + 1)) {
      const bool starts =
          at == 0 || !(std::isalnum(static_cast<unsigned char>(f.data[at - 1])) || f.data[at - 1] == '_');
      size_t end = at;
      while (end < f.data.size() && (std::isalnum(static_cast<unsigned char>(f.data[end])) || f.data[end] == '_'))
        ++end;
      if (starts && end < f.data.size() && f.data[end] == '(') fused = f.data.substr(at, end - at);
    }
  }
  if (!marked || fused.empty()) return;
  throw InputError({path, 0, 0},
                   "graph executor: no static plan: " + marked->path + " registers the operators (" + fused +
                       ", ...) for TVM's graph executor (" + marker +
                       "), which allocates every tensor at run time, so there is nothing to plan; compile with the "
                       "AOT executor (tvmc --executor aot, or relay.build(..., executor=Executor(\"aot\")))");
}

}  // namespace usmpx
