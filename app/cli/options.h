#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/pins.h"
#include "config/pool_options.h"
#include "session/session_edits.h"

namespace usmpx::cli {

// A command line that cannot be understood (exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string command;
  std::string input;
  std::optional<std::string> algorithm;
  std::vector<std::string> algorithms;
  PoolOptions pools;
  std::string module;           // MLF module to load; empty = the first
  std::string runtime_log;      // --tflm-log FILE: TFLM's memory-plan printout for a .tflite input
  std::string runtime_kernels;  // --tflm-kernels reference|cmsis_nn|esp_nn ("" = reference)
  std::string runtime_target;   // --tflm-target cortex-m|x86-64|esp32s3|... ("" = cortex-m)
  std::string runtime_version;  // --tflm-version 2023-06-30|2024-05-29|2025-02-07|90b983c ("" = 90b983c)
  std::string runtime_tree;     // --tflm-tree DIR: the firmware's TFLM sources, its version read from them
  std::vector<PinSpec> pins;
  double time_limit_seconds = 5.0;
  int64_t steps = -1;                         // --steps N: a work budget no clock decides (-1: none)
  bool time_limit_given = false;              // --time-limit was given (it overrides a session's)
  std::string session;                        // --session FILE: pools, pins, algorithm of a saved session
  std::optional<SessionEdits> session_edits;  // read from it (session_options.h)
  bool json = false;
  bool allocations = false;
  bool help = false;
  bool version = false;
  // export and selftest
  std::string out;                         // --out DIR|FILE.tar
  bool harness = false;                    // --harness
  bool force = false;                      // --force
  NamedValues<std::string> pool_sections;  // --pool-section POOL=SECTION
  std::string model_section;               // --model-section S: the model array's linker section
  std::vector<std::string> targets;        // --targets host,cortex-m4,cortex-m7
  std::string cmsis_nn;                    // --cmsis-nn DIR: selftest builds CMSIS-NN from DIR
  std::string kernels;                     // --kernels DIR: selftest adds vendor kernels from DIR
  std::string keep;                        // --keep DIR: selftest builds there and keeps them
  uint32_t seed = 1;                       // --seed N: harness input generator
};

// Parses the arguments after the program name. Throws UsageError.
Options parse_options(const std::vector<std::string>& args);

// The text of `usmpx --help`, or of `usmpx COMMAND --help`.
std::string usage_text(const std::string& command);

}  // namespace usmpx::cli
