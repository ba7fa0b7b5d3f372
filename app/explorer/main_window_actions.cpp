// Menus, toolbar and the commands behind them (compare, report, export).
#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
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
#include <QTextBrowser>
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
#include "runtime_build_menu.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"
#include "window_fit.h"

namespace usmpx::app {

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::open_dialog);
  open->setToolTip(tr("Open a TFLite model (.tflite), an MLF tarball, a TIR dump, a problem JSON or a MiniMalloc CSV"));
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
  // Ctrl+F: the buffer filter, text selected so typing replaces it (the dock shown if it was closed).
  edit->addAction(tr("&Find Buffer…"), QKeySequence::Find, this, [this] {
    if (QDockWidget* dock = findChild<QDockWidget*>(QStringLiteral("buffersDock"))) {
      dock->show();
      dock->raise();
    }
    filter_->setFocus(Qt::ShortcutFocusReason);
    filter_->selectAll();
  });
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
  plan->addSeparator();
  build_menu_ = new RuntimeBuildMenu(controller_, this);
  plan->addMenu(build_menu_);
  connect(build_menu_, &RuntimeBuildMenu::notice, this, [this](const QString& text) {
    // A switch reads the input again: said once it is read (loading and planning messages come first).
    if (controller_->busy())
      pending_notice_ = text;
    else
      show_message(text, 10000);
  });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit Charts"), QKeySequence(tr("Ctrl+0")), chart_, &views::PoolChartWidget::reset_view);
  view->setObjectName(QStringLiteral("viewMenu"));
  reference_action_ = view->addAction(tr("Show &TVM's Plan"), QKeySequence(tr("Ctrl+T")));
  reference_action_->setCheckable(true);
  reference_action_->setToolTip(tr("Draw where TVM placed each buffer as dashed outlines over the current plan"));
  connect(reference_action_, &QAction::toggled, chart_, &views::PoolChartWidget::set_show_reference);
  view->addSeparator();

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Getting Started"), QKeySequence::HelpContents, this,
                  [this] { show_help(tr("Getting started"), getting_started_html()); });
  help->addAction(tr("&Keyboard Shortcuts"), this, [this] { show_help(tr("Keyboard shortcuts"), shortcuts_html()); });
  help->addSeparator();
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About USMP Explorer"),
                       tr("<b>USMP Explorer %1</b><p>See and edit the static memory plans of TVM output, TFLite "
                          "Micro models and ExecuTorch programs: their toolchains' planners reproduced exactly, "
                          "stronger planners, pools you can resize and buffers you can repin.</p><p>Drag a buffer to "
                          "another pool to repin it, or up and down to pin its offset; "
                          "drag a pool's red size-hint line to resize it. Ctrl+Z undoes.</p>")
                           .arg(QApplication::applicationVersion()));
  });
}

QString MainWindow::getting_started_html() const {
  return tr(
      "<h3>Getting started</h3><ol>"
      "<li><b>Open</b> a model: a TFLite Micro model (<code>.tflite</code>), an ExecuTorch program "
      "(<code>.pte</code>), a TVM MLF tarball or folder, a firmware tree holding TVM's generated sources (File ▸ "
      "Open Folder…), a TIR dump, or a problem file (JSON, MiniMalloc CSV). Dropping it on the window works "
      "too.</li>"
      "<li>Each pool is a chart: time runs left to right, addresses bottom to top; each box is a buffer, "
      "live for its ticks, at its offset. Constants are drawn across the whole run, since they stay in "
      "memory. The status bar gives the total, the lower bound and the gap between them.</li>"
      "<li>A model opens on its reference plan, what its firmware does today (the status bar names it with its "
      "bytes): the plan it carries (<i>as-built</i>: TVM's, a .tflite's offline plan or a .pte's own), else "
      "TFLM's plan for a .tflite, else TVM's <i>greedy_by_size</i>. After an edit of TVM's plan the explorer plans "
      "with <i>best</i> "
      "and keeps the reference: \"−6 KiB vs TVM\" per pool, and View ▸ Show TVM's Plan draws it as outlines.</li>"
      "<li><b>Edit</b>: drag a box up or down to pin its offset, or onto another pool to move it there; "
      "drag a pool's red dashed line, or type in the Pools panel, to set its size. Each edit re-plans the "
      "pools it changes; Ctrl+Z undoes.</li>"
      "<li>Plan ▸ Compare Algorithms runs every planner on the same pools. File ▸ Export Sources writes "
      "the firmware sources for the plan; File ▸ Export Report writes an HTML report and a PDF.</li>"
      "<li>Diagnostics lists the plan's errors first (why it does not fit), then what reading the input "
      "noticed. Click one to select the buffers it names.</li></ol>");
}

