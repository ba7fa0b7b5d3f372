#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
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
#include <QDir>
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

#include "analysis/plan_summary.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "compare_dialog.h"
#include "export_dialog.h"
#include "explorer_controller.h"
#include "panels/inspector_widget.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"

namespace usmpx::app {
namespace {

constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";

QString tooltip_for(const ExplorerController& c, int buffer) {
  const Buffer& b = c.problem().buffers.at(static_cast<size_t>(buffer));
  const Allocation& a = c.plan().allocations.at(static_cast<size_t>(buffer));
  QString text = QStringLiteral("<b>%1</b><br>%2 bytes").arg(QString::fromStdString(b.name).toHtmlEscaped()).arg(b.size_bytes);
  if (a.placed()) {
    text += QObject::tr(" at %1 in %2").arg(a.offset).arg(QString::fromStdString(c.problem().pools[static_cast<size_t>(a.pool)].name));
  }
  if (b.lifetime) text += QObject::tr("<br>live ticks %1–%2").arg(b.lifetime->first()).arg(b.lifetime->last());
  if (!b.origin.function.empty()) text += QObject::tr("<br>in %1").arg(QString::fromStdString(b.origin.function).toHtmlEscaped());
  if (b.pin) text += QObject::tr("<br><i>pinned</i>");
  return text;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      controller_(new ExplorerController(this)),
      chart_(new views::PoolChartWidget),
      table_model_(new views::BufferTableModel(this)),
      table_proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView),
      filter_(new QLineEdit),
      inspector_(new views::InspectorWidget),
      pool_editor_(new views::PoolEditorWidget),
      diagnostics_model_(new views::DiagnosticsModel(this)),
      diagnostics_view_(new QListView),
      algorithm_box_(new QComboBox),
      time_limit_box_(new QDoubleSpinBox),
      progress_(new QProgressBar),
      cancel_button_(new QToolButton),
      status_totals_(new QLabel) {
  setWindowTitle(tr("USMP Explorer"));
  setAcceptDrops(true);
  setCentralWidget(chart_);
  choose_module_ = [this](const QStringList& modules) {
    if (batch_mode_) return modules.first();
    bool ok = false;
    const QString chosen = QInputDialog::getItem(this, tr("Choose a module"),
                                                 tr("This archive holds several modules. Open which one?"), modules, 0, false, &ok);
    return ok ? chosen : QString();
  };
  chart_->set_tooltip_provider([this](int buffer) { return tooltip_for(*controller_, buffer); });
  chart_->set_tick_labeler([this](int64_t tick) {
    const TimelineSpan* span = controller_->has_input() ? controller_->problem().span_at(tick) : nullptr;
    return span ? QString::fromStdString(span->label).toHtmlEscaped() : QString();
  });
  create_actions();
  create_toolbar();
  create_docks();

  progress_->setMaximumWidth(160);
  progress_->setVisible(false);
  cancel_button_->setText(tr("Cancel"));
  cancel_button_->setVisible(false);
  statusBar()->addPermanentWidget(status_totals_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_button_);
  connect(cancel_button_, &QToolButton::clicked, controller_, &ExplorerController::cancel_planning);

  connect(controller_, &ExplorerController::loading_started, this,
          [this](const QString& path) { statusBar()->showMessage(tr("Loading %1…").arg(path)); });
  connect(controller_, &ExplorerController::load_failed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Could not open the input"), 5000);
    show_error(tr("Cannot open input"), message);
  });
  connect(controller_, &ExplorerController::input_loaded, this, &MainWindow::on_input_loaded);
  connect(controller_, &ExplorerController::problem_changed, this, &MainWindow::on_problem_changed);
  connect(controller_, &ExplorerController::plan_ready, this, &MainWindow::on_plan_ready);
  connect(controller_, &ExplorerController::export_finished, this, &MainWindow::on_export_finished);
  connect(controller_, &ExplorerController::planning_started, this, [this](const QString& algorithm) {
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    cancel_button_->setVisible(true);
    statusBar()->showMessage(tr("Planning with %1…").arg(algorithm));
  });
  connect(controller_, &ExplorerController::planning_progress, this, [this](double fraction, qint64 best) {
    if (fraction >= 0) {
      progress_->setRange(0, 100);
      progress_->setValue(static_cast<int>(fraction * 100));
    }
    if (best >= 0) statusBar()->showMessage(tr("Planning… best so far %1 bytes").arg(best));
  });
  connect(controller_, &ExplorerController::planning_finished, this, [this] {
    progress_->setVisible(false);
    cancel_button_->setVisible(false);
    statusBar()->clearMessage();
  });
  connect(controller_, &ExplorerController::edit_rejected, this,
          [this](const QString& message) { show_error(tr("Edit not applied"), message); });
  connect(controller_, &ExplorerController::history_changed, this, [this] {
    update_actions();
    update_title();
  });

