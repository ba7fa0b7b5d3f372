#include "frontends/families.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/size_text.h"
#include "base/text_table.h"
#include "export/export_error.h"
#include "export/firmware_sources.h"
#include "frontends/input_probe.h"
#include "frontends/loaded_model.h"
#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_firmware.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_build.h"
#include "frontends/tflite/tflm_min_arena.h"
#include "frontends/tflite/tflm_support.h"
#include "frontends/tflite/tflm_tree.h"
#include "model/live_bytes.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

std::string shape_text(const std::vector<int32_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string time_text(int64_t first, int64_t last) {
  if (first < 0 && last < 0) return "-";
  return "[" + std::to_string(first) + ", " + std::to_string(last) + "]";
}

// "TFLM 90b983c, cmsis_nn, cortex-m": the build the figures are for.
std::string build_text(const TfliteAnalysis& a) {
  return "TFLM " + tflm_version_label(a.build) + ", " + std::string(to_string(a.build.kernels)) + ", " +
         std::string(to_string(a.build.target));
}

// Subgraphs, operators (with their scratch buffers) and tensors (in the arena or why not).
std::string info_tables(const TfliteAnalysis& a) {
  std::ostringstream out;
  out << "\nsubgraphs:\n";
  TextTable subgraphs({"subgraph", "name", "tensors", "operators", "inputs", "outputs"}, "rlrrll");
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    const TfliteSubgraph& g = a.model.subgraphs[s];
    subgraphs.add_row({std::to_string(s), g.name, std::to_string(g.tensors.size()), std::to_string(g.operators.size()),
                       shape_text(g.inputs), shape_text(g.outputs)});
  }
  subgraphs.print(out, "  ");
  out << "\noperators (time = TFLM's time step; scratch and persistent bytes for " << build_text(a) << "):\n";
  TextTable ops({"subgraph", "op", "time", "operator", "scratch", "persistent (Init + Prepare)"}, "rrrlll");
  for (size_t k = 0; k < a.operators.size(); ++k) {
    const TfliteOperatorInfo& op = a.operators[k];
    std::string persistent = "unknown";
    if (k < a.tail.operators.size() && a.tail.operators[k].known) {
      const TflmOperatorTail& t = a.tail.operators[k];
      persistent = std::to_string(t.init_bytes) + " + " + std::to_string(t.prepare_bytes);
    }
    std::string scratch;
    for (int b : op.scratch_buffers)
      scratch += (scratch.empty() ? "" : " + ") + with_separators(a.problem.buffers[static_cast<size_t>(b)].size_bytes);
    for (const std::string& u : a.unknown_scratch) {
      if (u.rfind(op.name + " (subgraph " + std::to_string(op.subgraph) + " operator " + std::to_string(op.index) + ":",
                  0) == 0)
        scratch = "unknown";
    }
    ops.add_row({std::to_string(op.subgraph), std::to_string(op.index), op.time >= 0 ? std::to_string(op.time) : "-",
                 op.name, scratch, persistent});
  }
  ops.fit_line_width({3, 4});
  ops.print(out, "  ");
  out << "\ntensors (planned: in the arena head; the others are not):\n";
  TextTable tensors({"subgraph", "tensor", "name", "type", "shape", "bytes", "lifetime", "arena"}, "rrlllrll");
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const TfliteTensorInfo& info = a.tensors[t];
    const TfliteTensor& x =
        a.model.subgraphs[static_cast<size_t>(info.subgraph)].tensors[static_cast<size_t>(info.index)];
    std::string arena(to_string(info.placement));
    if (a.offline_offsets && (*a.offline_offsets)[t] != -1)
      arena += " (offline @" + std::to_string((*a.offline_offsets)[t]) + ")";
    tensors.add_row({std::to_string(info.subgraph), std::to_string(info.index), x.name,
                     tflite_schema::type_name(x.type), shape_text(x.shape), with_separators(info.bytes),
                     time_text(info.first, info.last), arena});
  }
  tensors.fit_line_width({2});  // TFLite's long tensor names, cut to the terminal's width
  tensors.print(out, "  ");
  return out.str();
}

