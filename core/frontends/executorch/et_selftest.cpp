#include "frontends/executorch/et_selftest.h"

#include <cstring>
#include <deque>
#include <set>

#include "export/export_error.h"
#include "frontends/executorch/et_portable_ops.h"

namespace usmpx {
namespace {

namespace sc = et_schema;

// Instructions one method may run at most (a jump that never ends is refused, not followed).
constexpr int64_t kMaxSteps = 10'000'000;
// Bytes one method's run may allocate (planned buffers, constants, unplanned tensors).
constexpr int64_t kMaxRunBytes = int64_t{1} << 30;

class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed) {}
  uint32_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state_ >> 33);
  }

 private:
  uint64_t state_;
};

std::string fnv1a(const std::string& bytes) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4)
    s[static_cast<size_t>(i)] = digits[h & 15];
  return s;
}

class MethodRun {
 public:
  MethodRun(const std::string& bytes, const EtProgram& p, const EtMethod& m) : bytes_(bytes), p_(p), m_(m) {}

  void run(EtRunOutputs& out) {
    Lcg fill(0x5eed);
    for (size_t id = 1; id < m_.buffer_sizes.size(); ++id) {
      auto& buffer = own(m_.buffer_sizes[id]);
      for (auto& b : buffer)
        b = static_cast<uint8_t>(fill.next());
      planned_.push_back(&buffer);
    }
    values_.resize(m_.values.size());
    for (size_t v = 0; v < m_.values.size(); ++v)
      bind(v);
    Lcg inputs(1);
    for (int32_t v : m_.inputs)
      fill_input(values_.at(static_cast<size_t>(v)), inputs);
    execute();
    for (size_t k = 0; k < m_.outputs.size(); ++k) {
      const EtRtValue& v = values_.at(static_cast<size_t>(m_.outputs[k]));
      std::string data;
      if (v.type == sc::ValueType::kTensor && v.tensor.data) {
        data.assign(reinterpret_cast<const char*>(v.tensor.data), static_cast<size_t>(v.tensor.nbytes));
      } else {
        data = "int:" + std::to_string(v.i);
      }
      out.outputs.push_back({m_.name + " output " + std::to_string(k), std::move(data)});
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ExportError("method '" + m_.name + "': " + what); }

  std::vector<uint8_t>& own(int64_t bytes) {
    allocated_ += std::max<int64_t>(0, bytes);
    if (bytes < 0 || allocated_ > kMaxRunBytes)
      fail("needs more than " + std::to_string(kMaxRunBytes) + " bytes to run here");
    return owned_.emplace_back(static_cast<size_t>(bytes));
  }

  // Where a constant tensor's data lies in the file.
  const uint8_t* constant(uint32_t index, int64_t nbytes, int value) const {
    const auto* base = reinterpret_cast<const uint8_t*>(bytes_.data());
    if (!p_.constant_storage.empty()) {
      if (index >= p_.constant_storage.size()) fail("value " + std::to_string(value) + " names a missing constant");
      const auto& [at, length] = p_.constant_storage[index];
      if (static_cast<int64_t>(length) < nbytes || at + length > bytes_.size())
        fail("value " + std::to_string(value) + "'s constant holds fewer bytes than the tensor");
      return base + at;
    }
    if (index >= p_.constant_offset_values.size() || p_.constant_segment >= p_.segments.size() || !p_.header)
      fail("value " + std::to_string(value) + " names a constant the program does not hold");
    const EtSegment& seg = p_.segments[p_.constant_segment];
    const uint64_t offset = p_.constant_offset_values[index];
    if (offset + static_cast<uint64_t>(nbytes) > seg.size)
      fail("value " + std::to_string(value) + "'s constant lies past its segment");
    const uint64_t at = p_.header->segment_base_offset + seg.offset + offset;
    if (at + static_cast<uint64_t>(nbytes) > bytes_.size()) fail("a constant lies past the end of the file");
    return base + at;
  }

  void bind(size_t v) {
    const EtValue& src = m_.values[v];
    EtRtValue& dst = values_[v];
    dst.type = src.type;
    dst.i = src.int_value;
    dst.d = src.double_value;
    dst.items = src.items;
    if (src.type == sc::ValueType::kIntList) {
      for (int64_t index : src.numbers) {
        if (index < 0 || static_cast<size_t>(index) >= m_.values.size() ||
            m_.values[static_cast<size_t>(index)].type != sc::ValueType::kInt)
          fail("an int list names value " + std::to_string(index) + ", not an int");
        dst.ints.push_back(m_.values[static_cast<size_t>(index)].int_value);
      }
    } else if (src.type == sc::ValueType::kBoolList) {
      dst.ints = src.numbers;
    }
    if (!src.tensor) return;
    const EtTensor& x = *src.tensor;
    EtRtTensor& t = dst.tensor;
    t.scalar_type = x.scalar_type;
    t.sizes.assign(x.sizes.begin(), x.sizes.end());
    t.nbytes = x.nbytes;
    t.dim_order.assign(x.dim_order.begin(), x.dim_order.end());
    if (x.allocation) {
      const uint32_t id = x.allocation->memory_id;
      if (id == 0 || id > planned_.size())
        fail("value " + std::to_string(v) + " names memory id " + std::to_string(id));
      auto& buffer = *planned_[id - 1];
      if (x.allocation->offset + static_cast<uint64_t>(t.nbytes) > buffer.size())
        fail("value " + std::to_string(v) + " lies past the end of planned buffer " + std::to_string(id));
      t.data = buffer.data() + x.allocation->offset;
      if (x.data_buffer_idx > 0)  // a mutable buffer: its initial state copied in at load
        std::memcpy(t.data, constant(x.data_buffer_idx, t.nbytes, static_cast<int>(v)), static_cast<size_t>(t.nbytes));
    } else {
      // Constants (copied: a kernel must not write the file), and tensors the application binds.
      auto& storage = own(t.nbytes);
      if (x.data_buffer_idx > 0 && t.nbytes > 0)
        std::memcpy(storage.data(), constant(x.data_buffer_idx, t.nbytes, static_cast<int>(v)), storage.size());
      t.data = storage.data();
    }
  }

  static void fill_input(EtRtValue& v, Lcg& g) {
    if (v.type != sc::ValueType::kTensor || !v.tensor.data) return;
    EtRtTensor& t = v.tensor;
    if (t.scalar_type == 6) {  // FLOAT: uniform in [-1, 1)
      for (int64_t i = 0; i * 4 + 4 <= t.nbytes; ++i) {
        const float f = static_cast<float>(g.next() >> 8) / 8388608.0f - 1.0f;
        std::memcpy(t.data + i * 4, &f, 4);
      }
    } else if (t.scalar_type == 0 || t.scalar_type == 1) {  // uint8, int8
      for (int64_t i = 0; i < t.nbytes; ++i)
        t.data[i] = static_cast<uint8_t>(g.next());
    } else {
      std::memset(t.data, 0, static_cast<size_t>(t.nbytes));
    }
  }

  void execute() {
    int64_t steps = 0;
    for (size_t pc = 0; pc < m_.instructions.size();) {
      if (++steps > kMaxSteps) fail("ran " + std::to_string(kMaxSteps) + " instructions without ending");
      const EtInstruction& in = m_.instructions[pc];
      size_t next = pc + 1;
      switch (in.type) {
        case sc::InstructionType::kKernelCall: {
          const EtOperator& op = m_.operators[static_cast<size_t>(in.index)];
          const EtKernel kernel = et_portable_kernel(op.full_name());
          if (!kernel) fail("operator " + op.full_name() + " is not implemented");
          try {
            kernel(values_, in.args);
          } catch (const EtKernelError& e) {
            fail("instruction " + std::to_string(pc) + ": " + e.message);
          }
          break;
        }
        case sc::InstructionType::kDelegateCall:
          fail("calls delegate " + m_.delegates[static_cast<size_t>(in.index)].id + ", which this tool cannot run");
        case sc::InstructionType::kMoveCall:  // the value itself (a tensor: its storage, not a copy)
          values_.at(static_cast<size_t>(in.to)) = values_.at(static_cast<size_t>(in.from));
          break;
        case sc::InstructionType::kJumpFalseCall:
          if (values_.at(static_cast<size_t>(in.condition)).i == 0) next = static_cast<size_t>(in.destination);
          break;
        default: break;
      }
      pc = next;
    }
  }

  const std::string& bytes_;
  const EtProgram& p_;
  const EtMethod& m_;
  std::deque<std::vector<uint8_t>> owned_;
  int64_t allocated_ = 0;
  std::vector<std::vector<uint8_t>*> planned_;
  std::vector<EtRtValue> values_;
};

HarnessRun harness_run(const std::string& bytes, const std::string& path, EtRunOutputs* raw) {
  HarnessRun r;
  r.built = true;
  try {
    *raw = run_et_program(bytes, path);
    r.ran = true;
    r.model_rc = 0;
    r.exit_code = 0;
    for (const auto& [name, data] : raw->outputs)
      r.outputs.push_back({name, std::to_string(data.size()) + " " + fnv1a(data)});
  } catch (const ExportError& e) {
    r.log = std::string(e.what()) + "\n";
  }
  return r;
}

class EtSelftest : public Selftest {
 public:
  explicit EtSelftest(std::string path) : path_(std::move(path)) {}

