#include "tables/buffer_filter_proxy.h"

#include "tables/buffer_table_model.h"

namespace usmpx::views {

void BufferFilterProxy::set_buffer_filter(std::optional<std::unordered_set<int>> buffers) {
  buffers_ = std::move(buffers);
  invalidateFilter();
}

bool BufferFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  if (buffers_) {
    const int buffer = sourceModel()->index(source_row, 0, source_parent).data(BufferTableModel::kBufferRole).toInt();
    if (!buffers_->count(buffer)) return false;
  }
  return QSortFilterProxyModel::filterAcceptsRow(source_row, source_parent);
}

}  // namespace usmpx::views
