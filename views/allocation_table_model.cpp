#include "allocation_table_model.h"

namespace usmpx::views {

AllocationTableModel::AllocationTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void AllocationTableModel::set_plan(const Problem& problem, const Plan& plan) {
  beginResetModel();
  problem_ = problem;
  plan_ = plan;
  endResetModel();
}

int AllocationTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(problem_.buffers.size());
}

int AllocationTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant AllocationTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const Buffer& buffer = problem_.buffers[static_cast<size_t>(index.row())];
  const Allocation allocation =
      static_cast<size_t>(index.row()) < plan_.allocations.size() ? plan_.allocations[static_cast<size_t>(index.row())] : Allocation{};
  if (role == Qt::TextAlignmentRole) {
    const bool numeric = index.column() == kOffset || index.column() == kSize || index.column() == kEnd ||
                         index.column() == kAlignment;
    return QVariant::fromValue(Qt::Alignment(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter));
  }
  if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
  switch (index.column()) {
    case kName:
      return QString::fromStdString(buffer.name);
    case kPool:
      return allocation.placed() ? QString::fromStdString(problem_.pools[static_cast<size_t>(allocation.pool)].name)
                                 : QStringLiteral("(unplaced)");
    case kOffset:
      return allocation.placed() ? QVariant(static_cast<qlonglong>(allocation.offset)) : QVariant();
    case kSize:
      return static_cast<qlonglong>(buffer.size_bytes);
    case kEnd:
      return allocation.placed() ? QVariant(static_cast<qlonglong>(allocation.offset + buffer.size_bytes)) : QVariant();
    case kAlignment:
      return static_cast<qlonglong>(buffer.alignment);
    case kKind:
      return QString::fromUtf8(to_string(buffer.kind).data(), static_cast<qsizetype>(to_string(buffer.kind).size()));
    case kLifetime:
      return buffer.lifetime ? QStringLiteral("[%1, %2]").arg(buffer.lifetime->first()).arg(buffer.lifetime->last())
                             : QString();
    default:
      return {};
  }
}

QVariant AllocationTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const names[kColumnCount] = {"Buffer", "Pool", "Offset", "Size", "End", "Align", "Kind", "Lifetime"};
  return section >= 0 && section < kColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

}  // namespace usmpx::views
