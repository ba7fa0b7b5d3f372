#include "commands.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/config_error.h"
#include "base/input_error.h"
#include "base/size_text.h"
#include "checks/fit_check.h"
#include "cli.h"
#include "inputs/input_facts.h"
#include "inputs/reference_plan.h"
#include "model/conflict_graph.h"
#include "model/plan_json.h"
#include "model/problem_json_writer.h"
#include "plan_report.h"
#include "planners/exact/lower_bound.h"
#include "planners/registry.h"
#include "session_options.h"
#include "text_table.h"

namespace usmpx::cli {
namespace {

constexpr size_t kAllocationsShownByDefault = 64;
constexpr const char* kAsBuilt = "as-built";
constexpr double kNoTimeLimit = 1e9;  // seconds: with --steps alone, only the steps end a search

PlannerOptions planner_options(const Options& options) {
  PlannerOptions po;
  po.time_limit_seconds = options.time_limit_seconds;
  po.stop_at_fit = options.command == "check";
  if (options.steps > 0) {
    // A budget no clock decides: the time limit applies only when it was given too.
    po.step_budget = options.steps;
    if (!options.time_limit_given) po.time_limit_seconds = kNoTimeLimit;
  }
  return po;
}

// What the reader could not use or assumed, each message once with its position when known.
void print_input_warnings(std::ostream& out, const LoadedInput& input) {
  for (const DiagnosticGroup& g : group_diagnostics(input.warnings)) {
    const std::string at = format_location(g.first.location);
    out << (at.empty() ? "" : at + ": ") << to_string(g.first.severity) << ": " << g.first.message;
    if (g.count > 1) out << " (" << g.count << " times)";
    out << '\n';
  }
}

void print_plan_heading(std::ostream& out, const LoadedInput& input, const Plan& plan) {
  out << plan.algorithm << " plan of " << input.path << ": " << input.problem.buffers.size() << " buffers, "
      << input.problem.pools.size() << (input.problem.pools.size() == 1 ? " pool" : " pools") << ", "
      << (plan_fits(input.problem, plan) ? "fits" : "DOES NOT FIT") << ", total " << format_bytes(plan.total_size())
      << " bytes (lower bound " << format_bytes(plan.lower_bound_bytes) << ", gap "
      << format_gap(plan.total_size(), plan.lower_bound_bytes) << (plan.proven_optimal ? ", optimal" : "") << "), "
      << format_ms(plan.runtime_ms) << " ms\n";
}

// For inputs carrying a plan: does re-planning give the same offsets (core's one check)?
void print_as_built_check(std::ostream& out, const LoadedInput& input) {
  out << as_built_note(input).text;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

// The last line of check: the verdict and what it rests on.
std::string verdict_line(const LoadedInput& input, const Plan& plan, const FitCheck& check, const Options& options) {
  switch (check.verdict) {
    case FitVerdict::kFits: return "check passed: the " + plan.algorithm + " plan fits every pool's size hint\n";
    case FitVerdict::kInvalid:
      return "check FAILED: the " + plan.algorithm +
             " plan fits the size hints but is invalid (see the errors above)\n";
    case FitVerdict::kCannotFit: {
      std::string line = "check FAILED: does not fit: no plan can fit (proven above):";
      for (size_t k = 0; k < check.proofs.size(); ++k) {
        const Diagnostic& d = check.proofs[k];
        line += std::string(k ? ";" : "") + " pool '" + input.problem.pools[static_cast<size_t>(d.pool)].name +
                "' lacks at least " + format_bytes(check.missing_bytes[k]) +
                (check.missing_bytes[k] == 1 ? " byte" : " bytes") + " for " + std::to_string(d.buffers.size()) +
                (d.buffers.size() == 1 ? " buffer" : " buffers");
      }
      return line + "; the best plan found is " + format_bytes(check.shortfall_bytes()) + " bytes short\n";
    }
    case FitVerdict::kUndecided: break;
  }
  std::string line = "check FAILED: undecided: the " + plan.algorithm + " plan is " +
                     format_bytes(check.shortfall_bytes()) + " bytes short";
  for (const PoolNeed& p : check.pools) {
    if (p.short_bytes() > 0)
      line += "; pool '" + input.problem.pools[static_cast<size_t>(p.pool)].name + "' needs " +
              format_bytes(p.need_bytes) + " of " + format_bytes(p.hint_bytes);
  }
  const PlannerInfo* info = nullptr;
  for (const PlannerInfo& i : planner_catalog()) {
    if (i.name == plan.algorithm) info = &i;
  }
  if (info && info->searching && options.steps > 0 && !options.time_limit_given) {
    line += ", and nothing proves that no plan fits within --steps " + std::to_string(options.steps);
  } else if (info && info->searching) {
    line +=
        ", and nothing proves that no plan fits within --time-limit " + seconds_text(options.time_limit_seconds) + " s";
  } else {
    line += ", and nothing proves that no plan fits (--algorithm best searches for one)";
  }
  return line + "\n";
}

// check --json: the verdict, each pool's need and hint, the proofs and the plan.
std::string check_json(const LoadedInput& input, const Plan& plan, const FitCheck& check, double time_limit,
                       int64_t steps) {
  nlohmann::ordered_json root;
  root["input"] = input.path;
  root["verdict"] = std::string(to_string(check.verdict));
  root["algorithm"] = plan.algorithm;
  root["runtime_ms"] = plan.runtime_ms;
  if (time_limit > 0) {
    root["time_limit_seconds"] = time_limit;
  } else {
    root["time_limit_seconds"] = nullptr;  // --steps alone: no clock ends the search
  }
  if (steps > 0) root["steps"] = steps;
  root["shortfall_bytes"] = check.shortfall_bytes();
  root["pools"] = nlohmann::ordered_json::array();
  for (const PoolNeed& p : check.pools) {
    nlohmann::ordered_json pool;
    pool["name"] = input.problem.pools[static_cast<size_t>(p.pool)].name;
    pool["need_bytes"] = p.need_bytes;
    pool["size_hint_bytes"] = p.hint_bytes >= 0 ? nlohmann::ordered_json(p.hint_bytes) : nlohmann::ordered_json();
    pool["short_bytes"] = p.short_bytes();
    root["pools"].push_back(std::move(pool));
  }
  root["proofs"] = nlohmann::ordered_json::array();
  for (const Diagnostic& d : check.proofs) {
    nlohmann::ordered_json proof;
    proof["pool"] = d.pool >= 0 ? input.problem.pools[static_cast<size_t>(d.pool)].name : std::string();
    proof["buffers"] = nlohmann::ordered_json::array();
    for (int b : d.buffers)
      proof["buffers"].push_back(input.problem.buffers[static_cast<size_t>(b)].name);
    proof["missing_bytes_at_least"] = check.missing_bytes[static_cast<size_t>(&d - check.proofs.data())];
    proof["message"] = d.message;
    root["proofs"].push_back(std::move(proof));
  }
  root["diagnostics"] = nlohmann::ordered_json::array();
  for (const Diagnostic& d : plan.diagnostics) {
    root["diagnostics"].push_back(
        {{"severity", std::string(to_string(d.severity))}, {"code", d.code}, {"message", d.message}});
  }
  root["plan"] = nlohmann::ordered_json::parse(write_plan_json(input.problem, plan));
  return root.dump(2) + "\n";
}

}  // namespace

// The plan named `algorithm` for the input: a planner's, or the one the input carries.
Plan make_plan(const LoadedInput& input, const std::string& algorithm, const Options& options) {
  if (algorithm == kAsBuilt) {
    if (!input.as_built) throw UsageError("--algorithm as-built: " + input.path + " carries no plan");
    Plan plan = *input.as_built;
    plan.algorithm = kAsBuilt;
    finish_plan(input.problem, plan);
    return plan;
  }
  auto planner = make_planner(algorithm);
  if (!planner) {
    throw UsageError("unknown algorithm '" + algorithm + "' (available: " + planner_names() +
                     (input.as_built ? ", as-built)" : ")"));
  }
  return run_planner(*planner, input.problem, planner_options(options));
}

// `json` (one object) with the members of `members` (one object's text, "" for none) added.
std::string with_json_members(const std::string& json, const std::string& members) {
  if (members.empty()) return json;
  nlohmann::ordered_json root = nlohmann::ordered_json::parse(json);
  const nlohmann::ordered_json extra = nlohmann::ordered_json::parse(members);
  for (const auto& [key, value] : extra.items())
    root[key] = value;
  const bool newline = !json.empty() && json.back() == '\n';
  return root.dump(2) + (newline ? "\n" : "");
}

std::string default_algorithm(const LoadedInput& input, const Options& options) {
  if (options.algorithm) return *options.algorithm;
  // check asks whether the input fits: as built when it carries a plan (what its firmware has),
  // else whether any plan does (best, stopping at the first that fits).
  if (options.command == "check") return input.as_built ? kAsBuilt : "best";
  // Else the input's reference plan (what its firmware does today), as the explorer opens it.
  return reference_algorithm(input, !options.pins.empty());
}

void print_default_note(std::ostream& out, const LoadedInput& input, const Options& options) {
  if (options.algorithm) return;
  if (options.command == "check") {
    out << "algorithm: " << default_algorithm(input, options)
        << (input.as_built ? " (the plan the input carries)" : " (any plan that fits)")
        << "; --algorithm chooses another\n";
    return;
  }
  out << "algorithm: " << reference_description(input, !options.pins.empty())
      << ", the input's reference plan; --algorithm chooses another\n";
}

LoadedInput prepare_input(const Options& options) {
  try {
    LoadedInput input = load_input(
        options.input, LoadOptions{options.pools, options.module, options.runtime_log, options.runtime_kernels,
                                   options.runtime_target, options.runtime_version, options.runtime_tree});
    if (options.session_edits) apply_session(input, *options.session_edits, options);
    apply_pins(input.problem, options.pins);
    return input;
  } catch (const ConfigError& e) {
    throw UsageError(e.what());
  }
}

int run_info(const Options& options, std::ostream& out) {
  const LoadedInput input = prepare_input(options);
  const Problem& problem = input.problem;
  // The input's own runtime plan, for what info says of the memory the firmware needs.
  const std::optional<Plan> reference = input.details ? input.details->reference_plan(problem) : std::nullopt;
  if (options.json) {
    out << with_json_members(write_problem_json(problem),
                             reference ? input.details->json_members(problem, *reference) : "");
    return kOk;
  }
  const int64_t pressure = input_memory_pressure(input);
  out << input.path << " (" << to_string(input.format) << "): " << problem.buffers.size() << " buffers, "
      << problem.pools.size() << (problem.pools.size() == 1 ? " pool" : " pools") << ", memory pressure "
      << format_bytes(pressure) << " bytes, lower bound " << format_bytes(total_lower_bound(problem).bytes)
      << " bytes\n";
  print_input_warnings(out, input);
  print_as_built_check(out, input);
  out << '\n';
  TextTable pools({"pool", "kind", "size hint", "alignment", "targets", "internal"}, "llrrll");
  for (const Pool& p : problem.pools) {
    std::string targets;
    for (const PoolTarget& t : p.targets)
      targets += (targets.empty() ? "" : ", ") + t.target + ":" + t.access;
    pools.add_row({p.name, std::string(to_string(p.kind)),
                   p.restricted() ? format_bytes(p.size_hint_bytes) : "unlimited", std::to_string(p.alignment), targets,
                   p.internal ? "yes" : "no"});
  }
  pools.print(out, "  ");
  out << '\n';
  const ConflictLists conflicts = conflict_lists(problem);
  TextTable buffers({"buffer", "size", "align", "kind", "lifetime", "conflicts", "candidates", "origin"}, "lrrllrll");
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const Buffer& buf = problem.buffers[b];
    std::string candidates;
    for (int p : problem.effective_candidates(static_cast<int>(b))) {
      candidates += (candidates.empty() ? "" : ",") + problem.pools[static_cast<size_t>(p)].name;
    }
    if (buf.pin) candidates += buf.pin->offset ? " (pinned @" + std::to_string(*buf.pin->offset) + ")" : " (pinned)";
    std::string origin = buf.origin.function;
    if (buf.origin.location.line > 0) origin += (origin.empty() ? "" : " ") + format_location(buf.origin.location);
    buffers.add_row(
        {buf.name, format_bytes(buf.size_bytes), std::to_string(buf.alignment), std::string(to_string(buf.kind)),
         buf.lifetime ? "[" + std::to_string(buf.lifetime->first()) + ", " + std::to_string(buf.lifetime->last()) + "]"
                      : "-",
         std::to_string(conflicts[b].size()), candidates, origin});
  }
  // Long names elided to the terminal, here and in the input's own tables (whole in --json).
  TextTable::set_line_width(terminal_columns());
  buffers.fit_line_width({0});
  buffers.print(out, "  ");
  if (input.details) out << input.details->info_text();
  if (reference) out << '\n' << input.details->closing_text(problem, *reference);
  return kOk;
}

int run_plan(const Options& options, std::ostream& out, std::ostream& err) {
  const LoadedInput input = prepare_input(options);
  const Plan plan = make_plan(input, default_algorithm(input, options), options);
  if (options.json) {
    out << with_json_members(write_plan_json(input.problem, plan),
                             input.details ? input.details->json_members(input.problem, plan) : "");
    print_input_warnings(err, input);
    print_diagnostics(err, plan.diagnostics);
  } else {
    print_plan_heading(out, input, plan);
    print_default_note(out, input, options);
    print_input_warnings(out, input);
    if (input.details) out << input.details->plan_text(input.problem, plan);
    out << '\n';
    print_pool_table(out, input.problem, plan);
    if (options.allocations || input.problem.buffers.size() <= kAllocationsShownByDefault) {
      out << '\n';
      print_allocations(out, input.problem, plan);
    } else {
      out << "\n  (" << input.problem.buffers.size() << " buffers; --allocations lists them)\n";
    }
    if (!plan.diagnostics.empty()) out << '\n';
    print_diagnostics(out, plan.diagnostics);
    if (input.details) {
      const std::string closing = input.details->closing_text(input.problem, plan);
      if (!closing.empty()) out << '\n' << closing;
    }
  }
  return plan_ok(input.problem, plan) ? kOk : kDoesNotFit;
}

int run_compare(const Options& options, std::ostream& out) {
  const LoadedInput input = prepare_input(options);
  std::vector<std::string> algorithms = options.algorithms;
  if (algorithms.empty()) {
    // Every one-pass planner, and of the searching ones only best (which runs the others' searches),
    // so that a default comparison takes one time limit, not one per searching planner.
    // A toolchain's own planner (TFLM's) only for that toolchain's inputs.
    for (const PlannerInfo& info : planner_catalog()) {
      if ((!info.searching || info.name == "best") && planner_applies(info, input.reference))
        algorithms.push_back(info.name);
    }
    if (input.as_built) algorithms.push_back(kAsBuilt);
  }
  std::vector<Plan> plans;
  for (const std::string& algorithm : algorithms)
    plans.push_back(make_plan(input, algorithm, options));
  const Problem& problem = input.problem;
  const int64_t bound = highest_lower_bound(plans);
  if (options.json) {
    nlohmann::ordered_json root;
    root["input"] = input.path;
    root["lower_bound_bytes"] = bound;
    root["plans"] = nlohmann::ordered_json::array();
    for (const Plan& plan : plans) {
      const std::string members = input.details ? input.details->json_members(problem, plan) : "";
      root["plans"].push_back(
          nlohmann::ordered_json::parse(with_json_members(write_plan_json(problem, plan), members)));
    }
    out << root.dump(2) << '\n';
  } else {
    using Align = TextTable::Align;
    std::vector<std::pair<std::string, Align>> columns = {{"algorithm", Align::kLeft}};
    for (const Pool& p : problem.pools)
      columns.emplace_back(p.name, Align::kRight);
    for (const char* name : {"total", "gap", "time ms", "fits", "valid"}) {
      columns.emplace_back(name,
                           std::string(name) == "fits" || std::string(name) == "valid" ? Align::kLeft : Align::kRight);
    }
    // The figure a firmware pastes for each plan (a .tflite's kTensorArenaSize), as the window's Compare has it.
    const auto figure_of = [&](const Plan& plan) {
      return input.details && plan_ok(problem, plan) ? input.details->firmware_figure(problem, plan) : std::nullopt;
    };
    std::string figure_name;
    for (const Plan& plan : plans) {
      if (const auto f = figure_of(plan)) figure_name = f->name;
    }
    if (!figure_name.empty()) columns.emplace_back(figure_name, Align::kRight);
    TextTable table(columns);
    for (const Plan& plan : plans) {
      std::vector<std::string> row = {plan.algorithm};
      for (size_t p = 0; p < problem.pools.size(); ++p)
        row.push_back(format_bytes(plan.pool_sizes[p]));
      row.push_back(format_bytes(plan.total_size()));
      row.push_back(format_gap(plan.total_size(), bound));
      row.push_back(format_ms(plan.runtime_ms));
      row.push_back(plan_fits(problem, plan) ? "yes" : "no");
      row.push_back(plan.has_errors() ? "no" : "yes");
      if (!figure_name.empty()) {
        const auto f = figure_of(plan);
        row.push_back(f ? (f->exact ? "" : ">= ") + format_bytes(f->bytes) : "-");
      }
      table.add_row(std::move(row));
    }
    out << "compare on " << input.path << ": " << problem.buffers.size() << " buffers, lower bound "
        << format_bytes(bound) << " bytes\n\n";
    table.print(out, "  ");
  }
  bool all_ok = true;
  for (const Plan& plan : plans)
    all_ok = all_ok && plan_ok(problem, plan);
  return all_ok ? kOk : kDoesNotFit;
}

int run_check(const Options& options, std::ostream& out, std::ostream& err) {
  const LoadedInput input = prepare_input(options);
  const Plan plan = make_plan(input, default_algorithm(input, options), options);
  // Proofs for plans that carry none (as-built, one-pass planners) get a short budget of their own.
  PlannerOptions proof_options;
  proof_options.time_limit_seconds = std::min(1.0, options.time_limit_seconds);
  if (options.steps > 0) {
    proof_options.step_budget = options.steps;
    if (!options.time_limit_given) proof_options.time_limit_seconds = kNoTimeLimit;
  }
  Deadline deadline(proof_options);
  const FitCheck check = check_fit(input.problem, plan, deadline);
  if (options.json) {
    out << check_json(input, plan, check,
                      options.steps > 0 && !options.time_limit_given ? 0.0 : options.time_limit_seconds, options.steps);
    print_input_warnings(err, input);
  } else {
    print_plan_heading(out, input, plan);
    print_default_note(out, input, options);
    print_input_warnings(out, input);
    print_as_built_check(out, input);
    out << '\n';
    print_pool_table(out, input.problem, plan);
    out << '\n';
    print_diagnostics(out, plan.diagnostics);
    for (const Diagnostic& d : check.proofs) {
      if (std::find(plan.diagnostics.begin(), plan.diagnostics.end(), d) == plan.diagnostics.end())
        print_diagnostics(out, {d});
    }
    out << verdict_line(input, plan, check, options);
  }
  // A model its runtime refuses fails the gate whatever its plan (TFLM: the kernel type checks).
  const bool refused = std::any_of(input.warnings.begin(), input.warnings.end(),
                                   [](const Diagnostic& d) { return d.code == "tflm-refuses"; });
  if (refused) {
    (options.json ? err : out) << "check fails: TFLM refuses this model (the warning above says why)\n";
    return kDoesNotFit;
  }
  switch (check.verdict) {
    case FitVerdict::kFits: return kOk;
    case FitVerdict::kUndecided: {
      // A search that ran out (time or steps) decided nothing: its own exit code. The plan of a
      // one-pass planner or the input's own plan does not fit, which is that plan's answer.
      bool searching = false;
      for (const PlannerInfo& info : planner_catalog())
        searching = searching || (info.name == plan.algorithm && info.searching);
      return searching ? kUndecided : kDoesNotFit;
    }
    default: return kDoesNotFit;
  }
}

}  // namespace usmpx::cli
