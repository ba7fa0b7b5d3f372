#include "frontends/tflite/tflm_tail.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/alignment.h"
#include "frontends/tflite/tflite_problem.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_kernels.h"

namespace usmpx {
namespace {

// Sizes of TFLM's records (tflite-micro 90b983c, TF_LITE_STATIC_MEMORY) for a pointer width.
struct Records {
  int64_t pointer;
  int64_t subgraph_allocations;  // SubgraphAllocations {node_and_registrations, tensors}
  int64_t eval_tensor;           // TfLiteEvalTensor {data, dims, type}
  int64_t node_and_registration;
  int64_t tensor;               // TfLiteTensor as allocated for the interpreter's inputs and outputs
  int64_t affine_quantization;  // TfLiteAffineQuantization {scale, zero_point, quantized_dimension}
  // The allocator's own objects made before the model is read: the arena allocator, the
  // GreedyMemoryPlanner and the MicroAllocator. TFLM's figures count those of the
  // RecordingMicroInterpreter; a plain MicroInterpreter's are smaller (tflm_min_arena.json's about).
  int64_t recording_objects, plain_objects;
  int64_t builtin_data_allocator;             // MicroBuiltinDataAllocator, made as the model's allocation starts
  int64_t resource_variable, resource_store;  // MicroResourceVariable, MicroResourceVariables
  int64_t scratch_request;                    // internal::ScratchBufferRequest {bytes, node_idx, subgraph_idx}
  int64_t allocation_info;  // AllocationInfo {bytes, output_ptr, first_created, last_used, offline_offset,
                            // needs_allocating}
};

constexpr Records kCortexM{4, 8, 12, 32, 32, 12, 220, 116, 8, 20, 12, 12, 24};
constexpr Records kX86_64{8, 16, 24, 64, 64, 24, 424, 216, 16, 40, 16, 16, 32};
// The ESP32 layout: Cortex-M's but a TfLiteTensor of 40 bytes (its enums are four bytes); with
// these every tail of ../shared/tflite/tflm_esp_nn.json comes out exact.
constexpr Records kEsp32{4, 8, 12, 32, 40, 12, 220, 116, 8, 20, 12, 12, 24};
constexpr int64_t kMaxScratchBuffersPerOp = 12;
constexpr int64_t kResourceSlots = 8;

constexpr int64_t kPersistentAlignment = 16;  // MicroArenaBufferAlignment()

const char* const kEvalTensors = "TfLiteEvalTensor data";
const char* const kTensors = "Persistent TfLiteTensor data";
const char* const kQuantization = "Persistent TfLiteTensor quantization data";
const char* const kBuffers = "Persistent buffer data";
const char* const kVariables = "TfLiteTensor variable buffer data";
const char* const kNodes = "NodeAndRegistration struct";
const char* const kOther = "";

// The tail grows down from the arena's (16-aligned) end: each allocation moves it down by its
// size and then aligns it down, so the bytes used so far are rounded up.
class Tail {
 public:
  explicit Tail(std::vector<TflmArenaStep>& steps) : steps_(steps) {}
  int64_t allocate(int64_t bytes, int64_t alignment, const char* category, int64_t count = 1) {
    steps_.push_back({TflmArenaStep::Kind::kPersistent, bytes, alignment});
    const int64_t before = used_;
    used_ = align_up(used_ + bytes, alignment);
    Counts& c = counts_[category];
    c.used += used_ - before;
    c.requested += bytes;
    c.count += count;
    return used_ - before;
  }
  int64_t used() const { return used_; }
  std::vector<TflmTailCategory> categories() const {
    std::vector<TflmTailCategory> out;
    for (const char* name : {kEvalTensors, kTensors, kQuantization, kBuffers, kVariables, kNodes}) {
      const auto it = counts_.find(name);
      const Counts c = it == counts_.end() ? Counts{} : it->second;
      out.push_back({name, c.used, c.requested, c.count});
    }
    return out;
  }
  int64_t used_in(const char* category) const {
    const auto it = counts_.find(category);
    return it == counts_.end() ? 0 : it->second.used;
  }

