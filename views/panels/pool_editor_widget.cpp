#include "panels/pool_editor_widget.h"

#include "base/size_text.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QMenu>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "base/config_error.h"
#include "chart/byte_ticker.h"
#include "config/pool_options.h"

namespace usmpx::views {

PoolEditorWidget::PoolEditorWidget(QWidget* parent)
    : QWidget(parent),
      table_(new QTableWidget(0, kColumnCount)),
      remove_(new QPushButton(tr("Remove"))),
      up_(new QPushButton(tr("Up"))),
      down_(new QPushButton(tr("Down"))) {
  table_->setHorizontalHeaderLabels(
      {tr("Pool"), tr("Kind"), tr("Size hint"), tr("Used"), tr("Align"), tr("Section"), tr("Internal")});
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(
      tr("Order = preference: buffers go into the first pool with room.\n"
         "Size hint: bytes, 256k, 4.5M, 96 KiB, or empty for unlimited."));
  auto* add = new QPushButton(tr("Add"));
  auto* add_menu = new QMenu(add);
  add_menu->addAction(tr("Workspace pool"), this, [this] { add_pool(PoolKind::kWorkspace); });
  add_menu->addAction(tr("Constant pool"), this, [this] { add_pool(PoolKind::kConstant); });
  add->setMenu(add_menu);
  connect(remove_, &QPushButton::clicked, this, &PoolEditorWidget::remove_selected);
  connect(up_, &QPushButton::clicked, this, [this] { move_selected(-1); });
  connect(down_, &QPushButton::clicked, this, [this] { move_selected(+1); });
  connect(table_, &QTableWidget::cellChanged, this, &PoolEditorWidget::cell_changed);
  auto* buttons = new QHBoxLayout;
  for (QPushButton* b : {add, remove_, up_, down_})
    buttons->addWidget(b);
  buttons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(table_);
  layout->addLayout(buttons);
}

void PoolEditorWidget::set_pools(const std::vector<PoolSetting>& pools, const std::vector<int64_t>& used_bytes,
                                 const std::vector<QString>& default_sections) {
  pools_ = pools;
  used_ = used_bytes;
  default_sections_ = default_sections;
  refresh();
}

QString PoolEditorWidget::default_section(size_t pool) const {
  return pool < default_sections_.size() ? default_sections_[pool] : QString();
}

void PoolEditorWidget::select_pool(int row) {
  table_->selectRow(row);
}

void PoolEditorWidget::clear_selection() {
  table_->clearSelection();
  table_->setCurrentCell(-1, -1);
}

namespace {

// A size hint as every size reads (the one formatter: "40 KiB", "4.59 MiB", "9,999 B"); the
// exact bytes in its tooltip. What it shows reads back (parse_byte_count), to the byte when exact.
QString hint_text(int64_t bytes) {
  return format_byte_count(bytes);
}

}  // namespace

void PoolEditorWidget::refresh() {
  filling_ = true;
  const int selected = table_->currentRow();
  table_->setRowCount(static_cast<int>(pools_.size()));
  for (size_t i = 0; i < pools_.size(); ++i) {
    const Pool& pool = pools_[i].pool;
    const int row = static_cast<int>(i);
    auto set = [&](int column, const QString& text, bool editable, Qt::Alignment align = Qt::AlignLeft) {
      auto* item = new QTableWidgetItem(text);
      item->setTextAlignment(align | Qt::AlignVCenter);
      if (!editable) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
      table_->setItem(row, column, item);
    };
    set(kName, QString::fromStdString(pool.name), true);
    set(kKind, pool.kind == PoolKind::kConstant ? tr("constant") : tr("workspace"), false);
    set(kSizeHint, pool.restricted() ? hint_text(pool.size_hint_bytes) : QString(), true, Qt::AlignRight);
    if (pool.restricted())
      table_->item(row, kSizeHint)
          ->setToolTip(tr("%1 bytes").arg(QString::fromStdString(with_separators(pool.size_hint_bytes))));
    const int64_t used = i < used_.size() ? used_[i] : 0;
    set(kUsed, format_byte_count(used), false, Qt::AlignRight);
    if (!pool.fits(0, used)) table_->item(row, kUsed)->setForeground(QColor(200, 0, 0));
    set(kAlignment, QString::number(pool.alignment), true, Qt::AlignRight);
    if (pool.section.empty() && !default_section(i).isEmpty()) {
      // Where the export puts it unless told otherwise: shown, greyed, never blank.
      set(kSection, default_section(i), true);
      table_->item(row, kSection)->setForeground(QColor(128, 128, 128));
      table_->item(row, kSection)->setToolTip(tr("The export's default section; type another to set one"));
    } else {
      set(kSection, QString::fromStdString(pool.section), true);
    }
    auto* internal = new QTableWidgetItem;
    internal->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    internal->setCheckState(pool.internal ? Qt::Checked : Qt::Unchecked);
    table_->setItem(row, kInternal, internal);
    if (!pools_[i].base.empty() && pools_[i].base != pool.name) {
      table_->item(row, kName)
          ->setToolTip(tr("from the input's pool '%1'").arg(QString::fromStdString(pools_[i].base)));
    }
  }
  table_->resizeColumnsToContents();
  if (selected >= 0 && selected < table_->rowCount()) table_->selectRow(selected);
  filling_ = false;
}

void PoolEditorWidget::cell_changed(int row, int column) {
  if (filling_ || row < 0 || static_cast<size_t>(row) >= pools_.size()) return;
  std::vector<PoolSetting> next = pools_;
  Pool& pool = next[static_cast<size_t>(row)].pool;
  const QString text = table_->item(row, column)->text().trimmed();
  QString description;
  try {
    switch (column) {
      case kName:
        if (text.isEmpty()) throw ConfigError("a pool needs a name");
        description = tr("Rename pool %1 to %2").arg(QString::fromStdString(pool.name), text);
        pool.name = text.toStdString();
        break;
      case kSizeHint:
        // What hint_text shows reads back: "96 KiB", "98,305".
        pool.size_hint_bytes =
            text.isEmpty()
                ? kUnrestrictedPoolSize
                : parse_byte_count("size hint",
                                   QString(text).remove(QLatin1Char(' ')).remove(QLatin1Char(',')).toStdString());
        description = tr("Set size hint of %1").arg(QString::fromStdString(pool.name));
        break;
      case kAlignment: {
        bool ok = false;
        const qint64 value = text.toLongLong(&ok);
        if (!ok || value < 1) throw ConfigError("alignment must be a positive integer");
        pool.alignment = value;
        description = tr("Set alignment of %1").arg(QString::fromStdString(pool.name));
        break;
      }
      case kSection:
        if (pool.section.empty() && text == default_section(static_cast<size_t>(row))) return;  // unchanged
        pool.section = text.toStdString();
        description = tr("Set section of %1").arg(QString::fromStdString(pool.name));
        break;
      case kInternal:
        pool.internal = table_->item(row, column)->checkState() == Qt::Checked;
        description =
            tr("Make %1 %2").arg(QString::fromStdString(pool.name), pool.internal ? tr("internal") : tr("external"));
        break;
      default: return;
    }
  } catch (const ConfigError& e) {
    emit message(QString::fromStdString(e.what()));
    refresh();
    return;
  }
  emit pools_edited(next, description);
}

void PoolEditorWidget::add_pool(PoolKind kind) {
  std::vector<PoolSetting> next = pools_;
  QString name = kind == PoolKind::kConstant ? QStringLiteral("flash") : QStringLiteral("sram");
  for (int n = 2;
       std::any_of(next.begin(), next.end(), [&](const PoolSetting& s) { return s.pool.name == name.toStdString(); });
       ++n) {
    name = (kind == PoolKind::kConstant ? QStringLiteral("flash") : QStringLiteral("sram")) + QString::number(n);
  }
  Pool pool;
  pool.name = name.toStdString();
  pool.kind = kind;
  next.push_back({pool, ""});
  emit pools_edited(next, tr("Add pool %1").arg(name));
}

void PoolEditorWidget::remove_selected() {
  const int row = table_->currentRow();
  if (row < 0 || static_cast<size_t>(row) >= pools_.size()) return;
  std::vector<PoolSetting> next = pools_;
  const QString name = QString::fromStdString(next[static_cast<size_t>(row)].pool.name);
  next.erase(next.begin() + row);
  emit pools_edited(next, tr("Remove pool %1").arg(name));
}

void PoolEditorWidget::move_selected(int delta) {
  const int row = table_->currentRow();
  const int target = row + delta;
  if (row < 0 || target < 0 || static_cast<size_t>(target) >= pools_.size()) return;
  std::vector<PoolSetting> next = pools_;
  std::swap(next[static_cast<size_t>(row)], next[static_cast<size_t>(target)]);
  emit pools_edited(next, tr("Move pool %1 %2")
                              .arg(QString::fromStdString(next[static_cast<size_t>(target)].pool.name),
                                   delta < 0 ? tr("up") : tr("down")));
  table_->selectRow(target);
}

}  // namespace usmpx::views
