#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tvm/tir/attr_value.h"
#include "frontends/tvm/tir/dtype.h"
#include "model/buffer.h"

// The TIR tree both dump readers produce: a module of PrimFuncs whose bodies are statements over
// expressions, close to TVM's own node types so that analyses can follow TVM rule for rule and a
// code generator can emit C from the operator bodies. Nodes are immutable once built and shared
// through shared_ptr<const ...>; variables and buffers are compared by identity, as in TVM. Every
// node carries the SourceLocation of its first token.
namespace usmpx::tir {

struct Stmt;
using StmtRef = std::shared_ptr<const Stmt>;

// A variable: loop variable, parameter, let binding or the data pointer of a buffer/allocation.
struct Var {
  std::string name;
  DataType dtype = DataType::int_(32);  // handle for pointers
  std::optional<DataType> pointee;      // element type of a typed pointer (T.handle("int8"))
  std::string storage_scope;            // of a pointer ("global", "global.workspace"); may be empty
  SourceLocation location;              // where it was defined
};
using VarRef = std::shared_ptr<Var>;

// A view of memory: the data pointer plus element type and shape (TVM's tir.Buffer).
struct Buffer {
  std::string name;
  VarRef data;
  DataType dtype = DataType::float_(32);
  std::vector<ExprRef> shape;
  std::vector<ExprRef> strides;
  ExprRef elem_offset;  // null when not given (zero)
  std::string scope = "global";
  int64_t data_alignment = -1;  // -1 when not given
  int64_t offset_factor = 0;    // 0 when not given
  SourceLocation location;

  // dtype.bytes() times the product of the shape when every extent is a non-negative constant.
  std::optional<int64_t> static_size_bytes() const;
};
using BufferRef = std::shared_ptr<const Buffer>;

// ---------------------------------------------------------------------------------------------
// Expressions

enum class ExprKind {
  kIntImm,
  kFloatImm,
  kStringImm,
  kVar,
  kBufferLoad,
  kCall,
  kBinary,
  kNot,
  kCast,
  kSelect,
  kRamp,
  kBroadcast,
  kOpaque
};

struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = default;
  Expr& operator=(const Expr&) = delete;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

  const ExprKind kind;
  DataType dtype = DataType::int_(32);
  SourceLocation location;
};

struct IntImm : Expr {
  static constexpr ExprKind kKind = ExprKind::kIntImm;
  IntImm() : Expr(kKind) {}
  int64_t value = 0;
};

struct FloatImm : Expr {
  static constexpr ExprKind kKind = ExprKind::kFloatImm;
  FloatImm() : Expr(kKind) {}
  double value = 0.0;
};

struct StringImm : Expr {
  static constexpr ExprKind kKind = ExprKind::kStringImm;
  StringImm() : Expr(kKind) {}
  std::string value;
};

// A use of a variable.
struct VarUse : Expr {
  static constexpr ExprKind kKind = ExprKind::kVar;
  VarUse() : Expr(kKind) {}
  VarRef var;
};

struct BufferLoad : Expr {
  static constexpr ExprKind kKind = ExprKind::kBufferLoad;
  BufferLoad() : Expr(kKind) {}
  BufferRef buffer;
  std::vector<ExprRef> indices;
};

// A call of a TVM builtin or intrinsic ("call_extern", "tvm_call_cpacked", "address_of",
// "if_then_else", "lookup_param", "exp", "q_multiply_shift", ... without the "tir." or "T."
// prefix), or, when `global` is set, of a function by name. Unknown operators are kept.
struct Call : Expr {
  static constexpr ExprKind kKind = ExprKind::kCall;
  Call() : Expr(kKind) {}
  std::string op;
  bool global = false;
  std::vector<ExprRef> args;
};

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kFloorDiv,
  kFloorMod,
  kMin,
  kMax,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr
};

std::string_view to_string(BinaryOp op);
bool is_comparison(BinaryOp op);

struct Binary : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinary;
  Binary() : Expr(kKind) {}
  BinaryOp op = BinaryOp::kAdd;
  ExprRef a;
  ExprRef b;
};

struct Not : Expr {
  static constexpr ExprKind kKind = ExprKind::kNot;
  Not() : Expr(kKind) {}
  ExprRef a;
};

struct Cast : Expr {
  static constexpr ExprKind kKind = ExprKind::kCast;
  Cast() : Expr(kKind) {}
  ExprRef value;
};

struct Select : Expr {
  static constexpr ExprKind kKind = ExprKind::kSelect;
  Select() : Expr(kKind) {}
  ExprRef condition;
  ExprRef true_value;
  ExprRef false_value;
};

struct Ramp : Expr {
  static constexpr ExprKind kKind = ExprKind::kRamp;
  Ramp() : Expr(kKind) {}
  ExprRef base;
  ExprRef stride;
  int lanes = 1;
};

struct Broadcast : Expr {
  static constexpr ExprKind kKind = ExprKind::kBroadcast;
  Broadcast() : Expr(kKind) {}
  ExprRef value;
  int lanes = 1;
};

