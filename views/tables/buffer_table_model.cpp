#include "tables/buffer_table_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "chart/box_colors.h"
#include "checks/plan_profile.h"

#include "base/size_text.h"
#include "chart/byte_ticker.h"

namespace usmpx::views {

BufferTableModel::BufferTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void BufferTableModel::set_models(const std::vector<ModelSpan>& models) {
  model_of_.clear();
  for (size_t m = 0; m < models.size(); ++m) {
    for (int b : models[m].buffers) {
      if (b < 0) continue;
      if (static_cast<size_t>(b) >= model_of_.size()) model_of_.resize(static_cast<size_t>(b) + 1, -1);
      model_of_[static_cast<size_t>(b)] = static_cast<int>(m);
    }
  }
  if (rowCount() > 0) emit dataChanged(index(0, kName), index(rowCount() - 1, kName), {Qt::DecorationRole});
}

void BufferTableModel::set_problem(const Problem& problem, const std::vector<int>& conflict_counts) {
  const bool same_buffers = !problem.buffers.empty() && problem.buffers.size() == problem_.buffers.size() &&
                            std::equal(problem.buffers.begin(), problem.buffers.end(), problem_.buffers.begin(),
                                       [](const Buffer& a, const Buffer& b) { return a.name == b.name; });
  if (same_buffers) {
    // An edit: the rows stay (and the view's scroll and selection), with the last placement until
    // the next plan arrives; a placement in a pool that is gone shows as unplaced.
    problem_ = problem;
    conflict_counts_ = conflict_counts;
    for (Allocation& a : allocations_) {
      if (a.pool >= static_cast<int>(problem_.pools.size())) a = Allocation{};
    }
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    return;
  }
  beginResetModel();
  problem_ = problem;
  conflict_counts_ = conflict_counts;
  allocations_.assign(problem.buffers.size(), Allocation{});
  endResetModel();
}

void BufferTableModel::set_plan(const Plan& plan) {
  if (plan.allocations.size() != problem_.buffers.size()) return;
  allocations_ = plan.allocations;
  if (!allocations_.empty()) emit dataChanged(index(0, kPool), index(rowCount() - 1, kEnd));
}

int BufferTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(problem_.buffers.size());
}

int BufferTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant BufferTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() < 0 || index.row() >= rowCount() || index.column() >= kColumnCount) return {};
  const auto row = static_cast<size_t>(index.row());
  const Buffer& buffer = problem_.buffers[row];
  const Allocation& allocation = allocations_[row];
  if (role == kBufferRole) return index.row();
  if (role == Qt::TextAlignmentRole) {
    const int c = index.column();
    const bool numeric = c == kOffset || c == kSize || c == kEnd || c == kAlignment || c == kConflicts;
    return QVariant::fromValue(
        Qt::Alignment(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter));
  }
  if (role == Qt::DecorationRole && index.column() == kName)
    return box_color(row < model_of_.size() ? model_of_[row] : -1, buffer_role(buffer));
  if (role == Qt::ForegroundRole && index.column() == kPool && !allocation.placed()) return QBrush(QColor(200, 0, 0));
  // Long names are elided in the middle; the tooltip gives them whole.
  if (role == Qt::ToolTipRole && index.column() == kName) return QString::fromStdString(buffer.name);
  if (role == Qt::ToolTipRole && index.column() == kPool && allocation.placed())
    return QString::fromStdString(problem_.pools[static_cast<size_t>(allocation.pool)].name);
  if (role == Qt::ToolTipRole && index.column() == kOrigin) {
    return QString::fromStdString(buffer.origin.location.file);
  }
  if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
  // Sizes read as everywhere else; offsets with separators; sorting uses the numbers (EditRole).
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kSize: return format_byte_count(buffer.size_bytes);
      case kOffset:
      case kEnd: {
        if (!allocation.placed()) return {};
        const int64_t at = index.column() == kOffset ? allocation.offset : allocation.offset + buffer.size_bytes;
        return QString::fromStdString(with_separators(at));
      }
      default: break;
    }
  }
  switch (index.column()) {
    case kName: return QString::fromStdString(buffer.name);
    case kPool:
      return allocation.placed() ? QString::fromStdString(problem_.pools[static_cast<size_t>(allocation.pool)].name)
                                 : tr("(unplaced)");
    case kOffset: return allocation.placed() ? QVariant(static_cast<qlonglong>(allocation.offset)) : QVariant();
    case kSize: return static_cast<qlonglong>(buffer.size_bytes);
    case kEnd:
      return allocation.placed() ? QVariant(static_cast<qlonglong>(allocation.offset + buffer.size_bytes)) : QVariant();
    case kAlignment: return static_cast<qlonglong>(buffer.alignment);
    case kKind: return QString::fromStdString(kind_label(buffer));
    case kLifetime:
      return buffer.lifetime ? QStringLiteral("[%1, %2]").arg(buffer.lifetime->first()).arg(buffer.lifetime->last())
                             : QString();
    case kConflicts: return row < conflict_counts_.size() ? conflict_counts_[row] : 0;
    case kPinned:
      if (!buffer.pin) return QString();
      return buffer.pin->offset
                 ? tr("%1 @ %2")
                       .arg(QString::fromStdString(problem_.pools[static_cast<size_t>(buffer.pin->pool)].name))
                       .arg(*buffer.pin->offset)
                 : QString::fromStdString(problem_.pools[static_cast<size_t>(buffer.pin->pool)].name);
    case kOrigin: {
      QString origin = QString::fromStdString(buffer.origin.function);
      if (buffer.origin.location.line > 0) origin += QStringLiteral(":%1").arg(buffer.origin.location.line);
      return origin;
    }
    default: return {};
  }
}

QVariant BufferTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= kColumnCount) return {};
  static const char* const names[kColumnCount] = {"Buffer", "Pool",     "Offset",    "Size",   "End",   "Align",
                                                  "Kind",   "Lifetime", "Conflicts", "Pinned", "Origin"};
  return tr(names[section]);
}

}  // namespace usmpx::views
