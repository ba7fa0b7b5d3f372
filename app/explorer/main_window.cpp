#include "main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <unordered_set>

#include "buffer_table_panel.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "checks/plan_summary.h"
#include "compare_dialog.h"
#include "edit_commands.h"
#include "explorer_controller.h"
#include "export_commands.h"
#include "help_menu.h"
#include "input_files.h"
#include "inputs/input_facts.h"
#include "panels/inspector_widget.h"
#include "panels/models_panel.h"
#include "panels/pool_editor_widget.h"
#include "plan_presentation.h"
#include "runtime_build_menu.h"
#include "status_summary.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"
#include "window_fit.h"

namespace usmpx::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      controller_(new ExplorerController(this)),
      chart_(new views::PoolChartWidget),
      buffers_(new BufferTablePanel),
      inspector_(new views::InspectorWidget),
      pool_editor_(new views::PoolEditorWidget),
      diagnostics_model_(new views::DiagnosticsModel(this)),
      diagnostics_view_(new QListView),
      algorithm_box_(new QComboBox),
      time_limit_box_(new QDoubleSpinBox),
      status_(new StatusSummary(controller_, statusBar())),
      prompts_(this),
      files_(new InputFiles(controller_, status_, &prompts_)),
      exports_(new ExportCommands(controller_, chart_, status_, &prompts_)),
      edits_(new EditCommands(controller_, this)) {
  setWindowTitle(tr("USMP Explorer"));
  setAcceptDrops(true);
  setCentralWidget(chart_);
  chart_->set_tooltip_provider([this](int buffer) { return buffer_tooltip(*controller_, buffer); });
  chart_->set_tick_labeler([this](int64_t tick) {
    const TimelineSpan* span = controller_->has_input() ? controller_->problem().span_at(tick) : nullptr;
    return span ? QString::fromStdString(span->label).toHtmlEscaped() : QString();
  });
  create_actions();
  create_toolbar();
  create_docks();
  follow_controller();
  follow_chart();
  restore_settings();
  refresh_algorithms();
  update_actions();
  status_->update();
  status_->show_message(
      tr("Open a TFLite model (.tflite), an ExecuTorch program (.pte), a TVM model (MLF, firmware tree), a TIR "
         "dump or a problem file — File ▸ Open, or drop it here"));
}

void MainWindow::follow_controller() {
  connect(controller_, &ExplorerController::loading_started, this, [this](const QString& path) {
    // Busy from the first moment: reading and analysing a large tree takes seconds.
    status_->show_busy(false);
    status_->show_message(tr("Loading %1…").arg(path));
  });
  connect(controller_, &ExplorerController::load_failed, this, [this](const QString& message) {
    status_->hide_busy();
    status_->show_message(tr("Could not open the input"), 5000);
    prompts_.error(tr("Cannot open input"), message);
  });
  connect(controller_, &ExplorerController::input_loaded, this, &MainWindow::on_input_loaded);
  connect(controller_, &ExplorerController::problem_changed, this, &MainWindow::on_problem_changed);
  connect(controller_, &ExplorerController::plan_ready, this, &MainWindow::on_plan_ready);
  connect(controller_, &ExplorerController::export_check_finished, this, &MainWindow::update_actions);
  connect(controller_, &ExplorerController::planning_started, this, [this](const QString& algorithm) {
    status_->show_busy(true);
    status_->show_message(tr("Planning with %1…").arg(algorithm));
    update_actions();
  });
  connect(controller_, &ExplorerController::planning_progress, this,
          [this](double fraction, qint64 best, const QString& what) {
            status_->show_progress(fraction);
            if (best < 0) return;
            // The bytes belong to what is searched (one pool), not to the whole plan.
            status_->show_message(
                what.isEmpty() ? tr("Planning… best so far %1").arg(views::format_byte_count(best))
                               : tr("Searching %1… best so far %2 for it").arg(what, views::format_byte_count(best)));
          });
  connect(controller_, &ExplorerController::planning_finished, this, &MainWindow::on_planning_finished);
  connect(controller_, &ExplorerController::notice, this,
          [this](const QString& message) { status_->show_message(message, 10000); });
  connect(controller_, &ExplorerController::edit_rejected, this, [this](const QString& message) {
    show_refusal(message);
    prompts_.error(tr("Edit not applied"), message);
  });
  connect(controller_, &ExplorerController::history_changed, this, [this] {
    update_actions();
    update_title();
  });
}

