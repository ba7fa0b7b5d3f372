#include "panels/models_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace usmpx::views {

ModelsPanel::ModelsPanel(QWidget* parent) : QWidget(parent), model_box_(new QComboBox), figures_(new QLabel) {
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Show")));
  row->addWidget(model_box_, 1);
  layout->addLayout(row);
  figures_->setWordWrap(true);
  figures_->setTextFormat(Qt::RichText);
  figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  figures_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(figures_, 1);
  model_box_->setToolTip(
      tr("One model at a time: the charts zoom to its ticks and draw the other models faint; "
         "the buffer table lists its buffers only"));
  connect(model_box_, qOverload<int>(&QComboBox::activated), this, [this] { emit model_chosen(shown_model()); });
}

void ModelsPanel::set_models(const std::vector<ModelSpan>& models) {
  model_box_->clear();
  model_box_->addItem(tr("All models"));
  for (const ModelSpan& model : models)
    model_box_->addItem(
        tr("%1 (ticks %2–%3)").arg(QString::fromStdString(model.name)).arg(model.first_tick).arg(model.last_tick));
  model_box_->setCurrentIndex(0);
}

int ModelsPanel::shown_model() const {
  return model_box_->currentIndex() - 1;
}

void ModelsPanel::set_sharing(const std::vector<SharedPoolFigures>& sharing) {
  figures_->setText(sharing.empty() ? tr("The models share no pool: nothing is saved by sharing.")
                                    : sharing_html(sharing));
}

QString ModelsPanel::sharing_html(const std::vector<SharedPoolFigures>& sharing) {
  QString html;
  for (const SharedPoolFigures& f : sharing) {
    html += QStringLiteral("<p><b>%1</b>%2: %3<br><b>%4</b></p>")
                .arg(QString::fromStdString(f.pool).toHtmlEscaped(),
                     f.runtime_arena ? tr(" (kTensorArenaSize)") : QString(),
                     QString::fromStdString(sharing_text(f)).toHtmlEscaped(),
                     QString::fromStdString(paste_text(f)).toHtmlEscaped());
  }
  return html;
}

}  // namespace usmpx::views
