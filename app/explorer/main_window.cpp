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
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <iostream>

#include "base/size_text.h"
#include "base/text_file.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "checks/plan_profile.h"
#include "checks/plan_summary.h"
#include "checks/shared_addresses.h"
#include "compare_dialog.h"
#include "explorer_controller.h"
#include "export_dialog.h"
#include "inputs/input_facts.h"
#include "panels/inspector_widget.h"
#include "panels/pool_editor_widget.h"
#include "report_writer.h"
#include "runtime_build_menu.h"
#include "session/session_file.h"
#include "tables/buffer_filter_proxy.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"
#include "window_fit.h"

namespace usmpx::app {
namespace {

QString tooltip_for(const ExplorerController& c, int buffer) {
  const Buffer& b = c.problem().buffers.at(static_cast<size_t>(buffer));
  const Allocation& a = c.plan().allocations.at(static_cast<size_t>(buffer));
  QString text = QStringLiteral("<b>%1</b><br>%2")
                     .arg(QString::fromStdString(b.name).toHtmlEscaped(), views::format_byte_count_exact(b.size_bytes));
  if (a.placed()) {
    text += QObject::tr(" at %1 in %2")
                .arg(QString::fromStdString(with_separators(a.offset)))
                .arg(QString::fromStdString(c.problem().pools[static_cast<size_t>(a.pool)].name));
  }
  // What the box shows: a constant is drawn across the whole run, since it stays in memory.
  if (b.kind == BufferKind::kConstant) {
    text += QObject::tr("<br>drawn across the whole run: constants stay in memory");
    if (b.lifetime) text += QObject::tr(" (used at ticks %1–%2)").arg(b.lifetime->first()).arg(b.lifetime->last());
  } else if (!b.live_ranges.empty()) {
    text += QObject::tr("<br>live only in ticks %1 (one box each)").arg(views::live_ranges_text(b));
  } else if (b.lifetime) {
    text += QObject::tr("<br>live ticks %1–%2").arg(b.lifetime->first()).arg(b.lifetime->last());
  } else if (!c.problem().interval_conflicts()) {
    text += QObject::tr("<br>no lifetime: its conflicts are listed (%1), drawn in a column of its own")
                .arg(c.conflict_counts().at(static_cast<size_t>(buffer)));
  }
  text += QObject::tr("<br>kind: %1").arg(QString::fromStdString(kind_label(b)));
  if (!b.origin.function.empty())
    text += QObject::tr("<br>in %1").arg(QString::fromStdString(b.origin.function).toHtmlEscaped());
  if (b.pin) text += QObject::tr("<br><i>pinned</i>");
  const QString shared = views::shared_addresses_text(
      c.problem(), drawn_over_without_conflict(c.problem(), c.plan(), buffer, c.conflicts_of(buffer)));
  if (!shared.isEmpty()) text += QStringLiteral("<br>") + shared;
  return text;
}

}  // namespace
MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      controller_(new ExplorerController(this)),
      chart_(new views::PoolChartWidget),
      table_model_(new views::BufferTableModel(this)),
      table_proxy_(new views::BufferFilterProxy(this)),
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
    const QString chosen = QInputDialog::getItem(
        this, tr("Choose a module"), tr("This archive holds several modules. Open which one?"), modules, 0, false, &ok);
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
  // Always HTML: a part may be escaped ("&gt;=") in a summary without any tag.
  status_totals_->setTextFormat(Qt::RichText);
  statusBar()->addPermanentWidget(status_totals_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_button_);
  // The whole of a shortened message is in the bar's tooltip while it shows.
  connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& text) {
    if (!text.isEmpty()) return;
    statusBar()->setToolTip(QString());
    message_room_ = 0;
    update_status();
  });
  connect(cancel_button_, &QToolButton::clicked, controller_, &ExplorerController::cancel_planning);

  connect(controller_, &ExplorerController::loading_started, this, [this](const QString& path) {
    loading_path_ = path;
    // Busy from the first moment: reading and analysing a large tree takes seconds.
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    show_message(tr("Loading %1…").arg(path));
  });
  connect(controller_, &ExplorerController::load_failed, this, [this](const QString& message) {
    progress_->setVisible(false);
    remove_recent(loading_path_);  // Open Recent lists only what opens
    show_message(tr("Could not open the input"), 5000);
    show_error(tr("Cannot open input"), message);
  });
  connect(controller_, &ExplorerController::input_loaded, this, &MainWindow::on_input_loaded);
  connect(controller_, &ExplorerController::problem_changed, this, &MainWindow::on_problem_changed);
  connect(controller_, &ExplorerController::plan_ready, this, &MainWindow::on_plan_ready);
  connect(controller_, &ExplorerController::export_finished, this, &MainWindow::on_export_finished);
  connect(controller_, &ExplorerController::export_check_finished, this, &MainWindow::update_actions);
  connect(controller_, &ExplorerController::planning_started, this, [this](const QString& algorithm) {
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    cancel_button_->setVisible(true);
    show_message(tr("Planning with %1…").arg(algorithm));
    update_actions();
  });
  connect(controller_, &ExplorerController::planning_progress, this,
          [this](double fraction, qint64 best, const QString& what) {
            if (fraction >= 0) {
              progress_->setRange(0, 100);
              progress_->setValue(static_cast<int>(fraction * 100));
            }
            if (best < 0) return;
            // The bytes belong to what is searched (one pool), not to the whole plan.
            show_message(what.isEmpty()
                             ? tr("Planning… best so far %1").arg(views::format_byte_count(best))
                             : tr("Searching %1… best so far %2 for it").arg(what, views::format_byte_count(best)));
          });
  connect(controller_, &ExplorerController::planning_finished, this, [this] {
    progress_->setVisible(false);
    cancel_button_->setVisible(false);
    if (!pending_notice_.isEmpty()) {
      update_status();
      show_message(pending_notice_, 10000);
      pending_notice_.clear();
      update_actions();
      return;
    }
    const Plan& plan = controller_->plan();
    const QString message =
        tr("Planned with %1 in %2 ms").arg(QString::fromStdString(plan.algorithm)).arg(plan.runtime_ms, 0, 'f', 0);
    // The totals on the right (set on plan_ready, just before) name the plan and its time too:
    // the message shows only when it fits whole beside them, never cut off under them.
    update_status();  // the progress bar and Cancel are gone: room for more of the summary
    const int room = statusBar()->width() - status_totals_->sizeHint().width() - 32;
    if (statusBar()->fontMetrics().horizontalAdvance(message) <= room) {
      show_message(message, 6000);
    } else {
      statusBar()->clearMessage();
    }
    update_actions();
  });
  connect(controller_, &ExplorerController::notice, this,
          [this](const QString& message) { show_message(message, 10000); });
  connect(controller_, &ExplorerController::edit_rejected, this, [this](const QString& message) {
    show_refusal(message);
    show_error(tr("Edit not applied"), message);
  });
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
  refresh_algorithms();
  update_actions();
  update_status();
  show_message(
      tr("Open a TFLite model (.tflite), an ExecuTorch program (.pte), a TVM model (MLF, firmware tree), a TIR "
         "dump or a problem file — File ▸ Open, or drop it here"));
}

