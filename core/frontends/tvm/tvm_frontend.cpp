#include "frontends/tvm/tvm_frontend.h"

#include <algorithm>
#include <memory>

#include "base/archive_reader.h"
#include "base/text_file.h"
#include "export/export_error.h"
#include "frontends/input_probe.h"
#include "frontends/tvm/export/emit/shared_pool_export.h"
#include "frontends/tvm/export/export_source.h"
#include "frontends/tvm/export/harness/firmware_selftest.h"
#include "frontends/tvm/mlf/firmware_tree.h"
#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/mlf/mlf_package.h"
#include "frontends/tvm/mlf/module_refusals.h"
#include "frontends/tvm/usmp/tir_input.h"

namespace usmpx {
namespace {

// A firmware tree's module is there: by file names, else by a C file defining an entry.
bool holds_tvm_module(InputProbe& p) {
  if (!find_firmware_modules(p.members()).modules.empty()) return true;
  const auto is_c = [](std::string_view m) { return is_c_source(m); };
  const ArchiveContents c = p.folder() ? read_folder(p.path(), is_c) : read_archive_file(p.path(), is_c);
  if (std::any_of(c.files.begin(), c.files.end(),
                  [](const ArchiveFile& f) { return defined_entry(f.data).has_value(); }))
    return true;
  refuse_graph_executor_sources(p.path(), c.files);  // TVM output, but nothing to plan: says so
  return false;
}

// TVM modules in a firmware: shared workspace pools defined once, the modules built into one
// program by selftest.
class TvmFirmwareRole : public FirmwareRole {
 public:
  explicit TvmFirmwareRole(std::string prefix) : prefix_(std::move(prefix)) {}
  std::string link_prefix(const std::string& module_name) const override {
    return module_name.empty() ? prefix_ : "tvmgen_" + module_name + "_";
  }
  std::string share_pools(const std::vector<FirmwareSharedPool>& pools, ExportBundle& bundle) const override {
    return share_tvm_pools(pools, bundle);
  }
  std::shared_ptr<const Selftest> joint_selftest(const std::vector<FirmwareTenant>& tenants) const override {
    return tvm_firmware_selftest(tenants);
  }

 private:
  std::string prefix_;  // of the module's C names, "tvmgen_<module>_"
};

std::shared_ptr<const FirmwareRole> tvm_firmware_role(const std::string& prefix) {
  return std::make_shared<const TvmFirmwareRole>(prefix);
}

// Constants whose values the dump does not hold in full (TVMScript prints a few, the legacy
// printer none): an export writes zeros for the rest, so its model computes something else. Said
// when the dump is read, so that `plan`, `info` and the explorer say it, not only an export.
void warn_truncated_constants(const TirProblem& tir, std::vector<Diagnostic>& warnings) {
  for (size_t b = 0; b < tir.statements.size() && b < tir.problem.buffers.size(); ++b) {
    const auto* a = tir.statements[b] ? tir.statements[b]->as<tir::AllocateConst>() : nullptr;
    if (!a) continue;
    int64_t elements = 1;
    for (const tir::ExprRef& e : a->extents)
      elements *= tir::constant_int(e.get()).value_or(0);
    const auto printed = static_cast<int64_t>(a->data.size());
    if (printed >= elements) continue;
    warnings.push_back({Severity::kWarning,
                        "truncated-constant",
                        "constant " + tir.problem.buffers[b].name + ": the dump holds " + std::to_string(printed) +
                            " of its " + std::to_string(elements) +
                            " values; an export writes zeros for the rest, so its outputs differ from the model's",
                        {},
                        -1,
                        a->location});
  }
}

class TvmFrontend : public Frontend {
 public:
  TvmFrontend() : Frontend("tvm") {}

  bool recognises(InputFormat format, InputProbe& p) const override {
    switch (format) {
      case InputFormat::kMlf: return (p.folder() || p.archive()) && p.has_member("metadata.json");
      case InputFormat::kFirmwareTree: return (p.folder() || p.archive()) && holds_tvm_module(p);
      case InputFormat::kTvmScript:
      case InputFormat::kLegacyTir: return p.file() && !p.archive() && detect_tir_format(p.text()) == format;
      default: return false;
    }
  }

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    if (format == InputFormat::kMlf || format == InputFormat::kFirmwareTree) {
      auto model = std::make_shared<MlfModel>(load_mlf_model(path, MlfLoadOptions{options.pools, options.module}));
      LoadedInput input;
      input.path = path;
      input.format = format;
      input.problem = model->problem;
      input.as_built = model->as_built;
      input.warnings = model->warnings;
      input.firmware = tvm_firmware_role(model->code.prefix);
      input.exporter = std::make_shared<TvmExporter>(std::move(model));
      return input;
    }
    std::string text = read_text_file(path);
    auto tir = std::make_shared<TirProblem>(analyze_tir_dump(text, path, format, options));
    LoadedInput input = loaded_tir_dump(*tir, path, format);
    warn_truncated_constants(*tir, input.warnings);
    input.exporter = std::make_shared<TvmExporter>(std::move(tir), path, std::move(text));
    input.firmware = tvm_firmware_role("tvmgen_default_");  // the generated C's module name
    return input;
  }

  std::vector<std::string> modules(const std::string& path, InputFormat format) const override {
    if (format != InputFormat::kMlf && format != InputFormat::kFirmwareTree) return {};
    std::vector<std::string> names;
    for (const MlfModuleMetadata& module : read_mlf(path).metadata.modules)
      names.push_back(module.name);
    return names;
  }
};

}  // namespace

const Frontend& tvm_frontend() {
  return the_frontend<TvmFrontend>();
}

ExportSource ExportSource::load(const std::string& path, const LoadOptions& options) {
  InputProbe probe(path);
  for (InputFormat format :
       {InputFormat::kMlf, InputFormat::kFirmwareTree, InputFormat::kTvmScript, InputFormat::kLegacyTir}) {
    if (tvm_frontend().recognises(format, probe)) {
      ExportSource s;
      s.input_ = tvm_frontend().load(path, format, options);
      return s;
    }
  }
  throw ExportError(path + ": not a TVM input (Model Library Format, firmware tree or TIR dump)");
}

}  // namespace usmpx
