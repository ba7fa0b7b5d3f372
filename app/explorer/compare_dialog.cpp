#include "compare_dialog.h"

#include <QColor>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "base/size_text.h"
#include "chart/byte_ticker.h"
#include "chart/chart_data.h"
#include "chart/pool_chart_widget.h"
#include "checks/comparison.h"
#include "checks/plan_summary.h"
#include "explorer_controller.h"
#include "window_fit.h"

#include <algorithm>

namespace usmpx::app {

CompareDialog::CompareDialog(ExplorerController* controller, QWidget* parent)
    : QDialog(parent),
      controller_(controller),
      choices_(new QListWidget),
      table_(new QTableWidget),
      charts_(new QHBoxLayout),
      run_(new QPushButton(tr("Run"))),
      note_(new QLabel),
      progress_(new QLabel),
      apply_(new QPushButton(tr("Apply Selected"))) {
  setWindowTitle(tr("Compare algorithms"));
  fit_window(this, QSize(1200, 760));
  for (const QString& name : controller_->algorithms()) {
    auto* item = new QListWidgetItem(name, choices_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
  }
  choices_->setMaximumWidth(220);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  // Compact rows: a dozen algorithms fit above the charts without scrolling.
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  auto* chart_host = new QWidget;
  chart_host->setLayout(charts_);
  auto* scroll = new QScrollArea;
  chart_scroll_ = scroll;
  scroll->setWidgetResizable(true);
  scroll->setWidget(chart_host);
  auto* table_panel = new QWidget;
  auto* table_layout = new QVBoxLayout(table_panel);
  table_layout->setContentsMargins(0, 0, 0, 0);
  table_layout->addWidget(table_);
  note_->setWordWrap(true);
  table_layout->addWidget(note_);
  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(table_panel);
  right->addWidget(scroll);
  right->setStretchFactor(1, 3);
  auto* top = new QHBoxLayout;
  auto* left = new QVBoxLayout;
  left->addWidget(new QLabel(tr("Algorithms")));
  left->addWidget(choices_);
  left->addWidget(run_);
  progress_->setWordWrap(true);
  progress_->setMaximumWidth(220);
  left->addWidget(progress_);
  top->addLayout(left);
  top->addWidget(right, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  buttons->addButton(apply_, QDialogButtonBox::ActionRole);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(buttons);
  apply_->setEnabled(false);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  // One button: Run, or Cancel while running.
  connect(run_, &QPushButton::clicked, this, [this] {
    if (controller_->comparing()) {
      controller_->cancel_comparison();
    } else {
      run();
    }
  });
  connect(controller_, &ExplorerController::comparison_ready, this, &CompareDialog::show_results);
  connect(controller_, &ExplorerController::comparison_progress, this,
          [this](int done, int total, const QString& running) {
            progress_->setText(tr("Running %1 (%2 of %3)…").arg(running).arg(done + 1).arg(total));
          });
  connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
    const int row = table_->selectedItems().isEmpty() ? -1 : table_->currentRow();
    const bool applicable = row >= 0 && table_->item(row, 0)->data(Qt::UserRole).toBool();
    apply_->setEnabled(applicable);
    // The selected row's chart is framed, so the table and the charts read together.
    for (size_t r = 0; r < chart_boxes_.size(); ++r) {
      chart_boxes_[r]->setStyleSheet(static_cast<int>(r) == row
                                         ? QStringLiteral("#compareBox { border: 3px solid #1f77b4; }")
                                         : QStringLiteral("#compareBox { border: 3px solid transparent; }"));
    }
    if (row >= 0 && static_cast<size_t>(row) < chart_boxes_.size())
      chart_scroll_->ensureWidgetVisible(chart_boxes_[static_cast<size_t>(row)]);
  });
  connect(apply_, &QPushButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row < 0) return;
    emit apply_algorithm(table_->item(row, 0)->text());
    accept();
  });
}

void CompareDialog::run() {
  QStringList algorithms;
  for (int i = 0; i < choices_->count(); ++i) {
    if (choices_->item(i)->checkState() == Qt::Checked) algorithms << choices_->item(i)->text();
  }
  requested_ = algorithms;
  run_->setText(tr("Cancel"));
  progress_->setText(tr("Starting…"));
  controller_->compare(algorithms);
}

