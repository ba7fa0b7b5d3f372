#include "inputs/firmware/firmware_frontend.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "base/c_identifier.h"
#include "export/export_error.h"
#include "frontends/input_probe.h"
#include "inputs/firmware/firmware_input.h"
#include "inputs/firmware/firmware_sharing.h"
#include "inputs/firmware/firmware_text.h"
#include "planners/common/validator.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

class FirmwareDetails : public InputDetails {
 public:
  explicit FirmwareDetails(std::shared_ptr<const FirmwareInput> in) : in_(std::move(in)) {}
  std::string info_text() const override { return "\n" + firmware_plan_text(*in_, combined_own_plans(*in_)); }
  std::string plan_text(const Problem&, const Plan& plan) const override { return firmware_plan_text(*in_, plan); }
  std::string closing_text(const Problem&, const Plan& plan) const override {
    return firmware_closing_text(*in_, plan);
  }
  std::string status_text(const Problem&, const Plan& plan) const override { return firmware_status_text(*in_, plan); }
  std::string json_members(const Problem&, const Plan& plan) const override {
    return firmware_json_members(*in_, plan);
  }
  std::optional<Plan> reference_plan(const Problem& problem) const override {
    Plan plan = combined_own_plans(*in_);
    finish_plan(problem, plan);
    return plan;
  }
  std::vector<ModelSpan> models() const override {
    std::vector<ModelSpan> spans;
    // A passed tensor is one joint buffer of both models: it counts as its producer's.
    std::vector<bool> taken(in_->joint.problem.buffers.size(), false);
    for (size_t m = 0; m < in_->spec.models.size(); ++m) {
      ModelSpan span;
      span.name = in_->spec.models[m].name;
      if (m < in_->joint.span.size()) std::tie(span.first_tick, span.last_tick) = in_->joint.span[m];
      if (m < in_->joint.buffer_of.size()) {
        for (int b : in_->joint.buffer_of[m]) {
          if (b < 0 || static_cast<size_t>(b) >= taken.size() || taken[static_cast<size_t>(b)]) continue;
          taken[static_cast<size_t>(b)] = true;
          span.buffers.push_back(b);
        }
      }
      spans.push_back(std::move(span));
    }
    return spans;
  }
  // The builds its models' figures depend on (its TFLite Micro arenas'), the first model's that has any.
  RuntimeBuilds runtime_builds() const override {
    for (const auto& model : in_->models) {
      if (model->details && !model->details->runtime_builds().empty()) return model->details->runtime_builds();
    }
    return {};
  }
  std::string runtime_build_text() const override {
    for (const auto& model : in_->models) {
      if (model->details && !model->details->runtime_build_text().empty()) return model->details->runtime_build_text();
    }
    return "";
  }
  std::vector<SharedPoolFigures> sharing(const Problem&, const Plan& plan) const override { return figures(plan); }
  // The shared runtime arena's size (the one MicroAllocator's kTensorArenaSize): the figure that
  // heads its chart, as the Models panel and usmpx_firmware.h give it.
  std::optional<FigureToPaste> firmware_figure(const Problem& problem, const Plan& plan) const override {
    for (const SharedPoolFigures& f : figures(plan)) {
      const std::optional<int> pool = problem.find_pool(f.pool);
      if (f.runtime_arena && pool)
        return FigureToPaste{"USMPX_" + c_macro_name(f.pool) + "_SIZE (kTensorArenaSize)", f.shared, f.exact, *pool};
    }
    return std::nullopt;
  }
  std::string as_built_text() const override {
    return "as-built plan: each model's own plan (the one it carries, else its runtime's planner); the shared "
           "pools as large as the largest model needs\n";
  }

 private:
  // The window asks for the figure and the sharing of each plan it shows: the shared arena is
  // replayed once per plan (its allocations and pool sizes), not once per question.
  std::vector<SharedPoolFigures> figures(const Plan& plan) const {
    const std::lock_guard lock(cache_mutex_);
    if (!cache_ || cache_->allocations != plan.allocations || cache_->pool_sizes != plan.pool_sizes)
      cache_ = FiguresOfPlan{plan.allocations, plan.pool_sizes, firmware_sharing(*in_, plan)};
    return cache_->figures;
  }

  struct FiguresOfPlan {
    std::vector<Allocation> allocations;
    std::vector<int64_t> pool_sizes;
    std::vector<SharedPoolFigures> figures;
  };
  std::shared_ptr<const FirmwareInput> in_;
  mutable std::mutex cache_mutex_;
  mutable std::optional<FiguresOfPlan> cache_;
};

