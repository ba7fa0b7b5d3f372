#pragma once

#include <QTextBrowser>

#include "model/conflict_graph.h"
#include "model/model_span.h"
#include "model/plan.h"
#include "model/problem.h"

namespace usmpx::views {

// A buffer's live ranges as text ("689–700, 920–933"), closed tick ranges.
QString live_ranges_text(const Buffer& buffer);
// Why buffers drawn over each other in a valid plan may share addresses, naming them ("" for none).
QString shared_addresses_text(const Problem& problem, const std::vector<int>& buffers);

// Everything about one buffer: size, alignment, kind, lifetime, pool and offset, pin, conflicts
// and where in the source it comes from. Conflict names are links that select that buffer.
class InspectorWidget : public QTextBrowser {
  Q_OBJECT

 public:
  explicit InspectorWidget(QWidget* parent = nullptr);
  // `conflicts`: the buffers this one conflicts with.
  void show_buffer(const Problem& problem, const Plan& plan, const std::vector<int>& conflicts, int buffer);
  void clear_buffer();
  // A firmware file's models (empty: the input holds one): a buffer's swatch in its model's hue
  // and a row naming its model and the model's ticks.
  void set_models(std::vector<ModelSpan> models) { models_ = std::move(models); }

 signals:
  void buffer_link_activated(int buffer);

 private:
  int model_of(int buffer) const;  // which model of a firmware file the buffer is of, -1 if none
  QString buffer_rows(const Problem& problem, const Plan& plan, int buffer, int model) const;
  QString conflicts_paragraph(const Problem& problem, const std::vector<int>& conflicts) const;

  std::vector<ModelSpan> models_;
};

}  // namespace usmpx::views
