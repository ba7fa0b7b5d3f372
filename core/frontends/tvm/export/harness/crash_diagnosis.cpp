#include "frontends/tvm/export/harness/crash_diagnosis.h"

#include <algorithm>
#include <csignal>

#include "base/archive_path.h"
#include "base/size_text.h"
#include "frontends/tvm/export/harness/board_layout.h"
#include "frontends/tvm/export/harness/pool_reach.h"

namespace usmpx {
namespace {

bool pointer_type(const std::string& type) {
  return type.find('*') != std::string::npos || type.find('[') != std::string::npos;
}

bool integral_type(const CExpr& e) {
  return !pointer_type(e.type) && e.type.find("float") == std::string::npos &&
         e.type.find("double") == std::string::npos && e.type != "void" && e.type_bytes > 0;
}

// Whether `e` (under casts to integers as wide as a pointer, `(uintptr_t)p`) is a pointer.
bool holds_pointer(const CExpr& e) {
  if (pointer_type(e.type)) return true;
  if (e.kind == CExprKind::kCast && integral_type(e) && e.type_bytes >= 8 && !e.args.empty())
    return holds_pointer(e.args[0]);
  return false;
}

bool narrow_integer(const std::string& type, int64_t bytes) {
  return bytes > 0 && bytes < 8 && !pointer_type(type) && type.find("float") == std::string::npos &&
         type.find("double") == std::string::npos && type.find("struct") == std::string::npos;
}

// Casts of pointers to narrower integers, written (`(uint32_t)(uintptr_t)p`) or implicit (an
// integer initialised or assigned from a pointer, which C compilers only warn about).
struct TruncationFinder {
  const CProgram& program;
  const CFunction& function;
  std::vector<PointerTruncation>& found;

  void add(const CRange& at, int64_t bytes) {
    PointerTruncation t;
    t.function = function.name;
    t.file = base_name(program.files[static_cast<size_t>(at.file)].path);
    t.line = at.line;
    t.bits = static_cast<int>(bytes * 8);
    t.text = std::string(program.files[static_cast<size_t>(at.file)].text.substr(at.begin, at.end - at.begin));
    found.push_back(std::move(t));
  }

  void expr(const CExpr& e) {
    if (e.kind == CExprKind::kCast && integral_type(e) && e.type_bytes < 8 && !e.args.empty() &&
        holds_pointer(e.args[0])) {
      add(e.range, e.type_bytes);
      return;
    }
    if (e.kind == CExprKind::kBinary && e.text == "=" && e.args.size() == 2 &&
        narrow_integer(e.args[0].type, e.args[0].type_bytes) && pointer_type(e.args[1].type)) {
      add(e.range, e.args[0].type_bytes);
      return;
    }
    for (const CExpr& a : e.args)
      expr(a);
  }
  void function_body() {
    const size_t first = found.size();
    for (const CVariable& v : function.variables) {  // initialisers: `uint32_t row = (uint32_t)p;`
      if (!v.init) continue;
      if (!v.is_param && narrow_integer(v.type, v.type_bytes) && pointer_type(v.init->type) && v.range.valid()) {
        add(v.range, v.type_bytes);
      } else {
        expr(*v.init);
      }
    }
    stmt(function.body);
    std::stable_sort(found.begin() + static_cast<std::ptrdiff_t>(first), found.end(),
                     [](const PointerTruncation& a, const PointerTruncation& b) { return a.line < b.line; });
  }
  void stmt(const CStmt& s) {
    for (const CExpr& e : s.exprs)
      expr(e);
    for (const CStmt& b : s.body)
      stmt(b);
  }
};

bool model_file(const CProgram& p, int file) {
  return file >= 0 && !p.files[static_cast<size_t>(file)].path.starts_with("harness/");
}

std::string what(const std::string& function) {
  return (function.starts_with("tvmgen_") ? "operator " : "function ") + function;
}

}  // namespace

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    default: return "signal " + std::to_string(signal);
  }
}

