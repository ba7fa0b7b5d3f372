// Reads an ExecuTorch program through flatbuffers' Verifier and Table primitives, one field at a
// time by the ids in et_schema.h: every position is checked before it is followed, so a hostile
// file ends in an InputError, never in a read out of bounds.
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/input_error.h"
#include "frontends/executorch/et_program.h"
#include "frontends/flatbuffer_walker.h"

namespace usmpx {
namespace {

namespace fb = flatbuffers;
namespace sc = et_schema;

uint64_t read_u64(std::string_view bytes, size_t pos) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + pos, 8);  // little-endian file, little-endian host
  return v;
}
uint32_t read_u32(std::string_view bytes, size_t pos) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + pos, 4);
  return v;
}

class Reader : FlatbufferWalker {
 public:
  Reader(std::string_view bytes, uint64_t flatbuffer_size, const std::string& path)
      : FlatbufferWalker(bytes, flatbuffer_size, path, {"program", "program", "lists", 8}, 4000000) {}

  void read(EtProgram& p) {
    const fb::Table* root = table(offset_target(0, "the root offset"), "the Program table");
    p.version = scalar<uint32_t>(root, sc::program::kVersion, 0, "Program.version");
    for (uint64_t pos : table_vector(root, sc::program::kSegments, "Program.segments")) {
      const fb::Table* t = table(pos, "a DataSegment");
      p.segments.push_back({scalar<uint64_t>(t, sc::segment::kOffset, 0, "DataSegment.offset"),
                            scalar<uint64_t>(t, sc::segment::kSize, 0, "DataSegment.size")});
      verifier_.EndTable();
    }
    for (uint64_t pos : table_vector(root, sc::program::kConstantBuffer, "Program.constant_buffer")) {
      const fb::Table* t = table(pos, "a constant Buffer");
      uint64_t at = 0, n = 0;
      if (const uint64_t v = offset_field(t, 0, "Buffer.storage")) {
        n = vector_length(v, 1, "Buffer.storage");
        at = v + 4;
      }
      p.constant_storage.push_back({at, n});
      verifier_.EndTable();
    }
    p.constant_buffers = p.constant_storage.size();
    p.delegate_data = table_vector(root, sc::program::kBackendDelegateData, "Program.backend_delegate_data").size();
    if (const uint64_t cs = offset_field(root, sc::program::kConstantSegment, "Program.constant_segment")) {
      const fb::Table* t = table(cs, "Program.constant_segment");
      p.constant_segment = scalar<uint32_t>(t, sc::subsegment::kSegmentIndex, 0, "constant_segment.segment_index");
      p.constant_offset_values = scalar_vector<uint64_t>(t, sc::subsegment::kOffsets, "constant_segment.offsets");
      p.constant_offsets = p.constant_offset_values.size();
      verifier_.EndTable();
      if (p.constant_offsets > 1 && p.constant_segment >= p.segments.size())
        fail("the constant segment is segment " + std::to_string(p.constant_segment) + " of " +
             std::to_string(p.segments.size()));
    }
    for (uint64_t pos : table_vector(root, sc::program::kNamedData, "Program.named_data")) {
      const fb::Table* t = table(pos, "a NamedData entry");
      p.named_data.push_back(string_field(t, sc::named_data::kKey, "NamedData.key"));
      verifier_.EndTable();
    }
    const auto plans = table_vector(root, sc::program::kExecutionPlan, "Program.execution_plan");
    if (plans.empty()) fail("the program has no method (execution_plan is empty)");
    for (size_t m = 0; m < plans.size(); ++m)
      p.methods.push_back(method(plans[m], m));
    verifier_.EndTable();
  }

