#include "frontends/tflite/tflm_tail.h"

#include <map>

#include "frontends/tflite/tflite_problem.h"
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
  // The allocator's own objects, made before the model is read: the recording arena allocator,
  // the GreedyMemoryPlanner, the RecordingMicroAllocator and the builtin data allocator. They are
  // those of the RecordingMicroInterpreter TFLM's figures come from; a plain MicroInterpreter's are
  // smaller, so this is never below what a firmware needs.
  int64_t allocator_objects;
  int64_t scratch_request;  // internal::ScratchBufferRequest {bytes, node_idx, subgraph_idx}
  int64_t allocation_info;  // AllocationInfo {bytes, output_ptr, first_created, last_used, offline_offset,
                            // needs_allocating}
};

constexpr Records kCortexM{4, 8, 12, 32, 32, 12, 228, 12, 24};
constexpr Records kX86_64{8, 16, 24, 64, 64, 24, 440, 16, 32};
constexpr int64_t kPlannerBytesPerBuffer = 40;  // GreedyMemoryPlanner::per_buffer_size()
constexpr int64_t kMaxScratchBuffersPerOp = 12;

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
  int64_t allocate(int64_t bytes, int64_t alignment, const char* category, int64_t count = 1) {
    const int64_t before = used_;
    used_ = (used_ + bytes + alignment - 1) / alignment * alignment;
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
};

// An input or output tensor of the interpreter: the TfLiteTensor and, when quantized, its
// TfLiteAffineQuantization and a zero-point array of one int per scale.
void interpreter_tensor(Tail& tail, const Records& r, const TfliteTensor& t) {
  tail.allocate(r.tensor, r.pointer, kTensors);
  if (t.quant_scales > 0 && t.quant_zero_points > 0) {
    tail.allocate(r.affine_quantization, r.pointer, kQuantization);
    tail.allocate(4 + 4 * int64_t{t.quant_scales}, 4, kQuantization);
  }
}

}  // namespace

TflmTail tflm_tail(const TfliteAnalysis& a, const TflmBuild& build) {
  const Records& r = build.target == TflmTarget::kX86_64 ? kX86_64 : kCortexM;
  const TfliteModel& model = a.model;
  TflmTail out;
  out.build = build;
  Tail tail;
  tail.allocate(r.allocator_objects, r.pointer, kOther);

  // MicroAllocator::StartModelAllocation.
  tail.allocate(r.subgraph_allocations * static_cast<int64_t>(model.subgraphs.size()), r.pointer, kOther);
  for (const TfliteSubgraph& g : model.subgraphs) {
    const auto n = static_cast<int64_t>(g.tensors.size());
    tail.allocate(r.eval_tensor * n, r.pointer, kEvalTensors, n);
  }
  for (const TfliteSubgraph& g : model.subgraphs) {
    const auto n = static_cast<int64_t>(g.operators.size());
    tail.allocate(r.node_and_registration * n, r.pointer, kNodes, n);
  }

  // Each operator's builtin options (PrepareNodeAndRegistrationDataFromFlatbuffer), then every
  // kernel's Init, then every kernel's Prepare, subgraph by subgraph.
  std::vector<TflmKernelRecord> records;
  for (const TfliteOperatorInfo& info : a.operators) {
    const TfliteSubgraph& g = model.subgraphs[static_cast<size_t>(info.subgraph)];
    records.push_back(tflm_kernel_record(model, g, g.operators[static_cast<size_t>(info.index)], build));
    TflmOperatorTail op;
    op.subgraph = info.subgraph;
    op.index = info.index;
    op.name = info.name;
    op.known = records.back().known;
    op.scratch_requests = static_cast<int64_t>(info.scratch_buffers.size());
    out.operators.push_back(op);
    if (!records.back().known) out.unknown.push_back(records.back().why_unknown);
  }
  for (const TflmKernelRecord& k : records) {
    if (k.options_bytes > 0) tail.allocate(k.options_bytes, k.options_align, kOther);
  }
  for (size_t o = 0; o < records.size(); ++o) {
    for (int64_t bytes : records[o].init)
      out.operators[o].init_bytes += tail.allocate(bytes, kPersistentAlignment, kBuffers);
  }
  for (size_t o = 0; o < records.size(); ++o) {
    for (int64_t bytes : records[o].prepare)
      out.operators[o].prepare_bytes += tail.allocate(bytes, kPersistentAlignment, kBuffers);
  }

  // MicroAllocator::FinishModelAllocation: one handle per scratch buffer, then the variable
  // tensors that are not planned offline.
  int64_t scratch = 0;
  for (const TfliteOperatorInfo& info : a.operators)
    scratch += static_cast<int64_t>(info.scratch_buffers.size());
  tail.allocate(r.pointer * scratch, r.pointer, kOther);
  for (const TfliteTensorInfo& t : a.tensors) {
    if (t.placement == TensorPlacement::kVariable) tail.allocate(t.bytes, kPersistentAlignment, kVariables);
  }

  out.tail_while_planning = tail.used();
  const int64_t requests = r.scratch_request * (scratch + kMaxScratchBuffersPerOp);
  const auto entries = static_cast<int64_t>(a.tensors.size()) + scratch;
  out.planning_bytes = (requests + kPersistentAlignment - 1) / kPersistentAlignment * kPersistentAlignment +
                       r.allocation_info * entries +
                       kPlannerBytesPerBuffer * static_cast<int64_t>(a.problem.buffers.size()) +
                       out.tail_while_planning;

  // MicroInterpreter::AllocateTensors: the input and output pointer arrays and their tensors.
  const TfliteSubgraph& main = model.subgraphs[0];
  for (const std::vector<int32_t>* list : {&main.inputs, &main.outputs}) {
    tail.allocate(r.pointer * static_cast<int64_t>(list->size()), kPersistentAlignment, kBuffers);
    for (int32_t t : *list)
      interpreter_tensor(tail, r, main.tensors[static_cast<size_t>(t)]);
  }

  out.bytes = tail.used();
  out.exact = out.unknown.empty();
  out.categories = tail.categories();
  out.uncategorized = tail.used_in(kOther);
  return out;
}

}  // namespace usmpx
