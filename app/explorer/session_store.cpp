#include "session_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "base/text_file.h"

namespace usmpx::app {

namespace {

constexpr int kAutosaveDelayMs = 1500;

}  // namespace

SessionStore::SessionStore(std::function<std::optional<SessionFile>()> unsaved) : unsaved_(std::move(unsaved)) {
  autosave_timer_.setSingleShot(true);
  autosave_timer_.setInterval(kAutosaveDelayMs);
  QObject::connect(&autosave_timer_, &QTimer::timeout, &autosave_timer_, [this] { write_autosave(); });
}

SessionFile SessionStore::file_of(const QString& input_path, const QString& module, const SessionEdits& edits,
                                  const SessionView& view) {
  SessionFile session;
  session.input = input_path.toStdString();
  session.module = module.toStdString();
  session.runtime_kernels = edits.runtime_kernels;
  session.runtime_target = edits.runtime_target;
  session.runtime_version = edits.runtime_version;
  session.edits = edits;
  session.view = view;
  return session;
}

bool SessionStore::read(const QString& path, SessionFile* session, QString* error) {
  try {
    const std::string file = path.toStdString();
    *session = read_session_json(read_text_file(file), file);
    session->edits.runtime_kernels = session->runtime_kernels;
    session->edits.runtime_target = session->runtime_target;
    session->edits.runtime_version = session->runtime_version;
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

bool SessionStore::save(const QString& path, const SessionFile& session, QString* error) {
  try {
    write_file_atomically(path.toStdString(), write_session_json(session, path.toStdString()));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  path_ = QFileInfo(path).absoluteFilePath();
  recovered_ = false;
  remove_autosave();
  return true;
}

void SessionStore::loaded() {
  recovered_ = pending_recovered_;
  pending_recovered_ = false;
}

QString SessionStore::autosave_path() {
  const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  QDir().mkpath(folder);
  return folder + QStringLiteral("/autosave.usmpx.json");
}

QString SessionStore::autosave_origin_path() {
  return autosave_path() + QStringLiteral(".origin");
}

QString SessionStore::autosave_origin() {
  QFile file(autosave_origin_path());
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).trimmed() : QString();
}

void SessionStore::remove_autosave() {
  QFile::remove(autosave_path());
  QFile::remove(autosave_origin_path());
}

void SessionStore::write_autosave() {
  const std::optional<SessionFile> session = unsaved_();
  if (!session) {
    remove_autosave();
    return;
  }
  const std::string path = autosave_path().toStdString();
  try {
    write_file_atomically(path, write_session_json(*session, path));
    write_file_atomically(autosave_origin_path().toStdString(), path_.toStdString());
  } catch (const std::exception&) {
    // Autosave is best effort; the next edit tries again.
  }
}

}  // namespace usmpx::app
