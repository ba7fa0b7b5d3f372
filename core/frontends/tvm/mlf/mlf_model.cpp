#include "frontends/tvm/mlf/mlf_model.h"

#include <chrono>

#include "base/input_error.h"
#include "frontends/tvm/mlf/mlf_model_builder.h"
#include "frontends/tvm/mlf/module_refusals.h"
#include "frontends/tvm/usmp/pool_assignment.h"

namespace usmpx {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

CParseInput mlf_parse_input(const MlfPackage& package, const MlfModule& module) {
  CParseInput input;
  input.display_root = package.path;
  for (const ArchiveFile* f : module.sources)
    input.sources.push_back({f->path, f->data});
  if (module.header) input.macro_headers.push_back({module.header->path, module.header->data});
  const std::string include_prefix = module.include_dir.empty() ? "" : module.include_dir + "/";
  for (const ArchiveFile& f : package.contents.files) {
    const bool in_folder = f.path.starts_with(include_prefix) &&
                           f.path.find('/', include_prefix.size()) == std::string::npos && f.path.ends_with(".h");
    if (in_folder || f.path.starts_with("codegen/host/include/")) input.include_files.push_back({f.path, f.data});
  }
  for (const ArchiveFile* f : module.runtime_headers)
    input.include_files.push_back({f->path, f->data});
  input.include_dirs = {module.include_dir};
  if (!module.runtime_headers.empty()) input.include_dirs.emplace_back("runtime/include");
  input.standin_runtime = module.runtime_headers.empty();
  return input;
}

MlfModel analyse_mlf(std::shared_ptr<const MlfPackage> package, const MlfModule& module, CProgram program,
                     const MlfLoadOptions& options) {
  MlfModel model;
  model.package = std::move(package);
  model.module = module.name();
  model.program = std::move(program);
  MlfModelBuilder(model, module, options).build();
  if (model.code.usmp() && !options.pools.empty()) {
    const bool replaces = !options.pools.workspace_pools.empty() || !options.pools.constant_pools.empty();
    apply_pool_options(model.problem, options.pools);
    if (replaces && model.as_built) {
      model.as_built.reset();
      model.warnings.push_back(
          input_warning("mlf-as-built", "the pool options replace the pools TVM planned into; as-built not available"));
    }
  }
  return model;
}

MlfModel load_mlf_model(const std::string& path, const MlfLoadOptions& options) {
  const auto started = Clock::now();
  auto package = std::make_shared<const MlfPackage>(read_mlf(path));
  const MlfModule module = select_module(*package, options.module);
  check_plannable(*package, module);
  const double archive_ms = ms_since(started);
  const auto parse_started = Clock::now();
  CProgram program = parse_c_program(mlf_parse_input(*package, module));
  const double parse_ms = ms_since(parse_started);
  const auto analysis_started = Clock::now();
  MlfModel model = analyse_mlf(package, module, std::move(program), options);
  model.timings = {archive_ms, parse_ms, ms_since(analysis_started)};
  return model;
}

}  // namespace usmpx
