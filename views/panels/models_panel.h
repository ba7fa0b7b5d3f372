#pragma once

#include <QWidget>
#include <vector>

#include "model/model_span.h"
#include "model/sharing_figures.h"

class QComboBox;
class QLabel;

namespace usmpx::views {

// A firmware file's models: which to show (all, or one: the charts zoom to its ticks and draw the
// others faint, the buffer table lists its buffers only), and per shared pool what each model
// needs alone, what the plan needs shared, the saving, and the number to paste into the firmware.
class ModelsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ModelsPanel(QWidget* parent = nullptr);
  // New models (a new input): the choice returns to all models.
  void set_models(const std::vector<ModelSpan>& models);
  // The figures for the plan shown.
  void set_sharing(const std::vector<SharedPoolFigures>& sharing);
  QComboBox* model_box() const { return model_box_; }
  QLabel* figures() const { return figures_; }
  int shown_model() const;  // -1: all

  // The figures as the panel and the reports print them (HTML, escaped).
  static QString sharing_html(const std::vector<SharedPoolFigures>& sharing);

 signals:
  void model_chosen(int model);  // -1: all models

 private:
  QComboBox* model_box_;
  QLabel* figures_;
};

}  // namespace usmpx::views
