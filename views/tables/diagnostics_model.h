#pragma once

#include <QAbstractListModel>
#include <vector>

#include "model/diagnostic.h"

namespace usmpx::views {

// Findings to show the user: warnings from loading the input, then the plan's diagnostics.
class DiagnosticsModel : public QAbstractListModel {
  Q_OBJECT

 public:
  static constexpr int kBuffersRole = Qt::UserRole + 1;  // QList<int> of culprit buffers
  static constexpr int kPoolRole = Qt::UserRole + 2;
  // The code of the row that heads the input's warnings (below the plan's findings).
  static constexpr const char* kInputHeading = "input-heading";

  explicit DiagnosticsModel(QObject* parent = nullptr);

  void set_diagnostics(std::vector<Diagnostic> load_warnings, std::vector<Diagnostic> plan_diagnostics);
  const Diagnostic& diagnostic(int row) const { return items_.at(static_cast<size_t>(row)); }
  int error_count() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace usmpx::views
