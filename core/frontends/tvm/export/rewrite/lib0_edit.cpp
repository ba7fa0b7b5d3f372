#include "frontends/tvm/export/rewrite/lib0_edit.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "base/alignment.h"
#include "export/export_error.h"
#include "frontends/tvm/export/rewrite/text_edits.h"
#include "frontends/tvm/usmp/pool_lets.h"

namespace usmpx {

std::vector<std::string> lib0_pool_order(const CProgram& program, int file, const std::string& entry) {
  std::vector<std::string> pools;
  for (const CFunction& f : program.functions) {
    if (f.name != entry || f.range.file != file) continue;
    for (int p : f.params) {
      const CVariable& v = f.variables[static_cast<size_t>(p)];
      if (const auto pool = pool_of_parameter(v.name); pool && v.element_bytes == 1) pools.push_back(*pool);
    }
    break;
  }
  return pools;
}

namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Lib0Editor {
 public:
  explicit Lib0Editor(const Lib0Edit& e)
      : e_(e), s_(*e.spec), text_(e.program->files[static_cast<size_t>(e.file)].text) {}

  Lib0EditResult run() {
    const std::vector<std::string> before = lib0_pool_order(*e_.program, e_.file, s_.entry);
    std::vector<std::string> after;
    for (const ExportPool& p : s_.pools)
      after.push_back(p.name);
    bool structural = before != after;
    std::string inserted;
    for (size_t i = 0; i < s_.pools.size(); ++i) {
      const ExportPool& p = s_.pools[i];
      const CGlobal* g = find_global(p.name);
      if (was_internal(p.name) != p.internal) structural = true;
      if (!p.internal) continue;
      if (!g) {
        if (std::find(before.begin(), before.end(), p.name) == before.end()) {
          inserted += emit_lib0_pool(s_, i);  // a pool the input did not have
          structural = true;
        } else if (p.kind == PoolKind::kConstant) {
          throw ExportError(path() + " does not define constant pool '" + p.name + "' that its run wrapper passes");
        } else {
          provided_by_user(p, "is not defined in " + path());
        }
        continue;
      }
      set_section(*g, p.section);
      if (p.kind == PoolKind::kConstant) {
        constant_pool(*g, p, i < s_.pool_constants.size() ? s_.pool_constants[i] : std::vector<PoolConstant>{});
      } else if (g->array_elements < 0) {
        provided_by_user(p, "is not an array of " + path());
      } else if (g->array_elements != p.size_bytes) {
        array_size(*g, p.size_bytes);
      }
    }
    for (const std::string& name : before) {
      const auto now =
          std::find_if(s_.pools.begin(), s_.pools.end(), [&](const ExportPool& p) { return p.name == name; });
      if ((now != s_.pools.end() && now->internal) || !was_internal(name)) continue;
      if (const CGlobal* g = find_global(name)) erase_definition(*g);
    }
    if (!inserted.empty()) insert_pools(inserted);
    if (structural && e_.packed_run) {
      pass_pools_through_packed_run();
    } else if (structural) {
      pass_new_pools();
    }
    io_map("_map_inputs", s_.input_map);
    io_map("_map_outputs", s_.output_map);
    try {
      return {edits_.apply(text_), notes_, edits_};
    } catch (const std::logic_error& err) {
      throw ExportError(path() + ": the edits for the new plan collide: " + err.what());
    }
  }

 private:
  std::string path() const { return e_.program->files[static_cast<size_t>(e_.file)].path; }

  SourceLocation where(const CRange& r) const { return {path(), r.line, r.column}; }

  bool in_file(const CRange& r) const { return r.file == e_.file && r.begin <= r.end && r.end <= text_.size(); }

  bool was_internal(const std::string& name) const {
    return std::find(e_.internal_before.begin(), e_.internal_before.end(), name) != e_.internal_before.end();
  }

  const CGlobal* find_global(const std::string& name) const {
    for (const CGlobal& g : e_.program->globals) {
      if (g.name == name && in_file(g.range)) return &g;
    }
    return nullptr;
  }

  void provided_by_user(const ExportPool& p, const std::string& why) {
    notes_.push_back("pool '" + p.name + "' " + why + " (your code provides it): it must now hold " +
                     std::to_string(p.size_bytes) + " bytes, aligned to " + std::to_string(p.alignment));
  }

  // A definition with its attribute line before it and the rest of its last line (TVM's
  // "// of total size" comment).
  void erase_definition(const CGlobal& g) {
    size_t begin = line_start(g.range.begin);
    if (begin > 0) {
      const size_t previous = line_start(begin - 1);
      if (text_.substr(previous, 13) == "__attribute__") begin = previous;
    }
    const size_t semicolon = text_.find(';', g.range.end);
    const size_t end = next_line(semicolon == std::string_view::npos ? g.range.end : semicolon);
    edits_.replace(static_cast<uint32_t>(begin), static_cast<uint32_t>(end), "");
  }

  // New pool definitions go where TVM writes them: before the interface header's #include.
  void insert_pools(const std::string& definitions) {
    if (e_.packed_run) {
      edits_.insert(static_cast<uint32_t>(preamble_start(packed_run())), definitions);
      return;
    }
    const std::string include = "#include <tvmgen_" + s_.module + ".h>";
    size_t at = text_.find(include);
    if (at == std::string_view::npos) {
      const CFunction* entry = function(s_.entry, false);
      if (!entry) throw ExportError(path() + " declares no " + s_.entry + "; cannot add the new pools");
      at = entry->range.begin;
    }
    edits_.insert(static_cast<uint32_t>(line_start(at)), definitions);
  }

  const CFunction* function(const std::string& name, bool definition) const {
    for (const CFunction& f : e_.program->functions) {
      if (f.name == name && f.is_definition == definition && in_file(f.range)) return &f;
    }
    return nullptr;
  }

  // The entry's declaration and the run wrapper pass the plan's pools.
  void pass_new_pools() {
    const CFunction* entry = function(s_.entry, false);
    const std::string run_name = "tvmgen_" + s_.module + "_run";
    const CFunction* run = function(run_name, true);
    if (!entry || !run)
      throw ExportError(path() + " lacks the declaration of " + s_.entry + " or the definition of " + run_name +
                        "; cannot pass the plan's pools");
    replace_parenthesised(entry->range.begin, entry->range.end, s_.entry, emit_lib0_entry_params(s_));
    replace_parenthesised(run->range.begin, run->body_range.begin, run_name, emit_lib0_run_params(s_));
    replace_parenthesised(run->body_range.begin, run->body_range.end, s_.entry, emit_lib0_run_args(s_));
  }

  const CFunction& packed_run() const {
    const std::string run_name = e_.packed_wrapper.empty() ? "tvmgen_" + s_.module + "_run" : e_.packed_wrapper;
    const CFunction* run = function(run_name, true);
    if (!run) throw ExportError(path() + " does not define " + run_name + "; cannot pass the plan's pools");
    return *run;
  }

  // Where a definition's lines start, with the `#ifdef __cplusplus` / `extern "C"` / `#endif`
  // lines TVM writes before it.
  size_t preamble_start(const CFunction& f) const {
    const size_t at = line_start(f.range.begin);
    size_t begin = at;
    for (const std::string_view expected : {"#endif", "extern \"C\"", "#ifdef __cplusplus"}) {
      if (begin == 0) return at;
      const size_t previous = line_start(begin - 1);
      std::string_view line = text_.substr(previous, begin - previous);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.remove_suffix(1);
      if (line != expected) return at;
      begin = previous;
    }
    return begin;
  }

  // TVM 0.8's packed wrapper unpacks the DLTensors and calls the entry with their data; the
  // pools follow those arguments, in the entry's new parameter order. The entry is defined in
  // this file or, when lib0.c holds only the wrapper (its operators and entry in lib1.c), another.
  void pass_pools_through_packed_run() {
    const CFunction* entry = function(s_.entry, true);
    for (const CFunction& f : e_.program->functions) {
      if (!entry && f.name == s_.entry && f.is_definition) entry = &f;
    }
    if (!entry)
      throw ExportError("no source defines " + s_.entry + ", which " + path() + " calls; cannot pass the plan's pools");
    size_t io_params = 0;
    for (int p : entry->params) {
      const CVariable& v = entry->variables[static_cast<size_t>(p)];
      if (!pool_of_parameter(v.name) || v.element_bytes != 1) ++io_params;
    }
    if (s_.use_workspace_io)
      throw ExportError(path() + ": TVM 0.8's packed " + packed_run().name +
                        " hands the entry its DLTensors' data; the I/O cannot live in the pools");
    for (const ExportPool& p : s_.pools) {
      if (!p.internal)
        throw ExportError(path() + ": TVM 0.8's packed " + packed_run().name + " receives no pools from the " +
                          "application; pool '" + p.name + "' must be internal to the model");
    }
    const CFunction& run = packed_run();
    std::vector<std::pair<size_t, size_t>> args = call_arguments(run.body_range.begin, run.body_range.end, s_.entry);
    if (args.size() < io_params)
      throw ExportError(path() + ": " + run.name + " passes " + std::to_string(args.size()) + " arguments to " +
                        s_.entry + ", which takes " + std::to_string(io_params) + " inputs and outputs");
    std::string pools;
    for (const ExportPool& p : s_.pools)
      pools += ", ((uint8_t*)&" + p.name + ")";
    if (io_params == args.size()) {
      edits_.insert(static_cast<uint32_t>(args.empty() ? open_paren_ + 1 : args.back().second),
                    io_params == 0 ? pools.substr(2) : pools);
    } else {
      const size_t from = io_params == 0 ? open_paren_ + 1 : args[io_params - 1].second;
      edits_.replace(static_cast<uint32_t>(from), static_cast<uint32_t>(args.back().second),
                     io_params == 0 ? pools.substr(2) : pools);
    }
  }

  // The [begin, end) of each argument of the first call of `name` in [begin, end), blanks trimmed;
  // open_paren_ is left at the call's '('.
  std::vector<std::pair<size_t, size_t>> call_arguments(size_t begin, size_t end, const std::string& name) {
    size_t at = text_.find(name, begin);
    while (at != std::string_view::npos && at < end &&
           ((at > 0 && is_identifier_char(text_[at - 1])) ||
            (at + name.size() < text_.size() && is_identifier_char(text_[at + name.size()]))))
      at = text_.find(name, at + 1);
    const size_t open = at == std::string_view::npos || at >= end ? std::string_view::npos
                                                                  : text_.find_first_not_of(" \t\n", at + name.size());
    if (open == std::string_view::npos || open >= end || text_[open] != '(')
      throw ExportError(path() + ": cannot find the call of " + name);
    open_paren_ = open;
    std::vector<std::pair<size_t, size_t>> args;
    const auto add = [&](size_t b, size_t e) {
      while (b < e && std::isspace(static_cast<unsigned char>(text_[b])))
        ++b;
      while (e > b && std::isspace(static_cast<unsigned char>(text_[e - 1])))
        --e;
      if (b < e) args.emplace_back(b, e);
    };
    int depth = 0;
    size_t start = open + 1;
    for (size_t i = open; i < end; ++i) {
      const char c = text_[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
        add(start, i);
        return args;
      }
      if (c == ',' && depth == 1) {
        add(start, i);
        start = i + 1;
      }
    }
    throw ExportError(path() + ": unbalanced parentheses in the call of " + name);
  }

  // Replaces what stands between the parentheses after `name` in [begin, end).
  void replace_parenthesised(size_t begin, size_t end, const std::string& name, const std::string& inner) {
    size_t at = text_.find(name, begin);
    const auto inside_a_longer_name = [&](size_t i) {
      const size_t after = i + name.size();
      return (i > 0 && is_identifier_char(text_[i - 1])) || (after < text_.size() && is_identifier_char(text_[after]));
    };
    while (at != std::string_view::npos && at < end && inside_a_longer_name(at))
      at = text_.find(name, at + 1);
    const size_t open =
        at == std::string_view::npos || at >= end ? at : text_.find_first_not_of(" \t\n", at + name.size());
    if (open == std::string_view::npos || open >= end || text_[open] != '(')
      throw ExportError(path() + ": cannot find the parameters or arguments of " + name);
    int depth = 0;
    size_t close = open;
    for (; close < end; ++close) {
      if (text_[close] == '(') ++depth;
      if (text_[close] == ')' && --depth == 0) break;
    }
    if (close >= end) throw ExportError(path() + ": unbalanced parentheses after " + name);
    if (text_.substr(open + 1, close - open - 1) != inner)
      edits_.replace(static_cast<uint32_t>(open + 1), static_cast<uint32_t>(close), inner);
  }

  size_t line_start(size_t at) const {
    const size_t nl = text_.rfind('\n', at == 0 ? 0 : at - 1);
    return at == 0 || nl == std::string_view::npos ? 0 : nl + 1;
  }

  // Just past the line's '\n' (or the end of the text).
  size_t next_line(size_t at) const {
    const size_t nl = text_.find('\n', at);
    return nl == std::string_view::npos ? text_.size() : nl + 1;
  }

  // The user's linker section replaces the string of the definition's section attribute.
  void set_section(const CGlobal& g, const std::string& section) {
    if (section.empty() || section == g.section || g.section.empty()) return;
    const std::string old = "section(\"" + g.section + "\")";
    const size_t name = text_.find(g.name, g.range.begin);
    const size_t at = text_.rfind(old, name);
    const size_t stop = text_.find_last_of(";}", g.range.begin == 0 ? 0 : g.range.begin - 1);
    if (at == std::string_view::npos || (stop != std::string_view::npos && at < stop))
      throw ExportError("the section attribute of '" + g.name + "' was not found; cannot move it to " + section,
                        where(g.range));
    edits_.replace(static_cast<uint32_t>(at + 9), static_cast<uint32_t>(at + 9 + g.section.size()), section);
  }

  void array_size(const CGlobal& g, int64_t bytes) {
    const std::string_view decl = text_.substr(g.range.begin, g.range.end - g.range.begin);
    const size_t name = decl.find(g.name);
    const size_t open = name == std::string_view::npos ? name : decl.find('[', name);
    const size_t close = open == std::string_view::npos ? open : decl.find(']', open);
    if (close == std::string_view::npos)
      throw ExportError("the size of pool '" + g.name + "' is not written as an array bound", where(g.range));
    edits_.replace(g.range.begin + static_cast<uint32_t>(open + 1), g.range.begin + static_cast<uint32_t>(close),
                   std::to_string(bytes));
  }

  // A member of one of the file's constant pool structs, with its whole line.
  struct Member {
    const CGlobal* pool = nullptr;
    const CField* field = nullptr;
  };

  Member member(const std::string& name) const {
    for (const CGlobal& g : e_.program->globals) {
      if (!g.is_struct || !in_file(g.range)) continue;
      for (const CField& f : g.fields) {
        if (f.name == name && in_file(f.range)) return {&g, &f};
      }
    }
    throw ExportError("constant '" + name + "' is not a member of a constant pool in " + path());
  }

  // The alignment C gives a member: aligned(N) raises it (and packed lowers it first to 1).
  static int64_t member_alignment(const CField& f, std::string_view line) {
    const bool packed = line.find("packed") != std::string_view::npos;
    const int64_t natural = std::max<int64_t>(1, f.element_bytes);
    if (f.alignment > 0) return packed ? f.alignment : std::max(f.alignment, natural);
    return packed ? 1 : natural;
  }

  // The initialiser ".name = {...}," of a member, as whole lines of the struct's initialiser.
  std::pair<size_t, size_t> initializer(const CGlobal& g, const std::string& name) const {
    if (!in_file(g.init_range)) throw ExportError("pool '" + g.name + "' has no initialiser", where(g.range));
    const std::string key = "." + name;
    for (size_t at = text_.find(key, g.init_range.begin); at != std::string_view::npos && at < g.init_range.end;
         at = text_.find(key, at + 1)) {
      const size_t after = at + key.size();
      if (after < text_.size() && is_identifier_char(text_[after])) continue;
      const size_t eq = text_.find_first_not_of(" \t\n", after);
      if (eq == std::string_view::npos || text_[eq] != '=') continue;
      size_t i = text_.find_first_not_of(" \t\n", eq + 1);
      int depth = 0;
      for (; i < g.init_range.end; ++i) {
        if (text_[i] == '{') ++depth;
        if (text_[i] == '}' && --depth == 0) break;
      }
      if (i >= g.init_range.end) break;
      const size_t comma = text_.find_first_not_of(" \t", i + 1);
      const size_t end = comma != std::string_view::npos && text_[comma] == ',' ? comma + 1 : i + 1;
      return {line_start(at), next_line(end)};
    }
    throw ExportError("the data of constant '" + name + "' is not in the initialiser of '" + g.name + "'",
                      where(g.init_range));
  }

  void constant_pool(const CGlobal& g, const ExportPool& pool, std::vector<PoolConstant> constants) {
    std::stable_sort(constants.begin(), constants.end(),
                     [](const PoolConstant& a, const PoolConstant& b) { return a.offset < b.offset; });
    bool same = constants.size() == g.fields.size();
    for (size_t i = 0; same && i < constants.size(); ++i)
      same = g.fields[i].name == constants[i].name && g.fields[i].offset_bytes == constants[i].offset;
    if (same) return;
    if (g.fields.empty() || !in_file(g.fields.front().range) || !in_file(g.fields.back().range))
      throw ExportError("the members of pool '" + g.name + "' are not written in " + path(), where(g.range));
    const size_t members_begin = line_start(g.fields.front().range.begin);
    const size_t members_end = next_line(g.fields.back().range.end);
    std::string members;
    std::string data;
    int64_t end = 0;
    int padding = 0;
    for (const PoolConstant& c : constants) {
      const Member m = member(c.name);
      const size_t begin = line_start(m.field->range.begin);
      std::string line(text_.substr(begin, next_line(m.field->range.end) - begin));
      const int64_t align = member_alignment(*m.field, line);
      const int64_t natural = align_up(end, align);
      if (c.offset < natural || c.offset % align != 0)
        throw ExportError("constant '" + c.name + "' cannot be at offset " + std::to_string(c.offset) + " of pool '" +
                              pool.name + "': its member is aligned to " + std::to_string(align) +
                              " bytes and the one before it ends at " + std::to_string(end),
                          where(m.field->range));
      if (c.offset > natural)
        members += "  uint8_t usmpx_padding_" + std::to_string(padding++) + "[" + std::to_string(c.offset - end) +
                   "]; // keeps the planned offset of " + c.name + "\n";
      static const std::regex offset_comment("aligned offset: [0-9]+");
      members += std::regex_replace(line, offset_comment, "aligned offset: " + std::to_string(c.offset),
                                    std::regex_constants::format_first_only);
      end = c.offset + m.field->size_bytes;
      const auto [init_begin, init_end] = initializer(*m.pool, c.name);
      data += std::string(text_.substr(init_begin, init_end - init_begin));
    }
    edits_.replace(static_cast<uint32_t>(members_begin), static_cast<uint32_t>(members_end), members);
    size_t first = text_.size();
    size_t last = 0;
    for (const CField& f : g.fields) {
      const auto [b, e] = initializer(g, f.name);
      first = std::min(first, b);
      last = std::max(last, e);
    }
    edits_.replace(static_cast<uint32_t>(first), static_cast<uint32_t>(last), data);
    total_size_comment(g, pool.size_bytes);
  }

  // TVM ends the definition with "};// of total size N bytes".
  void total_size_comment(const CGlobal& g, int64_t bytes) {
    const std::string key = "of total size ";
    const size_t at = text_.find(key, g.init_range.end);
    if (at == std::string_view::npos || at > next_line(g.init_range.end)) return;
    const size_t digits = at + key.size();
    size_t stop = digits;
    while (stop < text_.size() && std::isdigit(static_cast<unsigned char>(text_[stop])))
      ++stop;
    edits_.replace(static_cast<uint32_t>(digits), static_cast<uint32_t>(stop), std::to_string(bytes));
  }

  // ".<tensor> = &((uint8_t*)workspace_pools-><pool>)[<offset>]," entries of a map function.
  void io_map(const std::string& suffix, const std::vector<IoPlacement>& map) {
    if (map.empty()) return;
    const CFunction* fn = nullptr;
    for (const CFunction& f : e_.program->functions) {
      if (f.is_definition && in_file(f.body_range) && f.name.size() > suffix.size() &&
          f.name.compare(f.name.size() - suffix.size(), suffix.size(), suffix) == 0)
        fn = &f;
    }
    if (!fn) throw ExportError(path() + " defines no function ending in " + suffix + " for the I/O in the pools");
    static const std::regex entry(R"(\.(\w+)\s*=\s*&\(\(uint8_t\*\)\s*workspace_pools->(\w+)\)\[([0-9]+)\])");
    const std::string body(text_.substr(fn->body_range.begin, fn->body_range.end - fn->body_range.begin));
    for (auto it = std::sregex_iterator(body.begin(), body.end(), entry); it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      const auto io = std::find_if(map.begin(), map.end(), [&](const IoPlacement& p) { return p.tensor == m.str(1); });
      if (io == map.end()) continue;
      const auto at = [&](int group) { return fn->body_range.begin + static_cast<uint32_t>(m.position(group)); };
      const auto len = [&](int group) { return static_cast<uint32_t>(m.length(group)); };
      if (m.str(2) != io->pool) edits_.replace(at(2), at(2) + len(2), io->pool);
      if (m.str(3) != std::to_string(io->offset)) edits_.replace(at(3), at(3) + len(3), std::to_string(io->offset));
    }
  }

  const Lib0Edit& e_;
  const Lib0Spec& s_;
  std::string_view text_;
  TextEdits edits_;
  std::vector<std::string> notes_;
  size_t open_paren_ = 0;
};

}  // namespace

Lib0EditResult edit_lib0_source(const Lib0Edit& edit) {
  return Lib0Editor(edit).run();
}

}  // namespace usmpx
