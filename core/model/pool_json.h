#pragma once

#include "base/json_reader.h"
#include "model/pool.h"

namespace usmpx {

// One pool object as problem and session files write it: name, kind, size_hint_bytes, alignment,
// targets ({"c": "rw"}), internal, section. `extra_keys` lists further keys the caller allows.
Pool read_pool_json(const JsonReader& reader, const JsonReader::Json& j, const JsonReader::Pointer& at,
                    std::initializer_list<std::string_view> extra_keys = {});
JsonReader::Json pool_to_json(const Pool& pool);

}  // namespace usmpx