// Every model written back with its part of the plan, in a folder named after the model; for
// TFLite Micro arenas and TVM's shared pools usmpx_firmware.h (and usmpx_firmware.c defining the
// TVM pools the modules defined themselves, once).
class FirmwareExporter : public ModelExporter {
 public:
  explicit FirmwareExporter(std::shared_ptr<const FirmwareInput> in) : in_(std::move(in)) {}

  ExportForm form() const override {
    ExportForm f;
    f.what =
        "Every model of {input} is written back with its part of the {plan} plan, each in a folder named after "
        "it, with usmpx_firmware.h giving the shared pools' sizes (and the TFLite Micro interpreters' creation "
        "order); the inputs are not changed.";
    return f;
  }

  std::string refusal(const Plan& plan) const override {
    for (size_t m = 0; m < in_->models.size(); ++m) {
      const LoadedInput& model = *in_->models[m];
      if (!model.exporter) return in_->spec.models[m].name + ": " + model.no_export;
      const Plan mine = model_plan(in_->joint, static_cast<int>(m), model.problem, plan);
      const std::string why = model.exporter->refusal(mine);
      if (!why.empty()) return in_->spec.models[m].name + ": " + why;
    }
    return "";
  }

  ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const override {
    for (const Diagnostic& d : validate(problem, plan)) {
      if (d.severity == Severity::kError)
        throw ExportError("the joint plan is not valid under the " + std::string(to_string(in_->spec.schedule)) +
                          " schedule: " + d.message);
    }
    ExportBundle bundle;
    std::string summary;
    for (size_t m = 0; m < in_->models.size(); ++m) {
      const LoadedInput& model = *in_->models[m];
      const std::string& name = in_->spec.models[m].name;
      const Plan mine = model_plan(in_->joint, static_cast<int>(m), model.problem, plan);
      ExportOptions model_options = options;  // firmware sources named after the model: one symbol each
      model_options.model_name = name;
      model_options.module_name = in_->spec.models[m].module_name;
      ExportBundle part = model.exporter->export_plan(model.problem, mine, model_options);
      for (ExportFile& f : part.files) {
        const std::string path = name + "/" + f.path;
        const bool changed = std::find(part.changed.begin(), part.changed.end(), f.path) != part.changed.end();
        bundle.put(path, std::move(f.data));
        if (changed) bundle.changed.push_back(path);
      }
      for (Diagnostic& d : part.notes) {
        d.message = name + ": " + d.message;
        bundle.notes.push_back(std::move(d));
      }
      if (!part.summary.empty()) summary += name + ": " + part.summary + "\n";
    }
    const std::string shared_pools = share_pools(plan, bundle);
    if (!in_->arenas.empty() || !shared_pools.empty()) {
      bundle.put("usmpx_firmware.h", firmware_header(*in_, plan, shared_pools));
      bundle.changed.push_back("usmpx_firmware.h");
    }
    bundle.sort();
    bundle.summary = summary + firmware_closing_text(*in_, plan);
    while (!bundle.summary.empty() && bundle.summary.back() == '\n')
      bundle.summary.pop_back();
    return bundle;
  }

  // Every model's input as it is (with the harness when asked), under "<model>/".
  ExportBundle original(const ExportOptions& options) const override {
    ExportBundle bundle;
    for (size_t m = 0; m < in_->models.size(); ++m) {
      const LoadedInput& model = *in_->models[m];
      if (!model.exporter) throw ExportError(in_->spec.models[m].name + ": " + model.no_export);
      for (ExportFile& f : model.exporter->original(options).files)
        bundle.put(in_->spec.models[m].name + "/" + f.path, std::move(f.data));
    }
    bundle.sort();
    return bundle;
  }

  // The models' family's selftest of them run together, when they are of one family that has one.
  std::shared_ptr<const Selftest> selftest() const override {
    std::vector<FirmwareTenant> tenants;
    for (size_t m = 0; m < in_->models.size(); ++m) {
      if (in_->family[m] != in_->family.front() || !in_->models[m]->firmware) return nullptr;
      tenants.push_back(in_->tenant(m));
    }
    return in_->models.front()->firmware->joint_selftest(tenants);
  }

