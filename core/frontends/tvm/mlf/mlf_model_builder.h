#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontends/tvm/mlf/mlf_model.h"
#include "frontends/tvm/mlf/relay_signature.h"
#include "frontends/tvm/usmp/pool_assignment.h"
#include "model/conflict_graph.h"

namespace usmpx {

// Builds one module's MlfModel: its I/O, pools, buffers, liveness and as-built plan. Its members
// live by concept in mlf_model_builder.cpp (the steps, liveness and the as-built plan),
// mlf_model_pools.cpp (pools: targets, sizes, alignments) and mlf_model_buffers.cpp (buffer sizes).
// One class for a reason: the steps interleave (a pool's alignment from TVM's plan needs the
// buffers, a buffer's size the pools' declared sizes) and each reads what the others found.
class MlfModelBuilder {
 public:
  static constexpr int64_t kDefaultAlignment = 16;  // TVM's workspace- and constant-byte-alignment defaults

  MlfModelBuilder(MlfModel& model, const MlfModule& module, const MlfLoadOptions& options)
      : m_(model), module_(module), options_(options), root_(model.package->path) {}

  void build();

 private:
  // A tree without <mod>_lib0.c, which the firmware tree note names already.
  bool lib0_named_missing() const;
  void append(const std::vector<Diagnostic>& ds);
  const CFunction* entry() const;
  SourceLocation location(const CRange& r) const;
  SourceLocation display(const CRange& r) const;
  bool is_pool_param(int fn, int var) const;
  // Names of the entry's leading I/O parameters: the interface header's struct fields when there
  // is a header, else metadata.json's, else the parameter names without "_buffer_var".
  void find_io();
  void sweep();
  // Buffers whose accesses the walk cannot vouch for are live from the first tick to the last:
  // no plan may overlap them with anything the analysis did not see apart from them. Returns the
  // memory pressure of what the walk did see, to tell what the assumption costs.
  int64_t assume_uncertain_lifetimes(const std::vector<int64_t>& sizes, const std::vector<bool>& constant,
                                     std::vector<AccessInterval>& intervals);
  void finish_as_built();
  // Constants whose data the sources do not hold (a lone operator library: the lib0.c defining
  // the constant pool is not in the input) stay where TVM's plan put them, pinned: no export could
  // write them anywhere else.
  void pin_constants_without_data();

  // mlf_model_pools.cpp
  // metadata.json's targets, then any other target named by a source's "// tvm target:" line
  // (compared without surrounding blanks: TVM prints them with a trailing space).
  std::vector<std::string> targets() const;
  std::string target_of(int function) const;
  void build_default_pools();
  // USMP on: the pools named by the pool parameters, in the entry's order (TVM sorts them by
  // name); internal ones defined in the code, external ones sized by the interface header.
  void build_usmp_pools();
  // A pool whose alignment the code does not state (no lib0.c, no aligned attribute) has the
  // alignment TVM's plan shows: the largest power of two up to TVM's default that divides every
  // offset TVM placed in it. TVM's own plan is then never judged by a rule the tool assumed.
  void alignment_from_plan(Pool& pool);
  void note_alignments_from_plan();
  // The sizes TVM wrote elsewhere bound the pools lib0.c does not declare: the header's
  // TVMGEN_<MOD>_WORKSPACE_SIZE and metadata.json's totals are sums of the pools of one kind.
  void sizes_from_totals_written();
  // metadata.json's main workspace adds the largest workspace an operator function allocates for
  // itself (0 with USMP, which gives them pools).
  int64_t largest_operator_workspace() const;

  // mlf_model_buffers.cpp
  std::optional<int64_t> io_declared_size(const std::string& name) const;
  const RelayParam* relay_param(const std::string& name) const;
  void build_buffers();
  void let_buffer(const WalkBuffer& w, Buffer& b);
  // Sizes the code does not state: the accesses, else (warned) the room up to the next buffer.
  int64_t inferred_size(const WalkBuffer& w, const PoolLet& let);
  // The room TVM's plan leaves a let buffer: up to the nearest buffer above it that it conflicts
  // with, or the pool's end; -1 when nothing bounds it.
  int64_t room_in_layout(size_t b, const ConflictLists& neighbours) const;
  // Where TVM's plan exists, a size the code does not state never reaches into the bytes TVM gave
  // a conflicting neighbour (accesses may over-read, e.g. vector loads past a tensor's end), and a
  // size nothing tells takes the whole room TVM left. Returns whether a size changed.
  bool fit_sizes_to_layout();
  void io_buffer(const WalkBuffer& w, Buffer& b);
  // Sizes inferred from accesses for the tensors passed between operators (the entry's lets)
  // that TVM's layout does not bound must be the size of some tensor type of the Relay text.
  void check_relay_types();

  MlfModel& m_;
  const MlfModule& module_;
  const MlfLoadOptions& options_;
  const std::string& root_;
  std::optional<RelaySignature> relay_;
  std::vector<std::string> io_names_;
  int inputs_ = -1;  // how many of io_names_ are inputs, -1 when unknown
  PoolAssignment assignment_;
  std::map<std::string, int64_t> declared_size_;
  int64_t workspace_alignment_ = kDefaultAlignment;
  std::map<std::string, int64_t> plan_alignment_;  // pools whose alignment comes from TVM's plan
  std::set<int> inferred_;                         // buffers whose size comes from their accesses
  std::set<int> unknown_size_;                     // of those, buffers nothing in the code gives a size
  std::vector<std::string> grown_;                 // USMP off: allocations whose accesses reach past them
};

}  // namespace usmpx
