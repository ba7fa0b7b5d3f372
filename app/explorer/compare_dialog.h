#pragma once

#include <QDialog>
#include <vector>

class QHBoxLayout;
class QLabel;
class QScrollArea;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace usmpx::app {

class ExplorerController;

// Runs the chosen algorithms on the current constraints (in the background) and shows a table —
// per-pool size, total, gap to the lower bound, time, fits — and a small chart per algorithm.
// "Apply" makes the selected algorithm the session's.
class CompareDialog : public QDialog {
  Q_OBJECT

 public:
  CompareDialog(ExplorerController* controller, QWidget* parent = nullptr);
  void run();
  QTableWidget* table() const { return table_; }
  // The small chart of a table row (marked when its row is selected), and the note under the table.
  QWidget* chart_box(int row) const { return chart_boxes_.at(static_cast<size_t>(row)); }
  QLabel* note() const { return note_; }
  QLabel* progress() const { return progress_; }
  QPushButton* run_button() const { return run_; }

 signals:
  void apply_algorithm(const QString& algorithm);

 private:
  void show_results();
  void fit_table_height();

  ExplorerController* controller_;
  QListWidget* choices_;
  QTableWidget* table_;
  QHBoxLayout* charts_;
  QLabel* note_;
  QLabel* progress_;  // which algorithm runs, n of m
  QStringList requested_;
  QScrollArea* chart_scroll_ = nullptr;
  std::vector<QWidget*> chart_boxes_;  // parallel to the table's rows
  QPushButton* run_;
  QPushButton* apply_;
};

}  // namespace usmpx::app
