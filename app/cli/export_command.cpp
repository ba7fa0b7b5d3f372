// usmpx export and usmpx selftest: plan an input and write firmware sources for the plan, or
// build the input as it is and re-planned and compare what they compute.
#include <filesystem>
#include <random>

#include "cli.h"
#include "commands.h"
#include "config/config_error.h"
#include "config/pins.h"
#include "export/bundle_writer.h"
#include "export/export_error.h"
#include "export/export_source.h"
#include "export/harness/selftest.h"
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
  ExportSource source;
  LoadedInput input;
};

ExportInput load_export_input(const Options& options) {
  try {
    ExportInput in{ExportSource::load(options.input, LoadOptions{options.pools, options.module, options.tflm_log}), {}};
    in.input = in.source.input();
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

Plan exportable_plan(const LoadedInput& input, const Options& options, std::ostream& out) {
  Plan plan = make_plan(input, default_algorithm(input, options), options);
  out << plan.algorithm << " plan: total " << format_bytes(plan.total_size()) << " bytes (lower bound "
      << format_bytes(plan.lower_bound_bytes) << ")\n";
  return plan;
}

}  // namespace

int run_export(const Options& options, std::ostream& out) {
  if (recognise_input(options.input) == InputFormat::kTflite) return run_tflite_export(options, out);
  ExportInput in = load_export_input(options);
  const Plan plan = exportable_plan(in.input, options, out);
  std::error_code ec;
  namespace fs = std::filesystem;
  if (fs::exists(options.out, ec) && !(fs::is_directory(options.out, ec) && fs::is_empty(options.out, ec)) &&
      !options.force)
    throw UsageError(options.out + " exists and is not empty; use --force to replace it");
  try {
    ExportOptions eo;
    eo.harness = options.harness;
    eo.harness_seed = options.seed;
    const ExportBundle bundle = in.source.export_plan(in.input.problem, plan, eo);
    write_bundle(bundle, options.out, {options.force}, options.input);
    for (const Diagnostic& d : bundle.notes)
      out << to_string(d.severity) << ": " << d.message << '\n';
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

int run_selftest(const Options& options, std::ostream& out) {
  ExportInput in = load_export_input(options);
  const Plan plan = exportable_plan(in.input, options, out);
  std::vector<std::string> targets = options.targets.empty() ? std::vector<std::string>{"host"} : options.targets;
  for (const std::string& t : targets) {
    if (t != "host" && t != "cortex-m4" && t != "cortex-m7")
      throw UsageError("--targets: unknown target '" + t + "' (host, cortex-m4, cortex-m7)");
  }
  std::vector<std::string> runnable;
  for (const std::string& t : targets) {
    std::string missing;
    if (selftest_target_available(t, &missing)) {
      runnable.push_back(t);
    } else {
      out << "SKIPPED " << t << ": " << missing << " is not installed\n";
    }
  }
  namespace fs = std::filesystem;
  std::string work = options.keep;
  if (work.empty())
    work = (fs::temp_directory_path() / ("usmpx-selftest-" + std::to_string(std::random_device{}()))).string();
  int status = kOk;
  try {
    ExportOptions eo;
    eo.harness = true;
    eo.harness_seed = options.seed;
    const ExportBundle original = in.source.original(eo);
    const ExportBundle replanned = in.source.export_plan(in.input.problem, plan, eo);
    SelftestOptions so;
    so.cmsis_nn = options.cmsis_nn;
    const std::vector<SelftestResult> results = run_selftest(original, replanned, runnable, work, so);
    int64_t before = 0;
    if (in.input.as_built) before = in.input.as_built->total_size();
    if (in.source.is_mlf()) {
      out << "pool bytes: "
          << (in.input.as_built ? format_bytes(before) : std::string("none (USMP off, or pools other than TVM's)"))
          << " as built, " << format_bytes(plan.total_size()) << " re-planned\n";
    } else {
      out << "pool bytes: "
          << (in.input.as_built ? format_bytes(before) + " as built" : std::string("TVM's greedy_by_size"))
          << " (original), " << format_bytes(plan.total_size()) << " re-planned\n";
    }
    using Align = TextTable::Align;
    TextTable table({{"target", Align::kLeft},
                     {"result", Align::kLeft},
                     {"outputs", Align::kRight},
                     {"flash", Align::kRight},
                     {"RAM", Align::kRight}});
    for (const SelftestResult& r : results) {
      auto sizes = [](int64_t a, int64_t b) {
        return a < 0 ? std::string("-") : format_bytes(a) + " -> " + format_bytes(b);
      };
      table.add_row({r.target, r.verdict, std::to_string(r.replanned.outputs.size()),
                     sizes(r.original.flash_bytes, r.replanned.flash_bytes),
                     sizes(r.original.ram_bytes, r.replanned.ram_bytes)});
      for (const auto& [name, sum] : r.replanned.outputs)
        out << "  " << r.target << " output " << name << ": " << sum << '\n';
      if (!r.same) {
        status = kDoesNotFit;
        out << "--- " << r.target << " original build log ---\n"
            << r.original.log << "--- " << r.target << " re-planned build log ---\n"
            << r.replanned.log;
      }
    }
    table.print(out, "  ");
  } catch (const ExportError& e) {
    out << "usmpx selftest: " << e.what() << '\n';
    status = kDoesNotFit;
  }
  if (options.keep.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  } else {
    out << "builds kept in " << work << '\n';
  }
  if (runnable.empty()) {
    out << "nothing was run: no target's tools are installed\n";
    return kDoesNotFit;
  }
  out << (status == kOk ? "selftest passed\n" : "selftest FAILED\n");
  return status;
}

}  // namespace usmpx::cli
