#pragma once

#include <QSortFilterProxyModel>
#include <optional>
#include <unordered_set>

namespace usmpx::views {

// The buffer table's filter: the text filter of QSortFilterProxyModel, and for a firmware file of
// several models, optionally one model's buffers only (BufferTableModel::kBufferRole).
class BufferFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  // Only these buffers pass (one model's); nullopt: every buffer.
  void set_buffer_filter(std::optional<std::unordered_set<int>> buffers);
  bool filtering_buffers() const { return buffers_.has_value(); }

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  std::optional<std::unordered_set<int>> buffers_;
};

}  // namespace usmpx::views
