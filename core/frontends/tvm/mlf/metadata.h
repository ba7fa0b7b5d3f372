#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

// One model input or output as metadata.json lists it (TVM 0.11+ only).
struct MlfTensor {
  std::string name;
  std::string dtype;
  int64_t size_bytes = -1;
};

struct MlfOperatorWorkspace {
  std::string function;
  int64_t workspace_size_bytes = 0;
};

// What metadata.json says about one module: the v7 "modules" entry, or the whole file for v1-v6.
struct MlfModuleMetadata {
  std::string name;                    // the v7 key, else model_name
  std::string style;                   // "full-model", "operator", or "" before v4
  std::vector<std::string> executors;  // "runtimes" before v5
  std::vector<std::string> targets;    // v1-v5 map values in key order, v6+ list
  std::vector<MlfTensor> inputs;       // in file order (TVM sorts the keys)
  std::vector<MlfTensor> outputs;
  int64_t workspace_size_bytes = -1;  // of the main function's first device, -1 when absent
  int64_t constants_size_bytes = -1;
  int64_t io_size_bytes = -1;
  std::vector<MlfOperatorWorkspace> operators;
};

struct MlfMetadata {
  int version = 0;
  std::vector<MlfModuleMetadata> modules;  // in file order; one module before v7
};

// Reads metadata.json of MLF versions 1 to 7 (flat and "modules" forms). Throws InputError with
// file:line:column for malformed JSON, unsupported versions and values of the wrong type.
MlfMetadata read_mlf_metadata(std::string_view text, const std::string& file);

}  // namespace usmpx
