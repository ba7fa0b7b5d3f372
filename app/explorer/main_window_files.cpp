// Opening inputs and sessions (dialogs, drag and drop, Open Recent) and saving sessions.
#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <iostream>

#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "checks/plan_summary.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "export_dialog.h"
#include "panels/inspector_widget.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"

namespace usmpx::app {
namespace {

constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";

}  // namespace

bool MainWindow::open_path(const QString& picked) {
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
      show_error(tr("Cannot open session"), error);
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
    show_error(tr("Cannot open input"), QString::fromStdString(e.what()));
    return false;
  }
  controller_->open_input(path, module);
  return true;
}

void MainWindow::open_dialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open model, TIR dump, problem or session"), settings.value(QStringLiteral("lastDir")).toString(),
      tr("All inputs (*.tar *.tgz *.tar.gz *.py *.tir *.txt *.json *.csv *.tflite *.pte);;MLF tarballs (*.tar *.tgz "
         "*.tar.gz);;"
         "TIR dumps (*.py *.tir *.txt);;TFLite models (*.tflite);;ExecuTorch programs (*.pte);;Problems (*.json "
         "*.csv);;Sessions (*.usmpx.json);;"
         "All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
  open_path(path);
}

void MainWindow::open_folder_dialog() {
  QSettings settings;
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Open MLF folder or firmware tree"),
                                                           settings.value(QStringLiteral("lastDir")).toString());
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(folder).absolutePath());
  open_path(folder);
}

void MainWindow::open_session_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), tr("Sessions (*.usmpx.json)"));
  if (!path.isEmpty()) open_path(path);
}

bool MainWindow::save_session(bool ask_for_path) {
  if (!controller_->has_input()) return false;
  QString path = controller_->session_path();
  if (ask_for_path || path.isEmpty()) {
    const QString suggestion = QFileInfo(controller_->input_path()).completeBaseName() + QStringLiteral(".usmpx.json");
    path = QFileDialog::getSaveFileName(this, tr("Save session"), suggestion, tr("Sessions (*.usmpx.json)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QStringLiteral(".usmpx.json"))) path += QStringLiteral(".usmpx.json");
  }
  QString error;
  if (!controller_->save_session(path, &error)) {
    show_error(tr("Cannot save session"), error);
    return false;
  }
  add_recent(path);
  show_message(tr("Saved %1").arg(path), 4000);
  return true;
}

bool MainWindow::maybe_save() {
  if (!controller_->modified() || batch_mode_) return true;
  const auto answer = QMessageBox::warning(this, tr("Unsaved changes"), tr("The session has unsaved edits. Save them?"),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save_session(false);
  return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) open_path(urls.first().toLocalFile());
}

void MainWindow::add_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecentFiles)
    recent.removeLast();
  settings.setValue(QLatin1String(kRecentKey), recent);
  rebuild_recent_menu();
}

void MainWindow::remove_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (recent.removeAll(path) + recent.removeAll(absolute) == 0) return;
  settings.setValue(QLatin1String(kRecentKey), recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
  for (const QString& path : recent) {
    recent_menu_->addAction(QFileInfo(path).fileName(), this, [this, path] { open_path(path); })->setToolTip(path);
  }
  recent_menu_->setEnabled(!recent.isEmpty());
}

}  // namespace usmpx::app