 private:
  // Each family's joint export of the shared pools its models are in (the first model of the family
  // speaks for it); what usmpx_firmware.h says of them.
  std::string share_pools(const Plan& plan, ExportBundle& bundle) const {
    std::string header;
    std::vector<std::string> done;
    for (size_t first = 0; first < in_->models.size(); ++first) {
      const std::string& family = in_->family[first];
      const FirmwareRole* role = in_->models[first]->firmware.get();
      if (!role || std::find(done.begin(), done.end(), family) != done.end()) continue;
      done.push_back(family);
      std::vector<FirmwareSharedPool> pools;
      for (const SharedPool& s : in_->spec.shared) {
        const auto joint = in_->joint.problem.find_pool(s.name);
        if (!joint) continue;
        FirmwareSharedPool pool{s.name, plan.pool_sizes.empty() ? 0 : plan.pool_sizes[static_cast<size_t>(*joint)], {}};
        for (const auto& member : s.members) {
          if (in_->family[static_cast<size_t>(*in_->spec.find_model(member.first))] == family)
            pool.members.push_back(member);
        }
        if (!pool.members.empty()) pools.push_back(std::move(pool));
      }
      if (!pools.empty()) header += role->share_pools(pools, bundle);
    }
    return header;
  }

  std::shared_ptr<const FirmwareInput> in_;
};

// Models whose code defines the same global C names (two TVM modules both named "default") cannot
// be linked into one firmware: said once per pair, with what resolves it.
void warn_clashing_link_names(const FirmwareInput& in, const std::string& path, std::vector<Diagnostic>& out) {
  std::map<std::string, std::string> first_with;  // prefix -> model
  for (size_t m = 0; m < in.models.size(); ++m) {
    const FirmwareRole* role = in.models[m]->firmware.get();
    const std::string prefix = role ? role->link_prefix(in.spec.models[m].module_name) : "";
    if (prefix.empty()) continue;
    const auto [it, first] = first_with.try_emplace(prefix, in.spec.models[m].name);
    if (first) continue;
    Diagnostic d;
    d.severity = Severity::kWarning;
    d.code = "firmware-module-names";
    d.location = in.spec.models[m].where.file.empty() ? SourceLocation{path, 0, 0} : in.spec.models[m].where;
    d.message = "models '" + it->second + "' and '" + in.spec.models[m].name + "' both define the C names " + prefix +
                "*: they cannot be linked into one firmware; give one of them a \"module_name\" (its export then "
                "renames its module and every name made from it)";
    out.push_back(std::move(d));
  }
}

class FirmwareFrontend : public Frontend {
 public:
  bool recognises(InputFormat format, InputProbe& p) const override {
    if (format != InputFormat::kFirmware || !p.file() || p.archive()) return false;
    if (ends_with_lower(p.path(), kFirmwareSuffix)) return true;
    return ends_with_lower(p.path(), ".json") && looks_like_firmware_file(p.path(), p.text());
  }

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    auto in = std::make_shared<const FirmwareInput>(load_firmware(path, options));
    LoadedInput input;
    input.path = path;
    input.format = format;
    input.problem = in->joint.problem;
    input.as_built = combined_own_plans(*in);
    for (size_t m = 0; m < in->models.size(); ++m) {
      for (Diagnostic d : in->models[m]->warnings) {
        d.message = in->spec.models[m].name + ": " + d.message;
        input.warnings.push_back(std::move(d));
      }
    }
    warn_clashing_link_names(*in, path, input.warnings);
    if (in->spec.schedule == FirmwareSchedule::kConcurrent) {
      Diagnostic note;
      note.severity = Severity::kNote;
      note.code = "firmware-concurrent";
      note.message =
          "the models may run at the same time: every buffer of one model conflicts with every buffer of "
          "another in the pools they share, so nothing overlaps";
      note.location = {path, 0, 0};
      input.warnings.push_back(std::move(note));
    }
    // The models' own toolchain's planner and name when they share one (TFLM, ExecuTorch, TVM).
    input.default_algorithm = in->models.front()->default_algorithm;
    input.reference = in->models.front()->reference;
    for (const auto& m : in->models) {
      if (m->default_algorithm != input.default_algorithm || m->reference != input.reference) {
        input.default_algorithm = "greedy_by_size";
        input.reference = "each model's own";
      }
    }
    bool exportable = true;
    for (size_t m = 0; m < in->models.size(); ++m) {
      if (!in->models[m]->exporter) {
        exportable = false;
        input.no_export = in->spec.models[m].name + ": " + in->models[m]->no_export;
      }
    }
    input.details = std::make_shared<FirmwareDetails>(in);
    if (exportable) input.exporter = std::make_shared<FirmwareExporter>(in);
    return input;
  }

  std::vector<std::string> modules(const std::string&, InputFormat) const override { return {}; }
};

}  // namespace

const Frontend& firmware_frontend() {
  static const FirmwareFrontend frontend;
  return frontend;
}

}  // namespace usmpx
