// Resource variables: VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE (var_handle.cc, read_variable.cc,
// assign_variable.cc, micro_resource_variable.cc at kTflmVersion).
#include <algorithm>

#include "frontends/tflite/kernels/tflm_kernel_families.h"
#include "frontends/tflite/tflite_schema.h"

namespace usmpx {
namespace {

namespace sc = tflite_schema;

constexpr TflmOptionsStruct kVarHandleOptions{8, 4, 16, 8};  // {const char* container, shared_name}

// The resource key of the tensor a VAR_HANDLE in the subgraph writes, "" when none does.
std::string resource_key(const TflmOp& op, int32_t tensor_index) {
  for (const TfliteOperator& producer : op.subgraph.operators) {
    if (sc::builtin_name(op.model.operator_codes[producer.opcode_index].builtin_code) != "VAR_HANDLE") continue;
    if (std::find(producer.outputs.begin(), producer.outputs.end(), tensor_index) != producer.outputs.end())
      return producer.resource_name;
  }
  return "";
}

// ASSIGN_VARIABLE's Prepare: the resource's buffer, the first time the resource is assigned.
std::vector<int64_t> resource_assignment(const TflmOp& op, TflmResourceState* resources) {
  const TfliteTensor* value = op.input(1);
  const std::string key = op.op.inputs.empty() ? "" : resource_key(op, op.op.inputs[0]);
  bool first = true;
  if (resources) {
    first = std::find(resources->assigned.begin(), resources->assigned.end(), key) == resources->assigned.end();
    if (first) resources->assigned.push_back(key);
  }
  if (!first || !value) return {};
  return {elements(*value) * sc::type_size(value->type).value_or(4)};
}

std::optional<TflmRefusal> var_handle_refusal(const TflmOp& /*op*/) {
  return TflmRefusal{
      "the application creates a MicroResourceVariables store (MicroResourceVariables::Create(allocator, "
      "max_variables)) and passes it to the MicroInterpreter's constructor",
      "the model keeps resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) (TFLM: \"VAR_HANDLE requires "
      "resource variables. Please create ResourceVariables and pass it to the interpreter.\")"};
}

constexpr std::string_view kAssignVariableProven[] = {"RESOURCE>-"};
constexpr std::string_view kReadVariableProven[] = {"RESOURCE>FLOAT32"};
constexpr std::string_view kVarHandleProven[] = {"->RESOURCE"};

// The versions' driver created no MicroResourceVariables store, so their recordings refused ASSIGN_VARIABLE: no figure
// of it.
constexpr TflmVersionChange kAssignVariableVersions[] = {not_measured_before_90b983c("ASSIGN_VARIABLE *")};

// The versions' driver created no MicroResourceVariables store, so their recordings refused READ_VARIABLE: no figure of
// it.
constexpr TflmVersionChange kReadVariableVersions[] = {not_measured_before_90b983c("READ_VARIABLE *")};

// The versions' driver created no MicroResourceVariables store, so their recordings refused VAR_HANDLE: no figure of
// it.
constexpr TflmVersionChange kVarHandleVersions[] = {not_measured_before_90b983c("VAR_HANDLE *")};

}  // namespace

const TflmKernel kResourceKernels[] = {
    {.name = "ASSIGN_VARIABLE",
     .prepare = resource_assignment,
     .proven = kAssignVariableProven,
     .versions = kAssignVariableVersions},
    {.name = "READ_VARIABLE", .proven = kReadVariableProven, .versions = kReadVariableVersions},
    {.name = "VAR_HANDLE",
     .options = kVarHandleOptions,
     .init = same_init(4),
     .refusal = var_handle_refusal,
     .proven = kVarHandleProven,
     .versions = kVarHandleVersions},
};
constinit const std::span<const TflmKernel> kTflmResourceKernels = kResourceKernels;

}  // namespace usmpx
