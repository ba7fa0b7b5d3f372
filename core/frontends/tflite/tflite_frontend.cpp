#include "frontends/tflite/tflite_frontend.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include "base/size_text.h"
#include "base/text_table.h"
#include "export/export_error.h"
#include "frontends/input_probe.h"
#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_model.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
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

// Subgraphs, operators (with their scratch buffers) and tensors (in the arena or why not).
std::string info_tables(const TfliteAnalysis& a) {
  using Align = TextTable::Align;
  std::ostringstream out;
  out << "\nsubgraphs:\n";
  TextTable subgraphs({{"subgraph", Align::kRight},
                       {"name", Align::kLeft},
                       {"tensors", Align::kRight},
                       {"operators", Align::kRight},
                       {"inputs", Align::kLeft},
                       {"outputs", Align::kLeft}});
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    const TfliteSubgraph& g = a.model.subgraphs[s];
    subgraphs.add_row({std::to_string(s), g.name, std::to_string(g.tensors.size()), std::to_string(g.operators.size()),
                       shape_text(g.inputs), shape_text(g.outputs)});
  }
  subgraphs.print(out, "  ");
  out << "\noperators (time = TFLM's time step):\n";
  TextTable ops({{"subgraph", Align::kRight},
                 {"op", Align::kRight},
                 {"time", Align::kRight},
                 {"operator", Align::kLeft},
                 {"scratch", Align::kLeft}});
  for (const TfliteOperatorInfo& op : a.operators) {
    std::string scratch;
    for (int b : op.scratch_buffers)
      scratch += (scratch.empty() ? "" : " + ") + with_separators(a.problem.buffers[static_cast<size_t>(b)].size_bytes);
    for (const std::string& u : a.unknown_scratch) {
      if (u.rfind(op.name + " (subgraph " + std::to_string(op.subgraph) + " operator " + std::to_string(op.index) + ":",
                  0) == 0)
        scratch = "unknown";
    }
    ops.add_row({std::to_string(op.subgraph), std::to_string(op.index), op.time >= 0 ? std::to_string(op.time) : "-",
                 op.name, scratch});
  }
  ops.print(out, "  ");
  out << "\ntensors (planned: in the arena head; the others are not):\n";
  TextTable tensors({{"subgraph", Align::kRight},
                     {"tensor", Align::kRight},
                     {"name", Align::kLeft},
                     {"type", Align::kLeft},
                     {"shape", Align::kLeft},
                     {"bytes", Align::kRight},
                     {"lifetime", Align::kLeft},
                     {"arena", Align::kLeft}});
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
  tensors.print(out, "  ");
  return out.str();
}

// The arena head of a plan beside TFLM's own, and the kTensorArenaSize when a TFLM log gives the tail.
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
    // TFLM: arena_used_bytes = max(head, temp) + tail; temp holds the planner's 40 bytes per buffer
    // and the AllocationInfo array (32 bytes per entry on a 64-bit host, 24 on 32-bit targets)
    // while it plans. 16 more bytes cover aligning the arena's start.
    int64_t planned_tensors = 0;
    for (const TfliteTensorInfo& t : a.tensors)
      planned_tensors += t.buffer >= 0 ? 1 : 0;
    const int64_t buffers = static_cast<int64_t>(problem.buffers.size());
    const int64_t entries = static_cast<int64_t>(a.tensors.size()) + (buffers - planned_tensors);  // + scratch
    const int64_t temp = 40 * buffers + 32 * entries;
    const int64_t size = std::max(head, temp) + *a.log->tail_bytes + 16;
    out << "kTensorArenaSize for this plan: " << size << " (head " << head << ", planning temp " << temp << ", tail "
        << *a.log->tail_bytes
        << " as the TFLM log measured it, 16 for alignment; the tail depends on the build: measure it on the "
           "target)\n";
  } else {
    out << "kTensorArenaSize: the head plus TFLM's persistent tail (give --tflm-log with PrintAllocations output "
           "to compute it)\n";
  }
  return out.str();
}

