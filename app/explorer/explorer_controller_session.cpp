// Sessions of the explorer: opening and saving session files, crash-recovery autosave, and the
// runtime build (TFLM kernels and target) a session keeps.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

#include "base/text_file.h"
#include "explorer_controller.h"
#include "session/session_file.h"

namespace usmpx::app {

// What a session file holds of the current state (input, module, runtime build, edits, view).
SessionFile ExplorerController::session_file() const {
  SessionFile session;
  session.input = input_path_.toStdString();
  session.module = module_.toStdString();
  session.runtime_kernels = runtime_kernels_;
  session.runtime_target = runtime_target_;
  session.edits = history_.current();
  session.view = view_;
  return session;
}

void ExplorerController::set_runtime_build(const QString& kernels, const QString& target) {
  if (kernels.toStdString() == runtime_kernels_ && target.toStdString() == runtime_target_) return;
  runtime_kernels_ = kernels.toStdString();
  runtime_target_ = target.toStdString();
  if (!has_input() || loading_) return;
  // The scratch buffers and the tail depend on the build: read the model again, edits kept.
  const SessionEdits edits = history_.current();
  pending_recovered_ = recovered_;
  pending_build_changed_ = true;
  open_input(input_path_, module_, edits, session_path_, view_);
}

QString ExplorerController::runtime_status() const {
  if (!has_input() || !input_->details) return {};
  return QString::fromStdString(input_->details->status_text(problem(), plan()));
}

QString ExplorerController::runtime_memory_text() const {
  if (!has_input() || !input_->details) return {};
  // The figure first: the line that gives it (kTensorArenaSize ...) above what explains it.
  QStringList lines = QString::fromStdString(input_->details->closing_text(problem(), plan())).trimmed().split('\n');
  for (QString& line : lines)
    line = line.trimmed();
  std::stable_partition(lines.begin(), lines.end(),
                        [](const QString& line) { return line.startsWith(QStringLiteral("kTensorArenaSize")); });
  return lines.join(QLatin1Char('\n'));
}

bool ExplorerController::open_session(const QString& path, QString* error) {
  try {
    const std::string file = path.toStdString();
    const SessionFile session = read_session_json(read_text_file(file), file);
    runtime_kernels_ = session.runtime_kernels;
    runtime_target_ = session.runtime_target;
    open_input(QString::fromStdString(session.input), QString::fromStdString(session.module), session.edits,
               QFileInfo(path).absoluteFilePath(), session.view);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

bool ExplorerController::restore_autosave(QString* error) {
  const QString path = autosave_path();
  QString origin;
  QFile file(autosave_origin_path());
  if (file.open(QIODevice::ReadOnly)) origin = QString::fromUtf8(file.readAll()).trimmed();
  if (!open_session(path, error)) return false;
  // Not the autosave file: Save must never write there silently.
  session_path_ = origin;
  pending_recovered_ = true;
  return true;
}

bool ExplorerController::save_session(const QString& path, QString* error) {
  if (!has_input()) return false;
  const SessionFile session = session_file();
  try {
    write_file_atomically(path.toStdString(), write_session_json(session, path.toStdString()));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  session_path_ = QFileInfo(path).absoluteFilePath();
  recovered_ = false;
  runtime_build_changed_ = false;
  history_.mark_saved();
  remove_autosave();
  emit history_changed();
  return true;
}

QString ExplorerController::autosave_path() {
  const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  QDir().mkpath(folder);
  return folder + QStringLiteral("/autosave.usmpx.json");
}

QString ExplorerController::autosave_origin_path() {
  return autosave_path() + QStringLiteral(".origin");
}

void ExplorerController::remove_autosave() const {
  QFile::remove(autosave_path());
  QFile::remove(autosave_origin_path());
}

void ExplorerController::write_autosave() {
  if (!modified()) {
    remove_autosave();
    return;
  }
  const SessionFile session = session_file();
  const std::string path = autosave_path().toStdString();
  try {
    write_file_atomically(path, write_session_json(session, path));
    write_file_atomically(autosave_origin_path().toStdString(), session_path_.toStdString());
  } catch (const std::exception&) {
    // Autosave is best effort; the next edit tries again.
  }
}

}  // namespace usmpx::app