 private:
  struct Counts {
    int64_t used = 0, requested = 0, count = 0;
  };
  int64_t used_ = 0;
  std::map<std::string, Counts> counts_;
  std::vector<TflmArenaStep>& steps_;
};

void step(std::vector<TflmArenaStep>& steps, TflmArenaStep::Kind kind, int64_t bytes, int64_t align) {
  steps.push_back({kind, bytes, align});
}

// A TfLiteTensor with its quantization: the interpreter's persistent ones, or the temporary ones
// a kernel's Prepare asks for (AllocateTempInputTensor, ...).
void tensor_steps(std::vector<TflmArenaStep>& steps, const Records& r, const TfliteTensor& t,
                  TflmArenaStep::Kind kind) {
  step(steps, kind, r.tensor, r.pointer);
  if (t.quant_scales > 0 && t.quant_zero_points > 0) {
    step(steps, kind, r.affine_quantization, r.pointer);
    step(steps, kind, 4 + 4 * int64_t{t.quant_scales}, 4);
  }
}

// An input or output tensor of the interpreter: the TfLiteTensor and, when quantized, its
// TfLiteAffineQuantization and a zero-point array of one int per scale.
void interpreter_tensor(Tail& tail, const Records& r, const TfliteTensor& t) {
  tail.allocate(r.tensor, r.pointer, kTensors);
  if (t.quant_scales > 0 && t.quant_zero_points > 0) {
    tail.allocate(r.affine_quantization, r.pointer, kQuantization);
    tail.allocate(4 + 4 * int64_t{t.quant_scales}, 4, kQuantization);
  }
}

// Slots of the resource-variable store a model with VAR_HANDLE needs: 8, or one per resource.
int64_t resource_slots(const TfliteModel& model) {
  std::set<std::string> names;
  bool any = false;
  for (const TfliteSubgraph& g : model.subgraphs) {
    for (const TfliteOperator& op : g.operators) {
      if (tflite_schema::builtin_name(model.operator_codes[op.opcode_index].builtin_code) != "VAR_HANDLE") continue;
      any = true;
      names.insert(op.resource_name);
    }
  }
  return any ? std::max<int64_t>(kResourceSlots, static_cast<int64_t>(names.size())) : 0;
}

using Kind = TflmArenaStep::Kind;

// A model with resource variables runs only with a MicroResourceVariables store the application
// creates in the arena before the interpreter: the store, then its array of MicroResourceVariable
// {container, shared_name, buffer, bytes, default flag}. Assumed: 8 slots (TFLM's examples and
// tests), or one per resource where the model has more.
void resource_store(TflmTail& out, Tail& tail, const Records& r, const TfliteModel& model) {
  const int64_t slots = resource_slots(model);
  if (slots == 0) return;
  out.assumptions.push_back("a MicroResourceVariables store of " + std::to_string(slots) +
                            " created in the arena before the interpreter");
  tail.allocate(r.resource_store, kPersistentAlignment, kBuffers);
  tail.allocate(r.resource_variable * slots, kPersistentAlignment, kBuffers);
}

// MicroAllocator::StartModelAllocation: the builtin data allocator, room for one operator's
// scratch requests at the head (InitScratchBufferData), the subgraphs' records.
void model_records(Tail& tail, std::vector<TflmArenaStep>& steps, const Records& r, const TfliteModel& model) {
  tail.allocate(r.builtin_data_allocator, r.pointer, kOther);
  step(steps, Kind::kHead, r.scratch_request * kMaxScratchBuffersPerOp, 4);
  tail.allocate(r.subgraph_allocations * static_cast<int64_t>(model.subgraphs.size()), r.pointer, kOther);
  for (const TfliteSubgraph& g : model.subgraphs) {
    const auto n = static_cast<int64_t>(g.tensors.size());
    tail.allocate(r.eval_tensor * n, r.pointer, kEvalTensors, n);
  }
  for (const TfliteSubgraph& g : model.subgraphs) {
    const auto n = static_cast<int64_t>(g.operators.size());
    tail.allocate(r.node_and_registration * n, r.pointer, kNodes, n);
  }
}

// Every operator's kernel record, in Prepare order, with its summary in `out`.
std::vector<TflmKernelRecord> kernel_records(const TfliteAnalysis& a, const TflmBuild& build, TflmTail& out) {
  std::vector<TflmKernelRecord> records;
  TflmResourceState resources;
  for (const TfliteOperatorInfo& info : a.operators) {
    const TfliteSubgraph& g = a.model.subgraphs[static_cast<size_t>(info.subgraph)];
    records.push_back(tflm_kernel_record(a.model, g, g.operators[static_cast<size_t>(info.index)], build, &resources));
    const TflmKernelRecord& k = records.back();
    TflmOperatorTail op;
    op.subgraph = info.subgraph;
    op.index = info.index;
    op.name = info.name;
    op.variant = k.variant;
    op.known = k.known;
    op.proven = k.proven;
    op.scratch_requests = static_cast<int64_t>(info.scratch_buffers.size());
    out.operators.push_back(op);
    if (!k.assumes.empty() &&
        std::find(out.assumptions.begin(), out.assumptions.end(), k.assumes) == out.assumptions.end())
      out.assumptions.push_back(k.assumes);
    if (!k.known)
      out.unknown.push_back(k.why_unknown);
    else if (!k.proven)
      out.unproven.push_back(k.variant);
  }
  return records;
}

// Each operator's builtin options (PrepareNodeAndRegistrationDataFromFlatbuffer), then every
// kernel's Init.
void options_and_init(Tail& tail, const std::vector<TflmKernelRecord>& records, TflmTail& out) {
  for (const TflmKernelRecord& k : records) {
    if (k.options_bytes > 0) tail.allocate(k.options_bytes, k.options_align, kOther);
  }
  for (size_t o = 0; o < records.size(); ++o) {
    for (int64_t bytes : records[o].init)
      out.operators[o].init_bytes += tail.allocate(bytes, kPersistentAlignment, kBuffers);
  }
}

// Every kernel's Prepare, subgraph by subgraph: its temporary tensors (inputs, then outputs), its
// persistent buffers, then the head grows to hold the next operator's scratch requests. Returns
// the number of scratch requests.
int64_t prepare_kernels(Tail& tail, std::vector<TflmArenaStep>& steps, const Records& r, const TfliteAnalysis& a,
                        const std::vector<TflmKernelRecord>& records, TflmTail& out) {
  int64_t requests = 0;
  for (size_t o = 0; o < records.size(); ++o) {
    const TfliteOperatorInfo& info = a.operators[o];
    const TfliteSubgraph& g = a.model.subgraphs[static_cast<size_t>(info.subgraph)];
    const TfliteOperator& op = g.operators[static_cast<size_t>(info.index)];
    if (records[o].temp_tensors) {
      for (const TfliteTensor* t : *records[o].temp_tensors)
        tensor_steps(steps, r, *t, Kind::kTemp);
    } else {
      for (const std::vector<int32_t>* list : {&op.inputs, &op.outputs}) {
        for (int32_t t : *list)
          if (t >= 0) tensor_steps(steps, r, g.tensors[static_cast<size_t>(t)], Kind::kTemp);
      }
    }
    for (int64_t bytes : records[o].prepare)
      out.operators[o].prepare_bytes += tail.allocate(bytes, kPersistentAlignment, kBuffers);
    requests += static_cast<int64_t>(info.scratch_buffers.size());
    step(steps, Kind::kResetTemp, 0, 1);
    step(steps, Kind::kHead, r.scratch_request * (requests + kMaxScratchBuffersPerOp), 4);
  }
  return requests;
}

// MicroAllocator::FinishModelAllocation: one handle per scratch buffer, once for the whole model,
// then each subgraph's variable tensors that are not planned offline. (TFLM of 2022 allocated the
// handles again for every subgraph; every version modelled here allocates them once, so a model
// with an empty second subgraph costs no more handles.)
void finish_model_allocation(Tail& tail, const Records& r, const TfliteAnalysis& a, int64_t requests) {
  if (requests > 0) tail.allocate(r.pointer * requests, r.pointer, kOther);
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    for (const TfliteTensorInfo& t : a.tensors) {
      if (t.subgraph == static_cast<int>(s) && t.placement == TensorPlacement::kVariable)
        tail.allocate(t.bytes, kPersistentAlignment, kVariables);
    }
  }
}

// CommitStaticMemoryPlan: one AllocationInfo per tensor and scratch buffer, then the planner's
// working set of 40 bytes per planned buffer, both temporary; then the head becomes the plan's.
void commit_plan_steps(std::vector<TflmArenaStep>& steps, const Records& r, const TfliteAnalysis& a, int64_t requests) {
  const auto entries = static_cast<int64_t>(a.tensors.size()) + requests;
  const auto planned = static_cast<int64_t>(a.problem.buffers.size());
  step(steps, Kind::kTemp, r.pointer * static_cast<int64_t>(a.model.subgraphs.size()), r.pointer);  // subgraph offsets
  step(steps, Kind::kTemp, r.allocation_info * entries, r.pointer);
  step(steps, Kind::kPlanner, planned, kPersistentAlignment);
  step(steps, Kind::kResetTemp, 0, 1);
  step(steps, Kind::kPlanHead, 0, kPersistentAlignment);
}

// MicroInterpreter::AllocateTensors: the input and output pointer arrays and their tensors.
void interpreter_tensors(Tail& tail, const Records& r, const TfliteModel& model) {
  const TfliteSubgraph& main = model.subgraphs[0];
  for (const std::vector<int32_t>* list : {&main.inputs, &main.outputs}) {
    tail.allocate(r.pointer * static_cast<int64_t>(list->size()), kPersistentAlignment, kBuffers);
    for (int32_t t : *list)
      interpreter_tensor(tail, r, main.tensors[static_cast<size_t>(t)]);
  }
}

}  // namespace

