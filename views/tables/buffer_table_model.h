#pragma once

#include <QAbstractTableModel>

#include "model/model_span.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::views {

// Every buffer of the problem with where the plan put it, one row per buffer (row = buffer index).
class BufferTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kName,
    kPool,
    kOffset,
    kSize,
    kEnd,
    kAlignment,
    kKind,
    kLifetime,
    kConflicts,
    kPinned,
    kOrigin,
    kColumnCount
  };
  static constexpr int kBufferRole = Qt::UserRole + 1;  // the buffer index, for any column

  explicit BufferTableModel(QObject* parent = nullptr);

  // A new problem. For an edit of the same buffers the rows stay and keep their last placement
  // until set_plan gives the next one; otherwise everything is replaced.
  void set_problem(const Problem& problem, const std::vector<int>& conflict_counts);
  void set_plan(const Plan& plan);
  // A firmware file's models: each buffer's swatch in its model's hue, as its box is drawn
  // (empty: the input holds one model, swatches by kind).
  void set_models(const std::vector<ModelSpan>& models);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  Problem problem_;
  std::vector<int> conflict_counts_;
  std::vector<Allocation> allocations_;
  std::vector<int> model_of_;  // per buffer: its model (-1 or empty: none)
};

}  // namespace usmpx::views
