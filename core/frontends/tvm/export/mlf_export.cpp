#include "frontends/tvm/export/mlf_export.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "base/archive_path.h"
#include "base/archive_reader.h"
#include "export/export_error.h"
#include "frontends/tvm/export/emit/constant_bytes.h"
#include "frontends/tvm/export/emit/interface_header.h"
#include "frontends/tvm/export/emit/layout_check.h"
#include "frontends/tvm/export/emit/lib0_source.h"
#include "frontends/tvm/export/emit/linker_fragment.h"
#include "frontends/tvm/export/emit/metadata_update.h"
#include "frontends/tvm/export/harness/harness.h"
#include "frontends/tvm/export/lone_library.h"
#include "frontends/tvm/export/mlf_harness_spec.h"
#include "frontends/tvm/export/module_rename.h"
#include "frontends/tvm/export/rewrite/header_edit.h"
#include "frontends/tvm/export/rewrite/lib0_edit.h"
#include "frontends/tvm/export/rewrite/mlf_host_rewrite.h"
#include "frontends/tvm/mlf/relay_signature.h"
#include "model/plan_json.h"

namespace usmpx {
namespace {

bool contains(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

// Every member of the input, read again: the analysis kept only the files it needed.
ArchiveContents read_all_members(const std::string& path) {
  const auto everything = [](std::string_view) { return true; };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return read_folder(path, everything);
  return read_archive_file(path, everything);
}

class MlfExporter {
 public:
  MlfExporter(const MlfModel& m, const Problem& problem, const Plan& plan, const ExportOptions& options)
      : m_(m), problem_(problem), plan_(plan), options_(options), prefix_(m.code.prefix) {}

  ExportBundle run() {
    check_exportable(problem_, plan_);
    pools_ = export_pools(problem_, plan_);
    const ArchiveContents all = read_all_members(m_.package->path);
    for (const ArchiveFile& f : all.files)
      bundle_.files.push_back({f.path, f.data});
    find_metadata_module();
    find_header(all);
    detect_style();
    if (lone_library_input()) return lone_library(all);
    Lib0Spec spec;
    std::string lib0;
    if (packed_run_) {
      spec = lib0_spec();
      lib0 = packed_lib0_text(spec);
    } else {
      const HostRewrite host = rewrite_host_sources(m_, problem_, plan_, pools_, lib0_file_);
      for (const auto& [file, text] : host.files)
        bundle_.put(m_.program.files[static_cast<size_t>(file)].path, text);
      spec = lib0_spec();
      lib0 = lib0_text(spec);
    }
    const MetadataMemory memory =
        figures_moved_by_plan(metadata().workspace_size_bytes, metadata().constants_size_bytes);
    // The packed API has no interface header to write: the input's, if any, stays as it is.
    const ArchiveFile* input_header = member(header_path_);
    const bool header = !packed_run_ || input_header;
    const std::string header_text_out = !packed_run_
                                            ? header_text(emit_interface_header(header_spec(header_workspace_figure())))
                                            : (input_header ? input_header->data : std::string());
    check_lib0_layout(lib0_path_, lib0, header ? header_path_ : std::string(), header_text_out, pools_,
                      spec.pool_constants, layout_triples(metadata().targets));
    bundle_.put(lib0_path_, lib0);
    if (header) bundle_.put(header_path_, header_text_out);
    if (const ArchiveFile* meta = all.find(metadata_path())) {
      // Written only when a figure changes, so that an unchanged plan keeps the file's own formatting.
      const std::string updated = update_metadata_json(meta->data, m_.module, memory);
      if (nlohmann::json::parse(updated) != nlohmann::json::parse(meta->data)) bundle_.put(metadata_path(), updated);
    }
    return finished(all);
  }

 private:
  // The plan, the linker fragment and the harness beside the sources; what changed.
  ExportBundle finished(const ArchiveContents& all) {
    bundle_.put(joined(root_, "usmpx_plan.json"), write_plan_json(problem_, plan_) + "\n");
    std::vector<int64_t> hints;
    for (const Pool& p : problem_.pools)
      hints.push_back(p.size_hint_bytes);
    bundle_.put(joined(root_, "usmpx_pools.ld"), emit_linker_fragment(m_.module, pools_, hints));
    // What the analysis assumed about the USMP-off allocations this plan moves, said with the export.
    for (const Diagnostic& d : m_.warnings) {
      if (d.code == "mlf-allocation-overrun" || d.code == "mlf-kept-allocation") bundle_.notes.push_back(d);
    }
    if (options_.harness) add_harness(bundle_, harness_spec());
    bundle_.sort();
    for (const ExportFile& f : bundle_.files) {
      const ArchiveFile* before = all.find(f.path);
      if (!before || before->data != f.data) bundle_.changed.push_back(f.path);
    }
    return std::move(bundle_);
  }

  // USMP-on operators whose lib0.c (the run wrapper and the pools) is not in the input.
  bool lone_library_input() const { return m_.code.usmp() && lib0_file_ < 0; }

  // Operators without their lib0.c (lone_library.h): only their lets change, and the notes say
  // what the firmware's own pool definitions must hold.
  ExportBundle lone_library(const ArchiveContents& all) {
    check_constants_stay(m_, problem_, plan_);
    const HostRewrite host = rewrite_host_sources(m_, problem_, plan_, pools_, -1);
    for (const auto& [file, text] : host.files)
      bundle_.put(m_.program.files[static_cast<size_t>(file)].path, text);
    for (std::string& line : pools_defined_elsewhere(m_, problem_, plan_, pools_))
      bundle_.notes.push_back({Severity::kWarning, "export-user-pool", std::move(line), {}, -1, {}});
    return finished(all);
  }

  const ArchiveFile* member(const std::string& path) const { return m_.package->contents.find(path); }

  // metadata.json beside the sources' root (an MLF archive's top), when the input has one.
  std::string metadata_path() const {
    std::string dir = root_;
    if (dir.size() >= 12 && dir.compare(dir.size() - 12, 12, "codegen/host") == 0) dir = folder_of(folder_of(dir));
    return joined(dir, "metadata.json");
  }

  // tvmgen_<mod>.h wherever the input keeps it (codegen/host/include, include/, inc/, beside the
  // sources); a new one goes to <root>/include.
  void find_header(const ArchiveContents& all) {
    const std::string name = "tvmgen_" + m_.module + ".h";
    for (const std::string& dir : {joined(root_, "include"), joined(root_, "inc"), folder_of(lib0_path_), root_}) {
      if (all.find(joined(dir, name))) {
        header_path_ = joined(dir, name);
        return;
      }
    }
    for (const ArchiveFile& f : all.files) {
      if (f.path == name || (f.path.size() > name.size() &&
                             f.path.compare(f.path.size() - name.size() - 1, name.size() + 1, "/" + name) == 0)) {
        header_path_ = f.path;
        return;
      }
    }
    header_path_ = joined(joined(root_, "include"), name);
  }

  // Whether lib0.c maps I/O into the pools as the plan does: then it is edited; otherwise (a
  // change of --use-workspace-io) it is written anew.
  bool same_io_mapping() const {
    if (lib0_file_ < 0) return false;
    bool maps = false;
    for (const CFunction& f : m_.program.functions)
      maps = maps || (f.range.file == lib0_file_ && f.name == prefix_ + "map_inputs" && f.is_definition);
    return maps == use_workspace_io();
  }

  std::string lib0_text(const Lib0Spec& spec) {
    if (same_io_mapping()) {
      std::vector<std::string> internal;
      for (const InternalPool& p : m_.code.internal_pools)
        internal.push_back(p.name);
      Lib0EditResult edited = edit_lib0_source({&m_.program, lib0_file_, &spec, internal});
      for (const std::string& note : edited.notes)
        bundle_.notes.push_back({Severity::kWarning, "export-user-pool", note, {}, -1, {}});
      return edited.text;
    }
    if (lib0_file_ >= 0) {
      check_only_metadata_functions();
      bundle_.notes.push_back({Severity::kNote,
                               "export-lib0-regenerated",
                               "the plan changes whether the I/O live in the pools; " + lib0_path_ +
                                   " is written anew in the input's TVM style (edits made to it are not kept)",
                               {},
                               -1,
                               {}});
    }
    return emit_lib0_source(spec);
  }

  // TVM 0.8's file holding the operators, the entry and the packed wrapper: the host rewrite and
  // the pool edits change it together.
  std::string packed_lib0_text(const Lib0Spec& spec) {
    std::vector<std::string> internal;
    for (const InternalPool& p : m_.code.internal_pools)
      internal.push_back(p.name);
    const Lib0EditResult edited =
        edit_lib0_source({&m_.program, lib0_file_, &spec, internal, true, packed_run_wrapper(m_)->name});
    for (const std::string& note : edited.notes)
      bundle_.notes.push_back({Severity::kWarning, "export-user-pool", note, {}, -1, {}});
    const HostRewrite host = rewrite_host_sources(m_, problem_, plan_, pools_, -1, {{lib0_file_, edited.edits}});
    for (const auto& [file, text] : host.files) {
      if (file != lib0_file_) bundle_.put(m_.program.files[static_cast<size_t>(file)].path, text);
    }
    const auto it = host.files.find(lib0_file_);
    return it != host.files.end() ? it->second : edited.text;
  }

  // Whether the plan hands the model other pools than the input's lib0.c does (names, order, or
  // which the file defines itself).
  bool pools_change() const {
    if (lib0_file_ < 0) return true;
    const std::string entry = m_.program.functions[static_cast<size_t>(m_.code.entry)].name;
    const std::vector<std::string> before = lib0_pool_order(m_.program, lib0_file_, entry);
    if (before.size() != pools_.size()) return true;
    for (size_t i = 0; i < pools_.size(); ++i) {
      const bool was_internal = std::any_of(m_.code.internal_pools.begin(), m_.code.internal_pools.end(),
                                            [&](const InternalPool& p) { return p.name == pools_[i].name; });
      if (before[i] != pools_[i].name || was_internal != pools_[i].internal) return true;
    }
    return false;
  }

  // The input's header with its macros' values edited, when the pools stay; else written anew.
  std::string header_text(const std::string& generated) {
    const ArchiveFile* input = member(header_path_);
    if (!input) return generated;
    if (!pools_change() && same_io_mapping()) {
      if (std::optional<std::string> edited = edit_header_macros(input->data, generated, true)) {
        note_pools_the_user_provides(*edited);
        return *edited;
      }
    }
    bundle_.notes.push_back(
        {Severity::kNote,
         "export-header-regenerated",
         "the plan changes the pools the model is given; " + header_path_ + " is written anew in the input's TVM style",
         {},
         -1,
         {}});
    return generated;
  }

  // An external pool without a size macro in the header is provided by the user's own code.
  void note_pools_the_user_provides(const std::string& header) {
    for (const ExportPool& p : pools_) {
      if (p.internal || p.kind != PoolKind::kWorkspace) continue;
      if (contains(header, c_constant_name(m_.module, sanitize_c_name(p.name) + "_WORKSPACE_POOL_SIZE"))) continue;
      bundle_.notes.push_back({Severity::kWarning,
                               "export-user-pool",
                               "pool '" + p.name + "' is provided by your code: it must now hold " +
                                   std::to_string(p.size_bytes) + " bytes, aligned to " + std::to_string(p.alignment),
                               {},
                               -1,
                               {}});
    }
  }

  // The file TVM's metadata module went to: the one defining <prefix>run, or TVM 0.8's C runtime
  // wrapper __tvm_main__ (beside its tvm_model_t descriptor). Models from before TVM 0.9 may have
  // neither (their entry is called directly); the pools and a run wrapper then go to a new file
  // <mod>_lib<N>.c.
  void find_metadata_module() {
    const CFunction* run = m_.program.find_function(prefix_ + "run");
    if (!run || !run->is_definition) run = packed_run_wrapper(m_);
    if (run && run->is_definition) {
      packed_run_ = packed_run_wrapper(m_) != nullptr;
      lib0_file_ = run->range.file;
      lib0_path_ = m_.program.files[static_cast<size_t>(lib0_file_)].path;
      root_ = sources_root(lib0_path_);
      return;
    }
    const std::string entry_path =
        m_.code.entry >= 0
            ? m_.program.files[static_cast<size_t>(m_.program.functions[static_cast<size_t>(m_.code.entry)].range.file)]
                  .path
            : "codegen/host/src/x.c";
    root_ = sources_root(entry_path);
    for (int n = 0;; ++n) {
      lib0_path_ = joined(folder_of(entry_path), m_.module + "_lib" + std::to_string(n) + ".c");
      if (!member(lib0_path_) && !bundle_.find(lib0_path_)) break;
    }
    if (lone_library_input()) return;  // its lib0.c exists, outside the input
    bundle_.notes.push_back(
        {Severity::kNote,
         "export-new-lib",
         "the sources define no " + prefix_ + "run; the pools and a run wrapper go to " + lib0_path_,
         {},
         -1,
         {}});
  }

  // A lib0.c written anew replaces TVM's metadata module: it must hold nothing of the user's.
  void check_only_metadata_functions() const {
    for (const CFunction& f : m_.program.functions) {
      if (f.is_definition && f.range.file == lib0_file_ && f.name != prefix_ + "run" &&
          f.name != prefix_ + "map_inputs" && f.name != prefix_ + "map_outputs")
        throw ExportError(
            "'" + lib0_path_ + "' defines " + f.name + " besides " + prefix_ +
            "run, and the plan changes the pools it passes; only TVM's metadata module can be written anew");
    }
  }

  void detect_style() {
    if (const ArchiveFile* h = member(header_path_)) {
      style_.io_size_macros = !m_.code.io_sizes.empty();
      style_.workspace_brief_blank = !contains(h->data, "Workspace size for TVM module \"" + m_.module + "\"\n");
    }
    if (lib0_file_ >= 0) {
      const std::string_view t = m_.program.files[static_cast<size_t>(lib0_file_)].text;
      if (contains(t, "static struct ")) style_.const_struct = false;
      const size_t ret = t.find("{return ");
      if (ret != std::string_view::npos && contains(t.substr(ret), "&") && !contains(t.substr(ret), "((uint8_t*)"))
        style_.pool_casts = false;
    }
  }

  std::vector<std::string> inputs() const { return io_names(m_, true); }
  std::vector<std::string> outputs() const { return io_names(m_, false); }
  const MlfModuleMetadata& metadata() const { return module_metadata(m_); }

  bool use_workspace_io() const {
    return std::any_of(problem_.buffers.begin(), problem_.buffers.end(),
                       [](const Buffer& b) { return b.kind == BufferKind::kInput || b.kind == BufferKind::kOutput; });
  }

  Lib0Spec lib0_spec() const {
    Lib0Spec s;
    s.module = m_.module;
    s.entry = m_.program.functions[static_cast<size_t>(m_.code.entry)].name;
    s.inputs = inputs();
    s.outputs = outputs();
    for (const std::string& in : s.inputs)
      s.input_params.push_back("void* " + sanitize_c_name(in));
    s.pools = pools_;
    s.use_workspace_io = use_workspace_io();
    s.style = style_;
    s.constant_alignment = input_constant_alignment();
    for (const ExportPool& p : pools_)
      s.pool_constants.push_back(p.internal && p.kind == PoolKind::kConstant ? pool_constants(p)
                                                                             : std::vector<PoolConstant>{});
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Buffer& buf = problem_.buffers[b];
      if (buf.kind != BufferKind::kInput && buf.kind != BufferKind::kOutput) continue;
      const Allocation& a = plan_.allocations[b];
      IoPlacement io{buf.name, problem_.pools[static_cast<size_t>(a.pool)].name, a.offset};
      (buf.kind == BufferKind::kInput ? s.input_map : s.output_map).push_back(io);
    }
    return s;
  }

  // The alignment the input's constant pool members declare (TVM 0.17 may use 4), else TVM's 16.
  int64_t input_constant_alignment() const {
    for (const InternalPool& pool : m_.code.internal_pools) {
      if (!pool.constant) continue;
      for (const CField& f : pool.constants) {
        if (f.alignment > 0) return f.alignment;
      }
    }
    return 16;
  }

  // A constant of the input's constant pools: its member of the pool struct and that member's data.
  struct KnownConstant {
    const CField* field = nullptr;
    std::string data_text;
  };

  KnownConstant known_constant(const std::string& member) const {
    for (const InternalPool& pool : m_.code.internal_pools) {
      if (!pool.constant) continue;
      for (const CField& f : pool.constants) {
        if (f.name != member) continue;
        const CGlobal* g = m_.program.find_global(pool.name);
        if (!g || !g->init_range.valid()) break;
        const std::string_view init = m_.program.files[static_cast<size_t>(g->init_range.file)].text.substr(
            g->init_range.begin, g->init_range.end - g->init_range.begin);
        const size_t at = init.find("." + member + " = {");
        if (at == std::string_view::npos) break;
        const size_t open = init.find('{', at);
        const size_t close = init.find('}', open);
        std::string_view inner = init.substr(open + 1, close - open - 1);
        if (!inner.empty() && inner.front() == '\n') inner.remove_prefix(1);
        while (!inner.empty() && inner.back() == ' ')
          inner.remove_suffix(1);
        return {&f, std::string(inner)};
      }
    }
    return {};
  }

  std::vector<PoolConstant> pool_constants(const ExportPool& pool) const {
    std::vector<PoolConstant> out;
    for (size_t b = 0; b < problem_.buffers.size(); ++b) {
      const Allocation& a = plan_.allocations[b];
      if (a.pool != pool.index) continue;
      const std::string member = constant_member(static_cast<int>(b));
      const KnownConstant k = known_constant(member);
      if (!k.field)
        throw ExportError("the data of constant '" + problem_.buffers[b].name + "' is not in " +
                          (lib0_file_ >= 0 ? lib0_path_ : "the sources") + "; it cannot be placed in pool '" +
                          pool.name + "'");
      std::string type = k.field->type.substr(0, k.field->type.find('['));
      while (!type.empty() && type.back() == ' ')
        type.pop_back();
      if (type.rfind("const ", 0) == 0) type = type.substr(6);
      out.push_back({member, type, k.field->array_elements, k.field->element_bytes, a.offset, k.data_text});
    }
    return out;
  }

  // The struct member of a constant buffer: its let variable's name ("<name>_let").
  std::string constant_member(int b) const {
    const WalkBuffer& w = m_.walk.buffers[static_cast<size_t>(b)];
    if (w.source != WalkBufferSource::kPoolLet) return w.name + "_let";
    const PoolLet& let = m_.code.lets[static_cast<size_t>(w.index)];
    return m_.program.functions[static_cast<size_t>(let.function)].variables[static_cast<size_t>(let.variable)].name;
  }

  InterfaceHeaderSpec header_spec(int64_t workspace_bytes) const {
    InterfaceHeaderSpec h;
    h.module = m_.module;
    h.inputs = inputs();
    h.outputs = outputs();
    for (const auto* names : {&h.inputs, &h.outputs}) {
      auto& sizes = names == &h.inputs ? h.input_sizes : h.output_sizes;
      for (const std::string& n : *names) {
        const auto it = m_.code.io_sizes.find(n);
        if (it != m_.code.io_sizes.end()) {
          sizes.emplace_back(n, it->second);
          continue;
        }
        for (const auto* list : {&metadata().inputs, &metadata().outputs}) {
          for (const MlfTensor& t : *list) {
            if (sanitize_c_name(t.name) == n && t.size_bytes >= 0) sizes.emplace_back(n, t.size_bytes);
          }
        }
      }
    }
    for (const ExportPool& p : pools_) {
      if (p.internal) continue;
      h.external_pools.push_back(p);
      h.external_constant_data.push_back(p.kind == PoolKind::kConstant ? pool_data_text(p, pool_constants(p)) : "");
    }
    h.use_workspace_io = use_workspace_io();
    h.workspace_size_bytes = workspace_bytes;
    h.style = style_;
    return h;
  }

  // The figures a file holds, moved by what the plan changes: with TVM's plan at hand, by the
  // difference between the figures of the new plan and of TVM's, so that a figure TVM computed
  // its own way (e.g. counting operator workspaces USMP has since placed) stays exact and an
  // unchanged plan changes no number. `workspace` and `constants` are the file's (-1: absent).
  MetadataMemory figures_moved_by_plan(int64_t workspace, int64_t constants) const {
    MetadataMemory mem = memory_figures(pools_);
    if (!m_.as_built || m_.as_built->pool_sizes.size() != m_.problem.pools.size()) return mem;
    const MetadataMemory tvm = memory_figures(export_pools(m_.problem, *m_.as_built));
    if (workspace >= 0) mem.workspace_size_bytes = workspace + (mem.workspace_size_bytes - tvm.workspace_size_bytes);
    if (constants >= 0 && mem.constants_size_bytes && tvm.constants_size_bytes)
      mem.constants_size_bytes = constants + (*mem.constants_size_bytes - *tvm.constants_size_bytes);
    return mem;
  }

  // TVMGEN_<MOD>_WORKSPACE_SIZE: the input header's value moved by the plan, else metadata.json's.
  int64_t header_workspace_figure() const {
    const CMacro* macro = m_.program.find_macro(c_constant_name(m_.module, "WORKSPACE_SIZE"));
    int64_t value = -1;
    if (macro && !macro->value.empty() &&
        std::all_of(macro->value.begin(), macro->value.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        macro->value.size() < 18)
      value = std::stoll(macro->value);
    return figures_moved_by_plan(value >= 0 ? value : metadata().workspace_size_bytes, -1).workspace_size_bytes;
  }

  // TVM's figures: an operator keeps the workspace of its allocations left unplanned; main's
  // workspace is the largest operator workspace plus every workspace pool.
  MetadataMemory memory_figures(const std::vector<ExportPool>& pools) const {
    MetadataMemory mem;
    std::map<std::string, int64_t> planned_bytes;
    std::map<std::string, int> unplanned;
    std::set<int> kept;
    for (const KeptAllocation& k : m_.walk.kept)
      kept.insert(k.alloc);
    for (size_t i = 0; i < m_.code.allocs.size(); ++i) {
      if (kept.count(static_cast<int>(i))) continue;  // still the runtime's
      const WorkspaceAlloc& a = m_.code.allocs[i];
      planned_bytes[m_.program.functions[static_cast<size_t>(a.function)].name] += a.nbytes;
    }
    int64_t largest = 0;
    for (const MlfOperatorWorkspace& op : metadata().operators) {
      int64_t left = op.workspace_size_bytes;
      const auto it = planned_bytes.find(op.function);
      if (it != planned_bytes.end()) {
        left = std::max<int64_t>(0, left - it->second);
        mem.operator_workspace[op.function] = left;
      }
      largest = std::max(largest, left);
    }
    mem.workspace_size_bytes = largest + workspace_pool_bytes(pools);
    if (std::any_of(pools.begin(), pools.end(), [](const ExportPool& p) { return p.kind == PoolKind::kConstant; }))
      mem.constants_size_bytes = constant_pool_bytes(pools);
    return mem;
  }

  HarnessSpec harness_spec() const {
    std::vector<ExportPool> external;
    for (const ExportPool& p : pools_) {
      if (!p.internal) external.push_back(p);
    }
    HarnessSpec h = mlf_harness_spec(m_, external, use_workspace_io(), options_.harness_seed);
    if (packed_run_) {
      h.packed_run = packed_run_wrapper(m_)->name;
      h.crt_model = crt_model_descriptor(m_);
    }
    if (lib0_file_ < 0) h.model_sources.push_back(lib0_path_);
    h.include_dirs = {folder_of(header_path_)};
    h.fragment_dir = root_;
    // Every constant-size TVMBackendAllocWorkspace became a pool offset but those the analysis
    // keeps with the allocator (their bytes, each 16-aligned as TVM's stack allocator places them)
    // and those of unknown size, which TVM's own figure bounds.
    h.arena_bytes = 0;
    bool unbounded = false;
    for (const KeptAllocation& k : m_.walk.kept) {
      const int64_t bytes = std::max(m_.code.allocs[static_cast<size_t>(k.alloc)].nbytes, k.reached_bytes);
      h.arena_bytes += (bytes + 15) / 16 * 16;
      unbounded |= k.unbounded;
    }
    // How far an unbounded index reaches is unknown: give it at least the room the original's
    // arena (every allocation, 16-aligned) had above it.
    if (unbounded) {
      int64_t original = 0;
      for (const WorkspaceAlloc& a : m_.code.allocs)
        original += (a.nbytes + 15) / 16 * 16;
      h.arena_bytes = std::max(h.arena_bytes, original);
    }
    if (has_dynamic_workspace(m_)) h.arena_bytes = std::max<int64_t>(h.arena_bytes, metadata().workspace_size_bytes);
    h.linker_fragment = true;
    for (const ExportPool& p : pools_)
      h.pool_sections.push_back(pool_section(p));
    return h;
  }

  const MlfModel& m_;
  const Problem& problem_;
  const Plan& plan_;
  const ExportOptions& options_;
  std::string prefix_;
  std::vector<ExportPool> pools_;
  ExportBundle bundle_;
  std::string header_path_;
  std::string lib0_path_;
  std::string root_;  // the folder of the generated C (see sources_root)
  int lib0_file_ = -1;
  bool packed_run_ = false;  // lib0_file_ holds TVM 0.8's packed wrapper beside the entry
  TvmStyle style_;
};

}  // namespace

ExportBundle export_mlf(const MlfModel& model, const Problem& problem, const Plan& plan, const ExportOptions& options) {
  ExportBundle bundle = MlfExporter(model, problem, plan, options).run();
  const std::string& prefix = model.code.prefix;  // "tvmgen_<module>_"
  if (!options.module_name.empty() && prefix.size() > 8) {
    if (!valid_module_name(options.module_name))
      throw ExportError("module name '" + options.module_name +
                        "': TVM makes C names from it, so it may hold only letters, digits and '_'");
    rename_tvm_module(bundle, prefix.substr(7, prefix.size() - 8), options.module_name);
  }
  return bundle;
}

ExportBundle mlf_original_bundle(const MlfModel& model, const ExportOptions& options) {
  ExportBundle bundle;
  for (const ArchiveFile& f : read_all_members(model.package->path).files)
    bundle.files.push_back({f.path, f.data});
  if (options.harness) {
    // The pools the input's code takes from the application: its pool parameters without a definition.
    std::vector<ExportPool> external;
    std::vector<std::string> seen;
    for (const PoolParam& p : model.code.pool_params) {
      if (p.function != model.code.entry || std::find(seen.begin(), seen.end(), p.pool) != seen.end()) continue;
      seen.push_back(p.pool);
      const bool internal = std::any_of(model.code.internal_pools.begin(), model.code.internal_pools.end(),
                                        [&](const InternalPool& ip) { return ip.name == p.pool; });
      if (internal) continue;
      ExportPool e;
      e.name = p.pool;
      e.kind = model.code.external_constant_pools.count(p.pool) ? PoolKind::kConstant : PoolKind::kWorkspace;
      const auto size = model.code.external_pool_sizes.find(p.pool);
      e.size_bytes = size == model.code.external_pool_sizes.end() ? 0 : size->second;
      external.push_back(e);
    }
    HarnessSpec h = mlf_harness_spec(model, external, false, options.harness_seed);
    // The arena TVM's runtime would need: the module's workspace figure, else every allocation.
    h.arena_bytes = 0;
    for (const WorkspaceAlloc& a : model.code.allocs)
      h.arena_bytes += (a.nbytes + 15) / 16 * 16;
    if ((h.arena_bytes > 0 || has_dynamic_workspace(model)) && module_metadata(model).workspace_size_bytes > 0)
      h.arena_bytes = module_metadata(model).workspace_size_bytes;
    const CFunction* run = model.program.find_function(model.code.prefix + "run");
    if (const CFunction* packed = packed_run_wrapper(model)) {
      // Called as TVM 0.8's runtime calls it: DLTensors through TVMValues, by way of its
      // tvm_model_t descriptor when lib0.c has one.
      h.packed_run = packed->name;
      h.crt_model = crt_model_descriptor(model);
    } else if ((!run || !run->is_definition) && model.code.entry >= 0)
      h.direct_entry = model.program.functions[static_cast<size_t>(model.code.entry)].name;
    add_harness(bundle, h);
  }
  bundle.sort();
  return bundle;
}

}  // namespace usmpx
