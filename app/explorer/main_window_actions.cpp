// Menus, toolbar and the commands behind them (compare, report, export).
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

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::open_dialog);
  open->setToolTip(tr("Open an MLF tarball, a TIR dump, a problem JSON or a MiniMalloc CSV"));
  QAction* open_folder =
      file->addAction(tr("Open &Folder…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::open_folder_dialog);
  open_folder->setToolTip(tr("Open an MLF folder or a firmware tree holding TVM's generated sources"));
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addAction(tr("Open &Session…"), this, &MainWindow::open_session_dialog);
  file->addSeparator();
  save_action_ = file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] { save_session(false); });
  file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, [this] { save_session(true); });
  file->addSeparator();
  export_action_ =
      file->addAction(tr("&Export Sources…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::export_sources);
  report_action_ =
      file->addAction(tr("Export &Report…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::export_report);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  undo_action_ = edit->addAction(tr("&Undo"), QKeySequence::Undo, controller_, &ExplorerController::undo);
  redo_action_ = edit->addAction(tr("&Redo"), QKeySequence(tr("Ctrl+Shift+Z")), controller_, &ExplorerController::redo);
  edit->addSeparator();
  unpin_action_ =
      edit->addAction(tr("U&npin Selected"), QKeySequence(tr("Ctrl+U")), this, [this] { unpin(selection_); });
  edit->addAction(tr("Unpin &All"), this, [this] {
    SessionEdits next = controller_->edits();
    next.pins.clear();
    controller_->apply_edit(tr("Unpin all"), next);
  });

  QMenu* plan = menuBar()->addMenu(tr("&Plan"));
  replan_action_ = plan->addAction(tr("&Re-plan"), QKeySequence(tr("F5")), controller_, &ExplorerController::replan);
  plan->addAction(tr("&Cancel Planning"), QKeySequence(tr("Esc")), controller_, &ExplorerController::cancel_planning);
  compare_action_ =
      plan->addAction(tr("C&ompare Algorithms…"), QKeySequence(tr("Ctrl+K")), this, &MainWindow::show_compare);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit Charts"), QKeySequence(tr("Ctrl+0")), chart_, &views::PoolChartWidget::reset_view);
  view->setObjectName(QStringLiteral("viewMenu"));
  reference_action_ = view->addAction(tr("Show &TVM's Plan"), QKeySequence(tr("Ctrl+T")));
  reference_action_->setCheckable(true);
  reference_action_->setToolTip(tr("Draw where TVM placed each buffer as dashed outlines over the current plan"));
  connect(reference_action_, &QAction::toggled, chart_, &views::PoolChartWidget::set_show_reference);
  view->addSeparator();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About USMP Explorer"),
                       tr("<b>USMP Explorer %1</b><p>See and edit the static memory plans of TVM models: TVM's USMP "
                          "planners reproduced exactly, stronger planners, pools you can resize and buffers you can "
                          "repin.</p><p>Drag a buffer to another pool to repin it, or up and down to pin its offset; "
                          "drag a pool's red size-hint line to resize it. Ctrl+Z undoes.</p>")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::create_toolbar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolbar"));
  bar->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open"), this, &MainWindow::open_dialog);
  save_action_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  bar->addAction(save_action_);
  bar->addSeparator();
  undo_action_->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
  redo_action_->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
  bar->addAction(undo_action_);
  bar->addAction(redo_action_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Algorithm ")));
  algorithm_box_->setToolTip(tr("TVM's three planners give TVM's exact offsets; the others plan tighter"));
  algorithm_box_->setMinimumContentsLength(18);
  bar->addWidget(algorithm_box_);
  connect(algorithm_box_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (filling_algorithms_ || !controller_->has_input() || name.isEmpty()) return;
    if (name.toStdString() == controller_->edits().algorithm) return;
    SessionEdits next = controller_->edits();
    next.algorithm = name.toStdString();
    controller_->apply_edit(tr("Use %1").arg(name), next);
  });
  bar->addWidget(new QLabel(tr(" limit ")));
  time_limit_box_->setRange(0.1, 600);
  time_limit_box_->setSuffix(tr(" s"));
  time_limit_box_->setDecimals(1);
  time_limit_box_->setToolTip(tr("Time budget of searching planners"));
  bar->addWidget(time_limit_box_);
  connect(time_limit_box_, &QDoubleSpinBox::editingFinished, this, [this] {
    QSettings().setValue(QStringLiteral("timeLimit"), time_limit_box_->value());
    if (!controller_->has_input() || controller_->edits().time_limit_seconds == time_limit_box_->value()) return;
    SessionEdits next = controller_->edits();
    next.time_limit_seconds = time_limit_box_->value();
    controller_->apply_edit(tr("Set time limit"), next);
  });
  replan_action_->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  bar->addAction(replan_action_);
  bar->addSeparator();
  bar->addAction(compare_action_);
  bar->addAction(report_action_);
  bar->addAction(export_action_);
}

void MainWindow::refresh_algorithms() {
  filling_algorithms_ = true;
  algorithm_box_->clear();
  algorithm_box_->addItems(controller_->has_input() ? controller_->algorithms() : QStringList{QStringLiteral("best")});
  if (controller_->has_input()) algorithm_box_->setCurrentText(QString::fromStdString(controller_->edits().algorithm));
  filling_algorithms_ = false;
}

void MainWindow::show_compare() {
  if (!controller_->has_input()) return;
  auto* dialog = new CompareDialog(controller_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &CompareDialog::apply_algorithm, this, [this](const QString& algorithm) {
    SessionEdits next = controller_->edits();
    next.algorithm = algorithm.toStdString();
    controller_->apply_edit(tr("Use %1").arg(algorithm), next);
  });
  dialog->show();
  dialog->run();
}

void MainWindow::export_report() {
  if (!controller_->has_input()) return;
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Export report into folder"));
  if (folder.isEmpty()) return;
  QString error;
  const QStringList files = write_review_report(*controller_, *chart_, folder, &error);
  if (files.isEmpty()) {
    show_error(tr("Cannot export report"), error);
    return;
  }
  statusBar()->showMessage(tr("Report written: %1").arg(files.join(QStringLiteral(", "))), 6000);
}

void MainWindow::export_sources() {
  QString why;
  if (!controller_->can_export_sources(&why)) {
    show_error(tr("Cannot export sources"), why);
    return;
  }
  ExportDialog dialog(*controller_, this);
  if (dialog.exec() != QDialog::Accepted) return;
  start_export(dialog.target(), dialog.harness());
}

void MainWindow::start_export(const QString& target, bool harness) {
  const QFileInfo info(target);
  bool force = false;
  if (info.exists() && !(info.isDir() && QDir(target).isEmpty())) {
    if (batch_mode_) {
      show_error(tr("Cannot export sources"), tr("%1 exists and is not empty.").arg(target));
      return;
    }
    const auto answer = QMessageBox::question(this, tr("Replace?"),
                                              tr("%1 exists and is not empty. Replace it with the export?").arg(target),
                                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) return;
    force = true;
  }
  statusBar()->showMessage(tr("Exporting sources to %1…").arg(target));
  controller_->export_sources(target, harness, force);
}

void MainWindow::on_export_finished(bool ok, const QString& summary) {
  if (!ok) {
    show_error(tr("Export failed"), summary);
    return;
  }
  statusBar()->showMessage(summary.section(QLatin1Char('\n'), 0, 0), 8000);
  if (!batch_mode_) QMessageBox::information(this, tr("Sources exported"), summary);
}

}  // namespace usmpx::app