  std::string obstacle(const ExportBundle& original, const SelftestOptions&) const override {
    if (original.files.empty()) return "no program";
    return et_run_obstacle(read_et_program(original.files.front().data, path_));
  }
  SelftestTargets choose_targets(const ExportBundle&, const SelftestOptions&) const override {
    return {{"host"}, "a .pte runs in this process on the project's own ExecuTorch portable operators"};
  }
  bool target_available(const std::string& target, std::string* missing) const override {
    if (target == "host") return true;
    if (missing) *missing = "a " + target + " runner for .pte programs (they run on the host, in this process)";
    return false;
  }
  std::vector<SelftestResult> run(const ExportBundle& original, const ExportBundle& replanned,
                                  const std::vector<std::string>& targets, const std::string&,
                                  const SelftestOptions&) const override {
    std::vector<SelftestResult> results;
    if (original.files.empty() || replanned.files.empty()) throw ExportError(path_ + ": no program to run");
    for (const std::string& target : targets) {
      if (target != "host") continue;
      SelftestResult r;
      r.target = target;
      EtRunOutputs a, b;
      r.original = harness_run(original.files.front().data, path_, &a);
      r.replanned = harness_run(replanned.files.front().data, path_, &b);
      if (!r.original.ran) {
        r.verdict = "the original did not run: " + r.original.log;
      } else if (!r.replanned.ran) {
        r.verdict = "the re-planned program did not run: " + r.replanned.log;
      } else if (a.outputs.size() != b.outputs.size()) {
        r.verdict = "outputs differ: " + std::to_string(a.outputs.size()) + " outputs, re-planned " +
                    std::to_string(b.outputs.size());
      } else {
        std::string differ;
        for (size_t k = 0; k < a.outputs.size(); ++k) {
          const std::string &x = a.outputs[k].second, &y = b.outputs[k].second;
          if (x == y) continue;
          size_t bytes = 0;
          for (size_t i = 0; i < std::min(x.size(), y.size()); ++i)
            bytes += x[i] != y[i] ? 1 : 0;
          differ += (differ.empty() ? "" : ", ") + a.outputs[k].first + " (" + std::to_string(bytes) + " of " +
                    std::to_string(x.size()) + " bytes)";
        }
        r.same = differ.empty();
        r.verdict = r.same ? "same outputs (" + std::to_string(a.outputs.size()) + ", byte for byte)"
                           : "outputs differ: " + differ;
      }
      results.push_back(std::move(r));
    }
    return results;
  }

