#include "frontends/tflite/tflite_problem.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/alignment.h"
#include "base/input_error.h"
#include "base/text_file.h"
#include "frontends/tflite/tflite_schema.h"
#include "frontends/tflite/tflm_kernels.h"
#include "frontends/tflite/tflm_support.h"
#include "planners/toolchains/tflm_greedy.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

// Global tensor index of (subgraph, tensor).
class TensorIndex {
 public:
  explicit TensorIndex(const TfliteModel& model) {
    size_t start = 0;
    for (const TfliteSubgraph& g : model.subgraphs) {
      starts_.push_back(start);
      start += g.tensors.size();
    }
  }
  size_t operator()(size_t subgraph, int32_t tensor) const { return starts_[subgraph] + static_cast<size_t>(tensor); }

 private:
  std::vector<size_t> starts_;
};

// TFLM's MarkAllocationLifetimes (micro_allocation_info.cc, after 7925e839c): a scope counter
// over the operators of subgraph 0, descending into the subgraphs control flow calls.
class LifetimeMarker {
 public:
  LifetimeMarker(TfliteAnalysis& a, const TensorIndex& index, std::vector<std::pair<int64_t, int64_t>>& scratch,
                 const std::vector<std::vector<std::vector<size_t>>>& scratch_of_op, const std::string& path)
      : a_(a), index_(index), scratch_(scratch), scratch_of_op_(scratch_of_op), path_(path) {
    for (const TfliteSubgraph& g : a.model.subgraphs) {
      first_op_.push_back(ops_);
      ops_ += g.operators.size();
    }
  }

  void mark(size_t s) {
    if (active_.count(s)) {
      throw InputError({path_, 0, 0}, "subgraph " + std::to_string(s) +
                                          " calls itself through control flow; TFLM cannot plan recursion");
    }
    active_.insert(s);
    const TfliteSubgraph& g = a_.model.subgraphs[s];
    for (int32_t t : g.inputs) {
      use(s, t);
    }
    for (size_t o = 0; o < g.operators.size(); ++o) {
      const TfliteOperator& op = g.operators[o];
      // Subgraphs called from many places are marked at each call, as TFLM does; nested calls
      // could multiply without bound.
      if (++visits_ > kMaxOperatorVisits) {
        throw InputError({path_, 0, 0}, "control flow runs more than " + std::to_string(kMaxOperatorVisits) +
                                            " operators (subgraphs called from many places, nested)");
      }
      ++scope_;
      op_info(s, o).time = scope_;
      for (int32_t t : op.outputs)
        first(s, t);
      const int64_t scratch_first = scope_;
      for (int32_t called : called_subgraphs(op)) {
        ++scope_;
        mark(static_cast<size_t>(called));
      }
      for (int32_t t : op.inputs) {
        if (t >= 0) last(s, t);
      }
      for (int32_t t : op.outputs)
        last(s, t);
      for (size_t k : scratch_of_op_[s][o]) {
        if (scratch_[k].first < 0) scratch_[k].first = scratch_first;
        scratch_[k].second = scope_;
      }
    }
    for (int32_t t : g.outputs)
      use(s, t);
    active_.erase(s);
  }

 private:
  // The operators are listed subgraph by subgraph, so (subgraph, index) finds its entry.
  TfliteOperatorInfo& op_info(size_t s, size_t o) { return a_.operators[first_op_[s] + o]; }
  TfliteTensorInfo& info(size_t s, int32_t t) { return a_.tensors[index_(s, t)]; }
  void first(size_t s, int32_t t) {
    if (info(s, t).first == -1) info(s, t).first = scope_;
  }
  void last(size_t s, int32_t t) { info(s, t).last = scope_; }
  void use(size_t s, int32_t t) {
    first(s, t);
    last(s, t);
  }

  std::vector<int32_t> called_subgraphs(const TfliteOperator& op) const {
    const int32_t code = a_.model.operator_codes[op.opcode_index].builtin_code;
    if (code != sc::kIf && code != sc::kWhile && code != sc::kCallOnce) return {};
    if (op.options_type == 0) {
      throw InputError({path_, 0, 0}, sc::builtin_name(code) + " operator without its options (which subgraphs)");
    }
    for (int64_t s : op.option_ints) {
      if (s < 0 || static_cast<size_t>(s) >= a_.model.subgraphs.size())
        throw InputError({path_, 0, 0}, sc::builtin_name(code) + " calls subgraph " + std::to_string(s) + " of " +
                                            std::to_string(a_.model.subgraphs.size()));
    }
    return {op.option_ints.begin(), op.option_ints.end()};
  }

