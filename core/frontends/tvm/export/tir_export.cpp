#include "frontends/tvm/export/tir_export.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "base/input_error.h"
#include "export/export_error.h"
#include "frontends/tvm/export/codegen/tir_c_codegen.h"
#include "frontends/tvm/export/emit/constant_bytes.h"
#include "frontends/tvm/export/emit/interface_header.h"
#include "frontends/tvm/export/emit/layout_check.h"
#include "frontends/tvm/export/emit/lib0_source.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/harness/harness.h"
#include "frontends/tvm/mlf/relay_signature.h"
#include "frontends/tvm/tir/walk.h"
#include "frontends/tvm/usmp/buffer_info_extractor.h"
#include "frontends/tvm/usmp/create_io_allocates.h"
#include "frontends/tvm/usmp/pool_lets.h"
#include "model/plan_json.h"

namespace usmpx {
namespace {

// One model input or output of the dump.
struct TirIo {
  std::string name;  // main's parameter name (the annotation value with --use-workspace-io)
  int64_t size_bytes = -1;
  std::string dtype;
  bool input = true;
};

class TirExporter {
 public:
  TirExporter(const TirProblem& t, std::string path, std::string text, const Problem& problem, const Plan& plan,
              const ExportOptions& options)
      : t_(t), path_(std::move(path)), text_(std::move(text)), problem_(problem), plan_(plan), options_(options) {}

  ExportBundle run() {
    if (!t_.module || t_.statements.size() != problem_.buffers.size())
      throw ExportError("the TIR analysis does not match the problem being exported");
    check_exportable(problem_, plan_);
    pools_ = export_pools(problem_, plan_);
    main_ = &find_main_function(*t_.module);
    module_name_ = module_name();
    find_io();
    const TirCodegenResult host = emit_tir_host_module(codegen_input());
    for (const Diagnostic& d : host.notes)
      bundle_.notes.push_back(d);
    const std::string src = "codegen/host/src/" + module_name_;
    bundle_.put(src + "_lib1.c", host.source);
    const Lib0Spec lib0 = lib0_spec(host);
    const std::string lib0_text = emit_lib0_source(lib0);
    const std::string header_path = "codegen/host/include/tvmgen_" + module_name_ + ".h";
    const std::string header = emit_interface_header(header_spec(host));
    // TIR carries no target: the layout must hold on this machine and on 32-bit Arm.
    check_lib0_layout(src + "_lib0.c", lib0_text, header_path, header, pools_, lib0.pool_constants, layout_triples({}));
    bundle_.put(src + "_lib0.c", lib0_text);
    bundle_.put(header_path, header);
    bundle_.put("metadata.json", metadata_json());
    bundle_.put("src/" + std::filesystem::path(path_).filename().string(), text_);
    bundle_.put("codegen/host/usmpx_plan.json", write_plan_json(problem_, plan_) + "\n");
    std::vector<int64_t> hints;
    for (const Pool& p : problem_.pools)
      hints.push_back(p.size_hint_bytes);
    bundle_.put("codegen/host/usmpx_pools.ld", emit_linker_fragment(module_name_, pools_, hints));
    if (options_.harness) add_harness(bundle_, harness_spec(src + "_lib0.c", src + "_lib1.c"));
    bundle_.sort();
    for (const ExportFile& f : bundle_.files)
      bundle_.changed.push_back(f.path);
    return std::move(bundle_);
  }

 private:
  // tvmgen_<mod>___tvm_main__ -> <mod>
  std::string module_name() const {
    const std::string symbol = main_->global_symbol().value_or("");
    const std::string prefix = "tvmgen_";
    const std::string suffix = "___tvm_main__";
    if (symbol.size() > prefix.size() + suffix.size() && symbol.rfind(prefix, 0) == 0 &&
        symbol.compare(symbol.size() - suffix.size(), suffix.size(), suffix) == 0)
      return symbol.substr(prefix.size(), symbol.size() - prefix.size() - suffix.size());
    return "default";
  }