class TfliteDetails : public InputDetails {
 public:
  explicit TfliteDetails(std::shared_ptr<const TfliteAnalysis> a) : a_(std::move(a)) {}
  std::string info_text() const override { return info_tables(*a_); }
  std::string plan_text(const Problem& problem, const Plan& plan) const override {
    return arena_text(*a_, problem, plan);
  }
  std::string as_built_text() const override {
    if (!a_->offline_offsets) return "";
    // A .tflite's plan is its OfflineMemoryAllocation metadata: fixed tensors, TFLM places the rest.
    const int64_t fixed =
        std::count_if(a_->offline_offsets->begin(), a_->offline_offsets->end(), [](int32_t o) { return o != -1; });
    return "as-built plan: the model's OfflineMemoryAllocation fixes " + std::to_string(fixed) + " of " +
           std::to_string(a_->offline_offsets->size()) + " tensors; TFLM plans the others around them\n";
  }

 private:
  std::shared_ptr<const TfliteAnalysis> a_;
};

// A copy of the model with the plan in its OfflineMemoryAllocation metadata.
class TfliteExporter : public ModelExporter {
 public:
  // `bytes`: the model as it was read for the analysis, so the copy holds exactly that model.
  TfliteExporter(std::shared_ptr<const TfliteAnalysis> a, std::string path, std::string bytes)
      : a_(std::move(a)), path_(std::move(path)), bytes_(std::move(bytes)) {}

  std::string refusal(const Plan&) const override { return ""; }

  ExportBundle export_plan(const Problem&, const Plan& plan, const ExportOptions&) const override {
    TfliteExport e = export_tflite(*a_, bytes_, path_, plan);
    ExportBundle bundle;
    bundle.single_file = true;
    bundle.put(std::filesystem::path(path_).filename().string(), std::move(e.bytes));
    bundle.changed.push_back(bundle.files.front().path);
    bundle.notes = std::move(e.notes);
    const int64_t placed = std::count_if(e.offsets.begin(), e.offsets.end(), [](int32_t o) { return o != -1; });
    bundle.summary =
        "OfflineMemoryAllocation with " + std::to_string(e.offsets.size()) + " offsets (" + std::to_string(placed) +
        " tensors placed, the others -1); TFLM's arena head with it: " + with_separators(e.tflm_plan.pool_sizes[0]) +
        " bytes";
    return bundle;
  }

  ExportBundle original(const ExportOptions&) const override {
    throw ExportError(path_ + ": a TFLite model holds no code to build; selftest proves plans of TVM's C");
  }

 private:
  std::shared_ptr<const TfliteAnalysis> a_;
  std::string path_;
  std::string bytes_;
};

class TfliteFrontend : public Frontend {
 public:
  bool recognises(InputFormat format, InputProbe& p) const override {
    return format == InputFormat::kTflite && p.file() && !p.archive() &&
           (ends_with_lower(p.path(), ".tflite") || has_tflite_identifier(p.head()));
  }

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    std::string bytes = read_tflite_file(path);
    auto analysis = std::make_shared<const TfliteAnalysis>(
        analyse_tflite(bytes, path, TfliteLoadOptions{options.pools, options.runtime_log}));
    LoadedInput input;
    input.path = path;
    input.format = format;
    input.problem = analysis->problem;
    input.as_built = analysis->as_built;
    input.warnings = analysis->warnings;
    input.default_algorithm = "tflm_greedy";
    input.reference = "TFLM";
    input.details = std::make_shared<TfliteDetails>(analysis);
    input.exporter = std::make_shared<TfliteExporter>(analysis, path, std::move(bytes));
    return input;
  }

  std::vector<std::string> modules(const std::string&, InputFormat) const override { return {}; }
};

}  // namespace

const Frontend& tflite_frontend() {
  static const TfliteFrontend frontend;
  return frontend;
}

}  // namespace usmpx
