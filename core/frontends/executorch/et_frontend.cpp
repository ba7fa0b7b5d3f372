#include "frontends/families.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/size_text.h"
#include "base/text_table.h"
#include "export/export_error.h"
#include "export/firmware_sources.h"
#include "frontends/executorch/et_export.h"
#include "frontends/executorch/et_problem.h"
#include "frontends/executorch/et_runtime_memory.h"
#include "frontends/executorch/et_selftest.h"
#include "frontends/input_probe.h"
#include "frontends/loaded_model.h"
#include "model/live_bytes.h"
#include "planners/registry.h"

namespace usmpx {
namespace {

namespace sc = et_schema;

std::string list_text(const std::vector<int32_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? "," : "") + std::to_string(values[i]);
  return s + "]";
}

// The program's methods: values, instructions, inputs, outputs, planned buffers, delegates.
void methods_table(const EtProgram& p, std::ostream& out) {
  out << "\nmethods:\n";
  TextTable methods({"method", "values", "instructions", "inputs", "outputs", "planned buffers (bytes)", "delegates"},
                    "lrrllll");
  for (const EtMethod& m : p.methods) {
    std::string sizes;
    for (size_t id = 1; id < m.buffer_sizes.size(); ++id)
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(id) + ": " + with_separators(m.buffer_sizes[id]);
    std::string delegates;
    for (const EtDelegate& d : m.delegates)
      delegates += (delegates.empty() ? "" : ", ") + d.id;
    methods.add_row({m.name, std::to_string(m.values.size()), std::to_string(m.instructions.size()),
                     list_text(m.inputs), list_text(m.outputs), sizes.empty() ? "-" : sizes,
                     delegates.empty() ? "-" : delegates});
  }
  methods.print(out, "  ");
}

// Every instruction of every method, at its time.
void instructions_table(const EtAnalysis& a, std::ostream& out) {
  const EtProgram& p = a.program;
  out << "\ninstructions (time = instruction index):\n";
  TextTable ins({"method", "time", "instruction", "calls", "values"}, "lrlll");
  for (size_t mi = 0; mi < p.methods.size(); ++mi) {
    const EtMethod& m = p.methods[mi];
    for (size_t k = 0; k < m.instructions.size(); ++k) {
      const EtInstruction& in = m.instructions[k];
      std::string calls, values;
      switch (in.type) {
        case sc::InstructionType::kKernelCall:
          calls = m.operators[static_cast<size_t>(in.index)].full_name();
          values = list_text(in.args);
          break;
        case sc::InstructionType::kDelegateCall:
          calls = m.delegates[static_cast<size_t>(in.index)].id;
          values = list_text(in.args);
          break;
        case sc::InstructionType::kMoveCall: values = std::to_string(in.from) + " -> " + std::to_string(in.to); break;
        case sc::InstructionType::kJumpFalseCall:
          values = "if not " + std::to_string(in.condition) + " goto " + std::to_string(in.destination);
          break;
        case sc::InstructionType::kFreeCall: values = std::to_string(in.value); break;
        default: break;
      }
      ins.add_row({m.name, std::to_string(a.methods[mi].first_tick + static_cast<int64_t>(k)),
                   sc::instruction_type_name(in.type), calls, values});
    }
  }
  ins.print(out, "  ");
}

// The planned tensors, with ExecuTorch's offsets and the buffer each went into.
void tensors_table(const EtAnalysis& a, std::ostream& out) {
  const EtProgram& p = a.program;
  out << "\nplanned tensors (offset: ExecuTorch's plan):\n";
  TextTable tensors({"method", "value", "type", "sizes", "bytes", "memory id", "offset", "lifetime", "buffer"},
                    "lrllrrrll");
  for (const EtTensorInfo& t : a.tensors) {
    const EtMethod& m = p.methods[static_cast<size_t>(t.method)];
    const EtTensor& x = *m.values[static_cast<size_t>(t.value)].tensor;
    std::string buffer = a.problem.buffers[static_cast<size_t>(t.buffer)].name;
    if (t.alias_of >= 0) buffer += t.view ? " (view of v" + std::to_string(t.alias_of) + ")" : " (shares storage)";
    if (t.unused) buffer += " (named by no instruction)";
    if (t.pinned) buffer += " (kept where the program put it)";
    tensors.add_row({m.name, std::to_string(t.value), sc::scalar_type_name(x.scalar_type), list_text(x.sizes),
                     with_separators(t.bytes), std::to_string(t.memory_id), with_separators(t.offset),
                     "[" + std::to_string(t.first) + ", " + std::to_string(t.last) + "]", buffer});
  }
  tensors.fit_line_width({8, 3});  // long buffer names and sizes, cut to the terminal's width
  tensors.print(out, "  ");
}

// Methods, instructions and planned tensors.
std::string info_tables(const EtAnalysis& a) {
  std::ostringstream out;
  const EtProgram& p = a.program;
  out << "\nprogram: " << p.methods.size() << (p.methods.size() == 1 ? " method" : " methods") << ", "
      << p.segments.size() << " segment(s), constants "
      << (p.constant_buffers > 0
              ? std::to_string(p.constant_buffers) + " inline buffers (deprecated layout)"
              : std::to_string(p.constant_offsets) + " offsets in segment " + std::to_string(p.constant_segment))
      << (p.named_data.empty() ? "" : ", " + std::to_string(p.named_data.size()) + " named data")
      << (p.header ? "" : ", no extended header") << "\n";
  methods_table(p, out);
  instructions_table(a, out);
  tensors_table(a, out);
  return out.str();
}

// The planned buffers the firmware provides for a plan, beside ExecuTorch's own.
std::string buffers_text(const EtAnalysis& a, const Problem& problem, const Plan& plan) {
  if (plan.pool_sizes.size() != a.pools.size()) return "";
  std::ostringstream out;
  int64_t total = 0, file_total = 0;
  for (size_t p = 0; p < a.pools.size(); ++p) {
    const int64_t size = et_buffer_bytes(a.pools[p], plan.pool_sizes[p]);
    total += size;
    file_total += a.pools[p].file_size;
    out << "planned buffer " << problem.pools[p].name << " (method '"
        << a.program.methods[static_cast<size_t>(a.pools[p].method)].name << "', memory id " << a.pools[p].memory_id
        << "): " << with_separators(size) << " bytes; ExecuTorch's plan: " << with_separators(a.pools[p].file_size)
        << " bytes\n";
  }
  if (!a.pools.empty()) {
    const int64_t diff = total - file_total;
    out << "planned memory: " << with_separators(total) << " bytes, "
        << (diff > 0   ? "+"
            : diff < 0 ? "-"
                       : "±")
        << with_separators(diff < 0 ? -diff : diff) << " B vs ExecuTorch\n";
  }
  return out.str();
}

// Per method: its planned buffers under `plan` and its method allocator on each target.
struct MethodNeeds {
  std::string name;
  std::vector<int64_t> planned;                        // by memory id - 1
  std::vector<EtMethodMemory> allocator;               // by et_target_names()
  std::vector<EtMethodMemory> allocator_without_temp;  // the same with no temp allocator given
  int64_t io_bytes = 0;                                // inputs and outputs not planned: the application's buffers
  std::vector<std::string> delegates;                  // backends called: their temp allocator use is unknown