  bool use_workspace_io() const {
    return std::any_of(problem_.buffers.begin(), problem_.buffers.end(),
                       [](const Buffer& b) { return b.kind == BufferKind::kInput || b.kind == BufferKind::kOutput; });
  }

  // The model's I/O: with --use-workspace-io the planned input/output buffers; otherwise main's
  // buffer parameters (pool parameters of a post-USMP dump aside), told apart as USMP's
  // CreateAllocatesForIO tells them: loaded by the callees = input, stored = output.
  void find_io() {
    if (use_workspace_io()) {
      for (const Buffer& b : problem_.buffers) {
        if (b.kind == BufferKind::kInput || b.kind == BufferKind::kOutput)
          io_.push_back({b.name, b.size_bytes, b.dtype, b.kind == BufferKind::kInput});
      }
      return;
    }
    tir::Module probe = *t_.module;
    tir::PrimFunc& main = *std::find_if(probe.functions.begin(), probe.functions.end(),
                                        [&](const tir::PrimFunc& f) { return f.name == main_->name; });
    // Pool parameters are not I/O: leave only the real ones bound to buffers.
    std::vector<tir::BufferBinding> io_bindings;
    for (const tir::BufferBinding& b : main.buffer_map) {
      if (!pool_of_parameter(b.param->name) || b.buffer->dtype != tir::DataType::uint(8)) io_bindings.push_back(b);
    }
    main.buffer_map = io_bindings;
    std::map<std::string, bool> is_input;
    try {
      const tir::Module classified = create_allocates_for_io(probe, main);
      collect_io_annotations(*classified.find(main.name)->body, is_input);
    } catch (const InputError& e) {
      throw ExportError(std::string("cannot tell the model's inputs from its outputs: ") + e.what());
    }
    bool seen_output = false;
    for (const tir::BufferBinding& b : io_bindings) {
      const auto it = is_input.find(b.param->name);
      if (it == is_input.end()) continue;
      if (it->second && seen_output)
        throw ExportError("main takes an input after an output; the AoT interface lists inputs first",
                          b.param->location);
      seen_output = seen_output || !it->second;
      io_.push_back(
          {b.param->name, b.buffer->static_size_bytes().value_or(-1), b.buffer->dtype.to_string(), it->second});
    }
  }

  static void collect_io_annotations(const tir::Stmt& s, std::map<std::string, bool>& out) {
    const tir::Stmt* at = &s;
    while (const tir::Allocate* a = at->as<tir::Allocate>()) {
      for (const auto& [key, value] : a->annotations) {
        if (key == "input_tensor" || key == "output_tensor")
          if (const auto name = value.as_string()) out[*name] = key == "input_tensor";
      }
      at = a->body.get();
    }
  }

  std::vector<std::string> io_names(bool inputs) const {
    std::vector<std::string> names;
    for (const TirIo& io : io_) {
      if (io.input == inputs) names.push_back(sanitize_c_name(io.name));
    }
    return names;
  }

  TirCodegenInput codegen_input() const {
    TirCodegenInput in;
    in.module = t_.module.get();
    in.main = main_;
    in.module_name = module_name_;
    const std::string target = main_->target();
    in.target = (target.empty() ? std::string("c -keys=cpu") : target) + " ";
    for (const ExportPool& p : pools_)
      in.pools.push_back(p.name);
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Allocation& a = plan_.allocations[b];
      in.placements[t_.statements[b]] = {problem_.pools[static_cast<size_t>(a.pool)].name, a.offset,
                                         problem_.buffers[b].kind == BufferKind::kConstant};
    }
    return in;
  }

  static int64_t c_type_bytes(const std::string& c_type) {
    if (c_type == "int8_t" || c_type == "uint8_t") return 1;
    if (c_type == "int16_t" || c_type == "uint16_t") return 2;
    if (c_type == "int32_t" || c_type == "uint32_t" || c_type == "float") return 4;
    return 8;
  }