 private:
  EtTensor tensor(const fb::Table* t, const std::string& where) {
    EtTensor x;
    x.scalar_type = scalar<int8_t>(t, sc::tensor::kScalarType, 0, where + ".scalar_type");
    x.sizes = scalar_vector<int32_t>(t, sc::tensor::kSizes, where + ".sizes");
    x.dim_order = scalar_vector<uint8_t>(t, sc::tensor::kDimOrder, where + ".dim_order");
    x.data_buffer_idx = scalar<uint32_t>(t, sc::tensor::kDataBufferIdx, 0, where + ".data_buffer_idx");
    x.shape_dynamism = scalar<int8_t>(t, sc::tensor::kShapeDynamism, 0, where + ".shape_dynamism");
    const int32_t storage = scalar<int32_t>(t, sc::tensor::kStorageOffset, 0, where + ".storage_offset");
    if (storage != 0) fail(where + " has storage_offset " + std::to_string(storage) + "; ExecuTorch supports only 0");
    int64_t n = 1;
    for (int32_t d : x.sizes) {
      if (d < 0) fail(where + " has a negative size " + std::to_string(d));
      if (d != 0 && n > (int64_t{1} << 40) / d) fail(where + " is larger than 1 TB");
      n *= d;
    }
    x.nbytes = n * sc::scalar_type_size(x.scalar_type).value_or(0);
    if (const uint64_t info_field = field_position(t, sc::tensor::kAllocationInfo)) {
      const fb::Table* a = table(offset_target(info_field, where + ".allocation_info"), where + ".allocation_info");
      EtAllocation alloc;
      alloc.memory_id = scalar<uint32_t>(a, sc::allocation::kMemoryId, 0, where + " memory_id");
      const uint64_t low = scalar<uint32_t>(a, sc::allocation::kOffsetLow, 0, where + " memory_offset_low");
      const uint64_t high = scalar<uint32_t>(a, sc::allocation::kOffsetHigh, 0, where + " memory_offset_high");
      alloc.offset = low | (high << 32);
      alloc.field_position = info_field;
      verifier_.EndTable();
      x.allocation = alloc;
    }
    if (const uint64_t extra = offset_field(t, sc::tensor::kExtraTensorInfo, where + ".extra_tensor_info")) {
      const fb::Table* e = table(extra, where + ".extra_tensor_info");
      x.fully_qualified_name = string_field(e, sc::extra_tensor_info::kFullyQualifiedName, where + " name");
      x.external = scalar<int8_t>(e, sc::extra_tensor_info::kLocation, 0, where + " location") == 1;
      verifier_.EndTable();
    }
    return x;
  }

  EtValue value(uint64_t pos, const std::string& where) {
    const fb::Table* t = table(pos, where);
    EtValue v;
    const uint8_t type = scalar<uint8_t>(t, sc::evalue::kValType, 0, where + ".val_type");
    if (type >= sc::kValueTypeCount) fail(where + " has value type " + std::to_string(type) + ", unknown");
    v.type = static_cast<sc::ValueType>(type);
    const uint64_t val = v.type == sc::ValueType::kNone ? 0 : offset_field(t, sc::evalue::kVal, where + ".val");
    if (val != 0) {
      const fb::Table* u = table(val, where + " (" + sc::value_type_name(v.type) + ")");
      switch (v.type) {
        case sc::ValueType::kTensor: v.tensor = tensor(u, where); break;
        case sc::ValueType::kInt: v.int_value = scalar<int64_t>(u, 0, 0, where + ".int_val"); break;
        case sc::ValueType::kBool: v.int_value = scalar<uint8_t>(u, 0, 0, where + ".bool_val"); break;
        case sc::ValueType::kTensorList:
        case sc::ValueType::kOptionalTensorList:
          v.items = scalar_vector<int32_t>(u, sc::list::kItems, where + ".items");
          v.list_length = v.items.size();
          break;
        case sc::ValueType::kIntList:  // items: indices of Int values
          v.numbers = scalar_vector<int64_t>(u, sc::list::kItems, where + ".items");
          v.list_length = v.numbers.size();
          break;
        case sc::ValueType::kDouble: v.double_value = scalar<double>(u, 0, 0.0, where + ".double_val"); break;
        case sc::ValueType::kDoubleList:
          if (const uint64_t items = offset_field(u, sc::list::kItems, where + ".items"))
            v.list_length = vector_length(items, 8, where + ".items");
          break;
        case sc::ValueType::kBoolList:
          for (uint8_t b : scalar_vector<uint8_t>(u, sc::list::kItems, where + ".items"))
            v.numbers.push_back(b);
          v.list_length = v.numbers.size();
          break;
        case sc::ValueType::kString: v.list_length = string_field(u, 0, where + ".string_val").size(); break;
        default: break;
      }
      verifier_.EndTable();
    } else if (v.type == sc::ValueType::kTensor) {
      fail(where + " is a Tensor without its table");
    }
    verifier_.EndTable();
    return v;
  }

