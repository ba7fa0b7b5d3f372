#include "frontends/tvm/export/mlf_harness_spec.h"

#include <algorithm>

#include "base/archive_path.h"
#include "frontends/tvm/mlf/relay_signature.h"

namespace usmpx {

// The module's metadata.json entry; an empty one for inputs without metadata.json.
const MlfModuleMetadata& module_metadata(const MlfModel& m) {
  for (const MlfModuleMetadata& mm : m.package->metadata.modules) {
    if (mm.name == m.module) return mm;
  }
  static const MlfModuleMetadata none;
  return m.package->metadata.modules.empty() ? none : m.package->metadata.modules.front();
}

std::string joined(const std::string& folder, const std::string& name) {
  return folder.empty() ? name : folder + "/" + name;
}

// The folder holding a module's generated C: "codegen/host" for codegen/host/src/x.c, the
// firmware project's model folder for src/x.c, the file's own folder for a flat layout.
std::string sources_root(const std::string& source_path) {
  const std::string dir = folder_of(source_path);
  const size_t slash = dir.rfind('/');
  const std::string last = slash == std::string::npos ? dir : dir.substr(slash + 1);
  return last == "src" ? folder_of(dir) : dir;
}

namespace {

// A `tvm_model_t` variable defined in the file: TVM 0.8's C runtime descriptor.
const CGlobal* descriptor_in(const CProgram& program, int file) {
  for (const CGlobal& g : program.globals) {
    if (g.range.file == file && g.init_range.valid() && g.type.find("tvm_model_t") != std::string::npos) return &g;
  }
  return nullptr;
}

// The number a descriptor's initialiser gives a member (".num_input_tensors = 1"), or -1.
int64_t descriptor_count(const MlfModel& m, const CGlobal& g, const std::string& member) {
  const std::string_view init = m.program.files[static_cast<size_t>(g.init_range.file)].text.substr(
      g.init_range.begin, g.init_range.end - g.init_range.begin);
  const size_t at = init.find("." + member);
  const size_t eq = at == std::string_view::npos ? at : init.find_first_not_of(" \t\n", at + member.size() + 1);
  if (eq == std::string_view::npos || init[eq] != '=') return -1;
  const size_t digits = init.find_first_not_of(" \t\n", eq + 1);
  int64_t n = -1;
  for (size_t i = digits;
       i != std::string_view::npos && i < init.size() && i < digits + 6 && init[i] >= '0' && init[i] <= '9'; ++i)
    n = (n < 0 ? 0 : n * 10) + (init[i] - '0');
  return n;
}

// The Relay text's main signature, when the input holds one.
std::optional<RelaySignature> relay_signature_of(const MlfModel& m) {
  for (const ArchiveFile& f : m.package->contents.files) {
    if (f.path == "src/" + m.module + ".relay" || f.path == "src/relay.txt" || f.path == "relay.txt")
      return read_relay_signature(f.data);
  }
  return std::nullopt;
}

// TVM 0.8's packed entry (unpacked-api=0): `<prefix>run_model(args, type_code, num_args,
// out_value, out_type_code, resource_handle)` takes the tensors as DLTensors through TVMValues.
// Behind the C runtime's descriptor, that states how many inputs and outputs there are, the
// inputs are the Relay signature's first parameters and the outputs its result.
std::optional<std::vector<std::string>> packed_entry_io_names(const MlfModel& m, bool inputs) {
  const CFunction& entry = m.program.functions[static_cast<size_t>(m.code.entry)];
  if (entry.params.size() != 6) return std::nullopt;
  const CVariable& num_args = entry.variables[static_cast<size_t>(entry.params[2])];
  const CVariable& args = entry.variables[static_cast<size_t>(entry.params[0])];
  if (num_args.type.find('*') != std::string::npos || num_args.type.find("int") == std::string::npos ||
      args.type.find('*') == std::string::npos)
    return std::nullopt;
  const CFunction* wrapper = packed_run_wrapper(m);
  const CGlobal* descriptor = wrapper ? descriptor_in(m.program, wrapper->range.file) : nullptr;
  if (!descriptor) return std::vector<std::string>{};
  const int64_t count = descriptor_count(m, *descriptor, inputs ? "num_input_tensors" : "num_output_tensors");
  std::vector<std::string> names;
  const std::optional<RelaySignature> sig = relay_signature_of(m);
  for (int64_t i = 0; i < count && i < 1024; ++i) {
    if (!inputs) {
      names.push_back(count == 1 ? "output" : "output" + std::to_string(i));
    } else {
      const bool named = sig && static_cast<size_t>(i) < sig->params.size();
      names.push_back(named ? sanitize_c_name(sig->params[static_cast<size_t>(i)].name) : "input" + std::to_string(i));
    }
  }
  return names;
}

// TVM 0.8 outputs without tvmgen_<mod>.h nor I/O in metadata.json: the I/O are the parameters of
// the entry (<prefix>run_model(input..., output...)) that are not pools; one output is assumed
// (a Relay result that is one tensor says so; a tuple's count cannot be told from the C).
std::vector<std::string> entry_io_names(const MlfModel& m, bool inputs) {
  if (m.code.entry < 0) return {};
  if (std::optional<std::vector<std::string>> packed = packed_entry_io_names(m, inputs)) return *packed;
  const CFunction& entry = m.program.functions[static_cast<size_t>(m.code.entry)];
  std::vector<std::string> names;
  for (int v : entry.params) {
    const bool pool = std::any_of(m.code.pool_params.begin(), m.code.pool_params.end(),
                                  [&](const PoolParam& p) { return p.function == m.code.entry && p.variable == v; });
    if (!pool) names.push_back(entry.variables[static_cast<size_t>(v)].name);
  }
  if (names.size() < 2) return {};
  if (!inputs) return {names.back()};
  names.pop_back();
  return names;
}

}  // namespace

// The model's I/O names: the interface header's structs, else metadata.json's tensors, else the
// entry's parameters.
std::vector<std::string> io_names(const MlfModel& m, bool inputs) {
  if (!m.code.inputs.empty() || !m.code.outputs.empty()) return inputs ? m.code.inputs : m.code.outputs;
  std::vector<std::string> names;
  for (const MlfTensor& t : inputs ? module_metadata(m).inputs : module_metadata(m).outputs)
    names.push_back(sanitize_c_name(t.name));
  const MlfModuleMetadata& mm = module_metadata(m);
  if (mm.inputs.empty() && mm.outputs.empty()) return entry_io_names(m, inputs);
  return names;
}

namespace {

// Size and dtype of each I/O tensor: the header's size macros, metadata.json (TVM 0.11+), else
// the Relay text's main signature.
HarnessTensor io_tensor(const MlfModel& m, const std::string& name, bool input, size_t outputs) {
  HarnessTensor t{name, -1, ""};
  const auto size = m.code.io_sizes.find(name);
  if (size != m.code.io_sizes.end()) t.size_bytes = size->second;
  for (const auto* list : {&module_metadata(m).inputs, &module_metadata(m).outputs}) {
    for (const MlfTensor& mt : *list) {
      if (sanitize_c_name(mt.name) != name) continue;
      if (t.size_bytes < 0) t.size_bytes = mt.size_bytes;
      t.dtype = mt.dtype;
    }
  }
  if (const std::optional<RelaySignature> sig = relay_signature_of(m)) {
    std::optional<RelayTensorType> type;
    if (input) {
      for (const RelayParam& p : sig->params) {
        if (sanitize_c_name(p.name) == name && p.type) type = p.type;
      }
    } else if (outputs == 1 && sig->result) {
      type = sig->result;
    }
    if (type) {
      if (t.size_bytes < 0 && type->size_bytes()) t.size_bytes = *type->size_bytes();
      if (t.dtype.empty()) t.dtype = type->dtype;
    }
  }
  return t;
}

}  // namespace

// TVM 0.8's run wrapper for the packed interface API: `<prefix>run(args, type_codes, num_args,
// out_value, out_type_code, resource_handle)` unpacking DLTensors into the entry's arguments, or
// the C runtime's `static __tvm_main__(...)` doing the same behind a `tvm_model_t` descriptor.
// The static `__tvm_main__` counts only beside its descriptor, the one way to call it.
const CFunction* packed_run_wrapper(const MlfModel& m) {
  const CFunction* run = m.program.find_function(m.code.prefix + "run");
  if (run && run->is_definition && run->params.size() == 6) return run;
  if (run && run->is_definition) return nullptr;
  const CFunction* main = m.program.find_function("__tvm_main__");
  if (!main || !main->is_definition || main->params.size() != 6) return nullptr;
  return main->is_static && !descriptor_in(m.program, main->range.file) ? nullptr : main;
}

// TVM 0.8's `const tvm_model_t <prefix>network = {.run_func = &__tvm_main__, ...}` in the file
// of the packed wrapper: the firmware runs the model with tvm_runtime_run(&descriptor, ...).
std::string crt_model_descriptor(const MlfModel& m) {
  const CFunction* wrapper = packed_run_wrapper(m);
  const CGlobal* g = wrapper ? descriptor_in(m.program, wrapper->range.file) : nullptr;
  return g ? g->name : "";
}

// TVMBackendAllocWorkspace calls whose size is not a constant: USMP cannot plan them.
bool has_dynamic_workspace(const MlfModel& m) {
  return std::any_of(m.warnings.begin(), m.warnings.end(),
                     [](const Diagnostic& d) { return d.code == "mlf-dynamic-workspace"; });
}

namespace {

// Sizes neither the header, metadata.json nor the Relay text state: the analysis of the model with
// its I/O planned (--use-workspace-io) bounds them from the code's accesses.
void fill_sizes_from_accesses(const MlfModel& m, HarnessSpec& h) {
  const auto unknown = [](const HarnessTensor& t) { return t.size_bytes < 0; };
  if (std::none_of(h.inputs.begin(), h.inputs.end(), unknown) &&
      std::none_of(h.outputs.begin(), h.outputs.end(), unknown))
    return;
  MlfLoadOptions options;
  options.module = m.module;
  options.pools.use_workspace_io = true;
  const MlfModel io = analyse_mlf(m.package, select_module(*m.package, m.module), m.program, options);
  for (auto* list : {&h.inputs, &h.outputs}) {
    for (HarnessTensor& t : *list) {
      if (!unknown(t)) continue;
      const auto b = io.problem.find_buffer(t.name);
      if (!b) continue;
      const Buffer& buf = io.problem.buffers[static_cast<size_t>(*b)];
      t.size_bytes = buf.size_bytes;
      if (t.dtype.empty()) t.dtype = buf.dtype;
      const BufferAccesses& acc = io.walk.buffers[static_cast<size_t>(*b)].accesses;
      if (list != &h.outputs || t.size_bytes <= 0 || acc.store_bytes != t.size_bytes) continue;
      // An output's size from the operators that write it: their loops bound the elements written.
      const int64_t element = acc.element_bytes > 0 ? acc.element_bytes : 1;
      h.notes.push_back("output " + t.name + ": " + std::to_string(t.size_bytes) + " bytes (" +
                        std::to_string(t.size_bytes / element) + " x " +
                        (acc.element_type.empty() ? std::string("byte") : acc.element_type) +
                        "), the extent its writers' loops store; no metadata.json output, interface header or "
                        "Relay result type states it");
    }
  }
}

}  // namespace

namespace {

// The model's C files where the input keeps them, its header's folder, and the sources' root.
void set_model_files(const MlfModel& m, HarnessSpec& h) {
  h.include_dirs.clear();
  for (const CSourceFile& f : m.program.files) {
    if (std::string_view(f.path).ends_with(".c")) h.model_sources.push_back(f.path);
    if (std::string_view(f.path).ends_with("tvmgen_" + m.module + ".h")) h.include_dirs.push_back(folder_of(f.path));
    if (h.fragment_dir == "codegen/host" && std::string_view(f.path).ends_with(".c"))
      h.fragment_dir = sources_root(f.path);
  }
  if (h.include_dirs.empty()) h.include_dirs.push_back("codegen/host/include");
}

}  // namespace

HarnessSpec mlf_harness_spec(const MlfModel& m, std::vector<ExportPool> external_pools, bool use_workspace_io,
                             uint32_t seed) {
  HarnessSpec h;
  set_model_files(m, h);
  h.module = m.module;
  h.seed = seed;
  h.use_workspace_io = use_workspace_io;
  h.external_pools = std::move(external_pools);
  const std::vector<std::string> ins = io_names(m, true);
  const std::vector<std::string> outs = io_names(m, false);
  for (const std::string& n : ins)
    h.inputs.push_back(io_tensor(m, n, true, outs.size()));
  for (const std::string& n : outs)
    h.outputs.push_back(io_tensor(m, n, false, outs.size()));
  fill_sizes_from_accesses(m, h);
  return h;
}

}  // namespace usmpx