  std::vector<PoolConstant> constants_of(const ExportPool& pool, const TirCodegenResult& host) const {
    std::vector<PoolConstant> out;
    for (const TirConstant& c : host.pool_constants) {
      if (c.pool == pool.name)
        out.push_back({c.name, c.c_type, c.elements, c_type_bytes(c.c_type), c.offset, c.data_text});
    }
    return out;
  }

  Lib0Spec lib0_spec(const TirCodegenResult& host) const {
    Lib0Spec s;
    s.module = module_name_;
    s.entry = host.main_symbol;
    s.inputs = io_names(true);
    s.outputs = io_names(false);
    for (const std::string& in : s.inputs)
      s.input_params.push_back("void* " + in);
    s.pools = pools_;
    for (const ExportPool& p : pools_)
      s.pool_constants.push_back(p.internal && p.kind == PoolKind::kConstant ? constants_of(p, host)
                                                                             : std::vector<PoolConstant>{});
    s.use_workspace_io = use_workspace_io();
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Buffer& buf = problem_.buffers[b];
      if (buf.kind != BufferKind::kInput && buf.kind != BufferKind::kOutput) continue;
      IoPlacement io{buf.name, problem_.pools[static_cast<size_t>(plan_.allocations[b].pool)].name,
                     plan_.allocations[b].offset};
      (buf.kind == BufferKind::kInput ? s.input_map : s.output_map).push_back(io);
    }
    return s;
  }

  InterfaceHeaderSpec header_spec(const TirCodegenResult& host) const {
    InterfaceHeaderSpec h;
    h.module = module_name_;
    h.inputs = io_names(true);
    h.outputs = io_names(false);
    for (const TirIo& io : io_) {
      if (io.size_bytes >= 0)
        (io.input ? h.input_sizes : h.output_sizes).emplace_back(sanitize_c_name(io.name), io.size_bytes);
    }
    for (const ExportPool& p : pools_) {
      if (p.internal) continue;
      h.external_pools.push_back(p);
      h.external_constant_data.push_back(p.kind == PoolKind::kConstant ? pool_data_text(p, constants_of(p, host)) : "");
    }
    h.use_workspace_io = use_workspace_io();
    h.workspace_size_bytes = workspace_pool_bytes(pools_);
    return h;
  }

  // A metadata.json in TVM's v7 form for the module, so that the export loads as an MLF archive.
  std::string metadata_json() const {
    nlohmann::json main;
    main["device"] = 1;
    main["workspace_size_bytes"] = workspace_pool_bytes(pools_);
    main["constants_size_bytes"] = constant_pool_bytes(pools_);
    int64_t io_bytes = 0;
    nlohmann::json inputs = nlohmann::json::object();
    nlohmann::json outputs = nlohmann::json::object();
    for (const TirIo& io : io_) {
      io_bytes += std::max<int64_t>(0, io.size_bytes);
      (io.input ? inputs : outputs)[io.name] = {{"dtype", io.dtype}, {"size", io.size_bytes}};
    }
    main["io_size_bytes"] = io_bytes;
    main["inputs"] = inputs;
    main["outputs"] = outputs;
    nlohmann::json module;
    module["executors"] = {"aot"};
    module["export_datetime"] = "2020-01-01 00:00:00Z";  // fixed: the same input gives the same bytes
    module["memory"]["functions"]["main"] = nlohmann::json::array({main});
    module["memory"]["functions"]["operator_functions"] = nlohmann::json::array();
    module["model_name"] = module_name_;
    module["style"] = "full-model";
    const std::string target = main_->target();
    module["target"] = {target.empty() ? std::string("c -keys=cpu") : target};
    nlohmann::json root;
    root["modules"][module_name_] = module;
    root["version"] = 7;
    return root.dump(2, ' ', true);
  }