  EtInstruction instruction(uint64_t pos, const std::string& where) {
    const fb::Table* t = table(pos, where);
    EtInstruction in;
    const uint8_t type = scalar<uint8_t>(t, sc::instruction::kArgsType, 0, where + ".instr_args_type");
    if (type == 0 || type >= sc::kInstructionTypeCount)
      fail(where + " has instruction type " + std::to_string(type) + ", unknown");
    in.type = static_cast<sc::InstructionType>(type);
    const uint64_t args = offset_field(t, sc::instruction::kArgs, where + ".instr_args");
    if (args == 0) fail(where + " (" + sc::instruction_type_name(in.type) + ") has no arguments table");
    const fb::Table* a = table(args, where + " arguments");
    switch (in.type) {
      case sc::InstructionType::kKernelCall:
      case sc::InstructionType::kDelegateCall:
        in.index = scalar<int32_t>(a, sc::kernel_call::kOpIndex, 0, where + " index");
        in.args = scalar_vector<int32_t>(a, sc::kernel_call::kArgs, where + ".args");
        break;
      case sc::InstructionType::kMoveCall:
        in.from = scalar<int32_t>(a, sc::move_call::kFrom, 0, where + ".move_from");
        in.to = scalar<int32_t>(a, sc::move_call::kTo, 0, where + ".move_to");
        break;
      case sc::InstructionType::kJumpFalseCall:
        in.condition = scalar<int32_t>(a, sc::jump_false_call::kCondValueIndex, 0, where + ".cond_value_index");
        in.destination = scalar<int32_t>(a, sc::jump_false_call::kDestination, 0, where + ".destination_instruction");
        break;
      case sc::InstructionType::kFreeCall:
        in.value = scalar<int32_t>(a, sc::free_call::kValueIndex, 0, where + ".value_index");
        break;
      default: break;
    }
    verifier_.EndTable();
    verifier_.EndTable();
    return in;
  }

  void check_value(int32_t v, const EtMethod& m, bool none_allowed, const std::string& what) {
    if ((v == -1 && none_allowed) || (v >= 0 && static_cast<size_t>(v) < m.values.size())) return;
    fail(what + " names value " + std::to_string(v) + " but method '" + m.name + "' has " +
         std::to_string(m.values.size()));
  }

  EtMethod method(uint64_t pos, size_t index) {
    const std::string where = "method " + std::to_string(index);
    const fb::Table* t = table(pos, where);
    EtMethod m;
    m.table_position = pos;
    m.name = string_field(t, sc::plan::kName, where + ".name");
    const std::string at = "method '" + m.name + "'";
    const auto values = table_vector(t, sc::plan::kValues, at + ".values");
    for (size_t v = 0; v < values.size(); ++v)
      m.values.push_back(value(values[v], at + " value " + std::to_string(v)));
    m.inputs = scalar_vector<int32_t>(t, sc::plan::kInputs, at + ".inputs");
    m.outputs = scalar_vector<int32_t>(t, sc::plan::kOutputs, at + ".outputs");
    check_value_lists(m, at);
    for (uint64_t o : table_vector(t, sc::plan::kOperators, at + ".operators")) {
      const fb::Table* ot = table(o, at + " operator");
      m.operators.push_back({string_field(ot, sc::op::kName, at + " operator name"),
                             string_field(ot, sc::op::kOverload, at + " operator overload")});
      verifier_.EndTable();
    }
    for (uint64_t d : table_vector(t, sc::plan::kDelegates, at + ".delegates"))
      m.delegates.push_back(delegate(d, at));
    const auto chains = table_vector(t, sc::plan::kChains, at + ".chains");
    m.chains = chains.size();
    if (!chains.empty()) {
      const fb::Table* ct = table(chains[0], at + " chain 0");
      const auto instructions = table_vector(ct, sc::chain::kInstructions, at + " chain 0 instructions");
      for (size_t i = 0; i < instructions.size(); ++i)
        m.instructions.push_back(instruction(instructions[i], at + " instruction " + std::to_string(i)));
      verifier_.EndTable();
    }
    for (size_t i = 0; i < m.instructions.size(); ++i)
      check_instruction(m, m.instructions[i], at + " instruction " + std::to_string(i));
    m.buffer_sizes_field = field_position(t, sc::plan::kNonConstBufferSizes);
    m.buffer_sizes = scalar_vector<int64_t>(t, sc::plan::kNonConstBufferSizes, at + ".non_const_buffer_sizes");
    m.has_buffer_devices = field_position(t, sc::plan::kNonConstBufferDevice) != 0;
    for (size_t b = 0; b < m.buffer_sizes.size(); ++b) {
      if (m.buffer_sizes[b] < 0)
        fail(at + " planned buffer " + std::to_string(b) + " has a negative size " + std::to_string(m.buffer_sizes[b]));
    }
    check_planned_tensors(m, at);
    verifier_.EndTable();
    return m;
  }

