#include "frontends/flatbuffer_walker.h"

#include "base/input_error.h"

namespace usmpx {
namespace {

namespace fb = flatbuffers;

fb::Verifier::Options verifier_options(size_t max_tables) {
  fb::Verifier::Options o;
  o.max_depth = 16;
  o.max_tables = max_tables;
  return o;
}

}  // namespace

FlatbufferWalker::FlatbufferWalker(std::string_view bytes, size_t verified_size, const std::string& path,
                                   FlatbufferWords words, size_t max_tables)
    : bytes_(bytes),
      base_(reinterpret_cast<const uint8_t*>(bytes.data())),
      path_(path),
      verifier_(base_, verified_size, verifier_options(max_tables)),
      words_(words) {}

void FlatbufferWalker::fail(const std::string& message) const {
  throw InputError({path_, 0, 0}, message);
}

uint64_t FlatbufferWalker::offset_target(uint64_t pos, const std::string& what) {
  const fb::uoffset_t o = verifier_.VerifyOffset(static_cast<size_t>(pos));
  if (o == 0) fail(what + " at byte " + std::to_string(pos) + " points outside the " + words_.container);
  return pos + o;
}

const fb::Table* FlatbufferWalker::table(uint64_t pos, const std::string& what) {
  if (!verifier_.VerifyTableStart(base_ + pos))
    fail(what + " at byte " + std::to_string(pos) + " is damaged (its vtable lies outside the " + words_.container +
         ")");
  return reinterpret_cast<const fb::Table*>(base_ + pos);
}

uint32_t FlatbufferWalker::field_count(uint64_t table_pos) const {
  const auto* t = reinterpret_cast<const fb::Table*>(base_ + table_pos);
  const uint8_t* vtable = t->GetVTable();
  const fb::voffset_t vtable_size = fb::ReadScalar<fb::voffset_t>(vtable);
  return vtable_size < 4 ? 0 : (vtable_size - 4u) / 2;  // a damaged vtable may be shorter than its header
}

uint64_t FlatbufferWalker::field_position(const fb::Table* t, int id) const {
  const fb::voffset_t field = t->GetOptionalFieldOffset(slot(id));
  if (field == 0) return 0;
  return static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(t) - base_) + field;
}

uint64_t FlatbufferWalker::offset_field(const fb::Table* t, int id, const std::string& what) {
  const uint64_t pos = field_position(t, id);
  return pos == 0 ? 0 : offset_target(pos, what);
}

uint32_t FlatbufferWalker::vector_length(uint64_t pos, size_t element_size, const std::string& what) {
  if (!verifier_.VerifyVectorOrString(base_ + pos, element_size))
    fail(what + " at byte " + std::to_string(pos) + " runs past the end of the " + words_.container);
  return fb::ReadScalar<fb::uoffset_t>(base_ + pos);
}

void FlatbufferWalker::charge(uint64_t bytes) {
  copied_ += bytes;
  if (copied_ > words_.copy_factor * bytes_.size() + (uint64_t{1} << 22))
    fail(std::string("the ") + words_.owner + "'s tables refer to the same " + words_.repeated + " over and over (" +
         std::to_string(copied_) + " bytes to copy from a file of " + std::to_string(bytes_.size()) + "); not a real " +
         words_.owner);
}

std::vector<uint64_t> FlatbufferWalker::table_vector(const fb::Table* t, int id, const std::string& what) {
  std::vector<uint64_t> tables;
  const uint64_t pos = offset_field(t, id, what);
  if (pos == 0) return tables;
  const uint32_t n = vector_length(pos, sizeof(fb::uoffset_t), what);
  charge(8ull * n);
  tables.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    tables.push_back(offset_target(pos + 4 + 4ull * i, what + "[" + std::to_string(i) + "]"));
  return tables;
}

std::string FlatbufferWalker::string_field(const fb::Table* t, int id, const std::string& what) {
  const uint64_t pos = offset_field(t, id, what);
  if (pos == 0) return {};
  const auto* s = reinterpret_cast<const fb::String*>(base_ + pos);
  if (!verifier_.VerifyString(s)) fail(what + " at byte " + std::to_string(pos) + " is not a terminated string");
  charge(s->size());
  return std::string(s->c_str(), s->size());
}

std::string printable_bytes(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    }
  }
  return out;
}

}  // namespace usmpx
