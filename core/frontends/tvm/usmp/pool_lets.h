#pragma once

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontends/tvm/tir/node.h"
#include "frontends/tvm/usmp/buffer_info_extractor.h"
#include "model/diagnostic.h"

namespace usmpx {

// A pool as a dump written after USMP shows it: main's parameter <pool>_<k>_var, bound to a
// uint8 buffer whose length is the pool's allocated size.
struct DumpPool {
  std::string name;
  int64_t size_bytes = 0;
  bool constant = false;
};

// What ConvertPoolAllocationsToOffsets left in a dump: the pools, and every allocation turned
// into `<name>_let = address_of(<pool>_<k>_buffer_var[offset])`.
struct PostUsmpDump {
  std::vector<DumpPool> pools;
  std::unordered_map<const tir::LetStmt*, PoolLetBuffer> lets;
  std::vector<Diagnostic> warnings;
};

// The pool name a parameter named <pool>_<k>_var stands for, or nullopt.
std::optional<std::string> pool_of_parameter(const std::string& parameter);

// Finds the pools and pool lets of a post-USMP dump; nullopt when the dump has no such let
// (it was written before USMP). A pool is a constant pool when its name is in
// `constant_pool_names`. A let's size is the largest static size among the buffers that view
// its variable: buffers declared on it (T.Buffer(..., data=x), decl_buffer) or used through it,
// and the parameter buffers of the functions it is passed to. Lets without any such view are
// reported as warnings and left out.
std::optional<PostUsmpDump> find_pool_lets(const tir::Module& module, const tir::PrimFunc& main,
                                           const std::set<std::string>& constant_pool_names);

}  // namespace usmpx
