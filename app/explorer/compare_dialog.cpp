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
  lay_out();
  apply_->setEnabled(false);
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
            mark_running(done);
          });
  connect(controller_, &ExplorerController::comparison_plan_ready, this, &CompareDialog::take_plan);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &CompareDialog::show_selection);
  connect(apply_, &QPushButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row < 0) return;
    emit apply_algorithm(table_->item(row, 0)->text());
    accept();
  });
  place_over_parent(this);
}

// The algorithms to run on the left; the results table with its note over the charts on the right.
void CompareDialog::lay_out() {
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
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void CompareDialog::show_selection() {
  const int row = table_->selectedItems().isEmpty() ? -1 : table_->currentRow();
  const bool applicable = row >= 0 && table_->item(row, 0) && table_->item(row, 0)->data(Qt::UserRole).toBool();
  apply_->setEnabled(applicable);
  // The selected row's chart is framed, so the table and the charts read together.
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (!rows_[r].box) continue;
    rows_[r].box->setStyleSheet(static_cast<int>(r) == row
                                    ? QStringLiteral("#compareBox { border: 3px solid #1f77b4; }")
                                    : QStringLiteral("#compareBox { border: 3px solid transparent; }"));
  }
  if (row >= 0 && static_cast<size_t>(row) < rows_.size() && rows_[static_cast<size_t>(row)].box)
    chart_scroll_->ensureWidgetVisible(rows_[static_cast<size_t>(row)].box);
}

void CompareDialog::run() {
  QStringList algorithms;
  for (int i = 0; i < choices_->count(); ++i) {
    if (choices_->item(i)->checkState() == Qt::Checked) algorithms << choices_->item(i)->text();
  }
  requested_ = algorithms;
  run_->setText(tr("Cancel"));
  progress_->setText(tr("Starting…"));
  start_rows();
  comparing_ = true;
  controller_->compare(algorithms);
}

void CompareDialog::start_rows() {
  clear_charts();
  rows_.clear();
  running_ = -1;
  for (const QString& name : requested_) {
    // as-built is run only when the input carries a plan (else the note says why it is missing).
    if (name == QStringLiteral("as-built") && !controller_->has_reference()) continue;
    Row row;
    row.algorithm = name;
    row.box = new QWidget;
    row.box->setObjectName(QStringLiteral("compareBox"));
    row.box->hide();
    charts_->addWidget(row.box);
    rows_.push_back(std::move(row));
  }
  fill_table();
}

int CompareDialog::row_of(int index) const {
  if (index < 0 || index >= requested_.size()) return -1;
  for (size_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].algorithm == requested_[index]) return static_cast<int>(r);
  return -1;
}

void CompareDialog::mark_running(int index) {
  if (!comparing_) return;
  running_ = row_of(index);
  fill_table();
}

void CompareDialog::take_plan(int index, const Plan& plan) {
  const int r = row_of(index);
  if (!comparing_ || r < 0) return;
  Row& row = rows_[static_cast<size_t>(r)];
  row.plan = plan;
  build_chart(row);
  update_chart_scales();
  fill_table();
}

void CompareDialog::show_results() {
  run_->setText(tr("Run"));
  comparing_ = false;
  running_ = -1;
  const std::vector<Plan>& plans = controller_->comparison();
  // The controller's plans are the result: the rows that got one stay, those never run go.
  std::vector<Row> kept;
  for (Row& row : rows_) {
    if (row.plan) {
      kept.push_back(std::move(row));
    } else {
      delete row.box;
    }
  }
  rows_ = std::move(kept);
  if (rows_.size() != plans.size()) {  // not every plan was seen as it came: start from the result
    clear_charts();
    rows_.clear();
    for (const Plan& plan : plans)
      rows_.push_back(Row{QString::fromStdString(plan.algorithm), plan, nullptr});
  }
  for (size_t r = 0; r < rows_.size(); ++r) {
    rows_[r].plan = plans[r];
    if (!rows_[r].box) build_chart(rows_[r]);
  }
  update_chart_scales();
  // How the run ended.
  int listed = 0;
  for (const QString& name : requested_)
    listed += name != QStringLiteral("as-built") || controller_->has_reference() ? 1 : 0;
  progress_->setText(static_cast<int>(plans.size()) < listed
                         ? tr("Cancelled: %1 of %2 algorithms ran").arg(plans.size()).arg(listed)
                         : tr("Done: %1 algorithms").arg(plans.size()));
  fill_table();
}