TflmTail tflm_tail(const TfliteAnalysis& a, const TflmBuild& build) {
  const Records& r = build.target == TflmTarget::kX86_64 ? kX86_64 : esp32_layout(build.target) ? kEsp32 : kCortexM;
  TflmTail out;
  out.build = build;
  std::vector<TflmArenaStep>& steps = out.steps;
  // The recording interpreter's objects count in TFLM's figure; the plain interpreter's (smaller)
  // are what a firmware's arena holds, so only they are steps.
  Tail tail(steps);
  tail.allocate(r.recording_objects, r.pointer, kOther);
  steps.clear();
  step(steps, Kind::kPersistent, r.plain_objects, r.pointer);

  // esp-tflite-micro's examples take the arena from heap_caps_malloc, which aligns to 4 or 8.
  if (esp32_layout(build.target))
    out.assumptions.push_back(
        "the arena starts 16-byte aligned (an arena from heap_caps_malloc needs up to 15 bytes more)");
  resource_store(out, tail, r, a.model);
  model_records(tail, steps, r, a.model);
  const std::vector<TflmKernelRecord> records = kernel_records(a, build, out);
  options_and_init(tail, records, out);
  const int64_t requests = prepare_kernels(tail, steps, r, a, records, out);
  finish_model_allocation(tail, r, a, requests);
  commit_plan_steps(steps, r, a, requests);
  interpreter_tensors(tail, r, a.model);

  // No ground truth holds a model with several subgraphs and scratch buffers, so such a figure
  // is not claimed exact.
  if (requests > 0 && a.model.subgraphs.size() > 1)
    out.unproven.push_back("scratch handles of " + std::to_string(a.model.subgraphs.size()) + " subgraphs");
  out.bytes = tail.used();
  out.exact = out.unknown.empty() && out.unproven.empty();
  out.categories = tail.categories();
  out.uncategorized = tail.used_in(kOther);
  return out;
}

}  // namespace usmpx