 private:
  std::string path_;
};

// "aten::add.out has no LONG kernel here (implemented: FLOAT)" when a tensor argument of the call
// has an element type the project's kernel does not implement, else "".
std::string dtype_gap(const EtMethod& m, const EtInstruction& in, const std::string& name) {
  for (const EtArgType& t : et_portable_kernel_types(name)) {
    if (t.arg >= in.args.size() || in.args[t.arg] < 0 || static_cast<size_t>(in.args[t.arg]) >= m.values.size())
      continue;  // a malformed call: the run refuses it with its position
    const EtValue& v = m.values[static_cast<size_t>(in.args[t.arg])];
    if (!v.tensor || v.tensor->scalar_type == t.scalar_type) continue;
    return name + " has no " + std::string(et_schema::scalar_type_name(v.tensor->scalar_type)) +
           " kernel here (implemented: " + std::string(et_schema::scalar_type_name(t.scalar_type)) + ")";
  }
  return "";
}

}  // namespace

std::string et_run_obstacle(const EtProgram& program) {
  std::set<std::string> delegates, missing, dtypes;
  bool external = false;
  for (const EtMethod& m : program.methods) {
    for (const EtInstruction& in : m.instructions) {
      if (in.type == sc::InstructionType::kDelegateCall) {
        delegates.insert(m.delegates[static_cast<size_t>(in.index)].id);
      } else if (in.type == sc::InstructionType::kKernelCall) {
        const std::string name = m.operators[static_cast<size_t>(in.index)].full_name();
        if (!et_portable_kernel(name)) {
          missing.insert(name);
        } else if (std::string gap = dtype_gap(m, in, name); !gap.empty()) {
          dtypes.insert(std::move(gap));
        }
      }
    }
    for (const EtValue& v : m.values)
      external = external || (v.tensor && v.tensor->external);
  }
  std::string why;
  auto list = [](const std::set<std::string>& names) {
    std::string s;
    for (const std::string& n : names)
      s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  if (!delegates.empty())
    why = "it calls delegate " + list(delegates) +
          " (what a backend runs is its own compiled blob; this tool runs no backend)";
  if (!missing.empty()) {
    const std::vector<std::string> names = et_portable_kernel_names();
    why += std::string(why.empty() ? "" : "; ") + "operators not implemented by this tool: " + list(missing) +
           " (implemented: " + list(std::set<std::string>(names.begin(), names.end())) + ")";
  }
  if (!dtypes.empty()) why += std::string(why.empty() ? "" : "; ") + list(dtypes);
  if (external) why += std::string(why.empty() ? "" : "; ") + "its weights are in an external .ptd file";
  return why;
}

EtRunOutputs run_et_program(const std::string& bytes, const std::string& path) {
  const EtProgram p = read_et_program(bytes, path);
  if (const std::string why = et_run_obstacle(p); !why.empty()) throw ExportError(path + ": cannot run: " + why);
  EtRunOutputs out;
  for (const EtMethod& m : p.methods) {
    MethodRun run(bytes, p, m);
    run.run(out);
  }
  return out;
}

std::shared_ptr<const Selftest> et_selftest(std::string path) {
  return std::make_shared<EtSelftest>(std::move(path));
}

}  // namespace usmpx
