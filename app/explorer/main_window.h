#pragma once

#include <QMainWindow>

#include "io/input_file.h"

class QLabel;
class QTableView;

namespace usmpx::views {
class AllocationTableModel;
}

namespace usmpx::app {

// The explorer's main window: for now the plan of the opened input as a table.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);

  // Loads an input and shows its greedy_by_size plan. Returns false (and shows the error) on failure.
  bool open_input(const QString& path);
  // In batch mode (screenshots) errors go to stderr instead of a dialog.
  void set_batch_mode(bool batch) { batch_mode_ = batch; }

 private:
  void open_dialog();

  views::AllocationTableModel* model_;
  QTableView* table_;
  QLabel* summary_;
  bool batch_mode_ = false;
};

}  // namespace usmpx::app
