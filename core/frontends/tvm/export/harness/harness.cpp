#include "frontends/tvm/export/harness/harness.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string_view>

#include "frontends/tvm/c_analysis/standin_headers.h"
#include "frontends/tvm/export/emit/interface_header.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/harness/board_layout.h"
#include "frontends/tvm/export/harness/fixed_addresses.h"
#include "frontends/tvm/export/harness/harness_files.h"
#include "frontends/tvm/mlf/relay_signature.h"

namespace usmpx {
namespace {

// How main.c fills an input: floating point values in [-1, 1), or bytes.
std::string fill_kind(const std::string& dtype) {
  if (dtype == "float32") return "USMPX_FILL_F32";
  if (dtype == "float64") return "USMPX_FILL_F64";
  return "USMPX_FILL_BYTES";
}

// Deterministic data for a parameter: floats in [-1, 1) for float32, else bytes, from a
// xorshift32 stream of its own.
std::string param_definition(const HarnessParam& p, uint32_t seed) {
  uint32_t state = seed ? seed : 1;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  std::string bytes;
  for (int64_t i = 0; i < p.size_bytes;) {
    if (p.dtype == "float32" && p.size_bytes - i >= 4) {
      const float v = static_cast<float>(next() >> 8) * (2.0f / 16777216.0f) - 1.0f;
      char raw[4];
      std::memcpy(raw, &v, 4);
      bytes.append(raw, 4);
      i += 4;
    } else {
      bytes += static_cast<char>(next() >> 24);
      ++i;
    }
  }
  std::ostringstream out;
  out << "const uint8_t " << p.symbol << "[" << std::max<int64_t>(1, p.size_bytes)
      << "] __attribute__((aligned(16))) = {";
  char hex[8];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(bytes[i])));
    out << (i % 16 == 0 ? "\n    " : " ") << hex << (i + 1 < bytes.size() ? "," : "");
  }
  out << "\n};\n";
  return out.str();
}

class MainWriter {
 public:
  explicit MainWriter(const HarnessSpec& spec) : s_(spec), prefix_("tvmgen_" + spec.module + "_") {}

  std::string run() {
    out_ << "/* Test harness for TVM module \"" << s_.module << "\" (written by USMP Explorer): fills the inputs\n"
         << " * from a xorshift32 generator seeded with " << s_.seed << ", runs the model once and prints an\n"
         << " * FNV-1a checksum of every output. */\n"
         << "#include <stdint.h>\n#include <stdio.h>\n\n";
    if (!s_.crt_model.empty()) {
      crt_runtime();
    } else if (!s_.packed_run.empty()) {
      out_ << "#include \"tvm/runtime/c_runtime_api.h\"\n\nint32_t " << s_.packed_run
           << "(void* args, void* type_codes, int num_args, void* out_value, void* out_type_code,\n"
           << "    void* resource_handle);\n\n";
    } else if (s_.direct_entry.empty()) {
      out_ << "#include \"tvmgen_" << s_.module << ".h\"\n\n";
    } else {
      out_ << "int32_t " << s_.direct_entry << "(";
      const size_t n = s_.inputs.size() + s_.outputs.size();
      for (size_t i = 0; i < n; ++i)
        out_ << (i ? ", " : "") << "void*";
      out_ << ");\n\n";
    }
    buffers();
    helpers();
    main_function();
    return out_.str();
  }

 private:
  void buffers() {
    if (!s_.use_workspace_io) {
      for (size_t i = 0; i < s_.inputs.size(); ++i)
        out_ << "static uint8_t usmpx_input_" << i << "[" << std::max<int64_t>(1, s_.inputs[i].size_bytes)
             << "] __attribute__((aligned(16)));\n";
      for (size_t i = 0; i < s_.outputs.size(); ++i)
        out_ << "static uint8_t usmpx_output_" << i << "[" << std::max<int64_t>(1, s_.outputs[i].size_bytes)
             << "] __attribute__((aligned(16)));\n";
    }
    uint32_t param_seed = s_.seed * 2654435761u + 1u;
    for (const HarnessParam& p : s_.params)
      out_ << param_definition(p, param_seed++);
    for (const ExportPool& p : s_.external_pools) {
      const std::string section = pool_section(p);
      const std::string name = sanitize_c_name(p.name);
      if (p.kind == PoolKind::kConstant) {
        out_ << "static const uint8_t usmpx_pool_" << name << "["
             << c_constant_name(s_.module, name + "_CONSTANT_POOL_SIZE") << "] __attribute__((section(\"" << section
             << "\"), aligned(" << p.alignment << "))) = {\n"
             << c_constant_name(s_.module, name + "_CONSTANT_POOL_DATA") << "};\n";
      } else {
        out_ << "static uint8_t usmpx_pool_" << name << "[" << c_constant_name(s_.module, name + "_WORKSPACE_POOL_SIZE")
             << "] __attribute__((section(\"" << section << "\"), aligned(" << p.alignment << ")));\n";
      }
    }
    out_ << "\n";
  }