QString MainWindow::shortcuts_html() const {
  // Read from the actions themselves, so the list is never out of date.
  QString rows;
  for (QAction* menu_action : menuBar()->actions()) {
    QMenu* menu = menu_action->menu();
    if (!menu) continue;
    for (QAction* a : menu->actions()) {
      if (a->shortcut().isEmpty()) continue;
      rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td style='color:#666'>%3</td></tr>")
                  .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                       QString(a->text()).remove(QLatin1Char('&')).toHtmlEscaped(),
                       QString(menu->title()).remove(QLatin1Char('&')));
    }
  }
  rows +=
      tr("<tr><td><b>Ctrl+click</b></td><td>Add a buffer to the selection</td><td style='color:#666'>Charts</td>"
         "</tr><tr><td><b>Wheel, drag</b></td><td>Zoom, pan (empty space)</td><td style='color:#666'>Charts</td>"
         "</tr>");
  return tr("<h3>Keyboard shortcuts</h3><table cellspacing=4>%1</table>").arg(rows);
}

void MainWindow::show_help(const QString& title, const QString& html) {
  // A text that scrolls, in a dialog that fits the screen (a message box grows with its text).
  QDialog dialog(this);
  dialog.setObjectName(QStringLiteral("helpDialog"));
  dialog.setWindowTitle(title);
  auto* text = new QTextBrowser;
  text->setOpenExternalLinks(true);
  text->setHtml(html);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(&dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  fit_window(&dialog, QSize(640, 560));
  if (help_shown_) help_shown_(&dialog);
  dialog.exec();
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
  // A folder that exists or one to create (typed as a name): the report makes it.
  const QFileInfo input(controller_->input_path());
  QString folder = report_folder_chooser_
                       ? report_folder_chooser_()
                       : QFileDialog::getSaveFileName(
                             this, tr("Export report into folder (an existing one, or a new name)"),
                             QDir(export_folder()).filePath(input.completeBaseName() + QStringLiteral("_report")),
                             QString(), nullptr, QFileDialog::ShowDirsOnly | QFileDialog::DontConfirmOverwrite);
  if (folder.isEmpty()) return;
  QString error;
  show_message(tr("Writing the report into %1…").arg(folder));
  const QStringList files = write_review_report(*controller_, *chart_, folder, &error);
  if (files.isEmpty()) {
    show_message(tr("Report not written: %1").arg(error), 10000);
    show_error(tr("Cannot export report"), error);
    return;
  }
  remember_export(QDir(folder).absolutePath());
  show_message(tr("Report written: %1").arg(files.join(QStringLiteral(", "))), 6000);
}

void MainWindow::export_sources() {
  QString why;
  if (!controller_->can_export_sources(&why)) {
    show_message(tr("Sources not exported: %1").arg(why), 10000);
    show_error(tr("Cannot export sources"), why);
    return;
  }
  ExportDialog dialog(*controller_, this);
  if (dialog.exec() != QDialog::Accepted) {
    show_message(tr("Export cancelled"), 5000);
    return;
  }
  start_export(dialog.target(), dialog.harness());
}

void MainWindow::start_export(const QString& target, bool harness) {
  const QFileInfo info(target);
  bool force = false;
  if (info.exists() && !(info.isDir() && QDir(target).isEmpty())) {
    if (batch_mode_) {
      show_message(tr("Sources not exported: %1 exists and is not empty").arg(target), 10000);
      show_error(tr("Cannot export sources"), tr("%1 exists and is not empty.").arg(target));
      return;
    }
    const auto answer = QMessageBox::question(this, tr("Replace?"),
                                              tr("%1 exists and is not empty. Replace it with the export?").arg(target),
                                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) {
      show_message(tr("Export cancelled"), 5000);
      return;
    }
    force = true;
  }
  remember_export(target);  // the next export dialog starts there
  show_message(tr("Exporting sources to %1…").arg(target));
  controller_->export_sources(target, harness, force);
}

void MainWindow::on_export_finished(bool ok, const QString& summary) {
  // Every export ends with a status saying how it ended, never "Exporting…" left behind.
  if (!ok) {
    show_message(tr("Export failed: %1").arg(summary.section(QLatin1Char('\n'), 0, 0)), 15000);
    show_error(tr("Export failed"), summary);
    return;
  }
  show_message(summary.section(QLatin1Char('\n'), 0, 0), 8000);
  if (!batch_mode_) QMessageBox::information(this, tr("Sources exported"), summary);
}

}  // namespace usmpx::app