// "PAD x3, MUL": each name once, in first-seen order, with its count when above one.
std::string counted_list(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> counts;
  for (const std::string& n : names) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == n; });
    if (it == counts.end())
      counts.emplace_back(n, 1);
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [name, count] : counts)
    out += (out.empty() ? "" : ", ") + name + (count > 1 ? " x" + std::to_string(count) : "");
  return out;
}

// The operator's name of an unknown-rule entry ("TANH: ..." -> "TANH").
std::string leading_name(const std::string& entry) {
  return entry.substr(0, entry.find(':'));
}

// The arena a firmware needs for a plan: its head, TFLM's persistent tail for the build (or
// what a TFLM log measured), the smallest arena a plain MicroInterpreter runs in, and what of it
// is not proven.
struct ArenaFigure {
  int64_t head = 0;
  int64_t tail = 0;        // TFLM's recording interpreter's count
  int64_t plain_tail = 0;  // a plain interpreter's
  bool exact = true;
  bool head_exact = true;
  bool tail_exact = true;
  bool tail_from_log = false;
  int64_t planning = 0;  // the arena AllocateTensors needs to get through planning (0: not known, with a log)
  int64_t minimum = 0;   // the smallest arena that runs
  std::vector<std::string> not_modelled, unverified, scratch_unknown;  // operator names, once per operator
  int64_t counted() const { return head + tail; }                      // TFLM's own head + tail
  int64_t needed() const { return tail_from_log ? counted() : minimum; }
};

ArenaFigure arena_figure(const TfliteAnalysis& a, const Plan& plan) {
  ArenaFigure f;
  f.head = plan.pool_sizes.empty() ? 0 : plan.pool_sizes[0];
  f.head_exact = a.unknown_scratch.empty();
  for (const std::string& u : a.unknown_scratch)
    f.scratch_unknown.push_back(leading_name(u.substr(0, u.find(" (subgraph"))));
  if (a.log && a.log->tail_bytes) {
    f.tail = *a.log->tail_bytes;
    f.tail_from_log = true;
  } else {
    f.tail = a.tail.bytes;
    f.tail_exact = a.tail.exact;
    f.plain_tail = tflm_plain_tail(a.tail);
    f.planning = tflm_planning_arena(a.tail);
    f.minimum = tflm_min_arena(a.tail, f.head);
    for (const std::string& u : a.tail.unknown)
      f.not_modelled.push_back(leading_name(u));
    for (const std::string& v : a.tail.unproven)
      f.unverified.push_back(v);
  }
  // A log's tail is what TFLM's recording interpreter measured: it says nothing of the smallest arena.
  f.exact = f.head_exact && f.tail_exact && !f.tail_from_log;
  return f;
}

// What the figure leaves unproven, each operator once with its count: "not modelled: PAD x3;
// unverified: MUL INT32>INT32; scratch unknown: custom_op".
std::string figure_gaps(const ArenaFigure& f) {
  std::string gaps;
  auto add = [&](const char* label, const std::vector<std::string>& names) {
    if (!names.empty()) gaps += (gaps.empty() ? "" : "; ") + std::string(label) + ": " + counted_list(names);
  };
  add("not modelled", f.not_modelled);
  add("unverified", f.unverified);
  add("scratch unknown", f.scratch_unknown);
  return gaps;
}

// "kTensorArenaSize = N bytes (head H + persistent T, planning needs P; TFLM 90b983c, reference,
// cortex-m)", or "kTensorArenaSize >= N bytes (...; not modelled: PAD x3, MUL x2)". Plain digits:
// the figure is pasted into C.
std::string arena_line(const TfliteAnalysis& a, const Plan& plan) {
  // A model the build certainly refuses gets no figure: the firmware never gets past AllocateTensors.
  const std::vector<std::string> refused = tflm_certain_refusals(a.warnings);
  if (!refused.empty()) {
    return "kTensorArenaSize: none: " + build_text(a) + " refuses this model at AllocateTensors (" +
           counted_list(refused) + "; see the warning)\n";
  }
  const ArenaFigure f = arena_figure(a, plan);
  std::string parts = "head " + std::to_string(f.head) + " + persistent " +
                      std::to_string(f.tail_from_log ? f.tail : f.plain_tail) +
                      (f.tail_from_log ? " as the TFLM log measured it" : "");
  if (f.planning > 0) parts += ", planning needs " + std::to_string(f.planning);
  std::string line = "kTensorArenaSize " + std::string(f.exact ? "=" : ">=") + " " + std::to_string(f.needed()) +
                     " bytes (" + parts + "; " + build_text(a);
  const std::string gaps = figure_gaps(f);
  if (!gaps.empty()) line += "; " + gaps;
  for (const std::string& assumed : a.tail.assumptions)
    line += "; assumes " + assumed;
  return line + ")\n";
}

