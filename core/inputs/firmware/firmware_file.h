#pragma once

// The firmware file (`*.usmpx-firmware.json`, "format": "usmpx-firmware", version 1): several
// models one firmware runs, how it runs them (the schedule), the tensors one model hands the next
// without a copy, and the memory they share. See docs/several-models.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/source_location.h"

namespace usmpx {

inline constexpr std::string_view kFirmwareFormat = "usmpx-firmware";
inline constexpr int kFirmwareVersion = 1;
inline constexpr std::string_view kFirmwareSuffix = ".usmpx-firmware.json";

// How the firmware runs its models.
//  - sequence: in the listed order, one after the other, the whole sequence repeated; a model's
//    memory may be reused by the next, and a tensor may pass from one model to a later one.
//  - exclusive: one at a time, in any order (modes); memory may be reused, nothing passes.
//  - concurrent: they may run at the same time (threads, interrupts, pre-emption): nothing is shared.
enum class FirmwareSchedule { kSequence, kExclusive, kConcurrent };
std::string_view to_string(FirmwareSchedule schedule);
std::optional<FirmwareSchedule> parse_firmware_schedule(std::string_view text);

struct FirmwareModel {
  std::string name;         // unique within the file; buffers of the joint plan are "name/buffer"
  std::string path;         // as written in the file (relative to the file's folder unless absolute)
  std::string module;       // for inputs with several modules; "" = the first
  std::string module_name;  // the name its export gives the module (TVM: as --module-name); "" = its own
  std::string family;       // "tflite", "tvm", "executorch"; "" = judged from the input
  SourceLocation where;
  std::string resolved_path;  // path joined to the file's folder
};

// One model's output read by a later model as its input, in place: one buffer for both.
struct PassedTensor {
  std::string from;    // model name
  std::string output;  // buffer name in `from`
  std::string to;      // model name
  std::string input;   // buffer name in `to`
  SourceLocation where;
};

// A pool several models share (a TFLM arena of one MicroAllocator, TVM's workspace pool, an
// ExecuTorch memory id): each member model's pool of that name, or the one `members` names.
struct SharedPool {
  std::string name;
  int64_t size_bytes = -1;  // -1: not given (unrestricted; the plan says what it needs)
  std::vector<std::pair<std::string, std::string>>
      members;  // model name, that model's pool; empty = every model's pool `name`
  SourceLocation where;
};

// A size given to one model's own pool (not shared).
struct PrivatePool {
  std::string model;
  std::string pool;
  int64_t size_bytes = -1;
  SourceLocation where;
};

struct FirmwareSpec {
  std::string path;  // of the firmware file
  std::vector<FirmwareModel> models;
  FirmwareSchedule schedule = FirmwareSchedule::kSequence;
  std::vector<PassedTensor> passed;
  std::vector<SharedPool> shared;
  std::vector<PrivatePool> private_pools;
  std::string tflm_kernels;  // "" = the default build
  std::string tflm_target;

  std::optional<int> find_model(std::string_view name) const;
};

// Reads and checks a firmware file (names unique, references resolved, passes only forward in a
// sequence). Throws InputError at file:line:column.
FirmwareSpec read_firmware_file(const std::string& path);
FirmwareSpec parse_firmware_text(std::string_view text, const std::string& path);

// The file's text for `spec` (paths as written), deterministic, ending in a newline.
std::string firmware_file_text(const FirmwareSpec& spec);

// Whether a file is a firmware file: by its name, or a .json whose first 512 bytes declare the format.
bool looks_like_firmware_file(const std::string& path, std::string_view head);

}  // namespace usmpx