void MainWindow::on_planning_finished() {
  status_->hide_busy();
  if (!pending_notice_.isEmpty()) {
    status_->update();
    status_->show_message(pending_notice_, 10000);
    pending_notice_.clear();
    update_actions();
    return;
  }
  const Plan& plan = controller_->plan();
  const QString message =
      tr("Planned with %1 in %2 ms").arg(QString::fromStdString(plan.algorithm)).arg(plan.runtime_ms, 0, 'f', 0);
  // The totals on the right (set on plan_ready, just before) name the plan and its time too:
  // the message shows only when it fits whole beside them, never cut off under them.
  status_->update();  // the progress bar and Cancel are gone: room for more of the summary
  status_->show_message_if_whole(message, 6000);
  update_actions();
}

void MainWindow::follow_chart() {
  connect(chart_, &views::PoolChartWidget::buffer_clicked, this, [this](int buffer, Qt::KeyboardModifiers modifiers) {
    std::vector<int> next = (modifiers & Qt::ControlModifier) ? selection_ : std::vector<int>{};
    next.push_back(buffer);
    select_buffers(next, false);
  });
  connect(chart_, &views::PoolChartWidget::empty_clicked, this, [this] { select_buffers({}, false); });
  connect(chart_, &views::PoolChartWidget::pin_requested, edits_, &EditCommands::pin_requested);
  connect(chart_, &views::PoolChartWidget::size_hint_requested, edits_, &EditCommands::size_hint_requested);
  connect(edits_, &EditCommands::refused, this, &MainWindow::show_refusal);
  connect(edits_, &EditCommands::selection_requested, this,
          [this](const std::vector<int>& buffers) { select_buffers(buffers, false); });
  connect(chart_, &views::PoolChartWidget::context_menu_requested, this, [this](int buffer, int, const QPoint& pos) {
    if (buffer < 0) return;
    select_buffers({buffer}, false);
    QMenu* menu = edits_->build_buffer_menu(buffer, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(pos);
  });
}

void MainWindow::restore_settings() {
  QSettings settings;
  // A first start fills what the screen offers up to 1400x860; a geometry saved on a larger
  // screen is clamped into this one.
  if (settings.contains(QStringLiteral("geometry"))) {
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    if (!isMaximized() && !isFullScreen()) clamp_window(this);
  } else {
    fit_window(this, QSize(1400, 860));
  }
  restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
  time_limit_box_->setValue(settings.value(QStringLiteral("timeLimit"), 5.0).toDouble());
}

MainWindow::~MainWindow() = default;

bool MainWindow::open_path(const QString& path) {
  return files_->open_path(path);
}

void MainWindow::set_module_chooser(std::function<QString(const QStringList&)> chooser) {
  files_->set_module_chooser(std::move(chooser));
}

void MainWindow::offer_autosave_restore() {
  files_->offer_autosave_restore();
}

QString MainWindow::autosave_prompt() const {
  return files_->autosave_prompt();
}

bool MainWindow::restore_autosave() {
  return files_->restore_autosave();
}

void MainWindow::set_help_observer(std::function<void(QDialog*)> observer) {
  help_->set_observer(std::move(observer));
}

QString MainWindow::getting_started_html() const {
  return help_->getting_started_html();
}

QString MainWindow::shortcuts_html() const {
  return help_->shortcuts_html();
}

QMenu* MainWindow::build_buffer_menu(int buffer, QWidget* parent) {
  return edits_->build_buffer_menu(buffer, parent);
}

void MainWindow::set_report_folder_chooser(std::function<QString()> chooser) {
  exports_->set_report_folder_chooser(std::move(chooser));
}

void MainWindow::start_export(const QString& target, bool harness) {
  exports_->start_export(target, harness);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) files_->open_path(urls.first().toLocalFile());
}