  TfliteAnalysis& a_;
  const TensorIndex& index_;
  std::vector<std::pair<int64_t, int64_t>>& scratch_;
  const std::vector<std::vector<std::vector<size_t>>>& scratch_of_op_;
  const std::string& path_;
  static constexpr int64_t kMaxOperatorVisits = 10'000'000;
  std::vector<size_t> first_op_;  // per subgraph: its first operator's entry in a_.operators
  size_t ops_ = 0;
  std::set<size_t> active_;
  int64_t scope_ = 0;
  int64_t visits_ = 0;
};

std::optional<std::vector<int32_t>> read_offline_offsets(const TfliteModel& model, const std::string& bytes,
                                                         const std::string& path) {
  auto words = offline_plan_words(model, bytes, path);
  if (!words) return std::nullopt;
  const int64_t count = (*words)[2];
  const auto tensors = static_cast<int64_t>(model.tensor_count());
  const std::string what(kOfflinePlanMetadataName);
  if (count != tensors) {
    throw InputError({path, 0, 0}, what + " metadata has " + std::to_string(count) + " offsets but the model has " +
                                       std::to_string(tensors) +
                                       " tensors (TFLM refuses it: \"Nbr of offline buffer offsets not equal nbr "
                                       "tensors\")");
  }
  if (static_cast<int64_t>(words->size()) != 3 + count) {
    throw InputError({path, 0, 0}, what + " metadata says " + std::to_string(count) + " offsets but holds " +
                                       std::to_string(words->size() - 3));
  }
  return std::vector<int32_t>(words->begin() + 3, words->end());
}

std::string unique_name(std::string name, std::set<std::string>& taken, const std::string& suffix) {
  if (taken.insert(name).second) return name;
  for (int k = 1;; ++k) {
    std::string candidate = name + suffix + (k > 1 ? "_" + std::to_string(k) : "");
    if (taken.insert(candidate).second) return candidate;
  }
}

// An offline plan may overlap tensors that are live at the same time: TFLM accepts it unchecked.
// Say so beside the validator's overlap errors; Vela's layout for its ethos-u operators
// (npu_layout) overlaps on purpose and is not counted.
void note_offline_overlaps(TfliteAnalysis& a) {
  std::vector<int> fixed;
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    if (a.tensors[t].buffer >= 0 && (*a.offline_offsets)[t] != -1) fixed.push_back(a.tensors[t].buffer);
  }
  int pairs = 0;
  for (size_t i = 0; i < fixed.size(); ++i) {
    for (size_t j = i + 1; j < fixed.size(); ++j) {
      const Buffer& x = a.problem.buffers[static_cast<size_t>(fixed[i])];
      const Buffer& y = a.problem.buffers[static_cast<size_t>(fixed[j])];
      const int64_t xo = a.as_built->allocations[static_cast<size_t>(fixed[i])].offset;
      const int64_t yo = a.as_built->allocations[static_cast<size_t>(fixed[j])].offset;
      const bool intended = std::count(a.npu_layout.begin(), a.npu_layout.end(), fixed[i]) > 0 &&
                            std::count(a.npu_layout.begin(), a.npu_layout.end(), fixed[j]) > 0;
      if (!intended && x.lifetime->overlaps(*y.lifetime) && xo < yo + y.size_bytes && yo < xo + x.size_bytes) ++pairs;
    }
  }
  if (pairs == 0) return;
  a.warnings.push_back({Severity::kWarning,
                        "tflm-offline-overlap",
                        "the model's OfflineMemoryAllocation overlaps " + std::to_string(pairs) +
                            " pair(s) of tensors live at the same time; TFLM uses it unchecked",
                        {},
                        0,
                        {}});
}