void CompareDialog::show_results() {
  run_->setText(tr("Run"));
  const Problem& problem = controller_->problem();
  const std::vector<Plan>& plans = controller_->comparison();
  // How the run ended.
  int listed = 0;
  for (const QString& name : requested_)
    listed += name != QStringLiteral("as-built") || controller_->has_reference() ? 1 : 0;
  progress_->setText(static_cast<int>(plans.size()) < listed
                         ? tr("Cancelled: %1 of %2 algorithms ran").arg(plans.size()).arg(listed)
                         : tr("Done: %1 algorithms").arg(plans.size()));
  QStringList headers{tr("Algorithm")};
  for (const Pool& pool : problem.pools)
    headers << QString::fromStdString(pool.name);
  headers << tr("Total") << tr("Gap") << tr("Time (ms)") << tr("Fits") << tr("Valid") << tr("Not ranked because");
  table_->clear();
  table_->setColumnCount(static_cast<int>(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(static_cast<int>(plans.size()));
  while (QLayoutItem* item = charts_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  chart_boxes_.clear();
  // One byte scale per pool across all charts: the largest size or hint any plan shows.
  std::vector<qint64> tops(problem.pools.size(), 16);
  for (const Plan& plan : plans) {
    for (size_t p = 0; p < problem.pools.size() && p < plan.pool_sizes.size(); ++p)
      tops[p] = std::max<qint64>({tops[p], plan.pool_sizes[p], problem.pools[p].size_hint_bytes});
  }
  QString note;
  if (!controller_->has_reference())
    note = tr("as-built is not listed: this input carries no plan of %1's (USMP was off, the model has no offline "
              "plan, or "
              "the input is a problem file).")
               .arg(QString::fromStdString(controller_->input().reference));
  // Only plans that fit and are valid are ranked: the others never look like winners, get no gap
  // and cannot be applied; each says why (the report prints the same words).
  const std::vector<ComparedPlan> ranking = rank_plans(problem, plans);
  int64_t best = -1;
  // Per pool, the smallest size among the ranked plans: each cell says how far it is from it.
  std::vector<int64_t> best_pool(problem.pools.size(), -1);
  for (size_t r = 0; r < plans.size(); ++r) {
    if (!ranking[r].ranked) continue;
    const Plan& plan = plans[r];
    if (best < 0 || plan.total_size() < best) best = plan.total_size();
    for (size_t p = 0; p < best_pool.size() && p < plan.pool_sizes.size(); ++p) {
      if (best_pool[p] < 0 || plan.pool_sizes[p] < best_pool[p]) best_pool[p] = plan.pool_sizes[p];
    }
  }
  for (size_t r = 0; r < plans.size(); ++r) {
    const Plan& plan = plans[r];
    const ComparedPlan& rank = ranking[r];
    int column = 0;
    auto cell = [&](const QString& text, bool right) {
      auto* item = new QTableWidgetItem(text);
      item->setTextAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
      table_->setItem(static_cast<int>(r), column++, item);
      return item;
    };
    QTableWidgetItem* name = cell(QString::fromStdString(plan.algorithm), false);
    name->setData(Qt::UserRole, rank.ranked);
    const QString reason = QString::fromStdString(rank.reason);
    if (!rank.ranked) name->setToolTip(tr("Not ranked, cannot be applied: %1").arg(reason));
    // A plan that could not be made (TVM's own after edits) says why instead of sizes.
    if (!rank.made) {
      note += (note.isEmpty() ? QString() : QStringLiteral(" ")) +
              tr("%1 is %2.").arg(QString::fromStdString(plan.algorithm), reason);
      for (int c = 1; c < table_->columnCount() - 1; ++c)
        cell(QStringLiteral("—"), true);
      QTableWidgetItem* why = cell(reason, false);
      why->setForeground(QColor(170, 0, 0));
      why->setToolTip(reason);  // whole, where the column elides it
      auto* box = new QWidget;
      box->setObjectName(QStringLiteral("compareBox"));
      chart_boxes_.push_back(box);
      box->hide();
      charts_->addWidget(box);
      continue;
    }
    if (rank.best) {
      QFont bold = name->font();
      bold.setBold(true);
      name->setFont(bold);
    }
    // Exact bytes (rounded sizes hide why one row is ahead), with the difference to the best row;
    // the rounded size in the tooltip.
    auto size_cell = [&](int64_t bytes, int64_t best_bytes) {
      QString text = QString::fromStdString(with_separators(bytes));
      if (rank.ranked && best_bytes >= 0 && bytes > best_bytes)
        text += QStringLiteral(" (+%1)").arg(QString::fromStdString(with_separators(bytes - best_bytes)));
      QTableWidgetItem* item = cell(text, true);
      item->setData(Qt::UserRole, static_cast<qlonglong>(bytes));
      item->setToolTip(views::format_byte_count(bytes));
    };
    for (size_t p = 0; p < problem.pools.size(); ++p)
      size_cell(plan.pool_sizes[p], best_pool[p]);
    size_cell(plan.total_size(), best);
    cell(QString::fromStdString(rank.gap), true);
    cell(QString::number(plan.runtime_ms, 'f', 1), true);
    const QColor bad(170, 0, 0);
    QTableWidgetItem* fits = cell(rank.fits ? tr("yes") : tr("no"), false);
    QTableWidgetItem* valid = cell(rank.valid ? tr("yes") : tr("no"), false);
    if (!rank.fits) fits->setForeground(bad);
    if (!rank.valid) valid->setForeground(bad);
    QTableWidgetItem* why = cell(reason, false);
    why->setForeground(bad);
    why->setToolTip(reason);
    if (!rank.ranked) {
      // Marked: greyed sizes, so the eye reads only the ranked rows as candidates.
      for (int c = 1; c < column; ++c) {
        QTableWidgetItem* item = table_->item(static_cast<int>(r), c);
        if (item != fits && item != valid && item != why) item->setForeground(QColor(140, 140, 140));
      }
    }

    auto* box = new QWidget;
    box->setObjectName(QStringLiteral("compareBox"));
    box->setAttribute(Qt::WA_StyledBackground);
    box->setStyleSheet(QStringLiteral("#compareBox { border: 3px solid transparent; }"));
    chart_boxes_.push_back(box);
    auto* box_layout = new QVBoxLayout(box);
    box_layout->setContentsMargins(4, 4, 4, 4);
    auto* caption =
        new QLabel(QStringLiteral("<b>%1</b> — %2")
                       .arg(QString::fromStdString(plan.algorithm), views::format_byte_count(plan.total_size())));
    caption->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    box_layout->addWidget(caption);
    auto* chart = new views::PoolChartWidget(box, false);
    chart->setMinimumSize(300, 120 * std::max<int>(1, static_cast<int>(problem.pools.size())));
    views::ChartData data = views::build_chart_data(problem, plan, summarize_plan(problem, plan));
    if (controller_->has_input() && controller_->input().details)
      views::add_models(data, controller_->input().details->models());  // a firmware's models in their hues
    chart->set_data(std::move(data));
    chart->set_value_tops(tops);
    box_layout->addWidget(chart);
    charts_->addWidget(box);
  }
  const bool any_unranked =
      std::any_of(ranking.begin(), ranking.end(), [](const ComparedPlan& c) { return !c.ranked; });
  table_->setColumnHidden(table_->columnCount() - 1, !any_unranked);
  note_->setText(note);
  note_->setVisible(!note.isEmpty());
  table_->resizeColumnsToContents();
  // The reason column takes what the others leave, elided at its end ("…") with the whole reason
  // in its tooltip: the table never scrolls sideways.
  const int last = table_->columnCount() - 1;
  int others = 0;
  for (int c = 0; c < last; ++c)
    others += table_->isColumnHidden(c) ? 0 : table_->columnWidth(c);
  const int room = table_->viewport()->width() - others;
  if (!table_->isColumnHidden(last) && table_->columnWidth(last) > room)
    table_->setColumnWidth(last, std::max(160, room));
  table_->setTextElideMode(Qt::ElideRight);
  table_->horizontalHeader()->setStretchLastSection(true);
  fit_table_height();
}

void CompareDialog::fit_table_height() {
  // Every row visible without scrolling: the dialog grows for its rows (within the screen), the
  // table takes up to three fifths of it, the charts the rest.
  int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth();
  for (int r = 0; r < table_->rowCount(); ++r)
    height += table_->rowHeight(r);
  if (table_->horizontalScrollBar()->isVisible()) height += table_->horizontalScrollBar()->height();
  const int wanted = table_->height() < height ? this->height() + (height - table_->height()) : this->height();
  if (wanted > this->height()) fit_window(this, QSize(width(), wanted));
  table_->setMinimumHeight(std::min(height, std::max(200, this->height() * 3 / 5)));
}

}  // namespace usmpx::app