  // Everything the firmware provides for the method on target t: planned buffers, the method
  // allocator, the temp allocator (0 known: portable and Cortex-M kernels take none, their scratch
  // is planned) and the inputs and outputs it binds itself.
  int64_t total(size_t t) const {
    int64_t sum = allocator[t].method_allocator_bytes + io_bytes;
    for (int64_t b : planned)
      sum += b;
    return sum;
  }
  bool exact(size_t t) const { return allocator[t].exact && delegates.empty(); }
};

// The bytes of a method's inputs and outputs the program does not plan (the application binds them).
int64_t unplanned_io_bytes(const EtMethod& m) {
  std::set<int32_t> seen;
  int64_t bytes = 0;
  auto add = [&](int32_t v) {
    if (v < 0 || static_cast<size_t>(v) >= m.values.size() || !seen.insert(v).second) return;
    const auto& x = m.values[static_cast<size_t>(v)].tensor;
    if (x && !x->allocation && x->data_buffer_idx == 0) bytes += x->nbytes;
  };
  for (const auto* list : {&m.inputs, &m.outputs}) {
    for (int32_t v : *list) {
      add(v);
      if (v >= 0 && static_cast<size_t>(v) < m.values.size()) {
        for (int32_t item : m.values[static_cast<size_t>(v)].items)
          add(item);
      }
    }
  }
  return bytes;
}

std::vector<MethodNeeds> method_needs(const EtAnalysis& a, const Plan* plan) {
  std::vector<MethodNeeds> out;
  for (size_t mi = 0; mi < a.program.methods.size(); ++mi) {
    const EtMethod& m = a.program.methods[mi];
    MethodNeeds n;
    n.name = m.name;
    for (int pool : a.methods[mi].pools) {
      const EtPoolInfo& info = a.pools[static_cast<size_t>(pool)];
      n.planned.push_back(plan && plan->pool_sizes.size() == a.pools.size()
                              ? et_buffer_bytes(info, plan->pool_sizes[static_cast<size_t>(pool)])
                              : info.file_size);
    }
    for (std::string_view target : et_target_names()) {
      n.allocator.push_back(et_method_memory(m, et_target(target)));
      n.allocator_without_temp.push_back(et_method_memory(m, et_target(target), EtAllocatorSetup{false}));
    }
    n.io_bytes = unplanned_io_bytes(m);
    for (const EtDelegate& d : m.delegates)
      n.delegates.push_back(d.id);
    out.push_back(std::move(n));
  }
  return out;
}

// What the firmware gives each method: its planned buffers and its method allocator.
std::string needs_text(const EtAnalysis& a, const Plan* plan) {
  std::ostringstream out;
  const auto targets = et_target_names();
  for (const MethodNeeds& n : method_needs(a, plan)) {
    out << "method '" << n.name << "': planned buffers [";
    for (size_t i = 0; i < n.planned.size(); ++i)
      out << (i ? ", " : "") << with_separators(n.planned[i]);
    out << "] bytes; method allocator";
    for (size_t t = 0; t < targets.size(); ++t) {
      const EtMethodMemory& mem = n.allocator[t];
      out << (t ? "," : "") << " " << (mem.exact ? "" : "at least ") << with_separators(mem.method_allocator_bytes)
          << " bytes on " << targets[t];
    }
    out << "\n";
    for (size_t t = 0; t < targets.size(); ++t) {
      std::string planned;
      for (int64_t b : n.planned)
        planned += (planned.empty() ? "" : " + ") + with_separators(b);
      out << "  firmware memory on " << targets[t] << ": " << (n.exact(t) ? "" : "at least ")
          << with_separators(n.total(t)) << " bytes = planned buffers " << (planned.empty() ? "0" : planned)
          << " + method allocator " << with_separators(n.allocator[t].method_allocator_bytes) << " + temp allocator "
          << (n.delegates.empty() ? "0" : "at least 0") << " + inputs and outputs not planned "
          << with_separators(n.io_bytes) << "\n";
    }
    out << "  without a temp allocator (the MemoryManager given only the method allocator, as ExecuTorch's Arduino "
           "examples do): method allocator";
    for (size_t t = 0; t < targets.size(); ++t) {
      const EtMethodMemory& mem = n.allocator_without_temp[t];
      out << (t ? "," : "") << " " << (mem.exact ? "" : "at least ") << with_separators(mem.method_allocator_bytes)
          << " bytes on " << targets[t];
    }
    out << "\n";
    for (const std::string& u : n.allocator.front().unknown)
      out << "  (not counted: " << u << ")\n";
    for (const std::string& d : n.delegates)
      out << "  (not counted: what delegate " << d << " takes from the temp allocator at run time)\n";
  }
  out << "  (method allocator: ExecuTorch's Method::init structures as modelled here, with a temp allocator given; "
         "x86-64 checked against the runtime, cortex-m from the same structures with 32-bit pointers)\n";
  return out.str();
}

std::string needs_json(const EtAnalysis& a, const Plan* plan) {
  nlohmann::ordered_json methods = nlohmann::ordered_json::array();
  const auto targets = et_target_names();
  for (const MethodNeeds& n : method_needs(a, plan)) {
    nlohmann::ordered_json m;
    m["name"] = n.name;
    m["planned_buffer_bytes"] = n.planned;
    nlohmann::ordered_json alloc;
    for (size_t t = 0; t < targets.size(); ++t) {
      alloc[std::string(targets[t])] = {{"bytes", n.allocator[t].method_allocator_bytes},
                                        {"exact", n.allocator[t].exact},
                                        {"model_checked_against_runtime", et_target(targets[t]).measured},
                                        {"unknown", n.allocator[t].unknown}};
    }
    m["method_allocator"] = alloc;
    nlohmann::ordered_json without_temp;
    for (size_t t = 0; t < targets.size(); ++t) {
      without_temp[std::string(targets[t])] = {{"bytes", n.allocator_without_temp[t].method_allocator_bytes},
                                               {"exact", n.allocator_without_temp[t].exact}};
    }
    m["method_allocator_without_temp_allocator"] = without_temp;
    m["unplanned_io_bytes"] = n.io_bytes;
    nlohmann::ordered_json firmware;
    for (size_t t = 0; t < targets.size(); ++t)
      firmware[std::string(targets[t])] = {{"bytes", n.total(t)}, {"exact", n.exact(t)}};
    m["firmware_bytes"] = firmware;
    methods.push_back(m);
  }
  nlohmann::ordered_json root;
  root["executorch"] = {{"methods", methods}, {"reproduced_by", a.reproduced_by}};
  return root.dump();
}

// "forward: 12,304 B planned + 584 B allocator (Cortex-M) = 12,888 B in all": what one method's
// firmware declares, exact or "at least".
std::string method_row(const MethodNeeds& n) {
  int64_t planned = 0;
  for (int64_t b : n.planned)
    planned += b;
  const EtMethodMemory& m = n.allocator.front();  // cortex-m
  return n.name + ": " + with_separators(planned) + " B planned + " + (m.exact ? "" : "at least ") +
         with_separators(m.method_allocator_bytes) + " B allocator (Cortex-M) = " + (n.exact(0) ? "" : "at least ") +
         with_separators(n.total(0)) + " B in all" +
         (n.io_bytes > 0 ? " with " + with_separators(n.io_bytes) + " B of unplanned inputs/outputs" : "");
}

class EtDetails : public ModelFileDetails<EtAnalysis> {
 public:
  using ModelFileDetails::ModelFileDetails;