// One tensor as TFLM's InitializeAllocationInfo sees it: its size and whether it is planned.
TfliteTensorInfo tensor_info(const TfliteAnalysis& a, size_t s, size_t t, bool offline, const std::string& path) {
  const TfliteTensor& x = a.model.subgraphs[s].tensors[t];
  TfliteTensorInfo info;
  info.subgraph = static_cast<int>(s);
  info.index = static_cast<int>(t);
  const bool constant = x.buffer < a.model.buffers.size() && a.model.buffers[x.buffer].constant();
  if (constant) {
    info.placement = TensorPlacement::kConstant;
  } else if (x.is_variable && !offline) {
    info.placement = TensorPlacement::kVariable;
  }
  const std::string where = "tensor '" + x.name + "' (subgraph " + std::to_string(s) + ", index " + std::to_string(t);
  const auto type_bytes = sc::type_size(x.type);
  if (!type_bytes) {
    if (info.placement == TensorPlacement::kPlanned)
      throw InputError({path, 0, 0},
                       where + ") has type " + sc::type_name(x.type) + ", which TFLM cannot place in its arena");
  } else {
    int64_t n = *type_bytes;
    for (int32_t d : x.shape) {
      n *= d;
      if (n > (int64_t{1} << 31)) throw InputError({path, 0, 0}, where + ") is larger than 2 GB");
    }
    info.bytes = n;
  }
  if (info.placement == TensorPlacement::kPlanned && info.bytes == 0) info.placement = TensorPlacement::kEmpty;
  return info;
}

void add_tensor_infos(TfliteAnalysis& a, const TensorIndex& index, const std::string& path) {
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    for (size_t t = 0; t < a.model.subgraphs[s].tensors.size(); ++t) {
      const bool offline = a.offline_offsets && (*a.offline_offsets)[index(s, static_cast<int32_t>(t))] != -1;
      a.tensors.push_back(tensor_info(a, s, t, offline, path));
    }
  }
}

// VAR_HANDLE points its output at the resource id in its op data (Prepare, before planning).
void mark_kernel_owned(TfliteAnalysis& a, const TensorIndex& index) {
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    for (const TfliteOperator& op : a.model.subgraphs[s].operators) {
      if (sc::builtin_name(a.model.operator_codes[op.opcode_index].builtin_code) != "VAR_HANDLE") continue;
      for (int32_t t : op.outputs) {
        TfliteTensorInfo& info = a.tensors[index(s, t)];
        if (info.placement == TensorPlacement::kPlanned) info.placement = TensorPlacement::kKernel;
      }
    }
  }
}

// The kernels' scratch requests in Prepare order, each with its operator and lifetime.
struct ScratchRequests {
  std::vector<std::pair<int64_t, int64_t>> life;  // first, last per request
  std::vector<int64_t> bytes;
  std::vector<size_t> op;                               // index into TfliteAnalysis::operators
  std::vector<std::vector<std::vector<size_t>>> of_op;  // per subgraph and operator: its requests
  void add(size_t operator_entry, int64_t size) {
    bytes.push_back(size);
    op.push_back(operator_entry);
    life.push_back({-1, -1});
  }
};

// TFLM's ValidateSubgraph: an intermediate tensor of non-zero size is refused.
void check_intermediates(const TfliteAnalysis& a, const TensorIndex& index, size_t s, const TfliteOperator& op,
                         const TfliteOperatorInfo& info, const std::string& path) {
  for (int32_t t : op.intermediates) {
    const TfliteTensorInfo& ti = a.tensors[index(s, t)];
    if (ti.placement == TensorPlacement::kPlanned)
      throw InputError({path, 0, 0}, "operator " + std::to_string(info.index) + " (" + info.name +
                                         ") has an intermediate tensor of " + std::to_string(ti.bytes) +
                                         " bytes; TFLM refuses it (\"Does not support intermediate tensor with "
                                         "non-zero size\")");
  }
}

