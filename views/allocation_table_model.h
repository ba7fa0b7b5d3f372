#pragma once

#include <QAbstractTableModel>

#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::views {

// The buffers of a problem with where a plan put them, one row per buffer.
class AllocationTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kName, kPool, kOffset, kSize, kEnd, kAlignment, kKind, kLifetime, kColumnCount };

  explicit AllocationTableModel(QObject* parent = nullptr);

  void set_plan(const Problem& problem, const Plan& plan);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  Problem problem_;
  Plan plan_;
};

}  // namespace usmpx::views