// The arena head of a plan beside TFLM's own, and the persistent tail by category.
std::string arena_text(const TfliteAnalysis& a, const Problem& problem, const Plan& plan) {
  if (plan.pool_sizes.empty()) return "";
  std::ostringstream out;
  const int64_t head = plan.pool_sizes[0];
  const Plan tflm = run_planner(*make_planner("tflm_greedy"), problem, PlannerOptions{});
  out << "arena head (non-persistent): " << with_separators(head)
      << " bytes; TFLM's greedy plan: " << with_separators(tflm.pool_sizes[0]) << " bytes; lower bound "
      << with_separators(plan.lower_bound_bytes) << " bytes\n";
  if (!a.unknown_scratch.empty())
    out << "  (scratch buffers of " << a.unknown_scratch.size()
        << " operator(s) unknown: TFLM's head may be larger; see the warning)\n";
  if (a.log && a.log->tail_bytes) {
    out << "arena tail (persistent): " << with_separators(*a.log->tail_bytes)
        << " bytes as the TFLM log measured it (the model's own figure for " << build_text(a) << ": "
        << with_separators(a.tail.bytes) << ")\n";
  } else {
    out << "arena tail (persistent, " << build_text(a) << "): " << (a.tail.exact ? "" : "at least ")
        << with_separators(a.tail.bytes) << " bytes:";
    for (const TflmTailCategory& c : a.tail.categories) {
      if (c.used > 0) out << " " << c.name << " " << with_separators(c.used) << ";";
    }
    out << " allocator, options and handles " << with_separators(a.tail.uncategorized) << "\n";
  }
  return out.str();
}

// "tflm_arena": {...} as the command line contract names its members.
std::string arena_json(const TfliteAnalysis& a, const Plan& plan) {
  const ArenaFigure f = arena_figure(a, plan);
  nlohmann::ordered_json arena;
  arena["kernels"] = std::string(to_string(a.build.kernels));
  arena["target"] = std::string(to_string(a.build.target));
  arena["tflm_version"] = tflm_version_name(a.build);
  arena["head_bytes"] = f.head;
  arena["tail_bytes"] = f.tail;
  arena["arena_bytes"] = f.counted();
  arena["planning_bytes"] = f.planning;
  arena["kTensorArenaSize_min_bytes"] = f.needed();
  arena["exact"] = f.exact && tflm_certain_refusals(a.warnings).empty();
  // What TFLM refuses at AllocateTensors: the figures above are then of no use to a firmware.
  arena["refused"] = tflm_certain_refusals(a.warnings);
  arena["tail_source"] = f.tail_from_log ? "tflm-log" : "model";
  nlohmann::ordered_json unknown = nlohmann::ordered_json::array();
  for (const std::string& u : a.tail.unknown)
    unknown.push_back(u);
  for (const std::string& u : a.unknown_scratch)
    unknown.push_back("scratch of " + u);
  arena["unknown"] = std::move(unknown);
  arena["unverified"] = f.unverified;
  nlohmann::ordered_json members;
  members["tflm_arena"] = std::move(arena);
  return members.dump();
}

class TfliteDetails : public ModelFileDetails<TfliteAnalysis> {
 public:
  using ModelFileDetails::ModelFileDetails;

