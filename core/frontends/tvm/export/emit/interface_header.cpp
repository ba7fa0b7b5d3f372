#include "frontends/tvm/export/emit/interface_header.h"

#include <cctype>
#include <sstream>

#include "frontends/tvm/mlf/relay_signature.h"

namespace usmpx {

std::string c_constant_name(const std::string& module, const std::string& name) {
  std::string out = "TVMGEN_" + module + "_" + name;
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    c = std::isalnum(u) ? static_cast<char>(std::toupper(u)) : '_';
  }
  return out;
}

namespace {

class HeaderWriter {
 public:
  explicit HeaderWriter(const InterfaceHeaderSpec& spec) : s_(spec), prefix_("tvmgen_" + spec.module + "_") {}

  std::string run() {
    const std::string guard = c_constant_name(s_.module, "H") + "_";
    out_ << "#ifndef " << guard << "\n#define " << guard << "\n#include <stdint.h>\n\n"
         << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
    if (s_.style.io_size_macros) {
      for (const auto& [name, bytes] : s_.input_sizes)
        size_macro("Input tensor " + name + " size (in bytes)", name + "_SIZE", bytes);
      for (const auto& [name, bytes] : s_.output_sizes)
        size_macro("Output tensor " + name + " size (in bytes)", name + "_SIZE", bytes);
    }
    brief("Input tensor pointers");
    member_struct("inputs", s_.inputs);
    brief("Output tensor pointers");
    member_struct("outputs", s_.outputs);
    if (!s_.external_pools.empty()) {
      brief("Workspace pool pointers");
      std::vector<std::string> names;
      for (const ExportPool& p : s_.external_pools)
        names.push_back(p.name);
      member_struct("workspace_pools", names);
    }
    if (s_.use_workspace_io) {
      map_function("inputs");
      map_function("outputs");
    }
    run_function();
    brief("Workspace size", s_.style.workspace_brief_blank);
    out_ << "#define " << c_constant_name(s_.module, "WORKSPACE_SIZE") << " " << s_.workspace_size_bytes << "\n";
    for (size_t i = 0; i < s_.external_pools.size(); ++i)
      pool_macros(s_.external_pools[i], i < s_.external_constant_data.size() ? s_.external_constant_data[i] : "");
    out_ << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif // " << guard << "\n";
    return out_.str();
  }

 private:
  void brief(const std::string& what, bool blank = true) {
    out_ << "/*!\n * \\brief " << what << " for TVM module \"" << s_.module << "\"" << (blank ? " " : "") << "\n */\n";
  }

  void size_macro(const std::string& what, const std::string& name, int64_t value) {
    brief(what);
    out_ << "#define " << c_constant_name(s_.module, name) << " " << value << "\n";
  }

  void member_struct(const std::string& suffix, const std::vector<std::string>& members) {
    out_ << "struct " << prefix_ << suffix << " {\n";
    for (const std::string& m : members)
      out_ << "  void* " << sanitize_c_name(m) << ";\n";
    out_ << "};\n\n";
  }

  void map_function(const std::string& what) {
    out_ << "/*!\n * \\brief Maps I/O inside the workspace pools for TVM module \"" << s_.module << "\"\n"
         << " * \\param workspace_pools Workspace memory pool struct for the module \n"
         << " * \\return I/O tensor struct for the module \n */\n"
         << "struct " << prefix_ << what << " " << prefix_ << "map_" << what << "(\n"
         << "  struct " << prefix_ << "workspace_pools* workspace_pools\n);\n\n";
  }

  void run_function() {
    out_ << "/*!\n * \\brief entrypoint function for TVM module \"" << s_.module << "\"\n";
    std::vector<std::string> params;
    if (!s_.use_workspace_io) {
      out_ << " * \\param inputs Input tensors for the module \n * \\param outputs Output tensors for the module \n";
      params.push_back("struct " + prefix_ + "inputs* inputs");
      params.push_back("struct " + prefix_ + "outputs* outputs");
    }
    if (!s_.external_pools.empty()) {
      out_ << " * \\param workspace_pools Workspace memory pool pointers for the module \n";
      params.push_back("struct " + prefix_ + "workspace_pools* workspace_pools");
    }
    out_ << " */\nint32_t " << prefix_ << "run(\n";
    for (size_t i = 0; i < params.size(); ++i)
      out_ << "  " << params[i] << (i + 1 < params.size() ? ",\n" : "\n");
    out_ << ");\n";
  }

  void pool_macros(const ExportPool& pool, const std::string& constant_data) {
    const std::string name = sanitize_c_name(pool.name);
    if (pool.kind == PoolKind::kWorkspace) {
      size_macro(name + " size", name + "_WORKSPACE_POOL_SIZE", pool.size_bytes);
      return;
    }
    brief(name + " initialization data");
    out_ << "#define " << c_constant_name(s_.module, name + "_CONSTANT_POOL_SIZE") << " " << pool.size_bytes << "\n"
         << "#define " << c_constant_name(s_.module, name + "_CONSTANT_POOL_DATA") << " \\\n"
         << constant_data << "\n";
  }

  const InterfaceHeaderSpec& s_;
  std::string prefix_;
  std::ostringstream out_;
};

}  // namespace

std::string emit_interface_header(const InterfaceHeaderSpec& spec) {
  return HeaderWriter(spec).run();
}

}  // namespace usmpx
