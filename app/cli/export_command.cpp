// usmpx export and usmpx selftest: plan an input and write firmware sources for the plan, or
// build the input as it is and re-planned and compare what they compute.
#include <cctype>
#include <filesystem>
#include <random>

#include "base/config_error.h"
#include "cli.h"
#include "commands.h"
#include "config/pins.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "export/selftest.h"
#include "inputs/input_facts.h"
#include "inputs/input_file.h"
#include "plan_report.h"
#include "session_options.h"
#include "text_table.h"

namespace usmpx::cli {
namespace {

void apply_pool_sections(Problem& problem, const Options& options) {
  for (const auto& [pool, section] : options.pool_sections) {
    const auto p = problem.find_pool(pool);
    if (!p) throw UsageError("--pool-section: no pool named '" + pool + "'");
    problem.pools[static_cast<size_t>(*p)].section = section;
  }
}

// The input loaded for export, and the problem to plan: its pins and pool sections applied.
struct ExportInput {
  std::shared_ptr<const ModelExporter> source;
  LoadedInput input;
};

ExportInput load_export_input(const Options& options) {
  try {
    ExportInput in{nullptr, load_input(options.input, LoadOptions{options.pools, options.module, options.runtime_log,
                                                                  options.runtime_kernels, options.runtime_target,
                                                                  options.runtime_version, options.runtime_tree})};
    if (!in.input.exporter) throw ExportError(in.input.no_export);
    in.source = in.input.exporter;
    if (options.session_edits) apply_session(in.input, *options.session_edits, options);
    apply_pins(in.input.problem, options.pins);
    apply_pool_sections(in.input.problem, options);
    return in;
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  } catch (const ExportError& e) {
    throw UsageError("usmpx " + options.command + ": " + e.what());
  }
}

// Whether --out names the model copy itself (a file of the input's extension) rather than the
// folder of firmware sources around it.
Plan exportable_plan(const LoadedInput& input, const Options& options, std::ostream& out) {
  Plan plan = make_plan(input, default_algorithm(input, options), options);
  print_default_note(out, input, options);
  out << plan.algorithm << " plan: total " << format_bytes(plan.total_size()) << " bytes (lower bound "
      << format_bytes(plan.lower_bound_bytes) << ")\n";
  return plan;
}

}  // namespace

int run_export(const Options& options, std::ostream& out) {
  ExportInput in = load_export_input(options);
  const Plan plan = exportable_plan(in.input, options, out);
  std::error_code ec;
  namespace fs = std::filesystem;
  if (fs::exists(options.out, ec) && fs::equivalent(options.out, options.input, ec))
    throw UsageError("--out names the input; the input is never modified");
  if (fs::is_regular_file(options.out, ec) && !options.force)
    throw UsageError(options.out + " exists; use --force to replace it");
  if (fs::exists(options.out, ec) && !(fs::is_directory(options.out, ec) && fs::is_empty(options.out, ec)) &&
      !options.force)
    throw UsageError(options.out + " exists and is not empty; use --force to replace it");
  try {
    ExportOptions eo;
    eo.harness = options.harness;
    eo.harness_seed = options.seed;
    eo.firmware_sources = !names_model_copy(options.out, in.input.path);  // core/inputs/input_facts
    eo.model_section = options.model_section;
    const ExportBundle bundle = in.source->export_plan(in.input.problem, plan, eo);
    write_bundle(bundle, options.out, {options.force}, options.input);
    for (const Diagnostic& d : bundle.notes)
      out << to_string(d.severity) << ": " << d.message << '\n';
    if (!bundle.summary.empty()) {
      out << "wrote " << options.out << ": " << bundle.summary << '\n';
      return kOk;
    }
    out << "wrote " << options.out << ": " << bundle.files.size() << " files, " << bundle.changed.size()
        << " changed or new:\n";
    for (const std::string& path : bundle.changed)
      out << "  " << path << '\n';
    print_pool_table(out, in.input.problem, plan);
    return kOk;
  } catch (const ExportError& e) {
    out << "usmpx export: " << e.what() << '\n';
    return kDoesNotFit;
  }
}

// The targets to run: --targets as given, else those that can build the model's code (said in one line).
std::vector<std::string> selftest_targets(const Options& options, const Selftest& selftest, const ExportBundle& bundle,
                                          const SelftestOptions& so, std::ostream& out) {
  if (!options.targets.empty()) return options.targets;
  const SelftestTargets chosen = selftest.choose_targets(bundle, so);
  std::string names;
  for (const std::string& t : chosen.targets)
    names += (names.empty() ? "" : ", ") + t;
  out << "targets: " << names << " (" << chosen.reason << ")\n";
  return chosen.targets;
}

namespace {

// The pools' bytes as built (or what the original is) and re-planned.
void print_pool_bytes(const LoadedInput& input, const Plan& plan, std::ostream& out) {
  int64_t before = 0;
  if (input.as_built) {
    Plan as_built = *input.as_built;  // a model file's own plan comes without its pool sizes
    if (as_built.pool_sizes.empty()) compute_pool_sizes(input.problem, as_built);
    before = as_built.total_size();
  }
  if (holds_generated_c(input.format)) {
    out << "pool bytes: "
        << (input.as_built ? format_bytes(before) : std::string("none (USMP off, or pools other than TVM's)"))
        << " as built, " << format_bytes(plan.total_size()) << " re-planned\n";
  } else {
    out << "pool bytes: " << (input.as_built ? format_bytes(before) + " as built" : std::string("TVM's greedy_by_size"))
        << " (original), " << format_bytes(plan.total_size()) << " re-planned\n";
  }
}

// Each target's verdict, outputs and sizes, with both build logs where the outputs differ.
// Returns whether every target's outputs were the same.
bool print_results(const std::vector<SelftestResult>& results, std::ostream& out) {
  bool all_same = true;
  TextTable table({"target", "result", "outputs", "flash", "RAM"}, "llrrr");
  for (const SelftestResult& r : results) {
    if (!r.diagnosis.empty()) out << r.diagnosis << '\n';
    auto sizes = [](int64_t a, int64_t b) {
      return a < 0 ? std::string("-") : format_bytes(a) + " -> " + format_bytes(b);
    };
    table.add_row({r.target, r.verdict, std::to_string(r.replanned.outputs.size()),
                   sizes(r.original.flash_bytes, r.replanned.flash_bytes),
                   sizes(r.original.ram_bytes, r.replanned.ram_bytes)});
    for (const auto& [name, sum] : r.replanned.outputs)
      out << "  " << r.target << " output " << name << ": " << sum << '\n';
    if (!r.same) {
      all_same = false;
      out << "--- " << r.target << " original build log ---\n"
          << r.original.log << "--- " << r.target << " re-planned build log ---\n"
          << r.replanned.log;
    }
  }
  table.print(out, "  ");
  return all_same;
}

}  // namespace

int run_selftest(const Options& options, std::ostream& out) {
  ExportInput in = load_export_input(options);
  const Plan plan = exportable_plan(in.input, options, out);
  for (const std::string& t : options.targets) {
    if (t != "host" && t != "cortex-m4" && t != "cortex-m7")
      throw UsageError("--targets: unknown target '" + t + "' (host, cortex-m4, cortex-m7)");
  }
  namespace fs = std::filesystem;
  std::string work = options.keep;
  if (work.empty())
    work = (fs::temp_directory_path() / ("usmpx-selftest-" + std::to_string(std::random_device{}()))).string();
  int status = kOk;
  std::vector<std::string> runnable;
  try {
    ExportOptions eo;
    eo.harness = true;
    eo.harness_seed = options.seed;
    SelftestOptions so;
    so.cmsis_nn = options.cmsis_nn;
    so.kernels = options.kernels;
    const std::shared_ptr<const Selftest> selftest = in.source->selftest();
    if (!selftest) throw ExportError("selftest cannot run this input: its exports are not programs this tool builds");
    // What the input cannot build is refused from its own sources, before the re-plan is exported.
    const ExportBundle original = in.source->original(eo);
    if (const std::string obstacle = selftest->obstacle(original, so); !obstacle.empty())
      throw ExportError("selftest cannot run this model: " + obstacle);
    for (const Diagnostic& d : original.notes)
      out << to_string(d.severity) << ": " << d.message << '\n';
    const ExportBundle replanned = in.source->export_plan(in.input.problem, plan, eo);
    for (const Diagnostic& d : replanned.notes) {  // the analysis' assumptions the re-plan relies on
      if (d.code.starts_with("mlf-")) out << to_string(d.severity) << ": " << d.message << '\n';
    }
    for (const std::string& t : selftest_targets(options, *selftest, original, so, out)) {
      std::string missing;
      if (selftest->target_available(t, &missing)) {
        runnable.push_back(t);
      } else {
        out << "SKIPPED " << t << ": " << missing << " is not installed\n";
      }
    }
    const std::vector<SelftestResult> results = selftest->run(original, replanned, runnable, work, so);
    print_pool_bytes(in.input, plan, out);
    if (!print_results(results, out)) status = kDoesNotFit;
  } catch (const ExportError& e) {
    out << "usmpx selftest: " << e.what() << '\n';
    status = kDoesNotFit;
  }
  if (options.keep.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  } else if (fs::exists(work)) {
    out << "builds kept in " << work << '\n';
  }
  if (runnable.empty() && status == kOk) {
    out << "nothing was run: no target's tools are installed\n";
    return kDoesNotFit;
  }
  out << (status == kOk ? "selftest passed\n" : "selftest FAILED\n");
  return status;
}

}  // namespace usmpx::cli