  std::string info_text() const override { return info_tables(*a_); }
  std::string plan_text(const Problem& problem, const Plan& plan) const override {
    return arena_text(*a_, problem, plan);
  }
  std::string closing_text(const Problem&, const Plan& plan) const override { return arena_line(*a_, plan); }
  // kTensorArenaSize, the figure `info`, `plan` and the header give: it sizes the arena pool.
  std::optional<FigureToPaste> firmware_figure(const Problem&, const Plan& plan) const override {
    const ArenaFigure f = arena_figure(*a_, plan);
    return FigureToPaste{"kTensorArenaSize", f.needed(), f.exact, 0};
  }
  std::string status_text(const Problem&, const Plan& plan) const override {
    if (!tflm_certain_refusals(a_->warnings).empty()) return "TFLM refuses this model (" + build_text(*a_) + ")";
    const ArenaFigure f = arena_figure(*a_, plan);
    // The default version goes unnamed in the status bar (short); another one is named.
    const TflmBuild& b = a_->build;
    const std::string version = b.version == kTflmDefaultVersion ? "" : tflm_version_label(b) + ", ";
    return "kTensorArenaSize " + std::string(f.exact ? "=" : ">=") + " " + with_separators(f.needed()) + " B (TFLM " +
           version + std::string(to_string(b.kernels)) + ", " + std::string(to_string(b.target)) + ")";
  }
  std::string json_members(const Problem&, const Plan& plan) const override { return arena_json(*a_, plan); }
  std::optional<Plan> reference_plan(const Problem& problem) const override {
    if (a_->as_built) return a_->as_built;
    return run_planner(*make_planner("tflm_greedy"), problem, PlannerOptions{});
  }
  // TVM's figure for a .tflite: the peak of bytes live at once, from the tensors' lifetimes.
  int64_t memory_pressure(const Problem& problem) const override { return lifetime_memory_pressure(problem); }
  RuntimeBuilds runtime_builds() const override { return tflm_runtime_builds(); }
  std::string runtime_build_text() const override { return describe(a_->build); }
  std::string as_built_text() const override {
    if (!a_->offline_offsets) return "";
    // A .tflite's plan is its OfflineMemoryAllocation metadata: fixed tensors, TFLM places the rest.
    const int64_t fixed =
        std::count_if(a_->offline_offsets->begin(), a_->offline_offsets->end(), [](int32_t o) { return o != -1; });
    std::string text = "as-built plan: the model's OfflineMemoryAllocation fixes " + std::to_string(fixed) + " of " +
                       std::to_string(a_->offline_offsets->size()) + " tensors; TFLM plans the others around them\n";
    if (!a_->npu_layout.empty())
      text += "  Vela's layout of the " + std::to_string(a_->npu_layout.size()) +
              " tensors its ethos-u operator uses overlaps on purpose (the NPU's command stream orders their use); "
              "every plan keeps it\n";
    return text;
  }
};

// What <name>_memory.h says of a plan: kTensorArenaSize for the build, where it holds, how to check it.
ModelSourcesSpec tflm_memory_sources(const TfliteAnalysis& a, const Plan& tflm_plan, const std::string& algorithm,
                                     const std::string& model_file) {
  const ArenaFigure f = arena_figure(a, tflm_plan);
  const std::string build = build_text(a);
  ModelSourcesSpec spec;
  spec.provenance = {
      "TFLite Micro model " + model_file + " with the " + algorithm +
          " plan in its OfflineMemoryAllocation metadata (arena head " + std::to_string(f.head) +
          " bytes; TFLM places the scratch buffers itself at run time, which the head includes).",
      "Figures for " + build + " (usmpx --tflm-kernels/--tflm-target); `usmpx plan` prints the same figure."};
  spec.limits = {
      "kTensorArenaSize is the smallest arena in which a plain tflite::MicroInterpreter over this one arena "
      "(MicroInterpreter(model, resolver, tensor_arena, kTensorArenaSize)) gets through AllocateTensors() in "
      "that build: " +
          build + " (the TFLM version, its kernel set and target).",
      "It changes with a resource-variable store (MicroResourceVariables) or anything else the application takes "
      "from the arena, an allocator shared by several interpreters (MicroAllocator::Create: export a firmware "
      "file, whose usmpx_firmware.h sizes the shared arena), and a TFLM version or kernel set other than the one "
      "named (ESP-NN, Ethos-U, vendor kernels).",
      "Check it on the board: after AllocateTensors(), interpreter.arena_used_bytes() is what TFLM used; it must "
      "not exceed kTensorArenaSize."};
  for (const std::string& assumed : a.tail.assumptions)
    spec.limits.push_back("The figure assumes " + assumed + ".");
  spec.preamble = "static_assert(sizeof(void*) == " + std::string(a.build.target == TflmTarget::kX86_64 ? "8" : "4") +
                  ", \"kTensorArenaSize is for " + build + ": export with --tflm-target for this target's build\");\n";
  MemoryConstant arena;
  arena.name = "kTensorArenaSize";
  arena.type = "int";
  arena.value = std::to_string(f.needed());
  arena.exact = f.exact;
  arena.comment = {"The tensor arena for " + build + ": head " + std::to_string(f.head) + " + persistent " +
                   std::to_string(f.tail_from_log ? f.tail : f.plain_tail) +
                   (f.tail_from_log ? " as the TFLM log measured it" : "") +
                   (f.planning > 0 ? ", planning needs " + std::to_string(f.planning) : "") + " bytes."};
  arena.basis = build + ", the " + algorithm + " plan";
  if (f.tail_from_log) arena.unknown.push_back("the smallest arena (head + tail as a TFLM log measured them)");
  if (const std::string gaps = figure_gaps(f); !gaps.empty()) arena.unknown.push_back(gaps);
  spec.figures = figure_declaration(arena) + "\n";
  return spec;
}

