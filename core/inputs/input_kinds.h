#pragma once

// The input table: every kind of input the tool reads, what identifies it and which frontend
// reads it. Every command and the explorer recognise and load inputs through this table and
// nothing else; a new frontend adds its kinds here and touches no command.

#include <string>
#include <string_view>
#include <vector>

#include "frontends/frontend.h"

namespace usmpx {

// The kinds, in the order they are tried; `frontend` is null for explorer sessions, which the
// commands open themselves.
struct InputTableEntry {
  InputKind kind;
  const Frontend* frontend;
};
const std::vector<InputTableEntry>& input_table();
std::vector<InputKind> input_kinds();

std::string_view to_string(InputFormat format);

// Which kind `path` is, judged by the table: its name, for folders and archives their members,
// for text files their content. Throws InputError when the path does not exist or is of no
// known kind (the message lists every kind and what identifies it).
InputFormat recognise_input(const std::string& path);

// The frontend reading `format` (null for sessions).
const Frontend* frontend_of(InputFormat format);

// The families a firmware file may name its models by (each frontend's Frontend::family(), in
// table order, once each).
std::vector<std::string> firmware_families();

// Inputs holding TVM's generated C (planned from, and exported back into).
bool holds_generated_c(InputFormat format);

}  // namespace usmpx