  void helpers() {
    out_ << "enum { USMPX_FILL_BYTES, USMPX_FILL_F32, USMPX_FILL_F64 };\n"
         << "static uint32_t usmpx_state = " << (s_.seed ? s_.seed : 1) << "u;\n\n"
         << "static __attribute__((unused)) uint32_t usmpx_next(void) {\n"
         << "  usmpx_state ^= usmpx_state << 13;\n  usmpx_state ^= usmpx_state >> 17;\n"
         << "  usmpx_state ^= usmpx_state << 5;\n  return usmpx_state;\n}\n\n"
         << "static __attribute__((unused)) void usmpx_fill(void* data, uint32_t bytes, int kind) {\n"
         << "  uint8_t* p = (uint8_t*)data;\n"
         << "  if (kind == USMPX_FILL_F32) {\n"
         << "    for (uint32_t i = 0; i + 4 <= bytes; i += 4) {\n"
         << "      float v = (float)(usmpx_next() >> 8) * (2.0f / 16777216.0f) - 1.0f;\n"
         << "      const uint8_t* b = (const uint8_t*)&v;\n"
         << "      for (int k = 0; k < 4; ++k) p[i + (uint32_t)k] = b[k];\n    }\n"
         << "  } else if (kind == USMPX_FILL_F64) {\n"
         << "    for (uint32_t i = 0; i + 8 <= bytes; i += 8) {\n"
         << "      double v = (double)(usmpx_next() >> 8) * (2.0 / 16777216.0) - 1.0;\n"
         << "      const uint8_t* b = (const uint8_t*)&v;\n"
         << "      for (int k = 0; k < 8; ++k) p[i + (uint32_t)k] = b[k];\n    }\n"
         << "  } else {\n"
         << "    for (uint32_t i = 0; i < bytes; ++i) p[i] = (uint8_t)(usmpx_next() >> 24);\n  }\n}\n\n"
         << "static __attribute__((unused)) uint32_t usmpx_fnv1a(const void* data, uint32_t bytes) {\n"
         << "  const uint8_t* p = (const uint8_t*)data;\n  uint32_t h = 2166136261u;\n"
         << "  for (uint32_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 16777619u;\n  return h;\n}\n\n";
  }