// A copy of the model with the plan in its OfflineMemoryAllocation metadata.
class TfliteExporter : public ModelFileExporter<TfliteAnalysis> {
 public:
  using ModelFileExporter::ModelFileExporter;

  std::string refusal(const Plan&) const override { return ""; }

  ExportForm form() const override {
    return model_copy_form(
        "The {plan} plan is written into a copy of {input} as its OfflineMemoryAllocation metadata, which TFLM "
        "uses as given; the input is not changed. Name a folder instead to get, beside the copy, the model as a C "
        "array (<name>_model_data.h/.cc) and <name>_memory.h with kTensorArenaSize (docs/firmware-build.md).",
        "_planned.tflite", "TFLite models (*.tflite)");
  }

  ExportBundle export_plan(const Problem&, const Plan& plan, const ExportOptions& options) const override {
    TfliteExport e = export_tflite(*a_, bytes_, path_, plan);
    ExportBundle bundle = ExportBundle::model_file(path_, std::move(e.bytes), true);
    bundle.notes = std::move(e.notes);
    const int64_t placed = std::count_if(e.offsets.begin(), e.offsets.end(), [](int32_t o) { return o != -1; });
    bundle.summary =
        "OfflineMemoryAllocation with " + std::to_string(e.offsets.size()) + " offsets (" + std::to_string(placed) +
        " tensors placed, the others -1); TFLM's arena head with it: " + with_separators(e.tflm_plan.pool_sizes[0]) +
        " bytes\n" + arena_line(*a_, e.tflm_plan);
    if (bundle.summary.back() == '\n') bundle.summary.pop_back();
    if (options.firmware_sources) {
      add_model_sources(bundle, tflm_memory_sources(*a_, e.tflm_plan, plan.algorithm, bundle.files.front().path),
                        options, path_);
    }
    return bundle;
  }

  ExportBundle original(const ExportOptions&) const override {
    throw ExportError(path_ + ": a TFLite model holds no code to build; selftest proves plans of TVM's C");
  }
};

class TfliteFrontend : public ModelFileFrontend {
 public:
  TfliteFrontend() : ModelFileFrontend("tflite", InputFormat::kTflite, ".tflite", has_tflite_identifier) {}

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    std::string bytes = read_tflite_file(path);
    std::string tree_said;
    const std::string version = tflm_version_from_tree(options.runtime_tree, options.runtime_version, &tree_said);
    auto analysis = std::make_shared<const TfliteAnalysis>(
        analyse_tflite(bytes, path,
                       TfliteLoadOptions{options.pools, options.runtime_log,
                                         tflm_build_from(options.runtime_kernels, options.runtime_target, version)}));
    LoadedInput input = loaded_model(path, format, *analysis, "tflm_greedy", "TFLM");
    if (!tree_said.empty()) {
      Diagnostic note = input_warning("tflm-tree", tree_said);
      note.severity = Severity::kNote;
      input.warnings.insert(input.warnings.begin(), note);
    }
    input.details = std::make_shared<TfliteDetails>(analysis);
    input.exporter = std::make_shared<TfliteExporter>(analysis, path, std::move(bytes));
    input.firmware = tflite_firmware_role(analysis);
    return input;
  }
};

}  // namespace

const Frontend& tflite_frontend() {
  return the_frontend<TfliteFrontend>();
}

}  // namespace usmpx
