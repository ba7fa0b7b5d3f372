#include "panels/inspector_widget.h"

#include <algorithm>
#include <set>

#include "base/input_error.h"
#include "chart/box_colors.h"
#include "chart/byte_ticker.h"
#include "checks/plan_profile.h"
#include "checks/shared_addresses.h"
#include "model/live_ranges.h"

namespace usmpx::views {
namespace {

QString html(const std::string& text) {
  return QString::fromStdString(text).toHtmlEscaped();
}

}  // namespace

QString live_ranges_text(const Buffer& buffer) {
  QString text;
  for (const Lifetime& r : live_ranges_of(buffer))
    text += (text.isEmpty() ? QString() : QStringLiteral(", ")) +
            (r.first() == r.last() ? QString::number(r.first()) : QStringLiteral("%1–%2").arg(r.first()).arg(r.last()));
  return text;
}

QString shared_addresses_text(const Problem& problem, const std::vector<int>& buffers) {
  if (buffers.empty()) return QString();
  QString names;
  int shown = 0;
  for (int o : buffers) {
    if (++shown > 5) {
      names += QObject::tr(" and %1 more").arg(buffers.size() - 5);
      break;
    }
    names += (shown == 1 ? QString() : QStringLiteral(", ")) + html(problem.buffers[static_cast<size_t>(o)].name);
  }
  return QObject::tr(
             "Drawn over %1: not live at the same time as the conflicts are computed (the analysis "
             "lists no conflict between them), so sharing these addresses is valid.")
      .arg(names);
}

InspectorWidget::InspectorWidget(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(false);
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == QStringLiteral("buffer")) emit buffer_link_activated(url.path().toInt());
  });
  clear_buffer();
}

void InspectorWidget::clear_buffer() {
  setHtml(tr("<p style='color:gray'>Select a buffer in a chart or the table.</p>"));
}

int InspectorWidget::model_of(int buffer) const {
  for (size_t m = 0; m < models_.size(); ++m) {
    if (std::find(models_[m].buffers.begin(), models_[m].buffers.end(), buffer) != models_[m].buffers.end())
      return static_cast<int>(m);
  }
  return -1;
}

// The table of what the buffer is (model, size, type, lifetime) and where it is (placement,
// candidate pools, pin, origin in the code).
QString InspectorWidget::buffer_rows(const Problem& problem, const Plan& plan, int buffer, int model) const {
  const Buffer& b = problem.buffers[static_cast<size_t>(buffer)];
  const Allocation a = static_cast<size_t>(buffer) < plan.allocations.size()
                           ? plan.allocations[static_cast<size_t>(buffer)]
                           : Allocation{};
  QString text = QStringLiteral("<table cellspacing='2'>");
  auto row = [&](const QString& key, const QString& value) {
    text += QStringLiteral("<tr><td style='color:#555'>%1</td><td>%2</td></tr>").arg(key, value);
  };
  if (model >= 0) {
    const ModelSpan& span = models_[static_cast<size_t>(model)];
    row(tr("model"), tr("%1 (ticks %2–%3)").arg(html(span.name)).arg(span.first_tick).arg(span.last_tick));
  }
  row(tr("size"), format_byte_count_exact(b.size_bytes));
  row(tr("alignment"), QString::number(b.alignment));
  row(tr("kind"), html(kind_label(b)));
  if (!b.dtype.empty()) {
    QString shape;
    for (int64_t d : b.shape)
      shape += (shape.isEmpty() ? QString() : QStringLiteral(" × ")) + QString::number(d);
    row(tr("type"), html(b.dtype) + (shape.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(shape)));
  }
  if (b.lifetime) row(tr("lifetime"), tr("ticks %1 to %2").arg(b.lifetime->first()).arg(b.lifetime->last()));
  if (!b.live_ranges.empty()) row(tr("live"), tr("only in ticks %1").arg(live_ranges_text(b)));
  if (a.placed()) {
    row(tr("placed"), tr("%1 at offset %2 (to %3)")
                          .arg(html(problem.pools[static_cast<size_t>(a.pool)].name))
                          .arg(a.offset)
                          .arg(a.offset + b.size_bytes));
  } else {
    row(tr("placed"), tr("<span style='color:#c00'>not placed</span>"));
  }
  QString candidates;
  for (int p : b.pool_candidates)
    candidates +=
        (candidates.isEmpty() ? QString() : QStringLiteral(", ")) + html(problem.pools[static_cast<size_t>(p)].name);
  row(tr("candidate pools"), candidates.isEmpty() ? tr("none") : candidates);
  if (b.pin) {
    row(tr("pinned"), html(problem.pools[static_cast<size_t>(b.pin->pool)].name) +
                          (b.pin->offset ? tr(" at offset %1").arg(*b.pin->offset) : QString()));
  }
  if (!b.origin.function.empty() || !b.origin.location.file.empty()) {
    QString origin = html(b.origin.function);
    const std::string where = format_location(b.origin.location);
    if (!where.empty()) origin += QStringLiteral("<br><code>%1</code>").arg(html(where));
    row(tr("origin"), origin);
  }
  return text + QStringLiteral("</table>");
}

// The buffers live at the same time, as links (the first 200).
QString InspectorWidget::conflicts_paragraph(const Problem& problem, const std::vector<int>& conflicts) const {
  const std::set<int> unique(conflicts.begin(), conflicts.end());
  QString text = tr("<p><b>%1 conflicts</b> (live at the same time)").arg(unique.size());
  int shown = 0;
  for (int c : unique) {
    if (++shown > 200) {
      text += tr(", …");
      break;
    }
    text += (shown == 1 ? QStringLiteral(": ") : QStringLiteral(", ")) +
            QStringLiteral("<a href='buffer:%1'>%2</a>").arg(c).arg(html(problem.buffers[static_cast<size_t>(c)].name));
  }
  return text + QStringLiteral("</p>");
}

void InspectorWidget::show_buffer(const Problem& problem, const Plan& plan, const std::vector<int>& conflicts,
                                  int buffer) {
  if (buffer < 0 || static_cast<size_t>(buffer) >= problem.buffers.size()) {
    clear_buffer();
    return;
  }
  const Buffer& b = problem.buffers[static_cast<size_t>(buffer)];
  const int model = model_of(buffer);
  QString text = QStringLiteral("<h3><span style='color:%1'>&#9632;</span> %2</h3>")
                     .arg(box_color(model, buffer_role(b)).name(), html(b.name));
  text += buffer_rows(problem, plan, buffer, model);
  text += conflicts_paragraph(problem, conflicts);
  const QString shared = shared_addresses_text(problem, drawn_over_without_conflict(problem, plan, buffer, conflicts));
  if (!shared.isEmpty()) text += QStringLiteral("<p>%1</p>").arg(shared);
  setHtml(text);
}

}  // namespace usmpx::views
