#pragma once

#include <QDialog>
#include <optional>
#include <vector>

#include "frontends/frontend.h"
#include "model/plan.h"

class QHBoxLayout;
class QLabel;
class QScrollArea;
class QListWidget;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace usmpx {
struct ComparedPlan;
}

namespace usmpx::app {

class ExplorerController;

// Runs the chosen algorithms on the current constraints (in the background) and shows a table —
// per-pool size, total, gap to the lower bound, time, fits — and a small chart per algorithm.
// Each row fills as soon as its plan is made; rows still to come say "running…" or "waiting".
// "Apply" makes the selected algorithm the session's.
class CompareDialog : public QDialog {
  Q_OBJECT

 public:
  CompareDialog(ExplorerController* controller, QWidget* parent = nullptr);
  void run();
  QTableWidget* table() const { return table_; }
  QListWidget* choices() const { return choices_; }  // the algorithms to run, checked
  // The small chart of a table row (marked when its row is selected), and the note under the table.
  QWidget* chart_box(int row) const { return rows_.at(static_cast<size_t>(row)).box; }
  QLabel* note() const { return note_; }
  QLabel* progress() const { return progress_; }
  QPushButton* run_button() const { return run_; }

 signals:
  void apply_algorithm(const QString& algorithm);

 private:
  void lay_out();
  // One row per algorithm run, in the order asked; `plan` set once it is made.
  struct Row {
    QString algorithm;
    std::optional<Plan> plan;
    QWidget* box = nullptr;  // its small chart, hidden until the plan is made
  };

  void start_rows();
  int row_of(int index) const;  // the row of requested_[index], -1 when it has none
  void show_selection();
  void mark_running(int index);
  void take_plan(int index, const Plan& plan);
  void show_results();
  void fill_table();
  // The figure a firmware pastes for `plan` (null: none), from the input's frontend.
  std::optional<FigureToPaste> figure_of(const Plan* plan) const;
  QTableWidgetItem* put_cell(int row, int column, const QString& text, bool right);
  void fill_waiting_row(int row, bool running);
  void fill_unmade_row(int row, const QString& reason);
  void fill_plan_row(int row, const Plan& plan, const ComparedPlan& rank, int64_t best,
                     const std::vector<int64_t>& best_pool);
  QString not_listed_note() const;
  void build_chart(Row& row);
  void update_chart_scales();
  void clear_charts();
  void fit_reason_column();
  void fit_table_height();

  ExplorerController* controller_;
  QListWidget* choices_;
  QTableWidget* table_;
  QString figure_name_;  // the column of each plan's firmware figure ("" = none for this input)
  QHBoxLayout* charts_;
  QLabel* note_;
  QLabel* progress_;  // which algorithm runs, n of m
  QStringList requested_;
  std::vector<Row> rows_;
  int running_ = -1;        // the row whose algorithm runs now
  bool comparing_ = false;  // between run() and comparison_ready
  QScrollArea* chart_scroll_ = nullptr;
  QPushButton* run_;
  QPushButton* apply_;
};

}  // namespace usmpx::app