void CompareDialog::fill_table() {
  const Problem& problem = controller_->problem();
  QStringList headers{tr("Algorithm")};
  for (const Pool& pool : problem.pools)
    headers << QString::fromStdString(pool.name);
  headers << tr("Total") << tr("Gap") << tr("Time (ms)") << tr("Fits") << tr("Valid");
  // The figure a firmware pastes for each plan (a .tflite's kTensorArenaSize), as `usmpx compare` has it.
  figure_name_.clear();
  for (const Row& r : rows_) {
    if (const std::optional<FigureToPaste> f = figure_of(r.plan ? &*r.plan : nullptr))
      figure_name_ = QString::fromStdString(f->name);
  }
  if (!figure_name_.isEmpty()) headers << figure_name_;
  headers << tr("Not ranked because");
  const int selected = table_->currentRow();
  table_->clear();
  table_->clearSpans();
  table_->setColumnCount(static_cast<int>(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(static_cast<int>(rows_.size()));
  // Only plans that fit and are valid are ranked (among the plans made so far): the others never
  // look like winners, get no gap and cannot be applied; each says why (the report prints the
  // same words).
  std::vector<Plan> made;
  std::vector<int> made_row;
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (!rows_[r].plan) continue;
    made.push_back(*rows_[r].plan);
    made_row.push_back(static_cast<int>(r));
  }
  const std::vector<ComparedPlan> ranking = rank_plans(problem, made);
  int64_t best = -1;
  // Per pool, the smallest size among the ranked plans: each cell says how far it is from it.
  std::vector<int64_t> best_pool(problem.pools.size(), -1);
  for (size_t m = 0; m < made.size(); ++m) {
    if (!ranking[m].ranked) continue;
    if (best < 0 || made[m].total_size() < best) best = made[m].total_size();
    for (size_t p = 0; p < best_pool.size() && p < made[m].pool_sizes.size(); ++p) {
      if (best_pool[p] < 0 || made[m].pool_sizes[p] < best_pool[p]) best_pool[p] = made[m].pool_sizes[p];
    }
  }
  QString note = not_listed_note();
  size_t m = 0;
  for (size_t r = 0; r < rows_.size(); ++r) {
    const int row = static_cast<int>(r);
    if (!rows_[r].plan) {
      fill_waiting_row(row, row == running_);
      continue;
    }
    const ComparedPlan& rank = ranking[m];
    const Plan& plan = made[m++];
    if (rank.made) {
      fill_plan_row(row, plan, rank, best, best_pool);
      continue;
    }
    // A plan that could not be made (TVM's own after edits) says why instead of sizes.
    const QString reason = QString::fromStdString(rank.reason);
    note += (note.isEmpty() ? QString() : QStringLiteral(" ")) +
            tr("%1 is %2.").arg(QString::fromStdString(plan.algorithm), reason);
    fill_unmade_row(row, reason);
  }
  const bool any_unranked =
      std::any_of(ranking.begin(), ranking.end(), [](const ComparedPlan& c) { return !c.ranked; });
  table_->setColumnHidden(table_->columnCount() - 1, !any_unranked);
  note_->setText(note);
  note_->setVisible(!note.isEmpty());
  fit_reason_column();
  if (selected >= 0 && selected < table_->rowCount()) table_->selectRow(selected);
  show_selection();
  fit_table_height();
}

std::optional<FigureToPaste> CompareDialog::figure_of(const Plan* plan) const {
  const LoadedInput& input = controller_->input();
  if (!plan || !input.details || !plan_ok(controller_->problem(), *plan)) return std::nullopt;
  return input.details->firmware_figure(controller_->problem(), *plan);
}

QString CompareDialog::not_listed_note() const {
  if (controller_->has_reference()) return {};
  return tr("as-built is not listed: this input carries no plan of %1's (USMP was off, the model has no offline "
            "plan, or the input is a problem file).")
      .arg(QString::fromStdString(controller_->input().reference));
}

QTableWidgetItem* CompareDialog::put_cell(int row, int column, const QString& text, bool right) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
  table_->setItem(row, column, item);
  return item;
}

void CompareDialog::fill_waiting_row(int row, bool running) {
  QTableWidgetItem* name = put_cell(row, 0, rows_[static_cast<size_t>(row)].algorithm, false);
  name->setData(Qt::UserRole, false);
  // One cell across the figures says where the algorithm is.
  QTableWidgetItem* state = put_cell(row, 1, running ? tr("running…") : tr("waiting"), false);
  state->setForeground(QColor(running ? 31 : 140, running ? 119 : 140, running ? 180 : 140));
  QFont italic = state->font();
  italic.setItalic(true);
  state->setFont(italic);
  if (table_->columnCount() - 2 > 1) table_->setSpan(row, 1, 1, table_->columnCount() - 2);
}

void CompareDialog::fill_unmade_row(int row, const QString& reason) {
  QTableWidgetItem* name = put_cell(row, 0, rows_[static_cast<size_t>(row)].algorithm, false);
  name->setData(Qt::UserRole, false);
  name->setToolTip(tr("Not ranked, cannot be applied: %1").arg(reason));
  for (int c = 1; c < table_->columnCount() - 1; ++c)
    put_cell(row, c, QStringLiteral("—"), true);
  QTableWidgetItem* why = put_cell(row, table_->columnCount() - 1, reason, false);
  why->setForeground(QColor(170, 0, 0));
  why->setToolTip(reason);
}

