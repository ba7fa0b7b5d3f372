// The parts of usmpx that are particular to .tflite inputs: info's tensor, operator and subgraph
// tables, the arena size TFLM needs for a plan, and export of the plan into the model.
#include <algorithm>
#include <filesystem>

#include "cli.h"
#include "commands.h"
#include "export/export_error.h"
#include "frontends/tflite/tflite_export.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "io/text_file.h"
#include "plan_report.h"
#include "planners/registry.h"
#include "text_table.h"

namespace usmpx::cli {
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

}  // namespace

void print_tflite_info(std::ostream& out, const TfliteAnalysis& a) {
  using Align = TextTable::Align;
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
      scratch += (scratch.empty() ? "" : " + ") + format_bytes(a.problem.buffers[static_cast<size_t>(b)].size_bytes);
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
                     tflite_schema::type_name(x.type), shape_text(x.shape), format_bytes(info.bytes),
                     time_text(info.first, info.last), arena});
  }
  tensors.print(out, "  ");
}

void print_tflite_arena(std::ostream& out, const LoadedInput& input, const Plan& plan) {
  if (!input.tflite || plan.pool_sizes.empty()) return;
  const TfliteAnalysis& a = *input.tflite;
  const int64_t head = plan.pool_sizes[0];
  const Plan tflm = run_planner(*make_planner("tflm_greedy"), input.problem, PlannerOptions{});
  out << "arena head (non-persistent): " << format_bytes(head)
      << " bytes; TFLM's greedy plan: " << format_bytes(tflm.pool_sizes[0]) << " bytes; lower bound "
      << format_bytes(plan.lower_bound_bytes) << " bytes\n";
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
    const int64_t buffers = static_cast<int64_t>(input.problem.buffers.size());
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
}

int run_tflite_export(const Options& options, std::ostream& out) {
  const LoadedInput input = prepare_input(options);
  const Plan plan = make_plan(input, default_algorithm(input, options), options);
  out << plan.algorithm << " plan: arena head " << format_bytes(plan.pool_sizes[0]) << " bytes (lower bound "
      << format_bytes(plan.lower_bound_bytes) << ")\n";
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(options.out, ec)) {
    if (fs::equivalent(options.out, options.input, ec))
      throw UsageError("--out names the input model; the input is never modified");
    if (!options.force) throw UsageError(options.out + " exists; use --force to replace it");
  }
  try {
    const std::string bytes = read_tflite_file(options.input);
    const TfliteExport e = export_tflite(*input.tflite, bytes, options.out, plan);
    for (const Diagnostic& d : e.notes)
      out << to_string(d.severity) << ": " << d.message << '\n';
    write_file_atomically(options.out, e.bytes);
    int64_t planned = 0;
    for (int32_t o : e.offsets)
      planned += o != -1 ? 1 : 0;
    out << "wrote " << options.out << ": OfflineMemoryAllocation with " << e.offsets.size() << " offsets (" << planned
        << " tensors placed, the others -1); TFLM's arena head with it: " << format_bytes(e.tflm_plan.pool_sizes[0])
        << " bytes\n";
    return kOk;
  } catch (const ExportError& e) {
    out << "usmpx export: " << e.what() << '\n';
    return kDoesNotFit;
  }
}

}  // namespace usmpx::cli