  void main_function() {
    out_ << "int main(void) {\n";
    const bool pools = !s_.external_pools.empty();
    if (pools) {
      out_ << "  struct " << prefix_ << "workspace_pools pools = {\n";
      for (const ExportPool& p : s_.external_pools)
        out_ << "      ." << sanitize_c_name(p.name) << " = (void*)usmpx_pool_" << sanitize_c_name(p.name) << ",\n";
      out_ << "  };\n";
    }
    std::vector<std::string> in_ptr;
    std::vector<std::string> out_ptr;
    if (s_.use_workspace_io) {
      out_ << "  struct " << prefix_ << "inputs inputs = " << prefix_ << "map_inputs(&pools);\n"
           << "  struct " << prefix_ << "outputs outputs = " << prefix_ << "map_outputs(&pools);\n";
      for (const HarnessTensor& t : s_.inputs)
        in_ptr.push_back("inputs." + sanitize_c_name(t.name));
      for (const HarnessTensor& t : s_.outputs)
        out_ptr.push_back("outputs." + sanitize_c_name(t.name));
    } else {
      for (size_t i = 0; i < s_.inputs.size(); ++i)
        in_ptr.push_back("usmpx_input_" + std::to_string(i));
      for (size_t i = 0; i < s_.outputs.size(); ++i)
        out_ptr.push_back("usmpx_output_" + std::to_string(i));
    }
    for (size_t i = 0; i < s_.inputs.size(); ++i)
      out_ << "  usmpx_fill(" << in_ptr[i] << ", " << std::max<int64_t>(0, s_.inputs[i].size_bytes) << "u, "
           << fill_kind(s_.inputs[i].dtype) << ");\n";
    if (!s_.crt_model.empty()) {
      out_ << "  void* usmpx_inputs[" << std::max<size_t>(1, in_ptr.size()) << "] = {";
      for (size_t i = 0; i < in_ptr.size(); ++i)
        out_ << (i ? ", " : "") << in_ptr[i];
      out_ << "};\n  void* usmpx_outputs[" << std::max<size_t>(1, out_ptr.size()) << "] = {";
      for (size_t i = 0; i < out_ptr.size(); ++i)
        out_ << (i ? ", " : "") << out_ptr[i];
      out_ << "};\n  int32_t rc = tvm_runtime_run(&" << s_.crt_model << ", usmpx_inputs, usmpx_outputs);\n";
    } else if (!s_.packed_run.empty()) {
      packed_call(in_ptr, out_ptr);
    } else if (!s_.direct_entry.empty()) {
      out_ << "  int32_t rc = " << s_.direct_entry << "(";
      std::vector<std::string> args = in_ptr;
      args.insert(args.end(), out_ptr.begin(), out_ptr.end());
      for (size_t i = 0; i < args.size(); ++i)
        out_ << (i ? ", " : "") << args[i];
      out_ << ");\n";
    } else {
      std::vector<std::string> args;
      if (!s_.use_workspace_io) {
        out_ << "  struct " << prefix_ << "inputs inputs = {\n";
        for (size_t i = 0; i < s_.inputs.size(); ++i)
          out_ << "      ." << sanitize_c_name(s_.inputs[i].name) << " = " << in_ptr[i] << ",\n";
        out_ << "  };\n  struct " << prefix_ << "outputs outputs = {\n";
        for (size_t i = 0; i < s_.outputs.size(); ++i)
          out_ << "      ." << sanitize_c_name(s_.outputs[i].name) << " = " << out_ptr[i] << ",\n";
        out_ << "  };\n";
        args = {"&inputs", "&outputs"};
      }
      if (pools) args.emplace_back("&pools");
      out_ << "  int32_t rc = " << prefix_ << "run(";
      for (size_t i = 0; i < args.size(); ++i)
        out_ << (i ? ", " : "") << args[i];
      out_ << ");\n";
    }
    out_ << "  printf(\"usmpx-harness module " << s_.module << " rc %d\\n\", (int)rc);\n";
    for (size_t i = 0; i < s_.outputs.size(); ++i) {
      const int64_t bytes = std::max<int64_t>(0, s_.outputs[i].size_bytes);
      out_ << "  printf(\"output " << sanitize_c_name(s_.outputs[i].name) << " " << bytes << " %08lx\\n\", "
           << "(unsigned long)usmpx_fnv1a(" << out_ptr[i] << ", " << bytes << "u));\n";
    }
    out_ << "  return rc == 0 ? 0 : 1;\n}\n";
  }

  // TVM 0.8's C runtime API: the model's descriptor, and tvm_runtime_run as that runtime runs it
  // (one DLTensor per input, then per output, passed by address as NDArray handles to run_func).
  void crt_runtime() {
    out_ << "#include \"tvm/runtime/crt/internal/aot_executor/aot_executor.h\"\n\n"
         << "extern const tvm_model_t " << s_.crt_model << ";\n\n"
         << "#define USMPX_MAX_TENSORS 64\n"
         << "tvm_crt_error_t tvm_runtime_run(const tvm_model_t* model, void** inputs, void** outputs) {\n"
         << "  static DLTensor tensors[USMPX_MAX_TENSORS];\n"
         << "  static TVMValue values[USMPX_MAX_TENSORS];\n"
         << "  static int type_codes[USMPX_MAX_TENSORS];\n"
         << "  size_t n = model->num_input_tensors + model->num_output_tensors;\n"
         << "  if (n > USMPX_MAX_TENSORS) return kTvmErrorFunctionCallNumArguments;\n"
         << "  for (size_t i = 0; i < n; ++i) {\n"
         << "    tensors[i].data = i < model->num_input_tensors ? inputs[i] : outputs[i - model->num_input_tensors];\n"
         << "    tensors[i].device.device_type = 1; /* kDLCPU */\n"
         << "    values[i].v_handle = &tensors[i];\n"
         << "    type_codes[i] = 13; /* kTVMNDArrayHandle */\n  }\n"
         << "  return (tvm_crt_error_t)model->run_func(values, type_codes, (int)n, NULL, NULL, NULL);\n}\n\n";
  }