QTableView* MainWindow::buffer_table() const {
  return buffers_->table();
}

QLineEdit* MainWindow::filter_box() const {
  return buffers_->filter();
}

QLabel* MainWindow::status_totals() const {
  return status_->totals();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!files_->maybe_save()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue(QStringLiteral("geometry"), saveGeometry());
  settings.setValue(QStringLiteral("windowState"), saveState());
  controller_->remove_autosave();
  event->accept();
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (docks_fitted_ || QSettings().contains(QStringLiteral("windowState"))) return;
  docks_fitted_ = true;
  // Without a saved layout, the docks take a share of the window that leaves the charts most of
  // it, also at 1280x720: the bottom docks a fifth of the height, the right ones a third of the width.
  // Once laid out (the next event loop turn), so the sizes apply to the window's final size.
  QTimer::singleShot(0, this, [this] {
    auto dock = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
    QDockWidget* pools = dock("poolsDock");
    QDockWidget* diagnostics = dock("diagnosticsDock");
    QDockWidget* buffers = dock("buffersDock");
    if (buffers) resizeDocks({buffers}, {std::clamp(width() / 3, 360, 560)}, Qt::Horizontal);
    const int bottom = std::max(130, height() / 5);
    if (pools && diagnostics) resizeDocks({pools, diagnostics}, {bottom, bottom}, Qt::Vertical);
  });
}

void MainWindow::on_input_loaded() {
  // Shown all at once with its first plan (on_plan_ready): until then title, table, charts and
  // status bar all still show the previous input, never half of each.
  switching_input_ = true;
  status_->hold(true);
}

void MainWindow::show_new_input() {
  switching_input_ = false;
  status_->hold(false);
  // Nothing of the previous input stays: filter, selection, outlines, zoom (at the first plan).
  // The filter first: clearing it must not re-select rows of the previous input.
  buffers_->reset_filter();
  select_buffers({}, false);
  reference_action_->setChecked(false);
  fit_on_next_plan_ = true;
  refresh_algorithms();
  buffers_->model()->set_problem(Problem{}, {});
  buffers_->model()->set_problem(controller_->problem(), {});
  const std::vector<ModelSpan> models =
      controller_->input().details ? controller_->input().details->models() : std::vector<ModelSpan>{};
  buffers_->model()->set_models(models);
  inspector_->set_models(models);
  reset_models_panel();
  buffers_->table()->scrollToTop();  // a new model starts at its first rows, not where the last one was scrolled
  time_limit_box_->setValue(controller_->edits().time_limit_seconds);
  pool_editor_->clear_selection();
  on_problem_changed();
  size_columns();
  inspector_->clear_buffer();
  // What reading the input noticed is said at once, not only where it is listed.
  const size_t warnings = controller_->input().warnings.size();
  status_->show_message(tr("Loaded %1").arg(controller_->input_path()), 4000);
  if (warnings > 0 && pending_notice_.isEmpty()) {
    // Shown once planning is done (its message would replace it at once).
    pending_notice_ = tr("Loaded %1 — %2 in Diagnostics")
                          .arg(QFileInfo(controller_->input_path()).fileName(),
                               warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
  }
  // File ▸ Open starts where this model is.
  QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(controller_->input_path()).absolutePath());
  files_->add_recent(controller_->session_path().isEmpty() ? controller_->input_path() : controller_->session_path());
  update_title();
}

void MainWindow::size_columns() {
  buffers_->size_columns(controller_->session_view().column_widths);
}

void MainWindow::record_column_width(const QString& title, int width) {
  if (!controller_->has_input()) return;
  SessionView view = controller_->session_view();
  const std::string name = title.toStdString();
  const auto same = [&](const auto& entry) { return entry.first == name; };
  if (auto it = std::find_if(view.column_widths.begin(), view.column_widths.end(), same);
      it != view.column_widths.end())
    it->second = width;
  else
    view.column_widths.emplace_back(name, width);
  controller_->set_session_view(std::move(view));
}

