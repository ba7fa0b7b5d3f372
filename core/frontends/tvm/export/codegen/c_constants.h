#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontends/tvm/export/codegen/c_context.h"
#include "frontends/tvm/tir/node.h"

// The data of constants for the C export: the values an AllocateConst carries, completed with
// zeros when the dump printed only some (TVMScript prints about 200, the legacy printer none),
// as file-scope arrays in the host module or as pool constants for lib0.c.
namespace usmpx::cexport {

struct ConstantData {
  tir::DataType dtype;
  std::string c_type;
  int64_t elements = 0;
  int64_t printed = 0;  // how many values the dump gave
  std::vector<uint8_t> bytes;
};

// Reads the values of an AllocateConst. ExportError for non-constant values, more values than
// elements, dynamic extents or types constant_text cannot print.
ConstantData constant_data(const tir::AllocateConst& a);

// Zero data of `elements` elements (a post-USMP constant whose values the dump does not hold).
ConstantData zero_constant_data(tir::DataType dtype, int64_t elements, const SourceLocation& at);

// Records the note about a constant the dump printed only in part.
void note_truncated(ModuleState& module, const std::string& name, const ConstantData& data, const SourceLocation& at);

// The file-scope array of an unplanned constant, in TVM's linked-parameter form.
std::string constant_array_block(const std::string& name, const ConstantData& data, bool used);

// The constant as lib0.c needs it.
TirConstant pool_constant(const std::string& name, const ConstantData& data, const TirPlacement& placement);

}  // namespace usmpx::cexport
