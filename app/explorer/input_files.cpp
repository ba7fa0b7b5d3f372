// Opening inputs and sessions (dialogs, Open Recent), saving sessions and restoring the autosave.
#include "input_files.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

#include "base/text_file.h"
#include "explorer_controller.h"
#include "inputs/input_facts.h"
#include "session/session_file.h"
#include "status_summary.h"
#include "user_prompts.h"

namespace usmpx::app {
namespace {

constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";

}  // namespace

InputFiles::InputFiles(ExplorerController* controller, StatusSummary* status, const UserPrompts* prompts)
    : QObject(prompts->window()), controller_(controller), status_(status), prompts_(prompts) {
  choose_module_ = [this](const QStringList& modules) {
    if (prompts_->batch_mode()) return modules.first();
    bool ok = false;
    const QString chosen =
        QInputDialog::getItem(prompts_->window(), tr("Choose a module"),
                              tr("This archive holds several modules. Open which one?"), modules, 0, false, &ok);
    return ok ? chosen : QString();
  };
  connect(controller_, &ExplorerController::loading_started, this,
          [this](const QString& path) { loading_path_ = path; });
  // Open Recent lists only what opens.
  connect(controller_, &ExplorerController::load_failed, this, [this] { remove_recent(loading_path_); });
}

void InputFiles::set_recent_menu(QMenu* menu) {
  recent_menu_ = menu;
  rebuild_recent_menu();
}

bool InputFiles::open_path(const QString& picked) {
  if (!maybe_save()) return false;
  // File dialogs pick files: an MLF folder picked through its metadata.json opens as the folder.
  // Open Recent records a path only once it opened (on_input_loaded).
  const QFileInfo info(picked);
  const QString path =
      info.isFile() && info.fileName() == QStringLiteral("metadata.json") ? info.absolutePath() : picked;
  if (path.endsWith(QStringLiteral(".usmpx.json"))) {
    QString error;
    if (!controller_->open_session(path, &error)) {
      remove_recent(path);
      prompts_->error(tr("Cannot open session"), error);
      return false;
    }
    return true;
  }
  QString module;
  try {
    QStringList modules;
    for (const std::string& name : input_modules(path.toStdString()))
      modules << QString::fromStdString(name);
    if (modules.size() > 1) {
      module = choose_module_ ? choose_module_(modules) : modules.first();
      if (module.isEmpty()) return false;
    }
  } catch (const std::exception& e) {
    remove_recent(path);
    prompts_->error(tr("Cannot open input"), QString::fromStdString(e.what()));
    return false;
  }
  controller_->open_input(path, module);
  return true;
}

void InputFiles::open_dialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      prompts_->window(), tr("Open model, TIR dump, problem or session"),
      settings.value(QStringLiteral("lastDir")).toString(),
      tr("All inputs (*.tar *.tgz *.tar.gz *.py *.tir *.txt *.json *.csv *.tflite *.pte);;MLF tarballs (*.tar *.tgz "
         "*.tar.gz);;"
         "TIR dumps (*.py *.tir *.txt);;TFLite models (*.tflite);;ExecuTorch programs (*.pte);;Problems (*.json "
         "*.csv);;Sessions (*.usmpx.json);;"
         "All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
  open_path(path);
}

void InputFiles::open_folder_dialog() {
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(prompts_->window(), tr("Open MLF folder or firmware tree"),
                                                           settings.value(QStringLiteral("lastDir")).toString());
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(folder).absolutePath());
  open_path(folder);
}

void InputFiles::open_session_dialog() {
  const QString path =
      QFileDialog::getOpenFileName(prompts_->window(), tr("Open session"), QString(), tr("Sessions (*.usmpx.json)"));
  if (!path.isEmpty()) open_path(path);
}

bool InputFiles::save_session(bool ask_for_path) {
  if (!controller_->has_input()) return false;
  QString path = controller_->session_path();
  if (ask_for_path || path.isEmpty()) {
    const QString suggestion = QFileInfo(controller_->input_path()).completeBaseName() + QStringLiteral(".usmpx.json");
    path =
        QFileDialog::getSaveFileName(prompts_->window(), tr("Save session"), suggestion, tr("Sessions (*.usmpx.json)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QStringLiteral(".usmpx.json"))) path += QStringLiteral(".usmpx.json");
  }
  QString error;
  if (!controller_->save_session(path, &error)) {
    prompts_->error(tr("Cannot save session"), error);
    return false;
  }
  add_recent(path);
  status_->show_message(tr("Saved %1").arg(path), 4000);
  return true;
}

bool InputFiles::maybe_save() {
  if (!controller_->modified() || prompts_->batch_mode()) return true;
  const auto answer =
      QMessageBox::warning(prompts_->window(), tr("Unsaved changes"), tr("The session has unsaved edits. Save them?"),
                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save_session(false);
  return true;
}

void InputFiles::add_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecentFiles)
    recent.removeLast();
  settings.setValue(QLatin1String(kRecentKey), recent);
  rebuild_recent_menu();
}

void InputFiles::remove_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (recent.removeAll(path) + recent.removeAll(absolute) == 0) return;
  settings.setValue(QLatin1String(kRecentKey), recent);
  rebuild_recent_menu();
}

void InputFiles::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
  for (const QString& path : recent) {
    recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { open_path(path); })->setToolTip(path);
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

QString InputFiles::autosave_prompt() const {
  // Names the model the unsaved edits belong to, when the autosave file says.
  const QString path = ExplorerController::autosave_path();
  QString model;
  try {
    const SessionFile session = read_session_json(read_text_file(path.toStdString()), path.toStdString());
    model = QString::fromStdString(session.input);
  } catch (const std::exception&) {
    model.clear();
  }
  return model.isEmpty()
             ? tr("USMP Explorer did not close normally last time. Restore the unsaved session?")
             : tr("USMP Explorer did not close normally last time, with unsaved edits of %1 (%2). Restore them?")
                   .arg(QFileInfo(model).fileName(), model);
}

void InputFiles::offer_autosave_restore() {
  const QString path = ExplorerController::autosave_path();
  if (!QFileInfo::exists(path) || prompts_->batch_mode()) return;
  const auto answer = QMessageBox::question(prompts_->window(), tr("Restore unsaved work?"), autosave_prompt(),
                                            QMessageBox::Yes | QMessageBox::No);
  if (answer == QMessageBox::Yes) {
    restore_autosave();
  } else {
    controller_->remove_autosave();
  }
}

bool InputFiles::restore_autosave() {
  QString error;
  if (!controller_->restore_autosave(&error)) {
    prompts_->error(tr("Cannot restore"), error);
    return false;
  }
  status_->show_message(controller_->session_path().isEmpty()
                            ? tr("Restored unsaved work; File ▸ Save Session As… keeps it")
                            : tr("Restored unsaved work of %1; Save writes it there").arg(controller_->session_path()),
                        10000);
  return true;
}

}  // namespace usmpx::app