// Operators and, unless a log's plan gives them, their kernels' scratch requests, in Prepare
// order (subgraph by subgraph).
ScratchRequests add_operators(TfliteAnalysis& a, const TensorIndex& index, bool requests_from_rules,
                              const std::string& path) {
  ScratchRequests requests;
  requests.of_op.resize(a.model.subgraphs.size());
  for (size_t s = 0; s < a.model.subgraphs.size(); ++s) {
    const TfliteSubgraph& g = a.model.subgraphs[s];
    requests.of_op[s].resize(g.operators.size());
    for (size_t o = 0; o < g.operators.size(); ++o) {
      const TfliteOperator& op = g.operators[o];
      const TfliteOperatorCode& code = a.model.operator_codes[op.opcode_index];
      TfliteOperatorInfo info;
      info.subgraph = static_cast<int>(s);
      info.index = static_cast<int>(o);
      info.name = code.builtin_code == sc::kCustom ? code.custom_code : sc::builtin_name(code.builtin_code);
      check_intermediates(a, index, s, op, info, path);
      if (requests_from_rules) {
        const ScratchNeed need = scratch_need(a.model, g, op, a.build);
        if (!need.known)
          a.unknown_scratch.push_back(info.name + " (subgraph " + std::to_string(s) + " operator " + std::to_string(o) +
                                      ": " + need.rule + ")");
        for (int64_t b : need.bytes) {
          requests.of_op[s][o].push_back(requests.bytes.size());
          requests.add(a.operators.size(), b);
        }
      }
      a.operators.push_back(std::move(info));
    }
  }
  return requests;
}

void add_arena_pool(Problem& p) {
  Pool arena;
  arena.name = "arena";
  arena.kind = PoolKind::kWorkspace;
  arena.alignment = kTflmAlignment;
  arena.targets = {{"tflm", "rw"}};
  p.pools.push_back(arena);
  p.conflict_source = ConflictSource::kLifetimes;
}

// A Problem buffer for every planned tensor, in AddBuffer order.
void add_tensor_buffers(TfliteAnalysis& a, std::set<std::string>& names) {
  Problem& p = a.problem;
  const TfliteSubgraph& main = a.model.subgraphs[0];
  const std::set<size_t> model_inputs(main.inputs.begin(), main.inputs.end());
  const std::set<size_t> model_outputs(main.outputs.begin(), main.outputs.end());
  for (TfliteTensorInfo& info : a.tensors) {
    if (info.placement != TensorPlacement::kPlanned) continue;
    const TfliteTensor& x =
        a.model.subgraphs[static_cast<size_t>(info.subgraph)].tensors[static_cast<size_t>(info.index)];
    Buffer b;
    std::string name = x.name.empty() ? "tensor_" + std::to_string(info.index) : x.name;
    if (info.subgraph > 0) name = "sg" + std::to_string(info.subgraph) + "/" + name;
    b.name = unique_name(name, names, "#" + std::to_string(info.index));
    b.size_bytes = align_up(info.bytes, kTflmAlignment);
    b.alignment = kTflmAlignment;
    const auto index = static_cast<size_t>(info.index);
    if (info.subgraph == 0 && model_inputs.count(index)) b.kind = BufferKind::kInput;
    if (info.subgraph == 0 && model_outputs.count(index)) b.kind = BufferKind::kOutput;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(info.first, info.last);
    b.dtype = sc::type_name(x.type);
    b.shape.assign(x.shape.begin(), x.shape.end());
    // Tensors pass between operators (origin left empty, as TVM's inter-operator buffers); scratch
    // buffers belong to one operator.
    info.buffer = static_cast<int>(p.buffers.size());
    p.buffers.push_back(std::move(b));
  }
}

// Where the TFLM log's planned tensors differ from the analysis.
void warn_log_mismatches(TfliteAnalysis& a, size_t planned_tensors) {
  for (size_t i = 0; i < std::min(planned_tensors, a.log->buffers.size()); ++i) {
    const TflmLog::Buffer& lb = a.log->buffers[i];
    const Buffer& b = a.problem.buffers[i];
    if (lb.size == b.size_bytes && lb.first_used == b.lifetime->first() && lb.last_used == b.lifetime->last()) continue;
    a.warnings.push_back({Severity::kWarning,
                          "tflm-log-mismatch",
                          "the TFLM log's buffer " + std::to_string(i) + " (size " + std::to_string(lb.size) +
                              ", used " + std::to_string(lb.first_used) + ".." + std::to_string(lb.last_used) +
                              ") differs from tensor '" + b.name + "' as analysed (size " +
                              std::to_string(b.size_bytes) + ", used " + std::to_string(b.lifetime->first()) + ".." +
                              std::to_string(b.lifetime->last()) + ")",
                          {static_cast<int>(i)},
                          0,
                          {}});
  }
}

