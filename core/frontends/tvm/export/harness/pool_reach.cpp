#include "frontends/tvm/export/harness/pool_reach.h"

#include <map>
#include <set>

#include "base/archive_path.h"
#include "frontends/tvm/c_analysis/clang_reader.h"
#include "frontends/tvm/c_analysis/liveness_walk.h"
#include "frontends/tvm/c_analysis/tvm_code.h"
#include "frontends/tvm/export/harness/code_needs.h"

namespace usmpx {
namespace {

std::string upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::vector<PoolOverrun> find_pool_overruns(const ExportBundle& bundle) {
  // The module: its interface header tvmgen_<mod>.h.
  const ExportFile* header = nullptr;
  for (const ExportFile& f : bundle.files) {
    const std::string name = base_name(f.path);
    if (!f.path.starts_with("harness/") && name.starts_with("tvmgen_") && name.ends_with(".h") && !header) header = &f;
  }
  if (!header) return {};
  const std::string header_name = base_name(header->path);
  const std::string module = header_name.substr(7, header_name.size() - 9);
  CParseInput in;
  for (const std::string& path : harness_model_sources(bundle)) {
    if (const ExportFile* f = bundle.find(path)) in.sources.push_back({f->path, f->data});
  }
  in.macro_headers.push_back({header->path, header->data});
  add_bundle_headers(in, bundle, "harness/");
  const CProgram program = parse_c_program(in);
  const TvmCode code = recognise_tvm_code(program, module, "(harness)");
  if (!code.usmp()) return {};
  const WalkResult walk = walk_entry(program, code, {}, "(harness)");
  // What the harness allocates per pool.
  std::map<std::string, std::pair<int64_t, std::string>> arrays;
  for (const InternalPool& p : code.internal_pools) {
    if (!p.constant && p.range.valid())
      arrays[p.name] = {p.size_bytes, base_name(program.files[static_cast<size_t>(p.range.file)].path)};
  }
  for (const auto& [pool, bytes] : code.external_pool_sizes) {
    if (!code.external_constant_pools.count(pool))
      arrays[pool] = {bytes, "TVMGEN_" + upper(module) + "_" + upper(pool) + "_WORKSPACE_POOL_SIZE in " + header_name};
  }
  std::map<std::string, PoolOverrun> farthest;
  for (const WalkBuffer& b : walk.buffers) {
    if (b.source != WalkBufferSource::kPoolLet || b.index < 0) continue;
    const PoolLet& let = code.lets[static_cast<size_t>(b.index)];
    const int64_t bytes = b.accesses.implied_bytes();
    const auto array = arrays.find(let.pool);
    if (bytes <= 0 || array == arrays.end() || let.offset + bytes <= array->second.first) continue;
    PoolOverrun& o = farthest[let.pool];
    if (let.offset + bytes <= o.reach) continue;
    o.pool = let.pool;
    o.array_bytes = array->second.first;
    o.declared_by = array->second.second;
    o.reach = let.offset + bytes;
    o.buffer = program.functions[static_cast<size_t>(let.function)].variables[static_cast<size_t>(let.variable)].name;
    o.offset = let.offset;
    o.bytes = bytes;
    o.file = let.statement.valid() ? base_name(program.files[static_cast<size_t>(let.statement.file)].path) : "";
    o.line = let.statement.line;
  }
  std::vector<PoolOverrun> out;
  for (auto& [pool, o] : farthest)
    out.push_back(std::move(o));
  return out;
}

}  // namespace usmpx