  HarnessSpec harness_spec(const std::string& lib0, const std::string& lib1) const {
    HarnessSpec h;
    h.module = module_name_;
    h.model_sources = {lib0, lib1};
    h.seed = options_.harness_seed;
    h.use_workspace_io = use_workspace_io();
    for (const TirIo& io : io_) {
      const std::string dtype = io.dtype;
      (io.input ? h.inputs : h.outputs).push_back({sanitize_c_name(io.name), io.size_bytes, dtype});
    }
    for (const ExportPool& p : pools_) {
      if (!p.internal) h.external_pools.push_back(p);
      h.pool_sections.push_back(pool_section(p));
    }
    h.params = lookup_params();
    h.arena_bytes = unplanned_allocation_bytes();
    h.linker_fragment = true;
    return h;
  }

  // Room for the allocations the plan leaves to TVMBackendAllocWorkspace (in parallel loops, of
  // dynamic size, ...): their static sizes summed, 64 KiB for each dynamic one.
  int64_t unplanned_allocation_bytes() const {
    std::set<const tir::Stmt*> planned(t_.statements.begin(), t_.statements.end());
    int64_t bytes = 0;
    for (const tir::PrimFunc& f : t_.module->functions) {
      tir::walk(
          f,
          [&](const tir::Stmt& st) {
            const tir::Allocate* a = st.as<tir::Allocate>();
            if (!a || planned.count(&st)) return;
            const std::optional<int64_t> size = a->static_size_bytes();
            bytes += size ? (*size + 15) / 16 * 16 : 65536;
          },
          [](const tir::Expr&) {});
    }
    return bytes;
  }

  // The parameters the code fetches with lookup_param, sized by the buffers of the functions they
  // are passed to (the largest when passed to several).
  std::vector<HarnessParam> lookup_params() const {
    std::map<std::string, HarnessParam> params;
    for (const tir::PrimFunc& f : t_.module->functions) {
      tir::walk(
          f, [](const tir::Stmt&) {},
          [&](const tir::Expr& e) {
            const tir::Call* call = e.as<tir::Call>();
            const tir::PrimFunc* callee = call ? called_function(*t_.module, *call) : nullptr;
            if (!callee) return;
            const std::vector<tir::BufferRef> buffers = matched_buffers(*callee);
            for (size_t a = 1; a < call->args.size(); ++a) {
              const tir::Call* lookup = call->args[a]->as<tir::Call>();
              if (!lookup || lookup->op != "lookup_param" || lookup->args.empty()) continue;
              const tir::StringImm* name = lookup->args[0]->as<tir::StringImm>();
              if (!name || a - 1 >= buffers.size() || !buffers[a - 1]) continue;
              HarnessParam& p = params[name->value];
              p.symbol = "__tvm_param__" + sanitize_c_name(name->value);
              p.size_bytes = std::max(p.size_bytes, buffers[a - 1]->static_size_bytes().value_or(0));
              p.dtype = buffers[a - 1]->dtype.to_string();
            }
          });
    }
    std::vector<HarnessParam> out;
    out.reserve(params.size());
    for (auto& [name, p] : params)
      out.push_back(p);
    return out;
  }

  const TirProblem& t_;
  std::string path_;
  std::string text_;
  const Problem& problem_;
  const Plan& plan_;
  const ExportOptions& options_;
  const tir::PrimFunc* main_ = nullptr;
  std::string module_name_;
  std::vector<ExportPool> pools_;
  std::vector<TirIo> io_;
  ExportBundle bundle_;
};

}  // namespace

ExportBundle export_tir(const TirProblem& analysed, const std::string& dump_path, const std::string& dump_text,
                        const Problem& problem, const Plan& plan, const ExportOptions& options) {
  return TirExporter(analysed, dump_path, dump_text, problem, plan, options).run();
}

}  // namespace usmpx
