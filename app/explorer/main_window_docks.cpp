// The docks around the charts (buffer table, inspector, pools, diagnostics) and the shared selection.
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
#include <QRegularExpression>
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
#include "tables/buffer_filter_proxy.h"
#include "tables/buffer_table_model.h"
#include "tables/diagnostics_model.h"

namespace usmpx::app {

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
  exact_filter_action_ =
      filter_->addAction(style()->standardIcon(QStyle::SP_DialogApplyButton), QLineEdit::TrailingPosition);
  exact_filter_action_->setCheckable(true);
  exact_filter_action_->setText(tr("Exact name"));
  exact_filter_action_->setToolTip(tr("Exact name: show only the buffer with exactly this name (sid_1, not sid_10)"));
  connect(exact_filter_action_, &QAction::toggled, this, [this](bool exact) {
    filter_->setPlaceholderText(exact ? tr("Exact buffer name…") : tr("Filter buffers (name, pool, kind, origin)…"));
    apply_filter();
  });
  connect(filter_, &QLineEdit::textChanged, this, &MainWindow::apply_filter);
  table_->setModel(table_proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);  // one line per cell: long names elide in the middle, never wrap
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setResizeContentsPrecision(200);  // look at 200 rows, not 20,000
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this,
          [this](int column, int, int) { record_column_width(column); });
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
    if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu")))
      view->addAction(dock->toggleViewAction());
    return dock;
  };
  QDockWidget* buffers = add_dock(tr("Buffers"), QStringLiteral("buffersDock"), table_panel, Qt::RightDockWidgetArea);
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
  connect(pool_editor_, &views::PoolEditorWidget::pools_edited, this,
          [this](const std::vector<PoolSetting>& pools, const QString& description) {
            SessionEdits next = controller_->edits();
            next.pools = pools;
            controller_->apply_edit(description, next);
          });
  connect(pool_editor_, &views::PoolEditorWidget::message, this, [this](const QString& m) { show_message(m, 5000); });
  connect(diagnostics_view_, &QListView::clicked, this, [this](const QModelIndex& index) {
    const QList<int> culprits = index.data(views::DiagnosticsModel::kBuffersRole).value<QList<int>>();
    select_buffers(std::vector<int>(culprits.begin(), culprits.end()), true);
    const int pool = index.data(views::DiagnosticsModel::kPoolRole).toInt();
    if (pool >= 0) pool_editor_->select_pool(pool);
  });
}

void MainWindow::apply_filter() {
  const QString text = filter_->text().trimmed();
  if (exact_filter_action_->isChecked() && !text.isEmpty()) {
    table_proxy_->setFilterKeyColumn(views::BufferTableModel::kName);
    table_proxy_->setFilterRegularExpression(QRegularExpression(
        QStringLiteral("^%1$").arg(QRegularExpression::escape(text)), QRegularExpression::CaseInsensitiveOption));
  } else {
    table_proxy_->setFilterKeyColumn(-1);
    table_proxy_->setFilterFixedString(text);
  }
  // The charts show what the filter matches: the other boxes faint.
  if (text.isEmpty() && !table_proxy_->filtering_buffers()) {
    chart_->set_matches(std::nullopt);
  } else {
    std::unordered_set<int> matches;
    for (int r = 0; r < table_proxy_->rowCount(); ++r)
      matches.insert(table_proxy_->index(r, 0).data(views::BufferTableModel::kBufferRole).toInt());
    chart_->set_matches(std::move(matches));
  }
  // One match: select it, so the charts show it at once.
  if (exact_filter_action_->isChecked() && table_proxy_->rowCount() == 1) {
    select_buffers({table_proxy_->index(0, 0).data(views::BufferTableModel::kBufferRole).toInt()}, true);
  }
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

}  // namespace usmpx::app