void CompareDialog::fill_plan_row(int row, const Plan& plan, const ComparedPlan& rank, int64_t best,
                                  const std::vector<int64_t>& best_pool) {
  int column = 0;
  auto cell = [&](const QString& text, bool right) { return put_cell(row, column++, text, right); };
  QTableWidgetItem* name = cell(QString::fromStdString(plan.algorithm), false);
  name->setData(Qt::UserRole, rank.ranked);
  const QString reason = QString::fromStdString(rank.reason);
  if (!rank.ranked) name->setToolTip(tr("Not ranked, cannot be applied: %1").arg(reason));
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
  for (size_t p = 0; p < best_pool.size(); ++p)
    size_cell(p < plan.pool_sizes.size() ? plan.pool_sizes[p] : 0, best_pool[p]);
  size_cell(plan.total_size(), best);
  cell(QString::fromStdString(rank.gap), true);
  cell(QString::number(plan.runtime_ms, 'f', 1), true);
  const QColor bad(170, 0, 0);
  QTableWidgetItem* fits = cell(rank.fits ? tr("yes") : tr("no"), false);
  QTableWidgetItem* valid = cell(rank.valid ? tr("yes") : tr("no"), false);
  if (!rank.fits) fits->setForeground(bad);
  if (!rank.valid) valid->setForeground(bad);
  if (!figure_name_.isEmpty()) {
    const std::optional<FigureToPaste> f = figure_of(&plan);
    QTableWidgetItem* item =
        cell(f ? (f->exact ? QString() : QStringLiteral(">= ")) + QString::fromStdString(with_separators(f->bytes))
               : QStringLiteral("—"),
             true);
    if (f) item->setToolTip(QString::fromStdString(f->text()));
  }
  QTableWidgetItem* why = cell(reason, false);
  why->setForeground(bad);
  why->setToolTip(reason);
  if (rank.ranked) return;
  // Marked: greyed sizes, so the eye reads only the ranked rows as candidates.
  for (int c = 1; c < column; ++c) {
    QTableWidgetItem* item = table_->item(row, c);
    if (item != fits && item != valid && item != why) item->setForeground(QColor(140, 140, 140));
  }
}

void CompareDialog::build_chart(Row& row) {
  if (!row.box) {
    row.box = new QWidget;
    row.box->setObjectName(QStringLiteral("compareBox"));
    // In the rows' order: after the last box of an earlier row.
    int at = 0;
    for (const Row& other : rows_) {
      if (&other == &row) break;
      if (other.box) at = charts_->indexOf(other.box) + 1;
    }
    charts_->insertWidget(at, row.box);
  }
  QWidget* box = row.box;
  const Problem& problem = controller_->problem();
  const Plan& plan = *row.plan;
  if (!rank_plans(problem, {plan}).front().made) {
    box->hide();  // nothing to draw: the row says why
    return;
  }
  box->setAttribute(Qt::WA_StyledBackground);
  box->setStyleSheet(QStringLiteral("#compareBox { border: 3px solid transparent; }"));
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
  box_layout->addWidget(chart);
  box->show();
}

void CompareDialog::update_chart_scales() {
  // One byte scale per pool across all charts: the largest size or hint any plan shows.
  const Problem& problem = controller_->problem();
  std::vector<qint64> tops(problem.pools.size(), 16);
  for (const Row& row : rows_) {
    if (!row.plan) continue;
    for (size_t p = 0; p < problem.pools.size() && p < row.plan->pool_sizes.size(); ++p)
      tops[p] = std::max<qint64>({tops[p], row.plan->pool_sizes[p], problem.pools[p].size_hint_bytes});
  }
  for (const Row& row : rows_) {
    if (auto* chart = row.box ? row.box->findChild<views::PoolChartWidget*>() : nullptr) chart->set_value_tops(tops);
  }
}

void CompareDialog::clear_charts() {
  while (QLayoutItem* item = charts_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  for (Row& row : rows_)
    row.box = nullptr;
}

void CompareDialog::fit_reason_column() {
  table_->resizeColumnsToContents();
  // The reason column takes what the others leave and wraps its text there, whole: the table
  // never scrolls sideways and no reason is cut.
  const int last = table_->columnCount() - 1;
  int others = 0;
  for (int c = 0; c < last; ++c)
    others += table_->isColumnHidden(c) ? 0 : table_->columnWidth(c);
  const int room = table_->viewport()->width() - others;
  if (!table_->isColumnHidden(last) && table_->columnWidth(last) > room)
    table_->setColumnWidth(last, std::max(160, room));
  table_->setWordWrap(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  const int compact = table_->verticalHeader()->defaultSectionSize();
  for (int r = 0; r < table_->rowCount(); ++r) {
    const QTableWidgetItem* why = table_->item(r, last);
    if (table_->isColumnHidden(last) || !why || why->text().isEmpty()) {
      table_->setRowHeight(r, compact);
      continue;
    }
    const int width = table_->columnWidth(last) - 8;  // the cell's margins
    const int needed =
        table_->fontMetrics().boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, why->text()).height() + 6;
    table_->setRowHeight(r, std::max(compact, needed));
  }
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