  // TVM 0.8's AoT executor calls the packed wrapper with one DLTensor per input, then per output,
  // each passed as a TVMValue handle of type code kTVMDLTensorHandle (7).
  void packed_call(const std::vector<std::string>& in_ptr, const std::vector<std::string>& out_ptr) {
    std::vector<std::pair<std::string, const HarnessTensor*>> tensors;
    for (size_t i = 0; i < s_.inputs.size(); ++i)
      tensors.emplace_back(in_ptr[i], &s_.inputs[i]);
    for (size_t i = 0; i < s_.outputs.size(); ++i)
      tensors.emplace_back(out_ptr[i], &s_.outputs[i]);
    const size_t n = std::max<size_t>(1, tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto [code, bits] = dl_dtype(tensors[i].second->dtype);
      out_ << "  int64_t usmpx_shape_" << i << "[1] = {"
           << std::max<int64_t>(0, tensors[i].second->size_bytes) / (bits / 8) << "};\n";
    }
    out_ << "  DLTensor usmpx_tensors[" << n << "] = {\n";
    for (size_t i = 0; i < tensors.size(); ++i) {
      const auto [code, bits] = dl_dtype(tensors[i].second->dtype);
      out_ << "      {.data = " << tensors[i].first << ", .device = {1, 0}, .ndim = 1, .dtype = {" << code << ", "
           << bits << ", 1}, .shape = usmpx_shape_" << i << "},\n";
    }
    out_ << "  };\n  TVMValue usmpx_args[" << n << "];\n  int usmpx_codes[" << n << "];\n"
         << "  for (int i = 0; i < " << tensors.size() << "; ++i) {\n"
         << "    usmpx_args[i].v_handle = &usmpx_tensors[i];\n    usmpx_codes[i] = 7;\n  }\n"
         << "  int32_t rc = " << s_.packed_run << "(usmpx_args, usmpx_codes, " << tensors.size()
         << ", NULL, NULL, NULL);\n";
  }

  // DLPack's type code and bits of a dtype; bytes (uint8) when unknown.
  static std::pair<int, int> dl_dtype(const std::string& dtype) {
    for (const auto& [prefix, code] : {std::pair<std::string, int>{"uint", 1}, {"int", 0}, {"float", 2}}) {
      if (dtype.rfind(prefix, 0) != 0) continue;
      const std::string digits = dtype.substr(prefix.size());
      const int bits =
          digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ? 0 : std::atoi(digits.c_str());
      if (bits >= 8 && bits % 8 == 0) return {code, bits};
    }
    return {1, 8};
  }

  const HarnessSpec& s_;
  std::string prefix_;
  std::ostringstream out_;
};

// The sections harness/mps2.ld maps for the pools' linker fragment; none without one.
std::vector<std::string> fragment_sections(const HarnessSpec& spec) {
  if (!spec.linker_fragment) return {};
  return spec.pool_sections.empty() ? std::vector<std::string>{".rodata.tvm"} : spec.pool_sections;
}

