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
  // The code of the first row when the firmware needs memory beyond the pools (TFLM's
  // kTensorArenaSize line): the figure first, with why it is only "at least" when it is.
  static constexpr const char* kRuntimeMemory = "runtime-memory";

  explicit DiagnosticsModel(QObject* parent = nullptr);

  // The input's warnings that say the same thing at different places are one row with their count
  // ("(16 times)"); the same warning at the same place is one row. `runtime_memory`, when given,
  // heads the list.
  void set_diagnostics(std::vector<Diagnostic> load_warnings, std::vector<Diagnostic> plan_diagnostics,
                       const QString& runtime_memory = {});
  // A gesture the explorer refused and why, as the first row until it is set to "" (the next edit).
  void set_refusal(const QString& message);
  static constexpr const char* kRefusal = "refused";

  const Diagnostic& diagnostic(int row) const { return items_.at(static_cast<size_t>(row)); }
  int error_count() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;

 private:
  std::vector<Diagnostic> items_;
  std::string refusal_;
};

}  // namespace usmpx::views