// The printout's buffers past the planned tensors are the kernels' scratch buffers, in request
// order, each living during the one time step of its operator.
void take_log_scratch(TfliteAnalysis& a, ScratchRequests& requests, const std::string& log_path) {
  const size_t planned_tensors = a.problem.buffers.size();
  if (a.log->buffers.size() < planned_tensors) {
    throw InputError({log_path, 0, 0}, "the memory plan has " + std::to_string(a.log->buffers.size()) +
                                           " buffers but the model has " + std::to_string(planned_tensors) +
                                           " planned tensors: a log of another model?");
  }
  warn_log_mismatches(a, planned_tensors);
  for (size_t i = planned_tensors; i < a.log->buffers.size(); ++i) {
    const TflmLog::Buffer& lb = a.log->buffers[i];
    size_t op = a.operators.size();
    for (size_t o = 0; o < a.operators.size(); ++o) {
      if (a.operators[o].time == lb.first_used) {
        op = o;
        break;
      }
    }
    requests.add(op, lb.size);
    requests.life.back() = {lb.first_used, lb.last_used};
  }
}

// A Problem buffer for every scratch request, after the tensors.
void add_scratch_buffers(TfliteAnalysis& a, const ScratchRequests& requests, std::set<std::string>& names) {
  std::map<size_t, int> per_op_count;
  for (size_t k = 0; k < requests.bytes.size(); ++k) {
    Buffer b;
    const size_t op = requests.op[k];
    const std::string owner =
        op < a.operators.size()
            ? a.operators[op].name + "#" + std::to_string(a.operators[op].index) +
                  (a.operators[op].subgraph > 0 ? "@sg" + std::to_string(a.operators[op].subgraph) : "")
            : std::string("kernel");
    b.name = unique_name(owner + "/scratch" + std::to_string(per_op_count[op]++), names, "#");
    b.size_bytes = align_up(requests.bytes[k], kTflmAlignment);
    b.alignment = kTflmAlignment;
    b.pool_candidates = {0};
    b.lifetime = Lifetime::closed(requests.life[k].first, requests.life[k].second);
    b.origin.function = "scratch buffer of " + owner;
    if (op < a.operators.size()) a.operators[op].scratch_buffers.push_back(static_cast<int>(a.problem.buffers.size()));
    a.problem.buffers.push_back(std::move(b));
  }
}

// The time axis: one span per operator of the subgraphs that run.
void add_timeline(TfliteAnalysis& a) {
  Problem& p = a.problem;
  for (const TfliteOperatorInfo& op : a.operators) {
    if (op.time >= 0) p.timeline.push_back({op.time, op.time, op.name});
  }
  std::sort(p.timeline.begin(), p.timeline.end(),
            [](const TimelineSpan& x, const TimelineSpan& y) { return x.first < y.first; });
}

// Whether every operator that reads or writes the tensor is an ethos-u operator (and one does).
bool only_npu_uses(const TfliteModel& model, const TfliteSubgraph& g, int32_t tensor) {
  bool used = false;
  for (const TfliteOperator& op : g.operators) {
    const bool uses = std::find(op.inputs.begin(), op.inputs.end(), tensor) != op.inputs.end() ||
                      std::find(op.outputs.begin(), op.outputs.end(), tensor) != op.outputs.end();
    if (!uses) continue;
    const TfliteOperatorCode& code = model.operator_codes[op.opcode_index];
    if (code.builtin_code != sc::kCustom || code.custom_code != "ethos-u") return false;
    used = true;
  }
  return used;
}

