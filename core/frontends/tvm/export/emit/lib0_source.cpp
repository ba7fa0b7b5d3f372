#include "frontends/tvm/export/emit/lib0_source.h"

#include <algorithm>
#include <sstream>

#include "base/alignment.h"
#include "base/text_join.h"
#include "frontends/tvm/mlf/relay_signature.h"

namespace usmpx {
namespace {

class Lib0Writer {
 public:
  explicit Lib0Writer(const Lib0Spec& spec) : s_(spec), prefix_("tvmgen_" + spec.module + "_") {}

  std::string run() {
    out_ << "#include \"tvm/runtime/c_runtime_api.h\"\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
    // TVM iterates its pool map with constant pools first.
    for (int constant = 1; constant >= 0; --constant) {
      for (size_t i = 0; i < s_.pools.size(); ++i) {
        const ExportPool& p = s_.pools[i];
        if (!p.internal || (p.kind == PoolKind::kConstant) != (constant == 1)) continue;
        pool_definition(i);
      }
    }
    out_ << "#include <tvmgen_" << s_.module << ".h>\n";
    if (s_.use_workspace_io) {
      map_function("inputs", s_.input_map);
      map_function("outputs", s_.output_map);
    }
    entry_declaration();
    run_wrapper();
    out_ << "#ifdef __cplusplus\n}\n#endif\n;";
    return out_.str();
  }

  void pool_definition(size_t i) {
    const ExportPool& p = s_.pools[i];
    if (p.kind == PoolKind::kConstant) {
      constant_pool(p, i < s_.pool_constants.size() ? s_.pool_constants[i] : std::vector<PoolConstant>{});
    } else {
      workspace_pool(p);
    }
  }

  std::string text() const { return out_.str(); }

  std::vector<std::string> entry_params() const {
    std::vector<std::string> params;
    if (!s_.use_workspace_io) {
      params = s_.input_params;
      for (size_t i = 0; i < s_.outputs.size(); ++i)
        params.push_back("void* output" + std::to_string(i));
    }
    for (size_t i = 0; i < s_.pools.size(); ++i)
      params.push_back("uint8_t* " + pool_param_name(s_.pools[i].name, static_cast<int64_t>(i)));
    return params;
  }

  std::vector<std::string> run_params() const {
    std::vector<std::string> params;
    if (!s_.use_workspace_io) {
      params.push_back("struct " + prefix_ + "inputs* inputs");
      params.push_back("struct " + prefix_ + "outputs* outputs");
    }
    if (std::any_of(s_.pools.begin(), s_.pools.end(), [](const ExportPool& p) { return !p.internal; }))
      params.push_back("struct " + prefix_ + "workspace_pools* workspace_pools");
    return params;
  }

  std::vector<std::string> run_args() const {
    std::vector<std::string> args;
    if (!s_.use_workspace_io) {
      for (const std::string& in : s_.inputs)
        args.push_back("inputs->" + sanitize_c_name(in));
      for (const std::string& out : s_.outputs)
        args.push_back("outputs->" + sanitize_c_name(out));
    }
    for (const ExportPool& p : s_.pools) {
      const std::string pool = p.internal ? "&" + p.name : "workspace_pools->" + sanitize_c_name(p.name);
      args.push_back(s_.style.pool_casts ? "((uint8_t*)" + pool + ")" : pool);
    }
    return args;
  }

 private:
  void constant_pool(const ExportPool& pool, std::vector<PoolConstant> constants) {
    std::sort(constants.begin(), constants.end(),
              [](const PoolConstant& a, const PoolConstant& b) { return a.offset < b.offset; });
    out_ << "__attribute__((section(\"" << (pool.section.empty() ? ".rodata.tvm" : pool.section) << "\"), ))\n"
         << "static " << (s_.style.const_struct ? "const " : "") << "struct " << pool.name << " {\n";
    // C lays the members out one after the other, each aligned; a constant planned further up
    // (a pin, a gap left by the planner) needs explicit padding before it to keep its offset.
    int64_t end = 0;
    int pad = 0;
    for (size_t i = 0; i < constants.size(); ++i) {
      const PoolConstant& c = constants[i];
      const int64_t natural = i == 0 ? 0 : align_up(end, s_.constant_alignment);
      if (c.offset > natural) {
        out_ << "  uint8_t usmpx_padding_" << pad++ << "[" << c.offset - end << "];\n";
      }
      const int64_t bytes = c.elements * c.element_bytes;
      out_ << "  " << c.c_type << " " << c.name << "[" << c.elements << "] __attribute__((" << (i ? "packed, " : "")
           << "aligned(" << s_.constant_alignment << "))); // " << bytes << " bytes, aligned offset: " << c.offset
           << "\n";
      end = c.offset + bytes;
    }
    out_ << "} " << pool.name << " = {\n";
    for (const PoolConstant& c : constants)
      out_ << "  ." << c.name << " = {\n" << c.data_text << "  },\n";
    out_ << "};// of total size " << pool.size_bytes << " bytes\n";
  }

  void workspace_pool(const ExportPool& pool) {
    out_ << "__attribute__((section(\"" << (pool.section.empty() ? ".bss.noinit.tvm" : pool.section) << "\"), aligned("
         << pool.alignment << ")))\nstatic uint8_t " << pool.name << "[" << pool.size_bytes << "];\n";
  }

  void map_function(const std::string& what, const std::vector<IoPlacement>& map) {
    out_ << "struct " << prefix_ << what << " " << prefix_ << "map_" << what << "(\n  struct " << prefix_
         << "workspace_pools* workspace_pools\n\n){\nstruct " << prefix_ << what << " ret = {\n";
    for (const IoPlacement& io : map)
      out_ << "\t." << io.tensor << " = &((uint8_t*)workspace_pools->" << io.pool << ")[" << io.offset << "],\n";
    out_ << "};\nreturn ret;\n}\n\n";
  }

  void entry_declaration() { out_ << "TVM_DLL int32_t " << s_.entry << "(" << join(entry_params(), ",") << ");\n"; }

  void run_wrapper() {
    out_ << "int32_t " << prefix_ << "run(" << join(run_params(), ",") << ") {return " << s_.entry << "("
         << join(run_args(), ",") << ");\n}\n";
  }

  const Lib0Spec& s_;
  std::string prefix_;
  std::ostringstream out_;
};

}  // namespace

std::string emit_lib0_source(const Lib0Spec& spec) {
  return Lib0Writer(spec).run();
}

std::string emit_lib0_pool(const Lib0Spec& spec, size_t pool) {
  Lib0Writer w(spec);
  w.pool_definition(pool);
  return w.text();
}

std::string emit_lib0_entry_params(const Lib0Spec& spec) {
  return join(Lib0Writer(spec).entry_params(), ",");
}

std::string emit_lib0_run_params(const Lib0Spec& spec) {
  return join(Lib0Writer(spec).run_params(), ",");
}

std::string emit_lib0_run_args(const Lib0Spec& spec) {
  return join(Lib0Writer(spec).run_args(), ",");
}

}  // namespace usmpx
