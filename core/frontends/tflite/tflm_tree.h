#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontends/tflite/tflm_version.h"

namespace usmpx {

// One fact a TFLM source tree shows about its version, read from one file of the tree.
struct TflmTreeFact {
  std::string name;                   // "FULLY_CONNECTED's op data"
  std::string file;                   // the file it is read from, relative to the tree
  bool found = false;                 // the file and what the fact is read from were there
  std::string value;                  // what the source shows, or why it was not found
  std::vector<TflmVersion> versions;  // the known versions whose kernels show the same
};

// What a firmware's TFLM tree says of its version.
struct TflmTreeVersion {
  std::optional<TflmVersion> version;  // the one known version every fact found fits
  std::vector<TflmTreeFact> facts;
  std::string summary;  // "2024-05-29 (...)" or "cannot tell ...: missing ..."
};

// Recognises the TFLM version of the source tree at `dir` (the folder holding
// tensorflow/lite/micro) from its kernels' telltale facts: which builtins
// MicroMutableOpResolver registers, FULLY_CONNECTED's op data struct, how many scratch buffers
// MEAN/SUM request, how many persistent buffers CONCATENATION allocates. The sources are lexed
// with libclang as data; nothing is compiled. Throws ConfigError when `dir` holds no
// tensorflow/lite/micro.
TflmTreeVersion recognise_tflm_tree(const std::string& dir);

// The version to model for --tflm-tree DIR and --tflm-version NAME (either may be empty): the
// tree's, which must agree with NAME when both are given. Throws ConfigError when the tree's
// version cannot be told (naming the facts missing) or disagrees. `said` gets one line saying
// what the tree showed ("" without a tree).
std::string tflm_version_from_tree(const std::string& dir, std::string_view version, std::string* said);

}  // namespace usmpx
