#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontends/executorch/et_schema.h"

namespace usmpx {

// The parts of an ExecuTorch program (schema "ET12") that memory planning needs, copied out of a
// verified file. Positions are byte offsets into the file, kept for the exporter.

// A Tensor's AllocationDetails: where the memory plan puts it.
struct EtAllocation {
  uint32_t memory_id = 0;
  uint64_t offset = 0;          // memory_offset_low | memory_offset_high << 32
  uint64_t field_position = 0;  // the Tensor's allocation_info field (a uoffset), for the exporter
};

struct EtTensor {
  int scalar_type = 0;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  uint32_t data_buffer_idx = 0;  // > 0: constant data, or the initial state of a mutable buffer
  int8_t shape_dynamism = 0;
  std::optional<EtAllocation> allocation;  // set: memory-planned
  std::string fully_qualified_name;        // from extra_tensor_info, "" when absent
  bool external = false;                   // data in a .ptd file (ExtraTensorInfo.location EXTERNAL)
  int64_t nbytes = 0;                      // elements x element size (0 for unknown types)
};

struct EtValue {
  et_schema::ValueType type = et_schema::ValueType::kNone;
  std::optional<EtTensor> tensor;  // kTensor
  std::vector<int32_t> items;      // TensorList / OptionalTensorList: value indices (-1 = None)
  int64_t int_value = 0;           // kInt, kBool
  double double_value = 0;         // kDouble
  std::vector<int64_t> numbers;    // IntList: indices of Int values; BoolList: the bools
  size_t list_length = 0;          // IntList, DoubleList, BoolList, String: element count
};

struct EtInstruction {
  et_schema::InstructionType type = et_schema::InstructionType::kNone;
  int32_t index = 0;          // KernelCall: operator; DelegateCall: delegate
  std::vector<int32_t> args;  // KernelCall / DelegateCall: value indices
  int32_t from = 0, to = 0;   // MoveCall
  int32_t condition = 0;      // JumpFalseCall: the bool value
  int32_t destination = 0;    // JumpFalseCall: instruction index
  int32_t value = 0;          // FreeCall
};

struct EtOperator {
  std::string name;
  std::string overload;
  std::string full_name() const { return overload.empty() ? name : name + "." + overload; }
};

struct EtDelegate {
  std::string id;  // the backend ("ArmBackend", "XnnpackBackend", ...)
  int8_t location = 0;
  uint32_t index = 0;
  size_t compile_specs = 0;
};

struct EtMethod {
  std::string name;
  std::vector<EtValue> values;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<EtInstruction> instructions;  // chain 0
  size_t chains = 0;
  std::vector<EtOperator> operators;
  std::vector<EtDelegate> delegates;
  std::vector<int64_t> buffer_sizes;  // non_const_buffer_sizes (entry 0 reserved)
  bool has_buffer_devices = false;    // non_const_buffer_device present
  uint64_t table_position = 0;
  uint64_t buffer_sizes_field = 0;  // position of the non_const_buffer_sizes uoffset (0: absent)
};

struct EtSegment {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// The optional extended header at byte 8 ("eh00").
struct EtExtendedHeader {
  uint32_t length = 0;
  uint64_t program_size = 0;
  uint64_t segment_base_offset = 0;
  std::optional<uint64_t> segment_data_size;  // from ExecuTorch 1.0, when the header is long enough
};

struct EtProgram {
  uint32_t version = 0;
  std::optional<EtExtendedHeader> header;
  std::vector<EtMethod> methods;
  std::vector<EtSegment> segments;
  size_t constant_buffers = 0;                   // deprecated inline constant_buffer entries
  size_t constant_offsets = 0;                   // constant_segment.offsets entries
  std::vector<uint64_t> constant_offset_values;  // constant_segment.offsets (entry 0: a placeholder)
  // The deprecated inline constant_buffer: per entry, the file position and length of its storage.
  std::vector<std::pair<uint64_t, uint64_t>> constant_storage;
  uint32_t constant_segment = 0;        // constant_segment.segment_index
  size_t delegate_data = 0;             // backend_delegate_data entries
  std::vector<std::string> named_data;  // keys
  uint64_t flatbuffer_size = 0;         // bytes of the flatbuffer: the header's program_size, else the file
};

// Largest .pte read (flatbuffers address at most 2 GB; segments past it are allowed).
inline constexpr uint64_t kMaxEtFlatbufferBytes = (uint64_t{1} << 31) - 1;
inline constexpr uint64_t kMaxEtFileBytes = uint64_t{1} << 34;

// The identifier at bytes 4..8 is "ET" and two digits.
bool has_et_identifier(std::string_view bytes);

// Verifies `bytes` as an ExecuTorch program and copies out what the tool needs. Every offset
// and length is checked before it is followed; a bad file throws InputError "path: message".
EtProgram read_et_program(std::string_view bytes, const std::string& path);

// Reads the whole file (bounded by kMaxEtFileBytes).
std::string read_et_file(const std::string& path);

}  // namespace usmpx
