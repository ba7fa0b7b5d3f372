#pragma once

#include <QDialog>

class QHBoxLayout;
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

 signals:
  void apply_algorithm(const QString& algorithm);

 private:
  void show_results();

  ExplorerController* controller_;
  QListWidget* choices_;
  QTableWidget* table_;
  QHBoxLayout* charts_;
  QPushButton* run_;
  QPushButton* apply_;
};

}  // namespace usmpx::app
