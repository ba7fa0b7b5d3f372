#include "buffer_table_panel.h"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "tables/buffer_filter_proxy.h"
#include "tables/buffer_table_model.h"

namespace usmpx::app {

BufferTablePanel::BufferTablePanel(QWidget* parent)
    : QWidget(parent),
      model_(new views::BufferTableModel(this)),
      proxy_(new views::BufferFilterProxy(this)),
      table_(new QTableView),
      filter_(new QLineEdit) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  filter_->setPlaceholderText(tr("Filter buffers (name, pool, kind, origin)…"));
  filter_->setClearButtonEnabled(true);
  layout->addWidget(filter_);
  layout->addWidget(table_);
  proxy_->setSourceModel(model_);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setSortRole(Qt::EditRole);
  exact_ = filter_->addAction(style()->standardIcon(QStyle::SP_DialogApplyButton), QLineEdit::TrailingPosition);
  exact_->setCheckable(true);
  exact_->setText(tr("Exact name"));
  exact_->setToolTip(tr("Exact name: show only the buffer with exactly this name (sid_1, not sid_10)"));
  connect(exact_, &QAction::toggled, this, [this](bool exact) {
    filter_->setPlaceholderText(exact ? tr("Exact buffer name…") : tr("Filter buffers (name, pool, kind, origin)…"));
    apply_filter();
  });
  connect(filter_, &QLineEdit::textChanged, this, &BufferTablePanel::apply_filter);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);  // one line per cell: long names elide in the middle, never wrap
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setResizeContentsPrecision(200);  // look at 200 rows, not 20,000
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int width) {
    if (sizing_columns_ || column == table_->horizontalHeader()->count() - 1) return;
    emit column_resized(model_->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString(), width);
  });
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    if (syncing_selection_) return;
    std::vector<int> buffers;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows())
      buffers.push_back(index.data(views::BufferTableModel::kBufferRole).toInt());
    emit rows_selected(buffers);
  });
}

void BufferTablePanel::reset_filter() {
  exact_->setChecked(false);
  filter_->clear();
}

void BufferTablePanel::focus_filter() {
  filter_->setFocus(Qt::ShortcutFocusReason);
  filter_->selectAll();
}

void BufferTablePanel::show_only(std::optional<std::unordered_set<int>> buffers) {
  proxy_->set_buffer_filter(std::move(buffers));
}

void BufferTablePanel::apply_filter() {
  const QString text = filter_->text().trimmed();
  if (exact_->isChecked() && !text.isEmpty()) {
    proxy_->setFilterKeyColumn(views::BufferTableModel::kName);
    proxy_->setFilterRegularExpression(QRegularExpression(QStringLiteral("^%1$").arg(QRegularExpression::escape(text)),
                                                          QRegularExpression::CaseInsensitiveOption));
  } else {
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterFixedString(text);
  }
  // The charts show what the filter matches: the other boxes faint.
  if (text.isEmpty() && !proxy_->filtering_buffers()) {
    emit matches_changed(std::nullopt);
  } else {
    std::unordered_set<int> matches;
    for (int r = 0; r < proxy_->rowCount(); ++r)
      matches.insert(proxy_->index(r, 0).data(views::BufferTableModel::kBufferRole).toInt());
    emit matches_changed(matches);
  }
  // One match: select it, so the charts show it at once.
  if (exact_->isChecked() && proxy_->rowCount() == 1)
    emit exact_match(proxy_->index(0, 0).data(views::BufferTableModel::kBufferRole).toInt());
}

void BufferTablePanel::show_selection(const std::vector<int>& buffers) {
  syncing_selection_ = true;
  table_->selectionModel()->clearSelection();
  for (int b : buffers) {
    const QModelIndex row = proxy_->mapFromSource(model_->index(b, 0));
    if (row.isValid()) table_->selectionModel()->select(row, QItemSelectionModel::Select | QItemSelectionModel::Rows);
  }
  if (!buffers.empty()) {
    const QModelIndex row = proxy_->mapFromSource(model_->index(buffers.back(), 0));
    if (row.isValid()) table_->scrollTo(row);
  }
  syncing_selection_ = false;
}

void BufferTablePanel::size_columns(const std::vector<std::pair<std::string, int>>& saved) {
  sizing_columns_ = true;
  QHeaderView* header = table_->horizontalHeader();
  // Each column as wide as its longest text over every row (a sample of rows cuts the largest
  // offsets), the name at most two fifths of the table (elided in the middle, whole in its
  // tooltip), so that pool, offset and size stay in view whatever the names.
  const QFontMetrics metrics(table_->font());
  const QFontMetrics header_metrics(header->font());
  const int rows = model_->rowCount();
  for (int c = 0; c < model_->columnCount(); ++c) {
    const QString title = model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    QString longest;
    for (int r = 0; r < rows; ++r) {
      const QString text = model_->data(model_->index(r, c), Qt::DisplayRole).toString();
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
  const int name_width = std::min(
      {header->sectionSize(views::BufferTableModel::kName), room * 2 / 5, std::max(100, room - pool - numbers - 4)});
  header->resizeSection(views::BufferTableModel::kName, name_width);
  for (const auto& [name, width] : saved) {
    for (int c = 0; c < header->count(); ++c) {
      if (model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == QString::fromStdString(name))
        header->resizeSection(c, width);
    }
  }
  sizing_columns_ = false;
}

}  // namespace usmpx::app
