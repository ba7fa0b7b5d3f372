#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <flatbuffers/flatbuffers.h>

namespace usmpx {

// A field's slot in its table's vtable: 4 + 2 * id.
constexpr flatbuffers::voffset_t flatbuffer_slot(int id) {
  return static_cast<flatbuffers::voffset_t>(4 + 2 * id);
}

// How a model file's refusals name it: "points outside the file" / "... the program", "the
// model's tables refer to the same lists and names over and over ...; not a real model".
struct FlatbufferWords {
  const char* container;  // where offsets must point: "file", "program"
  const char* owner;      // whose tables repeat themselves: "model", "program"
  const char* repeated;   // what they repeat: "lists and names", "lists"
  uint64_t copy_factor;   // a copy may reach this many times the file's size (plus 4 MiB)
};

// Reads a flatbuffer (a TFLite model, an ExecuTorch program) field by field through flatbuffers'
// Verifier and Table primitives: every position is checked before it is followed, and what is
// copied out is bounded by the file's size, so a hostile file ends in an InputError, never in a
// read out of bounds or an unbounded copy. A family's reader derives from it and adds its tables.
class FlatbufferWalker {
 protected:
  // `verified_size`: the flatbuffer's own bytes (a program's segments may follow them).
  FlatbufferWalker(std::string_view bytes, size_t verified_size, const std::string& path, FlatbufferWords words,
                   size_t max_tables);

  [[noreturn]] void fail(const std::string& message) const;

  static constexpr flatbuffers::voffset_t slot(int id) { return flatbuffer_slot(id); }

  // The position a uoffset stored at `pos` points to, checked to lie inside the file.
  uint64_t offset_target(uint64_t pos, const std::string& what);
  // The table at `pos`, its vtable checked; each call is ended by verifier_.EndTable().
  const flatbuffers::Table* table(uint64_t pos, const std::string& what);
  uint32_t field_count(uint64_t table_pos) const;  // the fields its vtable has room for

  template <typename T>
  T scalar(const flatbuffers::Table* t, int id, T fallback, const std::string& what) {
    if (!t->VerifyField<T>(verifier_, slot(id), sizeof(T))) fail(what + " lies outside the " + words_.container);
    return t->GetField<T>(slot(id), fallback);
  }

  uint64_t field_position(const flatbuffers::Table* t, int id) const;                   // 0 when the field is absent
  uint64_t offset_field(const flatbuffers::Table* t, int id, const std::string& what);  // its target, or 0
  // A vector's element count after checking that the whole vector lies inside the file.
  uint32_t vector_length(uint64_t pos, size_t element_size, const std::string& what);
  // Tables and strings may be shared, so a small file could make its copy huge: counts `bytes`
  // against the bound.
  void charge(uint64_t bytes);

  std::vector<uint64_t> table_vector(const flatbuffers::Table* t, int id, const std::string& what);
  std::string string_field(const flatbuffers::Table* t, int id, const std::string& what);

  template <typename T>
  std::vector<T> scalar_vector(const flatbuffers::Table* t, int id, const std::string& what) {
    const uint64_t pos = offset_field(t, id, what);
    if (pos == 0) return {};
    const uint32_t n = vector_length(pos, sizeof(T), what);
    charge(sizeof(T) * uint64_t{n});
    std::vector<T> values(n);
    for (uint32_t i = 0; i < n; ++i)
      values[i] = flatbuffers::ReadScalar<T>(base_ + pos + 4 + sizeof(T) * i);
    return values;
  }

  std::string_view bytes_;
  const uint8_t* base_;
  const std::string& path_;
  flatbuffers::Verifier verifier_;

 private:
  FlatbufferWords words_;
  uint64_t copied_ = 0;
};

// Bytes as text a message can carry: printable ASCII as is, the rest as \xNN.
std::string printable_bytes(std::string_view text);

}  // namespace usmpx