  std::string info_text() const override { return info_tables(*a_); }
  std::string plan_text(const Problem& problem, const Plan& plan) const override {
    return buffers_text(*a_, problem, plan);
  }
  std::string closing_text(const Problem&, const Plan& plan) const override { return needs_text(*a_, &plan); }
  std::string json_members(const Problem&, const Plan& plan) const override { return needs_json(*a_, &plan); }
  // TVM's figure for a program: the peak of bytes live at once, from the tensors' lifetimes.
  int64_t memory_pressure(const Problem& problem) const override { return lifetime_memory_pressure(problem); }
  // ExecuTorch's own plan: the one the program carries.
  std::optional<Plan> reference_plan(const Problem& problem) const override {
    Plan plan = a_->as_built;
    finish_plan(problem, plan);
    return plan;
  }
  std::string status_text(const Problem&, const Plan& plan) const override {
    // The firmware's memory for the first method that plans any (what a single-method program runs).
    for (const MethodNeeds& n : method_needs(*a_, &plan)) {
      if (!n.planned.empty()) return method_row(n);
    }
    return "";
  }
  // One short row per method: what its firmware declares (planned buffers, method allocator).
  std::vector<std::string> memory_rows(const Problem&, const Plan& plan) const override {
    std::vector<std::string> rows;
    for (const MethodNeeds& n : method_needs(*a_, &plan))
      rows.push_back(method_row(n));
    return rows;
  }
  std::string as_built_text() const override {
    const size_t n = a_->problem.buffers.size();
    if (!a_->reproduced_by.empty())
      return "as-built plan: ExecuTorch's plan carried by the program; " + a_->reproduced_by + " reproduces all " +
             std::to_string(n) + " offsets\n";
    return "as-built plan: ExecuTorch's plan carried by the program; neither et_greedy nor et_greedy_2024 "
           "reproduces its offsets (planned by another planner: a custom memory planning pass, or usmpx export)\n";
  }
};

// One method's namespace of <name>_memory.h: its planned buffers by memory id, its method
// allocator (the Cortex-M figure with 32-bit pointers, the x86-64 one with 64-bit), its unplanned
// inputs and outputs.
std::string et_method_figures(const MethodNeeds& n, const std::string& algorithm) {
  const auto targets = et_target_names();
  std::string out = "// Method \"" + n.name + "\".\nnamespace " + cpp_identifier(n.name) + " {\n\n";
  out += "constexpr std::size_t kPlannedBufferCount = " + std::to_string(n.planned.size()) + ";\n";
  for (size_t i = 0; i < n.planned.size(); ++i) {
    MemoryConstant buffer;
    buffer.name = "kPlannedBuffer" + std::to_string(i + 1) + "Bytes";
    buffer.value = std::to_string(n.planned[i]);
    buffer.comment = {"Planned buffer of memory id " + std::to_string(i + 1) +
                      " (MethodMeta::memory_planned_buffer_size(" + std::to_string(i) + ")), as the " + algorithm +
                      " plan written into the program sizes it."};
    buffer.basis = "the " + algorithm + " plan";
    out += figure_declaration(buffer);
  }
  MemoryConstant allocator;
  allocator.name = "kMethodAllocatorBytes";
  std::string per_target;
  for (size_t t = 0; t < targets.size(); ++t) {
    const EtMethodMemory& m = n.allocator[t];
    allocator.exact = allocator.exact && m.exact;
    for (const std::string& u : m.unknown) {
      if (std::find(allocator.unknown.begin(), allocator.unknown.end(), u) == allocator.unknown.end())
        allocator.unknown.push_back(u);
    }
    per_target += (t ? "; " : "") + std::to_string(m.method_allocator_bytes) + " on " + std::string(targets[t]) +
                  (et_target(targets[t]).measured ? " (checked against the runtime)"
                                                  : " (from the same structures, not checked against the runtime)");
  }
  allocator.value = "sizeof(void*) == 4 ? " + std::to_string(n.allocator[0].method_allocator_bytes) + " : " +
                    std::to_string(n.allocator[1].method_allocator_bytes);
  allocator.comment = {
      "The method allocator's use after load_method() (EValues, tensor objects, lists, chains, "
      "kernel argument lists), with a temp allocator given: " +
      per_target + "."};
  allocator.basis = std::string(kEtRuntimeVersion) + ", portable and Cortex-M kernels, the " + algorithm + " plan";
  out += figure_declaration(allocator);
  MemoryConstant io;
  io.name = "kUnplannedInputOutputBytes";
  io.value = std::to_string(n.io_bytes);
  io.comment = {"Inputs and outputs the program does not plan: the application binds buffers of these bytes."};
  io.basis = "the program";
  out += figure_declaration(io);
  MemoryConstant temp;
  temp.name = "kTempAllocatorBytes";
  temp.value = "0";
  temp.exact = n.delegates.empty();
  temp.comment = {
      "The temp allocator: the portable and Cortex-M kernels take nothing from it (their scratch is planned)."};
  temp.basis = std::string(kEtRuntimeVersion) + ", portable and Cortex-M kernels";
  for (const std::string& d : n.delegates)
    temp.unknown.push_back("what delegate " + d + " takes from it at run time");
  out += figure_declaration(temp);
  return out + "\n}  // namespace " + cpp_identifier(n.name) + "\n\n";
}

// What <name>_memory.h says of a plan: every method's memory, where the figures hold, how to check them.
ModelSourcesSpec et_memory_sources(const EtAnalysis& a, const Plan& plan, const std::string& model_file) {
  ModelSourcesSpec spec;
  spec.provenance = {
      "ExecuTorch program " + model_file + " with the " + plan.algorithm +
          " plan written into it (every planned tensor's memory id and offset, every planned buffer's size).",
      "Method allocator figures for " + std::string(kEtRuntimeVersion) +
          ", portable and Cortex-M kernels: ExecuTorch's Method::init structures as usmpx models them."};
  spec.limits = {
      "One Method loaded with a MemoryManager of its own: a HierarchicalAllocator over kPlannedBufferCount "
      "buffers of kPlannedBuffer<id>Bytes, a MemoryAllocator of kMethodAllocatorBytes, a temp allocator.",
      "They change with another ExecuTorch version, delegates (their init and run-time allocations), data in a "
      ".ptd file, and methods that share planned buffers (Module's share_memory_arenas).",
      "Check them on the board: MethodMeta::memory_planned_buffer_size(i) must equal kPlannedBuffer<i+1>Bytes; "
      "load_method() fails with Error::MemoryAllocationFailed when the method allocator is too small, and a "
      "MemoryAllocator whose allocate() adds up what it hands out tells the bytes used."};
  spec.preamble =
      "static_assert(sizeof(void*) == 4 || sizeof(void*) == 8, \"the method allocator figures are for 32-bit "
      "(cortex-m) and 64-bit (x86-64) pointers\");\n";
  for (const MethodNeeds& n : method_needs(a, &plan))
    spec.figures += et_method_figures(n, plan.algorithm);
  return spec;
}

class EtExporter : public ModelFileExporter<EtAnalysis> {
 public:
  using ModelFileExporter::ModelFileExporter;

