// The status bar: the plan's summary on the right, fitted to the window by dropping its least
// important parts whole, and passing messages on the left that never run into it.
#include "status_summary.h"

#include <QFontMetrics>
#include <QLabel>
#include <QLayout>
#include <QProgressBar>
#include <QStatusBar>
#include <QTextDocument>
#include <QToolButton>
#include <algorithm>
#include <cmath>

#include "base/size_text.h"
#include "chart/byte_ticker.h"
#include "checks/plan_summary.h"
#include "explorer_controller.h"

namespace usmpx::app {
namespace {

// One part of the summary; parts of a higher rank are dropped first when the bar is too narrow.
struct StatusPart {
  QString html;
  int rank;
};

constexpr int kMargin = 24;  // between the message and the summary, and at the bar's ends

int html_width(const QString& html, const QFont& font) {
  QTextDocument doc;
  doc.setDefaultFont(font);
  doc.setDocumentMargin(0);
  doc.setHtml(html);
  return static_cast<int>(std::ceil(doc.idealWidth()));
}

QString joined(const std::vector<StatusPart>& parts) {
  QString html;
  for (const StatusPart& part : parts)
    html += (html.isEmpty() ? QString() : QStringLiteral(" · ")) + part.html;
  return html;
}

}  // namespace

StatusSummary::StatusSummary(ExplorerController* controller, QStatusBar* bar)
    : QObject(bar),
      controller_(controller),
      bar_(bar),
      totals_(new QLabel),
      progress_(new QProgressBar),
      cancel_button_(new QToolButton) {
  progress_->setMaximumWidth(160);
  progress_->setVisible(false);
  cancel_button_->setText(tr("Cancel"));
  cancel_button_->setVisible(false);
  // Always HTML: a part may be escaped ("&gt;=") in a summary without any tag.
  totals_->setTextFormat(Qt::RichText);
  bar_->addPermanentWidget(totals_);
  bar_->addPermanentWidget(progress_);
  bar_->addPermanentWidget(cancel_button_);
  // The whole of a shortened message is in the bar's tooltip while it shows.
  connect(bar_, &QStatusBar::messageChanged, this, [this](const QString& text) {
    if (!text.isEmpty()) return;
    bar_->setToolTip(QString());
    message_room_ = 0;
    update();
  });
  connect(cancel_button_, &QToolButton::clicked, controller_, &ExplorerController::cancel_planning);
}

void StatusSummary::show_busy(bool cancellable) {
  progress_->setRange(0, 0);
  progress_->setVisible(true);
  if (cancellable) cancel_button_->setVisible(true);
}

void StatusSummary::show_progress(double fraction) {
  if (fraction < 0) return;
  progress_->setRange(0, 100);
  progress_->setValue(static_cast<int>(fraction * 100));
}

void StatusSummary::hide_busy() {
  progress_->setVisible(false);
  cancel_button_->setVisible(false);
}

int StatusSummary::room_beside(int taken) const {
  int room = bar_->width() - taken - 2 * kMargin;
  if (progress_->isVisible()) room -= progress_->sizeHint().width();
  if (cancel_button_->isVisible()) room -= cancel_button_->sizeHint().width();
  return room;
}

void StatusSummary::show_message_if_whole(const QString& message, int timeout_ms) {
  const int room = bar_->width() - totals_->sizeHint().width() - 32;
  if (bar_->fontMetrics().horizontalAdvance(message) <= room) {
    show_message(message, timeout_ms);
  } else {
    bar_->clearMessage();
  }
}

QString StatusSummary::tooltip() const {
  if (!controller_->has_input()) return QString();
  // The figure a firmware needs first (TFLM's kTensorArenaSize line), then the reference plan.
  const QString runtime = controller_->runtime_memory_text();
  QString text = runtime.isEmpty() ? QString() : runtime + QStringLiteral("\n");
  text += tr("Reference plan: %1, what the input's firmware does today; the plan it opens on and the one "
             "usmpx uses without --algorithm.")
              .arg(controller_->reference_plan_text());
  const QString fidelity = controller_->reference_fidelity();
  if (!fidelity.isEmpty())
    text += tr("\n%1's plan as read; fidelity check: %2").arg(controller_->reference_name(), fidelity);
  return text;
}

void StatusSummary::update() {
  if (held_) return;  // the previous input's summary stays until the new one's first plan
  if (!controller_->has_input()) {
    totals_->setText(tr("no input"));
    whole_html_.clear();
    return;
  }
  const Plan& plan = controller_->plan();
  const int64_t total = plan.total_size();
  const int64_t lb = plan.lower_bound_bytes;
  const bool fits = plan_fits(controller_->problem(), plan);
  // Rank 0 stays whatever the width: what plan, how large, whether it fits.
  std::vector<StatusPart> parts;
  parts.push_back(
      {tr("%1 · total %2").arg(QString::fromStdString(plan.algorithm), views::format_byte_count(total)), 0});
  parts.push_back({tr("lower bound %1").arg(views::format_byte_count(lb)), 4});
  // Escaped: the summary is HTML, and "<0.1%" unescaped opened a tag that swallowed the rest of the bar.
  if (lb > 0) parts.push_back({tr("gap %1").arg(QString::fromStdString(format_gap(total, lb)).toHtmlEscaped()), 3});
  // The reference plan the input opened on, by name and bytes (what the firmware does today).
  if (controller_->reference_plan_bytes() >= 0) {
    parts.push_back({tr("reference %1: %2")
                         .arg(controller_->reference_plan_text().section(QLatin1Char(' '), 0, 0),
                              views::format_byte_count(controller_->reference_plan_bytes())),
                     6});
  }
  // A saving only for a plan that fits (difference_to_reference says none otherwise).
  if (const std::optional<qint64> delta = controller_->difference_to_reference())
    parts.push_back({tr("<b>%1 vs %2</b>").arg(views::format_byte_delta(*delta), controller_->reference_name()), 1});
  // TVM's own plan on screen: how faithfully it was read (the fidelity check).
  if (plan.algorithm == "as-built" && !controller_->reference_fidelity().isEmpty())
    parts.push_back({controller_->reference_fidelity().toHtmlEscaped(), 7});
  // What the pins cost against the same planner without them (the bound shown is the pinned problem's).
  if (const std::optional<qint64> cost = controller_->pin_cost()) {
    parts.push_back(
        {*cost == 0 ? tr("pins cost nothing") : tr("pins cost %1").arg(views::format_byte_delta(*cost)), 1});
  }
  // What the firmware needs beyond the pools (TFLM's kTensorArenaSize for the chosen build, an
  // ExecuTorch method's allocator), the answer kept as long as the plan; the whole line is in the tooltip.
  const QString runtime = controller_->runtime_status();
  const bool default_build = controller_->default_runtime_build();
  if (!runtime.isEmpty())
    parts.push_back({default_build ? runtime.toHtmlEscaped() : tr("<b>%1</b>").arg(runtime.toHtmlEscaped()), 1});
  parts.push_back({fits ? tr("fits") : tr("<b style='color:#c00'>does not fit</b>"), 0});
  // A build other than the input's default is never silent: its figures are for that build only
  // (the runtime's figure above names it, in bold; without one, said here).
  if (!default_build && runtime.isEmpty())
    parts.push_back({tr("<b>figures for %1</b>").arg(controller_->runtime_build_text().toHtmlEscaped()), 1});
  if (controller_->plan_is_first_pass()) parts.push_back({tr("<i>first pass, searching…</i>"), 1});
  if (plan.has_errors() && fits) parts.push_back({tr("<b style='color:#c00'>invalid</b>"), 0});
  parts.push_back(
      {tr("%1 buffers · %2 ms").arg(controller_->problem().buffers.size()).arg(plan.runtime_ms, 0, 'f', 1), 5});
  whole_html_ = joined(parts);
  // The room the bar leaves beside the progress bar, Cancel and the message showing (up to a third
  // of the bar: a long summary left "TFLM tree …: its kernels are …" no room at all).
  const int room = room_beside(message_room_);
  for (int rank = 7; rank > 0 && html_width(joined(parts), totals_->font()) > room; --rank)
    std::erase_if(parts, [rank](const StatusPart& p) { return p.rank == rank; });
  totals_->setText(joined(parts));
  // What was dropped to fit is in the tooltip: the summary in full, at its end.
  QString tooltip = this->tooltip();
  if (joined(parts) != whole_html_) {
    QTextDocument whole;
    whole.setHtml(whole_html_);
    tooltip += tr("\n\nIn full: %1").arg(whole.toPlainText());
  }
  totals_->setToolTip(tooltip);
}

void StatusSummary::show_message(const QString& message, int timeout_ms) {
  const QString first_line = message.section(QLatin1Char('\n'), 0, 0);
  // The summary gives way to the message, up to a third of the bar; it takes the room back when
  // the message goes (messageChanged).
  message_room_ = std::min(bar_->fontMetrics().horizontalAdvance(first_line) + 2 * kMargin, bar_->width() / 3);
  update();
  if (QLayout* layout = bar_->layout()) layout->activate();  // the summary's new width, now
  const int room = room_beside(totals_->sizeHint().width());
  const QFontMetrics metrics = bar_->fontMetrics();
  QString shown = first_line;
  if (metrics.horizontalAdvance(shown) > room) {
    // Whole words up to the room, then "…"; the message in full in the tooltip.
    const QStringList words = first_line.split(QLatin1Char(' '));
    shown.clear();
    for (const QString& word : words) {
      const QString next = shown.isEmpty() ? word : shown + QLatin1Char(' ') + word;
      if (metrics.horizontalAdvance(next + QStringLiteral(" …")) > room) {
        // A path is the point of its message ("Wrote /a/b/c.pte"): keep its end, elided in the middle.
        if (word.contains(QLatin1Char('/')) && !shown.isEmpty()) {
          const int left = room - metrics.horizontalAdvance(shown + QStringLiteral(" "));
          // Its folder dropped first ("…/name.pte:"), then the middle of what is left.
          const QString name = QStringLiteral("…/") + word.mid(word.lastIndexOf(QLatin1Char('/')) + 1);
          const QString path =
              metrics.horizontalAdvance(name) <= left ? name : metrics.elidedText(name, Qt::ElideMiddle, left);
          if (left > 0 && path != QStringLiteral("…") && !path.isEmpty()) {
            shown += QLatin1Char(' ') + path;
            break;
          }
        }
        shown = shown.isEmpty() ? QString() : shown + QStringLiteral(" …");
        break;
      }
      shown = next;
    }
  }
  bar_->setToolTip(shown == message ? QString() : message);
  if (shown.isEmpty()) {
    bar_->clearMessage();
  } else {
    bar_->showMessage(shown, timeout_ms);
  }
}

}  // namespace usmpx::app
