#include "plan_presentation.h"

#include <algorithm>

#include "base/size_text.h"
#include "chart/byte_ticker.h"
#include "checks/shared_addresses.h"
#include "explorer_controller.h"
#include "inputs/input_facts.h"
#include "panels/inspector_widget.h"

namespace usmpx::app {

QString buffer_tooltip(const ExplorerController& c, int buffer) {
  const Buffer& b = c.problem().buffers.at(static_cast<size_t>(buffer));
  const Allocation& a = c.plan().allocations.at(static_cast<size_t>(buffer));
  QString text = QStringLiteral("<b>%1</b><br>%2")
                     .arg(QString::fromStdString(b.name).toHtmlEscaped(), views::format_byte_count_exact(b.size_bytes));
  if (a.placed()) {
    text += QObject::tr(" at %1 in %2")
                .arg(QString::fromStdString(with_separators(a.offset)))
                .arg(QString::fromStdString(c.problem().pools[static_cast<size_t>(a.pool)].name));
  }
  // What the box shows: a constant is drawn across the whole run, since it stays in memory.
  if (b.kind == BufferKind::kConstant) {
    text += QObject::tr("<br>drawn across the whole run: constants stay in memory");
    if (b.lifetime) text += QObject::tr(" (used at ticks %1–%2)").arg(b.lifetime->first()).arg(b.lifetime->last());
  } else if (!b.live_ranges.empty()) {
    text += QObject::tr("<br>live only in ticks %1 (one box each)").arg(views::live_ranges_text(b));
  } else if (b.lifetime) {
    text += QObject::tr("<br>live ticks %1–%2").arg(b.lifetime->first()).arg(b.lifetime->last());
  } else if (!c.problem().interval_conflicts()) {
    text += QObject::tr("<br>no lifetime: its conflicts are listed (%1), drawn in a column of its own")
                .arg(c.conflict_counts().at(static_cast<size_t>(buffer)));
  }
  text += QObject::tr("<br>kind: %1").arg(QString::fromStdString(kind_label(b)));
  if (!b.origin.function.empty())
    text += QObject::tr("<br>in %1").arg(QString::fromStdString(b.origin.function).toHtmlEscaped());
  if (b.pin) text += QObject::tr("<br><i>pinned</i>");
  const QString shared = views::shared_addresses_text(
      c.problem(), drawn_over_without_conflict(c.problem(), c.plan(), buffer, c.conflicts_of(buffer)));
  if (!shared.isEmpty()) text += QStringLiteral("<br>") + shared;
  return text;
}

views::ChartData plan_chart_data(const ExplorerController& controller, const PlanSummary& summary) {
  const Problem& problem = controller.problem();
  const Plan& plan = controller.plan();
  views::ChartData data = views::build_chart_data(problem, plan, summary);
  // Whose plan the reference is, also before it is drawn (the legend names it: ExecuTorch's, TFLM's).
  for (views::PoolChartData& pool : data.pools)
    pool.reference_name = controller.reference_name();
  if (controller.has_reference() && plan.algorithm != "as-built") {
    views::add_reference(data, problem, controller.reference_allocations(), controller.reference_pool_bytes(),
                         controller.reference_name());
  }
  // A firmware file's models: each in its own hue, its ticks labelled (core says which is which).
  if (const auto& details = controller.input().details) {
    views::add_models(data, details->models());
    // The figure to paste heads the header of the pool it sizes (TFLM's arena).
    if (const std::optional<FigureToPaste> figure = details->firmware_figure(problem, plan);
        figure && figure->pool >= 0 && static_cast<size_t>(figure->pool) < data.pools.size())
      data.pools[static_cast<size_t>(figure->pool)].headline = QString::fromStdString(figure->text());
  }
  return data;
}

std::vector<QString> export_sections(const ExplorerController& controller) {
  std::vector<QString> sections;
  const std::vector<ExportedPool> exported = controller.exported_pools();
  for (const PoolSetting& setting : controller.edits().pools) {
    const auto same = [&](const ExportedPool& e) { return e.name == setting.pool.name; };
    const auto it = std::find_if(exported.begin(), exported.end(), same);
    sections.push_back(it == exported.end() ? QString() : QString::fromStdString(it->section));
  }
  return sections;
}

}  // namespace usmpx::app