  EtDelegate delegate(uint64_t pos, const std::string& at) {
    const fb::Table* dt = table(pos, at + " delegate");
    EtDelegate del;
    del.id = string_field(dt, sc::delegate::kId, at + " delegate id");
    if (const uint64_t ref = offset_field(dt, sc::delegate::kProcessed, at + " delegate data")) {
      const fb::Table* rt = table(ref, at + " delegate data");
      del.location = scalar<int8_t>(rt, sc::data_reference::kLocation, 0, at + " delegate data location");
      del.index = scalar<uint32_t>(rt, sc::data_reference::kIndex, 0, at + " delegate data index");
      verifier_.EndTable();
    }
    del.compile_specs = table_vector(dt, sc::delegate::kCompileSpecs, at + " compile specs").size();
    verifier_.EndTable();
    return del;
  }

  // The method's inputs, outputs and the items of its lists name values it has.
  void check_value_lists(const EtMethod& m, const std::string& at) {
    for (int32_t v : m.inputs)
      check_value(v, m, false, at + ".inputs");
    for (int32_t v : m.outputs)
      check_value(v, m, false, at + ".outputs");
    for (size_t v = 0; v < m.values.size(); ++v) {
      for (int32_t item : m.values[v].items)
        check_value(item, m, true, at + " value " + std::to_string(v) + " (a list)");
    }
  }

  // An instruction names values, operators, delegates and instructions the method has.
  void check_instruction(const EtMethod& m, const EtInstruction& in, const std::string& what) {
    for (int32_t a : in.args)
      check_value(a, m, true, what);
    switch (in.type) {
      case sc::InstructionType::kKernelCall:
        if (in.index < 0 || static_cast<size_t>(in.index) >= m.operators.size())
          fail(what + " calls operator " + std::to_string(in.index) + " of " + std::to_string(m.operators.size()));
        break;
      case sc::InstructionType::kDelegateCall:
        if (in.index < 0 || static_cast<size_t>(in.index) >= m.delegates.size())
          fail(what + " calls delegate " + std::to_string(in.index) + " of " + std::to_string(m.delegates.size()));
        break;
      case sc::InstructionType::kMoveCall:
        check_value(in.from, m, false, what);
        check_value(in.to, m, false, what);
        break;
      case sc::InstructionType::kJumpFalseCall:
        check_value(in.condition, m, false, what);
        if (in.destination < 0 || static_cast<size_t>(in.destination) >= m.instructions.size())
          fail(what + " jumps to instruction " + std::to_string(in.destination) + " of " +
               std::to_string(m.instructions.size()));
        break;
      case sc::InstructionType::kFreeCall: check_value(in.value, m, false, what); break;
      default: break;
    }
  }

  // The runtime refuses a tensor past its buffer's end (load_method); so does the reader.
  void check_planned_tensors(const EtMethod& m, const std::string& at) {
    for (size_t v = 0; v < m.values.size(); ++v) {
      const auto& x = m.values[v].tensor;
      if (!x || !x->allocation) continue;
      const uint32_t id = x->allocation->memory_id;
      const std::string tw = at + " value " + std::to_string(v);
      if (id == 0 || id >= m.buffer_sizes.size())
        fail(tw + " is planned into memory id " + std::to_string(id) + " but the method has " +
             std::to_string(m.buffer_sizes.size() > 0 ? m.buffer_sizes.size() - 1 : 0) + " planned buffer(s)");
      const uint64_t end = x->allocation->offset + static_cast<uint64_t>(x->nbytes);
      if (x->allocation->offset > static_cast<uint64_t>(m.buffer_sizes[id]) ||
          end > static_cast<uint64_t>(m.buffer_sizes[id]))
        fail(tw + " lies at offset " + std::to_string(x->allocation->offset) + " (" + std::to_string(x->nbytes) +
             " bytes) past the end of planned buffer " + std::to_string(id) + " (" +
             std::to_string(m.buffer_sizes[id]) + " bytes)");
    }
  }
};

}  // namespace