  std::string refusal(const Plan&) const override {
    return a_->pools.empty() ? "the program has no memory-planned buffer to write a plan into" : "";
  }

  ExportForm form() const override {
    return model_copy_form(
        "The {plan} plan is written into a copy of {input}: new tensor offsets and planned buffer sizes, which "
        "ExecuTorch's runtime uses unchecked (this tool checks the plan first); the input is not changed. Name a "
        "folder instead to get, beside the copy, the program as a C array (<name>_model_data.h/.cc) and "
        "<name>_memory.h with each method's buffers and allocator (docs/firmware-build.md).",
        "_planned.pte", "ExecuTorch programs (*.pte)");
  }

  ExportBundle export_plan(const Problem& problem, const Plan& plan, const ExportOptions& options) const override {
    if (const std::string why = refusal(plan); !why.empty()) throw ExportError(path_ + ": " + why);
    EtExport e = export_et(*a_, bytes_, path_, problem, plan);
    ExportBundle bundle = ExportBundle::model_file(path_, std::move(e.bytes), true);
    bundle.notes = std::move(e.notes);
    std::string sizes;
    int64_t total = 0;
    for (size_t p = 0; p < e.pool_bytes.size(); ++p) {
      sizes += (sizes.empty() ? "" : ", ") + problem.pools[p].name + " " + with_separators(e.pool_bytes[p]);
      total += e.pool_bytes[p];
    }
    int64_t file_total = 0;
    for (const EtPoolInfo& p : a_->pools)
      file_total += p.file_size;
    bundle.summary = std::to_string(e.changed_tensors) + " tensor(s) moved; planned buffers " + sizes + " bytes (" +
                     with_separators(total) + " in all, ExecuTorch's plan " + with_separators(file_total) + ")";
    if (options.firmware_sources)
      add_model_sources(bundle, et_memory_sources(*a_, plan, bundle.files.front().path), options, path_);
    return bundle;
  }

  // The program as it is: what selftest runs next to a re-plan.
  ExportBundle original(const ExportOptions&) const override { return ExportBundle::model_file(path_, bytes_, false); }

  std::shared_ptr<const Selftest> selftest() const override { return et_selftest(path_); }
};

class EtFrontend : public ModelFileFrontend {
 public:
  EtFrontend() : ModelFileFrontend("executorch", InputFormat::kExecuTorch, ".pte", has_et_identifier) {}

  LoadedInput load(const std::string& path, InputFormat format, const LoadOptions& options) const override {
    std::string bytes = read_et_file(path);
    auto analysis = std::make_shared<const EtAnalysis>(analyse_et(bytes, path, options.pools));
    LoadedInput input = loaded_model(path, format, *analysis, "as-built", "ExecuTorch");
    input.details = std::make_shared<EtDetails>(analysis);
    input.exporter = std::make_shared<EtExporter>(analysis, path, std::move(bytes));
    return input;
  }
};

}  // namespace

const Frontend& et_frontend() {
  return the_frontend<EtFrontend>();
}

}  // namespace usmpx