namespace {

std::vector<PointerTruncation> truncations_in(const CProgram& program) {
  std::vector<PointerTruncation> found;
  for (const CFunction& f : program.functions) {
    if (!f.is_definition || !model_file(program, f.range.file)) continue;
    TruncationFinder{program, f, found}.function_body();
  }
  return found;
}

}  // namespace

std::vector<PointerTruncation> find_pointer_truncations(const ExportBundle& bundle) {
  return truncations_in(parse_harness_code(bundle, kHostTriple).program);
}

CrashDiagnosis diagnose_host_crash(const ExportBundle& original, int signal, int64_t host_stack_bytes) {
  CrashDiagnosis d;
  d.signal = signal_name(signal);
  const HarnessCode code = parse_harness_code(original, kHostTriple);
  const BoardMemory memory = board_memory(code);
  // The deepest chain of locals against the host's stack; the model's function with the most
  // locals is the one to name.
  const int64_t deepest = memory.frames.empty() ? 0 : memory.frames.front().chain_bytes;
  if (host_stack_bytes > 0 && deepest + kStackMarginBytes > host_stack_bytes) {
    const StackFrame* largest = nullptr;
    for (const StackFrame& f : memory.frames) {
      if (f.file != "main.c" && f.file != "platform.c" && (!largest || f.locals_bytes > largest->locals_bytes))
        largest = &f;
    }
    d.cause = CrashCause::kStack;
    d.stack_bytes = deepest;
    if (largest) {
      d.function = largest->function;
      d.file = largest->file;
      d.line = largest->line;
    }
    d.because = (largest ? what(largest->function) + " declares " + with_separators(largest->locals_bytes) +
                               " bytes of locals (" + largest->file + ":" + std::to_string(largest->line) + "); "
                         : std::string()) +
                "the deepest chain of calls needs " + with_separators(deepest) + " bytes of stack, the host gives " +
                format_size(host_stack_bytes);
    d.retry_target = "host";
    d.retry_stack_bytes = (deepest + kStackMarginBytes + kMiB - 1) / kMiB * kMiB;
    return d;
  }
  // A pool array smaller than the code reaches: the boards allocate the same arrays.
  if (const std::vector<PoolOverrun> overruns = find_pool_overruns(original); !overruns.empty()) {
    const PoolOverrun& o = overruns.front();
    d.cause = CrashCause::kPool;
    d.file = o.file;
    d.line = o.line;
    d.because = "pool " + o.pool + ": the harness allocates " + with_separators(o.array_bytes) + " bytes (" +
                o.declared_by + "), the code uses " + with_separators(o.reach) + " bytes (" + o.buffer + ": " +
                with_separators(o.bytes) + " bytes at offset " + with_separators(o.offset) + ", " + o.file + ":" +
                std::to_string(o.line) + ")";
    d.not_retried =
        "every target allocates the pool at the size the model declares; give the header and the sources "
        "TVM wrote together";
    return d;
  }
  const std::vector<PointerTruncation> found = truncations_in(code.program);
  d.retry_target = "cortex-m4";
  if (!found.empty()) {
    const PointerTruncation& t = found.front();
    d.cause = CrashCause::kPointer32;
    d.function = t.function;
    d.file = t.file;
    d.line = t.line;
    d.because = what(t.function) + " keeps a pointer in a " + std::to_string(t.bits) + "-bit integer (" + t.file + ":" +
                std::to_string(t.line) + ": " + t.text + ")" +
                (found.size() == 2  ? ", and 1 more such cast"
                 : found.size() > 2 ? ", and " + std::to_string(found.size() - 1) + " more such casts"
                                    : "") +
                "; on this 64-bit machine the address is cut";
    return d;
  }
  d.because =
      "no cause the tool recognises (no function's locals outgrow the host's stack, no pointer is kept in a 32-bit "
      "integer)";
  return d;
}

}  // namespace usmpx
