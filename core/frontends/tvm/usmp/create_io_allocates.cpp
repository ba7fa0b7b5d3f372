#include "frontends/tvm/usmp/create_io_allocates.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "base/input_error.h"
#include "frontends/tvm/tir/depth.h"
#include "frontends/tvm/tir/walk.h"
#include "frontends/tvm/usmp/buffer_info_extractor.h"

namespace usmpx {
namespace {

using tir::Var;

// Follows main and its callees as IOAllocateCreator does, sorting the I/O buffers into inputs
// (loaded somewhere) and outputs (stored somewhere).
class IoClassifier {
 public:
  IoClassifier(const tir::Module& module, const tir::PrimFunc& main) : module_(module) {
    for (const tir::VarRef& p : main.params) {
      if (const tir::BufferRef b = main.buffer_of(p.get())) {
        io_vars_.insert(b->data.get());
        aliases_[b->data.get()] = b->data.get();
      }
    }
  }

  void run(const tir::PrimFunc& main) {
    stack_.push_back(&main);
    if (main.body) stmt(*main.body);
    if (io_vars_.size() != inputs_.size() + outputs_.size()) {
      throw InputError(main.location, "Every IO Buffer var should be categorized either to be input or output");
    }
  }

  bool is_input(const Var* v) const { return inputs_.count(v) > 0; }

 private:
  const Var* aliased_io(const Var* data) const {
    const auto it = aliases_.find(data);
    if (it == aliases_.end() || !io_vars_.count(it->second)) return nullptr;
    return it->second;
  }

  // Statements that enclose the rest of their block are followed in a loop (see enclosed_body);
  // an Allocate's condition is visited after its body, as StmtVisitor does.
  void stmt(const tir::Stmt& first) {
    const tir::WalkDepthGuard guard(depth_, first.location);
    std::vector<const tir::Expr*> after;
    const tir::Stmt* s = &first;
    while (s) {
      const tir::StmtRef* body = tir::enclosed_body(*s);
      if (!body) {
        leaf(*s);
        break;
      }
      if (const auto* a = s->as<tir::Allocate>()) {
        for (const tir::ExprRef& e : a->extents)
          expr(*e);
        if (a->condition) after.push_back(a->condition.get());
      } else if (const auto* c = s->as<tir::AllocateConst>()) {
        for (const tir::ExprRef& e : c->extents)
          expr(*e);
      } else if (const auto* let = s->as<tir::LetStmt>()) {
        expr(*let->value);
      } else if (const auto* attr = s->as<tir::AttrStmt>()) {
        expr(*attr->value);
      } else if (const auto* assertion = s->as<tir::AssertStmt>()) {
        expr(*assertion->condition);
        expr(*assertion->message);
      }
      s = body->get();
    }
    for (auto it = after.rbegin(); it != after.rend(); ++it)
      expr(**it);
  }

  // A statement that encloses no block (those that do are followed by stmt's loop).
  void leaf(const tir::Stmt& s) {
    if (const auto* store = s.as<tir::BufferStore>()) {
      if (const Var* io = aliased_io(store->buffer->data.get())) {
        if (inputs_.count(io))
          throw InputError(s.location, "BufferStore nodes should not be writing to input buffer vars.");
        outputs_.insert(io);
      }
    }
    tir::for_each_child(
        s, [this](const tir::Stmt& c) { stmt(c); }, [this](const tir::Expr& e) { expr(e); });
  }

  void expr(const tir::Expr& e) {
    const tir::WalkDepthGuard guard(depth_, e.location);
    switch (e.kind) {
      case tir::ExprKind::kBufferLoad: {
        const auto& n = static_cast<const tir::BufferLoad&>(e);
        if (const Var* io = aliased_io(n.buffer->data.get())) {
          if (outputs_.count(io))
            throw InputError(e.location, "BufferLoad nodes should not be reading from output buffer vars.");
          inputs_.insert(io);
        }
        break;
      }
      case tir::ExprKind::kCall: {
        const auto& n = static_cast<const tir::Call&>(e);
        if (const tir::PrimFunc* callee = called_function(module_, n)) {
          if (std::find(stack_.begin(), stack_.end(), callee) != stack_.end()) {
            throw InputError(n.location, "recursive call to '" + callee->name + "'");
          }
          const std::vector<tir::BufferRef> params = matched_buffers(*callee);
          const size_t args = n.args.size() - 1;
          if (args != params.size() && args != params.size() + 1) {
            throw InputError(n.location, "call to '" + callee->name + "' passes " + std::to_string(args) +
                                             " arguments for " + std::to_string(params.size()) + " buffer parameters");
          }
          for (size_t i = 0; i < params.size(); ++i) {
            const auto* use = n.args[i + 1]->as<tir::VarUse>();
            if (!use) continue;
            if (!params[i]) {
              throw InputError(n.location, "cannot follow the call to '" + callee->name + "': parameter '" +
                                               callee->params[i]->name + "' has no buffer");
            }
            aliases_[params[i]->data.get()] = use->var.get();
          }
          stack_.push_back(callee);
          if (callee->body) stmt(*callee->body);
          stack_.pop_back();
          return;
        }
        break;
      }
      default: break;
    }
    tir::for_each_child(e, [this](const tir::Expr& c) { expr(c); });
  }

  const tir::Module& module_;
  std::unordered_set<const Var*> io_vars_;
  std::unordered_set<const Var*> inputs_;
  std::unordered_set<const Var*> outputs_;
  std::unordered_map<const Var*, const Var*> aliases_;
  std::vector<const tir::PrimFunc*> stack_;
  int depth_ = 0;
};

}  // namespace

tir::Module create_allocates_for_io(const tir::Module& module, const tir::PrimFunc& main) {
  IoClassifier classifier(module, main);
  classifier.run(main);
  tir::Module out = module;
  tir::PrimFunc& new_main = *std::find_if(out.functions.begin(), out.functions.end(),
                                          [&](const tir::PrimFunc& f) { return f.name == main.name; });
  std::vector<tir::VarRef> params;
  tir::StmtRef body = main.body;
  for (const tir::VarRef& p : main.params) {
    const tir::BufferRef b = main.buffer_of(p.get());
    if (!b) {
      params.push_back(p);
      continue;
    }
    auto alloc = std::make_shared<tir::Allocate>();
    alloc->location = b->location;
    alloc->var = b->data;
    alloc->dtype = b->dtype;
    alloc->extents = b->shape;
    alloc->scope = b->data->storage_scope.empty() ? "global" : b->data->storage_scope;
    tir::AttrValue name;
    name.kind = tir::AttrValue::Kind::kString;
    name.text = p->name;
    alloc->annotations.emplace_back(classifier.is_input(b->data.get()) ? "input_tensor" : "output_tensor", name);
    alloc->body = body;
    body = alloc;
  }
  new_main.params = std::move(params);
  new_main.body = body;
  return out;
}

}  // namespace usmpx