MainWindow::~MainWindow() = default;

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

QString MainWindow::autosave_prompt() const {
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

void MainWindow::offer_autosave_restore() {
  const QString path = ExplorerController::autosave_path();
  if (!QFileInfo::exists(path) || batch_mode_) return;
  const auto answer =
      QMessageBox::question(this, tr("Restore unsaved work?"), autosave_prompt(), QMessageBox::Yes | QMessageBox::No);
  if (answer == QMessageBox::Yes) {
    restore_autosave();
  } else {
    controller_->remove_autosave();
  }
}

bool MainWindow::restore_autosave() {
  QString error;
  if (!controller_->restore_autosave(&error)) {
    show_error(tr("Cannot restore"), error);
    return false;
  }
  show_message(controller_->session_path().isEmpty()
                   ? tr("Restored unsaved work; File ▸ Save Session As… keeps it")
                   : tr("Restored unsaved work of %1; Save writes it there").arg(controller_->session_path()),
               10000);
  return true;
}

void MainWindow::show_error(const QString& title, const QString& message) {
  if (batch_mode_) {
    std::cerr << title.toStdString() << ": " << message.toStdString() << "\n";
    return;
  }
  QMessageBox::critical(this, title, message);
}

void MainWindow::on_input_loaded() {
  // Shown all at once with its first plan (on_plan_ready): until then title, table, charts and
  // status bar all still show the previous input, never half of each.
  switching_input_ = true;
}

void MainWindow::show_new_input() {
  switching_input_ = false;
  // Nothing of the previous input stays: filter, selection, outlines, zoom (at the first plan).
  // The filter first: clearing it must not re-select rows of the previous input.
  exact_filter_action_->setChecked(false);
  filter_->clear();
  select_buffers({}, false);
  reference_action_->setChecked(false);
  fit_on_next_plan_ = true;
  refresh_algorithms();
  table_model_->set_problem(Problem{}, {});
  table_model_->set_problem(controller_->problem(), {});
  const std::vector<ModelSpan> models =
      controller_->input().details ? controller_->input().details->models() : std::vector<ModelSpan>{};
  table_model_->set_models(models);
  inspector_->set_models(models);
  reset_models_panel();
  table_->scrollToTop();  // a new model starts at its first rows, not where the last one was scrolled
  time_limit_box_->setValue(controller_->edits().time_limit_seconds);
  pool_editor_->clear_selection();
  on_problem_changed();
  size_columns();
  inspector_->clear_buffer();
  // What reading the input noticed is said at once, not only where it is listed.
  const size_t warnings = controller_->input().warnings.size();
  show_message(tr("Loaded %1").arg(controller_->input_path()), 4000);
  if (warnings > 0 && pending_notice_.isEmpty()) {
    // Shown once planning is done (its message would replace it at once).
    pending_notice_ = tr("Loaded %1 — %2 in Diagnostics")
                          .arg(QFileInfo(controller_->input_path()).fileName(),
                               warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
  }
  // File ▸ Open starts where this model is.
  QSettings().setValue(QStringLiteral("lastDir"), QFileInfo(controller_->input_path()).absolutePath());
  add_recent(controller_->session_path().isEmpty() ? controller_->input_path() : controller_->session_path());
  update_title();
}

void MainWindow::size_columns() {
  sizing_columns_ = true;
  QHeaderView* header = table_->horizontalHeader();
  // Each column as wide as its longest text over every row (a sample of rows cuts the largest
  // offsets), the name at most two fifths of the table (elided in the middle, whole in its
  // tooltip), so that pool, offset and size stay in view whatever the names.
  const QFontMetrics metrics(table_->font());
  const QFontMetrics header_metrics(header->font());
  const int rows = table_model_->rowCount();
  for (int c = 0; c < table_model_->columnCount(); ++c) {
    const QString title = table_model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    QString longest;
    for (int r = 0; r < rows; ++r) {
      const QString text = table_model_->data(table_model_->index(r, c), Qt::DisplayRole).toString();
      if (text.size() > longest.size()) longest = text;
    }
    int width = std::max(header_metrics.horizontalAdvance(title) + 28, metrics.horizontalAdvance(longest) + 16);
    if (c == views::BufferTableModel::kName) width += 20;  // the kind's colour square
    header->resizeSection(c, width);
  }
  // Name and pool give way (elided in the middle) so that offset and size fit beside them.
  // The room as it will be once the rows are laid out: a vertical scroll bar not shown yet takes its width then.
  const int scroll_bar = table_->verticalScrollBar()->isVisible() ? 0 : table_->verticalScrollBar()->sizeHint().width();
  const int room = std::max(table_->viewport()->width() - scroll_bar, 300);
  const int numbers =
      header->sectionSize(views::BufferTableModel::kOffset) + header->sectionSize(views::BufferTableModel::kSize);
  const int pool = std::min(header->sectionSize(views::BufferTableModel::kPool), std::max(90, room * 2 / 7));
  header->resizeSection(views::BufferTableModel::kPool, pool);
  const int name = std::min(
      {header->sectionSize(views::BufferTableModel::kName), room * 2 / 5, std::max(100, room - pool - numbers - 4)});
  header->resizeSection(views::BufferTableModel::kName, name);
  for (const auto& [name, width] : controller_->session_view().column_widths) {
    for (int c = 0; c < header->count(); ++c) {
      if (table_model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == QString::fromStdString(name))
        header->resizeSection(c, width);
    }
  }
  sizing_columns_ = false;
}

void MainWindow::record_column_width(int column) {
  // The last column stretches with the window: its width is not the user's choice.
  if (sizing_columns_ || !controller_->has_input() || column == table_->horizontalHeader()->count() - 1) return;
  SessionView view = controller_->session_view();
  const std::string name = table_model_->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().toStdString();
  const int width = table_->horizontalHeader()->sectionSize(column);
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
  table_model_->set_problem(controller_->problem(), controller_->conflict_counts());
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
  views::ChartData data = views::build_chart_data(problem, plan, summary);
  // Whose plan the reference is, also before it is drawn (the legend names it: ExecuTorch's, TFLM's).
  for (views::PoolChartData& pool : data.pools)
    pool.reference_name = controller_->reference_name();
  if (controller_->has_reference() && plan.algorithm != "as-built") {
    views::add_reference(data, problem, controller_->reference_allocations(), controller_->reference_pool_bytes(),
                         controller_->reference_name());
  }
  // A firmware file's models: each in its own hue, its ticks labelled (core says which is which).
  if (const auto& details = controller_->input().details) {
    views::add_models(data, details->models());
    // The figure to paste heads the header of the pool it sizes (TFLM's arena).
    if (const std::optional<FigureToPaste> figure = details->firmware_figure(problem, plan);
        figure && figure->pool >= 0 && static_cast<size_t>(figure->pool) < data.pools.size())
      data.pools[static_cast<size_t>(figure->pool)].headline = QString::fromStdString(figure->text());
  }
  chart_->set_data(std::move(data));
  if (fit_on_next_plan_) {
    chart_->reset_view();
    fit_on_next_plan_ = false;
  }
  table_model_->set_plan(plan);
  // Sized to content once the pools are filled in (before, "global_workspace" was cut short).
  if (new_input) size_columns();
  std::vector<int64_t> used;
  for (const PoolSummary& s : summary.pools)
    used.push_back(s.size_bytes);
  // The sections an export gives pools that name none (TVM's), as the export dialog lists them.
  std::vector<QString> sections;
  const std::vector<ExportedPool> exported = controller_->exported_pools();
  for (const PoolSetting& setting : controller_->edits().pools) {
    const auto same = [&](const ExportedPool& e) { return e.name == setting.pool.name; };
    const auto it = std::find_if(exported.begin(), exported.end(), same);
    sections.push_back(it == exported.end() ? QString() : QString::fromStdString(it->section));
  }
  pool_editor_->set_pools(controller_->edits().pools, used, sections);
  // The list keeps its place across edits: the same scroll position after the new findings.
  const int diagnostics_scroll = new_input ? 0 : diagnostics_view_->verticalScrollBar()->value();
  diagnostics_model_->set_diagnostics(controller_->input().warnings, plan.diagnostics,
                                      controller_->runtime_memory_text());
  diagnostics_view_->doItemsLayout();
  diagnostics_view_->verticalScrollBar()->setValue(diagnostics_scroll);
  update_models_figures();
  std::erase_if(selection_, [&](int b) { return static_cast<size_t>(b) >= problem.buffers.size(); });
  select_buffers(selection_, false);
  update_status();
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
  status_totals_->setToolTip(status_tooltip());
  bool any_pinned = false;
  for (int b : selection_) {
    any_pinned =
        any_pinned || (loaded && static_cast<size_t>(b) < controller_->problem().buffers.size() &&
                       find_pin(controller_->edits(), controller_->problem().buffers[static_cast<size_t>(b)].name));
  }
  unpin_action_->setEnabled(any_pinned);
}

}  // namespace usmpx::app