void MainWindow::on_problem_changed() {
  // A refusal stays in the Diagnostics panel until the next edit.
  if (!refusal_.isEmpty()) {
    refusal_.clear();
    diagnostics_model_->set_refusal({});
  }
  buffers_->model()->set_problem(controller_->problem(), controller_->conflict_counts());
  filling_algorithms_ = true;
  algorithm_box_->setCurrentText(QString::fromStdString(controller_->edits().algorithm));
  filling_algorithms_ = false;
  time_limit_box_->setValue(controller_->edits().time_limit_seconds);
  update_actions();
}

void MainWindow::on_plan_ready() {
  if (switching_input_) show_new_input();
  const bool new_input = fit_on_next_plan_;
  const Problem& problem = controller_->problem();
  const Plan& plan = controller_->plan();
  const PlanSummary summary = summarize_plan(problem, plan);
  chart_->set_data(plan_chart_data(*controller_, summary));
  if (fit_on_next_plan_) {
    chart_->reset_view();
    fit_on_next_plan_ = false;
  }
  buffers_->model()->set_plan(plan);
  // Sized to content once the pools are filled in (before, "global_workspace" was cut short).
  if (new_input) size_columns();
  std::vector<int64_t> used;
  for (const PoolSummary& s : summary.pools)
    used.push_back(s.size_bytes);
  pool_editor_->set_pools(controller_->edits().pools, used, export_sections(*controller_));
  // The list keeps its place across edits: the same scroll position after the new findings.
  const int diagnostics_scroll = new_input ? 0 : diagnostics_view_->verticalScrollBar()->value();
  diagnostics_model_->set_diagnostics(controller_->input().warnings, plan.diagnostics,
                                      controller_->runtime_memory_text());
  diagnostics_view_->doItemsLayout();
  diagnostics_view_->verticalScrollBar()->setValue(diagnostics_scroll);
  update_models_figures();
  std::erase_if(selection_, [&](int b) { return static_cast<size_t>(b) >= problem.buffers.size(); });
  select_buffers(selection_, false);
  status_->update();
  update_actions();
}

QString MainWindow::non_default_build_words() const {
  if (!controller_->has_input() || controller_->default_runtime_build()) return QString();
  return tr(" (figures for %1)").arg(controller_->runtime_build_text());
}

void MainWindow::update_title() {
  if (switching_input_) return;  // the new input's name comes with its first plan
  QString title = tr("USMP Explorer");
  if (controller_->has_input()) {
    title = QFileInfo(controller_->session_path().isEmpty() ? controller_->input_path() : controller_->session_path())
                .fileName() +
            QStringLiteral("[*]") + non_default_build_words() + QStringLiteral(" — ") + title;
  }
  setWindowTitle(title);
  setWindowModified(controller_->modified());
}

void MainWindow::update_actions() {
  const bool loaded = controller_->has_input();
  const EditHistory& history = controller_->history();
  undo_action_->setEnabled(history.can_undo());
  redo_action_->setEnabled(history.can_redo());
  undo_action_->setText(history.can_undo() ? tr("&Undo %1").arg(QString::fromStdString(history.undo_text()))
                                           : tr("&Undo"));
  redo_action_->setText(history.can_redo() ? tr("&Redo %1").arg(QString::fromStdString(history.redo_text()))
                                           : tr("&Redo"));
  save_action_->setEnabled(loaded);
  replan_action_->setEnabled(loaded);
  compare_action_->setEnabled(loaded);
  report_action_->setEnabled(loaded);
  // Offered only when it can succeed; the tooltip says why not.
  QString why;
  const bool exportable = controller_->can_export_sources(&why);
  export_action_->setEnabled(exportable);
  export_action_->setToolTip(exportable ? tr("Write firmware sources for the current plan") : why);
  export_action_->setStatusTip(export_action_->toolTip());
  reference_action_->setEnabled(loaded && controller_->has_reference());
  // Offered where the input's figures depend on a runtime build (its frontend says which).
  build_menu_->refresh();
  // Where the reference plan is described, how faithfully it was read.
  const QString fidelity = loaded ? controller_->reference_fidelity() : QString();
  reference_action_->setToolTip(tr("Draw where %1's plan placed each buffer as dashed outlines over the current plan")
                                    .arg(controller_->reference_name()) +
                                (fidelity.isEmpty() ? QString() : tr(". Fidelity check: %1.").arg(fidelity)));
  status_->totals()->setToolTip(status_->tooltip());
  bool any_pinned = false;
  for (int b : selection_) {
    any_pinned =
        any_pinned || (loaded && static_cast<size_t>(b) < controller_->problem().buffers.size() &&
                       find_pin(controller_->edits(), controller_->problem().buffers[static_cast<size_t>(b)].name));
  }
  unpin_action_->setEnabled(any_pinned);
}

