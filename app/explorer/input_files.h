#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

class QMenu;

namespace usmpx::app {

class ExplorerController;
class StatusSummary;
class UserPrompts;

// The files the user opens and saves: inputs and sessions (dialogs, drag and drop, Open Recent),
// saving sessions, asking before unsaved edits are dropped, and the autosave file an earlier run
// left behind.
class InputFiles : public QObject {
  Q_OBJECT

 public:
  InputFiles(ExplorerController* controller, StatusSummary* status, const UserPrompts* prompts);

  // Opens a model, problem or session file. Returns false when it could not start.
  bool open_path(const QString& path);
  void open_dialog();
  void open_folder_dialog();
  void open_session_dialog();
  // Picks one of several MLF modules; by default a dialog. Returns empty to cancel.
  void set_module_chooser(std::function<QString(const QStringList&)> chooser) { choose_module_ = std::move(chooser); }

  // Save Session (As…): false when not saved.
  bool save_session(bool ask_for_path);
  // Before the edits would be dropped: asks to save them; false when the user cancels.
  bool maybe_save();

  // File ▸ Open Recent, filled from the settings; `path` joins it once it opened.
  void set_recent_menu(QMenu* menu);
  void add_recent(const QString& path);

  // Offers to restore edits an earlier run left unsaved (after a crash), naming their model.
  void offer_autosave_restore();
  QString autosave_prompt() const;
  // Restores them without asking (what "Yes" does). Save then writes the session file the user
  // had open, or asks where (Save As) when there was none; never the autosave file.
  bool restore_autosave();

 private:
  void remove_recent(const QString& path);
  void rebuild_recent_menu();

  ExplorerController* controller_;
  StatusSummary* status_;
  const UserPrompts* prompts_;
  QMenu* recent_menu_ = nullptr;
  std::function<QString(const QStringList&)> choose_module_;
  QString loading_path_;  // the input being loaded, dropped from Open Recent when it fails
};

}  // namespace usmpx::app