std::string makefile(const HarnessSpec& spec) {
  std::ostringstream out;
  out << "# Test harness for TVM module \"" << spec.module << "\" (written by USMP Explorer).\n"
      << "#   make            build with this machine's cc and run: one checksum line per output\n"
      << "#   make cortex-m4  cross-compile for MPS2 AN386 (Cortex-M4) and run it on qemu-system-arm\n"
      << "#   make cortex-m7  the same for MPS2 AN500 (Cortex-M7)\n"
      << "#   make CMSIS_NN=DIR  also builds CMSIS-NN (DIR/Include, DIR/Source) for the model's kernels\n"
      << "#   make KERNELS=DIR   also builds vendor kernels (DIR/*.c; headers in DIR, DIR/include)\n"
      << "ROOT := ..\nARENA_BYTES := " << spec.arena_bytes;
  const auto rooted = [](const std::string& path) { return path.empty() ? std::string("$(ROOT)") : "$(ROOT)/" + path; };
  out << "\nMODEL_SRCS :=";
  for (const std::string& s : spec.model_sources)
    out << " " << rooted(s);
  out << "\nMODEL_INCLUDE_DIRS :=";
  for (const std::string& d : spec.include_dirs)
    out << " " << rooted(d);
  // The sections the pools' linker fragment places, for a board layout written anew (selftest's
  // retry with the stack in PSRAM).
  out << "\nFRAGMENT_DIR := " << spec.fragment_dir << "\nFRAGMENT_SECTIONS :=";
  for (const std::string& section : fragment_sections(spec))
    out << " " << section;
  out << "\nCMSIS_NN ?=\n" << harness_makefile_rules();
  return out.str();
}

// A model source's relative include of a TVM runtime header, kept from the firmware it was
// copied from ("../../src/standalone_crt/include/tvm/runtime/c_runtime_api.h"), finds our
// stand-in: a header including it at harness/relative/<the path without its "../" steps>, and an
// include folder as many levels below harness/relative as the include climbs (a folder that
// exists, the header being below it), from which the "../" steps lead to that header.
void add_relative_standins(ExportBundle& bundle, HarnessSpec& spec) {
  for (const std::string& source : spec.model_sources) {
    const ExportFile* f = bundle.find(source);
    if (!f) continue;
    for (const std::string& include : quoted_includes(f->data)) {
      const std::string_view standin = standin_for_relative_include(include);
      if (standin.empty()) continue;
      const auto [up, rest] = split_relative_include(include);
      std::vector<std::string_view> folders;
      for (size_t at = 0, slash; (slash = rest.find('/', at)) != std::string_view::npos; at = slash + 1)
        folders.push_back(rest.substr(at, slash - at));
      if (folders.size() < up ||
          std::any_of(folders.begin(), folders.end(), [](std::string_view d) { return d == ".." || d == "."; }))
        continue;
      std::string dir = "harness/relative";
      for (size_t i = 0; i < up; ++i)
        dir += "/" + std::string(folders[i]);
      bundle.put("harness/relative/" + std::string(rest), "#include <" + std::string(standin) + ">\n");
      if (std::find(spec.include_dirs.begin(), spec.include_dirs.end(), dir) == spec.include_dirs.end())
        spec.include_dirs.push_back(dir);
    }
  }
}

}  // namespace

void add_harness(ExportBundle& bundle, const HarnessSpec& given) {
  HarnessSpec spec = given;
  if (spec.model_sources.empty()) {
    for (const ExportFile& f : bundle.files) {
      if (f.path.rfind("codegen/host/src/", 0) == 0 && f.path.size() > 2 &&
          f.path.compare(f.path.size() - 2, 2, ".c") == 0)
        spec.model_sources.push_back(f.path);
    }
  }
  add_relative_standins(bundle, spec);
  bundle.put("harness/main.c", MainWriter(spec).run());
  bundle.put("harness/platform.c", std::string(harness_platform_c()));
  bundle.put("harness/startup.c", std::string(harness_startup_c()));
  bundle.put("harness/Makefile", makefile(spec));
  bundle.put("harness/include-host/arm_acle.h", std::string(harness_host_arm_acle()));
  for (const StandinHeader& h : standin_tvm_headers())
    bundle.put("harness/include/" + std::string(h.path), std::string(h.text));
  if (map_fixed_addresses(bundle, spec)) bundle.put("harness/Makefile", makefile(spec));
  for (const std::string& n : spec.notes) {
    Diagnostic d;
    d.severity = Severity::kNote;
    d.code = "harness-assumed";
    d.message = n;
    bundle.notes.push_back(std::move(d));
  }
  // The boards' memory map, sized from what the code declares (board_layout.h).
  const BoardLayout layout = choose_board_layout(board_memory(parse_harness_code(bundle, kBoardTriple)));
  bundle.put("harness/mps2.ld", board_linker_script(layout, fragment_sections(spec)));
}

}  // namespace usmpx