// Vela places the tensors only its ethos-u operators use (input, output, scratch, scratch_fast)
// in one scratch area at offsets that overlap on purpose: the NPU's command stream orders their
// use and addresses them relative to each other. Read as Vela's intent: those buffers are pinned
// at Vela's offsets and conflict with none of each other; every other pair conflicts as their
// lifetimes say (the problem's conflicts become explicit lists).
void keep_npu_layout(TfliteAnalysis& a) {
  if (!a.offline_offsets) return;
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const TfliteTensorInfo& info = a.tensors[t];
    if (info.buffer < 0 || (*a.offline_offsets)[t] == -1) continue;
    if (!only_npu_uses(a.model, a.model.subgraphs[static_cast<size_t>(info.subgraph)], info.index)) continue;
    a.npu_layout.push_back(info.buffer);
    a.problem.buffers[static_cast<size_t>(info.buffer)].pin = Pin{0, (*a.offline_offsets)[t]};
  }
  if (a.npu_layout.empty()) return;
  Problem& p = a.problem;
  const std::set<int> npu(a.npu_layout.begin(), a.npu_layout.end());
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    for (size_t j = i + 1; j < p.buffers.size(); ++j) {
      if (npu.count(static_cast<int>(i)) && npu.count(static_cast<int>(j))) continue;
      if (!p.buffers[i].lifetime->overlaps(*p.buffers[j].lifetime)) continue;
      p.buffers[i].conflicts.push_back(static_cast<int>(j));
      p.buffers[j].conflicts.push_back(static_cast<int>(i));
    }
  }
  p.conflict_source = ConflictSource::kExplicit;
}

void warn_unknown_scratch(TfliteAnalysis& a) {
  if (a.unknown_scratch.empty()) return;
  std::string list;
  for (const std::string& s : a.unknown_scratch)
    list += (list.empty() ? "" : "; ") + s;
  a.warnings.push_back({Severity::kWarning,
                        "tflm-unknown-scratch",
                        "scratch buffers not known for " + std::to_string(a.unknown_scratch.size()) +
                            " operator(s): " + list +
                            ". TFLM places them around this plan at run time, so its arena head may be larger "
                            "than planned here; give --tflm-log with TFLM's PrintMemoryPlan output",
                        {},
                        0,
                        {}});
}

}  // namespace

std::string_view to_string(TensorPlacement placement) {
  switch (placement) {
    case TensorPlacement::kPlanned: return "planned";
    case TensorPlacement::kConstant: return "constant";
    case TensorPlacement::kVariable: return "variable";
    case TensorPlacement::kEmpty: return "empty";
    case TensorPlacement::kKernel: return "kernel's own";
  }
  return "?";
}

TfliteAnalysis analyse_tflite(const std::string& bytes, const std::string& path, const TfliteLoadOptions& options) {
  TfliteAnalysis a;
  a.build = options.build;
  a.model = read_tflite_model(bytes, path);
  a.warnings = tflm_refusals(a.model, options.build);
  a.offline_offsets = read_offline_offsets(a.model, bytes, path);
  if (!options.tflm_log.empty()) a.log = parse_tflm_log(read_text_file(options.tflm_log), options.tflm_log);
  const TensorIndex index(a.model);
  // A printout with a memory plan gives the scratch buffers; one with only totals does not.
  const bool log_plan = a.log && !a.log->buffers.empty();

  add_tensor_infos(a, index, path);
  mark_kernel_owned(a, index);
  ScratchRequests requests = add_operators(a, index, !log_plan, path);
  LifetimeMarker marker(a, index, requests.life, requests.of_op, path);
  marker.mark(0);

  add_arena_pool(a.problem);
  std::set<std::string> names;
  add_tensor_buffers(a, names);
  if (log_plan) take_log_scratch(a, requests, options.tflm_log);
  add_scratch_buffers(a, requests, names);
  add_timeline(a);
  keep_npu_layout(a);
  apply_pool_options(a.problem, options.pools);
  warn_unknown_scratch(a);

  a.tail = tflm_tail(a, a.build);
  if (a.offline_offsets) {
    a.as_built = tflm_plan_with_offsets(a, *a.offline_offsets);
    a.as_built->algorithm = "as-built";
    note_offline_overlaps(a);
  }
  return a;
}

Plan tflm_plan_with_offsets(const TfliteAnalysis& analysis, const std::vector<int32_t>& offsets) {
  Problem fixed = analysis.problem;
  for (size_t t = 0; t < analysis.tensors.size() && t < offsets.size(); ++t) {
    const TfliteTensorInfo& info = analysis.tensors[t];
    if (info.buffer >= 0 && offsets[t] != -1) fixed.buffers[static_cast<size_t>(info.buffer)].pin = Pin{0, offsets[t]};
  }
  Plan plan = plan_tflm_greedy(fixed, PlannerOptions{});
  plan.algorithm = "tflm_greedy";
  if (plan.pool_sizes.empty()) compute_pool_sizes(fixed, plan);
  return plan;
}

}  // namespace usmpx