// Something the printer wrote that has no meaning here (e.g. metadata["..."][0]), kept verbatim.
struct Opaque : Expr {
  static constexpr ExprKind kKind = ExprKind::kOpaque;
  Opaque() : Expr(kKind) {}
  std::string text;
};

// ---------------------------------------------------------------------------------------------
// Statements

enum class StmtKind {
  kAllocate,
  kAllocateConst,
  kDeclBuffer,
  kLet,
  kAttr,
  kAssert,
  kFor,
  kIfThenElse,
  kSeq,
  kEvaluate,
  kBufferStore
};

struct Stmt {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt&) = default;
  Stmt& operator=(const Stmt&) = delete;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

  const StmtKind kind;
  SourceLocation location;
};

struct Allocate : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAllocate;
  Allocate() : Stmt(kKind) {}
  VarRef var;  // the data pointer
  DataType dtype;
  std::vector<ExprRef> extents;
  std::string scope = "global";
  ExprRef condition;  // null when always true
  Attrs annotations;
  StmtRef body;

  // dtype.bytes() (all lanes) times the product of the extents, when every extent is constant.
  std::optional<int64_t> static_size_bytes() const;
};

struct AllocateConst : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAllocateConst;
  AllocateConst() : Stmt(kKind) {}
  VarRef var;
  DataType dtype;
  std::vector<ExprRef> extents;
  std::vector<ExprRef> data;  // as printed; TVMScript truncates long payloads, legacy prints none
  Attrs annotations;
  StmtRef body;

  std::optional<int64_t> static_size_bytes() const;
};

struct DeclBuffer : Stmt {
  static constexpr StmtKind kKind = StmtKind::kDeclBuffer;
  DeclBuffer() : Stmt(kKind) {}
  BufferRef buffer;
  StmtRef body;
};

struct LetStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kLet;
  LetStmt() : Stmt(kKind) {}
  VarRef var;
  ExprRef value;
  StmtRef body;
};

struct AttrStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAttr;
  AttrStmt() : Stmt(kKind) {}
  AttrValue node;
  std::string key;
  ExprRef value;
  StmtRef body;
};

struct AssertStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAssert;
  AssertStmt() : Stmt(kKind) {}
  ExprRef condition;
  ExprRef message;
  StmtRef body;
};

enum class ForKind { kSerial, kParallel, kVectorized, kUnrolled, kThreadBinding };

std::string_view to_string(ForKind kind);

struct For : Stmt {
  static constexpr StmtKind kKind = StmtKind::kFor;
  For() : Stmt(kKind) {}
  VarRef loop_var;
  ExprRef min;
  ExprRef extent;
  ForKind loop_kind = ForKind::kSerial;
  std::string thread_tag;  // kThreadBinding only
  Attrs annotations;
  StmtRef body;
};

struct IfThenElse : Stmt {
  static constexpr StmtKind kKind = StmtKind::kIfThenElse;
  IfThenElse() : Stmt(kKind) {}
  ExprRef condition;
  StmtRef then_case;
  StmtRef else_case;  // may be null
};

struct SeqStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kSeq;
  SeqStmt() : Stmt(kKind) {}
  std::vector<StmtRef> seq;
};

struct Evaluate : Stmt {
  static constexpr StmtKind kKind = StmtKind::kEvaluate;
  Evaluate() : Stmt(kKind) {}
  ExprRef value;
};

struct BufferStore : Stmt {
  static constexpr StmtKind kKind = StmtKind::kBufferStore;
  BufferStore() : Stmt(kKind) {}
  BufferRef buffer;
  ExprRef value;
  std::vector<ExprRef> indices;
};

// ---------------------------------------------------------------------------------------------
// Functions and modules

// A parameter bound to a buffer (T.match_buffer, a T.Buffer parameter, legacy buffer_map).
struct BufferBinding {
  VarRef param;
  BufferRef buffer;
};

struct PrimFunc {
  std::string name;  // the module's name for it: the def name, or the legacy "@name =" prefix
  std::vector<VarRef> params;
  std::vector<BufferBinding> buffer_map;  // in parameter order
  Attrs attrs;
  StmtRef body;
  DataType ret_type = DataType::void_();
  SourceLocation location;

  // The buffer bound to a parameter, or null.
  BufferRef buffer_of(const Var* param) const;
  // The "global_symbol" attribute, when it is a string.
  std::optional<std::string> global_symbol() const;
  // The "target" attribute as a target string ("c -keys=arm_cpu,cpu"); empty when absent.
  std::string target() const;
};

// The constant value of an IntImm, else nullopt.
std::optional<int64_t> constant_int(const Expr* e);

struct Module {
  std::vector<PrimFunc> functions;
  Attrs attrs;  // I.module_attrs(...)

  const PrimFunc* find(std::string_view name) const;
};

}  // namespace usmpx::tir
