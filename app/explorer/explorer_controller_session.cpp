// Sessions of the explorer: opening and saving session files, crash-recovery autosave, and the
// runtime build (TFLM kernels and target) a session keeps.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

#include "base/text_file.h"
#include "explorer_controller.h"
#include "inputs/input_facts.h"
#include "session/session_file.h"

namespace usmpx::app {

// What a session file holds of the current state (input, module, runtime build, edits, view).
SessionFile ExplorerController::session_file() const {
  SessionFile session;
  session.input = input_path_.toStdString();
  session.module = module_.toStdString();
  session.runtime_kernels = history_.current().runtime_kernels;
  session.runtime_target = history_.current().runtime_target;
  session.runtime_version = history_.current().runtime_version;
  session.edits = history_.current();
  session.view = view_;
  return session;
}

void ExplorerController::set_runtime_build(const QString& kernels, const QString& target) {
  set_runtime_build(kernels, target, runtime_version());
}

void ExplorerController::set_runtime_build(const QString& kernels, const QString& target, const QString& version) {
  if (!has_input() || loading_) return;
  SessionEdits next = history_.current();
  // Compared as the builds they name ("" is the default, the first of each list).
  const RuntimeBuilds builds = runtime_builds(*input_);
  const auto same = [](const QString& chosen, const std::string& was, const std::vector<std::string>& options) {
    const auto named = [&](const std::string& v) { return v.empty() && !options.empty() ? options.front() : v; };
    return named(chosen.toStdString()) == named(was);
  };
  const bool same_build =
      same(kernels, next.runtime_kernels, builds.kernels) && same(target, next.runtime_target, builds.targets);
  const bool same_version = same(version, next.runtime_version, builds.versions);
  if (same_build && same_version) return;
  next.runtime_kernels = kernels.toStdString();
  next.runtime_target = target.toStdString();
  next.runtime_version = version.toStdString();
  const QString shown_kernels = kernels.isEmpty() ? tr("default kernels") : kernels;
  const QString shown_target = target.isEmpty() ? tr("default target") : target;
  const QString shown_version = version.isEmpty() ? tr("default") : version;
  QString what = QStringLiteral("build: %1, %2").arg(shown_kernels, shown_target);
  if (same_build) what = QStringLiteral("version: %1").arg(shown_version);
  if (!same_build && !same_version) what += QStringLiteral(", %1").arg(shown_version);
  push_runtime_edit(what, std::move(next));
}

void ExplorerController::set_runtime_version(const QString& version) {
  set_runtime_build(runtime_kernels(), runtime_target(), version);
}

void ExplorerController::push_runtime_edit(const QString& what, SessionEdits next) {
  const QString words = QString::fromStdString(runtime_builds(*input_).runtime) + QLatin1Char(' ') + what;
  history_.push(words.toStdString(), std::move(next));
  emit history_changed();
  autosave_timer_.start();
  follow_history();
}

void ExplorerController::follow_history() {
  const SessionEdits& edits = history_.current();
  if (edits.runtime_kernels != loaded_kernels_ || edits.runtime_target != loaded_target_ ||
      edits.runtime_version != loaded_version_) {
    // The scratch buffers and the tail depend on the build: read the model again, history kept.
    pending_recovered_ = recovered_;
    pending_keep_history_ = true;
    start_loading(input_path_, module_, edits, session_path_, view_);
    return;
  }
  set_problem_from_edits();
  emit problem_changed();
  start_planning();
}

bool ExplorerController::default_runtime_build() const {
  return !has_input() || is_default_build(*input_, history_.current().runtime_kernels,
                                          history_.current().runtime_target, history_.current().runtime_version);
}

QString ExplorerController::runtime_build_text() const {
  return has_input() ? QString::fromStdString(usmpx::runtime_build_text(*input_)) : QString();
}

QString ExplorerController::runtime_status() const {
  if (!has_input() || !input_->details) return {};
  return QString::fromStdString(input_->details->status_text(problem(), plan()));
}

QString ExplorerController::runtime_memory_text() const {
  if (!has_input() || !input_->details) return {};
  // One short line per figure, the one to paste first (InputDetails::memory_rows, as `usmpx` has them).
  QStringList lines;
  for (const std::string& row : input_->details->memory_rows(problem(), plan()))
    lines << QString::fromStdString(row);
  return lines.join(QLatin1Char('\n'));
}

bool ExplorerController::open_session(const QString& path, QString* error) {
  try {
    const std::string file = path.toStdString();
    const SessionFile session = read_session_json(read_text_file(file), file);
    SessionEdits edits = session.edits;
    edits.runtime_kernels = session.runtime_kernels;
    edits.runtime_target = session.runtime_target;
    edits.runtime_version = session.runtime_version;
    start_loading(QString::fromStdString(session.input), QString::fromStdString(session.module), std::move(edits),
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