  connect(chart_, &views::PoolChartWidget::buffer_clicked, this, [this](int buffer, Qt::KeyboardModifiers modifiers) {
    std::vector<int> next = (modifiers & Qt::ControlModifier) ? selection_ : std::vector<int>{};
    next.push_back(buffer);
    select_buffers(next, false);
  });
  connect(chart_, &views::PoolChartWidget::empty_clicked, this, [this] { select_buffers({}, false); });
  connect(chart_, &views::PoolChartWidget::pin_requested, this, &MainWindow::on_pin_requested);
  connect(chart_, &views::PoolChartWidget::size_hint_requested, this, &MainWindow::on_size_hint_requested);
  connect(chart_, &views::PoolChartWidget::context_menu_requested, this, [this](int buffer, int, const QPoint& pos) {
    if (buffer < 0) return;
    select_buffers({buffer}, false);
    QMenu* menu = build_buffer_menu(buffer, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(pos);
  });

  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
  time_limit_box_->setValue(settings.value(QStringLiteral("timeLimit"), 5.0).toDouble());
  if (!settings.contains(QStringLiteral("geometry"))) resize(1400, 860);
  refresh_algorithms();
  update_actions();
  update_status();
  statusBar()->showMessage(tr("Open a TVM model (MLF), a TIR dump or a problem file — File ▸ Open, or drop it here"));
}

MainWindow::~MainWindow() = default;

void MainWindow::create_actions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::open_dialog);
  open->setToolTip(tr("Open an MLF tarball or folder, a TIR dump, a problem JSON or a MiniMalloc CSV"));
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addAction(tr("Open &Session…"), this, &MainWindow::open_session_dialog);
  file->addSeparator();
  save_action_ = file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] { save_session(false); });
  file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, [this] { save_session(true); });
  file->addSeparator();
  export_action_ = file->addAction(tr("&Export Sources…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::export_sources);
  report_action_ = file->addAction(tr("Export &Report…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::export_report);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  undo_action_ = edit->addAction(tr("&Undo"), QKeySequence::Undo, controller_, &ExplorerController::undo);
  redo_action_ = edit->addAction(tr("&Redo"), QKeySequence(tr("Ctrl+Shift+Z")), controller_, &ExplorerController::redo);
  edit->addSeparator();
  unpin_action_ = edit->addAction(tr("U&npin Selected"), QKeySequence(tr("Ctrl+U")), this, [this] { unpin(selection_); });
  edit->addAction(tr("Unpin &All"), this, [this] {
    SessionEdits next = controller_->edits();
    next.pins.clear();
    controller_->apply_edit(tr("Unpin all"), next);
  });

  QMenu* plan = menuBar()->addMenu(tr("&Plan"));
  replan_action_ = plan->addAction(tr("&Re-plan"), QKeySequence(tr("F5")), controller_, &ExplorerController::replan);
  plan->addAction(tr("&Cancel Planning"), QKeySequence(tr("Esc")), controller_, &ExplorerController::cancel_planning);
  compare_action_ = plan->addAction(tr("C&ompare Algorithms…"), QKeySequence(tr("Ctrl+K")), this, &MainWindow::show_compare);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Fit Charts"), QKeySequence(tr("Ctrl+0")), chart_, &views::PoolChartWidget::reset_view);
  view->setObjectName(QStringLiteral("viewMenu"));

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

void MainWindow::create_docks() {
  auto* table_panel = new QWidget;
  auto* table_layout = new QVBoxLayout(table_panel);
  table_layout->setContentsMargins(2, 2, 2, 2);
  filter_->setPlaceholderText(tr("Filter buffers (name, pool, kind, origin)…"));
  filter_->setClearButtonEnabled(true);
  table_layout->addWidget(filter_);
  table_layout->addWidget(table_);
  table_proxy_->setSourceModel(table_model_);
  table_proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  table_proxy_->setFilterKeyColumn(-1);
  table_proxy_->setSortRole(Qt::EditRole);
  connect(filter_, &QLineEdit::textChanged, table_proxy_, &QSortFilterProxyModel::setFilterFixedString);
  table_->setModel(table_proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setResizeContentsPrecision(200);  // look at 200 rows, not 20,000
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    if (syncing_selection_) return;
    std::vector<int> buffers;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
      buffers.push_back(index.data(views::BufferTableModel::kBufferRole).toInt());
    }
    select_buffers(buffers, true);
  });

  auto add_dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu"))) view->addAction(dock->toggleViewAction());
    return dock;
  };
  QDockWidget* buffers = add_dock(tr("Buffers"), QStringLiteral("buffersDock"), table_panel, Qt::RightDockWidgetArea);
  QDockWidget* inspector = add_dock(tr("Inspector"), QStringLiteral("inspectorDock"), inspector_, Qt::RightDockWidgetArea);
  splitDockWidget(buffers, inspector, Qt::Vertical);
  add_dock(tr("Pools"), QStringLiteral("poolsDock"), pool_editor_, Qt::BottomDockWidgetArea);
  diagnostics_view_->setModel(diagnostics_model_);
  diagnostics_view_->setWordWrap(true);
  add_dock(tr("Diagnostics"), QStringLiteral("diagnosticsDock"), diagnostics_view_, Qt::BottomDockWidgetArea);
  resizeDocks({buffers}, {520}, Qt::Horizontal);

  connect(inspector_, &views::InspectorWidget::buffer_link_activated, this, [this](int b) { select_buffers({b}, true); });
  connect(pool_editor_, &views::PoolEditorWidget::pools_edited, this,
          [this](const std::vector<PoolSetting>& pools, const QString& description) {
            SessionEdits next = controller_->edits();
            next.pools = pools;
            controller_->apply_edit(description, next);
          });
  connect(pool_editor_, &views::PoolEditorWidget::message, this, [this](const QString& m) { statusBar()->showMessage(m, 5000); });
  connect(diagnostics_view_, &QListView::clicked, this, [this](const QModelIndex& index) {
    const QList<int> culprits = index.data(views::DiagnosticsModel::kBuffersRole).value<QList<int>>();
    select_buffers(std::vector<int>(culprits.begin(), culprits.end()), true);
    const int pool = index.data(views::DiagnosticsModel::kPoolRole).toInt();
    if (pool >= 0) pool_editor_->select_pool(pool);
  });
}

bool MainWindow::open_path(const QString& path) {
  if (!maybe_save()) return false;
  add_recent(QFileInfo(path).absoluteFilePath());
  if (path.endsWith(QStringLiteral(".usmpx.json"))) {
    QString error;
    if (!controller_->open_session(path, &error)) {
      show_error(tr("Cannot open session"), error);
      return false;
    }
    return true;
  }
  QString module;
  try {
    QStringList modules;
    for (const std::string& name : input_modules(path.toStdString())) modules << QString::fromStdString(name);
    if (modules.size() > 1) {
      module = choose_module_ ? choose_module_(modules) : modules.first();
      if (module.isEmpty()) return false;
    }
  } catch (const std::exception& e) {
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
      tr("All inputs (*.tar *.tgz *.tar.gz *.py *.tir *.txt *.json *.csv);;MLF tarballs (*.tar *.tgz *.tar.gz);;"
         "TIR dumps (*.py *.tir *.txt);;Problems (*.json *.csv);;Sessions (*.usmpx.json);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
  open_path(path);
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
  statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
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

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybe_save()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue(QStringLiteral("geometry"), saveGeometry());
  settings.setValue(QStringLiteral("windowState"), saveState());
  controller_->remove_autosave();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) open_path(urls.first().toLocalFile());
}

void MainWindow::offer_autosave_restore() {
  const QString path = ExplorerController::autosave_path();
  if (!QFileInfo::exists(path) || batch_mode_) return;
  const auto answer = QMessageBox::question(this, tr("Restore unsaved work?"),
                                            tr("USMP Explorer did not close normally last time. Restore the unsaved session?"),
                                            QMessageBox::Yes | QMessageBox::No);
  if (answer == QMessageBox::Yes) {
    QString error;
    if (!controller_->open_session(path, &error)) show_error(tr("Cannot restore"), error);
  } else {
    controller_->remove_autosave();
  }
}

void MainWindow::show_error(const QString& title, const QString& message) {
  if (batch_mode_) {
    std::cerr << title.toStdString() << ": " << message.toStdString() << "\n";
    return;
  }
  QMessageBox::critical(this, title, message);
}

void MainWindow::add_recent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecentFiles) recent.removeLast();
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

void MainWindow::refresh_algorithms() {
  filling_algorithms_ = true;
  algorithm_box_->clear();
  algorithm_box_->addItems(controller_->has_input() ? controller_->algorithms() : QStringList{QStringLiteral("best")});
  if (controller_->has_input()) algorithm_box_->setCurrentText(QString::fromStdString(controller_->edits().algorithm));
  filling_algorithms_ = false;
}

void MainWindow::on_input_loaded() {
  refresh_algorithms();
  table_model_->set_problem(controller_->problem(), {});
  time_limit_box_->setValue(controller_->edits().time_limit_seconds);
  on_problem_changed();
  table_->resizeColumnsToContents();
  selection_.clear();
  inspector_->clear_buffer();
  statusBar()->showMessage(tr("Loaded %1").arg(controller_->input_path()), 4000);
  update_title();
}

void MainWindow::on_problem_changed() {
  std::vector<int> counts;
  for (const auto& list : controller_->conflicts()) counts.push_back(static_cast<int>(list.size()));
  table_model_->set_problem(controller_->problem(), counts);
  filling_algorithms_ = true;
  algorithm_box_->setCurrentText(QString::fromStdString(controller_->edits().algorithm));
  filling_algorithms_ = false;
  time_limit_box_->setValue(controller_->edits().time_limit_seconds);
  update_actions();
}

void MainWindow::on_plan_ready() {
  const Problem& problem = controller_->problem();
  const Plan& plan = controller_->plan();
  const PlanSummary summary = summarize_plan(problem, plan);
  chart_->set_data(views::build_chart_data(problem, plan, summary));
  table_model_->set_plan(plan);
  std::vector<int64_t> used;
  for (const PoolSummary& s : summary.pools) used.push_back(s.size_bytes);
  pool_editor_->set_pools(controller_->edits().pools, used);
  diagnostics_model_->set_diagnostics(controller_->input().warnings, plan.diagnostics);
  std::erase_if(selection_, [&](int b) { return static_cast<size_t>(b) >= problem.buffers.size(); });
  select_buffers(selection_, false);
  update_status();
}

void MainWindow::select_buffers(const std::vector<int>& buffers, bool reveal) {
  selection_ = buffers;
  chart_->set_selection(buffers);
  if (!buffers.empty() && reveal) chart_->reveal(buffers.front());
  if (controller_->has_input() && !buffers.empty()) {
    inspector_->show_buffer(controller_->problem(), controller_->plan(), controller_->conflicts(), buffers.back());
  } else {
    inspector_->clear_buffer();
  }
  syncing_selection_ = true;
  table_->selectionModel()->clearSelection();
  for (int b : buffers) {
    const QModelIndex source = table_model_->index(b, 0);
    const QModelIndex row = table_proxy_->mapFromSource(source);
    if (row.isValid()) table_->selectionModel()->select(row, QItemSelectionModel::Select | QItemSelectionModel::Rows);
  }
  if (!buffers.empty()) {
    const QModelIndex row = table_proxy_->mapFromSource(table_model_->index(buffers.back(), 0));
    if (row.isValid()) table_->scrollTo(row);
  }
  syncing_selection_ = false;
  update_actions();
}

void MainWindow::update_status() {
  if (!controller_->has_input()) {
    status_totals_->setText(tr("no input"));
    return;
  }
  const Plan& plan = controller_->plan();
  const int64_t total = plan.total_size();
  const int64_t lb = plan.lower_bound_bytes;
  const bool fits = plan_fits(controller_->problem(), plan);
  QString text = tr("%1 · total %2 · lower bound %3").arg(QString::fromStdString(plan.algorithm), views::format_byte_count(total),
                                                          views::format_byte_count(lb));
  if (lb > 0) text += tr(" · gap %1%").arg(100.0 * static_cast<double>(total - lb) / static_cast<double>(lb), 0, 'f', 1);
  text += fits ? tr(" · fits") : tr(" · <b style='color:#c00'>does not fit</b>");
  if (plan.has_errors() && fits) text += tr(" · <b style='color:#c00'>invalid</b>");
  text += tr(" · %1 buffers · %2 ms").arg(controller_->problem().buffers.size()).arg(plan.runtime_ms, 0, 'f', 1);
  status_totals_->setText(text);
}

void MainWindow::update_title() {
  QString title = tr("USMP Explorer");
  if (controller_->has_input()) {
    title = QFileInfo(controller_->session_path().isEmpty() ? controller_->input_path() : controller_->session_path()).fileName() +
            QStringLiteral("[*] — ") + title;
  }
  setWindowTitle(title);
  setWindowModified(controller_->modified());
}

void MainWindow::update_actions() {
  const bool loaded = controller_->has_input();
  const EditHistory& history = controller_->history();
  undo_action_->setEnabled(history.can_undo());
  redo_action_->setEnabled(history.can_redo());
  undo_action_->setText(history.can_undo() ? tr("&Undo %1").arg(QString::fromStdString(history.undo_text())) : tr("&Undo"));
  redo_action_->setText(history.can_redo() ? tr("&Redo %1").arg(QString::fromStdString(history.redo_text())) : tr("&Redo"));
  save_action_->setEnabled(loaded);
  replan_action_->setEnabled(loaded);
  compare_action_->setEnabled(loaded);
  report_action_->setEnabled(loaded);
  const bool exportable = loaded && ExplorerController::exportable_format(controller_->input().format);
  export_action_->setEnabled(exportable);
  export_action_->setToolTip(exportable ? tr("Write firmware sources for the current plan")
                                        : tr("Sources are exported for Model Library Format inputs and TIR dumps"));
  bool any_pinned = false;
  for (int b : selection_) {
    any_pinned = any_pinned || (loaded && static_cast<size_t>(b) < controller_->problem().buffers.size() &&
                                find_pin(controller_->edits(), controller_->problem().buffers[static_cast<size_t>(b)].name));
  }
  unpin_action_->setEnabled(any_pinned);
}

void MainWindow::pin(int buffer, const QString& pool, std::optional<qint64> offset, const QString& description) {
  const std::string name = controller_->problem().buffers.at(static_cast<size_t>(buffer)).name;
  std::optional<int64_t> at;
  if (offset) at = *offset;
  controller_->apply_edit(description, with_pin(controller_->edits(), name, PinSpec{name, pool.toStdString(), at}));
}

void MainWindow::unpin(const std::vector<int>& buffers) {
  SessionEdits next = controller_->edits();
  for (int b : buffers) next = with_pin(next, controller_->problem().buffers.at(static_cast<size_t>(b)).name, std::nullopt);
  controller_->apply_edit(buffers.size() == 1 ? tr("Unpin %1").arg(QString::fromStdString(controller_->problem().buffers[static_cast<size_t>(buffers[0])].name))
                                              : tr("Unpin %1 buffers").arg(buffers.size()),
                          next);
}

void MainWindow::on_pin_requested(int buffer, int pool, qint64 offset) {
  const Problem& problem = controller_->problem();
  const Buffer& b = problem.buffers.at(static_cast<size_t>(buffer));
  const Pool& target = problem.pools.at(static_cast<size_t>(pool));
  if ((b.kind == BufferKind::kConstant) != (target.kind == PoolKind::kConstant)) {
    statusBar()->showMessage(tr("%1 cannot go into %2 pool %3")
                                 .arg(QString::fromStdString(b.name), QString::fromStdString(std::string(to_string(target.kind))),
                                      QString::fromStdString(target.name)),
                             5000);
    return;
  }
  const QString name = QString::fromStdString(b.name);
  const QString pool_name = QString::fromStdString(target.name);
  if (offset < 0) {
    pin(buffer, pool_name, std::nullopt, tr("Move %1 to %2").arg(name, pool_name));
    return;
  }
  const qint64 aligned = offset / std::max<qint64>(1, b.alignment) * std::max<qint64>(1, b.alignment);
  pin(buffer, pool_name, aligned, tr("Pin %1 at %2 in %3").arg(name).arg(aligned).arg(pool_name));
}

void MainWindow::on_size_hint_requested(int pool, qint64 bytes) {
  SessionEdits next = controller_->edits();
  if (pool < 0 || static_cast<size_t>(pool) >= next.pools.size()) return;
  next.pools[static_cast<size_t>(pool)].pool.size_hint_bytes = bytes;
  controller_->apply_edit(tr("Resize %1 to %2 bytes").arg(QString::fromStdString(next.pools[static_cast<size_t>(pool)].pool.name)).arg(bytes),
                          next);
}

QMenu* MainWindow::build_buffer_menu(int buffer, QWidget* parent) {
  auto* menu = new QMenu(parent);
  const Problem& problem = controller_->problem();
  const Buffer& b = problem.buffers.at(static_cast<size_t>(buffer));
  const Allocation& a = controller_->plan().allocations.at(static_cast<size_t>(buffer));
  const QString name = QString::fromStdString(b.name);
  menu->setTitle(name);
  if (a.placed()) {
    const QString pool = QString::fromStdString(problem.pools[static_cast<size_t>(a.pool)].name);
    menu->addAction(tr("Pin at offset %1 in %2").arg(a.offset).arg(pool), this,
                    [=, this] { pin(buffer, pool, a.offset, tr("Pin %1 at %2").arg(name).arg(a.offset)); });
    menu->addAction(tr("Pin to %1 (any offset)").arg(pool), this,
                    [=, this] { pin(buffer, pool, std::nullopt, tr("Pin %1 to %2").arg(name, pool)); });
  }
  QAction* unpin_one = menu->addAction(tr("Unpin"), this, [=, this] { unpin({buffer}); });
  unpin_one->setEnabled(find_pin(controller_->edits(), b.name) != nullptr);
  QMenu* move = menu->addMenu(tr("Move to Pool"));
  for (size_t p = 0; p < problem.pools.size(); ++p) {
    const Pool& pool = problem.pools[p];
    if ((pool.kind == PoolKind::kConstant) != (b.kind == BufferKind::kConstant) || static_cast<int>(p) == a.pool) continue;
    const QString pool_name = QString::fromStdString(pool.name);
    move->addAction(pool_name, this, [=, this] { pin(buffer, pool_name, std::nullopt, tr("Move %1 to %2").arg(name, pool_name)); });
  }
  move->setEnabled(!move->isEmpty());
  menu->addSeparator();
  menu->addAction(tr("Select Conflicts"), this, [=, this] {
    std::vector<int> with = controller_->conflicts().at(static_cast<size_t>(buffer));
    with.push_back(buffer);
    std::sort(with.begin(), with.end());
    with.erase(std::unique(with.begin(), with.end()), with.end());
    select_buffers(with, false);
  });
  return menu;
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