bool has_et_identifier(std::string_view bytes) {
  return bytes.size() >= 8 && bytes[4] == 'E' && bytes[5] == 'T' &&
         std::isdigit(static_cast<unsigned char>(bytes[6])) && std::isdigit(static_cast<unsigned char>(bytes[7]));
}

EtProgram read_et_program(std::string_view bytes, const std::string& path) {
  auto fail = [&](const std::string& message) { throw InputError({path, 0, 0}, message); };
  if (bytes.size() < 8) fail("too short for an ExecuTorch program (" + std::to_string(bytes.size()) + " bytes)");
  if (bytes.substr(4, 4) != "ET12")
    fail("not an ExecuTorch program this tool reads: the flatbuffer identifier at bytes 4..8 is '" +
         printable_bytes(bytes.substr(4, 4)) + "', expected 'ET12'");
  EtProgram p;
  p.flatbuffer_size = bytes.size();
  if (bytes.size() >= 16 && bytes.substr(8, 4) == "eh00") {
    EtExtendedHeader h;
    h.length = read_u32(bytes, 12);
    if (h.length < 24 || bytes.size() < 8 + uint64_t{h.length})
      fail("the extended header says it holds " + std::to_string(h.length) + " bytes; the file has " +
           std::to_string(bytes.size()) + " (truncated?)");
    h.program_size = read_u64(bytes, 16);
    h.segment_base_offset = read_u64(bytes, 24);
    if (h.length >= 32) h.segment_data_size = read_u64(bytes, 32);
    if (h.program_size > bytes.size())
      fail("the extended header says the program holds " + std::to_string(h.program_size) +
           " bytes but the file has only " + std::to_string(bytes.size()) + " (truncated)");
    if (h.program_size < 8 + uint64_t{h.length})
      fail("the extended header's program size " + std::to_string(h.program_size) + " is smaller than the header");
    if (h.segment_base_offset != 0 && h.segment_base_offset < h.program_size)
      fail("the extended header puts the segments at byte " + std::to_string(h.segment_base_offset) +
           ", inside the program (" + std::to_string(h.program_size) + " bytes)");
    if (h.segment_base_offset > bytes.size())
      fail("the extended header puts the segments at byte " + std::to_string(h.segment_base_offset) +
           ", past the end of the file (" + std::to_string(bytes.size()) + " bytes; truncated)");
    p.flatbuffer_size = h.program_size;
    p.header = h;
  }
  if (p.flatbuffer_size >= kMaxEtFlatbufferBytes)
    fail("the program is larger than 2 GB, which no flatbuffer can address");
  Reader(bytes, p.flatbuffer_size, path).read(p);
  // Segments lie after the segment base, inside the file.
  const uint64_t segment_base = p.header ? p.header->segment_base_offset : 0;
  for (size_t s = 0; s < p.segments.size(); ++s) {
    const EtSegment& seg = p.segments[s];
    if (seg.size == 0) continue;
    if (!p.header || segment_base == 0)
      fail("segment " + std::to_string(s) + " holds " + std::to_string(seg.size) +
           " bytes but the file has no extended header saying where segments start");
    if (seg.offset > bytes.size() || seg.size > bytes.size() - seg.offset ||
        segment_base + seg.offset + seg.size > bytes.size())
      fail("segment " + std::to_string(s) + " (offset " + std::to_string(seg.offset) + ", " + std::to_string(seg.size) +
           " bytes after byte " + std::to_string(segment_base) + ") lies past the end of the file (" +
           std::to_string(bytes.size()) + " bytes; truncated)");
  }
  return p;
}

std::string read_et_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError({path, 0, 0}, "cannot read: " + ec.message());
  if (size > kMaxEtFileBytes) throw InputError({path, 0, 0}, "larger than 16 GB; not read");
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) throw InputError({path, 0, 0}, "cannot read");
  return bytes;
}

}  // namespace usmpx
