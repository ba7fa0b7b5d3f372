#include "main_window.h"

#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include "allocation_table_model.h"
#include "planners/registry.h"

namespace usmpx::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), model_(new views::AllocationTableModel(this)), table_(new QTableView), summary_(new QLabel) {
  setWindowTitle(tr("USMP Explorer"));
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  table_->setModel(model_);
  table_->setSortingEnabled(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  layout->addWidget(table_);
  setCentralWidget(central);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open..."), QKeySequence::Open, this, &MainWindow::open_dialog);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  resize(1000, 640);
  statusBar()->showMessage(tr("Open a problem file (File > Open)"));
}

void MainWindow::open_dialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open model or problem"), QString(),
                                                    tr("Problems (*.json *.csv);;All files (*)"));
  if (!path.isEmpty()) open_input(path);
}

bool MainWindow::open_input(const QString& path) {
  try {
    const LoadedInput input = load_input(path.toStdString());
    auto planner = make_planner("greedy_by_size");
    const Plan plan = run_planner(*planner, input.problem, PlannerOptions{});
    model_->set_plan(input.problem, plan);
    table_->resizeColumnsToContents();
    summary_->setText(tr("<b>%1</b>: %2 buffers, %3 pools; greedy_by_size total %4 bytes, lower bound %5 bytes")
                          .arg(path.toHtmlEscaped())
                          .arg(input.problem.buffers.size())
                          .arg(input.problem.pools.size())
                          .arg(plan.total_size())
                          .arg(plan.lower_bound_bytes));
    statusBar()->showMessage(tr("Loaded %1").arg(path));
    return true;
  } catch (const std::exception& e) {
    if (batch_mode_) {
      qWarning("%s", e.what());
    } else {
      QMessageBox::critical(this, tr("Cannot open input"), QString::fromStdString(e.what()));
    }
    return false;
  }
}

}  // namespace usmpx::app