void MainWindow::show_refusal(const QString& message) {
  refusal_ = message;
  diagnostics_model_->set_refusal(message);
  status_->show_message(tr("Not done (reason in Diagnostics): %1").arg(message), 10000);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  status_->update();
}

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, files_, &InputFiles::open_dialog);
  open->setToolTip(tr("Open a TFLite model (.tflite), an MLF tarball, a TIR dump, a problem JSON or a MiniMalloc CSV"));
  QAction* open_folder =
      file->addAction(tr("Open &Folder…"), QKeySequence(tr("Ctrl+Shift+O")), files_, &InputFiles::open_folder_dialog);
  open_folder->setToolTip(tr("Open an MLF folder or a firmware tree holding TVM's generated sources"));
  files_->set_recent_menu(file->addMenu(tr("Open &Recent")));
  file->addAction(tr("Open &Session…"), files_, &InputFiles::open_session_dialog);
  file->addSeparator();
  save_action_ =
      file->addAction(tr("&Save Session"), QKeySequence::Save, files_, [this] { files_->save_session(false); });
  file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, files_, [this] { files_->save_session(true); });
  file->addSeparator();
  export_action_ =
      file->addAction(tr("&Export Sources…"), QKeySequence(tr("Ctrl+E")), exports_, &ExportCommands::export_sources);
  report_action_ = file->addAction(tr("Export &Report…"), QKeySequence(tr("Ctrl+Shift+E")), exports_,
                                   &ExportCommands::export_report);
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
    buffers_->focus_filter();
  });
  edit->addSeparator();
  unpin_action_ =
      edit->addAction(tr("U&npin Selected"), QKeySequence(tr("Ctrl+U")), this, [this] { edits_->unpin(selection_); });
  edit->addAction(tr("Unpin &All"), edits_, &EditCommands::unpin_all);

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
      status_->show_message(text, 10000);
  });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit Charts"), QKeySequence(tr("Ctrl+0")), chart_, &views::PoolChartWidget::reset_view);
  view->setObjectName(QStringLiteral("viewMenu"));
  reference_action_ = view->addAction(tr("Show &TVM's Plan"), QKeySequence(tr("Ctrl+T")));
  reference_action_->setCheckable(true);
  reference_action_->setToolTip(tr("Draw where TVM placed each buffer as dashed outlines over the current plan"));
  connect(reference_action_, &QAction::toggled, chart_, &views::PoolChartWidget::set_show_reference);
  view->addSeparator();
  help_ = new HelpMenu(this);
}

void MainWindow::create_toolbar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolbar"));
  bar->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open"), files_, &InputFiles::open_dialog);
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
    if (name.toStdString() != controller_->edits().algorithm) edits_->use_algorithm(name);
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
    edits_->set_time_limit(time_limit_box_->value());
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
  connect(dialog, &CompareDialog::apply_algorithm, edits_, &EditCommands::use_algorithm);
  dialog->show();
  dialog->run();
}

