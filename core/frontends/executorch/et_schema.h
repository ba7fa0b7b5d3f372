#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <flatbuffers/flatbuffers.h>

// Facts of ExecuTorch's published program schema (schema/program.fbs, identifier "ET12") the
// tool relies on: field ids of the tables it reads, union and enum values. Only these; the rest
// of the schema is skipped. A union takes two ids: its type (id) and its value (id + 1).
namespace usmpx::et_schema {

namespace program {
inline constexpr int kVersion = 0, kExecutionPlan = 1, kConstantBuffer = 2, kBackendDelegateData = 3, kSegments = 4,
                     kConstantSegment = 5, kMutableDataSegments = 6, kNamedData = 7;
}
namespace plan {
inline constexpr int kName = 0, kContainerMetaType = 1, kValues = 2, kInputs = 3, kOutputs = 4, kChains = 5,
                     kOperators = 6, kDelegates = 7, kNonConstBufferSizes = 8, kNonConstBufferDevice = 9;
}
namespace evalue {
inline constexpr int kValType = 0, kVal = 1;
}
namespace tensor {
inline constexpr int kScalarType = 0, kStorageOffset = 1, kSizes = 2, kDimOrder = 3, kRequiresGrad = 4,
                     kDataBufferIdx = 5, kAllocationInfo = 6, kLayout = 7, kShapeDynamism = 8, kExtraTensorInfo = 9;
}
namespace allocation {
inline constexpr int kMemoryId = 0, kOffsetLow = 1, kOffsetHigh = 2, kFieldCount = 3;
}
namespace extra_tensor_info {
inline constexpr int kMutableDataSegmentsIdx = 0, kFullyQualifiedName = 1, kLocation = 2;
}
namespace list {
inline constexpr int kItems = 0;  // IntList, TensorList, OptionalTensorList, ...
}
namespace chain {
inline constexpr int kInputs = 0, kOutputs = 1, kInstructions = 2, kStacktrace = 3;
}
namespace instruction {
inline constexpr int kArgsType = 0, kArgs = 1;
}
namespace kernel_call {
inline constexpr int kOpIndex = 0, kArgs = 1;  // DelegateCall: delegate_index, args
}
namespace move_call {
inline constexpr int kFrom = 0, kTo = 1;
}
namespace jump_false_call {
inline constexpr int kCondValueIndex = 0, kDestination = 1;
}
namespace free_call {
inline constexpr int kValueIndex = 0;
}
namespace op {
inline constexpr int kName = 0, kOverload = 1;
}
namespace delegate {
inline constexpr int kId = 0, kProcessed = 1, kCompileSpecs = 2;
}
namespace data_reference {
inline constexpr int kLocation = 0, kIndex = 1;
}
namespace segment {
inline constexpr int kOffset = 0, kSize = 1;
}
namespace subsegment {
inline constexpr int kSegmentIndex = 0, kOffsets = 1;
}
namespace named_data {
inline constexpr int kKey = 0, kSegmentIndex = 1;
}

// union KernelTypes (EValue.val).
enum class ValueType : uint8_t {
  kNone = 0,
  kNull = 1,
  kInt = 2,
  kBool = 3,
  kDouble = 4,
  kTensor = 5,
  kString = 6,
  kIntList = 7,
  kDoubleList = 8,
  kBoolList = 9,
  kTensorList = 10,
  kOptionalTensorList = 11,
};
inline constexpr uint8_t kValueTypeCount = 12;

// union InstructionArguments.
enum class InstructionType : uint8_t {
  kNone = 0,
  kKernelCall = 1,
  kDelegateCall = 2,
  kMoveCall = 3,
  kJumpFalseCall = 4,
  kFreeCall = 5,
};
inline constexpr uint8_t kInstructionTypeCount = 6;

// TensorShapeDynamism.
inline constexpr int8_t kDynamicUnbound = 2;
// DataLocation of a delegate's processed blob.
inline constexpr int8_t kInline = 0, kSegment = 1;

// The ScalarType's schema name ("FLOAT"), or "TYPE_<n>".
std::string scalar_type_name(int type);
// Bytes per element (as ExecuTorch's elementSize), or nullopt for types it cannot size.
std::optional<int64_t> scalar_type_size(int type);
std::string value_type_name(ValueType type);
std::string instruction_type_name(InstructionType type);

}  // namespace usmpx::et_schema
