#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "session/session_edits.h"

namespace usmpx {

// How the session's input was looked at, restored when it is opened again (not an edit: no undo,
// no "unsaved changes"). Buffer table columns by their header, in pixels.
struct SessionView {
  std::vector<std::pair<std::string, int>> column_widths;
  bool operator==(const SessionView&) const = default;
};

// A saved session (.usmpx.json): the input it was made from and every edit on top of it.
struct SessionFile {
  std::string input;   // absolute path of the model or problem
  std::string module;  // MLF module, empty for the first
  // The runtime build memory figures are for (TFLite: TFLM's kernel set and target), "" = default.
  std::string runtime_kernels;
  std::string runtime_target;
  std::string runtime_version;  // TFLite: the TFLM version ("2024-05-29"), "" = default
  SessionEdits edits;
  SessionView view;
  bool operator==(const SessionFile&) const = default;
};

// `session_path` is where the file goes; the input is also stored relative to its folder so a
// moved project folder still opens.
std::string write_session_json(const SessionFile& session, const std::string& session_path);

// Throws InputError with file:line:column on malformed files. A relative input that exists next
// to the session file wins over an absolute one that no longer exists.
SessionFile read_session_json(std::string_view text, const std::string& session_path);

}  // namespace usmpx