void MainWindow::create_docks() {
  connect(buffers_, &BufferTablePanel::column_resized, this, &MainWindow::record_column_width);
  connect(buffers_, &BufferTablePanel::rows_selected, this,
          [this](const std::vector<int>& buffers) { select_buffers(buffers, true); });
  connect(buffers_, &BufferTablePanel::matches_changed, chart_, &views::PoolChartWidget::set_matches);
  connect(buffers_, &BufferTablePanel::exact_match, this, [this](int buffer) { select_buffers({buffer}, true); });

  auto add_dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu")))
      view->addAction(dock->toggleViewAction());
    return dock;
  };
  QDockWidget* buffers = add_dock(tr("Buffers"), QStringLiteral("buffersDock"), buffers_, Qt::RightDockWidgetArea);
  QDockWidget* inspector =
      add_dock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector_, Qt::RightDockWidgetArea);
  splitDockWidget(buffers, inspector, Qt::Vertical);
  add_dock(tr("Pools"), QStringLiteral("poolsDock"), pool_editor_, Qt::BottomDockWidgetArea);
  diagnostics_view_->setModel(diagnostics_model_);
  diagnostics_view_->setWordWrap(true);
  add_dock(tr("Diagnostics"), QStringLiteral("diagnosticsDock"), diagnostics_view_, Qt::BottomDockWidgetArea);
  models_dock_ = add_dock(tr("Models"), QStringLiteral("modelsDock"), create_models_panel(), Qt::RightDockWidgetArea);
  tabifyDockWidget(inspector, models_dock_);
  models_dock_->hide();  // shown for inputs of several models
  resizeDocks({buffers}, {520}, Qt::Horizontal);

  connect(inspector_, &views::InspectorWidget::buffer_link_activated, this,
          [this](int b) { select_buffers({b}, true); });
  connect(pool_editor_, &views::PoolEditorWidget::pools_edited, edits_, &EditCommands::set_pools);
  connect(pool_editor_, &views::PoolEditorWidget::message, this,
          [this](const QString& m) { status_->show_message(m, 5000); });
  connect(diagnostics_view_, &QListView::clicked, this, [this](const QModelIndex& index) {
    const QList<int> culprits = index.data(views::DiagnosticsModel::kBuffersRole).value<QList<int>>();
    select_buffers(std::vector<int>(culprits.begin(), culprits.end()), true);
    const int pool = index.data(views::DiagnosticsModel::kPoolRole).toInt();
    if (pool >= 0) pool_editor_->select_pool(pool);
  });
}

void MainWindow::select_buffers(const std::vector<int>& buffers, bool reveal) {
  selection_ = buffers;
  chart_->set_selection(buffers);
  if (!buffers.empty() && reveal) chart_->reveal(buffers.front());
  if (controller_->has_input() && !buffers.empty()) {
    inspector_->show_buffer(controller_->problem(), controller_->plan(), controller_->conflicts_of(buffers.back()),
                            buffers.back());
  } else {
    inspector_->clear_buffer();
  }
  buffers_->show_selection(buffers);
  update_actions();
}

namespace {

std::vector<ModelSpan> models_of(const ExplorerController& controller) {
  return controller.has_input() && controller.input().details ? controller.input().details->models()
                                                              : std::vector<ModelSpan>{};
}

}  // namespace

QWidget* MainWindow::create_models_panel() {
  models_panel_ = new views::ModelsPanel;
  connect(models_panel_, &views::ModelsPanel::model_chosen, this, &MainWindow::show_model);
  return models_panel_;
}

void MainWindow::reset_models_panel() {
  const std::vector<ModelSpan> models = models_of(*controller_);
  models_panel_->set_models(models);
  buffers_->show_only(std::nullopt);
  models_dock_->setVisible(!models.empty());
  if (!models.empty()) models_dock_->raise();
}

void MainWindow::update_models_figures() {
  if (!controller_->has_input() || !controller_->input().details) return;
  models_panel_->set_sharing(controller_->input().details->sharing(controller_->problem(), controller_->plan()));
}

void MainWindow::show_model(int model) {
  const std::vector<ModelSpan> models = models_of(*controller_);
  if (model < 0 || static_cast<size_t>(model) >= models.size()) {
    buffers_->show_only(std::nullopt);
    buffers_->apply_filter();
    chart_->reset_view();
    return;
  }
  const ModelSpan& span = models[static_cast<size_t>(model)];
  buffers_->show_only(std::unordered_set<int>(span.buffers.begin(), span.buffers.end()));
  buffers_->apply_filter();  // the charts draw the other models' boxes faint
  chart_->show_ticks(static_cast<double>(span.first_tick), static_cast<double>(span.last_tick + 1));
}

}  // namespace usmpx::app
