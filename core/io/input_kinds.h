#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace usmpx {

enum class InputFormat {
  kProblemJson,
  kMinimallocCsv,
  kMlf,
  kFirmwareTree,
  kTvmScript,
  kLegacyTir,
  kSession,
  kTflite,
};

// One kind of input the tool reads: what it is called and what identifies it. Every command and
// the explorer recognise inputs through this table and nothing else.
struct InputKind {
  InputFormat format;
  std::string_view name;           // e.g. "Model Library Format"
  std::string_view identified_by;  // e.g. "a .tar, .tar.gz or .tgz archive or a folder with metadata.json at its root"
};

// The table, in the order kinds are tried.
const std::vector<InputKind>& input_kinds();

std::string_view to_string(InputFormat format);

// Which kind `path` is, judged by the table: its name, for folders and archives their members,
// for text files their content. Throws InputError when the path does not exist or is of no
// known kind (the message lists every kind and what identifies it).
InputFormat recognise_input(const std::string& path);

// Inputs holding TVM's generated C (planned from, and exported back into).
bool holds_generated_c(InputFormat format);

}  // namespace usmpx
