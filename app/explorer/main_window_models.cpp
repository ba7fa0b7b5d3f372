// A firmware file of several models in the window: the Models panel (what sharing saves, which
// number to paste) and showing one model at a time in the charts and the buffer table.
#include <QComboBox>
#include <QDockWidget>
#include <unordered_set>

#include "chart/pool_chart_widget.h"
#include "explorer_controller.h"
#include "main_window.h"
#include "panels/models_panel.h"
#include "tables/buffer_filter_proxy.h"

namespace usmpx::app {
namespace {

std::vector<ModelSpan> models_of(const ExplorerController& controller) {
  return controller.has_input() && controller.input().details ? controller.input().details->models()
                                                              : std::vector<ModelSpan>{};
}

}  // namespace

QWidget* MainWindow::create_models_panel() {
  models_panel_ = new views::ModelsPanel;
  connect(models_panel_, &views::ModelsPanel::model_chosen, this, &MainWindow::show_model);
  return models_panel_;
}

void MainWindow::reset_models_panel() {
  const std::vector<ModelSpan> models = models_of(*controller_);
  models_panel_->set_models(models);
  table_proxy_->set_buffer_filter(std::nullopt);
  models_dock_->setVisible(!models.empty());
  if (!models.empty()) models_dock_->raise();
}

void MainWindow::update_models_figures() {
  if (!controller_->has_input() || !controller_->input().details) return;
  models_panel_->set_sharing(controller_->input().details->sharing(controller_->problem(), controller_->plan()));
}

void MainWindow::show_model(int model) {
  const std::vector<ModelSpan> models = models_of(*controller_);
  if (model < 0 || static_cast<size_t>(model) >= models.size()) {
    table_proxy_->set_buffer_filter(std::nullopt);
    apply_filter();
    chart_->reset_view();
    return;
  }
  const ModelSpan& span = models[static_cast<size_t>(model)];
  table_proxy_->set_buffer_filter(std::unordered_set<int>(span.buffers.begin(), span.buffers.end()));
  apply_filter();  // the charts draw the other models' boxes faint
  chart_->show_ticks(static_cast<double>(span.first_tick), static_cast<double>(span.last_tick + 1));
}

}  // namespace usmpx::app
