#pragma once

#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

#include "session/session_file.h"

namespace usmpx::app {

// Where the explorer's state is kept: the session file it was opened from or saved to, and the
// crash-safe copy of unsaved edits (the autosave file, written shortly after each edit), with
// whether the state came from that copy and was not saved since.
class SessionStore {
 public:
  // `unsaved` gives the state the autosave keeps, or nullopt when nothing is unsaved.
  explicit SessionStore(std::function<std::optional<SessionFile>()> unsaved);

  // What a session file holds of the state (input, module, runtime build, edits, view).
  static SessionFile file_of(const QString& input_path, const QString& module, const SessionEdits& edits,
                             const SessionView& view);
  // Reads a .usmpx.json file into `session`, its edits with the runtime build it names; false with
  // `error` set when it cannot be read.
  static bool read(const QString& path, SessionFile* session, QString* error);
  // Writes `session` to `path`, which becomes the session's file; the autosave copy goes.
  bool save(const QString& path, const SessionFile& session, QString* error);

  // The session file of the state ("" when there is none).
  QString path() const { return path_; }
  void set_path(const QString& path) { path_ = path; }
  bool recovered() const { return recovered_; }
  // Whether the state the next load gives counts as recovered (a restore, or a reload of a
  // recovered state); loaded() applies it when that load succeeds.
  void recover_on_load(bool recovered) { pending_recovered_ = recovered; }
  void loaded();

  // Writes the crash-safe copy a moment after the last call (edits come in bursts).
  void schedule_autosave() { autosave_timer_.start(); }
  // Where the crash-safe copy of unsaved edits lives.
  static QString autosave_path();
  // Beside the autosave file: the session file the autosaved edits belong to (may be empty).
  static QString autosave_origin_path();
  // What autosave_origin_path holds.
  static QString autosave_origin();
  static void remove_autosave();

 private:
  void write_autosave();

  std::function<std::optional<SessionFile>()> unsaved_;
  QString path_;
  bool recovered_ = false;  // the state came from the autosave file and was not saved since
  bool pending_recovered_ = false;
  QTimer autosave_timer_;
};

}  // namespace usmpx::app
